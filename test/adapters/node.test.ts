import { createServer } from 'node:http';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import { describe, expect, it } from 'vitest';
import { viaFetch, viaHttp } from './support/answers';
import { fixtureServer } from './support/fixture-server';
import { listenOn } from './support/listen';
import { describeParity, type Listening } from './support/parity-suite';

function listenNode(handler: ReturnType<typeof toNodeHandler>): Promise<Listening> {
  return listenOn(createServer(handler));
}

describeParity('toNodeHandler answers as server.fetch', (server) => listenNode(toNodeHandler(server)));

describe('toNodeHandler', () => {
  it('answers paths outside the REST root like server.fetch (the whole server is the app)', async () => {
    const host = await listenNode(toNodeHandler(fixtureServer()));
    try {
      for (const path of ['/', '/elsewhere', '/admin/nothing']) {
        const testCase = { name: path, method: 'GET', path };
        expect(await viaHttp(host.origin, testCase)).toEqual(
          await viaFetch(fixtureServer(), host.origin, testCase),
        );
      }
    } finally {
      await host.close();
    }
  });
});
