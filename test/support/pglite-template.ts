/**
 * Fresh PGlite databases for the tests, started from a template of an empty one: creating a
 * database runs PGlite's initdb (3 to 6 s of CPU on these machines), starting one from a copy of
 * an empty one takes under a second. The templates — a data directory for the `cpf` tests, a
 * tarball for in-memory databases — are made once per PGlite version under node_modules/.cache,
 * one test file at a time (a lock folder).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache');
/** A lock folder older than this was left by a test run that died while building: it is removed. */
const STALE_LOCK_MS = 120_000;

async function pgliteVersion(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/**
 * The cached file or folder `name` (under node_modules/.cache, suffixed with PGlite's version),
 * made by `build(path)` when missing: `build` writes a temporary path that is renamed into place,
 * under a lock folder, so test files running at the same time make it once and never see it
 * half-written. A lock older than two minutes was left by a run that died: it is taken over.
 * Exported for its own test.
 */
export async function cached(name: string, build: (path: string) => Promise<void>): Promise<string> {
  const target = join(CACHE, `${name}-${await pgliteVersion()}`);
  if (existsSync(target)) return target;
  const lock = `${target}.lock`;
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (existsSync(target)) return target;
      const since = await stat(lock).then(
        (lockStat) => Date.now() - lockStat.mtimeMs,
        () => 0,
      );
      if (since > STALE_LOCK_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (existsSync(target)) return target;
    const building = `${target}.${process.pid}`;
    await build(building);
    await rename(building, target);
    return target;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Makes `target` a fresh, empty PGlite data directory. */
export async function freshPgliteDirectory(target: string): Promise<void> {
  const template = await cached('cpf-test-pglite', async (building) => {
    const db = new PGlite(building);
    await db.waitReady;
    await db.close();
  });
  await cp(template, target, { recursive: true });
}

/** The tarball of an empty database, read once per test file. */
let emptyDatabase: Promise<Blob> | undefined;

/** A new, empty in-memory PGlite database. */
export async function freshPglite(): Promise<PGlite> {
  emptyDatabase ??= cached('cpf-test-pglite-memory.tar', async (building) => {
    const db = new PGlite();
    await db.waitReady;
    const dump = await db.dumpDataDir('none');
    await db.close();
    await writeFile(building, new Uint8Array(await dump.arrayBuffer()));
  }).then(async (template) => new Blob([await readFile(template)]));
  return new PGlite({ loadDataDir: await emptyDatabase });
}

/**
 * A new, empty in-memory PGlite database for the enclosing `describe`: started before its
 * tests, closed after them. Returns how to reach it from the tests.
 */
export function suitePglite(): () => PGlite {
  let database: PGlite | undefined;
  beforeAll(async () => {
    database = await freshPglite();
  });
  afterAll(() => database?.close());
  return () => {
    if (database === undefined) throw new Error('the suite’s PGlite is used before its tests start');
    return database;
  };
}
