/**
 * Fresh PGlite data directories for the `cpf` tests, copied from a template: creating one costs
 * PGlite's initdb (seconds), copying it almost nothing. The template is made once per PGlite
 * version, under node_modules/.cache, one test file at a time (a lock folder).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache');

async function pgliteVersion(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/** The template directory, made when missing. */
async function template(): Promise<string> {
  const folder = join(CACHE, `cpf-test-pglite-${await pgliteVersion()}`);
  if (existsSync(folder)) return folder;
  const lock = `${folder}.lock`;
  await mkdir(CACHE, { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (existsSync(folder)) return folder;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    if (existsSync(folder)) return folder;
    const building = `${folder}.${process.pid}`;
    const db = new PGlite(building);
    await db.waitReady;
    await db.close();
    await rename(building, folder);
    return folder;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Makes `target` a fresh, empty PGlite data directory. */
export async function freshPgliteDirectory(target: string): Promise<void> {
  await cp(await template(), target, { recursive: true });
}
