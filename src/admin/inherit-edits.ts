import type { AdminField } from './admin-field';
import { INHERIT_SHOWN_FIELD } from './field-renderer';
import { normaliseLineBreaks } from './form-value-codec';
import { widgetRow } from './widgets/widget-table';

/**
 * Fields edited while their "Use parent value" box was ticked. Such a field inherits, so what
 * was typed into it would be thrown away while the page says "Settings saved"; the settings page
 * refuses the form instead. A field counts as edited when what it sends differs from what it
 * showed: the page posts, beside each ticked box, a digest of the texts the field showed.
 */

/**
 * The texts of a field as compared: one leading line break dropped (HTML drops it from a
 * `<textarea>`), in sorted order (a multi-select sends its options in page order).
 */
function comparable(texts: readonly string[]): string[] {
  return texts.map((text) => (text.startsWith('\n') ? text.slice(1) : text)).sort();
}

/** A short digest of a field's texts (FNV-1a, 32 bits, hex): it tells an edit, it protects nothing. */
export function textsDigest(texts: readonly string[]): string {
  let hash = 0x811c9dc5;
  for (const character of JSON.stringify(comparable(texts))) {
    hash ^= character.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The digests the form posted beside its ticked boxes, by setting id. */
function postedDigests(form: URLSearchParams): Map<string, string> {
  const digests = new Map<string, string>();
  for (const entry of form.getAll(INHERIT_SHOWN_FIELD)) {
    const colon = entry.lastIndexOf(':');
    if (colon > 0) digests.set(entry.slice(0, colon), entry.slice(colon + 1));
  }
  return digests;
}

/**
 * The ids of the fields among `inherit` (ticked boxes) whose submitted texts differ from what
 * they showed: the digest posted beside the box, else (a form without it) the texts of
 * `current`, the value the field shows now. A field absent from the form, or an empty colour or
 * range input (the browser sends a value of its own), counts as untouched.
 */
export function editedWhileInheriting(
  fields: readonly AdminField[],
  form: URLSearchParams,
  inherit: ReadonlySet<string>,
  current: ReadonlyMap<string, unknown>,
): Set<string> {
  const posted = postedDigests(form);
  const edited = new Set<string>();
  for (const field of fields) {
    const id = field.setting.getId();
    if (!inherit.has(id)) continue;
    const row = widgetRow(field.widget);
    const submitted = form.getAll(field.name).map(normaliseLineBreaks);
    if (submitted.length === 0 && !row.absentMeansEmpty) continue;
    let shown = posted.get(id);
    if (shown === undefined) {
      const texts = row.formTexts(field.setting, field.widget, current.get(id) ?? null);
      if (texts.every((text) => text === '') && row.fillsWhenEmpty(field.widget)) continue;
      shown = textsDigest(texts);
    } else if (shown === textsDigest(['']) && row.fillsWhenEmpty(field.widget)) {
      continue;
    }
    if (textsDigest(submitted) !== shown) edited.add(id);
  }
  return edited;
}
