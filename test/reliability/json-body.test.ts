/**
 * Hostile JSON bodies over HTTP (`server.fetch`): each ends in a clear 4xx JSON error, the
 * store is byte for byte what it was (no write reached it), and no prototype is polluted.
 */
import { Framework_Plugin_Exception, MAX_JSON_DEPTH } from 'commerce-plugin-framework';
import { MAX_BODY_DEPTH } from 'commerce-plugin-framework/adapter-kit';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type Answer,
  bytes,
  expectNoPollution,
  expectRestError,
  freshShopForEachTest,
  SETTINGS_PATH,
  send,
} from './support/shop';

const shop = freshShopForEachTest();
const { expectStoreUnchanged } = shop;

afterEach(() => {
  expectNoPollution();
});

/** PUTs raw bytes (as JSON) to a setting. */
function put(
  settingId: string,
  body: string | Uint8Array<ArrayBuffer>,
  contentType = 'application/json',
): Promise<Answer> {
  return send(shop.server, 'PUT', `${SETTINGS_PATH}/${settingId}`, {
    token: ADMIN_TOKEN,
    body,
    headers: { 'content-type': contentType },
  });
}

/** Asserts a rejected request: the error, and nothing written. */
async function expectRejected(answer: Answer, status: number, code: string): Promise<void> {
  expectRestError(answer, status, code);
  await expectStoreUnchanged();
}

/** Nests `inner` in `levels` arrays. */
function nestArrays(levels: number, inner = '1'): string {
  return `${'['.repeat(levels)}${inner}${']'.repeat(levels)}`;
}

describe('prototype keys', () => {
  const protoBodies: Array<[string, string, string]> = [
    ['title', 'top-level __proto__', '{"__proto__":{"polluted":true},"value":"x"}'],
    ['title', 'escaped __proto__ key', '{"\\u005f_proto__":{"polluted":true},"value":"x"}'],
    ['meta', '__proto__ inside the value', '{"value":{"__proto__":{"polluted":true}}}'],
    ['meta', '__proto__ deep in the value', '{"value":{"a":[{"b":{"c":{"__proto__":{"isAdmin":true}}}}]}}'],
    ['meta', '__proto__ in an array element', '{"value":[1,{"__proto__":{"polluted":1}}]}'],
    ['tags', '__proto__ beside a valid value', '{"value":["a"],"x":{"__proto__":{"polluted":1}}}'],
    ['retries', '__proto__ as the value of value', '{"value":{"__proto__":null}}'],
  ];

  it.each(protoBodies)('%s: %s is 400 rest_invalid_json', async (id, _label, body) => {
    const answer = await put(id, body);
    await expectRejected(answer, 400, 'rest_invalid_json');
    expect((answer.json as { message: string }).message).toContain('__proto__');
  });

  it('constructor and prototype keys are ordinary data: stored as own keys, nothing polluted', async () => {
    const value = { constructor: { prototype: { polluted: true } }, prototype: { isAdmin: true } };
    const answer = await put('meta', JSON.stringify({ value }));
    expect(answer.status).toBe(200);
    expect((answer.json as { value: unknown }).value).toEqual(value);
    const stored = JSON.parse((await shop.data.get('framework_shop_meta'))!);
    expect(Object.keys(stored).sort()).toEqual(['constructor', 'prototype']);
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    // Unknown body members named like prototype keys are ignored.
    const title = await put(
      'title',
      '{"constructor":{"prototype":{"polluted":1}},"prototype":1,"value":"T"}',
    );
    expect([title.status, (title.json as { value: unknown }).value]).toEqual([200, 'T']);
  });

  it('an object setting never stores a __proto__ key, whichever way the value was built', async () => {
    const { settings } = shop.plugin;
    const hostile: unknown[] = [
      JSON.parse('{"__proto__":{"polluted":true}}'),
      { ['__proto__']: { polluted: true } },
      Object.defineProperty({}, '__proto__', { value: 1, enumerable: true }),
      Object.assign(Object.create(null), JSON.parse('{"a":{"__proto__":[]}}')),
      [JSON.parse('{"__proto__":1}')],
    ];
    for (const value of hostile) {
      const error = await settings.updateValue('meta', value).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Framework_Plugin_Exception);
      expect((error as Framework_Plugin_Exception).code).toBe(400);
    }
    await expectStoreUnchanged();
  });

  it('a hostile __proto__ already in the store reads as nothing stored, without pollution', async () => {
    await shop.data.set('framework_shop_meta', '{"__proto__":{"polluted":true},"a":1}');
    await shop.data.set('framework_shop_tags', '["a",{"__proto__":{"polluted":true}}]');
    const answer = await send(shop.server, 'GET', SETTINGS_PATH, { token: ADMIN_TOKEN });
    expect(answer.status).toBe(200);
    const values = Object.fromEntries(
      (answer.json as Array<{ id: string; value: unknown }>).map((item) => [item.id, item.value]),
    );
    expect(values.meta).toBeNull();
    expect(values.tags).toBeNull();
  });

  it('setting ids named like prototype members are unknown settings', async () => {
    for (const id of ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']) {
      const read = await send(shop.server, 'GET', `${SETTINGS_PATH}/${id}`, { token: ADMIN_TOKEN });
      expectRestError(read, 404, 'rest_setting_not_found');
      const write = await put(id, '{"value":{"polluted":true}}');
      expectRestError(write, 404, 'rest_setting_not_found');
    }
    await expectStoreUnchanged();
  });
});

