/**
 * `npm run build` (`tsx scripts/build/main.ts [--out-dir dist]`): the package's build.
 * The output folder is emptied first; then tsup (esbuild) writes the ESM `.js` and CommonJS
 * `.cjs` files of every entry with their source maps (and the ESM programs of `binEntries`)
 * while, in parallel, `tsc` emits the declarations once (see emit-declarations.ts); they are
 * written into the output folder after tsup has filled it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { entryPoints } from '../../entries.config.ts';
import { emitDeclarations } from './emit-declarations';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The output folder: `--out-dir <dir>` (relative to the working folder), else `<project>/dist`. */
function outDirArgument(args: readonly string[]): string {
  const index = args.indexOf('--out-dir');
  if (index === -1) return join(root, 'dist');
  const value = args[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error('--out-dir needs a folder');
  return resolve(value);
}

/** The entries whose source exists: output name (`index`, `stores/postgres`…) → source file. */
function builtEntries(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entryPoints)
      .filter(([, source]) => existsSync(join(root, source)))
      .map(([subpath, source]) => [subpath === '.' ? 'index' : subpath, source]),
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const outDir = outDirArgument(process.argv.slice(2));
  const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  const tsup = join(root, 'node_modules', '.bin', 'tsup');
  // tsup runs two builds (ES modules with the programs, CommonJS without): neither cleans, this does.
  await rm(outDir, { recursive: true, force: true });
  const javascript = run(tsup, ['--out-dir', outDir, '--silent'], { cwd: root }).then(() =>
    console.log(`build: JavaScript and source maps (tsup) in ${seconds()}`),
  );
  // tsup runs in its own process from here on; the declarations are compiled meanwhile and
  // written once tsup has filled the folder.
  const [, written] = await Promise.all([
    javascript,
    emitDeclarations({ root, entries: builtEntries(), outDir, writable: javascript }),
  ]);
  console.log(`build: ${written} declaration files (tsc), done in ${seconds()} → ${outDir}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
