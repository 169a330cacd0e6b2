import type { StoreWrite } from '../../storage/store-commit';
import type { WriteActor, WriteVia } from '../history/history-entry';
import { newEntryId, type SealedValues, type StoredHistoryEntry } from '../history/history-entry';
import { sealTexts } from '../history/history-log';
import { MASKED_VALUE, maskValue } from '../secrets/mask';
import { isEncryptedText } from '../secrets/secret-cipher';
import type { LevelServices } from '../values/level-services';
import { LevelTexts } from './level-texts';

/** The stored texts of one level, by setting id, as read from the store (ciphertexts as they are). */
export type StoredLevel = ReadonlyMap<string, string>;

/**
 * Reads a level's stored texts into plain ones: ciphertexts (`enc:`) are decrypted with their own
 * storage key, whether or not their id is registered; those that do not decrypt are marked
 * unreadable.
 */
export async function decryptLevel(
  services: LevelServices,
  scope: string,
  stored: StoredLevel,
): Promise<LevelTexts> {
  const state = new LevelTexts();
  const { cipher, schema } = services;
  await Promise.all(
    [...stored].map(async ([id, text]) => {
      if (!isEncryptedText(text)) {
        state.texts.set(id, text);
        return;
      }
      state.encrypted.add(id);
      try {
        if (cipher === undefined) throw new Error('no cipher');
        const plain = await cipher.decrypt(text, schema.keyOf(id, scope));
        if (typeof plain !== 'string') throw new Error('not text');
        state.texts.set(id, plain);
      } catch {
        state.unreadable.add(id);
      }
    }),
  );
  return state;
}

/** What writing a level's new texts takes: the writes, their history entries and how many texts changed. */
export interface LevelChanges {
  /** The writes, each conditional on the text the level held. */
  readonly writes: StoreWrite[];
  /** One history entry per changed value. */
  readonly entries: StoredHistoryEntry[];
  /** The ids whose stored text changed. */
  readonly changedIds: string[];
}

/** Who made the changes, for their history entries. */
export interface ChangeAuthor {
  /** The actor recorded (`null`: not known). */
  readonly actor: WriteActor | null;
  /** The interface recorded. */
  readonly via: WriteVia;
}

/**
 * The writes and history entries that take a level from `before` (as stored: `stored`, and in
 * plain: its decryption) to `after`: each changed id written (a secret — a registered one, or one
 * stored encrypted — encrypted for its storage key) conditional on its stored text. History
 * masks secrets and the values of ids no longer registered (whose secrecy is unknown unless
 * declared), sealing what a restore needs.
 *
 * @param secrets - unregistered ids known to hold secrets
 */
export async function levelChanges(
  services: LevelServices,
  scope: string,
  stored: StoredLevel,
  before: LevelTexts,
  after: LevelTexts,
  author: ChangeAuthor,
  secrets: ReadonlySet<string>,
): Promise<LevelChanges> {
  const { schema, cipher } = services;
  const ids = new Set([
    ...before.texts.keys(),
    ...before.unreadable,
    ...after.texts.keys(),
    ...after.unreadable,
  ]);
  const result: LevelChanges = { writes: [], entries: [], changedIds: [] };
  const log = schema.logName(scope);
  let at: string | undefined;
  for (const id of ids) {
    const oldPlain = before.texts.get(id);
    const newPlain = after.texts.get(id);
    const wasThere = before.has(id);
    if (sameText(before, after, id)) continue;
    const key = schema.keyOf(id, scope);
    const setting = schema.get(id);
    const secret =
      setting?.isSecret() === true || after.encrypted.has(id) || before.encrypted.has(id) || secrets.has(id);
    let text: string | null = null;
    if (newPlain !== undefined) {
      text =
        (setting?.isSecret() === true || after.encrypted.has(id)) && cipher !== undefined
          ? await cipher.encrypt(newPlain, key)
          : newPlain;
    }
    result.writes.push({ key, value: text, expect: stored.get(id) ?? null });
    result.changedIds.push(id);
    at ??= new Date().toISOString();
    const entryId = newEntryId();
    // Typed by today's registration; a text that does not read as today's type (an option a
    // migration remapped away) is shown as stored, masked when it may be a secret.
    const shown = (plain: string | undefined): unknown => {
      if (plain === undefined) return null;
      if (setting === undefined) return MASKED_VALUE;
      return maskValue(setting.codec.decode(plain) ?? plain, secret);
    };
    let sealed: SealedValues | undefined;
    const masked = secret || setting === undefined;
    if (masked && cipher !== undefined) {
      sealed = await sealTexts(cipher, log, entryId, { old: oldPlain, new: newPlain });
    } else if (setting === undefined && !secret) {
      sealed = {
        ...(stored.get(id) === undefined ? {} : { old: stored.get(id)! }),
        ...(text === null ? {} : { new: text }),
        asStored: true,
      };
    }
    result.entries.push({
      id: entryId,
      at,
      setting_id: id,
      scope: scope === '' ? null : scope,
      action: newPlain === undefined && !after.unreadable.has(id) ? 'delete' : 'update',
      old: wasThere ? (before.unreadable.has(id) ? MASKED_VALUE : shown(oldPlain)) : null,
      new: shown(newPlain),
      actor: author.actor ? { id: author.actor.id } : null,
      via: author.via,
      ...(sealed === undefined ? {} : { sealed }),
    });
  }
  return result;
}

/** Whether `id` holds the same stored text in both states of a level (an unreadable one left alone included). */
function sameText(before: LevelTexts, after: LevelTexts, id: string): boolean {
  return (
    before.has(id) === after.has(id) &&
    before.texts.get(id) === after.texts.get(id) &&
    before.unreadable.has(id) === after.unreadable.has(id)
  );
}

/** How many ids differ between two states of a level (a rename counts 2; a text left as it was, 0). */
export function countChanged(before: LevelTexts, after: LevelTexts): number {
  let changed = 0;
  const ids = new Set([
    ...before.texts.keys(),
    ...before.unreadable,
    ...after.texts.keys(),
    ...after.unreadable,
  ]);
  for (const id of ids) if (!sameText(before, after, id)) changed++;
  return changed;
}
