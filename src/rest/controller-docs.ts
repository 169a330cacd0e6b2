import {
  componentRef,
  type DocSchema,
  type EndpointDocs,
  type ErrorDoc,
  type HeaderDoc,
} from './registry/endpoint-docs';

/** What an item route answers besides its kind, for `Framework_REST_Controller.answersItem` and its siblings. */
export interface ControllerAnswerOptions {
  /** The success status; default 200. A 201 answer documents its `Location` header (the new item's URL). */
  readonly status?: number;
  /** What the success answer means; default per kind (`The item.`, `One page of items.`, …). */
  readonly description?: string;
  /** The operation's one-line summary. */
  readonly summary?: string;
  /** The operation's longer description (CommonMark). */
  readonly operationDescription?: string;
  /** The schema of `data` instead of the item (or the list of items), e.g. `{ oneOf: [this.itemSchemaRef(), …] }`. */
  readonly data?: DocSchema;
  /** When the handler answers 404 `{success: false, message}` (`notFoundResponse`), e.g. `No order with that id.` */
  readonly notFound?: string;
  /** When the handler answers 400 `{success: false, errors}` (`validationFailedResponse`), e.g. `A name is taken.` */
  readonly invalid?: string;
  /** The schema of one entry of `errors` in that 400 answer; default any JSON value. */
  readonly invalidItem?: DocSchema;
  /** Further answers of the endpoint (e.g. 410 `{success: false, message}`). */
  readonly errors?: readonly ErrorDoc[];
}

/** The kind of answer an item route gives inside the envelope `{success: true, …}`. */
export type ControllerAnswerKind = 'item' | 'list' | 'message';

const HREF_LIST: DocSchema = {
  type: 'array',
  items: { type: 'object', required: ['href'], properties: { href: { type: 'string' } } },
};

/** The `_links` member `prepareItemForResponse` adds to every item. */
const LINKS_SCHEMA: DocSchema = {
  type: 'object',
  description: "The item's own URL (`self`, when it has an id) and its collection's URL.",
  required: ['collection'],
  properties: { self: HREF_LIST, collection: HREF_LIST },
};

export const PAGINATION_HEADERS: Readonly<Record<string, HeaderDoc>> = {
  'X-Total': {
    description: 'How many items the whole list has.',
    schema: { type: 'integer', minimum: 0 },
    required: true,
  },
  'X-Total-Pages': {
    description: 'How many pages of `per_page` items the whole list has.',
    schema: { type: 'integer', minimum: 0 },
    required: true,
  },
};

const LOCATION_HEADER: Readonly<Record<string, HeaderDoc>> = {
  Location: { description: 'The URL of the new item.', required: true },
};

/** The item schema as answers carry it: the controller's `getItemSchema()` plus `_links`. */
export function itemDocSchema(itemSchema: object): DocSchema {
  const schema = itemSchema as DocSchema;
  const properties = (typeof schema.properties === 'object' && schema.properties) || {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return {
    ...schema,
    type: 'object',
    properties: { ...properties, _links: LINKS_SCHEMA },
    required: [...required, '_links'],
  };
}

function envelope(member: 'data' | 'message', schema: DocSchema): DocSchema {
  return {
    type: 'object',
    required: ['success', member],
    properties: { success: { type: 'boolean', const: true }, [member]: schema },
  };
}

const DEFAULT_DESCRIPTIONS: Readonly<Record<ControllerAnswerKind, string>> = {
  item: 'The item.',
  list: 'One page of items; the headers tell how many there are in all.',
  message: 'Done: what happened, for a human.',
};

/**
 * The docs of an item-route endpoint answering in the reference envelope: `{success: true,
 * data: item}`, `{success: true, data: [items]}` with `X-Total` and `X-Total-Pages`, or
 * `{success: true, message}`; the item schema added to the components under `schemaName`;
 * and the envelope errors the options name.
 */
export function controllerAnswerDocs(
  kind: ControllerAnswerKind,
  schemaName: string,
  itemSchema: object,
  options: ControllerAnswerOptions = {},
): EndpointDocs {
  const item = componentRef(schemaName);
  const status = options.status ?? 200;
  const schema =
    kind === 'message'
      ? envelope('message', { type: 'string' })
      : envelope('data', options.data ?? (kind === 'list' ? { type: 'array', items: item } : item));
  const headers = kind === 'list' ? PAGINATION_HEADERS : status === 201 ? LOCATION_HEADER : undefined;
  const errors: ErrorDoc[] = [];
  if (options.invalid !== undefined) {
    errors.push({
      status: 400,
      body: 'errors',
      description: options.invalid,
      ...(options.invalidItem ? { items: options.invalidItem } : {}),
    });
  }
  if (options.notFound !== undefined)
    errors.push({ status: 404, body: 'message', description: options.notFound });
  errors.push(...(options.errors ?? []));
  return {
    ...(options.summary !== undefined ? { summary: options.summary } : {}),
    ...(options.operationDescription !== undefined ? { description: options.operationDescription } : {}),
    responses: [
      {
        status,
        description: options.description ?? DEFAULT_DESCRIPTIONS[kind],
        schema,
        ...(headers ? { headers } : {}),
      },
    ],
    errors,
    schemas: { [schemaName]: itemDocSchema(itemSchema) },
  };
}
