/**
 * Who gets in: missing, malformed and wrong bearer tokens (401), tokens without the
 * capability (403), the constant-time token comparison, and what error bodies, status reports
 * and `onError` logs never contain.
 */
import { inspect } from 'node:util';
import {
  allowPublic,
  bearerTokenAuth,
  constantTimeEqual,
  createRestServer,
  MASKED_VALUE,
  OptionStoreError,
  type RestUser,
} from 'commerce-plugin-framework';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Fault, PASS } from '../support/fault-injecting-store';
import { ExtraRoutesPlugin } from './support/extra-routes-plugin';
import {
  ADMIN_TOKEN,
  type Answer,
  expectRestError,
  SETTINGS_PATH,
  send,
  shopServer,
  snapshotStore,
  VIEWER_TOKEN,
} from './support/shop';

const STATUS_PATH = '/api/commerce/v3/system_status';

/** Every protected request: list, read, write, status. */
const protectedRequests: Array<[string, string, unknown]> = [
  ['GET', SETTINGS_PATH, undefined],
  ['GET', `${SETTINGS_PATH}/title`, undefined],
  ['GET', `${SETTINGS_PATH}/no_such_setting`, undefined],
  ['PUT', `${SETTINGS_PATH}/title`, { value: 'intruder' }],
  ['POST', `${SETTINGS_PATH}/api_key`, { value: 'sk_intruder' }],
  ['PATCH', `${SETTINGS_PATH}/no_such_setting`, { value: 1 }],
  ['GET', STATUS_PATH, undefined],
];

async function callAll(authorization: string | undefined, mayWrite = false): Promise<Answer[]> {
  const shop = shopServer();
  const before = await snapshotStore(shop.data);
  const answers: Answer[] = [];
  for (const [method, path, json] of protectedRequests) {
    answers.push(
      await send(shop.server, method, path, {
        ...(json === undefined ? {} : { json }),
        ...(authorization === undefined ? {} : { headers: { authorization } }),
      }),
    );
  }
  if (!mayWrite) {
    expect(shop.store.count('set')).toBe(0);
    expect(await snapshotStore(shop.data)).toEqual(before);
  }
  return answers;
}

describe('bearer tokens', () => {
  const flip = (text: string, index: number) =>
    text.slice(0, index) + (text[index] === 'a' ? 'b' : 'a') + text.slice(index + 1);

  const refused: Array<[string, string | undefined]> = [
    ['no Authorization header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the scheme and a space', 'Bearer '],
    ['Basic credentials', `Basic ${btoa(`admin:${ADMIN_TOKEN}`)}`],
    ['Basic x', 'Basic x'],
    ['the token without a scheme', ADMIN_TOKEN],
    ['another scheme with the token', `Token ${ADMIN_TOKEN}`],
    ['a token split by a space', `Bearer ${ADMIN_TOKEN.slice(0, 6)} ${ADMIN_TOKEN.slice(6)}`],
    ['the token followed by more', `Bearer ${ADMIN_TOKEN} extra`],
    ['two tokens in one header', `Bearer ${ADMIN_TOKEN}, Bearer ${ADMIN_TOKEN}`],
    ['a lowercase scheme with a wrong token', 'bearer wrong-token'],
    ['a wrong token', 'Bearer wrong-token'],
    ['the token with its first character changed', `Bearer ${flip(ADMIN_TOKEN, 0)}`],
    ['the token with its last character changed', `Bearer ${flip(ADMIN_TOKEN, ADMIN_TOKEN.length - 1)}`],
    ['a prefix of the token', `Bearer ${ADMIN_TOKEN.slice(0, -1)}`],
    ['the token and one more character', `Bearer ${ADMIN_TOKEN}0`],
    ['the token in upper case', `Bearer ${ADMIN_TOKEN.toUpperCase()}`],
    ['a 100 kB token', `Bearer ${'a'.repeat(100_000)}`],
    ['non-token68 characters', `Bearer ${ADMIN_TOKEN}"`],
  ];

  it.each(refused)(
    '%s is 401 rest_forbidden everywhere, and nothing is revealed or written',
    async (_label, header) => {
      for (const answer of await callAll(header)) {
        expectRestError(answer, 401, 'rest_forbidden');
        expect(answer.text).not.toContain('Original title');
        expect(answer.text).not.toContain('sk_live');
      }
    },
  );

  it('a valid token without the management capability is 403 everywhere', async () => {
    for (const answer of await callAll(`Bearer ${VIEWER_TOKEN}`)) {
      expectRestError(answer, 403, 'rest_forbidden');
      expect(answer.text).not.toContain('Original title');
    }
  });

  it('an unknown setting id is 404 only for a manager: others cannot probe which settings exist', async () => {
    const answers = await callAll(`Bearer ${ADMIN_TOKEN}`, true);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 200, 200, 404, 200]);
  });

  it('the scheme is case-insensitive and may be followed by several spaces (RFC 7235, RFC 6750)', async () => {
    const shop = shopServer();
    for (const header of [
      `bearer ${ADMIN_TOKEN}`,
      `BEARER ${ADMIN_TOKEN}`,
      `Bearer  ${ADMIN_TOKEN}`,
      `Bearer ${ADMIN_TOKEN} `,
    ]) {
      const answer = await send(shop.server, 'GET', `${SETTINGS_PATH}/title`, {
        headers: { authorization: header },
      });
      expect([header, answer.status]).toEqual([header, 200]);
    }
  });
});

