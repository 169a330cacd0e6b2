import type { ArgSchema } from './args/arg-schema';
import { type ControllerAnswerOptions, controllerAnswerDocs } from './controller-docs';
import { restError } from './errors/rest-error-factory';
import { RestError } from './http/rest-error';
import type { RestRequest } from './http/rest-request';
import { DEFAULT_MANAGEMENT_CAPABILITY } from './permissions';
import { componentRef, type DocSchema, type EndpointDocs } from './registry/endpoint-docs';
import { assertNamespace } from './registry/namespace';
import type { RouteRegistry } from './registry/route-registry';
import { DEFAULT_REST_ROOT } from './registry/route-registry';
import { JSON_SCHEMA_DRAFT_04 } from './settings-routes/settings-controller';

const REST_BASE = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

/**
 * The standard arguments of a list route (CONTRACT §5), typed exactly: `page` (integer,
 * default 1, minimum 1), `per_page` (integer, default 10, 1–100), `search` (string), `orderby`
 * (`date`, `name`, `modified`; default `date`), `order` (`ASC`, `DESC`; default `DESC`). A new
 * object each call; a handler's `request.params` then has `page: number`,
 * `orderby: 'date' | 'name' | 'modified'`…
 */
export function collectionParams() {
  return {
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: {
      description: 'Maximum number of items to return per page.',
      type: 'integer',
      default: 10,
      minimum: 1,
      maximum: 100,
    },
    search: { description: 'Limit results to those matching a string.', type: 'string' },
    orderby: {
      description: 'Sort the collection by this attribute.',
      type: 'string',
      enum: ['date', 'name', 'modified'],
      default: 'date',
    },
    order: { description: 'Sort direction.', type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' },
  } as const satisfies Record<string, ArgSchema>;
}

/** The contexts anyone may ask for; others (`edit`…) need {@link Framework_REST_Controller.canUseContext}. */
const OPEN_CONTEXTS: ReadonlySet<string> = new Set(['view', 'embed']);

/** The `_links` member an item gets from {@link Framework_REST_Controller.prepareItemForResponse}. */
export interface ItemLinks {
  /** The item's own URL (collection URL plus its encoded `id`); absent when the item has no string or numeric `id`. */
  self?: {
    /** Root-relative URL, e.g. `/api/acme/v1/items/7`. */
    href: string;
  }[];
  /** The URL of the collection the item belongs to. */
  collection: {
    /** Root-relative URL, e.g. `/api/acme/v1/items`. */
    href: string;
  }[];
}

/**
 * Base class of plugin-defined item routes (`/items`, `/items/{id}`, …): the item's JSON
 * Schema, the standard collection arguments, context filtering and links.
 *
 * Subclasses implement {@link registerRoutes} and usually override {@link getItemSchema}. Each
 * endpoint says what it answers for the OpenAPI document with {@link answersItem},
 * {@link answersList} or {@link answersMessage} as its `docs`: the item schema then reaches the
 * document inside the envelope, with the list headers, `Location` on 201 and the envelope errors.
 *
 * @example
 * ```ts
 * class ItemsController extends Framework_REST_Controller {
 *   constructor() { super('acme/v1', 'items'); }
 *   registerRoutes(routes: RouteRegistry): void {
 *     routes.register(this.namespace, `/${this.restBase}`, {
 *       methods: 'GET', permission: allowPublic(), args: this.getCollectionParams(),
 *       handler: (request) => listItems(request),
 *     });
 *   }
 * }
 * ```
 */
export abstract class Framework_REST_Controller {
  /** The routes' namespace, e.g. `acme/v1`. */
  protected readonly namespace: string;
  /** The collection's path segment(s), e.g. `items`. */
  protected readonly restBase: string;
  #schemaProperties: Readonly<Record<string, ArgSchema>> | undefined;

  /**
   * @param namespace - e.g. `acme/v1`
   * @param restBase - e.g. `items`
   * @throws {@link Framework_Plugin_Exception} (400) for an invalid namespace; TypeError for an invalid base
   */
  constructor(namespace: string, restBase: string) {
    assertNamespace(namespace);
    if (typeof restBase !== 'string' || !REST_BASE.test(restBase)) {
      throw new TypeError(
        `Framework_REST_Controller: invalid restBase ${JSON.stringify(restBase)}; use e.g. "items"`,
      );
    }
    this.namespace = namespace;
    this.restBase = restBase;
  }

  /** Registers the controller's routes. */
  abstract registerRoutes(routes: RouteRegistry): void;

  /**
   * The JSON Schema (draft-04) of one item: `$schema`, `title`, `type: 'object'`, `properties`.
   * Override it to describe your item; a property's `context` list (`view`, `edit`, `embed`)
   * says in which contexts responses include it. Read once per controller and cached.
   */
  getItemSchema(): object {
    return { $schema: JSON_SCHEMA_DRAFT_04, title: this.restBase, type: 'object', properties: {} };
  }

  /**
   * The name of the item schema among the OpenAPI document's schemas: the namespace and the
   * base, dotted, e.g. `acme.v1.items`.
   */
  itemSchemaName(): string {
    return `${this.namespace.replace('/', '.')}.${this.restBase.replaceAll('/', '.')}`;
  }

  /** A reference to the item schema, for {@link ControllerAnswerOptions.data}: `{ $ref: '#/components/schemas/acme.v1.items' }`. */
  itemSchemaRef(): DocSchema {
    return componentRef(this.itemSchemaName());
  }

  /**
   * The `docs` of an endpoint answering one item, `{success: true, data: item}` (from
   * {@link getItemSchema}, with `_links`): its status (201 documents `Location`), and the
   * 404 `{success: false, message}` / 400 `{success: false, errors}` the handler gives.
   *
   * @example
   * ```ts
   * { methods: 'GET', permission, args: { id }, handler, docs: this.answersItem({ notFound: 'No such item.' }) }
   * ```
   */
  answersItem(options?: ControllerAnswerOptions): EndpointDocs {
    return controllerAnswerDocs('item', this.itemSchemaName(), this.getItemSchema(), options);
  }

  /** The `docs` of an endpoint answering a page of items, `{success: true, data: [items]}`, with `X-Total` and `X-Total-Pages`. */
  answersList(options?: ControllerAnswerOptions): EndpointDocs {
    return controllerAnswerDocs('list', this.itemSchemaName(), this.getItemSchema(), options);
  }

  /** The `docs` of an endpoint answering `{success: true, message}` (`successMessageResponse`), e.g. a delete. */
  answersMessage(options?: ControllerAnswerOptions): EndpointDocs {
    return controllerAnswerDocs('message', this.itemSchemaName(), this.getItemSchema(), options);
  }

  /**
   * The standard arguments of a list route: `page` (integer, default 1, minimum 1),
   * `per_page` (integer, default 10, 1–100), `search` (string), `orderby` (`date`, `name`,
   * `modified`; default `date`), `order` (`ASC`, `DESC`; default `DESC`).
   */
  getCollectionParams(): Record<string, ArgSchema> {
    return collectionParams();
  }

  /**
   * Whether the request may ask for `context`. By default anyone may ask for `view` and
   * `embed`, and other contexts (`edit`, which shows fields meant for managers) need the
   * server's management capability. Override it to open a context, or to close one further.
   */
  protected canUseContext(context: string, request: RestRequest): boolean {
    if (OPEN_CONTEXTS.has(context)) return true;
    return request.userCan(request.server?.managementCapability ?? DEFAULT_MANAGEMENT_CAPABILITY);
  }

  /** @throws {@link RestError} 401 / 403 `rest_forbidden_context` when {@link canUseContext} says no */
  #assertContext(context: string, request: RestRequest): void {
    if (this.canUseContext(context, request)) return;
    throw request.user === null
      ? restError(
          'rest_forbidden_context',
          `Sorry, you must be authenticated to ask for context "${context}".`,
          {},
          { status: 401 },
        )
      : restError(
          'rest_forbidden_context',
          `Sorry, you are not allowed to ask for context "${context}".`,
          {},
          { status: 403 },
        );
  }

  /**
   * The `context` argument: a string among the contexts the item schema uses, default `view`.
   * Its `validate` step answers 401 / 403 `rest_forbidden_context` (from the argument check,
   * before the permission callback) when {@link canUseContext} refuses the context asked for.
   */
  getContextParam(): ArgSchema {
    const contexts: string[] = [];
    for (const property of Object.values(this.#properties())) {
      if (!Array.isArray(property.context)) continue;
      for (const context of property.context) if (!contexts.includes(context)) contexts.push(context);
    }
    if (!contexts.includes('view')) contexts.unshift('view');
    return {
      description: 'Scope under which the request is made; determines the fields present in the response.',
      type: 'string',
      enum: contexts,
      default: 'view',
      validate: (value, request) => {
        this.#assertContext(value as string, request);
        return true;
      },
    };
  }

  /**
   * The item as the response shows it: properties whose schema `context` list lacks the
   * request's `context` argument (default `view`) are dropped (properties without a list, or
   * not in the schema, are kept), and `_links` is added: `self` (the item's route, from its
   * `id`) and `collection` (the list route), as absolute paths.
   *
   * @throws {@link RestError} 401 / 403 `rest_forbidden_context` when {@link canUseContext}
   *   refuses the context (checked again here, for routes whose `context` argument is not
   *   {@link getContextParam})
   */
  prepareItemForResponse(item: Record<string, unknown>, request: RestRequest): Record<string, unknown> {
    const requested = request.get('context');
    const context = typeof requested === 'string' ? requested : 'view';
    this.#assertContext(context, request);
    const properties = this.#properties();
    const prepared: Record<string, unknown> = {};
    for (const key of Object.keys(item)) {
      const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (property !== undefined && Array.isArray(property.context) && !property.context.includes(context))
        continue;
      prepared[key] = item[key];
    }
    const collection = `${request.server?.restRoot ?? DEFAULT_REST_ROOT}/${this.namespace}/${this.restBase}`;
    const id = item.id;
    const links: ItemLinks =
      typeof id === 'string' || typeof id === 'number'
        ? {
            self: [{ href: `${collection}/${encodeURIComponent(String(id))}` }],
            collection: [{ href: collection }],
          }
        : { collection: [{ href: collection }] };
    prepared._links = links;
    return prepared;
  }

  #properties(): Readonly<Record<string, ArgSchema>> {
    if (this.#schemaProperties === undefined) {
      const schema = this.getItemSchema() as { properties?: unknown };
      const properties = schema.properties;
      this.#schemaProperties =
        typeof properties === 'object' && properties !== null
          ? (properties as Record<string, ArgSchema>)
          : {};
    }
    return this.#schemaProperties;
  }
}
