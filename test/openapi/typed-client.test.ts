/**
 * The demo's document turned into a typed client as a user would: openapi-typescript writes
 * the types, TypeScript compiles calls made with openapi-fetch. Correct calls compile; each
 * wrong call is marked `@ts-expect-error`, so the compile is clean only when TypeScript
 * rejects every one of them (an unused `@ts-expect-error` is itself an error).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoDocument } from './support/demo-document';

const SETTINGS = '/api/commerce/v3/acme_pay/settings';

const CORRECT_CALLS = `
import createClient from 'openapi-fetch';
import type { components, paths } from './demo-api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

export async function correctCalls(): Promise<unknown[]> {
  const list = await client.GET('${SETTINGS}');
  const first = list.data?.[0];
  const narrowed: number | undefined = first?.id === 'max_retries' ? first.value : undefined;
  const retries = await client.GET('${SETTINGS}/max_retries');
  const value: number | undefined = retries.data?.value;
  const options: ('test' | 'live')[] | undefined = (await client.GET('${SETTINGS}/mode')).data?.options;
  const key: string | null | undefined = (await client.GET('${SETTINGS}/api_key')).data?.value;
  const updated = await client.PUT('${SETTINGS}/max_retries', { body: { value: 7 } });
  const failed: string | undefined = updated.error?.code;
  await client.PATCH('${SETTINGS}/mode', { body: { value: 'live' } });
  await client.POST('${SETTINGS}/countries', { body: { value: ['FR', 'DE'] } });
  await client.PUT('${SETTINGS}/metadata', { body: { value: { merchant: 'x', tags: [1, 'a', null] } } });
  await client.PUT('${SETTINGS}/metadata', { body: { value: ['a list is JSON too'] } });
  await client.PUT('${SETTINGS}/enabled', { body: { value: true } });
  await client.PUT('${SETTINGS}/fee_percent', { body: { value: 2.5 } });
  await client.PUT('${SETTINGS}/webhook_url', { body: { value: 'https://shop.example/hook' } });
  const setting: components['schemas']['acme_pay.settings.countries']['value'] = ['NL'];
  const batch = await client.POST('${SETTINGS}/batch', {
    params: { query: { scope: 'eu/de' } },
    body: { update: [{ id: 'max_retries', value: 4 }, { id: 'mode', value: 'live' }, { id: 'api_key', value: 'sk_live_1' }] },
  });
  const batched = batch.data?.update.map((item) => item.id);
  const rejected = batch.error?.code;
  const cleared2 = await client.POST('${SETTINGS}/batch', {
    params: { header: { 'If-Match': '*' } },
    body: { delete: ['fee_percent', 'mode'] },
  });
  const removedIds = cleared2.data?.delete.map((item) => item.id);
  const scoped = await client.GET('${SETTINGS}/title', { params: { query: { scope: 'eu' } } });
  const origin: string | null | undefined = scoped.data?.origin;
  await client.PUT('${SETTINGS}/max_retries', {
    params: { query: { scope: 'eu' }, header: { 'If-Match': '"tag"' } },
    body: { value: 2 },
  });
  const cleared = await client.DELETE('${SETTINGS}/fee_percent', { params: { query: { scope: 'eu/de' } } });
  const fee: number | undefined = cleared.data?.value;
  const history = await client.GET('${SETTINGS}/max_retries/history', { params: { query: { per_page: 5 } } });
  const previous: number | null | undefined = history.data?.[0]?.old;
  const secretHistory = await client.GET('${SETTINGS}/api_key/history');
  const masked: '********' | null | undefined = secretHistory.data?.[0]?.new;
  const items = await client.GET('/api/acme/v1/items', { params: { query: { per_page: 5, orderby: 'name' } } });
  const names = items.data?.data.map((item) => item.name);
  const order = await client.GET('/api/acme/v1/orders/{id}', { params: { path: { id: 1 } } });
  const total: number | undefined = order.data?.data.total;
  const created = await client.POST('/api/acme/v1/orders', {
    body: { line_items: [{ product_id: 1, name: 'Mug', quantity: 2, price: 4.5 }] },
  });
  const createdId: number | undefined = created.data?.data.id;
  const removed = await client.DELETE('/api/acme/v1/orders/{id}', { params: { path: { id: 1 }, query: { force: true } } });
  const message: string | undefined = removed.data?.message;
  const status = await client.GET('/api/commerce/v3/system_status');
  const gateway: true | undefined = status.data?.commerce_acme_pay.is_payment_gateway;
  const mode: 'test' | 'live' | undefined = status.data?.commerce_acme_pay.settings.mode;
  return [narrowed, value, options, key, failed, setting, batched, rejected, removedIds, origin, fee, previous, masked, names, total, createdId, message, gateway, mode];
}
`;

const WRONG_CALLS = `
import createClient from 'openapi-fetch';
import type { paths } from './demo-api';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });

export async function wrongCalls(): Promise<void> {
  // unknown setting id
  // @ts-expect-error
  await client.GET('${SETTINGS}/max_retriez');
  // @ts-expect-error
  await client.PUT('${SETTINGS}/no_such_setting', { body: { value: 1 } });
  // wrong value type
  // @ts-expect-error
  await client.PUT('${SETTINGS}/max_retries', { body: { value: 'seven' } });
  // @ts-expect-error
  await client.PUT('${SETTINGS}/enabled', { body: { value: 'yes' } });
  // @ts-expect-error
  await client.PUT('${SETTINGS}/title', { body: { value: 42 } });
  // value outside options
  // @ts-expect-error
  await client.PUT('${SETTINGS}/mode', { body: { value: 'sandbox' } });
  // @ts-expect-error
  await client.PUT('${SETTINGS}/countries', { body: { value: ['XX'] } });
  // one value where a multi setting takes a list
  // @ts-expect-error
  await client.PUT('${SETTINGS}/countries', { body: { value: 'FR' } });
  // null is not a value (answered 400)
  // @ts-expect-error
  await client.PUT('${SETTINGS}/metadata', { body: { value: null } });
  // missing body, missing value
  // @ts-expect-error
  await client.PUT('${SETTINGS}/max_retries', {});
  // @ts-expect-error
  await client.PUT('${SETTINGS}/max_retries', { body: {} });
  // a batch item of the wrong type, an unknown id in a batch, a batch without items' values
  // @ts-expect-error
  await client.POST('${SETTINGS}/batch', { body: { update: [{ id: 'max_retries', value: 'four' }] } });
  // @ts-expect-error
  await client.POST('${SETTINGS}/batch', { body: { update: [{ id: 'max_retriez', value: 4 }] } });
  // @ts-expect-error
  await client.POST('${SETTINGS}/batch', { body: { update: [{ id: 'mode' }] } });
  // @ts-expect-error
  await client.POST('${SETTINGS}/batch', { body: { delete: ['max_retriez'] } });
  // @ts-expect-error
  await client.POST('${SETTINGS}/batch', { body: { delete: 'mode' } });
  // a scope is a path, not a number
  // @ts-expect-error
  await client.GET('${SETTINGS}/title', { params: { query: { scope: 7 } } });
  // a secret is never read back as its value
  // @ts-expect-error
  const leaked: 'sk_live_1' | undefined = (await client.GET('${SETTINGS}/api_key')).data?.value;
  // wrong query type, value outside a query enum
  // @ts-expect-error
  await client.GET('/api/acme/v1/items', { params: { query: { per_page: 'ten' } } });
  // @ts-expect-error
  await client.GET('/api/acme/v1/items', { params: { query: { orderby: 'price' } } });
  // wrong path parameter type
  // @ts-expect-error
  await client.GET('/api/acme/v1/orders/{id}', { params: { path: { id: 'one' } } });
  // unknown path
  // @ts-expect-error
  await client.GET('/api/acme/v1/nothing');
  // method not offered
  // @ts-expect-error
  await client.POST('/api/commerce/v3/system_status');
  // @ts-expect-error
  await client.DELETE('${SETTINGS}');
}
`;

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cpf-typed-client-'));
  const types = astToString(await openapiTS(structuredClone(demoDocument()) as never));
  await Promise.all([
    writeFile(join(dir, 'demo-api.d.ts'), types),
    writeFile(join(dir, 'correct.ts'), CORRECT_CALLS),
    writeFile(join(dir, 'wrong.ts'), WRONG_CALLS),
  ]);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Compiles files of the temp dir (strict, no emit), resolving `openapi-fetch` from this project. */
function compile(...files: string[]): string[] {
  const require = createRequire(import.meta.url);
  const fetchTypes = join(dirname(require.resolve('openapi-fetch')), 'index.d.mts');
  const program = ts.createProgram(
    files.map((file) => join(dir, file)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
      paths: { 'openapi-fetch': [fetchTypes] },
    },
  );
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (diagnostic) =>
        `${diagnostic.file?.fileName.slice(dir.length + 1) ?? ''}:${
          diagnostic.file && diagnostic.start !== undefined
            ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1
            : 0
        } ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`,
    );
}

describe('a client generated from the demo document (openapi-typescript + openapi-fetch)', () => {
  it('compiles the correct calls and rejects every wrong call', () => {
    expect(compile('correct.ts', 'wrong.ts')).toEqual([]);
    expect(WRONG_CALLS.match(/@ts-expect-error/g)).toHaveLength(24);
  });
});
