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
    testTimeout: 20_000,
    hookTimeout: 30_000,
    reporters: process.env.CI ? ['default'] : ['default'],
    // createRestServer warns once per plugin whose secrets have no cipher, and most fixtures have
    // such plugins: the warning itself is tested with a logger of its own (plain-secrets-warning).
    onConsoleLog: (log) => !log.includes('and no cipher, so its secrets are stored in plain text'),
  },
});
