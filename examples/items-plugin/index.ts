/**
 * The reference item routes as a plugin: list (paged, searchable, sorted), get, create,
 * update, delete (trash or `force`). Written only against the package's public API, with
 * `definePlugin`.
 */
export {
  InMemoryItemRepository,
  type Item,
  type ItemQuery,
  type ItemStatus,
  type NewItem,
} from './item-repository';
export { type ItemsPluginOptions, itemsPlugin } from './items-plugin';
