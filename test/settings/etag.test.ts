import {
  createAesGcmCipher,
  Framework_Abstract_Settings,
  MemoryOptionStore,
  PreconditionFailedError,
} from 'commerce-plugin-framework';
import { describe, expect, it, vi } from 'vitest';
import { UnwatchedStore } from './support/stores';

class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('api_key', 'string', { secret: true });
  }
}

const TAG = /^"[A-Za-z0-9_-]{22}"$/;
const KEY = { id: 'k1', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(7))) };

describe('entity tags', () => {
  it('are strong, the same in every instance on the store, and new with every change of the stored text', async () => {
    const data = new MemoryOptionStore();
    const one = new ShopSettings('acme', data);
    const two = new ShopSettings('acme', data.share());
    const empty = await one.getETag('title');
    expect(empty).toMatch(TAG);
    expect(await two.getETag('title')).toBe(empty);
    await one.updateValue('title', 'A');
    const a = await one.getETag('title');
    expect(a).not.toBe(empty);
    await vi.waitFor(async () => expect(await two.getETag('title')).toBe(a));
    await two.updateValue('title', 'B');
    await vi.waitFor(async () => expect(await one.getETag('title')).not.toBe(a));
    await one.updateValue('title', 'A');
    expect(await one.getETag('title')).toBe(a);
    await one.deleteValue('title');
    expect(await one.getETag('title')).toBe(empty);
  });

  it('differ between settings, scopes and stores holding the same text, so a tag says nothing about a secret', async () => {
    const first = new ShopSettings('acme', new MemoryOptionStore());
    const second = new ShopSettings('acme', new MemoryOptionStore());
    await first.updateValue('api_key', 'sk_same');
    await second.updateValue('api_key', 'sk_same');
    // Each store has its own random salt: equal secrets do not give equal tags.
    expect(await first.getETag('api_key')).not.toBe(await second.getETag('api_key'));
    await first.updateValue('title', 'sk_same');
    expect(await first.getETag('title')).not.toBe(await first.getETag('api_key'));
    expect(await first.scope('eu').getETag('title')).not.toBe(await first.getETag('title'));
  });

  it('of a scope change when a parent’s value changes', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    const before = await settings.scope('eu/de').getETag('title');
    await settings.scope('eu').updateValue('title', 'Europe');
    const after = await settings.scope('eu/de').getETag('title');
    expect(after).not.toBe(before);
    await settings.updateValue('title', 'Global');
    expect(await settings.scope('eu/de').getETag('title')).not.toBe(after);
  });

  it('the list tag changes with any setting', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    const before = await settings.level().getListETag();
    await settings.updateValue('api_key', 'sk_1');
    expect(await settings.level().getListETag()).not.toBe(before);
  });

  it('with a cipher, writing a secret equal to the stored one stores a fresh ciphertext, a new tag and a history entry: a write reveals nothing about a guess', async () => {
    const store = new MemoryOptionStore();
    const settings = new ShopSettings('acme', store, { secrets: createAesGcmCipher([KEY]) });
    await settings.updateValue('api_key', 'sk_1');
    const text = await store.get('framework_acme_api_key');
    const tag = await settings.getETag('api_key');
    await settings.updateValue('api_key', 'sk_1');
    expect(await store.get('framework_acme_api_key')).not.toBe(text);
    expect(await settings.getETag('api_key')).not.toBe(tag);
    const history = await settings.getHistory({ settingId: 'api_key' });
    expect(history.map((entry) => [entry.old, entry.new])).toEqual([
      ['********', '********'],
      [null, '********'],
    ]);
    // A wrong guess and a right one look the same.
    const right = await settings.getETag('api_key');
    await settings.updateValue('api_key', 'sk_2');
    expect(await settings.getETag('api_key')).not.toBe(right);
  });
});

