/**
 * Checks real answers against an OpenAPI document, as a response validator does: the
 * operation is found by method and path (concrete paths before `{param}` templates), the
 * status must be documented (an error range, `4XX`, read as the statuses it documents), an
 * error body's `data.status` must be the status, the JSON body must validate (Ajv, JSON Schema 2020-12, formats)
 * and every documented required header must be there with a valid value. Records which
 * documented answers were seen, so a test can tell which ones it never produced.
 */

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema, OpenApiDocument } from 'commerce-plugin-framework/openapi';
import { type InlineOperation, type InlinePathItem, type InlineResponse, inlinePaths } from './inline-parts';

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
  readonly operation: InlineOperation | undefined;
  readonly item: InlinePathItem;
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
  readonly #ajv: Ajv2020;
  /** Validators by the JSON of their schema: a shared answer's schema is compiled once. */
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #templates: [string, RegExp][];
  /** The document's paths, shared parts in place, their schema references pointed at the added components. */
  readonly #paths: Record<string, InlinePathItem>;
  /** The documented answers seen so far (see {@link coverageKey}). */
  readonly seen = new Set<string>();

  constructor(document: OpenApiDocument) {
    // The answer schemas refer to `#/components/schemas/…`: point them at one added schema.
    const pointed = <T>(value: T): T =>
      JSON.parse(
        JSON.stringify(value).replaceAll('"#/components/schemas/', `"${COMPONENTS_ID}#/components/schemas/`),
      ) as T;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema({ components: { schemas: pointed(document.components.schemas) } }, COMPONENTS_ID);
    this.#paths = pointed(inlinePaths(document));
    this.#templates = Object.keys(document.paths)
      .filter((path) => path.includes('{'))
      .map((path) => [path, templateRegExp(path)]);
  }

  /** Every documented answer (see {@link coverageKey}); an error range counts as each status it documents. */
  documented(): Set<string> {
    const keys = new Set<string>();
    for (const [path, item] of Object.entries(this.#paths)) {
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
    const item = this.#paths[path]!;
    return { path, item, operation: item[method.toLowerCase() as keyof InlinePathItem] };
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
    // Error ranges are read as their statuses (see inlinePaths): only `2XX` is left.
    const statusKey = status in operation.responses ? status : `${status[0]}XX`;
    const response: InlineResponse | undefined = operation.responses[statusKey];
    if (response === undefined) return [`${where}: status not documented`];
    this.seen.add(coverageKey(method, located.path, statusKey));
    return [
      ...this.#checkBody(where, response, answer),
      ...this.#checkHeaders(where, response, answer),
      ...this.#checkDataStatus(where, answer),
    ];
  }

  /** The problems of `value` against one of the document's schemas, e.g. `Error`. */
  problemsAgainst(schemaName: string, value: unknown): string[] {
    const validate = this.#validator({ $ref: `${COMPONENTS_ID}#/components/schemas/${schemaName}` });
    return validate(value) ? [] : [this.#ajv.errorsText(validate.errors)];
  }

  #checkBody(where: string, response: InlineResponse, answer: CheckedAnswer): string[] {
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

  /** An error body's `data.status`, when there is one, is the answer's status. */
  #checkDataStatus(where: string, answer: CheckedAnswer): string[] {
    if (answer.status < 400 || !(answer.headers.get('content-type') ?? '').startsWith('application/json'))
      return [];
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [];
    }
    const data = (body as { data?: { status?: unknown } } | null)?.data;
    return typeof data?.status === 'number' && data.status !== answer.status
      ? [`${where}: data.status ${data.status}`]
      : [];
  }

  #checkHeaders(where: string, response: InlineResponse, answer: CheckedAnswer): string[] {
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
    const key = JSON.stringify(schema);
    let validate = this.#validators.get(key);
    if (validate === undefined) {
      validate = this.#ajv.compile(schema);
      this.#validators.set(key, validate);
    }
    return validate;
  }
}
