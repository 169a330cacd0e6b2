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
  url: string;
  description?: string;
}

/** One parameter of an operation (path or query). */
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  style?: 'form' | 'simple';
  explode?: boolean;
}

/** A response of an operation, or a reference to a shared one. */
export type OpenApiResponse =
  | {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: JsonSchema }>;
    }
  | { $ref: string };

/** One operation (a method of a path). */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
  security: Record<string, string[]>[];
}

/** The operations of one path, by lower-case method. */
export type OpenApiPathItem = Partial<Record<'get' | 'put' | 'post' | 'delete' | 'patch', OpenApiOperation>>;

/** An OpenAPI 3.1 document, as {@link generateOpenApiDocument} builds it. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: OpenApiInfo;
  jsonSchemaDialect: string;
  servers?: OpenApiServer[];
  tags: { name: string; description?: string }[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description?: string }>;
  };
}
