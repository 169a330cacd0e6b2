/**
 * Versioned change messages on PostgreSQL (docs/architecture.md, "Versioned change messages"): a
 * commit's notification carries its texts and a version, a read its version, and for any one key
 * the versions rise in the order the database applied the changes — the rule that lets another
 * instance take a text from a message without reading it. The contention test fails when the
 * version is taken before the commit's writes (waiting for a row lock comes after it then).
 */
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { expect, it } from 'vitest';
import { isNewerVersion, type KeyChange, VERSIONED_READ } from '../../../src/storage/versioned-reads';
import { freshPglite } from '../../support/pglite-template';
import { describeWithService } from '../../support/services';
import { postgresSuite } from '../fixtures/postgres-suite';
import { eventually } from '../fixtures/shop-settings';

/** What a watcher heard: per key, the changes in the order they came. */
function listen(store: PostgresOptionStore): {
  heard: Map<string, (KeyChange | undefined)[]>;
  stop: () => void;
} {
  const heard = new Map<string, (KeyChange | undefined)[]>();
  const stop = store.watch(((key: string, change?: KeyChange) => {
    const list = heard.get(key) ?? [];
    list.push(change);
    heard.set(key, list);
  }) as (key: string) => void);
  return { heard, stop };
}

it('PGlite: a commit announces its texts and version, a read its version above it', async () => {
  const db = await freshPglite();
  const writer = new PostgresOptionStore({ client: db });
  const reader = new PostgresOptionStore({ client: db });
  try {
    const { heard } = listen(reader);
    await reader.getMany(['warm']);
    await writer
      .commit({
        writes: [
          { key: 'mode', value: 'live' },
          { key: 'gone', value: null, expect: 'x' },
        ],
      })
      .then((result) => expect(result.ok).toBe(false));
    await writer.commit({
      writes: [
        { key: 'mode', value: 'live' },
        { key: 'old', value: null },
      ],
    });
    expect(await eventually(() => heard.has('mode'), 2_000)).toBe(true);
    const [change] = heard.get('mode')!;
    expect(change).toEqual({ text: 'live', version: expect.stringMatching(/^[1-9]\d*$/) });
    // A delete that expects nothing may have removed nothing: its text is not announced.
    expect(heard.get('old')).toEqual([undefined]);
    const read = await reader[VERSIONED_READ](['mode', 'absent']);
    expect([...read.texts]).toEqual([['mode', 'live']]);
    expect(isNewerVersion(read.versionOf('mode')!, change!.version)).toBe(true);
  } finally {
    await writer.close();
    await reader.close();
    await db.close();
  }
});

describeWithService('DATABASE_URL', 'versioned change messages on a PostgreSQL server', (url) => {
  const { pool, table: newTable } = postgresSuite(url, { max: 10, prefix: 'cpf_versioned' });
  const table = newTable();

  it('for each key, versions rise in the order its changes committed, under contention for its row', async () => {
    const writers = Array.from({ length: 6 }, () => new PostgresOptionStore({ client: pool, table }));
    const listener = new PostgresOptionStore({ client: pool, table });
    const { heard, stop } = listen(listener);
    const keys = ['a', 'b'];
    const rounds = 60;
    try {
      await listener.getMany(keys);
      // Mostly unconditional commits of both keys (each waits for the rows the others hold), and
      // now and then a conditional one of one key (a delete when it holds a text).
      let total = 0;
      await Promise.all(
        writers.map(async (store, writer) => {
          for (let round = 0; round < rounds; round++) {
            const text = `${writer}:${round}`;
            if (round % 7 !== 3) {
              await store.commit({ writes: keys.map((key) => ({ key, value: text })) });
              total += keys.length;
              continue;
            }
            const key = keys[writer % keys.length]!;
            for (;;) {
              const current = (await store.getMany([key])).get(key) ?? null;
              const result = await store.commit({
                writes: [{ key, value: current !== null ? null : text, expect: current }],
              });
              if (result.ok) break;
            }
            total += 1;
          }
        }),
      );
      expect(
        await eventually(
          () => [...heard.values()].reduce((sum, list) => sum + list.length, 0) === total,
          10_000,
        ),
      ).toBe(true);
      const final = await listener[VERSIONED_READ](keys);
      for (const key of keys) {
        const changes = heard.get(key)!;
        let previous: KeyChange | undefined;
        for (const change of changes) {
          expect(change).toBeDefined();
          if (previous !== undefined) expect(isNewerVersion(change!.version, previous.version)).toBe(true);
          previous = change;
        }
        // The last change announced is what the store holds, and the read's version is above it.
        expect(previous!.text).toBe(final.texts.get(key));
        expect(isNewerVersion(final.versionOf(key)!, previous!.version)).toBe(true);
      }
    } finally {
      stop();
      await Promise.all([...writers, listener].map((store) => store.close()));
    }
  });
});
