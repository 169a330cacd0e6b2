/**
 * The runtime self-test: what a plugin does with the runtime-agnostic entries (the root,
 * `/adapter-kit`, `/openapi`, `/admin`, `/hono`), each step one named check. It runs on Node,
 * Bun, Deno and workerd against the built package (test/runtimes/runtimes.test.ts) and never
 * throws: a failing step is a check with `ok: false` and the reason.
 */
import {
  bearerTokenAuth,
  createAesGcmCipher,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  Framework_Plugin_Exception,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
} from 'commerce-plugin-framework';
import {
  compileArgs,
  decodeBase64Url,
  encodeBase64Url,
  FetchExchange,
  writeContextsFollowAwaits,
} from 'commerce-plugin-framework/adapter-kit';
import {
  createCsrfToken,
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { toHonoApp } from 'commerce-plugin-framework/hono';
import { generateOpenApiDocument } from 'commerce-plugin-framework/openapi';
import { Hono } from 'hono';

/** One check of the self-test. */
export interface SelfTestCheck {
  readonly name: string;
  readonly ok: boolean;
  /** Why it failed (or what it measured). */
  readonly detail?: string;
}

/** What the self-test prints (or a worker answers): the runtime, how write contexts work there, every check. */
export interface SelfTestReport {
  readonly runtime: string;
  /** Whether write contexts follow awaits (`AsyncLocalStorage` found) or use the synchronous fallback. */
  readonly asyncWriteContexts: boolean;
  readonly checks: readonly SelfTestCheck[];
}

/** The bearer token of the self-test's manager. */
export const TOKEN = 'runtime-self-test-token-0123456789';
const CSRF_SECRET = 'runtime-self-test-csrf-secret-0123456789';
const ORIGIN = 'http://shop.test';
const SETTINGS = `${ORIGIN}/api/commerce/v3/acme/settings`;
/** A 32-byte AES key, base64. */
const KEY = 'q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA=';

/** Settings of every type, a select, a secret, and an override that awaits before writing (write contexts). */
export class AcmeSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Acme Pay' });
    this.registerSetting('webhook_url', 'url', { name: 'Webhook URL' });
    this.registerSetting('notify_email', 'email', { name: 'Notification email' });
    this.registerSetting('max_retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('fee_percent', 'float', { name: 'Fee (%)' });
    this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
    this.registerSetting('metadata', 'object', { name: 'Metadata' });
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
    this.registerSetting('api_key', 'string', { name: 'API key' });
    this.registerControl('api_key', 'password');
  }

  /** Awaits something of its own first: the write must still land with its caller's actor and scope. */
  override async updateValue(id: string, value: unknown): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, id === 'title' && value === 'first' ? 20 : 1));
    return super.updateValue(id, value);
  }
}

/** The Acme plugin over `settings`. */
export class AcmePlugin extends Framework_Plugin {
  readonly #settings: Framework_Abstract_Settings;
  constructor(settings: Framework_Abstract_Settings) {
    super({ id: 'acme', name: 'Acme Payments', version: '1.0.0', isPaymentGateway: true });
    this.#settings = settings;
  }
  override getSettingsHandler(): Framework_Abstract_Settings {
    return this.#settings;
  }
}

