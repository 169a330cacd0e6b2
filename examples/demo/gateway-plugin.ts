import {
  Framework_Plugin,
  Framework_REST_API,
  type OptionStore,
  type SecretCipher,
} from 'commerce-plugin-framework';
import { GatewaySettings, type GatewaySettingsHandler } from './gateway-settings';

/** The gateway's plugin id: the `{pluginId}` of its settings routes and admin page. */
export const GATEWAY_ID = 'acme_pay';

/** The gateway's REST API: the settings routes, plus its own lines in the status report. */
export class GatewayRestApi extends Framework_REST_API {
  override async getSystemStatusData(): Promise<Record<string, unknown>> {
    const settings = (this.getPlugin() as AcmePayGateway).getSettingsHandler();
    const [enabled, apiKey, mode] = await Promise.all([
      settings.getValue('enabled'),
      settings.getValue('api_key'),
      settings.getValue('mode'),
    ]);
    return { ready: enabled && apiKey !== null && apiKey !== '', live: mode === 'live' };
  }
}

/**
 * The Acme Pay payment gateway: a plugin with settings of every type and control, served at
 * `/api/commerce/v3/acme_pay/settings`, with an admin page at `/admin/settings/acme_pay` and a
 * block in the status report (the API key masked).
 */
export class AcmePayGateway extends Framework_Plugin {
  readonly #settings: GatewaySettingsHandler;

  /**
   * @param store - where the settings live
   * @param secrets - encrypts the API key at rest (without it, it is stored in plain text, still masked everywhere)
   */
  constructor(store: OptionStore, secrets?: SecretCipher) {
    super({ id: GATEWAY_ID, name: 'Acme Pay', version: '1.0.0', isPaymentGateway: true });
    this.#settings = new GatewaySettings(GATEWAY_ID, store, secrets === undefined ? {} : { secrets });
  }

  override getSettingsHandler(): GatewaySettingsHandler {
    return this.#settings;
  }

  protected override initRestApiHandler(): void {
    this.restApiHandler = new GatewayRestApi(this);
  }
}
