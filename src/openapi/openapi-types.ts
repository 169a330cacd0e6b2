/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** The `info` object of an OpenAPI document. */
export interface OpenApiInfo {
  /** The API's title. */
  title: string;
  /** The API's version (of the document, not of OpenAPI). */
  version: string;
  /** A longer description (CommonMark). */
  description?: string;
  /** Further `info` members (`contact`, `license`, `x-…`), copied as they are. */
  [member: string]: unknown;
}

/** A server the API is reachable at. */
export interface OpenApiServer {
  /** The server's base URL, e.g. `https://shop.example`; the document's paths are appended to it. */
  url: string;
  /** What this server is, e.g. `Production` (CommonMark). */
  description?: string;
}

/** A reference to a part of the document's `components`, e.g. `{$ref: '#/components/responses/rest_forbidden_401'}`. */
export interface OpenApiReference {
  /** Where the part is: `#/components/<kind>/<name>`. */
  $ref: string;
}

/** One parameter of an operation (path, query or header). */
export interface OpenApiParameter {
  /** The argument's name: the `{name}` of the path, the query key, or the header name. */
  name: string;
  /** Where the parameter is sent: a path segment, the query string, or a request header (`EndpointDocs.requestHeaders`). */
  in: 'path' | 'query' | 'header';
  /** Whether the request must carry it: always `true` for path parameters. */
  required: boolean;
  /** The argument's description, when the route gives one. */
  description?: string;
  /** The JSON Schema of the argument's value; `{type: 'string'}` when the route declares no argument for it. */
  schema: JsonSchema;
  /** How the value is serialized: `form` for array query parameters (`?include=1,2`); absent otherwise. */
  style?: 'form' | 'simple';
  /** `false` with `style: 'form'`: an array is one comma-separated value, not a repeated key. */
  explode?: boolean;
}

/** A header of a response. */
export interface OpenApiHeader {
  /** What the header carries. */
  description: string;
  /** Whether every such response carries it. */
  required?: boolean;
  /** The JSON Schema of its value. */
  schema: JsonSchema;
}

/** A response of an operation. */
export interface OpenApiResponse {
  /** What the response means, e.g. `The setting.`; for errors, each code with when it is answered. */
  description: string;
  /** The response headers, by name (e.g. `X-Total`, `Location`, `Allow`); shared ones as references to `components.headers`. */
  headers?: Record<string, OpenApiHeader | OpenApiReference>;
  /** The body, by media type (`application/json`); absent for a response without a body. */
  content?: Record<
    string,
    {
      /** The JSON Schema of the body. */
      schema: JsonSchema;
    }
  >;
}

/** One operation (a method of a path). */
export interface OpenApiOperation {
  /** A unique id made of the method and the path's words, e.g. `get_api_acme_v1_items_by_id`. */
  operationId: string;
  /** A one-line description, e.g. `List the settings of acme_pay`, or `GET /items/{id}` (method and route) when the endpoint declares none. */
  summary: string;
  /** A longer description, when the endpoint's docs give one. */
  description?: string;
  /** The route's namespace (e.g. `acme/v1`), grouping operations in viewers. */
  tags: string[];
  /**
   * Path parameters, then query parameters (of GET and DELETE, and `EndpointDocs.queryArgs`), then
   * request headers; shared ones as references to `components.parameters`; absent when there are
   * none (or when every operation of the path has them: they are then the path's).
   */
  parameters?: (OpenApiParameter | OpenApiReference)[];
  /** The JSON object body (POST, PUT, PATCH) made of the other arguments; absent when there are none. */
  requestBody?: OpenApiRequestBody | OpenApiReference;
  /**
   * The success response and the error responses the route can produce, by HTTP status code or
   * range: `4XX` and `5XX` stand for the statuses their description lists, each body of their
   * `anyOf` naming its status (`data.status` a constant). Shared ones as references to
   * `components.responses`.
   */
  responses: Record<string, OpenApiResponse | OpenApiReference>;
  /**
   * The security requirements when they are not the document's (`bearerAuth` required): on
   * public endpoints (`allowPublic()`), `bearerAuth` or `{}` (anonymous).
   */
  security?: Record<string, string[]>[];
}

