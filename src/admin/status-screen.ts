import type { AdminPluginInfo } from '../rest/admin-hook';
import { isSecretKey, MASKED_VALUE } from '../rest/secret-keys';
import { escapeHtml } from './html-escape';

/** What a secret looks like on the status screen (the REST report's `MASKED_VALUE`). */
export const MASKED_SECRET = MASKED_VALUE;

/** Nesting deeper than this is shown as JSON text rather than further lists. */
const MAX_LIST_DEPTH = 8;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function emptyText(text: string): string {
  return `<span class="status-empty">${escapeHtml(text)}</span>`;
}

/**
 * One status value as readable HTML: booleans as Yes/No, `null` as "Not set", lists and
 * objects as nested lists, values under secret-looking keys masked. Everything is escaped.
 */
export function renderStatusValue(value: unknown, key = '', depth = 0): string {
  if (value === null || value === undefined) return emptyText('Not set');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if ((typeof value === 'string' || typeof value === 'number') && isSecretKey(key)) {
    return value === '' ? emptyText('Not set') : MASKED_SECRET;
  }
  if (typeof value === 'string') {
    return value === '' ? emptyText('Empty') : `<span class="status-text">${escapeHtml(value)}</span>`;
  }
  if (typeof value === 'number' || typeof value === 'bigint') return escapeHtml(String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return emptyText('None');
    if (depth >= MAX_LIST_DEPTH) return escapeHtml(JSON.stringify(value) ?? '');
    const items = value.map((item) => `<li>${renderStatusValue(item, key, depth + 1)}</li>`).join('');
    return `<ul class="status-list">${items}</ul>`;
  }
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return emptyText('None');
    if (depth >= MAX_LIST_DEPTH) return escapeHtml(JSON.stringify(value) ?? '');
    return renderStatusEntries(entries, depth + 1);
  }
  return escapeHtml(String(value));
}

function renderStatusEntries(entries: readonly [string, unknown][], depth: number): string {
  const items = entries
    .map(
      ([entryKey, entryValue]) =>
        `<li><span class="status-key">${escapeHtml(entryKey)}:</span> ${renderStatusValue(entryValue, entryKey, depth)}</li>`,
    )
    .join('');
  return `<ul class="status-list">${items}</ul>`;
}

/**
 * The status screen's content: one section per plugin, under the plugin's name, listing its
 * block of the system-status report (`${commercePrefix}_${pluginId}`). Plugins without
 * settings are included; a plugin missing from the report says so.
 */
export function renderStatusBlocks(
  report: Readonly<Record<string, unknown>>,
  plugins: readonly AdminPluginInfo[],
  commercePrefix: string,
): string {
  if (plugins.length === 0) return '<div class="card"><p>No plugins are registered.</p></div>';
  return plugins
    .map((plugin, index) => {
      const key = `${commercePrefix}_${plugin.id}`;
      const block = report[key];
      const headingId = `status-plugin-${index}`;
      const content = isPlainObject(block)
        ? renderStatusValue(block)
        : `<p>${emptyText('This plugin reports no status.')}</p>`;
      return `<section class="card status-block" aria-labelledby="${headingId}"><h2 id="${headingId}">${escapeHtml(
        plugin.name,
      )}</h2><p class="status-id">${escapeHtml(key)}</p>${content}</section>`;
    })
    .join('\n');
}
