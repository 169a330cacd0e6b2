/**
 * The server side of `npm run soak`, run in a child process with `--expose-gc` so that its
 * heap can be measured alone: the demo (`startDemo`: gateway settings, items, orders, status,
 * admin pages) on 127.0.0.1 over `node:http`, on an embedded PGlite database in a temporary
 * directory (or on `SOAK_DATABASE_URL` / `SOAK_REDIS_URL` when set).
 *
 * IPC protocol with the parent: it sends `{ kind: 'ready', url }` once listening; it answers
 * `'heap'` with `{ kind: 'heap', heapUsed, rss, errors }` after forcing garbage collection; on
 * `'stop'` it closes the demo and exits. It also exits when the parent goes away.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemo } from '../../examples/demo/start-demo';
import { SOAK_TOKEN } from './soak-plan';

/** A message from the parent. */
type Command = 'heap' | 'stop';

/** Runs the garbage collector until the heap stops shrinking (at most five passes). */
function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('soak-server: run with --expose-gc');
  let previous = Number.POSITIVE_INFINITY;
  for (let pass = 0; pass < 5; pass++) {
    gc();
    const used = process.memoryUsage().heapUsed;
    if (used >= previous * 0.99) break;
    previous = used;
  }
}

const dataDir = await mkdtemp(join(tmpdir(), 'cpf-soak-'));
/** Errors the server answered as 500/503, reported by `onError`. */
let internalErrors = 0;
const demo = await startDemo({
  port: 0,
  host: '127.0.0.1',
  token: SOAK_TOKEN,
  dataDir,
  databaseUrl: process.env.SOAK_DATABASE_URL || undefined,
  redisUrl: process.env.SOAK_REDIS_URL || undefined,
  table: `soak_${process.pid}`,
  keyPrefix: `cpf-soak:${process.pid}:`,
  onError: () => {
    internalErrors++;
  },
});

const stop = async (): Promise<void> => {
  await demo.close();
  await rm(dataDir, { recursive: true, force: true });
  process.exit(0);
};

process.on('disconnect', () => void stop());
process.on('message', (command: Command) => {
  if (command === 'heap') {
    collectGarbage();
    const { heapUsed, rss } = process.memoryUsage();
    process.send?.({ kind: 'heap', heapUsed, rss, errors: internalErrors });
  } else if (command === 'stop') {
    void stop();
  }
});
process.send?.({ kind: 'ready', url: demo.url });
