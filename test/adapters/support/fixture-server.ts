/**
 * The server every adapter test serves: a payment gateway with settings of several types and a
 * password control, the reference item routes on a fixed clock, the admin pages, a 1 KiB body
 * limit. Written only against the public API.
 */
import {
  type AdminPage,
  bearerTokenAuth,
  createRestServer,
  defineSettings,
  Framework_Plugin,
  MemoryOptionStore,
  type RestServer,
  type RestUser,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { InMemoryItemRepository, itemsPlugin } from '../../../examples/items-plugin/index';

export const ADMIN_TOKEN = 'adapter-admin-token-0123';
export const CLERK_TOKEN = 'adapter-clerk-token-4567';
export const SESSION = 'adapter-session-89ab';
export const CSRF_SECRET = 'adapter-csrf-secret-0123456789';
export const MAX_BODY_BYTES = 1024;
export const ADMIN_USER: RestUser = { id: 1, capabilities: ['manage_commerce'] };

const ShopSettings = defineSettings({
  enabled: { type: 'boolean', name: 'Enabled', default: false },
  retries: { type: 'integer', name: 'Retries', default: 3 },
  fee: { type: 'float', name: 'Fee', default: 0.5 },
  title: { type: 'string', name: 'Title', default: 'Card' },
  mode: {
    type: 'string',
    name: 'Mode',
    options: ['live', 'test'],
    default: 'test',
    control: { type: 'select', options: { live: 'Live', test: 'Test' } },
  },
  api_key: { type: 'string', name: 'API key', control: { type: 'password' } },
  meta: { type: 'object', name: 'Meta' },
});

class ShopGateway extends Framework_Plugin {
  // A fixed entity-tag salt, so that two fixture servers give the same tags for the same state.
  readonly #settings = new ShopSettings(
    'shop',
    new MemoryOptionStore({ 'framework_shop:tag-salt': 'parity' }),
  );
  constructor() {
    super({ id: 'shop', name: 'Shop Gateway', version: '1.0.0', isPaymentGateway: true });
  }
  override getSettingsHandler() {
    return this.#settings;
  }
}

const fromBearer = bearerTokenAuth({
  [ADMIN_TOKEN]: ADMIN_USER,
  [CLERK_TOKEN]: { id: 2, capabilities: ['edit_shop_orders'] },
});

/** Bearer tokens for REST clients, the `session` cookie for the admin pages. */
function authenticate(request: Request): RestUser | null {
  const user = fromBearer(request);
  if (user !== null) return user;
  return (request.headers.get('cookie') ?? '').includes(`session=${SESSION}`) ? ADMIN_USER : null;
}

/** A fresh server (its own stores and items): build one per side of a parity comparison. */
export function fixtureServer(extraAdminPages: readonly AdminPage[] = []): RestServer {
  const gateway = new ShopGateway();
  const page = new Framework_Register_Settings(gateway, {
    fields: new Framework_Register_Settings_Fields(gateway.getSettingsHandler()),
  });
  const items = new InMemoryItemRepository(() => new Date('2026-01-02T03:04:05.000Z'));
  return createRestServer({
    plugins: [gateway, itemsPlugin({ items })],
    authenticate,
    maxBodyBytes: MAX_BODY_BYTES,
    admin: { pages: [page, ...extraAdminPages], csrfSecret: CSRF_SECRET },
  });
}
