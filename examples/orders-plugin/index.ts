/**
 * The reference order routes as a plugin: orders made of `line_items`, created `pending`,
 * dated in ISO 8601 with an offset, guarded by the `edit_shop_orders` capability. Written only
 * against the package's public API.
 */
export { toIsoWithOffset } from './iso-date';
export {
  InMemoryOrderRepository,
  type LineItem,
  type NewOrder,
  ORDER_STATUSES,
  type Order,
  type OrderQuery,
  type OrderStatus,
} from './order-repository';
export { type OrdersPluginOptions, ordersPlugin } from './orders-plugin';
