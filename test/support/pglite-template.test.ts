/**
 * The lock of the test templates' cache (`cached` in pglite-template.ts): test files running at
 * the same time build a template once; a lock left by a dead run is taken over; a lock held by a
 * live build is waited for; a failure to make the lock that is not "it exists" is thrown rather
 * than retried for ever.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cached } from './pglite-template';

const PREFIX = `cache-lock-test-${process.pid}-${Date.now().toString(36)}`;
const made: string[] = [];

/** A name of this test's own; its file and lock are removed afterwards. */
function name(label: string): string {
  return `${PREFIX}-${label}`;
}

/** A build that writes `text` after `delayMs` and counts its runs. */
function counting(text: string, delayMs = 50) {
  const runs = { count: 0 };
  const build = async (path: string) => {
    runs.count++;
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await writeFile(path, text);
  };
  return { runs, build };
}

/** `promise`'s value, or `'timed out'` after `ms`: a lock never taken fails the test instead of hanging it. */
function within<T>(ms: number, promise: Promise<T>): Promise<T | 'timed out'> {
  return Promise.race([
    promise,
    new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms)),
  ]);
}

/**
 * A lock held on the template `name(label)`, with no template there: where the template goes is
 * the path a first call names (the file it made is removed again).
 */
async function heldLock(label: string): Promise<{ target: string; lock: string }> {
  const target = await cached(name(label), counting('probe', 0).build);
  made.push(target);
  await rm(target);
  const lock = `${target}.lock`;
  await mkdir(lock);
  return { target, lock };
}

afterAll(async () => {
  for (const path of made) {
    await rm(path, { recursive: true, force: true });
    await rm(`${path}.lock`, { recursive: true, force: true });
  }
});

describe('the test templates’ cache', () => {
  it('builds once for callers at the same time, and every caller gets the finished file', async () => {
    const { runs, build } = counting('one');
    const paths = await Promise.all(Array.from({ length: 4 }, () => cached(name('together'), build)));
    made.push(paths[0]!);
    expect(new Set(paths).size).toBe(1);
    expect(runs.count).toBe(1);
    expect(await readFile(paths[0]!, 'utf8')).toBe('one');
    expect(existsSync(`${paths[0]}.lock`)).toBe(false);
    // Made already: later callers read it without building.
    expect(await cached(name('together'), build)).toBe(paths[0]);
    expect(runs.count).toBe(1);
  });

  it('takes over a lock older than two minutes, left by a run that died', async () => {
    const { target, lock } = await heldLock('stale');
    const old = new Date(Date.now() - 3 * 60_000);
    await utimes(lock, old, old);
    const { runs, build } = counting('rebuilt');
    expect(await within(5_000, cached(name('stale'), build))).toBe(target);
    expect(runs.count).toBe(1);
    expect(await readFile(target, 'utf8')).toBe('rebuilt');
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a live lock and takes what its holder made, without building', async () => {
    const { target, lock } = await heldLock('live');
    const { runs, build } = counting('not this one');
    const waiting = cached(name('live'), build);
    // The holder finishes: its file is in place, then its lock goes.
    await new Promise((resolve) => setTimeout(resolve, 400));
    await writeFile(target, 'the holder’s');
    await rm(lock, { recursive: true });
    expect(await within(5_000, waiting)).toBe(target);
    expect(runs.count).toBe(0);
    expect(await readFile(target, 'utf8')).toBe('the holder’s');
  });

  it('throws when the lock cannot be made for another reason than that it exists', async () => {
    const { runs, build } = counting('never');
    const outcome = await within(
      5_000,
      cached(join(`${PREFIX}-missing-folder`, 'template'), build).then(
        () => 'built',
        (error: NodeJS.ErrnoException) => error.code,
      ),
    );
    expect(outcome).toBe('ENOENT');
    expect(runs.count).toBe(0);
  });
});
