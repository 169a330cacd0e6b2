import type { HistoryEntry, WriteVia } from '../settings/history/history-entry';
import { escapeHtml } from './html-escape';

/**
 * How the history view and the restore preview show what a history entry or a plan holds: typed
 * values (secrets arrive masked, as `"********"`, and are shown as they come), times, who and how.
 */

function emptyText(text: string): string {
  return `<span class="status-empty">${escapeHtml(text)}</span>`;
}

/**
 * One typed value as HTML: "Not set" for `null`, "Empty" for `''`, Yes / No for booleans, text as
 * it is, numbers in decimal, objects and lists as compact JSON. Escaped.
 */
export function historyValueHtml(value: unknown): string {
  if (value === null || value === undefined) return emptyText('Not set');
  if (value === '') return emptyText('Empty');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return `<span class="history-value">${escapeHtml(text)}</span>`;
}

/** `old → new` as HTML, the arrow read as "to" by screen readers. */
export function valueChangeHtml(old: unknown, next: unknown): string {
  return `${historyValueHtml(old)} <span aria-hidden="true">→</span><span class="visually-hidden"> to </span> ${historyValueHtml(next)}`;
}

/** An ISO 8601 UTC time as `<time>`: `2025-03-01 12:34:56 UTC` (text that is no such time, as it is). */
export function timeHtml(at: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(at);
  const shown = match ? `${match[1]} ${match[2]} UTC` : at;
  return `<time datetime="${escapeHtml(at)}">${escapeHtml(shown)}</time>`;
}

const VIA_LABELS: Readonly<Record<WriteVia, string>> = {
  admin: 'Settings page',
  rest: 'REST API',
  api: 'Plugin code',
  migration: 'Migration',
  import: 'Import or restore',
};

/** Through which interface a change was made, in words. */
export function viaLabel(via: WriteVia): string {
  return VIA_LABELS[via] ?? String(via);
}

/** Who made a change, in words: `User 7`, or "Unknown". */
export function actorLabel(actor: HistoryEntry['actor']): string {
  return actor === null || actor === undefined ? 'Unknown' : `User ${actor.id}`;
}
