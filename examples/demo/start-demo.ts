import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { constantTimeEqual, type RestServer } from 'commerce-plugin-framework';
import {
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';
import { toNodeHandler } from 'commerce-plugin-framework/node';
import { demoAuthenticate, generateToken, readCookie, SESSION_COOKIE } from './demo-auth';
import { demoPages } from './demo-pages';
import { createDemoServer, demoOpenApiDocument } from './demo-server';
import { type DemoStoreKind, type DemoStoreOptions, openDemoStore, settingsKeyFile } from './demo-store';
import { AcmePayGateway, GATEWAY_ID } from './gateway-plugin';
import { GlobexPayGateway, seedGlobexVersion1 } from './globex-pay';
import { seedChannels } from './seed';
import { demoSettingsKey } from './settings-key';

/** Options of {@link startDemo}; every one has a default. */
export interface DemoOptions extends DemoStoreOptions {
  /** The port; 0 picks a free one. Default 3000. */
  port?: number;
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /** The development bearer token (token68 characters). Default: a new random one. */
  token?: string;
  /** The admin forms' CSRF secret. Default: a new random one (open forms break on restart). */
  csrfSecret?: string;
  /** The base64 key (32 bytes) that encrypts secrets at rest; default: generated once, kept beside the PGlite data. */
  settingsKey?: string;
  /** Receives errors answered as 500/503 (the client sees no details). Default: `console.error`. */
  onError?(error: unknown): void;
}

/** A running demo. */
export interface RunningDemo {
  /** Where it listens, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /** The development bearer token (manager and order-clerk capabilities). */
  readonly token: string;
  /** Which store it runs on, and a line describing it. */
  readonly store: { readonly kind: DemoStoreKind; readonly description: string };
  /** Where the key encrypting the secrets comes from, and a warning when it was generated. */
  readonly settingsKey: { readonly source: string; readonly warning?: string };
  /** The REST server, e.g. to call `server.fetch` directly. */
  readonly server: RestServer;
  /** Stops listening, ends open connections, closes the store. Safe to call twice. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the demo: the Acme Pay gateway (settings of every type and control), the item and
 * order reference routes, the status report, the admin pages and the OpenAPI document, served
 * over `node:http` with `toNodeHandler`, on the store the options choose.
 */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const token = options.token ?? generateToken();
  const authenticate = demoAuthenticate(token); // checks the token's syntax first
  const opened = await openDemoStore(options);
  try {
    const key = await demoSettingsKey(options.settingsKey, settingsKeyFile(options));
    const gateway = new AcmePayGateway(opened.store, key.cipher);
    // Reads every setting once: a store that cannot be reached fails here, not on the first request.
    await gateway.getSettingsHandler().load();
    await seedChannels(gateway.getSettingsHandler());
    // Globex Pay's settings went through two schema changes: a store its first release left
    // behind is migrated by this first load (docs/migrations.md).
    await seedGlobexVersion1(opened.store, key.cipher);
    const globex = new GlobexPayGateway(opened.store, key.cipher);
    await globex.getSettingsHandler().load();
    const settingsPage = new Framework_Register_Settings(gateway, {
      fields: new Framework_Register_Settings_Fields(gateway.getSettingsHandler()),
    });
    const globexPage = new Framework_Register_Settings(globex, {
      fields: new Framework_Register_Settings_Fields(globex.getSettingsHandler()),
    });
    const onError = options.onError ?? ((error: unknown) => console.error('[demo]', error));
    const server = createDemoServer(
      gateway,
      {
        authenticate,
        admin: {
          pages: [settingsPage, globexPage],
          csrfSecret: options.csrfSecret ?? randomBytes(32).toString('base64url'),
          // The forms' CSRF tokens are valid in the session that showed them only.
          sessionId: (request) => readCookie(request.headers.get('cookie'), SESSION_COOKIE),
        },
        onError: (error) => onError(error),
      },
      [globex],
    );
    const openApi = demoOpenApiDocument(server);
    const pages = demoPages({
      isToken: (candidate) => constantTimeEqual(candidate, token),
      openApiJson: JSON.stringify(openApi),
      gatewayId: GATEWAY_ID,
    });
    const rest = toNodeHandler(server);
    const http = createServer((req, res) => {
      if (!pages(req, res)) rest(req, res);
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(options.port ?? 3000, host, () => {
        http.off('error', reject);
        resolve();
      });
    });
    const { port } = http.address() as AddressInfo;

    let closing: Promise<void> | null = null;
    return {
      url: `http://${urlHost(host)}:${port}`,
      token,
      store: { kind: opened.kind, description: opened.description },
      settingsKey: { source: key.source, ...(key.warning === undefined ? {} : { warning: key.warning }) },
      server,
      close() {
        closing ??= (async () => {
          const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
          http.closeAllConnections();
          await stopped;
          await opened.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await opened.close().catch(() => {});
    throw error;
  }
}
