import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { SchemaOutdatedError } from '../schema-versions/schema-outdated';
import { isScopePath } from '../scope/scope-path';
import { isEncryptedText } from '../secrets/secret-cipher';
import type { SettingsCore } from '../settings-core';
import { scopesStreamInOrder, streamScopes } from '../values/scope-stream';
import { compareText, objectKeyOrder } from './json-order';
import { secretFingerprint } from './secret-fingerprint';
import { SETTINGS_DOCUMENT_FORMAT, type SettingsDocument } from './settings-document';
import { LEVELS_PER_READ, readLevels, storedScopes } from './stored-levels';

/** Options of `exportSettings`. */
export interface ExportOptions {
  /** Only these levels (scope paths, `''` for the global level); absent: every level. */
  readonly scopes?: readonly string[];
  /** Leaves out the levels it refuses (REST leaves out those the user may not reach). */
  readonly filter?: (scope: string) => boolean | Promise<boolean>;
}

/**
 * Checks the stored settings are at this instance's schema version before they are exported or planned
 * (typed by this code's registration): due migrations run first (`migrateOnLoad`), an instance
 * at another version refuses (409).
 */
export async function readyToPlan(core: SettingsCore): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const status = await core.versions.status();
    if (status.kind === 'current' || status.kind === 'unrecorded') return;
    if (status.kind === 'pending' && core.versions.migrateOnLoad) {
      await core.migrate({});
      core.versions.forget();
      continue;
    }
    const stored = status.stored;
    throw new SchemaOutdatedError(
      core.pluginId,
      stored,
      core.versions.code,
      status.kind === 'pending' && status.migrating,
    );
  }
}

/** The levels to export, in the order the document lists them. */
async function exportedLevels(core: SettingsCore, options: ExportOptions): Promise<string[]> {
  const ids = core.settings().map((setting) => setting.getId());
  let levels: string[];
  if (options.scopes !== undefined) {
    for (const scope of options.scopes) {
      if (scope !== '' && !isScopePath(scope)) {
        throw new Framework_Plugin_Exception(
          `Cannot export the scope ${JSON.stringify(scope)}: it is not a scope path`,
          400,
        );
      }
    }
    levels = [...new Set(options.scopes)].sort(compareText);
  } else {
    levels = ['', ...(await storedScopes(core, ids))];
  }
  return objectKeyOrder(levels);
}

/**
 * One level's stored values, typed by today's registration (no defaults), in registration
 * order; a secret as `{ "$secret": fingerprint }`. Texts that do not read (and undecryptable
 * secrets) are left out. `undefined` when nothing is stored.
 */
async function exportLevel(
  core: SettingsCore,
  scope: string,
  texts: ReadonlyMap<string, string>,
  salt: string,
): Promise<Record<string, unknown> | undefined> {
  const values: Record<string, unknown> = {};
  let any = false;
  for (const setting of core.settings()) {
    const id = setting.getId();
    let text = texts.get(id);
    if (text === undefined) continue;
    const key = core.schema.keyOf(id, scope);
    if (setting.isSecret() && isEncryptedText(text)) {
      if (core.cipher === undefined) continue;
      try {
        text = await core.cipher.decrypt(text, key);
      } catch {
        continue;
      }
    }
    const value = setting.codec.decode(text);
    if (value === undefined) continue;
    values[id] = setting.isSecret()
      ? { $secret: secretFingerprint(salt, key, setting.codec.encode(value)) }
      : value;
    any = true;
  }
  return any ? values : undefined;
}

/** The levels of the export and their values, in document order. */
async function* exportedValues(
  core: SettingsCore,
  options: ExportOptions,
): AsyncGenerator<[string, Record<string, unknown>]> {
  await readyToPlan(core);
  const salt = await core.services.salt.text();
  const ids = core.settings().map((setting) => setting.getId());
  const level = async (scope: string, texts: ReadonlyMap<string, string>) => {
    if (options.filter !== undefined && (await options.filter(scope)) !== true) return undefined;
    return exportLevel(core, scope, texts, salt);
  };
  if (
    options.scopes === undefined &&
    ids.length > 0 &&
    (await scopesStreamInOrder(core.services, core.schema, ids[0]!))
  ) {
    yield* streamedLevels(core, ids, level);
    return;
  }
  yield* readLevelsInOrder(core, await exportedLevels(core, options), ids, level);
}

