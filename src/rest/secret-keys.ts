import { MASKED_VALUE } from '../settings/secrets/mask';

export { MASKED_VALUE };

const SECRET_WORDS: ReadonlySet<string> = new Set([
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'secret',
  'secrets',
  'token',
  'tokens',
  'credential',
  'credentials',
  'apikey',
  'apikeys',
]);

/**
 * Whether a status key names a secret (`password`, `client_secret`, `webhookSecret`,
 * `accessToken`, `api_key`, `private-key`…): its text and number values are masked wherever
 * the status report leaves the process, over REST and on the admin status screen alike.
 */
export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return words.some(
    (word, index) =>
      SECRET_WORDS.has(word) ||
      ((word === 'key' || word === 'keys') && (words[index - 1] === 'api' || words[index - 1] === 'private')),
  );
}

/** Nesting deeper than this is masked whole rather than walked (a status report is shallow; this also bounds a cycle). */
const MAX_DEPTH = 32;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A copy of a plugin's own status members with every non-empty text or number under a secret
 * key ({@link isSecretKey}) replaced by `"********"`, at any depth: in nested objects, and in
 * arrays, whose items count as under their array's key. Other values are kept as they are;
 * objects nested deeper than 32 levels are masked whole.
 */
export function maskSecretMembers(value: unknown, key = '', depth = 0): unknown {
  if (
    (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') &&
    isSecretKey(key)
  ) {
    return value === '' ? value : MASKED_VALUE;
  }
  if (depth >= MAX_DEPTH) return typeof value === 'object' && value !== null ? MASKED_VALUE : value;
  if (Array.isArray(value)) return value.map((item) => maskSecretMembers(item, key, depth + 1));
  if (isPlainObject(value)) {
    const masked: Record<string, unknown> = {};
    for (const [entryKey, entryValue] of Object.entries(value)) {
      masked[entryKey] = maskSecretMembers(entryValue, entryKey, depth + 1);
    }
    return masked;
  }
  return value;
}
