/** The authenticated caller of a request, as the host's `authenticate` returns it. */
export interface RestUser {
  /** The user's id in the host application. */
  id: string | number;
  /** What the user may do, e.g. `manage_commerce`, `edit_shop_orders`. */
  capabilities: readonly string[];
}

/**
 * Checks what the host's `authenticate` returned, for the REST routes and the admin pages
 * alike: `null` or `undefined` is anonymous; anything else must be a {@link RestUser}, an
 * object whose `id` is a string or a finite number and whose `capabilities` is an array of
 * strings. Anything else is a bug in the host, never a user: a string `capabilities`
 * (`'view_manage_commerce_reports'`) would otherwise grant `manage_commerce` through
 * `String.prototype.includes`.
 *
 * @throws TypeError saying what is wrong (never the value itself, which may hold a session)
 */
export function checkUser(user: unknown): RestUser | null {
  if (user === null || user === undefined) return null;
  const problem =
    typeof user !== 'object'
      ? `a ${typeof user}`
      : !Array.isArray((user as RestUser).capabilities)
        ? 'an object whose capabilities is not an array'
        : !(user as RestUser).capabilities.every((capability) => typeof capability === 'string')
          ? 'an object whose capabilities are not all strings'
          : !isUserId((user as RestUser).id)
            ? 'an object whose id is neither a string nor a finite number'
            : undefined;
  if (problem !== undefined) {
    throw new TypeError(
      `authenticate returned ${problem}: it must return a RestUser ({id, capabilities: string[]}) or null`,
    );
  }
  return user as RestUser;
}

function isUserId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}
