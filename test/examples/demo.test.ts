import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningChild, startChild } from './support/child-process';
import { DemoClient } from './support/demo-client';

const SETTINGS = '/api/commerce/v3/acme_pay/settings';

describe('the demo (npm start) as a child process, on embedded PGlite', () => {
  let workDir: string;
  let dataDir: string;
  let demo: RunningChild;
  let client: DemoClient;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'cpf-demo-'));
    dataDir = join(workDir, 'pglite');
    demo = await startChild('examples/demo/main.ts', { DEMO_DATA_DIR: dataDir });
    const token = /Development token[^:]*: (\S+)/.exec(demo.output())?.[1];
    if (token === undefined) throw new Error(`no token printed:\n${demo.output()}`);
    client = new DemoClient(demo.url, token);
  });
  afterAll(async () => {
    demo?.kill();
    await rm(workDir, { recursive: true, force: true });
  });

  it('prints the store, the token, curl commands and the admin pages', () => {
    const output = demo.output();
    expect(output).toContain(`Store: PGlite (embedded PostgreSQL) in ${dataDir}`);
    expect(output).toContain(`curl -H "Authorization: Bearer ${client.token}" ${demo.url}${SETTINGS}`);
    expect(output).toContain(`${demo.url}/admin/settings/acme_pay`);
    expect(output).toContain(`${demo.url}/admin/status`);
    expect(output).toContain(`${demo.url}/login?token=${client.token}`);
  });

  it('lists the settings: every type and every control', async () => {
    const { status, json } = await client.call('GET', SETTINGS);
    expect(status).toBe(200);
    const types = new Set(json.map((setting: { type: string }) => setting.type));
    expect([...types].sort()).toEqual(['boolean', 'email', 'float', 'integer', 'object', 'string', 'url']);
    const controls = new Set(json.map((setting: { control: { type: string } }) => setting.control.type));
    expect([...controls].sort()).toEqual(
      [
        'checkbox',
        'color',
        'date',
        'email',
        'file',
        'number',
        'password',
        'radio',
        'range',
        'select',
        'text',
        'textarea',
      ].sort(),
    );
  });

  it('updates an integer and a boolean setting, and rejects a wrong type', async () => {
    expect((await client.update('max_retries', 5)).json).toMatchObject({ id: 'max_retries', value: 5 });
    expect((await client.update('enabled', true)).json).toMatchObject({ id: 'enabled', value: true });
    expect(await client.value('max_retries')).toBe(5);
    const wrong = await client.update('max_retries', 'five');
    expect(wrong).toMatchObject({ status: 400, json: { code: 'rest_setting_value_invalid' } });
    expect((await client.call('GET', SETTINGS, undefined)).status).toBe(200);
    const anonymous = await fetch(`${demo.url}${SETTINGS}`);
    expect(anonymous.status).toBe(401);
  });

  it('generates a settings key beside the data (with a warning) and stores the API key encrypted', async () => {
    const keyFile = join(workDir, 'settings.key');
    expect(demo.output()).toContain(`Secrets encrypted at rest with the key from ${keyFile}`);
    expect(demo.output()).toContain('WARNING: No SETTINGS_KEY given');
    expect((await readFile(keyFile, 'utf8')).trim()).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await client.update('api_key', 'sk_live_secret');
    expect((await client.call('GET', `${SETTINGS}/api_key`)).json.value).toBe('********');
  });

  it('serves the two channels eu and eu/de with their overrides', async () => {
    const de = await client.call('GET', `${SETTINGS}/title?scope=eu/de`);
    expect(de.json).toMatchObject({ value: 'Acme Pay Deutschland', scope: 'eu/de', origin: 'eu/de' });
    const countries = await client.call('GET', `${SETTINGS}/countries?scope=eu/de`);
    expect(countries.json).toMatchObject({ value: ['DE', 'FR', 'NL'], origin: 'eu' });
    const mode = await client.call('GET', `${SETTINGS}/mode?scope=eu/de`);
    expect(mode.json).toMatchObject({ origin: null });
    expect((await client.call('GET', `${SETTINGS}/title`)).json.value).toBe('Acme Pay');
  });

  it('masks the API key in the status report', async () => {
    await client.update('api_key', 'sk_live_secret');
    const { status, json } = await client.call('GET', '/api/commerce/v3/system_status');
    expect(status).toBe(200);
    expect(json.commerce_acme_pay).toMatchObject({
      is_payment_gateway: true,
      settings: { api_key: '********', max_retries: 5, enabled: true },
      ready: true,
    });
    expect(JSON.stringify(json)).not.toContain('sk_live_secret');
  });

  it('serves the item and order routes', async () => {
    const items = await fetch(`${demo.url}/api/acme/v1/items?per_page=2&orderby=name&order=ASC`);
    expect(items.status).toBe(200);
    // Anonymous callers do not see the seeded draft ("Filter papers").
    expect(items.headers.get('x-total')).toBe('2');
    expect(items.headers.get('x-total-pages')).toBe('1');
    expect(((await items.json()) as { data: { name: string }[] }).data.map((item) => item.name)).toEqual([
      'Coffee grinder',
      'Espresso cup',
    ]);
    const managed = await client.call('GET', '/api/acme/v1/items?per_page=2&orderby=name&order=ASC');
    expect(managed.headers.get('x-total')).toBe('3');
    const orders = await client.call('GET', '/api/acme/v1/orders');
    expect(orders.status).toBe(200);
    expect(orders.json.data).toHaveLength(2);
  });

  it('signs a browser in with ?token= (HttpOnly cookie) and serves the admin pages', async () => {
    const login = await fetch(`${demo.url}/login?token=${client.token}&next=/admin/settings/acme_pay`, {
      redirect: 'manual',
    });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe('/admin/settings/acme_pay');
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const session = cookie.split(';')[0]!;
    for (const path of ['/admin/settings/acme_pay', '/admin/status']) {
      const page = await fetch(`${demo.url}${path}`, { headers: { cookie: session } });
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('Acme Pay');
      expect(html).not.toContain('sk_live_secret');
    }
    expect((await fetch(`${demo.url}/admin/status`)).status).toBe(401);
    const wrong = await fetch(`${demo.url}/login?token=nope&next=https://evil.example/`, {
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    const offsite = await fetch(`${demo.url}/login?token=${client.token}&next=//evil.example/`, {
      redirect: 'manual',
    });
    expect(offsite.headers.get('location')).toBe('/admin/status');
  });

  it('migrated Globex Pay from schema version 1 to 3 at its first load: values, history and status show it', async () => {
    const globex = '/api/commerce/v3/globex_pay/settings';
    const settings = (await client.call('GET', globex)).json as { id: string; value: unknown }[];
    expect(Object.fromEntries(settings.map((setting) => [setting.id, setting.value]))).toEqual({
      title: 'Globex Pay',
      secret_key: '********',
      mode: 'production',
      retries: 5,
    });
    const eu = (await client.call('GET', `${globex}/mode?scope=eu`)).json as { value: unknown };
    expect(eu.value).toBe('sandbox');
    const history = (await client.call('GET', `${globex}/history`)).json as {
      setting_id: string;
      via: string;
    }[];
    expect(
      history
        .filter((entry) => entry.via === 'migration')
        .map((entry) => entry.setting_id)
        .sort(),
    ).toEqual(['api_key', 'mode', 'secret_key']);
    const report = await client.call('GET', '/api/commerce/v3/system_status');
    expect(report.json.commerce_globex_pay).toMatchObject({
      schema_version: { stored: 3, code: 3 },
      secrets_encrypted: true,
    });
    // The rule across settings holds over REST: production mode needs its secret key.
    const refused = await client.call('DELETE', `${globex}/secret_key`);
    expect(refused.status).toBe(400);
    expect(refused.json.code).toBe('rest_setting_rules_failed');
  });

  it('serves a valid OpenAPI document', async () => {
    const document = await (await fetch(`${demo.url}/openapi.json`)).json();
    await expect(SwaggerParser.validate(document as never)).resolves.toBeTruthy();
  });

  it('stops cleanly on SIGTERM (exit code 0), and keeps the settings in the data directory', async () => {
    expect(await demo.stop('SIGTERM')).toBe(0);
    expect(demo.output()).toContain('Stopped.');
    // At rest, the API key is ciphertext.
    const { PGlite } = await import('@electric-sql/pglite');
    const database = new PGlite(dataDir);
    try {
      const { rows } = await database.query<{ value: string }>('SELECT value FROM options WHERE key = $1', [
        'framework_acme_pay_api_key',
      ]);
      expect(rows[0]?.value).toMatch(/^enc:v1:demo:/);
    } finally {
      await database.close();
    }
    const again = await startChild('examples/demo/main.ts', {
      DEMO_DATA_DIR: dataDir,
      DEMO_TOKEN: 'fixed-dev-token-0123456789',
    });
    try {
      expect(again.output()).toContain('Development token (from DEMO_TOKEN): fixed-dev-token-0123456789');
      const restarted = new DemoClient(again.url, 'fixed-dev-token-0123456789');
      expect(await restarted.value('max_retries')).toBe(5);
      expect(await restarted.value('enabled')).toBe(true);
      // The same key (kept beside the data) decrypts the API key stored by the first run.
      const report = await restarted.call('GET', '/api/commerce/v3/system_status');
      expect(report.json.commerce_acme_pay).toMatchObject({
        secrets_encrypted: true,
        unreadable_secrets: [],
        ready: true,
      });
      expect(await again.stop('SIGINT')).toBe(0);
    } finally {
      again.kill();
    }
  });
});
