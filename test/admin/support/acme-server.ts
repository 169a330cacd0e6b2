import {
  createRestServer,
  Framework_Plugin,
  type OptionStore,
  type RestServerOptions,
  type RestUser,
} from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { AcmeSettings, CSRF_SECRET } from './acme-settings';

/** The Acme payment gateway, with the settings of every control. */
export class AcmeGateway extends Framework_Plugin {
  readonly #settings: AcmeSettings;
  constructor(store: OptionStore) {
    super({ id: 'acme', name: 'Acme Payments', version: '1.0.0', isPaymentGateway: true });
    this.#settings = new AcmeSettings('acme', store);
  }
  override getSettingsHandler(): AcmeSettings {
    return this.#settings;
  }
}

/** A plugin without settings. */
export class BarePlugin extends Framework_Plugin {
  constructor() {
    super({ id: 'bare', name: 'Bare Plugin', version: '0.1.0' });
  }
}

export const SESSION_COOKIE = 'shop_session';
export const ADMIN_SESSION = 'admin-session-0123';
/** The same admin, signed in a second time (another browser). */
export const SECOND_ADMIN_SESSION = 'admin-session-89ab';
export const CUSTOMER_SESSION = 'customer-session-4567';
export const ADMIN_BEARER = 'admin-rest-token';

const USERS: Record<string, RestUser> = {
  [ADMIN_SESSION]: { id: 1, capabilities: ['manage_commerce'] },
  [SECOND_ADMIN_SESSION]: { id: 1, capabilities: ['manage_commerce'] },
  [CUSTOMER_SESSION]: { id: 2, capabilities: ['read'] },
};

/** The session id in the request's cookie, if any. */
export function readSessionId(request: Request): string | null {
  const cookies = request.headers.get('cookie') ?? '';
  const session = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([^;]+)`).exec(cookies)?.[1];
  return session === undefined ? null : decodeURIComponent(session);
}

/** The host's `authenticate`: a session cookie (browsers) or a bearer token (REST clients). */
export function authenticate(request: Request): RestUser | null {
  if (request.headers.get('authorization') === `Bearer ${ADMIN_BEARER}`) return USERS[ADMIN_SESSION]!;
  const session = readSessionId(request);
  return session === null ? null : (USERS[session] ?? null);
}

/** A REST server with the Acme settings page over `store`, and a plugin without settings. */
export function acmeServer(store: OptionStore, admin: Partial<NonNullable<RestServerOptions['admin']>> = {}) {
  const acme = new AcmeGateway(store);
  const page = new Framework_Register_Settings(acme, {
    fields: new Framework_Register_Settings_Fields(acme.getSettingsHandler()),
  });
  return createRestServer({
    plugins: [acme, new BarePlugin()],
    authenticate,
    admin: { pages: [page], csrfSecret: CSRF_SECRET, ...admin },
  });
}
