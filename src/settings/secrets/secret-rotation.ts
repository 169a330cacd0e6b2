import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import { OptionStoreError } from '../../errors/option-store-error';
import type { Framework_Setting } from '../setting';
import type { SettingsCore } from '../settings-core';
import { storeName } from '../store-calls';
import { isEncryptedText, type SecretCipher } from './secret-cipher';

/** How often one value's rewrite is retried when another writer changes it meanwhile. */
const MAX_ATTEMPTS = 16;

/**
 * Rewrites every stored secret of a container — the global value and every scope's, plain text
 * stored before the cipher included — under the cipher's first key, one atomic (conditional)
 * write per value, and resolves to how many it rewrote. A value another writer changes
 * meanwhile is read again; undecryptable text is left as it is.
 *
 * @throws {@link Framework_Plugin_Exception} (400) when the container has no cipher
 */
export async function rotateSecrets(core: SettingsCore): Promise<number> {
  const cipher = core.cipher;
  if (cipher === undefined) {
    throw new Framework_Plugin_Exception(
      `Settings "${core.schema.base}" have no secrets cipher: pass { secrets: createAesGcmCipher(keys) } before rotating`,
      400,
    );
  }
  const store = core.store;
  let rewritten = 0;
  for (const setting of core.settings()) {
    if (!setting.isSecret()) continue;
    const key = core.schema.keyOf(setting.getId());
    const keys = [key];
    if (typeof store.listKeys === 'function') {
      keys.push(...(await core.services.call('listKeys', () => store.listKeys!(`${key}@`))));
    }
    for (const stored of keys) {
      if (await rotateOne(core, cipher, setting, stored)) rewritten++;
    }
  }
  return rewritten;
}

async function rotateOne(
  core: SettingsCore,
  cipher: SecretCipher,
  setting: Framework_Setting,
  key: string,
): Promise<boolean> {
  const { store, services } = core;
  const parsed = core.schema.parseKey(key);
  const rewrote = await services.queued('commit', [key], async () => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const text = (await services.call('getMany', () => store.getMany([key]))).get(key);
      if (text === undefined || text === '') return false;
      let plain = text;
      if (isEncryptedText(text)) {
        if (cipher.needsRotation?.(text) === false) return false;
        try {
          plain = await cipher.decrypt(text, key);
        } catch {
          return false;
        }
      }
      const next = await cipher.encrypt(plain, key);
      if (typeof store.commit !== 'function') {
        await services.call('set', () => store.set(key, next));
        return true;
      }
      const result = await services.commit({ writes: [{ key, value: next, expect: text }] });
      if (result.ok) return true;
    }
    throw new OptionStoreError('commit', {
      store: storeName(store),
      message: `Could not rotate "${key}": other writers kept changing it`,
    });
  });
  if (rewrote && parsed !== null) core.levels.markStale(setting, parsed.scope);
  return rewrote;
}