describe('constant-time comparison', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Counts the characters read (charCodeAt calls) while `run` runs. */
  function charactersRead(run: () => unknown): number {
    const spy = vi.spyOn(String.prototype, 'charCodeAt');
    try {
      run();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }

  const secret = `${'a'.repeat(63)}z`;

  it('constantTimeEqual answers correctly', () => {
    expect(constantTimeEqual(secret, secret)).toBe(true);
    expect(constantTimeEqual(secret, `b${secret.slice(1)}`)).toBe(false);
    expect(constantTimeEqual(secret, `${secret.slice(0, -1)}y`)).toBe(false);
    expect(constantTimeEqual(secret, secret.slice(0, -1))).toBe(false);
    expect(constantTimeEqual(secret, `${secret}a`)).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('', 'a')).toBe(false);
    // Different lengths whose shared part is equal, and code units beyond ASCII.
    expect(constantTimeEqual('abc\u0000', 'abc')).toBe(false);
    expect(constantTimeEqual('\uffff', '\u0000')).toBe(false);
  });

  it('reads every character whatever the position of the first difference (no early exit)', () => {
    const equal = charactersRead(() => constantTimeEqual(secret, secret));
    const firstDiffers = charactersRead(() => constantTimeEqual(secret, `b${secret.slice(1)}`));
    const lastDiffers = charactersRead(() => constantTimeEqual(secret, `${secret.slice(0, -1)}y`));
    const allDiffer = charactersRead(() => constantTimeEqual(secret, 'b'.repeat(64)));
    expect(equal).toBe(2 * secret.length);
    expect([firstDiffers, lastDiffers, allDiffer]).toEqual([equal, equal, equal]);
    // A shorter or longer guess still walks the longer length: the length is not leaked early.
    expect(charactersRead(() => constantTimeEqual(secret, 'a'))).toBe(equal);
    expect(charactersRead(() => constantTimeEqual(secret, `${secret}x`))).toBe(2 * (secret.length + 1));
  });

  it('bearerTokenAuth compares the presented token with every configured token, matching or not', () => {
    const tokens = ['t'.repeat(40), 'u'.repeat(40), 'v'.repeat(40)];
    const auth = bearerTokenAuth(
      tokens.map((token, id): [string, RestUser] => [token, { id, capabilities: [] }]),
    );
    const request = (token: string) =>
      new Request('http://localhost/', { headers: { authorization: `Bearer ${token}` } });
    const reads = (token: string) => {
      const prepared = request(token);
      let user: RestUser | null = null;
      const count = charactersRead(() => {
        user = auth(prepared);
      });
      return { count, user: user as RestUser | null };
    };
    const first = reads(tokens[0]!);
    const last = reads(tokens[2]!);
    const none = reads('w'.repeat(40));
    const nearMiss = reads(`${'v'.repeat(39)}w`);
    expect([first.user?.id, last.user?.id, none.user, nearMiss.user]).toEqual([0, 2, null, null]);
    expect([last.count, none.count, nearMiss.count]).toEqual([first.count, first.count, first.count]);
  });
});

