/**
 * The build in dist/ for tests that run it (the runtimes, the `cpf` program): built when it is
 * missing or older than its sources (CI builds before `npm test`, so this builds nothing there).
 * Test files run in parallel: one build at a time (a lock folder), the others wait for it.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
/** The build's outputs whose age is compared with the sources. */
const OUTPUTS = ['dist/index.js', 'dist/index.cjs', 'dist/cli/cpf.js'];
/** The sources: every file under src/, and the build's configuration. */
const CONFIG_FILES = ['entries.config.ts', 'tsup.config.ts', 'package.json'];
const LOCK = join(ROOT, 'node_modules', '.cache', 'dist-build.lock');
/** A lock older than this is a crashed build's. */
const STALE_LOCK_MS = 300_000;

/** The newest modification time of the sources, in ms. */
function newestSource(): number {
  let newest = Math.max(...CONFIG_FILES.map((file) => statSync(join(ROOT, file)).mtimeMs));
  for (const entry of readdirSync(join(ROOT, 'src'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function isFresh(): boolean {
  const sources = newestSource();
  return OUTPUTS.every((file) => {
    const path = join(ROOT, file);
    return existsSync(path) && statSync(path).mtimeMs >= sources;
  });
}

async function takeLock(): Promise<void> {
  await mkdir(join(LOCK, '..'), { recursive: true });
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch {
      const age = await stat(LOCK).then(
        (info) => Date.now() - info.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** Builds dist/ when it is missing or older than its sources; `who` names the test in the log line. */
export async function ensureBuilt(who: string): Promise<void> {
  if (isFresh()) return;
  await takeLock();
  try {
    if (isFresh()) return; // another test file built it meanwhile
    console.log(`${who}: dist/ is missing or older than src/, running npm run build`);
    await run('npm', ['run', 'build'], { cwd: ROOT, timeout: 170_000 }).catch(
      (error: { stderr?: string }) => {
        throw new Error(
          `dist/ is missing or stale and npm run build failed:\n${error.stderr ?? String(error)}`,
        );
      },
    );
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}
