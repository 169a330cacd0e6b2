/**
 * A built checkout of an earlier release of this repository, for comparisons against it in one
 * run: `git archive <commit>` unpacked into a temporary directory keyed by the commit, this
 * checkout's `node_modules` linked in when it holds every dependency the release declares (else
 * `npm ci --prefer-offline` there), and the release's own build run once. Later runs reuse it.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
/** Written last, once the checkout is built. */
const BUILT_MARKER = '.cpf-release-built';
const BUILD_TIMEOUT_MS = 240_000;

/** Unpacks `git archive <commit>` of the repository at `root` into `directory`. */
function unpack(root: string, commit: string, directory: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn('git', ['-C', root, 'archive', '--format=tar', commit], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const tar = spawn('tar', ['-x', '-C', directory], { stdio: ['pipe', 'inherit', 'inherit'] });
    archive.stdout.pipe(tar.stdin);
    archive.once('error', reject);
    tar.once('error', reject);
    archive.once('exit', (code) => {
      if (code !== 0) reject(new Error(`git archive ${commit} exited with code ${code}`));
    });
    tar.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`tar (unpacking ${commit}) exited with code ${code}`)),
    );
  });
}

/** The names of the dependencies (all kinds) that `directory`'s package.json declares. */
async function declaredDependencies(directory: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8')) as Record<
    string,
    Record<string, string> | undefined
  >;
  return ['dependencies', 'devDependencies', 'peerDependencies'].flatMap((field) =>
    Object.keys(manifest[field] ?? {}),
  );
}

/**
 * The directory of `commit`'s checkout, built (its `dist/` as its own `npm run build` makes it).
 * The first call unpacks and builds it (about 30 s); later calls, in this run or another, return
 * it at once.
 *
 * @param root - this repository's checkout (its git history holds `commit`, its `node_modules` is reused)
 * @param commit - the release's commit
 */
export async function releaseCheckout(root: string, commit: string): Promise<string> {
  const directory = join(tmpdir(), `cpf-release-${commit}`);
  if (existsSync(join(directory, BUILT_MARKER))) {
    // A linked node_modules follows this checkout (the one it was linked from may be gone).
    const linked = join(directory, 'node_modules');
    const modules = join(root, 'node_modules');
    if ((await lstat(linked)).isSymbolicLink() && (await readlink(linked)) !== modules) {
      await rm(linked, { force: true });
      await symlink(modules, linked, 'dir');
    }
    return directory;
  }
  const staging = `${directory}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await unpack(root, commit, staging);
    const modules = join(root, 'node_modules');
    const missing = (await declaredDependencies(staging)).filter(
      (name) => !existsSync(join(modules, name, 'package.json')),
    );
    if (missing.length === 0) await symlink(modules, join(staging, 'node_modules'), 'dir');
    else
      await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
        cwd: staging,
        timeout: BUILD_TIMEOUT_MS,
      });
    await run('npm', ['run', 'build'], { cwd: staging, timeout: BUILD_TIMEOUT_MS, maxBuffer: 16 << 20 });
    await writeFile(join(staging, BUILT_MARKER), `${commit}\n`);
    await rm(directory, { recursive: true, force: true });
    await rename(staging, directory);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return directory;
}
