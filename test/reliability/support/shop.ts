/**
 * The plugin, server and client helpers the reliability tests share: a shop plugin with a
 * setting of every type (and a password), written only against the public API, served by
 * `createRestServer` over a {@link FaultInjectingStore}, and called through `server.fetch`
 * with raw bytes when a test needs them.
 */
import {
  bearerTokenAuth,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type OptionStore,
  type RestServer,
  type RestServerOptions,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import { beforeEach, expect } from 'vitest';
import { FaultInjectingStore } from '../../support/fault-injecting-store';
import { type Answer, readAnswer } from '../../support/read-answer';

export type { Answer } from '../../support/read-answer';

/** A manager: may read and write settings. */
export const ADMIN_TOKEN = 'rel-admin-7f3a9c2e41b8d6055e1f';
/** A user without the management capability. */
export const VIEWER_TOKEN = 'rel-viewer-0b6d2f8a93c1e7445a2d';

/** The static-token `authenticate` of the test servers. */
export const authenticate = bearerTokenAuth({
  [ADMIN_TOKEN]: { id: 1, capabilities: ['manage_commerce'] },
  [VIEWER_TOKEN]: { id: 2, capabilities: ['read'] },
});

/** The plugin id, also the `{pluginId}` of the settings routes. */
export const PLUGIN_ID = 'shop';
/** The settings collection route. */
export const SETTINGS_PATH = `/api/commerce/v3/${PLUGIN_ID}/settings`;

/** One setting of every type, a multi setting, an options setting and a password. */
export class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { name: 'Title', default: 'Card' });
    this.registerSetting('webhook', 'url', { name: 'Webhook' });
    this.registerSetting('contact', 'email', { name: 'Contact' });
    this.registerSetting('retries', 'integer', { name: 'Retries', default: 3 });
    this.registerSetting('fee', 'float', { name: 'Fee', default: 0.5 });
    this.registerSetting('enabled', 'boolean', { name: 'Enabled', default: false });
    this.registerSetting('meta', 'object', { name: 'Meta' });
    this.registerSetting('tags', 'string', { name: 'Tags', is_multi: true });
    this.registerSetting('mode', 'string', { name: 'Mode', options: ['live', 'test'], default: 'test' });
    this.registerSetting('api_key', 'string', { name: 'API key' });
    this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
    this.registerControl('api_key', 'password');
  }
}

/** The ids of {@link ShopSettings}, in registration order. */
export const SETTING_IDS = [
  'title',
  'webhook',
  'contact',
  'retries',
  'fee',
  'enabled',
  'meta',
  'tags',
  'mode',
  'api_key',
] as const;

/** The shop plugin (a payment gateway) with its settings. */
export class ShopPlugin extends Framework_Plugin {
  readonly settings: ShopSettings;
  constructor(store: OptionStore, settingsOptions?: SettingsOptions) {
    super({ id: PLUGIN_ID, name: 'Shop Payments', version: '1.0.0', isPaymentGateway: true });
    this.settings = new ShopSettings(PLUGIN_ID, store, settingsOptions);
  }
  override getSettingsHandler(): ShopSettings {
    return this.settings;
  }
}

/** A server over a fault-injecting memory store, and what a test needs to inspect it. */
export interface ShopServer {
  readonly server: RestServer;
  readonly plugin: ShopPlugin;
  /** The store the settings use (faults off unless a test sets a schedule). */
  readonly store: FaultInjectingStore;
  /** The data underneath (a memory store with a value for every setting, unless one was given). */
  readonly data: OptionStore;
  /** Errors passed to `onError`. */
  readonly reported: unknown[];
}

/** Storage keys a hostile request might aim at besides the registered ones. */
const SUSPICIOUS_KEYS = ['__proto__', 'constructor', 'prototype', '..', '../retries', 'title/..', ''];

/** The initial data of a shop server's memory store. */
function initialData(): MemoryOptionStore {
  return new MemoryOptionStore({
    // The entity tags' salt, as the first tagged answer of a fresh store would create it.
    'framework_shop:tag-salt': 'reliability',
    framework_shop_title: 'Original title',
    framework_shop_webhook: 'https://example.com/hook',
    framework_shop_contact: 'ops@example.com',
    framework_shop_retries: '5',
    framework_shop_fee: '1.25',
    framework_shop_enabled: 'yes',
    framework_shop_meta: '{"a":1}',
    framework_shop_tags: '["x","y"]',
    framework_shop_mode: 'live',
    framework_shop_api_key: 'sk_live_ORIGINAL',
  });
}

