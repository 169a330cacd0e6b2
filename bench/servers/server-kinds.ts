/** The HTTP servers `serve.ts` can start, one per child process. */
export const SERVER_KINDS = ['node-adapter', 'node-bare', 'fastify-adapter', 'fastify-native'] as const;

/** One of {@link SERVER_KINDS}. */
export type ServerKind = (typeof SERVER_KINDS)[number];
