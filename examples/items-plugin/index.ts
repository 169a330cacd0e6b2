/**
 * The reference item routes as a plugin: list (paged, searchable, sorted), get, create,
 * update, delete (trash or `force`). Written only against the package's public API.
 */
export {
  InMemoryItemRepository,
  type Item,
  type ItemQuery,
  type ItemStatus,
  type NewItem,
} from './item-repository';
export { ItemsController } from './items-controller';
export { ItemsPlugin, type ItemsPluginOptions, ItemsRestApi } from './items-plugin';
