/** The HMAC signature methods of OAuth 1.0a that the WooCommerce client and WooCommerce use. */
export type OAuth1SignatureMethod = 'HMAC-SHA1' | 'HMAC-SHA256';

/** What an OAuth 1.0a signature covers. */
export interface OAuth1SignatureInput {
  /** The request method, e.g. `GET`. */
  readonly method: string;
  /** The request URL; its query is not part of the base URL (the parameters carry it). */
  readonly url: string;
  /**
   * The request's parameters (query string and `oauth_*`), decoded, without
   * `oauth_signature`. A name given several times with the same value counts once.
   */
  readonly params: readonly (readonly [string, string])[];
  /** The consumer secret (the token secret is empty: WooCommerce keys have none). */
  readonly consumerSecret: string;
  /** `HMAC-SHA256` (the WooCommerce client's) or `HMAC-SHA1`. */
  readonly signatureMethod: OAuth1SignatureMethod;
}

/** RFC 3986 percent-encoding, as OAuth 1.0a (RFC 5849 §3.6) wants it. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * The signature base string (RFC 5849 §3.4.1): method, base URL (scheme, host, path) and the
 * sorted, encoded parameters. Repeated identical name/value pairs count once: the WooCommerce
 * client signs each query parameter once and then sends it twice.
 */
export function signatureBaseString(input: Pick<OAuth1SignatureInput, 'method' | 'url' | 'params'>): string {
  const url = new URL(input.url);
  const baseUrl = `${url.protocol}//${url.host}${url.pathname}`;
  const pairs = [
    ...new Set(input.params.map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)),
  ].sort((a, b) => {
    const [nameA = '', valueA = ''] = a.split('=');
    const [nameB = '', valueB = ''] = b.split('=');
    return nameA === nameB ? (valueA < valueB ? -1 : valueA > valueB ? 1 : 0) : nameA < nameB ? -1 : 1;
  });
  return [input.method.toUpperCase(), percentEncode(baseUrl), percentEncode(pairs.join('&'))].join('&');
}

/** The OAuth 1.0a signature (base64) of a request, computed with WebCrypto. */
export async function oauth1Signature(input: OAuth1SignatureInput): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    'raw',
    encoder.encode(`${percentEncode(input.consumerSecret)}&`),
    { name: 'HMAC', hash: input.signatureMethod === 'HMAC-SHA1' ? 'SHA-1' : 'SHA-256' },
    false,
    ['sign'],
  );
  const signature = await crypto.subtle.sign('HMAC', key, encoder.encode(signatureBaseString(input)));
  let binary = '';
  for (const byte of new Uint8Array(signature)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
