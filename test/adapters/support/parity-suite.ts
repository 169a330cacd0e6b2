import type { RestServer } from 'commerce-plugin-framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, viaFetch, viaHttp } from './answers';
import { fixtureServer } from './fixture-server';
import { PARITY_CASES, type ParityCase } from './parity-cases';

/** A host app listening on 127.0.0.1, serving a server through an adapter. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/** Options of {@link describeParity}. */
export interface ParityOptions {
  /**
   * A body parser runs before the adapter: for cases with `hostParserStatus`, only the status
   * is compared (the body is the host's error page).
   */
  readonly hostParserFirst?: boolean;
  /** Names of cases the host answers before the adapter sees them (said why where it is used). */
  readonly skip?: readonly string[];
}

/** `answer` with any form CSRF token blanked: a token carries the second it was issued, so two servers asked a moment apart differ there only. */
function withoutIssueTime(answer: Answer): Answer {
  if (typeof answer.body !== 'string') return answer;
  return {
    ...answer,
    body: answer.body.replace(/(name="_csrf" value=")\d+\.[A-Za-z0-9_-]+"/g, '$1<token>"'),
  };
}

/**
 * Runs every parity case, in order, through `server.fetch` on one fresh server and over HTTP
 * through the adapter on another, and expects the same status, headers and body.
 */
export function describeParity(
  name: string,
  listen: (server: RestServer) => Promise<Listening>,
  options: ParityOptions = {},
): void {
  describe(name, () => {
    const direct = fixtureServer();
    let host: Listening;
    beforeAll(async () => {
      host = await listen(fixtureServer());
    });
    afterAll(async () => {
      await host?.close();
    });

    const cases = PARITY_CASES.filter(
      (testCase) =>
        !options.skip?.includes(testCase.name) &&
        !(options.hostParserFirst && testCase.hostParserStatus === 'waits'),
    );
    it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
      '%s',
      async (_name: string, testCase: ParityCase) => {
        const expected: Answer = await viaFetch(direct, host.origin, testCase);
        const actual: Answer = await viaHttp(host.origin, testCase);
        if (options.hostParserFirst && testCase.hostParserStatus !== undefined) {
          expect(actual.status).toBe(testCase.hostParserStatus);
          return;
        }
        expect(withoutIssueTime(actual)).toEqual(withoutIssueTime(expected));
        // A 405 says which method the route does not accept (CONTRACT, third round), on every path.
        if (actual.status === 405 && testCase.path.startsWith('/api')) {
          expect(actual.body).toMatchObject({
            code: 'rest_method_not_allowed',
            message: `The route exists but does not accept ${testCase.method.toUpperCase()}.`,
          });
        }
        // Every answer, REST or admin page, is uncacheable and never sniffed.
        expect(actual.headers).toMatchObject({
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        });
      },
    );
  });
}
