/**
 * Where the Bun and Deno binaries are: both come from npm (dev dependencies `bun` and `deno`),
 * whose packages ship the binary in a per-platform optional dependency that their install
 * script links into place. Where that script did not run (npm may block install scripts) the
 * binary is still in the platform package, so both places are tried.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A runtime binary that answered `--version`, or why none did. */
export type FoundBinary = { readonly path: string; readonly version: string } | { readonly missing: string };

function candidates(modules: string, runtime: 'bun' | 'deno'): string[] {
  const arch = process.arch === 'arm64' ? 'aarch64' : 'x64';
  if (runtime === 'bun') {
    return [
      join(modules, '.bin', 'bun'),
      join(modules, 'bun', 'bin', 'bun.exe'),
      ...['', '-baseline', '-musl', '-musl-baseline'].map((variant) =>
        join(modules, '@oven', `bun-${process.platform}-${arch}${variant}`, 'bin', 'bun'),
      ),
    ];
  }
  const denoArch = process.arch === 'arm64' ? 'arm64' : 'x64';
  return [
    join(modules, '.bin', 'deno'),
    join(modules, 'deno', 'deno'),
    join(modules, '@deno', `${process.platform}-${denoArch}-glibc`, 'deno'),
    join(modules, '@deno', `${process.platform}-${denoArch}`, 'deno'),
  ];
}

/** The first binary of `runtime` under `modules` (a node_modules folder) that runs. */
export async function findRuntime(modules: string, runtime: 'bun' | 'deno'): Promise<FoundBinary> {
  const tried: string[] = [];
  for (const path of candidates(modules, runtime)) {
    if (!existsSync(path)) continue;
    try {
      const { stdout } = await run(path, ['--version'], { timeout: 30_000 });
      return { path, version: stdout.trim().split('\n')[0]! };
    } catch (error) {
      tried.push(`${path}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  return {
    missing: `no working ${runtime} binary under ${modules} (install the dev dependency "${runtime}" with npm ci)${
      tried.length > 0 ? `; tried ${tried.join('; ')}` : ''
    }`,
  };
}
