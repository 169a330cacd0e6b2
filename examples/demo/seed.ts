import { InMemoryItemRepository } from '../items-plugin/index';
import { InMemoryOrderRepository } from '../orders-plugin/index';

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