describe('entity tags, computed in process', () => {
  it('are the first 16 bytes of the HMAC-SHA-256 (WebCrypto’s, salt as the raw key) of the length-prefixed keys and texts, so every instance of the version issues the same tags', async () => {
    const salt = 'fixed-salt-for-the-test';
    const data = new MemoryOptionStore({
      'framework_acme:tag-salt': salt,
      framework_acme_title: 'Grüße, 🛒',
    });
    const settings = new ShopSettings('acme', data);
    const key = 'framework_acme_title';
    const text = 'Grüße, 🛒';
    const input = `${key.length}:${key}${text.length}:${text};`;
    const raw = new TextEncoder().encode(salt);
    const hmac = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
    ]);
    const signature = new Uint8Array(await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(input)));
    const expected = `"${btoa(String.fromCharCode(...signature.subarray(0, 16)))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '')}"`;
    expect(await settings.getETag('title')).toBe(expected);
    const scoped = `${'framework_acme_title@eu'.length}:framework_acme_title@eu-;${input}`;
    const scopedSignature = new Uint8Array(
      await crypto.subtle.sign('HMAC', hmac, new TextEncoder().encode(scoped)),
    );
    expect(await settings.scope('eu').getETag('title')).toBe(
      `"${btoa(String.fromCharCode(...scopedSignature.subarray(0, 16)))
        .replaceAll('+', '-')
        .replaceAll('/', '_')
        .replace(/=+$/, '')}"`,
    );
  });

  it('take no trip through WebCrypto: reading a tag and a conditional write sign nothing there', async () => {
    const settings = new ShopSettings('acme', new MemoryOptionStore());
    await settings.load();
    const tag = await settings.getETag('title');
    const sign = vi.spyOn(crypto.subtle, 'sign');
    try {
      await settings.updateValue('title', 'A', { ifMatch: tag });
      const next = await settings.getETag('title');
      expect(next).not.toBe(tag);
      await expect(settings.updateValue('title', 'B', { ifMatch: tag })).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
      expect(sign).not.toHaveBeenCalled();
    } finally {
      sign.mockRestore();
    }
  });
});

describe('ifMatch', () => {
  it('stores when a tag matches (one of several, or * with a value stored), else rejects 412 with the current tag and stores nothing', async () => {
    const store = new MemoryOptionStore();
    const settings = new ShopSettings('acme', store);
    await expect(settings.updateValue('title', 'A', { ifMatch: '*' })).rejects.toBeInstanceOf(
      PreconditionFailedError,
    );
    const empty = await settings.getETag('title');
    await settings.updateValue('title', 'A', { ifMatch: `"nope", ${empty}` });
    const a = await settings.getETag('title');
    await settings.updateValue('title', 'B', { ifMatch: '*' });
    const error = await settings.updateValue('title', 'C', { ifMatch: a }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toMatchObject({ code: 412, etag: await settings.getETag('title') });
    expect(await store.get('framework_acme_title')).toBe('B');
    // A weak tag never matches a strong comparison.
    await expect(
      settings.updateValue('title', 'D', { ifMatch: `W/${await settings.getETag('title')}` }),
    ).rejects.toMatchObject({ code: 412 });
  });

  it('of two writes with the same tag, through two instances, exactly one succeeds', async () => {
    const data = new MemoryOptionStore();
    const one = new ShopSettings('acme', data);
    const two = new ShopSettings('acme', data.share());
    const tag = await one.getETag('title');
    await two.getValue('title');
    const outcomes = await Promise.allSettled([
      one.updateValue('title', 'one', { ifMatch: tag }),
      two.updateValue('title', 'two', { ifMatch: tag }),
      one.updateValue('title', 'three', { ifMatch: tag }),
    ]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(2);
  });

  it('a stale cache does not cause a false 412: the tag is checked again on what the store holds', async () => {
    const data = new MemoryOptionStore();
    // The same data without a change feed: the instance cannot know of the write below.
    const unwatched = {
      get: (key: string) => data.get(key),
      getMany: (keys: readonly string[]) => data.getMany(keys),
      set: (key: string, value: string) => data.set(key, value),
      delete: (key: string) => data.delete(key),
      commit: data.commit.bind(data),
    };
    const settings = new ShopSettings('acme', unwatched);
    await settings.getValue('title'); // cached: nothing stored
    await data.set('framework_acme_title', 'Behind its back');
    const other = new ShopSettings('acme', data.share());
    const current = await other.getETag('title');
    await settings.updateValue('title', 'Mine', { ifMatch: current });
    expect(await data.get('framework_acme_title')).toBe('Mine');
  });

  it('answers 501 on a store without commit, which cannot compare and write atomically', async () => {
    const settings = new ShopSettings('acme', new UnwatchedStore());
    await expect(settings.updateValue('title', 'A', { ifMatch: '*' })).rejects.toMatchObject({ code: 501 });
  });
});
