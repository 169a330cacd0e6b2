/**
 * The self-test as a program (Node, Bun, Deno): runs the checks and the store-timeout
 * scenario in this process and prints one JSON report on stdout.
 */

import { hangScenario, STORE_TIMEOUT_MS, scopeRequest, warmRequest } from './hanging-store';
import type { SelfTestCheck } from './self-test';
import { runSelfTest } from './self-test';

const runtime = 'Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : 'node';

/** The scenario: one healthy request, then two requests in a row on a hanging store. */
async function storeTimeoutChecks(): Promise<SelfTestCheck[]> {
  const { store, server } = hangScenario();
  const warm = await server.fetch(warmRequest());
  const checks: SelfTestCheck[] = [{ name: 'store timeout: a healthy read first', ok: warm.status === 200 }];
  store.hang = true;
  for (const scope of ['a', 'b']) {
    const started = Date.now();
    const answer = await server.fetch(scopeRequest(scope));
    const elapsed = Date.now() - started;
    const body = (await answer.json()) as { code?: string };
    checks.push({
      name: `store timeout: hanging read ${scope} answers 503 rest_store_unavailable within the limit`,
      ok:
        answer.status === 503 && body.code === 'rest_store_unavailable' && elapsed < STORE_TIMEOUT_MS + 1500,
      detail: `${answer.status} ${body.code} after ${elapsed} ms (limit ${STORE_TIMEOUT_MS} ms)`,
    });
  }
  return checks;
}

// The store calls' deadline timer never keeps a process alive (it is unref'd): a server would.
const keepAlive = setInterval(() => {}, 1000);
const report = await runSelfTest(runtime);
const resolved = import.meta.resolve('commerce-plugin-framework');
const checks = [...report.checks, ...(await storeTimeoutChecks())];
clearInterval(keepAlive);
console.log(JSON.stringify({ ...report, resolved, checks }));
