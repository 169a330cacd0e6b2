import { describeInvalidScopePath, isScopePath } from '../../settings/scope/scope-path';
import type { ArgSchema } from '../args/arg-schema';
import { restError } from '../errors/rest-error-factory';
import type { RestRequest } from '../http/rest-request';

/** The `scope` argument of every settings route (CONTRACT §10): a scope path; absent for the global level. */
export const SCOPE_ARG: ArgSchema = {
  type: 'string',
  description:
    'The scope (a path such as `eu` or `eu/de`): values are resolved through its parents and the global value, writes are stored at it. Absent: the global level.',
  validate: (value) => isScopePath(value) || (describeInvalidScopePath(value) ?? 'not a scope path'),
};

/**
 * Whether the request's user may reach `scope` (`''`: the global level) of `pluginId`: the
 * server's `canAccessScope`, or anyone the route's permission let through when there is none;
 * never an anonymous request when there is one.
 */
export function mayAccessScope(
  request: RestRequest,
  scope: string,
  pluginId: string,
): boolean | Promise<boolean> {
  const check = request.server?.canAccessScope;
  if (check === undefined) return true;
  const user = request.user;
  if (user === null) return false;
  const verdict = check(user, scope, pluginId);
  return verdict instanceof Promise ? verdict.then((allowed) => allowed === true) : verdict === true;
}

/**
 * The scope a settings request addresses (`''`: the global level), once the server's
 * `canAccessScope` allowed the user to reach it: otherwise 401 (anonymous) / 403 `rest_forbidden`.
 */
export function accessedScope(request: RestRequest, pluginId: string): string | Promise<string> {
  const asked = request.get('scope');
  const scope = typeof asked === 'string' ? asked : '';
  const verdict = mayAccessScope(request, scope, pluginId);
  if (verdict === true) return scope;
  if (verdict instanceof Promise) return verdict.then((allowed) => allowScope(allowed, request, scope));
  return allowScope(verdict, request, scope);
}

function allowScope(allowed: unknown, request: RestRequest, scope: string): string {
  if (allowed === true) return scope;
  throw request.user === null
    ? restError('rest_forbidden', 'Sorry, you must be authenticated to do that.', {}, { status: 401 })
    : restError(
        'rest_forbidden',
        scope === ''
          ? 'Sorry, you are not allowed to change the global settings.'
          : 'Sorry, you are not allowed to reach that scope.',
        {},
        { status: 403 },
      );
}
