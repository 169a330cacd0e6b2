import { createRestServer } from 'commerce-plugin-framework';
import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryItemRepository, itemsPlugin } from '../../../examples/items-plugin';
import { ADMIN_TOKEN, authenticate, call, NOBODY_TOKEN } from '../support/fixtures';

const ITEMS = '/api/acme/v1/items';

function setup() {
  let tick = Date.parse('2024-05-01T10:00:00Z');
  const items = new InMemoryItemRepository(() => {
    tick += 60_000;
    return new Date(tick);
  });
  const server = createRestServer({ plugins: [itemsPlugin({ items })], authenticate });
  return { server, items };
}

async function createItem(server: ReturnType<typeof setup>['server'], body: Record<string, unknown>) {
  const res = await call(server, 'POST', ITEMS, { token: ADMIN_TOKEN, body });
  expect(res.status).toBe(201);
  return res.json.data;
}

describe('items example plugin over HTTP', () => {
  let ctx: ReturnType<typeof setup>;
  beforeEach(() => {
    ctx = setup();
  });

  it('creates an item: 201, envelope, Location, links', async () => {
    const res = await call(ctx.server, 'POST', ITEMS, {
      token: ADMIN_TOKEN,
      body: { name: ' Mug ', price: 9.5, description: 'A mug', internal_note: 'fragile' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/api/acme/v1/items/1');
    expect(res.json.success).toBe(true);
    expect(res.json.data).toMatchObject({
      id: 1,
      name: 'Mug',
      price: 9.5,
      status: 'publish',
      description: 'A mug',
    });
    expect(res.json.data.date_created).toBe('2024-05-01T10:01:00.000Z');
    expect(res.json.data._links).toEqual({
      self: [{ href: '/api/acme/v1/items/1' }],
      collection: [{ href: '/api/acme/v1/items' }],
    });
    // internal_note is edit-context only: hidden in the default view context.
    expect(res.json.data).not.toHaveProperty('internal_note');
  });

  it('needs the management capability to write, nothing to read', async () => {
    expect((await call(ctx.server, 'POST', ITEMS, { body: { name: 'x', price: 1 } })).status).toBe(401);
    expect(
      (await call(ctx.server, 'POST', ITEMS, { token: NOBODY_TOKEN, body: { name: 'x', price: 1 } })).status,
    ).toBe(403);
    await createItem(ctx.server, { name: 'Mug', price: 1 });
    expect((await call(ctx.server, 'GET', ITEMS)).status).toBe(200);
    expect((await call(ctx.server, 'GET', `${ITEMS}/1`)).status).toBe(200);
    expect((await call(ctx.server, 'DELETE', `${ITEMS}/1`)).status).toBe(401);
  });

  it('answers validation failures found by the handler with {success:false, errors}', async () => {
    await createItem(ctx.server, { name: 'Mug', price: 1 });
    const duplicate = await call(ctx.server, 'POST', ITEMS, {
      token: ADMIN_TOKEN,
      body: { name: 'Mug', price: 2 },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.json).toEqual({
      success: false,
      errors: [{ field: 'name', message: 'An item named "Mug" already exists.' }],
    });
    const blank = await call(ctx.server, 'POST', ITEMS, {
      token: ADMIN_TOKEN,
      body: { name: '   ', price: 2 },
    });
    expect(blank.json.errors[0].field).toBe('name');
    const typed = await call(ctx.server, 'POST', ITEMS, {
      token: ADMIN_TOKEN,
      body: { name: 'Cup', price: '2' },
    });
    expect([typed.status, typed.json.code]).toEqual([400, 'rest_invalid_param']);
    const missing = await call(ctx.server, 'POST', ITEMS, { token: ADMIN_TOKEN, body: { name: 'Cup' } });
    expect(missing.json).toMatchObject({ code: 'rest_missing_callback_param', data: { params: ['price'] } });
  });

  it('lists with page, per_page, search, orderby, order and pagination headers', async () => {
    for (const name of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo']) {
      await createItem(ctx.server, { name, price: 1, description: name === 'Echo' ? 'has findme' : '' });
    }
    const firstPage = await call(ctx.server, 'GET', `${ITEMS}?per_page=2`);
    expect(firstPage.headers.get('x-total')).toBe('5');
    expect(firstPage.headers.get('x-total-pages')).toBe('3');
    // Default order: date DESC.
    expect(firstPage.json.data.map((item: { name: string }) => item.name)).toEqual(['Echo', 'bravo']);
    const third = await call(ctx.server, 'GET', `${ITEMS}?per_page=2&page=3`);
    expect(third.json.data.map((item: { name: string }) => item.name)).toEqual(['Delta']);
    const beyond = await call(ctx.server, 'GET', `${ITEMS}?per_page=2&page=9`);
    expect(beyond.json).toEqual({ success: true, data: [] });
    const byName = await call(ctx.server, 'GET', `${ITEMS}?orderby=name&order=ASC`);
    expect(byName.json.data.map((item: { name: string }) => item.name)).toEqual([
      'Charlie',
      'Delta',
      'Echo',
      'alpha',
      'bravo',
    ]);
    const search = await call(ctx.server, 'GET', `${ITEMS}?search=FINDME`);
    expect(search.json.data.map((item: { name: string }) => item.name)).toEqual(['Echo']);
    expect(search.headers.get('x-total')).toBe('1');
    const bad = await call(ctx.server, 'GET', `${ITEMS}?per_page=101&orderby=price`);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.data.params).sort()).toEqual(['orderby', 'per_page']);
  });

  it('orders by modified date', async () => {
    await createItem(ctx.server, { name: 'A', price: 1 });
    await createItem(ctx.server, { name: 'B', price: 1 });
    await call(ctx.server, 'PATCH', `${ITEMS}/1`, { token: ADMIN_TOKEN, body: { price: 2 } });
    const res = await call(ctx.server, 'GET', `${ITEMS}?orderby=modified`);
    expect(res.json.data.map((item: { name: string }) => item.name)).toEqual(['A', 'B']);
  });

  it('gets one item, with the edit context on request, and 404 in the envelope', async () => {
    await createItem(ctx.server, { name: 'Mug', price: 1, internal_note: 'fragile' });
    const view = await call(ctx.server, 'GET', `${ITEMS}/1`);
    expect(view.json.data).not.toHaveProperty('internal_note');
    const edit = await call(ctx.server, 'GET', `${ITEMS}/1?context=edit`, { token: ADMIN_TOKEN });
    expect(edit.json.data.internal_note).toBe('fragile');
    const anonymousEdit = await call(ctx.server, 'GET', `${ITEMS}/1?context=edit`);
    expect([anonymousEdit.status, anonymousEdit.json.code]).toEqual([401, 'rest_forbidden_context']);
    expect(anonymousEdit.text).not.toContain('fragile');
    const embed = await call(ctx.server, 'GET', `${ITEMS}/1?context=embed`);
    expect(Object.keys(embed.json.data).sort()).toEqual(['_links', 'id', 'name']);
    const missing = await call(ctx.server, 'GET', `${ITEMS}/99`);
    expect([missing.status, missing.json]).toEqual([
      404,
      { success: false, message: 'Item 99 was not found.' },
    ]);
    expect((await call(ctx.server, 'GET', `${ITEMS}/abc`)).json.code).toBe('rest_no_route');
    expect((await call(ctx.server, 'GET', `${ITEMS}/1?context=admin`)).json.code).toBe('rest_invalid_param');
  });

  it('lists and shows drafts to managers only', async () => {
    await createItem(ctx.server, { name: 'Mug', price: 1 });
    await createItem(ctx.server, { name: 'Secret mug', price: 2, status: 'draft' });
    const anonymous = await call(ctx.server, 'GET', ITEMS);
    expect(anonymous.json.data.map((item: { name: string }) => item.name)).toEqual(['Mug']);
    expect(anonymous.headers.get('x-total')).toBe('1');
    const clerk = await call(ctx.server, 'GET', `${ITEMS}?search=mug`, { token: NOBODY_TOKEN });
    expect(clerk.json.data.map((item: { name: string }) => item.name)).toEqual(['Mug']);
    expect((await call(ctx.server, 'GET', `${ITEMS}/2`)).status).toBe(404);
    const manager = await call(ctx.server, 'GET', ITEMS, { token: ADMIN_TOKEN });
    expect(manager.json.data.map((item: { name: string }) => item.name).sort()).toEqual([
      'Mug',
      'Secret mug',
    ]);
    expect((await call(ctx.server, 'GET', `${ITEMS}/2`, { token: ADMIN_TOKEN })).json.data.status).toBe(
      'draft',
    );
  });

  it('updates with PUT and PATCH', async () => {
    await createItem(ctx.server, { name: 'Mug', price: 1 });
    const put = await call(ctx.server, 'PUT', `${ITEMS}/1`, {
      token: ADMIN_TOKEN,
      body: { name: 'Cup', status: 'draft' },
    });
    expect(put.json.data).toMatchObject({ id: 1, name: 'Cup', status: 'draft', price: 1 });
    expect(put.json.data.date_modified > put.json.data.date_created).toBe(true);
    const patch = await call(ctx.server, 'PATCH', `${ITEMS}/1`, { token: ADMIN_TOKEN, body: { price: 3 } });
    expect(patch.json.data).toMatchObject({ name: 'Cup', price: 3 });
    expect(
      (await call(ctx.server, 'PUT', `${ITEMS}/7`, { token: ADMIN_TOKEN, body: { price: 3 } })).status,
    ).toBe(404);
  });

  it('deletes: trash by default, for good with force', async () => {
    await createItem(ctx.server, { name: 'Mug', price: 1 });
    const trashed = await call(ctx.server, 'DELETE', `${ITEMS}/1`, { token: ADMIN_TOKEN });
    expect(trashed.json.data.status).toBe('trash');
    expect((await call(ctx.server, 'GET', ITEMS)).json.data).toEqual([]);
    const again = await call(ctx.server, 'DELETE', `${ITEMS}/1`, { token: ADMIN_TOKEN });
    expect(again.status).toBe(410);
    const forced = await call(ctx.server, 'DELETE', `${ITEMS}/1?force=true`, { token: ADMIN_TOKEN });
    expect(forced.json).toMatchObject({
      success: true,
      data: { deleted: true, previous: { id: 1, name: 'Mug' } },
    });
    expect((await call(ctx.server, 'GET', `${ITEMS}/1`)).status).toBe(404);
    const badForce = await call(ctx.server, 'DELETE', `${ITEMS}/1?force=maybe`, { token: ADMIN_TOKEN });
    expect(badForce.json.code).toBe('rest_invalid_param');
  });

  it('shares its namespace index with other plugins', async () => {
    const index = await call(ctx.server, 'GET', '/api/acme/v1');
    expect(Object.keys(index.json.routes)).toEqual(['/api/acme/v1/items', '/api/acme/v1/items/{id}']);
  });
});