/** The JSON request body of an operation. */
export interface OpenApiRequestBody {
  /** Whether a body must be sent: `true` when at least one of its arguments is required. */
  required: boolean;
  /** The body by media type (`application/json`). */
  content: Record<
    string,
    {
      /** The JSON Schema of the body object. */
      schema: JsonSchema;
    }
  >;
}

/** The methods an operation can have in a path item. */
export type OpenApiMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operations of one path, by lower-case method, and the parameters all of them take. */
export type OpenApiPathItem = Partial<Record<OpenApiMethod, OpenApiOperation>> & {
  /** Parameters every operation of the path takes (e.g. `scope` on a setting's path), when it has several operations. */
  parameters?: (OpenApiParameter | OpenApiReference)[];
};

/** An OpenAPI 3.1 document, as {@link generateOpenApiDocument} builds it. */
export interface OpenApiDocument {
  /** The OpenAPI version the document follows. */
  openapi: '3.1.0';
  /** Title, version and description of the API, as given to {@link generateOpenApiDocument}. */
  info: OpenApiInfo;
  /** The default JSON Schema dialect of the schemas: the OpenAPI 3.1 base dialect URI. */
  jsonSchemaDialect: string;
  /** Where the API is served (`OpenApiOptions.servers`, default `[{ url: '/' }]`). */
  servers: OpenApiServer[];
  /** The security every operation has unless it says otherwise: `bearerAuth` (public endpoints say `bearerAuth` or none). */
  security: Record<string, string[]>[];
  /** One tag per route namespace, in registration order. */
  tags: {
    /** The namespace, e.g. `acme/v1`. */
    name: string;
    /** What the namespace holds. */
    description: string;
  }[];
  /**
   * The operations, by full path in `{param}` form, e.g. `/api/acme/v1/items/{id}`; endpoints
   * documented through variants (the settings routes) by concrete path, e.g.
   * `/api/commerce/v3/acme_pay/settings/max_retries`.
   */
  paths: Record<string, OpenApiPathItem>;
  /** The parts operations share by reference. */
  components: {
    /**
     * Shared schemas that operations refer to: `Error` (the REST error body), the envelopes
     * `FailureMessage` and `ValidationFailure`, each setting's Setting object
     * (`<pluginId>.settings.<settingId>`), item schemas (`<namespace>.<restBase>`, e.g.
     * `acme.v1.items`), the error body of each status, named after its codes and status
     * (`rest_scope_not_found_404`, shared by ranges and single statuses), and whatever endpoints
     * declare in `EndpointDocs.schemas`.
     */
    schemas: Record<string, JsonSchema>;
    /**
     * Answers that two operations or more give, by name: an error answer is named after its
     * codes and status (`rest_forbidden_401`, `rest_method_not_allowed_405`), a range of error
     * answers after the routes that give it (`acme_pay.settings.write_4XX`, `errors_5XX`), a
     * success answer after what its docs name it (`acme_pay.settings.max_retries`: one setting's
     * Setting object with its `ETag`).
     */
    responses?: Record<string, OpenApiResponse>;
    /** Parameters that two operations or more take, by name (`scope`, `If-Match`, `page`…). */
    parameters?: Record<string, OpenApiParameter>;
    /** Response headers that two answers or more carry, by name (`ETag`, `X-Total`, `Allow`…). */
    headers?: Record<string, OpenApiHeader>;
    /** Request bodies that two operations or more take, by name (`acme_pay.settings.max_retries`: `{value}` of one setting, for PUT, POST and PATCH). */
    requestBodies?: Record<string, OpenApiRequestBody>;
    /** The security schemes by name: `bearerAuth`, a bearer token checked by the server's `authenticate`. */
    securitySchemes: Record<
      string,
      {
        /** The scheme type: HTTP authentication. */
        type: 'http';
        /** The HTTP auth scheme: a bearer token in `Authorization`. */
        scheme: 'bearer';
        /** Who issues the token and how the server reads it. */
        description?: string;
      }
    >;
  };
}