/**
 * A shop server over `store` (default: a memory store with a value for every setting, so that
 * "unchanged" means something), wrapped in a fault-injecting store.
 */
export function shopServer(
  options: Partial<RestServerOptions> & { settings?: SettingsOptions; store?: OptionStore } = {},
): ShopServer {
  const { settings: settingsOptions, store: given, ...serverOptions } = options;
  const data = given ?? initialData();
  const store = new FaultInjectingStore(data);
  const plugin = new ShopPlugin(store, settingsOptions);
  const reported: unknown[] = [];
  const server = createRestServer({
    plugins: [plugin],
    authenticate,
    onError: (error) => {
      reported.push(error);
    },
    ...serverOptions,
  });
  return { server, plugin, store, data, reported };
}

/** Every key a test compares before and after a hostile request. */
export function watchedKeys(): string[] {
  return [
    ...SETTING_IDS.map((id) => `framework_${PLUGIN_ID}_${id}`),
    ...SUSPICIOUS_KEYS.map((id) => `framework_${PLUGIN_ID}_${id}`),
    ...SUSPICIOUS_KEYS,
  ];
}

/** The stored text of every watched key, sorted, to compare before and after. */
export async function snapshotStore(store: OptionStore): Promise<Array<[string, string]>> {
  return [...(await store.getMany(watchedKeys()))].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The shop server of the running test, in a file that makes a fresh one for every test. */
export interface FreshShop extends ShopServer {
  /** Asserts that the test wrote nothing: no set or delete reached the store, and its data is what it was before the test. */
  readonly expectStoreUnchanged: () => Promise<void>;
}

/**
 * Makes a fresh {@link shopServer} before each test of the calling file (call it at the top
 * level) and snapshots its data; the answer always reads the running test's server.
 */
export function freshShopForEachTest(): FreshShop {
  let current: ShopServer | undefined;
  let before: Array<[string, string]> = [];
  beforeEach(async () => {
    current = shopServer();
    before = await snapshotStore(current.data);
  });
  const now = (): ShopServer => {
    if (!current) throw new Error('freshShopForEachTest: read outside a test');
    return current;
  };
  return {
    get server() {
      return now().server;
    },
    get plugin() {
      return now().plugin;
    },
    get store() {
      return now().store;
    },
    get data() {
      return now().data;
    },
    get reported() {
      return now().reported;
    },
    expectStoreUnchanged: async () => {
      const shop = now();
      expect(shop.store.count('set') + shop.store.count('delete')).toBe(0);
      expect(await snapshotStore(shop.data)).toEqual(before);
    },
  };
}

/** A request as a client sends it. */
export interface SendOptions {
  readonly token?: string;
  /** A JSON value (sent with `Content-Type: application/json`). */
  readonly json?: unknown;
  /** Raw body: text, bytes or a stream. */
  readonly body?: BodyInit;
  readonly headers?: Record<string, string>;
}

/** Sends one request through `server.fetch` (`path` may carry a query string). */
export async function send(
  server: RestServer,
  method: string,
  path: string,
  options: SendOptions = {},
): Promise<Answer> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set('authorization', `Bearer ${options.token}`);
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (body !== undefined) init.body = body;
  if (body instanceof ReadableStream) init.duplex = 'half';
  return readAnswer(await server.fetch(new Request(`http://localhost${path}`, init)));
}

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(text));
}

/** Bytes from a list of numbers and text pieces (text as UTF-8). */
export function bytes(...parts: ReadonlyArray<string | readonly number[]>): Uint8Array<ArrayBuffer> {
  const chunks = parts.map((part) => (typeof part === 'string' ? utf8(part) : Uint8Array.from(part)));
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Asserts a REST error answer: status, code, the `{code, message, data: {status}}` shape, JSON. */
export function expectRestError(answer: Answer, status: number, code: string): void {
  expect({ status: answer.status, code: (answer.json as { code?: unknown } | undefined)?.code }).toEqual({
    status,
    code,
  });
  expect(answer.json).toMatchObject({ code, message: expect.any(String), data: { status } });
  expect((answer.json as { message: string }).message.length).toBeGreaterThan(0);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
}

const STANDARD_OBJECT_PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
const STANDARD_ARRAY_PROTOTYPE_KEYS = Object.getOwnPropertyNames(Array.prototype).sort();

/** Asserts that no prototype was polluted: no new members on `Object.prototype` or `Array.prototype`. */
export function expectNoPollution(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(STANDARD_OBJECT_PROTOTYPE_KEYS);
  expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(STANDARD_ARRAY_PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}
