import { existsSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';
import { binEntries, entryPoints } from './entries.config.ts';

/** Output name → source, for the sources that exist. */
function existing(entries: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(entries)
      .filter(([, source]) => existsSync(source))
      .map(([subpath, source]) => [subpath === '.' ? 'index' : subpath, source]),
  );
}

const common: Options = {
  dts: false, // declarations: scripts/build (tsc, once for every entry)
  sourcemap: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
  // The programs (bin) are Node programs: Node's own modules stay imports.
  external: [/^node:/],
};

export default defineConfig([
  // ES modules: the entries and the programs together, so that they share chunks.
  {
    ...common,
    entry: { ...existing(entryPoints), ...existing(binEntries) },
    format: ['esm'],
    splitting: true,
  },
  // CommonJS: the entries only.
  { ...common, entry: existing(entryPoints), format: ['cjs'], splitting: true },
]);
