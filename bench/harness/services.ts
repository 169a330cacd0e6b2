/**
 * The external services some scenarios need, from the environment: `DATABASE_URL` (a
 * PostgreSQL server) and `REDIS_URL`. A scenario whose service is not configured is skipped,
 * with the reason in the results, so that `npm run bench` runs anywhere.
 */

/** A configured service's URL, or why it is missing. */
export type ServiceUrl = { readonly url: string } | { readonly skip: string };

function fromEnvironment(name: string, example: string): ServiceUrl {
  const url = process.env[name];
  if (url === undefined || url.trim() === '') {
    return { skip: `${name} is not set (e.g. ${name}=${example} npm run bench)` };
  }
  return { url };
}

/** The PostgreSQL server of the PostgreSQL scenarios (`DATABASE_URL`). */
export function postgresUrl(): ServiceUrl {
  return fromEnvironment('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/test');
}

/** The Redis server of the Redis scenarios (`REDIS_URL`). */
export function redisUrl(): ServiceUrl {
  return fromEnvironment('REDIS_URL', 'redis://127.0.0.1:6379');
}
