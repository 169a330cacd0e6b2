import type { AdminPluginInfo } from '../rest/admin-hook';
import { isSecretKey, MASKED_VALUE } from '../rest/secret-keys';
import { escapeHtml } from './html-escape';
import { statusLabel } from './status-labels';

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

/** How the keys of one level of the report are shown: a label per key. */
type LabelOf = (key: string) => string;

/**
 * One status value as readable HTML: booleans as Yes/No, `null` as "Not set", lists and
 * objects as nested lists with readable labels (`webhook_url` → "Webhook URL", the key itself
 * in the label's `title`), values under secret-looking keys masked. Everything is escaped.
 */
export function renderStatusValue(value: unknown, key = '', depth = 0): string {
  return renderValue(value, key, depth, statusLabel);
}

/**
 * {@link renderStatusValue}, the keys of an object `value` labelled by `labelOf`, those of the
 * levels below by `nestedLabelOf`.
 */
function renderValue(
  value: unknown,
  key: string,
  depth: number,
  labelOf: LabelOf,
  nestedLabelOf: LabelOf = statusLabel,
): string {
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
    return renderStatusEntries(entries, depth + 1, labelOf, nestedLabelOf);
  }
  return escapeHtml(String(value));
}

/** The entries of an object as a list: the label (the key in its `title`), then the value. Masking reads the key. */
function renderStatusEntries(
  entries: readonly [string, unknown][],
  depth: number,
  labelOf: LabelOf,
  nestedLabelOf: LabelOf,
): string {
  const items = entries
    .map(
      ([entryKey, entryValue]) =>
        `<li><span class="status-key" title="${escapeHtml(entryKey)}">${escapeHtml(labelOf(entryKey))}:</span> ${renderValue(entryValue, entryKey, depth, nestedLabelOf, nestedLabelOf)}</li>`,
    )
    .join('');
  return `<ul class="status-list">${items}</ul>`;
}

/** A key as it is: the keys inside a setting's value are data, not labels. */
const asWritten: LabelOf = (key) => key;

/** A plugin's block: its members labelled, the ids under `settings` by the plugin's setting labels. */
function renderBlock(block: Record<string, unknown>, plugin: AdminPluginInfo): string {
  const settingLabels = plugin.settingLabels ?? {};
  const entries = Object.entries(block);
  if (entries.length === 0) return emptyText('None');
  const items = entries
    .map(([key, value]) => {
      const label = `<span class="status-key" title="${escapeHtml(key)}">${escapeHtml(statusLabel(key))}:</span>`;
      if (key !== 'settings') return `<li>${label} ${renderValue(value, key, 1, statusLabel)}</li>`;
      // The settings by their labels; what their values hold as written.
      const settingLabel: LabelOf = (id) =>
        Object.hasOwn(settingLabels, id) ? settingLabels[id]! : statusLabel(id);
      return `<li>${label} ${renderValue(value, key, 1, settingLabel, asWritten)}</li>`;
    })
    .join('');
  return `<ul class="status-list">${items}</ul>`;
}

/**
 * The status screen's content: one section per plugin, under the plugin's name, listing its
 * block of the system-status report (`${commercePrefix}_${pluginId}`) with readable labels —
 * the settings by their labels (`plugin.settingLabels`), other keys in words — the keys kept in
 * each label's `title`. Plugins without settings are included; a plugin missing from the
 * report says so.
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
        ? renderBlock(block, plugin)
        : `<p>${emptyText('This plugin reports no status.')}</p>`;
      return `<section class="card status-block" aria-labelledby="${headingId}"><h2 id="${headingId}">${escapeHtml(
        plugin.name,
      )}</h2><p class="status-id">${escapeHtml(key)}</p>${content}</section>`;
    })
    .join('\n');
}
