import { constantTimeEqual, RestError, type RestUser } from 'commerce-plugin-framework';
import { NonceCache } from './nonce-cache';
import { type OAuth1SignatureMethod, oauth1Signature } from './oauth1-signature';

/** One WooCommerce-style API key: its secret and the user it stands for. */
export interface WooCommerceKey {
  /** The consumer secret (`cs_…`). */
  readonly consumerSecret: string;
  /** Who requests signed with this key are. */
  readonly user: RestUser;
}

/** Options of {@link wooCommerceAuthenticate}. */
export interface WooCommerceAuthOptions {
  /** The API keys by consumer key (`ck_…`), or a lookup (e.g. in a database). */
  readonly keys:
    | Readonly<Record<string, WooCommerceKey>>
    | ((consumerKey: string) => WooCommerceKey | null | Promise<WooCommerceKey | null>);
  /** How far `oauth_timestamp` may be from the server's clock, in seconds; default 900 (WooCommerce's). */
  readonly windowSeconds?: number;
  /** The clock, in milliseconds; default `Date.now`. */
  readonly now?: () => number;
  /**
   * Whether a request came over TLS: only then are the consumer key and secret accepted as
   * they are (Basic authentication, or `consumer_key` / `consumer_secret` in the query).
   * Default: the request's URL is `https:`. Behind a proxy that terminates TLS, read its
   * header here.
   */
  readonly isSecure?: (request: Request) => boolean;
}

const SIGNATURE_METHODS: readonly OAuth1SignatureMethod[] = ['HMAC-SHA1', 'HMAC-SHA256'];
const BASIC = /^Basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i;

function authenticationError(message: string): RestError {
  return new RestError('woocommerce_rest_authentication_error', message, 401);
}

/** The one value of a parameter given once, or several times with the same value (the client sends them twice). */
function single(params: URLSearchParams, name: string): string | null {
  const values = new Set(params.getAll(name));
  if (values.size > 1) throw authenticationError(`${name} was given more than once, with different values.`);
  return values.size === 0 ? null : [...values][0]!;
}

/**
 * An `authenticate` for the WooCommerce REST API's key pairs, as the official JavaScript client
 * (`@woocommerce/woocommerce-rest-api`) sends them:
 *
 * - over plain http, OAuth 1.0a "one-legged" in the query string: the `HMAC-SHA256` (or
 *   `HMAC-SHA1`) signature is checked with WebCrypto against the key's secret, the timestamp
 *   must be within `windowSeconds` of the server's clock and the nonce unused within that
 *   window (a replay is refused);
 * - over https, the key and secret themselves: `Authorization: Basic` (the client's default)
 *   or `consumer_key` and `consumer_secret` in the query (`queryStringAuth: true`), the secret
 *   compared in constant time.
 *
 * A request without credentials is anonymous (`null`); wrong credentials are answered 401
 * `woocommerce_rest_authentication_error`.
 */
export function wooCommerceAuthenticate(
  options: WooCommerceAuthOptions,
): (request: Request) => Promise<RestUser | null> {
  const windowSeconds = options.windowSeconds ?? 900;
  const now = options.now ?? Date.now;
  const isSecure = options.isSecure ?? ((request: Request) => new URL(request.url).protocol === 'https:');
  const { keys } = options;
  const findKey = async (consumerKey: string) =>
    typeof keys === 'function'
      ? await keys(consumerKey)
      : Object.hasOwn(keys, consumerKey)
        ? keys[consumerKey]!
        : null;
  const nonces = new NonceCache(windowSeconds);

  const withSecret = async (consumerKey: string, secret: string): Promise<RestUser> => {
    const key = await findKey(consumerKey);
    if (key === null || !constantTimeEqual(secret, key.consumerSecret)) {
      throw authenticationError('The consumer key or secret is invalid.');
    }
    return key.user;
  };

  const withSignature = async (request: Request, url: URL, consumerKey: string): Promise<RestUser> => {
    const params = url.searchParams;
    const signature = single(params, 'oauth_signature');
    const method = single(params, 'oauth_signature_method');
    const timestamp = Number(single(params, 'oauth_timestamp'));
    const nonce = single(params, 'oauth_nonce');
    if (
      signature === null ||
      nonce === null ||
      !SIGNATURE_METHODS.includes(method as OAuth1SignatureMethod)
    ) {
      throw authenticationError('Missing or invalid OAuth parameters: sign with HMAC-SHA256 or HMAC-SHA1.');
    }
    const seconds = Math.floor(now() / 1000);
    if (!Number.isSafeInteger(timestamp) || Math.abs(seconds - timestamp) > windowSeconds) {
      throw authenticationError('Invalid timestamp: it is too far from the server time.');
    }
    const key = await findKey(consumerKey);
    if (key === null) throw authenticationError('The consumer key is invalid.');
    const expected = await oauth1Signature({
      method: request.method,
      url: request.url,
      params: [...params].filter(([name]) => name !== 'oauth_signature'),
      consumerSecret: key.consumerSecret,
      signatureMethod: method as OAuth1SignatureMethod,
    });
    if (!constantTimeEqual(signature, expected)) {
      throw authenticationError('Invalid signature: the provided signature does not match.');
    }
    // Only a correctly signed request uses up its nonce.
    if (!nonces.use(consumerKey, nonce, timestamp, seconds)) {
      throw authenticationError('Invalid nonce: it has already been used.');
    }
    return key.user;
  };

  return async (request) => {
    const url = new URL(request.url);
    const oauthKey = single(url.searchParams, 'oauth_consumer_key');
    if (oauthKey !== null) return withSignature(request, url, oauthKey);
    if (!isSecure(request)) return null;
    const basic = BASIC.exec(request.headers.get('authorization') ?? '')?.[1];
    if (basic !== undefined) {
      const decoded = atob(basic);
      const colon = decoded.indexOf(':');
      if (colon === -1) throw authenticationError('Malformed Basic credentials.');
      return withSecret(decoded.slice(0, colon), decoded.slice(colon + 1));
    }
    const consumerKey = single(url.searchParams, 'consumer_key');
    const consumerSecret = single(url.searchParams, 'consumer_secret');
    if (consumerKey !== null && consumerSecret !== null) return withSecret(consumerKey, consumerSecret);
    return null;
  };
}
