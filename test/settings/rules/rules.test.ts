import {
  createAesGcmCipher,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type OptionStore,
  requiredWhen,
  type SettingsOptions,
  SettingsRuleFailedError,
  SettingsRulesError,
} from 'commerce-plugin-framework';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorePair } from '../../reliability/support/real-stores';
import { describeOnEveryStore } from '../support/every-store';

const KEY = { id: 'k1', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(9))) };

class Gateway extends Framework_Abstract_Settings {
  constructor(store: OptionStore, options: SettingsOptions = {}) {
    super('acme', store, {
      rules: [requiredWhen('api_key', { setting: 'mode', equals: 'live' }, 'Live mode needs an API key.')],
      ...options,
    });
  }
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { options: ['live', 'test'], default: 'test' });
    this.registerSetting('api_key', 'string', { secret: true });
    this.registerSetting('title', 'string', { default: 'Card' });
  }
}

async function refusal(write: Promise<unknown>): Promise<SettingsRulesError> {
  const error = await write.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(SettingsRulesError);
  return error as SettingsRulesError;
}

describe('rules across settings', () => {
  it('refuse a single write whose result breaks them (400, errors at the setting), storing nothing', async () => {
    const store = new MemoryOptionStore();
    const settings = new Gateway(store);
    const error = await refusal(settings.updateValue('mode', 'live'));
    expect(error).toMatchObject({
      code: 400,
      errors: [{ id: 'api_key', message: 'Live mode needs an API key.' }],
    });
    expect(await store.get('framework_acme_mode')).toBeUndefined();
    expect(await settings.getValue('mode')).toBe('test');
    await settings.updateValue('api_key', 'sk_1');
    await settings.updateValue('mode', 'live');
    // Deleting what a rule needs is a write too.
    await refusal(settings.deleteValue('api_key'));
    expect(await settings.getValue('api_key')).toBe('sk_1');
    // A problem at a setting the write did not touch refuses it as well.
    await store.delete('framework_acme_api_key');
    await settings.load();
    await refusal(settings.updateValue('title', 'Shop'));
  });

  it('see the whole result of a batch: changes that pass together are stored together', async () => {
    const settings = new Gateway(new MemoryOptionStore());
    await refusal(settings.updateValues([{ id: 'mode', value: 'live' }]));
    await settings.updateValues([
      { id: 'mode', value: 'live' },
      { id: 'api_key', value: 'sk_live' },
    ]);
    expect(await settings.getValue('mode')).toBe('live');
  });

  it('see the values of the level written, inherited ones included, and run there only', async () => {
    const settings = new Gateway(new MemoryOptionStore());
    await settings.updateValue('api_key', 'sk_global');
    // An empty key at eu/de overrides the inherited one (fine while eu/de is in test mode).
    await settings.scope('eu/de').updateValue('api_key', '');
    // eu inherits the global key: live mode there is fine, and eu/de, which inherits eu's mode,
    // is not checked again for a write at eu…
    await settings.scope('eu').updateValue('mode', 'live');
    expect(await settings.scope('eu/de').getValue('mode')).toBe('live');
    // …but any write at eu/de is checked there.
    const error = await refusal(settings.scope('eu/de').updateValue('title', 'DE'));
    expect(error.scope).toBe('eu/de');
  });

  it('are given the secrets’ real values', async () => {
    const seen: unknown[] = [];
    const settings = new Gateway(new MemoryOptionStore(), {
      secrets: createAesGcmCipher([KEY]),
      rules: [(values) => void seen.push(values.api_key)],
    });
    await settings.updateValue('api_key', 'sk_plain');
    expect(seen).toEqual(['sk_plain']);
  });

  it('a rule that throws refuses the write with 500 and stores nothing; rotateSecrets runs no rule', async () => {
    const store = new MemoryOptionStore({ framework_acme_api_key: 'sk_plain' });
    const settings = new Gateway(store, {
      secrets: createAesGcmCipher([KEY]),
      rules: [
        () => {
          throw new Error('broken rule');
        },
      ],
    });
    const error = await settings.updateValue('title', 'x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SettingsRuleFailedError);
    expect(error).toMatchObject({ code: 500 });
    expect(await store.get('framework_acme_title')).toBeUndefined();
    expect(await settings.rotateSecrets()).toBe(1);
  });

  it('a rule answering something other than a list of problems is a failed rule (500)', async () => {
    const settings = new Gateway(new MemoryOptionStore(), {
      rules: [() => 'nope' as never, () => [{ id: 1, message: 'x' }] as never],
    });
    await expect(settings.updateValue('title', 'x')).rejects.toBeInstanceOf(SettingsRuleFailedError);
  });
});

describe('requiredWhen', () => {
  it('requires a value (not null, "" or []) when the other setting has one, or one of the named values', () => {
    const any = requiredWhen('secret', { setting: 'url' });
    expect(any({ url: 'https://x', secret: null }, { scope: null })).toEqual([
      { id: 'secret', message: 'secret is required when url is set.' },
    ]);
    expect(any({ url: '', secret: null }, { scope: null })).toEqual([]);
    expect(any({ url: [], secret: null }, { scope: null })).toEqual([]);
    expect(any({ url: 'https://x', secret: 's' }, { scope: null })).toEqual([]);
    expect(any({ url: 'https://x', secret: [] }, { scope: null })).toHaveLength(1);
    const some = requiredWhen('key', { setting: 'mode', equals: ['live', 'production'] });
    expect(some({ mode: 'production', key: '' }, { scope: 'eu' })).toEqual([
      { id: 'key', message: 'key is required when mode is "live" or "production".' },
    ]);
    expect(some({ mode: 'test', key: '' }, { scope: null })).toEqual([]);
  });
});

describeOnEveryStore('rules against concurrent writers', (open) => {
  let pair: StorePair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('two writes that each pass alone never together leave a state that breaks the rules', async () => {
    pair = await open();
    for (let round = 0; round < 10; round++) {
      const a = new Gateway(pair.first);
      const b = new Gateway(pair.second);
      await a.updateValues([
        { id: 'mode', value: 'test' },
        { id: 'api_key', value: `sk_${round}` },
      ]);
      await b.load();
      const outcomes = await Promise.allSettled([a.updateValue('mode', 'live'), b.deleteValue('api_key')]);
      const fresh = new Gateway(pair.first);
      const mode = await fresh.getValue('mode');
      const key = await fresh.getValue('api_key');
      expect(
        mode === 'live' && key === null,
        `round ${round}: ${JSON.stringify(outcomes.map((o) => o.status))}`,
      ).toBe(false);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
      for (const each of [a, b, fresh]) each.dispose();
    }
  }, 60_000);
});

describe('rules over REST', () => {
  function server(settings: Gateway) {
    class Plugin extends Framework_Plugin {
      override getSettingsHandler(): Gateway {
        return settings;
      }
    }
    return createRestServer({
      plugins: [new Plugin({ id: 'acme', name: 'Acme', version: '1.0.0' })],
      authenticate: () => ({ id: 1, capabilities: ['manage_commerce'] }),
    });
  }
  const send = async (rest: ReturnType<typeof server>, method: string, path: string, body?: unknown) => {
    const response = await rest.fetch(
      new Request(`http://shop.test/api/commerce/v3/acme/settings${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };

  it('a single write: 400 rest_setting_rules_failed, each problem rest_setting_rule_failed at its setting', async () => {
    const rest = server(new Gateway(new MemoryOptionStore()));
    const answer = await send(rest, 'PUT', '/mode', { value: 'live' });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      code: 'rest_setting_rules_failed',
      data: {
        status: 400,
        errors: [{ id: 'api_key', code: 'rest_setting_rule_failed', message: 'Live mode needs an API key.' }],
      },
    });
  });

  it('a batch: 400 rest_batch_rejected with the rules’ problems among data.errors', async () => {
    const rest = server(new Gateway(new MemoryOptionStore()));
    const answer = await send(rest, 'POST', '/batch', { update: [{ id: 'mode', value: 'live' }] });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({
      code: 'rest_batch_rejected',
      data: {
        errors: [{ id: 'api_key', code: 'rest_setting_rule_failed', message: 'Live mode needs an API key.' }],
      },
    });
    const ok = await send(rest, 'POST', '/batch', {
      update: [
        { id: 'mode', value: 'live' },
        { id: 'api_key', value: 'sk_1' },
      ],
    });
    expect(ok.status).toBe(200);
  });

  it('a rule that throws: 500 rest_internal_error, nothing in the body but the generic message', async () => {
    const rest = server(
      new Gateway(new MemoryOptionStore(), {
        rules: [
          () => {
            throw new Error('secret internals');
          },
        ],
      }),
    );
    const answer = await send(rest, 'PUT', '/title', { value: 'x' });
    expect(answer.status).toBe(500);
    expect(answer.json.code).toBe('rest_internal_error');
    expect(JSON.stringify(answer.json)).not.toContain('secret internals');
  });
});
