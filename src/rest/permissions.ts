import type { RestRequest } from './http/rest-request';
import type { PermissionCallback } from './registry/types';

/** The management capability when the server does not set one. */
export const DEFAULT_MANAGEMENT_CAPABILITY = 'manage_commerce';

/**
 * Allows an authenticated user who has `capability`.
 *
 * @example
 * ```ts
 * routes.register('acme/v1', '/orders', { methods: 'GET', permission: requireCapability('edit_shop_orders'), handler });
 * ```
 */
export function requireCapability(capability: string): PermissionCallback {
  if (typeof capability !== 'string' || capability === '') {
    throw new TypeError('requireCapability: the capability must be a non-empty string');
  }
  return (request) => request.user !== null && request.userCan(capability);
}

/**
 * Allows an authenticated user who has the server's management capability
 * (`createRestServer({ managementCapability })`, default `manage_commerce`). The settings and
 * status routes use it.
 */
export function requireManagement(): PermissionCallback {
  return (request) =>
    request.user !== null &&
    request.userCan(request.server?.managementCapability ?? DEFAULT_MANAGEMENT_CAPABILITY);
}

/**
 * Allows a request only when every check allows it. Checks run in order and stop at the first
 * that answers false (later checks, which may be costly, do not run).
 */
export function requireAll(...checks: readonly PermissionCallback[]): PermissionCallback {
  for (const check of checks) {
    if (typeof check !== 'function') throw new TypeError('requireAll: every check must be a function');
  }
  return (request) => runChecks(checks, 0, request);
}

function runChecks(
  checks: readonly PermissionCallback[],
  from: number,
  request: RestRequest,
): boolean | Promise<boolean> {
  for (let index = from; index < checks.length; index++) {
    const verdict = checks[index]!(request);
    if (verdict instanceof Promise) {
      return verdict.then((allowed) => (allowed === true ? runChecks(checks, index + 1, request) : false));
    }
    if (verdict !== true) return false;
  }
  return true;
}

/**
 * Allows a request when the user has the management capability AND `check(request)` allows
 * it, e.g. that this user may see this item. `check` runs only for managers.
 *
 * @example
 * ```ts
 * permission: requireItemAccess((request) => repository.ownerOf(request.get('id')) === request.user?.id),
 * ```
 */
export function requireItemAccess(check: PermissionCallback): PermissionCallback {
  return requireAll(requireManagement(), check);
}

const PUBLIC: PermissionCallback = () => true;

/** Allows everyone, authenticated or not: say so explicitly for public endpoints (permission is required). */
export function allowPublic(): PermissionCallback {
  return PUBLIC;
}

/** @internal Whether a permission callback is {@link allowPublic}'s (the OpenAPI document then lists no 401/403). */
export function isPublicPermission(permission: unknown): boolean {
  return permission === PUBLIC;
}
