const JSON_SUFFIX_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9!#$&^_.+-]*\+json$/;
const CHARSET_PARAM = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * Whether a `Content-Type` header names JSON: `application/json` or any `type/subtype+json`,
 * with no charset other than UTF-8. Parameters other than `charset` are ignored.
 */
export function isJsonContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (essence !== 'application/json' && !JSON_SUFFIX_TYPE.test(essence)) return false;
  if (semicolon === -1) return true;
  const charset = CHARSET_PARAM.exec(contentType)?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}