/** Reads the texts of the given levels {@link LEVELS_PER_READ} at a time, and yields each exported one. */
async function* readLevelsInOrder(
  core: SettingsCore,
  levels: readonly string[],
  ids: readonly string[],
  level: (scope: string, texts: ReadonlyMap<string, string>) => Promise<Record<string, unknown> | undefined>,
): AsyncGenerator<[string, Record<string, unknown>]> {
  for (let start = 0; start < levels.length; start += LEVELS_PER_READ) {
    const batch = levels.slice(start, start + LEVELS_PER_READ);
    const read = await readLevels(core, batch, ids);
    for (const scope of batch) {
      const values = await level(scope, read.get(scope)!);
      if (values !== undefined) yield [scope, values];
    }
  }
}

/**
 * Every level of a store whose scans are ordered, in one pass: the scans of every setting merged,
 * values beside keys (no level read twice). Document order puts integer-like scopes first (see
 * json-order.ts): they — and the global level and the other scopes that sort before letters —
 * are only named during the pass, then read and yielded in that order once the pass is beyond
 * them; from there on each scope is yielded as the pass reaches it. Memory holds a page (of every
 * setting, with `scanSuffixes`; else one per setting) and the names of the scopes that sort
 * before letters.
 */
async function* streamedLevels(
  core: SettingsCore,
  ids: readonly string[],
  level: (scope: string, texts: ReadonlyMap<string, string>) => Promise<Record<string, unknown> | undefined>,
): AsyncGenerator<[string, Record<string, unknown>]> {
  let early: string[] | undefined = [''];
  for await (const batch of streamScopes(core.services, core.schema, ids, LEVELS_PER_READ)) {
    for (const found of batch) {
      if (early !== undefined && found.scope < 'A') {
        early.push(found.scope);
        continue;
      }
      if (early !== undefined) {
        yield* readLevelsInOrder(core, objectKeyOrder(early), ids, level);
        early = undefined;
      }
      const values = await level(found.scope, found.read?.texts ?? new Map());
      if (values !== undefined) yield [found.scope, values];
    }
  }
  if (early !== undefined) yield* readLevelsInOrder(core, objectKeyOrder(early), ids, level);
}

/** The document's members before `levels`, in order. */
function head(core: SettingsCore): Omit<SettingsDocument, 'levels'> {
  return {
    format: SETTINGS_DOCUMENT_FORMAT,
    version: 1,
    plugin: core.pluginId,
    schema_version: core.versions.code,
  };
}

/** `settings.exportSettings()` (CONTRACT §13): the stored values of every level (or those named) as a document. */
export async function exportSettings(
  core: SettingsCore,
  options: ExportOptions = {},
): Promise<SettingsDocument> {
  const levels: Record<string, Record<string, unknown>> = {};
  for await (const [scope, values] of exportedValues(core, options)) levels[scope] = values;
  return { ...head(core), levels };
}

/**
 * The export as JSON text, a level at a time: exactly the bytes of
 * `JSON.stringify(await exportSettings(options))`, with memory bounded by a batch of levels
 * (what REST and the CLI send for a large store).
 */
export async function* exportSettingsText(
  core: SettingsCore,
  options: ExportOptions = {},
): AsyncGenerator<string> {
  const values = exportedValues(core, options);
  // The first level is read before anything is sent, so a refusal (409, 400) is still an error.
  let next = await values.next();
  const opening = JSON.stringify(head(core));
  yield `${opening.slice(0, -1)},"levels":{`;
  let first = true;
  while (!next.done) {
    const [scope, level] = next.value;
    yield `${first ? '' : ','}${JSON.stringify(scope)}:${JSON.stringify(level)}`;
    first = false;
    next = await values.next();
  }
  yield '}}';
}
