/**
 * Versioned change messages in the settings layer (docs/architecture.md, "Versioned change
 * messages"): another instance's change is taken from its message, without a read, only where
 * that cannot leave the cache behind the store — the entry is current, its text's version is
 * known and lower, the setting is not a secret, and no read or write of this instance holds the
 * key. Each rule has a case here that fails without it; the first tests run the real stores.
 */
import { MemoryOptionStore, type StoreCommit, type StoreCommitResult } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { RedisOptionStore } from 'commerce-plugin-framework/stores/redis';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type KeyChange, VERSIONED_READ, type VersionedTexts } from '../../../src/storage/versioned-reads';
import { postgresSuite } from '../../storage/fixtures/postgres-suite';
import { deleteStoreKeys } from '../../storage/fixtures/redis-cleanup';
import { uniqueSuffix } from '../../storage/fixtures/shop-settings';
import { followsWithoutReads, VersionedShopSettings } from '../../storage/fixtures/versioned-follow';
import { suitePglite } from '../../support/pglite-template';
import { describeWithService } from '../../support/services';

describe('versioned change messages on PGlite', () => {
  const db = suitePglite();
  followsWithoutReads(() => new PostgresOptionStore({ client: db(), table: 'versioned' }));
});

describeWithService('DATABASE_URL', 'versioned change messages on a PostgreSQL server', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 4, prefix: 'cpf_versioned_settings' });
  const table = newTable();
  followsWithoutReads(() => new PostgresOptionStore({ client: pool, table }));
});

describeWithService('REDIS_URL', 'versioned change messages on Redis', (url) => {
  const admin = new Redis(url);
  const keyPrefix = `cpf:versioned:${uniqueSuffix()}:`;
  const clients: Redis[] = [];
  afterAll(async () => {
    await deleteStoreKeys(admin, keyPrefix);
    for (const client of clients) client.disconnect();
    admin.disconnect();
  });
  followsWithoutReads(() => {
    const client = new Redis(url);
    clients.push(client);
    return new RedisOptionStore({ client, keyPrefix });
  });
});

/**
 * A memory store with versioned reads whose change feed the test drives: `announce` delivers a
 * change as another instance's message would, and `hold` keeps the reads from answering (their
 * texts and version are taken when they start) until `release`.
 */
class ScriptedStore extends MemoryOptionStore {
  version = 10;
  reads = 0;
  versioned = true;
  #listener: ((key: string, change?: KeyChange) => void) | undefined;
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;

  override watch(onChange: (key: string) => void): () => void {
    this.#listener = onChange;
    return () => {
      this.#listener = undefined;
    };
  }

  /** Commits wait for `release` too, after they changed the data. */
  holdCommits = false;

  override async commit(commit: StoreCommit): Promise<StoreCommitResult> {
    const result = await super.commit(commit);
    if (this.holdCommits) await this.#gate;
    return result;
  }

  async [VERSIONED_READ](keys: readonly string[]): Promise<VersionedTexts> {
    this.reads++;
    const texts = await this.getMany(keys);
    const version = this.versioned ? String(this.version) : undefined;
    await this.#gate;
    return { texts, versionOf: () => version };
  }

  /** Another instance stored `text` (undefined: deleted) under `key` at `version`, and says so. */
  async announce(key: string, text: string | undefined, version: number): Promise<void> {
    if (text === undefined) await this.delete(key);
    else await this.set(key, text);
    this.version = Math.max(this.version, version);
    this.#listener?.(key, { text, version: String(version) });
  }

  hold(): void {
    this.#gate = new Promise((resolve) => {
      this.#open = resolve;
    });
  }

  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }
}

describe('when a change is taken from its message', () => {
  const setup = async () => {
    const store = new ScriptedStore();
    const settings = new VersionedShopSettings('shop', store);
    await settings.load();
    return { store, settings, key: settings.getOptionName('count') };
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('a newer change of a current entry is taken without a read, decoded as a read decodes it', async () => {
    const { store, settings, key } = await setup();
    const before = store.reads;
    await store.announce(key, '42', 11);
    expect(settings.getSetting('count')!.getValue()).toBe(42);
    await store.announce(key, 'not a number', 12);
    expect(settings.getSetting('count')!.getValue()).toBeNull();
    expect(await settings.getValue('count')).toBe(0);
    await store.announce(key, undefined, 13);
    expect(await settings.getValue('count')).toBe(0);
    expect(store.reads).toBe(before);
  });

  it('a change whose version is not above the text it would replace is read instead', async () => {
    const { store, settings, key } = await setup();
    const before = store.reads;
    await store.announce(key, '5', 10);
    expect(await settings.getValue('count')).toBe(5);
    expect(store.reads).toBe(before + 1);
  });

  it('a change that arrives while a read holds the key is read again after it', async () => {
    const { store, settings, key } = await setup();
    // A read of current entries (load reads them all), which took its texts before the change:
    // taken from the message now, the change would then be overwritten by the read's older text.
    store.hold();
    const reading = settings.load();
    await settle();
    await store.announce(key, '8', 11);
    const before = store.reads;
    store.release();
    await reading;
    expect(await settings.getValue('count')).toBe(8);
    expect(store.reads).toBe(before + 1);
  });

  it('a change that arrives while a write of this instance holds the key is read again after it', async () => {
    const { store, settings, key } = await setup();
    // The write lands in the store first, the other instance's change after it; the write's
    // answer comes last: the change, taken from its message, would be overwritten by the write.
    store.holdCommits = true;
    store.hold();
    const writing = settings.updateValue('count', 3);
    await settle();
    await store.announce(key, '8', 11);
    const before = store.reads;
    store.release();
    await writing;
    expect(await settings.getValue('count')).toBe(8);
    expect(store.reads).toBe(before + 1);
  });

  it('after a write of this instance the version is not known: the next change is read', async () => {
    const { store, settings, key } = await setup();
    await settings.updateValue('count', 3);
    const before = store.reads;
    await store.announce(key, '4', 11);
    expect(await settings.getValue('count')).toBe(4);
    expect(store.reads).toBe(before + 1);
  });

  it('a read without a version leaves the entry to be read at the next change', async () => {
    const store = new ScriptedStore();
    store.versioned = false;
    const settings = new VersionedShopSettings('shop', store);
    await settings.load();
    const before = store.reads;
    await store.announce(settings.getOptionName('count'), '6', 11);
    expect(await settings.getValue('count')).toBe(6);
    expect(store.reads).toBe(before + 1);
  });

  it('a secret is never taken from a message', async () => {
    const { store, settings } = await setup();
    const before = store.reads;
    await store.announce(settings.getOptionName('api_key'), 'sk_test_2', 11);
    expect(await settings.getValue('api_key')).toBe('sk_test_2');
    expect(store.reads).toBe(before + 1);
  });
});
