/** Refused setting values keep zod's issues in `data.details`; a secret's value is never repeated. */
import { Framework_Plugin_Exception, SettingValueError } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, GatewayPlugin, makeServer } from '../support/fixtures';

const SETTINGS = '/api/commerce/v3/acme/settings';

describe('rest_setting_value_invalid details', () => {
  it('lists the issues of the value with their path and zod code', async () => {
    const server = makeServer();
    const wrongType = await call(server, 'PUT', `${SETTINGS}/retries`, {
      token: ADMIN_TOKEN,
      body: { value: 'x' },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json.data).toMatchObject({
      setting_id: 'retries',
      details: [{ path: [], code: 'invalid_type', message: expect.stringContaining('expected an integer') }],
    });
    const multi = await call(server, 'PUT', `${SETTINGS}/methods`, {
      token: ADMIN_TOKEN,
      body: { value: ['card', 'cash', 7] },
    });
    expect(multi.status).toBe(400);
    const paths = multi.json.data.details.map((issue: { path: unknown[] }) => issue.path);
    expect(paths).toEqual([[1], [2]]);
    expect(multi.json.data.details[0]).toMatchObject({
      code: 'custom',
      message: expect.stringContaining('one of'),
    });
  });

  it('never repeats a secret value, its keys or the options', async () => {
    const server = makeServer();
    const sent = 'sk_live_THE_SECRET_VALUE';
    const res = await call(server, 'PUT', `${SETTINGS}/api_key`, {
      token: ADMIN_TOKEN,
      body: { value: [sent] },
    });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('THE_SECRET');
    expect(res.json.data.details).toEqual([
      { path: [], code: expect.any(String), message: expect.stringContaining('not repeated') },
    ]);
    const batch = await call(server, 'POST', `${SETTINGS}/batch`, {
      token: ADMIN_TOKEN,
      body: {
        update: [
          { id: 'api_key', value: { k: sent } },
          { id: 'retries', value: 1.5 },
        ],
      },
    });
    expect(batch.status).toBe(400);
    expect(batch.text).not.toContain('THE_SECRET');
    expect(batch.json.data.errors).toEqual([
      {
        id: 'api_key',
        code: 'rest_setting_value_invalid',
        message: expect.any(String),
        details: [{ path: [], code: expect.any(String), message: expect.stringContaining('not repeated') }],
      },
      {
        id: 'retries',
        code: 'rest_setting_value_invalid',
        message: expect.any(String),
        details: [{ path: [], code: 'custom', message: expect.stringContaining('safe integer') }],
      },
    ]);
  });

  it('gives an override’s own refusal as one issue at the value, with its 4xx code', async () => {
    class Strict extends GatewayPlugin {
      constructor() {
        super();
        const settings = this.settings;
        const base = settings.updateValue.bind(settings);
        settings.updateValue = (id: string, value: unknown) =>
          id === 'title' && value === 'bad'
            ? Promise.reject(new Framework_Plugin_Exception('Title "bad" is reserved.', 422))
            : base(id, value);
      }
    }
    const { createRestServer } = await import('commerce-plugin-framework');
    const { authenticate } = await import('../support/fixtures');
    const server = createRestServer({ plugins: [new Strict()], authenticate });
    const res = await call(server, 'PUT', `${SETTINGS}/title`, {
      token: ADMIN_TOKEN,
      body: { value: 'bad' },
    });
    expect(res.status).toBe(422);
    expect(res.json.data.details).toEqual([
      { path: [], code: 'custom', message: 'Title "bad" is reserved.' },
    ]);
  });

  it('is a SettingValueError in the settings layer, with the same issues', async () => {
    const plugin = new GatewayPlugin();
    const error = await plugin.settings.updateValue('retries', 'x').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SettingValueError);
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    expect((error as SettingValueError).code).toBe(400);
    expect((error as SettingValueError).issues).toEqual([
      { path: [], code: 'invalid_type', message: expect.stringContaining('expected an integer') },
    ]);
  });
});
