import { afterAll, describe, expect, it } from 'vitest';
import type { RunningExample } from '../../examples/express/app';
import { startExpressExample } from '../../examples/express/app';
import { startFastifyExample } from '../../examples/fastify/app';
import { startHonoExample } from '../../examples/hono/app';
import { type RunningChild, startChild } from './support/child-process';
import { DemoClient } from './support/demo-client';

const EXAMPLES: readonly [string, (options: { port: number; token: string }) => Promise<RunningExample>][] = [
  ['express', startExpressExample],
  ['fastify', startFastifyExample],
  ['hono', startHonoExample],
];

describe.each(EXAMPLES)('examples/%s', (name, start) => {
  const children: RunningChild[] = [];
  afterAll(() => {
    for (const child of children) child.kill();
  });

  it('serves the gateway settings next to the app’s own route (in process)', async () => {
    const example = await start({ port: 0, token: 'example-token-0123456789' });
    try {
      const client = new DemoClient(example.url, 'example-token-0123456789');
      expect((await client.update('max_retries', 4)).json).toMatchObject({ id: 'max_retries', value: 4 });
      expect((await client.call('GET', '/api/nope')).json).toMatchObject({ code: 'rest_no_route' });
      const home = await fetch(`${example.url}/`);
      expect(await home.text()).toMatch(/The REST API is under \/api/);
    } finally {
      await example.close();
    }
  });

  it(`runs as \`npx tsx examples/${name}/main.ts\`: prints its URL, answers, stops on SIGTERM`, async () => {
    const child = await startChild(`examples/${name}/main.ts`, { DEMO_TOKEN: 'child-token-0123456789' });
    children.push(child);
    expect(child.output()).toContain('Token: child-token-0123456789');
    const client = new DemoClient(child.url, 'child-token-0123456789');
    expect((await client.call('GET', '/api/commerce/v3/acme_pay/settings')).json).toHaveLength(16);
    expect(await child.stop('SIGTERM')).toBe(0);
  });
});
