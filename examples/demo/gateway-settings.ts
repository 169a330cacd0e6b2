import { defineSettings } from 'commerce-plugin-framework';

/**
 * The Acme Pay gateway's settings, declared once with `defineSettings` so TypeScript knows
 * every value's type (`getValue('max_retries')` is `Promise<number>`). Between them they use
 * every setting type (string, url, email, integer, float, boolean, object) and every control
 * (text, textarea, number, email, password, date, checkbox, radio, select, file, color, range).
 */
export const GatewaySettings = defineSettings({
  enabled: {
    type: 'boolean',
    name: 'Enable Acme Pay',
    description: 'Offer Acme Pay at checkout.',
    default: false,
    control: { type: 'checkbox' },
  },
  title: {
    type: 'string',
    name: 'Title',
    description: 'What shoppers see at checkout.',
    default: 'Acme Pay',
    control: { type: 'text' },
  },
  instructions: {
    type: 'string',
    name: 'Instructions',
    description: 'Printed on the thank-you page.',
    default: 'Thank you for paying with Acme Pay.',
    control: { type: 'textarea' },
  },
  api_key: {
    type: 'string',
    name: 'API key',
    description: 'From your Acme dashboard. Never shown again once saved.',
    control: { type: 'password' },
  },
  webhook_url: {
    type: 'url',
    name: 'Webhook URL',
    description: 'Where Acme sends payment events.',
    control: { type: 'text' },
  },
  notify_email: {
    type: 'email',
    name: 'Notification email',
    description: 'Where payment alerts are sent.',
    control: { type: 'email' },
  },
  max_retries: {
    type: 'integer',
    name: 'Capture retries',
    description: 'How often a failed capture is tried again.',
    default: 3,
    control: { type: 'number' },
  },
  fee_percent: {
    type: 'float',
    name: 'Fee (%)',
    description: 'Added to every order.',
    default: 1.5,
    control: { type: 'number' },
  },
  priority: {
    type: 'integer',
    name: 'Priority',
    description: 'Position among the payment methods.',
    default: 5,
    control: { type: 'range' },
  },
  mode: {
    type: 'string',
    name: 'Mode',
    description: 'Test mode takes no real money.',
    options: ['test', 'live'],
    default: 'test',
    control: { type: 'select', options: { test: 'Test', live: 'Live' } },
  },
  capture: {
    type: 'string',
    name: 'Capture',
    description: 'When the payment is taken.',
    options: ['auto', 'manual'],
    default: 'auto',
    control: { type: 'radio', options: { auto: 'Automatically', manual: 'When the order ships' } },
  },
  launch_date: {
    type: 'string',
    name: 'Launch date',
    description: 'The first day Acme Pay is offered.',
    control: { type: 'date' },
  },
  brand_color: {
    type: 'string',
    name: 'Button colour',
    default: '#2271b1',
    control: { type: 'color' },
  },
  logo: {
    type: 'string',
    name: 'Logo',
    description: 'Shown next to the title (the file name is stored).',
    control: { type: 'file' },
  },
  countries: {
    type: 'string',
    name: 'Countries',
    description: 'Where Acme Pay is offered.',
    options: ['DE', 'FR', 'NL', 'US'],
    is_multi: true,
    default: ['DE', 'NL'],
    control: {
      type: 'select',
      options: { DE: 'Germany', FR: 'France', NL: 'Netherlands', US: 'United States' },
    },
  },
  metadata: {
    type: 'object',
    name: 'Metadata',
    description: 'Sent with every payment, as JSON.',
    default: { merchant: 'demo-shop' },
    control: { type: 'textarea' },
  },
});

/** An instance of the gateway's settings. */
export type GatewaySettingsHandler = InstanceType<typeof GatewaySettings>;