/** Internals that must never reach a client. */
const INTERNALS = [
  'SELECT secret FROM',
  'options_secret',
  '/home/x/file.ts:12',
  'file.ts',
  'node_modules',
  '    at ',
  'Error:',
  'FaultInjectingStore',
  '"cause"',
  '"stack"',
  '42P01',
];

function storeFailure(): Error {
  const error = new Error(
    'relation "options_secret" failed: SELECT secret FROM options_secret WHERE key = $1',
  );
  error.stack = `Error: SELECT secret FROM options_secret\n    at query (/home/x/file.ts:12:5)\n    at node_modules/pg/lib/client.js:1:1`;
  Object.assign(error, {
    code: '42P01',
    detail: 'SELECT secret FROM options_secret',
    where: '/home/x/file.ts:12',
  });
  return error;
}

function expectNoInternals(answer: Answer): void {
  const everything = `${answer.text}\n${[...answer.headers].join('\n')}`;
  for (const internal of INTERNALS) expect(everything).not.toContain(internal);
}

/** A plugin whose routes throw what a buggy or unlucky handler throws. */
class ThrowingPlugin extends ExtraRoutesPlugin {
  constructor() {
    super({ id: 'boom', name: 'Boom', version: '1.0.0' }, (routes) => {
      const route = (path: string, thrown: () => unknown) =>
        routes.register('boom/v1', path, {
          methods: 'GET',
          permission: allowPublic(),
          handler: () => {
            throw thrown();
          },
        });
      route('/error', storeFailure);
      route(
        '/store',
        () => new OptionStoreError('getMany', { cause: storeFailure(), store: 'PostgresOptionStore' }),
      );
      route('/string', () => 'SELECT secret FROM options_secret at /home/x/file.ts:12');
      route(
        '/type',
        () => new TypeError("Cannot read properties of undefined (reading 'secret') at /home/x/file.ts:12"),
      );
      route('/object', () => ({ message: 'SELECT secret FROM', stack: '/home/x/file.ts:12' }));
      routes.register('boom/v1', '/async', {
        methods: 'GET',
        permission: async () => {
          throw storeFailure();
        },
        handler: () => 'never',
      });
    });
  }
}

describe('error bodies carry no internals', () => {
  it('a failing store answers 503 rest_store_unavailable with a generic message, on reads and writes', async () => {
    const fail: Fault = { kind: 'fail', error: storeFailure() };
    const shop = shopServer();
    shop.store.setSchedule(() => fail);
    const read = await send(shop.server, 'GET', SETTINGS_PATH, { token: ADMIN_TOKEN });
    expectRestError(read, 503, 'rest_store_unavailable');
    expectNoInternals(read);
    const write = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      token: ADMIN_TOKEN,
      json: { value: 'x' },
    });
    expectRestError(write, 503, 'rest_store_unavailable');
    expectNoInternals(write);
    const status = await send(shop.server, 'GET', STATUS_PATH, { token: ADMIN_TOKEN });
    expectRestError(status, 503, 'rest_store_unavailable');
    expectNoInternals(status);
    // The host's log gets the details.
    expect(shop.reported.length).toBe(3);
    expect(shop.reported.every((error) => error instanceof OptionStoreError)).toBe(true);
    expect(String((shop.reported[0] as Error).message)).toContain('SELECT secret FROM');
  });

  it('a store that throws synchronously is a 503 too', async () => {
    const shop = shopServer();
    shop.store.setSchedule(() => {
      throw storeFailure();
    });
    const answer = await send(shop.server, 'GET', `${SETTINGS_PATH}/title`, { token: ADMIN_TOKEN });
    expectRestError(answer, 503, 'rest_store_unavailable');
    expectNoInternals(answer);
  });

  it('anything else a handler or permission throws is 500 rest_internal_error with a generic message', async () => {
    const reported: unknown[] = [];
    const server = createRestServer({
      plugins: [new ThrowingPlugin()],
      onError: (error) => reported.push(error),
    });
    for (const path of ['/error', '/string', '/type', '/object', '/async']) {
      const answer = await send(server, 'GET', `/api/boom/v1${path}`);
      expectRestError(answer, 500, 'rest_internal_error');
      expectNoInternals(answer);
    }
    const store = await send(server, 'GET', '/api/boom/v1/store');
    expectRestError(store, 503, 'rest_store_unavailable');
    expectNoInternals(store);
    expect(reported).toHaveLength(6);
  });

  it('an authenticate hook that throws is 500, without its message', async () => {
    const shop = shopServer({
      authenticate: () => {
        throw storeFailure();
      },
    });
    const answer = await send(shop.server, 'GET', SETTINGS_PATH, { token: ADMIN_TOKEN });
    expectRestError(answer, 500, 'rest_internal_error');
    expectNoInternals(answer);
  });

  it('an onError hook that throws changes nothing in the answer', async () => {
    const shop = shopServer({
      onError: () => {
        throw storeFailure();
      },
    });
    shop.store.setSchedule(() => ({ kind: 'fail', error: storeFailure() }));
    const answer = await send(shop.server, 'GET', SETTINGS_PATH, { token: ADMIN_TOKEN });
    expectRestError(answer, 503, 'rest_store_unavailable');
    expectNoInternals(answer);
  });
});

