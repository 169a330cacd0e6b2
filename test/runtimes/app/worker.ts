/**
 * The self-test as a module worker (workerd): `GET /self-test` runs the checks in one request;
 * `/hang/warm`, `/hang/on` and `/hang/read?scope=…` drive the store-timeout scenario over
 * several requests, with one settings container living across them as in production.
 */
import { type HangScenario, hangScenario, scopeRequest, warmRequest } from './hanging-store';
import { runSelfTest } from './self-test';

let scenario: HangScenario | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    scenario ??= hangScenario();
    switch (url.pathname) {
      case '/self-test':
        return Response.json(await runSelfTest('workerd'));
      case '/hang/warm':
        return scenario.server.fetch(warmRequest());
      case '/hang/on':
        scenario.store.hang = true;
        return new Response('hanging');
      case '/hang/read':
        return scenario.server.fetch(scopeRequest(url.searchParams.get('scope') ?? 'a'));
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
