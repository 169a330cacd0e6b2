/**
 * CONTRACT §8 and §9 on the real stores, through REST: of many writes sent with the same
 * If-Match through two server instances (and, on PostgreSQL, a second process), exactly one
 * succeeds; a reader polling one instance while the other stores batches never sees part of a
 * batch; every accepted change has exactly its history entry.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  type OptionStore,
  type RestServer,
} from 'commerce-plugin-framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, authenticate, call } from '../rest/support/fixtures';
import { describeWithService } from '../support/services';
import { REAL_STORES, type StorePair } from './support/real-stores';

class BatchSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: '' });
    for (const id of ['a', 'b', 'c', 'd']) this.registerSetting(id, 'integer', { default: 0 });
  }
}

class BatchPlugin extends Framework_Plugin {
  readonly settings: BatchSettings;
  constructor(store: OptionStore) {
    super({ id: 'shop', name: 'Shop', version: '1' });
    this.settings = new BatchSettings('shop', store);
  }
  override getSettingsHandler(): BatchSettings {
    return this.settings;
  }
}

const BASE = '/api/commerce/v3/shop/settings';
const admin = { token: ADMIN_TOKEN };
const WRITES = 200;

for (const kind of REAL_STORES) {
  const missing = kind.unavailable();
  if (missing !== undefined && process.env.REQUIRE_SERVICES !== '1') {
    console.log(`[skip] integrity on ${kind.name}: ${missing}`);
    continue;
  }
  describe(`integrity on ${kind.name}, two server instances`, () => {
    let pair: StorePair;
    let one: RestServer;
    let two: RestServer;
    beforeAll(async () => {
      if (missing !== undefined) throw new Error(`${missing} but REQUIRE_SERVICES=1`);
      pair = await kind.open();
      one = createRestServer({ plugins: [new BatchPlugin(pair.first)], authenticate });
      two = createRestServer({ plugins: [new BatchPlugin(pair.second)], authenticate });
    });
    afterAll(async () => {
      await pair?.close();
    });

    it(`of ${WRITES} concurrent PUTs with the same If-Match, exactly one is answered 200`, async () => {
      const tag = (await call(one, 'GET', `${BASE}/title`, admin)).headers.get('etag')!;
      expect((await call(two, 'GET', `${BASE}/title`, admin)).headers.get('etag')).toBe(tag);
      const answers = await Promise.all(
        Array.from({ length: WRITES }, (_, index) =>
          call(index % 2 === 0 ? one : two, 'PUT', `${BASE}/title`, {
            ...admin,
            body: { value: `writer-${index}` },
            headers: { 'if-match': tag },
          }),
        ),
      );
      const accepted = answers.filter((answer) => answer.status === 200);
      expect(accepted).toHaveLength(1);
      expect(answers.filter((answer) => answer.status === 412)).toHaveLength(WRITES - 1);
      const history = await call(one, 'GET', `${BASE}/title/history`, admin);
      expect(history.headers.get('x-total')).toBe('1');
      expect(history.json[0].new).toBe(accepted[0]!.json.value);
    });

    it('a reader polling one instance while the other stores batches never sees part of a batch', async () => {
      const batches = kind.name === 'PGlite' ? 100 : 500;
      const serverStore = kind.name !== 'PGlite';
      let done = false;
      const seen: number[][] = [];
      const reader = (async () => {
        while (!done) {
          const list = await call(one, 'GET', BASE, admin);
          const values = (list.json as { id: string; value: number }[])
            .filter((item) => item.id !== 'title')
            .map((item) => item.value);
          seen.push(values);
          // A warm GET waits for no I/O: on a server store, let the writer's I/O and the change
          // feed in (PGlite runs in this process, its writes never wait for the event loop).
          if (serverStore) await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      for (let batch = 1; batch <= batches; batch++) {
        const answer = await call(two, 'POST', `${BASE}/batch`, {
          ...admin,
          body: { update: ['a', 'b', 'c', 'd'].map((id) => ({ id, value: batch })) },
        });
        expect(answer.status).toBe(200);
      }
      done = true;
      await reader;
      expect(seen.length).toBeGreaterThan(10);
      const torn = seen.filter((values) => new Set(values).size !== 1);
      expect(torn).toEqual([]);
      // The last batch reaches the reader.
      await expect
        .poll(async () => (await call(one, 'GET', `${BASE}/d`, admin)).json.value, { timeout: 5_000 })
        .toBe(batches);
      // Each batch appended 4 entries; the log keeps the newest 1,000 (historyLimit).
      const history = await call(two, 'GET', `${BASE}/a/history?per_page=1`, admin);
      expect(Number(history.headers.get('x-total'))).toBe(Math.min(batches, 1000 / 4));
      expect(history.json[0]).toMatchObject({ new: batches, via: 'rest', actor: { id: 1 } });
    }, 60_000);
  });
}

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

describeWithService('DATABASE_URL', 'If-Match across two processes on one PostgreSQL', (url) => {
  let pair: StorePair;
  let child: ChildProcess | undefined;
  afterAll(async () => {
    child?.kill('SIGKILL');
    await pair?.close();
  });

  it('of writes with the same If-Match from this process and another, exactly one succeeds', async () => {
    const kind = REAL_STORES.find((candidate) => candidate.name === 'PostgreSQL')!;
    pair = await kind.open();
    const table = (pair.first as unknown as { table: string }).table;
    const { ShopSettings } = await import('../storage/fixtures/shop-settings');
    const settings = new ShopSettings('shop', pair.first);
    const tag = await settings.getETag('title');
    child = spawn(
      process.execPath,
      ['--import', 'tsx', 'test/reliability/support/if-match-peer.ts', 'postgres', url, table],
      {
        cwd: repositoryRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const lines = createInterface({ input: child.stdout! });
    const messages: Record<string, number | boolean>[] = [];
    lines.on('line', (line) => messages.push(JSON.parse(line)));
    await expect.poll(() => messages.some((message) => message.ready), { timeout: 15_000 }).toBe(true);
    child.stdin!.write(`${JSON.stringify({ tag, count: 50 })}\n`);
    const mine = await Promise.allSettled(
      Array.from({ length: 50 }, (_, index) =>
        settings.updateValue('title', `main-${index}`, { ifMatch: tag }),
      ),
    );
    await expect
      .poll(() => messages.find((message) => 'accepted' in message), { timeout: 30_000 })
      .toBeDefined();
    const theirs = messages.find((message) => 'accepted' in message)!;
    const accepted =
      mine.filter((outcome) => outcome.status === 'fulfilled').length + Number(theirs.accepted);
    expect(accepted).toBe(1);
    expect(mine.filter((outcome) => outcome.status === 'rejected').length + Number(theirs.refused)).toBe(99);
    settings.dispose();
  }, 60_000);
});
