import type { PGlite } from '@electric-sql/pglite';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { parameterText } from '../../../src/storage/postgres/pglite-statements';
import { freshPglite } from '../../support/pglite-template';

const database = await freshPglite();
afterAll(() => database.close());

/** Counts the calls PGlite gets through `query` and through its wire-protocol entry point. */
function countCalls(db: PGlite): { query: number; protocol: number; restore(): void } {
  const counts = { query: 0, protocol: 0, restore: () => {} };
  const query = db.query.bind(db);
  const execProtocol = db.execProtocol.bind(db);
  db.query = ((...args: Parameters<PGlite['query']>) => {
    counts.query++;
    return query(...args);
  }) as PGlite['query'];
  db.execProtocol = ((...args: Parameters<PGlite['execProtocol']>) => {
    counts.protocol++;
    return execProtocol(...args);
  }) as PGlite['execProtocol'];
  counts.restore = () => {
    db.query = query as PGlite['query'];
    db.execProtocol = execProtocol;
  };
  return counts;
}

describe('PostgresOptionStore on PGlite: named prepared statements', () => {
  it('writes a commit with a history entry in one call into the database, reads in one', async () => {
    const store = new PostgresOptionStore({ client: database, table: 'named_one_call' });
    await store.commit({
      writes: [{ key: 'a', value: '1' }],
      log: { name: 'log', entries: ['e0'], keep: 5 },
    });
    const calls = countCalls(database);
    try {
      const result = await store.commit({
        writes: [{ key: 'a', value: '2', expect: '1' }],
        log: { name: 'log', entries: ['e1'], keep: 5 },
      });
      expect(result).toEqual({ ok: true });
      expect(await store.get('a')).toBe('2');
      expect({ query: calls.query, protocol: calls.protocol }).toEqual({ query: 0, protocol: 2 });
    } finally {
      calls.restore();
    }
    expect(await store.readLog('log', 10)).toEqual(['e1', 'e0']);
  });

  it('keeps the statements of stores on different tables of one instance apart', async () => {
    const left = new PostgresOptionStore({ client: database, table: 'named_left' });
    const right = new PostgresOptionStore({ client: database, table: 'named_right' });
    for (let round = 0; round < 3; round++) {
      await left.set('k', `left ${round}`);
      await right.set('k', `right ${round}`);
      expect(await left.get('k')).toBe(`left ${round}`);
      expect(await right.get('k')).toBe(`right ${round}`);
    }
    // A second store on the same table reuses the statements the first one prepared.
    const again = new PostgresOptionStore({ client: database, table: 'named_left' });
    expect(await again.getMany(['k', 'none'])).toEqual(new Map([['k', 'left 2']]));
  });

  it('prepares again after the statements were deallocated', async () => {
    const store = new PostgresOptionStore({ client: database, table: 'named_deallocated' });
    await store.set('k', 'before');
    expect(await store.get('k')).toBe('before');
    await database.exec('DEALLOCATE ALL');
    await store.set('k', 'after');
    expect(await store.get('k')).toBe('after');
  });

  it('answers the same rows and errors as query: typed columns, refusals, a closed instance', async () => {
    const own = await freshPglite();
    const store = new PostgresOptionStore({ client: own, table: 'named_typed' });
    await store.commit({
      writes: [{ key: 'x', value: 'one' }],
      log: { name: 'l', entries: ['a', 'b', 'c'], keep: 2 },
    });
    expect(await store.readLogPage('l', { limit: 5 })).toEqual({
      entries: ['c', 'b'],
      total: 2,
      trimmed: true,
    });
    expect(await store.commit({ writes: [{ key: 'x', value: 'two', expect: 'zero' }] })).toEqual({
      ok: false,
      current: new Map([['x', 'one']]),
    });
    await own.close();
    await expect(store.get('x')).rejects.toThrow(/PostgresOptionStore\.get/);
  });

  it('sends each statement through query when preparedStatements is false', async () => {
    const store = new PostgresOptionStore({
      client: database,
      table: 'named_off',
      preparedStatements: false,
    });
    await store.set('k', 'v');
    const calls = countCalls(database);
    try {
      expect(await store.get('k')).toBe('v');
      expect(calls.query).toBe(1);
    } finally {
      calls.restore();
    }
  });

  it('binds values as PostgreSQL text: arrays quoted and escaped, null as null', async () => {
    expect(parameterText(null)).toBeNull();
    expect(parameterText(['a', null, 'b"c\\d', '', '{x,y}'])).toBe('{"a",NULL,"b\\"c\\\\d","","{x,y}"}');
    expect(parameterText([1, 2])).toBe('{"1","2"}');
    expect(parameterText(7)).toBe('7');
    const store = new PostgresOptionStore({ client: database, table: 'named_text' });
    const odd = ['comma,key', 'quote"key', 'back\\slash', 'brace{}', 'NULL', ' space ', 'ünï€ode'];
    for (const key of odd) await store.set(key, `${key}=value`);
    expect(await store.getMany(odd)).toEqual(new Map(odd.map((key) => [key, `${key}=value`])));
  });
});
