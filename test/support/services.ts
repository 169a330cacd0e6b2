/**
 * Real services for tests. A test that needs PostgreSQL or Redis reads `DATABASE_URL` /
 * `REDIS_URL`; without it the test is skipped with a printed reason, except under
 * `REQUIRE_SERVICES=1` (set by `.ci/run`), where a missing service is a failure.
 */
import { describe, it } from 'vitest';

export type ServiceVariable = 'DATABASE_URL' | 'REDIS_URL';

/** The service's URL, or undefined when the variable is unset. */
export function serviceUrl(variable: ServiceVariable): string | undefined {
  const value = process.env[variable];
  return value && value.trim() !== '' ? value : undefined;
}

/**
 * `describe` that runs only when `variable` is set. Unset: skipped with a printed reason, or,
 * under `REQUIRE_SERVICES=1`, a failing test that says what is missing.
 */
export function describeWithService(
  variable: ServiceVariable,
  name: string,
  body: (url: string) => void,
): void {
  const url = serviceUrl(variable);
  if (url) {
    describe(name, () => body(url));
    return;
  }
  if (process.env.REQUIRE_SERVICES === '1') {
    describe(name, () => {
      it(`requires ${variable}`, () => {
        throw new Error(`${variable} is not set but REQUIRE_SERVICES=1: this server test may not be skipped`);
      });
    });
    return;
  }
  console.log(`[skip] ${name}: ${variable} is not set (set it to run this suite against a real server)`);
  describe.skip(name, () => body(''));
}
