import type { ControllerAnswerOptions } from '../controller-docs';
import type { RestRequest } from '../http/rest-request';
import type { DocSchema, EndpointDocs } from '../registry/endpoint-docs';
import { collectionParams, Framework_REST_Controller } from '../rest-controller';

/** Options of {@link itemRoutes}. */
export interface ItemRoutesOptions {
  /** The routes' namespace, e.g. `acme/v1`. */
  readonly namespace: string;
  /** The collection's path segment(s), e.g. `items`. */
  readonly restBase: string;
  /** The JSON Schema (draft-04) of one item, with `context` lists on its properties (as `getItemSchema()`). */
  readonly schema: object;
  /** Who may ask for which `context` (default: `view` and `embed` anyone, others the management capability). */
  readonly canUseContext?: (context: string, request: RestRequest) => boolean;
}

/** The helpers of `Framework_REST_Controller` for one collection, for routes written with the route builder. */
export interface ItemRoutes {
  /** `/items`. */
  readonly collectionPath: `/${string}`;
  /** `/items/{id}`. */
  readonly itemPath: `/${string}/{id}`;
  /** The standard list arguments, typed (`page: number`, `orderby: 'date' | 'name' | 'modified'`…). */
  readonly collectionParams: ReturnType<typeof collectionParams>;
  /** The `context` argument (contexts of the item schema; others than `view`/`embed` guarded). */
  readonly contextParam: ReturnType<Framework_REST_Controller['getContextParam']>;
  /** The item as a response shows it: properties filtered by context, `_links` added. */
  prepare(item: object, request: RestRequest): Record<string, unknown>;
  /** The absolute URL path of the item `id` (for a `Location` header), e.g. `/api/acme/v1/items/7`. */
  urlOf(id: string | number, request: RestRequest): string;
  /** The `docs` of an endpoint answering `{success: true, data: item}`. */
  answersItem(options?: ControllerAnswerOptions): EndpointDocs;
  /** The `docs` of an endpoint answering a page of items with `X-Total` / `X-Total-Pages`. */
  answersList(options?: ControllerAnswerOptions): EndpointDocs;
  /** The `docs` of an endpoint answering `{success: true, message}`. */
  answersMessage(options?: ControllerAnswerOptions): EndpointDocs;
  /** A reference to the item schema in the OpenAPI document. */
  itemSchemaRef(): DocSchema;
}

/**
 * The item-route helpers of `Framework_REST_Controller` — the standard list arguments, the
 * guarded `context` argument, context filtering with `_links`, and the OpenAPI answers with the
 * item schema inside the envelope — for a collection whose routes are written with the route
 * builder (`definePlugin`), without a controller class.
 */
export function itemRoutes(options: ItemRoutesOptions): ItemRoutes {
  const { namespace, restBase, schema, canUseContext } = options;
  const controller = new (class extends Framework_REST_Controller {
    override getItemSchema(): object {
      return schema;
    }
    protected override canUseContext(context: string, request: RestRequest): boolean {
      return canUseContext ? canUseContext(context, request) : super.canUseContext(context, request);
    }
    registerRoutes(): void {}
  })(namespace, restBase);
  return {
    collectionPath: `/${restBase}`,
    itemPath: `/${restBase}/{id}`,
    collectionParams: collectionParams(),
    contextParam: controller.getContextParam(),
    prepare: (item, request) => controller.prepareItemForResponse({ ...item }, request),
    urlOf: (id, request) =>
      `${request.server?.restRoot ?? ''}/${namespace}/${restBase}/${encodeURIComponent(String(id))}`,
    answersItem: (answer) => controller.answersItem(answer),
    answersList: (answer) => controller.answersList(answer),
    answersMessage: (answer) => controller.answersMessage(answer),
    itemSchemaRef: () => controller.itemSchemaRef(),
  };
}
