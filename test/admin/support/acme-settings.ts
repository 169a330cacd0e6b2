import { Framework_Abstract_Settings, type OptionStore } from 'commerce-plugin-framework';
import type { AdminRequestContext, AdminSettingsPlugin } from 'commerce-plugin-framework/admin';
import {
  DEFAULT_CSRF_MAX_AGE_MS,
  Framework_Register_Settings,
  Framework_Register_Settings_Fields,
} from 'commerce-plugin-framework/admin';

/** A settings handler with one setting for every control and every default control. */
export class AcmeSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('enabled', 'boolean', {
      name: 'Enable Acme Pay',
      description: 'Offer Acme Pay at checkout.',
      default: false,
    });
    this.registerSetting('title', 'string', {
      name: 'Title',
      description: 'What shoppers see at checkout.',
      default: 'Acme Pay',
    });
    this.registerSetting('api_key', 'string', { name: 'API key', description: 'From your Acme dashboard.' });
    this.registerControl('api_key', 'password');
    this.registerSetting('notify_email', 'email', {
      name: 'Notification email',
      description: 'Where payment alerts are sent.',
    });
    this.registerSetting('webhook_url', 'url', {
      name: 'Webhook URL',
      description: 'Must start with https://.',
    });
    this.registerSetting('max_retries', 'integer', {
      name: 'Retries',
      description: 'How often a failed capture is tried again.',
      default: 3,
    });
    this.registerSetting('fee_percent', 'float', { name: 'Fee (%)', description: 'Added to every order.' });
    this.registerSetting('priority', 'integer', {
      name: 'Priority',
      description: 'Position among gateways.',
    });
    this.registerControl('priority', 'range');
    this.registerSetting('mode', 'string', {
      name: 'Mode',
      description: 'Test mode takes no real money.',
      options: ['live', 'test'],
      default: 'test',
    });
    this.registerControl('mode', 'select', { options: { live: 'Live', test: 'Test' } });
    this.registerSetting('capture', 'string', {
      name: 'Capture',
      options: ['auto', 'manual'],
      default: 'auto',
    });
    this.registerControl('capture', 'radio', {
      description: 'When the payment is taken.',
      options: { auto: 'Automatically', manual: 'Manually, when the order ships' },
    });
    this.registerSetting('log_level', 'integer', { name: 'Logging', options: [0, 1, 2], default: 0 });
    this.registerControl('log_level', 'radio', { options: { 0: 'Off', 1: 'Errors', 2: 'Everything' } });
    this.registerSetting('launch_date', 'string', { name: 'Launch date' });
    this.registerControl('launch_date', 'date');
    this.registerSetting('brand_color', 'string', { name: 'Button colour', default: '#2271b1' });
    this.registerControl('brand_color', 'color');
    this.registerSetting('logo', 'string', { name: 'Logo', description: 'Shown next to the title.' });
    this.registerControl('logo', 'file');
    this.registerSetting('instructions', 'string', {
      name: 'Instructions',
      description: 'Printed on the thank-you page.',
    });
    this.registerControl('instructions', 'textarea');
    this.registerSetting('countries', 'string', {
      name: 'Countries',
      description: 'Where Acme Pay is offered.',
      options: ['DE', 'FR', 'US'],
      is_multi: true,
    });
    this.registerControl('countries', 'select', {
      options: { DE: 'Germany', FR: 'France', US: 'United States' },
    });
    this.registerSetting('card_types', 'string', {
      name: 'Card types',
      options: ['visa', 'mastercard', 'amex'],
      is_multi: true,
      default: ['visa'],
    });
    this.registerSetting('allowed_ips', 'string', {
      name: 'Allowed IPs',
      description: 'One address per line.',
      is_multi: true,
    });
    this.registerSetting('retry_delays', 'integer', {
      name: 'Retry delays',
      description: 'Seconds, one per line.',
      is_multi: true,
    });
    this.registerSetting('metadata', 'object', {
      name: 'Metadata',
      description: 'Sent with every payment, as JSON.',
    });
  }
}

/** A minimal plugin for the admin pages: id and name. */
export class AcmePlugin implements AdminSettingsPlugin {
  readonly #settings: AcmeSettings;
  constructor(store: OptionStore) {
    this.#settings = new AcmeSettings('acme', store);
  }
  getId(): string {
    return 'acme';
  }
  getName(): string {
    return 'Acme Payments';
  }
  getSettingsHandler(): AcmeSettings {
    return this.#settings;
  }
}

export const CSRF_SECRET = 'test-csrf-secret-0123456789';
export const ADMIN = { id: 7, capabilities: ['manage_commerce'] };

/** A settings page for the Acme settings over `store`. */
export function acmePage(store: OptionStore): { page: Framework_Register_Settings; settings: AcmeSettings } {
  const plugin = new AcmePlugin(store);
  const settings = plugin.getSettingsHandler();
  const page = new Framework_Register_Settings(plugin, {
    fields: new Framework_Register_Settings_Fields(settings),
  });
  return { page, settings };
}

/** An admin request context as the REST server builds it. */
export function adminContext(overrides: Partial<AdminRequestContext> = {}): AdminRequestContext {
  return {
    user: ADMIN,
    csrfSecret: CSRF_SECRET,
    csrfMaxAgeMs: DEFAULT_CSRF_MAX_AGE_MS,
    sessionId: null,
    managementCapability: 'manage_commerce',
    plugins: [
      { id: 'acme', name: 'Acme Payments' },
      { id: 'bare', name: 'Bare Plugin' },
    ],
    commercePrefix: 'commerce',
    getSystemStatus: async () => ({
      commerce_acme: { is_payment_gateway: true, settings: { enabled: true, api_key: '********' } },
      commerce_bare: { is_payment_gateway: false, settings: {} },
    }),
    ...overrides,
  };
}
