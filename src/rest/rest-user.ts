/** The authenticated caller of a request, as the host's `authenticate` returns it. */
export interface RestUser {
  /** The user's id in the host application. */
  id: string | number;
  /** What the user may do, e.g. `manage_commerce`, `edit_shop_orders`. */
  capabilities: readonly string[];
}
