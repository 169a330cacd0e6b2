import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { entryPoints } from './entries.config.ts';

const entry = Object.fromEntries(
  Object.entries(entryPoints)
    .filter(([, source]) => existsSync(source))
    .map(([subpath, source]) => [subpath === '.' ? 'index' : subpath, source]),
);

export default defineConfig({
  entry,
  format: ['esm', 'cjs'],
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  target: 'es2022',
  platform: 'neutral',
  outDir: 'dist',
});
