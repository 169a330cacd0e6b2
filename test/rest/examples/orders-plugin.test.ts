import { createRestServer } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { itemsPlugin } from '../../../examples/items-plugin';
import { InMemoryOrderRepository, ordersPlugin, toIsoWithOffset } from '../../../examples/orders-plugin';
import { ADMIN_TOKEN, authenticate, CLERK_TOKEN, call, NOBODY_TOKEN } from '../support/fixtures';

const ORDERS = '/api/acme/v1/orders';
const LINES = [
  { product_id: 1, name: 'Mug', quantity: 2, price: 4.5 },
  { product_id: 2, name: 'Tea', quantity: 1, price: 3.1 },
];

function setup(offsetMinutes = 120) {
  let tick = Date.parse('2024-05-01T10:00:00Z');
  const orders = new InMemoryOrderRepository({
    now: () => {
      tick += 60_000;
      return new Date(tick);
    },
    offsetMinutes,
  });
  const server = createRestServer({
    plugins: [itemsPlugin(), ordersPlugin({ orders })],
    authenticate,
  });
  return server;
}

describe('orders example plugin over HTTP', () => {
  it('creates a pending order from line_items with an ISO 8601 date with offset', async () => {
    const server = setup();
    const res = await call(server, 'POST', ORDERS, {
      token: CLERK_TOKEN,
      body: { line_items: LINES, customer_note: 'ring twice' },
    });
    expect(res.status).toBe(201);
    expect(res.json.success).toBe(true);
    const order = res.json.data;
    expect(order).toMatchObject({
      id: 1,
      status: 'pending',
      currency: 'EUR',
      total: 12.1,
      customer_note: 'ring twice',
    });
    expect(order.line_items).toEqual([
      { id: 1, product_id: 1, name: 'Mug', quantity: 2, price: 4.5, total: 9 },
      { id: 2, product_id: 2, name: 'Tea', quantity: 1, price: 3.1, total: 3.1 },
    ]);
    expect(order.date_created).toBe('2024-05-01T12:01:00+02:00');
    expect(order.date_created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(Date.parse(order.date_created)).toBe(Date.parse('2024-05-01T10:01:00Z'));
    expect(order._links.self).toEqual([{ href: '/api/acme/v1/orders/1' }]);
  });

  it('formats negative and zero offsets', () => {
    const date = new Date('2024-01-01T00:30:00Z');
    expect(toIsoWithOffset(date)).toBe('2024-01-01T00:30:00+00:00');
    expect(toIsoWithOffset(date, -330)).toBe('2023-12-31T19:00:00-05:30');
  });

  it('requires edit_shop_orders: 401 anonymous, 403 without, managers need it too', async () => {
    const server = setup();
    expect((await call(server, 'GET', ORDERS)).status).toBe(401);
    expect((await call(server, 'GET', ORDERS, { token: NOBODY_TOKEN })).status).toBe(403);
    expect((await call(server, 'GET', ORDERS, { token: CLERK_TOKEN })).status).toBe(200);
    expect((await call(server, 'GET', ORDERS, { token: ADMIN_TOKEN })).status).toBe(200);
  });

  it('validates line_items deeply', async () => {
    const server = setup();
    const cases: [unknown, string, string][] = [
      [[], 'rest_too_few_items', 'line_items'],
      [
        [{ product_id: 1, name: 'Mug', quantity: 0, price: 1 }],
        'rest_out_of_bounds',
        'line_items[0].quantity',
      ],
      [[{ product_id: 1, name: 'Mug', price: 1 }], 'rest_property_required', 'quantity'],
      [
        [{ product_id: 1, name: 'Mug', quantity: 1, price: 1, discount: 5 }],
        'rest_additional_properties_forbidden',
        'discount',
      ],
      [
        [{ product_id: '1', name: 'Mug', quantity: 1, price: 1 }],
        'rest_invalid_type',
        'line_items[0].product_id',
      ],
      ['1,2', 'rest_invalid_type', 'line_items'],
    ];
    for (const [lineItems, code, mention] of cases) {
      const res = await call(server, 'POST', ORDERS, { token: CLERK_TOKEN, body: { line_items: lineItems } });
      expect(res.status).toBe(400);
      expect(res.json.data.details.line_items.code).toBe(code);
      expect(res.json.data.params.line_items).toContain(mention);
    }
    const currency = await call(server, 'POST', ORDERS, {
      token: CLERK_TOKEN,
      body: { line_items: LINES, currency: 'eur' },
    });
    expect(currency.json.data.details.currency.code).toBe('rest_invalid_pattern');
    const duplicate = await call(server, 'POST', ORDERS, {
      token: CLERK_TOKEN,
      body: { line_items: [LINES[0], LINES[0]] },
    });
    expect([duplicate.status, duplicate.json.success, duplicate.json.errors[0].field]).toEqual([
      400,
      false,
      'line_items',
    ]);
    const missing = await call(server, 'POST', ORDERS, { token: CLERK_TOKEN, body: {} });
    expect(missing.json.data.params).toEqual(['line_items']);
  });

  it('lists, filters by status, gets and updates orders', async () => {
    const server = setup();
    for (let index = 0; index < 3; index++) {
      await call(server, 'POST', ORDERS, { token: CLERK_TOKEN, body: { line_items: LINES } });
    }
    const updated = await call(server, 'PUT', `${ORDERS}/2`, {
      token: CLERK_TOKEN,
      body: { status: 'completed' },
    });
    expect(updated.json.data.status).toBe('completed');
    expect(updated.json.data.date_modified > updated.json.data.date_created).toBe(true);
    const list = await call(server, 'GET', `${ORDERS}?per_page=2`, { token: CLERK_TOKEN });
    expect(list.json.data.map((order: { id: number }) => order.id)).toEqual([3, 2]);
    expect([list.headers.get('x-total'), list.headers.get('x-total-pages')]).toEqual(['3', '2']);
    const pending = await call(server, 'GET', `${ORDERS}?status=pending&order=ASC`, { token: CLERK_TOKEN });
    expect(pending.json.data.map((order: { id: number }) => order.id)).toEqual([1, 3]);
    const searched = await call(server, 'GET', `${ORDERS}?search=tea`, { token: CLERK_TOKEN });
    expect(searched.json.data).toHaveLength(3);
    expect((await call(server, 'GET', `${ORDERS}/2`, { token: CLERK_TOKEN })).json.data.status).toBe(
      'completed',
    );
    const missing = await call(server, 'GET', `${ORDERS}/42`, { token: CLERK_TOKEN });
    expect([missing.status, missing.json.success]).toEqual([404, false]);
    const badStatus = await call(server, 'PATCH', `${ORDERS}/1`, {
      token: CLERK_TOKEN,
      body: { status: 'shipped' },
    });
    expect(badStatus.json.data.details.status.code).toBe('rest_not_in_enum');
  });

  it('creates with a Location header', async () => {
    const server = setup();
    const res = await call(server, 'POST', ORDERS, { token: CLERK_TOKEN, body: { line_items: LINES } });
    expect(res.headers.get('location')).toBe('/api/acme/v1/orders/1');
  });

  it('deletes: cancels by default, removes for good with force, 404 envelope for an unknown order', async () => {
    const server = setup();
    await call(server, 'POST', ORDERS, { token: CLERK_TOKEN, body: { line_items: LINES } });
    expect((await call(server, 'DELETE', `${ORDERS}/1`)).status).toBe(401);
    expect((await call(server, 'DELETE', `${ORDERS}/1`, { token: NOBODY_TOKEN })).status).toBe(403);
    const cancelled = await call(server, 'DELETE', `${ORDERS}/1`, { token: CLERK_TOKEN });
    expect([cancelled.status, cancelled.json]).toEqual([
      200,
      { success: true, message: 'Order 1 was cancelled; use force=true to delete it for good.' },
    ]);
    const order = await call(server, 'GET', `${ORDERS}/1`, { token: CLERK_TOKEN });
    expect(order.json.data.status).toBe('cancelled');
    const deleted = await call(server, 'DELETE', `${ORDERS}/1?force=true`, { token: CLERK_TOKEN });
    expect([deleted.status, deleted.json]).toEqual([
      200,
      { success: true, message: 'Order 1 was deleted for good.' },
    ]);
    for (const query of ['', '?force=true']) {
      const missing = await call(server, 'DELETE', `${ORDERS}/1${query}`, { token: CLERK_TOKEN });
      expect([missing.status, missing.json]).toEqual([
        404,
        { success: false, message: 'Order 1 was not found.' },
      ]);
    }
    const badForce = await call(server, 'DELETE', `${ORDERS}/1?force=maybe`, { token: CLERK_TOKEN });
    expect([badForce.status, badForce.json.code]).toEqual([400, 'rest_invalid_param']);
    expect((await call(server, 'GET', ORDERS, { token: CLERK_TOKEN })).json.data).toEqual([]);
  });

  it('contributes its status data last', async () => {
    const server = setup();
    const status = await server.getSystemStatus();
    expect(status.commerce_orders).toEqual({ is_payment_gateway: false, settings: {}, order_routes: true });
  });
});
