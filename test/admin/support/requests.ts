import type { AdminRequestContext, Framework_Register_Settings } from 'commerce-plugin-framework/admin';
import { createCsrfToken } from 'commerce-plugin-framework/admin';
import { ADMIN, adminContext, CSRF_SECRET } from './acme-settings';

export const ORIGIN = 'http://shop.test';

/** GETs an admin path through the page. */
export async function getPage(
  page: Framework_Register_Settings,
  path = '/admin/settings/acme',
  context: AdminRequestContext = adminContext(),
): Promise<Response> {
  const response = await page.handleAdminRequest(new Request(`${ORIGIN}${path}`), context);
  if (!response) throw new Error(`the page did not answer ${path}`);
  return response;
}

/** The admin user's CSRF token. */
export function adminToken(): Promise<string> {
  return createCsrfToken(CSRF_SECRET, ADMIN.id);
}

/** POSTs a form (with the admin's CSRF token unless `_csrf` is given or `withToken` is false). */
export async function postForm(
  page: Framework_Register_Settings,
  fields: Record<string, string | readonly string[]>,
  options: { context?: AdminRequestContext; withToken?: boolean; contentType?: string; path?: string } = {},
): Promise<Response> {
  const form = new URLSearchParams();
  if (options.withToken !== false && !('_csrf' in fields)) form.append('_csrf', await adminToken());
  for (const [name, value] of Object.entries(fields)) {
    for (const item of typeof value === 'string' ? [value] : value) form.append(name, item);
  }
  const request = new Request(`${ORIGIN}${options.path ?? '/admin/settings/acme'}`, {
    method: 'POST',
    headers: { 'content-type': options.contentType ?? 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const response = await page.handleAdminRequest(request, options.context ?? adminContext());
  if (!response) throw new Error('the page did not answer the POST');
  return response;
}

/** The store's content as a plain object (a snapshot to compare). */
export async function snapshot(
  store: { getMany(keys: readonly string[]): Promise<Map<string, string>> },
  keys: readonly string[],
) {
  return Object.fromEntries(await store.getMany(keys));
}

/** The HTML of the field row whose control is named `name` (from its row start to the next row). */
export function fieldRow(html: string, name: string): string {
  const marker = `id="field-${name}-row"`;
  const at = html.indexOf(marker);
  if (at < 0) throw new Error(`no row for ${name}`);
  const start = html.lastIndexOf('<', at);
  const after = html
    .slice(at)
    .search(/<(?:div|fieldset) class="field(?: field-invalid)?" id=|<\/div>\n<div class="form-actions">/);
  return html.slice(start, after < 0 ? undefined : at + after);
}