describe('duplicate keys', () => {
  it('the last occurrence wins (JSON.parse semantics), for the body and inside values', async () => {
    const answer = await put('title', '{"value":"first","value":"second"}');
    expect([answer.status, (answer.json as { value: unknown }).value]).toEqual([200, 'second']);
    expect(await shop.data.get('framework_shop_title')).toBe('second');
    const meta = await put('meta', '{"value":{"a":1,"a":2}}');
    expect((meta.json as { value: unknown }).value).toEqual({ a: 2 });
  });

  it('a later invalid duplicate makes the whole request invalid', async () => {
    await expectRejected(await put('retries', '{"value":7,"value":"7"}'), 400, 'rest_setting_value_invalid');
    await expectRejected(
      await put('retries', '{"value":7,"value":null}'),
      400,
      'rest_missing_callback_param',
    );
  });
});

describe('nesting depth', () => {
  it(`documents the limit: the top-level object is level 1, and MAX_BODY_DEPTH is ${MAX_BODY_DEPTH}`, () => {
    expect(MAX_BODY_DEPTH).toBe(64);
    expect(MAX_JSON_DEPTH).toBe(64);
  });

  it('a body of exactly 64 levels is accepted (an object value of 63 levels)', async () => {
    // {"value": [[…63 arrays…]]}: the body object is level 1, the innermost array level 64.
    const answer = await put('meta', `{"value":${nestArrays(63)}}`);
    expect(answer.status).toBe(200);
    expect(await shop.data.get('framework_shop_meta')).toBe(nestArrays(63));
  });

  it('a body of 65 levels is 400 rest_invalid_json, in arrays or objects', async () => {
    await expectRejected(await put('meta', `{"value":${nestArrays(64)}}`), 400, 'rest_invalid_json');
    const objects = `{"value":${'{"a":'.repeat(64)}1${'}'.repeat(64)}}`;
    await expectRejected(await put('meta', objects), 400, 'rest_invalid_json');
    // Depth beside the argument counts too.
    await expectRejected(
      await put('title', `{"value":"x","junk":${nestArrays(64)}}`),
      400,
      'rest_invalid_json',
    );
  });

  it('a nesting bomb (100 000 levels) is 400, not a crash', async () => {
    await expectRejected(await put('meta', `{"value":${nestArrays(100_000)}}`), 400, 'rest_invalid_json');
    await expectRejected(await put('meta', `{"value":${'['.repeat(400_000)}`), 400, 'rest_invalid_json');
  });

  it('an object value of 64 levels is accepted by the settings API but cannot arrive in a body', async () => {
    let deep: unknown = 1;
    for (let level = 0; level < 64; level++) deep = [deep];
    await shop.plugin.settings.updateValue('meta', deep);
    expect(await shop.data.get('framework_shop_meta')).toBe(nestArrays(64));
    const error = await shop.plugin.settings.updateValue('meta', [deep]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
  });
});

describe('numbers', () => {
  it('integers beyond the safe range are 400 rest_setting_value_invalid', async () => {
    for (const text of [
      '9007199254740992',
      '9007199254740993',
      '-9007199254740992',
      '1e16',
      '123456789012345678901234567890',
    ]) {
      await expectRejected(await put('retries', `{"value":${text}}`), 400, 'rest_setting_value_invalid');
    }
  });

  it('the largest safe integers are accepted and read back exactly', async () => {
    for (const value of [Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      const answer = await put('retries', `{"value":${value}}`);
      expect([answer.status, (answer.json as { value: unknown }).value]).toEqual([200, value]);
    }
    expect(await shop.data.get('framework_shop_retries')).toBe(String(Number.MIN_SAFE_INTEGER));
  });

  it('1e309 (Infinity after parsing) is rejected for integer, float and inside objects', async () => {
    await expectRejected(await put('retries', '{"value":1e309}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('fee', '{"value":1e309}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('fee', '{"value":-1e309}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('meta', '{"value":{"n":1e309}}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('meta', '{"value":[1,-1e999]}'), 400, 'rest_setting_value_invalid');
  });

  it('NaN and Infinity tokens are not JSON: 400 rest_invalid_json', async () => {
    for (const token of ['NaN', 'Infinity', '-Infinity', '+1', '0x10', '01', '.5', '1.']) {
      await expectRejected(await put('fee', `{"value":${token}}`), 400, 'rest_invalid_json');
    }
  });

  it('numbers are never coerced from strings or booleans', async () => {
    await expectRejected(await put('retries', '{"value":"5"}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('retries', '{"value":1.5}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('fee', '{"value":true}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('enabled', '{"value":1}'), 400, 'rest_setting_value_invalid');
    await expectRejected(await put('enabled', '{"value":"yes"}'), 400, 'rest_setting_value_invalid');
  });

  it('-0 is stored as 0', async () => {
    expect((await put('fee', '{"value":-0}')).status).toBe(200);
    expect(await shop.data.get('framework_shop_fee')).toBe('0');
  });
});

describe('strings', () => {
  const unstorable: Array<[string, string]> = [
    ['title', '{"value":"a\\u0000b"}'],
    ['title', '{"value":"\\u0000"}'],
    ['title', '{"value":"\\ud800"}'],
    ['title', '{"value":"x\\udc00"}'],
    ['title', '{"value":"\\ude00\\ud83d"}'],
    ['api_key', '{"value":"sk_\\u0000live"}'],
    ['webhook', '{"value":"https://example.com/\\u0000"}'],
    ['contact', '{"value":"a\\u0000@example.com"}'],
    ['tags', '{"value":["ok","\\ud800"]}'],
    ['meta', '{"value":{"k":"\\u0000"}}'],
    ['meta', '{"value":{"a\\u0000":1}}'],
    ['meta', '{"value":{"\\udbff":1}}'],
    ['meta', '{"value":["\\udfff"]}'],
    ['meta', '{"value":"\\ud800"}'],
  ];

  it.each(unstorable)('%s: %s is 400 rest_setting_value_invalid and not stored', async (id, body) => {
    await expectRejected(await put(id, body), 400, 'rest_setting_value_invalid');
  });

  it('a valid surrogate pair and other control characters are stored and read back', async () => {
    const answer = await put('title', '{"value":"\\ud83d\\ude00 tab\\t bell\\u0007"}');
    expect(answer.status).toBe(200);
    expect(await shop.data.get('framework_shop_title')).toBe('😀 tab\t bell\u0007');
  });
});

describe('encoding', () => {
  const invalidUtf8: Array<[string, Uint8Array<ArrayBuffer>]> = [
    ['a lone continuation byte', bytes('{"value":"', [0x80], '"}')],
    ['0xFF', bytes('{"value":"', [0xff], '"}')],
    ['an overlong slash', bytes('{"value":"', [0xc0, 0xaf], '"}')],
    ['an encoded surrogate (CESU-8)', bytes('{"value":"', [0xed, 0xa0, 0x80], '"}')],
    ['a truncated sequence', bytes('{"value":"', [0xe2, 0x82], '"}')],
    ['a code point above U+10FFFF', bytes('{"value":"', [0xf4, 0x90, 0x80, 0x80], '"}')],
    ['invalid bytes outside strings', bytes('{"value":"x"}', [0xff])],
  ];

  it.each(invalidUtf8)('%s is 400 rest_invalid_json', async (_label, body) => {
    await expectRejected(await put('title', body), 400, 'rest_invalid_json');
  });

  it('UTF-16 is not accepted; a UTF-8 byte-order mark is dropped', async () => {
    const utf16 = new Uint8Array([
      0xff,
      0xfe,
      ...[...'{"value":"x"}'].flatMap((char) => [char.charCodeAt(0), 0]),
    ]);
    await expectRejected(await put('title', utf16), 400, 'rest_invalid_json');
    const withBom = await put('title', bytes([0xef, 0xbb, 0xbf], '{"value":"bom"}'));
    expect(withBom.status).toBe(200);
    expect(await shop.data.get('framework_shop_title')).toBe('bom');
  });
});

describe('body shapes', () => {
  it('no body, an empty body and a white-space body are "no value": 400 rest_missing_callback_param', async () => {
    const noBody = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, { token: ADMIN_TOKEN });
    await expectRejected(noBody, 400, 'rest_missing_callback_param');
    expect((noBody.json as { data: { params: unknown } }).data.params).toEqual(['value']);
    await expectRejected(await put('title', ''), 400, 'rest_missing_callback_param');
    await expectRejected(await put('title', ' \r\n\t '), 400, 'rest_missing_callback_param');
    await expectRejected(await put('title', '{}'), 400, 'rest_missing_callback_param');
    await expectRejected(await put('title', '{"value":null}'), 400, 'rest_missing_callback_param');
  });

  const notObjects = [
    'null',
    '[]',
    '[{"value":"x"}]',
    '"x"',
    '"{\\"value\\":\\"x\\"}"',
    '1',
    'true',
    'false',
  ];

  it.each(notObjects)('a top-level %s is 400 rest_invalid_json', async (body) => {
    await expectRejected(await put('title', body), 400, 'rest_invalid_json');
  });

  const malformed = [
    '{',
    '{"value":"x"',
    '{"value":"x"} x',
    '{}{}',
    "{'value':'x'}",
    '{value:"x"}',
    '{"value":"x",}',
    '\u0000',
  ];

  it.each(malformed)('malformed JSON %j is 400 rest_invalid_json', async (body) => {
    await expectRejected(await put('title', body), 400, 'rest_invalid_json');
  });

  it('a non-JSON content type is checked before the JSON: 415 even for broken JSON', async () => {
    await expectRejected(
      await put('title', '{"__proto__":', 'text/plain'),
      415,
      'rest_unsupported_media_type',
    );
  });

  it('bodies are checked before permission: the answer to a stranger is the same 400', async () => {
    const answer = await send(shop.server, 'PUT', `${SETTINGS_PATH}/title`, {
      body: '{"__proto__":{"polluted":1}}',
      headers: { 'content-type': 'application/json' },
    });
    await expectRejected(answer, 400, 'rest_invalid_json');
  });
});