describe('password values are masked', () => {
  const SECRET = 'sk_live_TOPSECRET_4242';

  it('the status report (API and route) shows "********" for a password value, never the value', async () => {
    const shop = shopServer();
    const write = await send(shop.server, 'PUT', `${SETTINGS_PATH}/api_key`, {
      token: ADMIN_TOKEN,
      json: { value: SECRET },
    });
    expect(write.status).toBe(200);
    const report = await shop.server.getSystemStatus();
    expect(report.commerce_shop).toMatchObject({
      settings: { api_key: MASKED_VALUE, title: 'Original title' },
    });
    expect(JSON.stringify(report)).not.toContain(SECRET);
    const route = await send(shop.server, 'GET', STATUS_PATH, { token: ADMIN_TOKEN });
    expect(route.status).toBe(200);
    expect(route.text).not.toContain(SECRET);
    expect(route.text).toContain(MASKED_VALUE);
  });

  it('route indexes and OPTIONS answers show no values', async () => {
    const shop = shopServer();
    await shop.plugin.settings.updateValue('api_key', SECRET);
    for (const [method, path] of [
      ['GET', '/api'],
      ['GET', '/api/commerce/v3'],
      ['OPTIONS', `${SETTINGS_PATH}/api_key`],
      ['OPTIONS', SETTINGS_PATH],
    ] as const) {
      const answer = await send(shop.server, method, path);
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(SECRET);
      expect(answer.text).not.toContain('Original title');
    }
  });

  it('a failed write of a password reaches onError without the value, and the client gets a 503 without it', async () => {
    const shop = shopServer();
    shop.store.setSchedule((call) =>
      call.operation === 'set' ? { kind: 'fail', error: new Error('connection reset') } : PASS,
    );
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/api_key`, {
      token: ADMIN_TOKEN,
      json: { value: SECRET },
    });
    expectRestError(answer, 503, 'rest_store_unavailable');
    expect(answer.text).not.toContain(SECRET);
    expect(shop.reported).toHaveLength(1);
    const logged = shop.reported[0];
    for (const form of [
      String(logged),
      inspect(logged, { depth: 10, showHidden: true }),
      JSON.stringify(logged),
    ]) {
      expect(form).not.toContain(SECRET);
    }
  });

  it('a rejected password value is answered without echoing it', async () => {
    const shop = shopServer();
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/api_key`, {
      token: ADMIN_TOKEN,
      json: { value: `${SECRET}\u0000` },
    });
    expectRestError(answer, 400, 'rest_setting_value_invalid');
    expect(answer.text).not.toContain(SECRET);
    expect(shop.reported).toHaveLength(0);
  });
});
