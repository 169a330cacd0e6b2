import type { Framework_Setting } from '../setting';
import type { SettingsCore } from '../settings-core';
import { storedTextPages } from '../values/stored-keys';
import { isEncryptedText, type SecretCipher } from './secret-cipher';
import type { SecretVerdict, SecretWatch } from './secret-watch';

/** What {@link auditSecrets} finds among the stored secrets of a container. */
export interface SecretAudit {
  /** Secrets whose ciphertext cannot be decrypted: `id` for the global value, `id@scope` for a scope's. */
  readonly unreadable: string[];
  /** With a cipher: secrets stored in plain text (planted, or stored before the cipher), same naming. */
  readonly plaintext: string[];
}

/**
 * Sorts out the stored secrets of the container — the global values and every scope's — that
 * cannot be decrypted and, when there is a cipher, those stored in plain text. In registration
 * order, the global value before the scopes (in order).
 *
 * The first audit reads them all (the global values in one read, each secret's scopes a page of
 * keys and texts at a time). While the container follows every change — the store commits and
 * its change feed runs without a gap — a later audit reads and judges only the keys written or
 * reported changed since (see {@link SecretWatch}); otherwise it reads them all again, decrypting
 * only the texts not judged before.
 */
export async function auditSecrets(core: SettingsCore): Promise<SecretAudit> {
  const secrets = core.settings().filter((setting) => setting.isSecret());
  if (secrets.length === 0) return { unreadable: [], plaintext: [] };
  const watch = core.secretWatch;
  const verdicts =
    watch.current && core.followsEveryChange
      ? await changedAudit(core, secrets, watch)
      : await fullAudit(core, secrets, watch);
  return auditOf(verdicts.values());
}

/** Reads every stored secret and judges each text not judged before. */
async function fullAudit(
  core: SettingsCore,
  secrets: readonly Framework_Setting[],
  watch: SecretWatch,
): Promise<Map<string, SecretVerdict>> {
  const generation = watch.startFull();
  const { services } = core;
  const judge = new SecretJudge(core.cipher, watch);
  const keys = secrets.map((setting) => core.schema.keyOf(setting.getId()));
  const globals = await services.call('getMany', () => core.store.getMany(keys));
  for (const [order, setting] of secrets.entries()) {
    const id = setting.getId();
    const key = keys[order]!;
    const global = globals.get(key);
    if (global !== undefined) judge.add(key, global, { order, named: id, global: true });
    for await (const page of storedTextPages(services, `${key}@`)) {
      for (const [stored, text] of page) {
        judge.add(stored, text, { order, named: `${id}${stored.slice(key.length)}`, global: false });
      }
    }
  }
  const verdicts = await judge.verdicts();
  watch.finishFull(generation, verdicts);
  return verdicts;
}

/**
 * The last audit's verdicts, with the keys changed since judged again: from the text this
 * instance's commit wrote, or, for a change another instance made, from the store (one read).
 */
async function changedAudit(
  core: SettingsCore,
  secrets: readonly Framework_Setting[],
  watch: SecretWatch,
): Promise<Map<string, SecretVerdict>> {
  const verdicts = watch.verdicts();
  const changed = watch.takeChanged();
  if (changed.size === 0) return verdicts;
  const unknown = [...changed].filter(([, text]) => text === undefined).map(([key]) => key);
  const read =
    unknown.length === 0
      ? new Map<string, string>()
      : await core.services.call('getMany', () => core.store.getMany(unknown));
  const judge = new SecretJudge(core.cipher, watch);
  for (const [key, written] of changed) {
    const parsed = core.schema.parseKey(key);
    const text = written === undefined ? read.get(key) : (written ?? undefined);
    const order = parsed === null ? -1 : secrets.indexOf(parsed.setting);
    if (text === undefined || parsed === null || order === -1) {
      verdicts.delete(key);
      continue;
    }
    const id = parsed.setting.getId();
    const global = parsed.scope === '';
    judge.add(key, text, { order, named: global ? id : `${id}@${parsed.scope}`, global });
  }
  for (const [key, verdict] of await judge.verdicts()) verdicts.set(key, verdict);
  return verdicts;
}

/** The audit's lists from the verdicts: registration order, the global value first, then the scopes in order. */
function auditOf(verdicts: Iterable<SecretVerdict>): SecretAudit {
  const unreadable: SecretVerdict[] = [];
  const plaintext: SecretVerdict[] = [];
  for (const verdict of verdicts) {
    if (verdict.state === 'unreadable') unreadable.push(verdict);
    else if (verdict.state === 'plaintext') plaintext.push(verdict);
  }
  const names = (list: SecretVerdict[]) =>
    list
      .sort(
        (a, b) =>
          a.order - b.order ||
          Number(b.global) - Number(a.global) ||
          (a.named < b.named ? -1 : a.named > b.named ? 1 : 0),
      )
      .map((verdict) => verdict.named);
  return { unreadable: names(unreadable), plaintext: names(plaintext) };
}

/** Where a judged text is reported. */
type VerdictPlace = Pick<SecretVerdict, 'order' | 'named' | 'global'>;

/**
 * Judges stored secret texts: plain text at once (reported with a cipher), ciphertext an
 * earlier audit judged unchanged from its verdict, other ciphertext by decrypting it (all at
 * once, awaited by `verdicts`).
 */
class SecretJudge {
  readonly #cipher: SecretCipher | undefined;
  readonly #watch: SecretWatch;
  readonly #verdicts = new Map<string, SecretVerdict>();
  readonly #pending: Promise<void>[] = [];

  constructor(cipher: SecretCipher | undefined, watch: SecretWatch) {
    this.#cipher = cipher;
    this.#watch = watch;
  }

  /** Judges `text`, stored under `key`. */
  add(key: string, text: string, place: VerdictPlace): void {
    const cipher = this.#cipher;
    if (!isEncryptedText(text)) {
      this.#verdicts.set(key, { text, state: cipher === undefined ? 'ok' : 'plaintext', ...place });
      return;
    }
    if (cipher === undefined) {
      this.#verdicts.set(key, { text, state: 'unreadable', ...place });
      return;
    }
    const known = this.#watch.known(key, text);
    if (known !== undefined) {
      this.#verdicts.set(key, { text, state: known.state, ...place });
      return;
    }
    this.#pending.push(
      decrypts(cipher.decrypt(text, key)).then((readable) => {
        this.#verdicts.set(key, { text, state: readable ? 'ok' : 'unreadable', ...place });
      }),
    );
  }

  /** Every verdict, once the decryptions under way are done. */
  async verdicts(): Promise<Map<string, SecretVerdict>> {
    await Promise.all(this.#pending);
    return this.#verdicts;
  }
}

async function decrypts(decryption: Promise<string>): Promise<boolean> {
  try {
    return typeof (await decryption) === 'string';
  } catch {
    return false;
  }
}
