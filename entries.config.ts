/**
 * The package's entry points: one table read by tsup (build), vitest (aliases) and the
 * package test that checks `package.json#exports` against it. Keys are the subpaths after
 * `commerce-plugin-framework/` ('.' is the root entry); values are the source files.
 */
export const entryPoints = {
  '.': 'src/index.ts',
  node: 'src/adapters/node/index.ts',
  express: 'src/adapters/express/index.ts',
  fastify: 'src/adapters/fastify/index.ts',
  hono: 'src/adapters/hono/index.ts',
  'stores/postgres': 'src/storage/postgres/index.ts',
  'stores/redis': 'src/storage/redis/index.ts',
  openapi: 'src/openapi/index.ts',
  admin: 'src/admin/index.ts',
  testing: 'src/testing/index.ts',
  'adapter-kit': 'src/adapter-kit/index.ts',
} as const;

/** Entry points whose source exists yet (later layers land one by one). */
export type EntrySubpath = keyof typeof entryPoints;

/**
 * The programs the package installs (`package.json#bin`), built as ES modules beside the entries
 * (sharing their chunks, so a program and the config it loads use one copy of the library). They
 * are no import targets: not in `exports`, no declarations. Output name → source file.
 */
export const binEntries = {
  'cli/cpf': 'src/cli/cpf.ts',
} as const;
