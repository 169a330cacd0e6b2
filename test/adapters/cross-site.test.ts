/**
 * Cross-site writes over real HTTP through every adapter: each builds the request's own origin
 * from its `Host` header (and scheme), which the `Origin` check compares with.
 */
import { createCsrfToken } from 'commerce-plugin-framework/admin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, viaHttp } from './support/answers';
import { ADMIN_USER, CSRF_SECRET, fixtureServer, SESSION } from './support/fixture-server';
import { ADAPTER_HOSTS } from './support/hosts';
import type { Listening } from './support/parity-suite';

const TITLE = '/api/commerce/v3/shop/settings/title';
const SETTINGS_PAGE = '/admin/settings/shop';
const cookie = `session=${SESSION}`;

describe.each(Object.entries(ADAPTER_HOSTS))('cross-site writes through the %s adapter', (_name, listen) => {
  let host: Listening;
  beforeAll(async () => {
    host = await listen(fixtureServer());
  });
  afterAll(() => host.close());

  const send = (
    method: string,
    path: string,
    headers: Record<string, string>,
    text?: string,
  ): Promise<Answer> =>
    viaHttp(host.origin, {
      name: '',
      method,
      path,
      headers: { cookie, ...headers },
      body: text === undefined ? undefined : { text, type: headers['content-type'] },
    });
  const title = async () =>
    (await viaHttp(host.origin, { name: '', method: 'GET', path: TITLE, as: 'admin' })).body;

  it('refuses what sendBeacon and a no-cors fetch send from another site, with the cookie', async () => {
    const beacon = { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' };
    const crossSite = await send(
      'POST',
      `${TITLE}?value=Hacked`,
      { ...beacon, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
      'x',
    );
    expect(crossSite).toMatchObject({ status: 403, body: { code: 'rest_cross_site_request' } });
    // A browser without Fetch metadata: the Origin differs from the origin the adapter built from Host.
    const byOrigin = await send('POST', `${TITLE}?value=Hacked`, beacon, 'x');
    expect(byOrigin).toMatchObject({ status: 403, body: { code: 'rest_cross_site_request' } });
    // The same shape without any browser header: not cross-site, but the query is no argument.
    const plain = await send('POST', `${TITLE}?value=Hacked`, { 'content-type': 'text/plain' });
    expect(plain).toMatchObject({ status: 400, body: { code: 'rest_missing_callback_param' } });
    expect(await title()).toMatchObject({ value: 'Card' });
  });

  it('accepts a write from its own origin (as built from Host) and a bearer-token app on another', async () => {
    const json = { 'content-type': 'application/json' };
    const own = await send('PUT', TITLE, { ...json, origin: host.origin }, '{"value":"Own"}');
    expect(own.status).toBe(200);
    const spa = await viaHttp(host.origin, {
      name: '',
      method: 'PUT',
      path: TITLE,
      as: 'admin',
      headers: { origin: 'https://spa.example', 'sec-fetch-site': 'cross-site' },
      body: { json: { value: 'Spa' } },
    });
    expect(spa.status).toBe(200);
    // A Host the client changed: the Origin no longer matches the request's own origin.
    const otherHost = await send(
      'PUT',
      TITLE,
      { ...json, origin: host.origin, host: 'shop.example' },
      '{"value":"X"}',
    );
    expect(otherHost.status).toBe(403);
    expect(await title()).toMatchObject({ value: 'Spa' });
  });

  it('refuses an admin form posted from another site before reading it', async () => {
    const form = new URLSearchParams({
      _csrf: await createCsrfToken(CSRF_SECRET, ADMIN_USER.id),
      framework_shop_title: 'From the form',
    }).toString();
    const formType = { 'content-type': 'application/x-www-form-urlencoded' };
    const forged = await send(
      'POST',
      SETTINGS_PAGE,
      { ...formType, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      form,
    );
    expect(forged.status).toBe(403);
    expect(forged.body).toContain('Request refused');
    const own = await send(
      'POST',
      SETTINGS_PAGE,
      { ...formType, origin: host.origin, 'sec-fetch-site': 'same-origin' },
      form,
    );
    expect(own.status).toBe(303);
    expect(await title()).toMatchObject({ value: 'From the form' });
  });
});
