/**
 * Readable labels for the status screen's keys: the report keeps its snake_case keys (REST
 * clients read them), the screen shows `is_payment_gateway` as "Payment gateway".
 */

/** The members every block may have, as the screen names them. */
const KNOWN_LABELS: Readonly<Record<string, string>> = {
  is_payment_gateway: 'Payment gateway',
  settings: 'Settings',
  secrets_encrypted: 'Secrets encrypted at rest',
  unreadable_secrets: 'Unreadable secrets',
  plaintext_secrets: 'Secrets stored in plain text',
};

/** Words written in capitals (or their own way) wherever they appear in a key. */
const WORDS: Readonly<Record<string, string>> = {
  api: 'API',
  url: 'URL',
  urls: 'URLs',
  uri: 'URI',
  id: 'ID',
  ids: 'IDs',
  ip: 'IP',
  ips: 'IPs',
  json: 'JSON',
  html: 'HTML',
  http: 'HTTP',
  https: 'HTTPS',
  ssl: 'SSL',
  tls: 'TLS',
  sku: 'SKU',
  ok: 'OK',
  eu: 'EU',
  us: 'US',
};

/**
 * A status key as a label: a known member's name, else its words (`snake_case`, `kebab-case` or
 * `camelCase`) as a phrase with a capital, acronyms in capitals and a leading `is` dropped
 * (`webhook_url` → "Webhook URL", `accessToken` → "Access token", `is_live` → "Live").
 */
export function statusLabel(key: string): string {
  const known = KNOWN_LABELS[key];
  if (known !== undefined) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
  if (words.length > 1 && words[0] === 'is') words.shift();
  if (words.length === 0) return key;
  const phrase = words.map((word) => WORDS[word] ?? word);
  const first = phrase[0]!;
  phrase[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return phrase.join(' ');
}
