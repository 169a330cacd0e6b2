/**
 * Checks real answers against an OpenAPI document, as a response validator does: the
 * operation is found by method and path (concrete paths before `{param}` templates), the
 * status must be documented, the JSON body must validate (Ajv, JSON Schema 2020-12, formats)
 * and every documented required header must be there with a valid value. Records which
 * documented answers were seen, so a test can tell which ones it never produced.
 */

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiOperation,
  OpenApiResponse,
} from 'commerce-plugin-framework/openapi';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** An answer as read by the test's client. */
export interface CheckedAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const COMPONENTS_ID = 'components.json';

/** What the document says about one operation's answers, found by method and path. */
interface Located {
  readonly path: string;
  readonly operation: OpenApiOperation | undefined;
  readonly item: Record<string, OpenApiOperation>;
}

function templateRegExp(path: string): RegExp {
  const pattern = path
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${pattern}$`);
}

/** The `coverage` key of an answer: 405 is a path's answer, every other status an operation's. */
export function coverageKey(method: string, path: string, status: string): string {
  return status === '405' ? `${path} 405` : `${method.toUpperCase()} ${path} ${status}`;
}

/** Validates answers against `document`. */
export class AnswerChecker {
  readonly #document: OpenApiDocument;
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<JsonSchema, ValidateFunction>();
  readonly #templates: [string, RegExp][];
  /** The document's paths, their references pointed at the added components. */
  readonly #paths: OpenApiDocument['paths'];
  /** The documented answers seen so far (see {@link coverageKey}). */
  readonly seen = new Set<string>();

  constructor(document: OpenApiDocument) {
    this.#document = document;
    // The answer schemas refer to `#/components/schemas/…`: point them at one added schema.
    const rewritten = JSON.parse(
      JSON.stringify(document).replaceAll('"#/components/', `"${COMPONENTS_ID}#/components/`),
    ) as OpenApiDocument;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ components: rewritten.components }, COMPONENTS_ID);
    this.#paths = rewritten.paths;
    this.#templates = Object.keys(document.paths)
      .filter((path) => path.includes('{'))
      .map((path) => [path, templateRegExp(path)]);
  }

  /** Every documented answer (see {@link coverageKey}). */
  documented(): Set<string> {
    const keys = new Set<string>();
    for (const [path, item] of Object.entries(this.#document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const status of Object.keys(operation.responses)) keys.add(coverageKey(method, path, status));
      }
    }
    return keys;
  }

  /** The documented path an actual path falls under. */
  locate(method: string, pathname: string): Located | undefined {
    const path =
      pathname in this.#paths ? pathname : this.#templates.find(([, pattern]) => pattern.test(pathname))?.[0];
    if (path === undefined) return undefined;
    const item = this.#paths[path] as Record<string, OpenApiOperation>;
    return { path, item, operation: item[method.toLowerCase()] };
  }

  /**
   * The problems of one answer (empty when it matches the document), recording it as seen.
   *
   * @param method - the request's method
   * @param pathname - the request's path (without the query)
   */
  check(method: string, pathname: string, answer: CheckedAnswer): string[] {
    const where = `${method} ${pathname} → ${answer.status}`;
    const located = this.locate(method, pathname);
    if (located === undefined) return [`${where}: no documented path`];
    // A 405 is answered for a method the path does not have: any operation of the path documents it.
    const operation =
      located.operation ?? (answer.status === 405 ? Object.values(located.item)[0] : undefined);
    if (operation === undefined) return [`${where}: method not documented`];
    const status = String(answer.status);
    const statusKey = status in operation.responses ? status : `${status[0]}XX`;
    const response: OpenApiResponse | undefined = operation.responses[statusKey];
    if (response === undefined) return [`${where}: status not documented`];
    this.seen.add(coverageKey(method, located.path, statusKey));
    return [...this.#checkBody(where, response, answer), ...this.#checkHeaders(where, response, answer)];
  }

  /** The problems of `value` against one of the document's schemas, e.g. `Error`. */
  problemsAgainst(schemaName: string, value: unknown): string[] {
    const validate = this.#validator({ $ref: `${COMPONENTS_ID}#/components/schemas/${schemaName}` });
    return validate(value) ? [] : [this.#ajv.errorsText(validate.errors)];
  }

  #checkBody(where: string, response: OpenApiResponse, answer: CheckedAnswer): string[] {
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined) return answer.text === '' ? [] : [`${where}: a body where none is documented`];
    if (!(answer.headers.get('content-type') ?? '').startsWith('application/json')) {
      return [`${where}: content-type ${answer.headers.get('content-type')}`];
    }
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = this.#validator(schema);
    return validate(body)
      ? []
      : [`${where}: ${this.#ajv.errorsText(validate.errors)} in ${answer.text.slice(0, 300)}`];
  }

  #checkHeaders(where: string, response: OpenApiResponse, answer: CheckedAnswer): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      const text = answer.headers.get(name);
      if (text === null) {
        if (header.required) problems.push(`${where}: header ${name} missing`);
        continue;
      }
      const numeric = header.schema.type === 'integer' || header.schema.type === 'number';
      const value = numeric && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
      const validate = this.#validator(header.schema);
      if (!validate(value))
        problems.push(`${where}: header ${name}: ${this.#ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  #validator(schema: JsonSchema): ValidateFunction {
    let validate = this.#validators.get(schema);
    if (validate === undefined) {
      validate = this.#ajv.compile(schema);
      this.#validators.set(schema, validate);
    }
    return validate;
  }
}
