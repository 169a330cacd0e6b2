/**
 * `cpf set` and `unset` as a program (on PostgreSQL when DATABASE_URL is set, else PGlite): values parsed as JSON or text, negative numbers
 * and `--`, `--if-match`, scopes, history `via: 'api'` with the CLI's actor, a secret only from
 * standard input (refused as an argument before anything is written, never echoed), and the
 * exit codes of refused values (3), failed preconditions (4) and an outdated schema (6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonError, jsonOut } from './support/cli-run';
import { type CliSession, cliSession, quickestStore } from './support/cli-session';

const SECRET = 'sk_live_write_test_9876';
const ARGUMENT_SECRET = 'sk_typed_on_the_command_line';

let session: CliSession;

function cpf(args: readonly string[], options: { input?: string; schema?: string } = {}) {
  return session.cpf(args, {
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.schema === undefined ? {} : { env: { CPF_TEST_SCHEMA: options.schema } }),
  });
}

beforeAll(async () => {
  session = await cliSession(quickestStore());
}, 120_000);

afterAll(async () => {
  session.expectNeverPrinted([SECRET, ARGUMENT_SECRET]);
  await session.remove();
});

describe('cpf set and unset', { timeout: 240_000 }, () => {
  it('stores JSON when it parses and text otherwise, -1 and values after --, at a scope, with history via api', async () => {
    const title = await cpf(['set', 'shop', 'title', 'Bike shop']);
    const quoted = await cpf(['set', 'shop', 'note', '"42"']);
    const negative = await cpf(['set', 'shop', 'retries', '-1', '--scope', 'eu']);
    const dashes = await cpf(['set', 'shop', 'note', '--scope', 'eu/de', '--', '--not-an-option']);
    const object = await cpf(['set', 'shop', 'meta', '{"b":1,"a":[true,null]}', '--actor', 'alice']);
    const list = await cpf(['set', 'shop', 'tags', '["x","y"]']);
    for (const result of [title, quoted, negative, dashes, object, list]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
    }
    await session.library(async ({ shop }) => {
      expect(await shop.getValue('title')).toBe('Bike shop');
      expect(await shop.getValue('note')).toBe('42');
      expect(await shop.scope('eu').getOwnValue('retries')).toBe(-1);
      expect(await shop.scope('eu/de').getOwnValue('note')).toBe('--not-an-option');
      expect(await shop.getValue('meta')).toEqual({ a: [true, null], b: 1 });
      expect(await shop.getValue('tags')).toEqual(['x', 'y']);
      // The Setting object as it then reads, REST's shape (scope and origin with --scope).
      expect(jsonOut(title)).toEqual(await shop.level('').getSettingObject('title'));
      expect(jsonOut(negative)).toEqual(await shop.scope('eu').getSettingObject('retries'));
      expect(jsonOut(negative)).toMatchObject({ value: -1, scope: 'eu', origin: 'eu' });
      const [meta, first] = await shop
        .getHistory({ limit: 10 })
        .then((entries) => [entries[1], entries.at(-1)]);
      expect(meta).toMatchObject({ setting_id: 'meta', actor: { id: 'alice' }, via: 'api' });
      expect(first).toMatchObject({
        setting_id: 'title',
        actor: { id: 'cli' },
        via: 'api',
        new: 'Bike shop',
      });
    });
  });

  it('takes a secret only from standard input, and refuses it as an argument before writing anything', async () => {
    const refused = await cpf(['set', 'shop', 'api_key', ARGUMENT_SECRET]);
    const refusedJson = await cpf(['set', 'shop', 'api_key', ARGUMENT_SECRET, '--json']);
    const stored = await cpf(['set', 'shop', 'api_key', '--stdin'], { input: `${SECRET}\n` });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(jsonError(refusedJson)).toEqual({
      code: 'cli_usage',
      message:
        'The setting "api_key" is a secret: give its value on standard input (--stdin), never as an argument.',
    });
    expect(stored.code, stored.stderr).toBe(0);
    expect(jsonOut(stored)).toMatchObject({ id: 'api_key', value: '********' });
    await session.library(async ({ shop }) => {
      // One trailing newline removed; the refused argument never reached the store or its history.
      expect(await shop.getValue('api_key')).toBe(SECRET);
      const history = await shop.getHistory({ settingId: 'api_key' });
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ new: '********', via: 'api' });
    });
  });

  it('exit 3 for a refused value, 4 for a failed --if-match, 0 for unset with or without a stored value', async () => {
    const wrongType = await cpf(['set', 'shop', 'retries', 'three']);
    const notAnOption = await cpf(['set', 'shop', 'mode', 'demo', '--scope', 'eu']);
    // Live mode needs an API key (a rule across settings): without the stored one, refused.
    expect((await cpf(['unset', 'shop', 'api_key'])).code).toBe(0);
    const rule = await cpf(['set', 'shop', 'mode', 'live', '--scope', 'eu']);
    const got = await cpf(['get', 'shop', 'title']);
    const { etag } = jsonOut<{ etag: string }>(got);
    const matched = await cpf(['set', 'shop', 'title', 'Matched', '--if-match', etag]);
    const stale = await cpf(['set', 'shop', 'title', 'Stale', '--if-match', etag]);
    const bare = await cpf(['unset', 'shop', 'title', '--if-match', etag.replaceAll('"', '')]);
    const unset = await cpf(['unset', 'shop', 'retries', '--scope', 'eu']);
    const again = await cpf(['unset', 'shop', 'retries', '--scope', 'eu']);
    expect([wrongType, notAnOption, rule].map((result) => result.code)).toEqual([3, 3, 3]);
    expect(jsonError(wrongType).code).toBe('rest_setting_value_invalid');
    expect(jsonError(notAnOption).code).toBe('rest_setting_value_invalid');
    expect(jsonError(rule)).toEqual({ code: 'rest_setting_rules_failed', message: expect.any(String) });
    expect(matched.code, matched.stderr).toBe(0);
    expect([stale.code, bare.code]).toEqual([4, 4]);
    expect(jsonError(stale).code).toBe('rest_precondition_failed');
    expect([unset.code, again.code]).toEqual([0, 0]);
    expect(jsonOut(again)).toMatchObject({ id: 'retries', scope: 'eu', origin: null, value: 3 });
    await session.library(async ({ shop }) => {
      expect(await shop.getValue('title')).toBe('Matched');
      expect(await shop.scope('eu').getOrigin('retries')).toBeNull();
      expect(await shop.scope('eu').getValue('mode')).toBe('test');
    });
  });

  it('exit 6 when the stored settings are at a newer schema version (a migration ran), and 0 for migrate itself', async () => {
    const migrated = await cpf(['migrate', 'shop'], { schema: '2' });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(jsonOut(migrated)).toMatchObject({ from: 1, to: 2, dry_run: false });
    const old = await cpf(['set', 'shop', 'fee', '2']);
    expect(old.code).toBe(6);
    expect(jsonError(old).code).toBe('rest_schema_outdated');
    const reads = await cpf(['get', 'shop', 'fee']);
    expect(reads.code).toBe(0);
  });
});
