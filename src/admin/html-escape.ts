const HTML_SPECIAL = /[&<>"']/g;
const HTML_ENTITY: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML: safe both as element text and inside a double- or single-quoted
 * attribute value. Every value, label, description, option label, error and title the admin
 * pages show goes through it.
 */
export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (character) => HTML_ENTITY[character] ?? character);
}
