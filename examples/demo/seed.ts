import { InMemoryItemRepository } from '../items-plugin/index';
import { InMemoryOrderRepository } from '../orders-plugin/index';
import type { GatewaySettingsHandler } from './gateway-settings';

/** A few items, so the item routes have something to list. */
export function seededItems(): InMemoryItemRepository {
  const items = new InMemoryItemRepository();
  items.create({ name: 'Espresso cup', description: 'Porcelain, 90 ml.', price: 9.5 });
  items.create({ name: 'Coffee grinder', description: 'Hand grinder, steel burrs.', price: 59 });
  items.create({ name: 'Filter papers', description: 'Pack of 100.', price: 4.2, status: 'draft' });
  return items;
}

/** Two orders, so the order routes have something to list. */
export function seededOrders(): InMemoryOrderRepository {
  const orders = new InMemoryOrderRepository({ offsetMinutes: 60 });
  orders.create({
    currency: 'EUR',
    customer_id: 7,
    line_items: [{ product_id: 1, name: 'Espresso cup', quantity: 2, price: 9.5 }],
  });
  orders.create({
    currency: 'EUR',
    customer_note: 'Gift wrap, please.',
    line_items: [{ product_id: 2, name: 'Coffee grinder', quantity: 1, price: 59 }],
  });
  return orders;
}

/** The demo's two sales channels: Europe, and Germany below it. */
export const DEMO_SCOPES = ['eu', 'eu/de'] as const;

/**
 * Overrides for the two channels, stored on the first start only (a scope that has its own
 * title already is left as it is): Europe changes the title and the countries, Germany the
 * title again and the fee; everything else they inherit.
 */
export async function seedChannels(settings: GatewaySettingsHandler): Promise<void> {
  const eu = settings.scope('eu');
  if ((await eu.getOwnValue('title')) === null) {
    await eu.updateValues([
      { id: 'title', value: 'Acme Pay Europe' },
      { id: 'countries', value: ['DE', 'FR', 'NL'] },
    ]);
  }
  const de = settings.scope('eu/de');
  if ((await de.getOwnValue('title')) === null) {
    await de.updateValues([
      { id: 'title', value: 'Acme Pay Deutschland' },
      { id: 'fee_percent', value: 1.2 },
    ]);
  }
}