/** A REST server with the Acme plugin over `store`, its admin page, the manager's bearer token. */
export function acmeServer(store: OptionStore, storeTimeoutMs?: number): RestServer {
  const settings = new AcmeSettings('acme', store, {
    secrets: createAesGcmCipher([{ id: 'k1', key: KEY }]),
    ...(storeTimeoutMs === undefined ? {} : { storeTimeoutMs }),
  });
  const plugin = new AcmePlugin(settings);
  const page = new Framework_Register_Settings(plugin, {
    fields: new Framework_Register_Settings_Fields(settings),
  });
  return createRestServer({
    plugins: [plugin],
    authenticate: bearerTokenAuth({ [TOKEN]: { id: 1, capabilities: ['manage_commerce'] } }),
    admin: { pages: [page], csrfSecret: CSRF_SECRET },
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };

function json(method: string, url: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(url, {
    method,
    headers: { ...auth, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function same(actual: unknown, expected: unknown, what: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  assert(a === e, `${what}: expected ${e}, got ${a}`);
}

/** The checks, in order. Each may throw; {@link runSelfTest} turns that into a failed check. */
const CHECKS: readonly (readonly [string, () => Promise<string | undefined> | Promise<void>])[] = [
  [
    'settings: values of every type round-trip through a MemoryOptionStore',
    async () => {
      const store = new MemoryOptionStore();
      const settings = new AcmeSettings('acme', store);
      const values: Record<string, unknown> = {
        title: 'Acme Pay ✓',
        webhook_url: 'https://shop.test/hook',
        notify_email: 'ops@shop.test',
        max_retries: 7,
        fee_percent: 1.25,
        enabled: true,
        metadata: { limits: [1, 2], tier: 'gold' },
        mode: 'live',
      };
      for (const [id, value] of Object.entries(values)) await settings.updateValue(id, value);
      const fresh = new AcmeSettings('acme', store);
      for (const [id, value] of Object.entries(values)) same(await fresh.getValue(id), value, id);
      same(await fresh.getValue('api_key'), null, 'api_key unset');
    },
  ],
  [
    'settings: an invalid value is refused with code 400 and nothing is stored',
    async () => {
      const store = new MemoryOptionStore();
      const settings = new AcmeSettings('acme', store);
      for (const [id, value] of [
        ['max_retries', 'many'],
        ['mode', 'demo'],
        ['notify_email', 'nobody'],
      ] as const) {
        const error = await settings.updateValue(id, value).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        assert(error instanceof Framework_Plugin_Exception && error.code === 400, `${id}: ${String(error)}`);
      }
      same(await store.getMany(['framework_acme_max_retries']), new Map(), 'store');
    },
  ],
  [
    'secrets: createAesGcmCipher stores enc:v1 text, reads the plain value back, REST masks it',
    async () => {
      const store = new MemoryOptionStore();
      const server = acmeServer(store);
      const put = await server.fetch(json('PUT', `${SETTINGS}/api_key`, { value: 'sk_live_secret_1234' }));
      same(put.status, 200, 'PUT status');
      same(((await put.json()) as { value: unknown }).value, '********', 'PUT answer');
      const stored = (await store.get('framework_acme_api_key')) ?? '';
      assert(stored.startsWith('enc:v1:k1:'), `stored text ${stored.slice(0, 12)}…`);
      assert(!stored.includes('sk_live'), 'plain text in the store');
      const settings = new AcmeSettings('acme', store, {
        secrets: createAesGcmCipher([{ id: 'k1', key: KEY }]),
      });
      same(await settings.getValue('api_key'), 'sk_live_secret_1234', 'decrypted');
    },
  ],
  [
    'rest: createRestServer answers GET and PUT through server.fetch (200, ETag, 400, 401, 404)',
    async () => {
      const server = acmeServer(new MemoryOptionStore());
      const list = await server.fetch(new Request(SETTINGS, { headers: auth }));
      same(list.status, 200, 'GET list');
      const ids = ((await list.json()) as { id: string }[]).map((setting) => setting.id);
      same(ids.length, 9, `ids ${ids.join(',')}`);
      const put = await server.fetch(json('PUT', `${SETTINGS}/max_retries`, { value: 5 }));
      same(put.status, 200, 'PUT');
      const etag = put.headers.get('etag');
      assert(etag?.startsWith('"'), `ETag ${etag}`);
      const one = await server.fetch(new Request(`${SETTINGS}/max_retries`, { headers: auth }));
      same([one.status, ((await one.json()) as { value: unknown }).value], [200, 5], 'GET one');
      const stale = await server.fetch(
        json('PUT', `${SETTINGS}/max_retries`, { value: 6 }, { 'if-match': '"x"' }),
      );
      same(stale.status, 412, 'If-Match');
      const invalid = await server.fetch(json('PUT', `${SETTINGS}/max_retries`, { value: 'x' }));
      same(invalid.status, 400, 'invalid');
      same((await server.fetch(new Request(SETTINGS))).status, 401, 'no token');
      same((await server.fetch(new Request(`${SETTINGS}/nope`, { headers: auth }))).status, 404, 'unknown');
    },
  ],
  [
    'write contexts: concurrent writes through an awaiting override keep their own scope and actor',
    async () => {
      const store = new MemoryOptionStore();
      const settings = new AcmeSettings('acme', store);
      // The first write's override waits longest, so the two interleave.
      await Promise.all([
        settings.scope('eu').updateValue('title', 'first', { actor: { id: 'a' }, via: 'api' }),
        settings.scope('us').updateValue('max_retries', 8, { actor: { id: 'b' }, via: 'api' }),
      ]);
      same(await settings.scope('eu').getOwnValue('title'), 'first', 'eu title');
      same(await settings.scope('us').getOwnValue('max_retries'), 8, 'us max_retries');
      same(
        [await settings.getValue('title'), await settings.getValue('max_retries')],
        ['Acme Pay', 3],
        'global',
      );
      const [eu] = await settings.getHistory({ scope: 'eu' });
      const [us] = await settings.getHistory({ scope: 'us' });
      same([eu?.actor, us?.actor], [{ id: 'a' }, { id: 'b' }], 'actors');
      // The same setting at two scopes, the first call's override resuming last.
      await Promise.all([
        settings.scope('de').updateValue('title', 'first', { actor: { id: 'c' }, via: 'api' }),
        settings.scope('fr').updateValue('title', 'second', { actor: { id: 'd' }, via: 'api' }),
      ]);
      same(
        [await settings.scope('de').getOwnValue('title'), await settings.scope('fr').getOwnValue('title')],
        ['first', 'second'],
        'same setting, two scopes',
      );
      const [de] = await settings.getHistory({ scope: 'de' });
      const [fr] = await settings.getHistory({ scope: 'fr' });
      same([de?.actor, fr?.actor], [{ id: 'c' }, { id: 'd' }], 'same setting, actors');
    },
  ],
  [
    'openapi: generateOpenApiDocument gives OpenAPI 3.1 with a path per setting',
    async () => {
      const document = generateOpenApiDocument(acmeServer(new MemoryOptionStore()), {
        title: 'Shop',
        version: '1.0.0',
      });
      assert(document.openapi.startsWith('3.1'), `openapi ${document.openapi}`);
      const path = Object.keys(document.paths).find((key) => key.endsWith('/acme/settings/max_retries'));
      assert(path !== undefined, 'no path for max_retries');
      JSON.stringify(document);
    },
  ],
  [
    'admin: the settings page renders and a post with a CSRF token saves (303)',
    async () => {
      const server = acmeServer(new MemoryOptionStore());
      const page = await server.fetch(new Request(`${ORIGIN}/admin/settings/acme`, { headers: auth }));
      same([page.status, page.headers.get('content-type')], [200, 'text/html; charset=utf-8'], 'GET page');
      const html = await page.text();
      assert(html.includes('Acme Payments') && html.includes('framework_acme_max_retries'), 'page content');
      const form = new URLSearchParams({
        _csrf: await createCsrfToken(CSRF_SECRET, 1),
        framework_acme_max_retries: '9',
        framework_acme_mode: 'live',
        framework_acme_title: 'Saved',
      });
      const post = await server.fetch(
        new Request(`${ORIGIN}/admin/settings/acme`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
          body: form.toString(),
        }),
      );
      same(post.status, 303, `POST ${post.status === 303 ? '' : (await post.text()).slice(0, 200)}`);
      const read = await server.fetch(new Request(`${SETTINGS}/max_retries`, { headers: auth }));
      same(((await read.json()) as { value: unknown }).value, 9, 'saved value');
    },
  ],
  [
    'hono: toHonoApp in a Hono app answers as server.fetch does',
    async () => {
      const server = acmeServer(new MemoryOptionStore());
      const app = new Hono();
      app.get('/hello', (context) => context.json({ hello: 'world' }));
      app.route('/', toHonoApp(server));
      const put = await app.fetch(json('PUT', `${SETTINGS}/enabled`, { value: true }));
      same(put.status, 200, 'PUT via Hono');
      const direct = await server.fetch(new Request(`${SETTINGS}/enabled`, { headers: auth }));
      const viaHono = await app.fetch(new Request(`${SETTINGS}/enabled`, { headers: auth }));
      same(await viaHono.json(), await direct.json(), 'same answer');
      same(await (await app.fetch(new Request(`${ORIGIN}/hello`))).json(), { hello: 'world' }, 'host route');
    },
  ],
  [
    'adapter-kit: compileArgs, base64url and FetchExchange',
    async () => {
      const validator = compileArgs({ id: { type: 'integer', required: true, minimum: 1 } }, 'GET /x');
      same(validator.run(null, undefined, 'id=7', null), { id: 7 }, 'coerced args');
      const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
      same([...(decodeBase64Url(encodeBase64Url(bytes)) ?? [])], [...bytes], 'base64url');
      const exchange = new FetchExchange(new Request(`${ORIGIN}/api/x?y=1`, { method: 'POST' }));
      same([exchange.method, exchange.header('host')], ['POST', null], 'exchange');
    },
  ],
];

/** Runs every check; never throws. */
export async function runSelfTest(runtime: string): Promise<SelfTestReport> {
  const checks: SelfTestCheck[] = [];
  for (const [name, check] of CHECKS) {
    try {
      const detail = await check();
      checks.push(detail === undefined ? { name, ok: true } : { name, ok: true, detail });
    } catch (error) {
      checks.push({ name, ok: false, detail: error instanceof Error ? error.message : String(error) });
    }
  }
  return { runtime, asyncWriteContexts: writeContextsFollowAwaits(), checks };
}
