import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { entryPoints } from './entries.config.ts';

const alias = Object.entries(entryPoints)
  .map(([subpath, source]) => ({
    find: subpath === '.' ? /^commerce-plugin-framework$/ : `commerce-plugin-framework/${subpath}`,
    replacement: fileURLToPath(new URL(source, import.meta.url)),
  }))
  // longest subpaths first so 'stores/postgres' wins over a shorter prefix
  .sort((a, b) => String(b.find).length - String(a.find).length);

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts'],
    // Vitest's default, one worker less than the cores, leaves one of these machines' two cores
    // idle: the tests spend much of their time waiting on PostgreSQL, Redis, child processes and
    // listeners, so two workers keep both cores busy.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Guards against a test or hook that hangs, not time limits: with two workers sharing two
    // cores (and the servers), a test can take three times as long as it does alone — the
    // property test of 1,500 requests in arg-validation took 6 s alone and over 20 s so.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default'] : ['default'],
    // createRestServer warns once per plugin whose secrets have no cipher, and most fixtures have
    // such plugins: the warning itself is tested with a logger of its own (plain-secrets-warning).
    onConsoleLog: (log) => !log.includes('and no cipher, so its secrets are stored in plain text'),
  },
});
