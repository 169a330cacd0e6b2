import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
} from './openapi-types';

/** The kinds of parts `components` holds besides schemas, as {@link ComponentPool} shares them. */
export type ComponentKind = 'responses' | 'parameters' | 'headers' | 'requestBodies';

/** The object of each kind. */
interface ComponentObjects {
  responses: OpenApiResponse;
  parameters: OpenApiParameter;
  headers: OpenApiHeader;
  requestBodies: OpenApiRequestBody;
}

/** The shared parts of a document, by kind and name (`components` minus schemas and security schemes). */
export type SharedComponents = { [K in ComponentKind]?: Record<string, ComponentObjects[K]> };

/** One distinct part (by content) offered for a place of the document, and how often. */
interface Candidate {
  readonly kind: ComponentKind;
  readonly name: string;
  /** A range ({@link ComponentPool.offerRange}): the families it was offered for, and the name's suffix. */
  families?: string[][];
  suffix?: string;
  readonly object: object;
  uses: number;
  ref?: OpenApiReference;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const NAME_CHARACTER = /[^A-Za-z0-9._-]/g;
const SCHEMA_PREFIX = '#/components/schemas/';

/** The words all `families` start with, then those they all end with (not overlapping), dot-joined; else `errors`. */
function commonName(families: readonly (readonly string[])[]): string {
  const first = families[0] ?? [];
  let lead = 0;
  while (
    lead < first.length &&
    families.every((family) => family.length > lead && family[lead] === first[lead])
  )
    lead++;
  let trail = 0;
  const fits = (family: readonly string[]) =>
    family.length - trail - 1 >= lead &&
    family[family.length - trail - 1] === first[first.length - trail - 1];
  while (first.length - trail - 1 >= lead && families.every(fits)) trail++;
  const words = [...first.slice(0, lead), ...first.slice(first.length - trail)];
  return words.length > 0 ? words.join('.') : 'errors';
}

/** Calls `found` with every `{$ref: '#/components/schemas/<name>'}` object inside `value`, and the name. */
function collectReferences(value: unknown, found: (ref: JsonSchema, name: string) => void): void {
  if (Array.isArray(value)) for (const item of value) collectReferences(item, found);
  else if (typeof value === 'object' && value !== null) {
    const ref = (value as JsonSchema).$ref;
    if (typeof ref === 'string' && ref.startsWith(SCHEMA_PREFIX)) {
      found(value as JsonSchema, ref.slice(SCHEMA_PREFIX.length));
      return;
    }
    for (const item of Object.values(value)) collectReferences(item, found);
  }
}

/**
 * The parts of a document that operations repeat — responses, parameters, response headers,
 * request bodies — moved to `components` and referred to with `$ref` where two places or more
 * have the same one (the same JSON): an operation then costs a reference per answer instead of
 * the answer itself. Parts are offered while the operations are built, with the name they
 * would have (`rest_forbidden_401`, `If-Match`, `acme_pay.settings.max_retries`); a name taken
 * by another part of the same kind gets a suffix (`page_2`). {@link share} then puts each
 * shared part in place of its uses.
 */
export class ComponentPool {
  readonly #candidates = new Map<string, Candidate>();
  readonly #uses = new Map<object, Candidate>();
  /** The error bodies shared in `components.schemas`, by their JSON: their name and the references to them. */
  readonly #schemas = new Map<string, { name: string; refs: JsonSchema[] }>();
  readonly #schemaNames = new Map<string, JsonSchema>();
  /** Each use of a range, and the answers of its statuses (used instead when the range is not shared). */
  readonly #ranges = new Map<object, Record<string, OpenApiResponse>>();

  /**
   * Offers one use of a part: `object` is what the document has at that place unless it is shared.
   *
   * @returns `object`, to put in its place
   */
  offer<K extends ComponentKind, T extends ComponentObjects[K]>(kind: K, name: string, object: T): T {
    this.#candidate(kind, name, object).uses += 1;
    return object;
  }

  /**
   * Offers one use of a range of error answers (`4XX`, `5XX`), named after the family of the
   * operation (e.g. `['acme_pay', 'settings', 'write']` and `_4XX`:
   * `acme_pay.settings.write_4XX`). When the same range is offered for several families, it is
   * named after what they have in common: their leading words, then their trailing words
   * (`acme_pay.settings.read` for `acme_pay.settings.read` and `acme_pay.settings.history.read`),
   * else `errors` (`errors_5XX`). A range no other operation
   * has is documented as the answers of its statuses instead (`statuses`, each offered under its
   * name): those are more often shared than the range.
   *
   * @returns `range`, to put in its place
   */
  offerRange(
    family: readonly string[],
    suffix: string,
    range: OpenApiResponse,
    statuses: Readonly<Record<string, { readonly name: string; readonly response: OpenApiResponse }>>,
  ): OpenApiResponse {
    const candidate = this.#candidate('responses', '', range);
    candidate.families ??= [];
    candidate.families.push([...family]);
    candidate.suffix = suffix;
    candidate.uses += 1;
    const answers: Record<string, OpenApiResponse> = {};
    for (const [status, { name, response }] of Object.entries(statuses)) {
      this.#candidate('responses', name, response);
      answers[status] = response;
    }
    this.#ranges.set(range, answers);
    return range;
  }

  /**
   * A reference to `schema` in `components.schemas`, under `name` (`rest_scope_not_found_404`;
   * another schema already there gets a suffix: `…_404_2`): the error bodies, which ranges and
   * the answers of single statuses share.
   */
  schema(name: string, schema: JsonSchema): JsonSchema {
    const key = JSON.stringify(schema);
    let entry = this.#schemas.get(key);
    if (entry === undefined) {
      const wanted = name.replace(NAME_CHARACTER, '_');
      let unique = wanted;
      for (let n = 2; this.#schemaNames.has(unique); n++) unique = `${wanted}_${n}`;
      this.#schemaNames.set(unique, schema);
      entry = { name: unique, refs: [] };
      this.#schemas.set(key, entry);
    }
    const ref = { $ref: `${SCHEMA_PREFIX}${entry.name}` };
    entry.refs.push(ref);
    return ref;
  }

  /**
   * The schemas {@link schema} shared, each renamed with a suffix where `declared` (the
   * document's other schemas) has its name. A schema that `parts` (the document's paths and
   * shared components, where its references ended up) refer to once is put in place of that
   * reference instead, and one they do not refer to is left out: a name costs bytes when only
   * one place uses it.
   */
  sharedSchemas(declared: ReadonlySet<string>, parts: object): Record<string, JsonSchema> {
    const byName = new Map<string, JsonSchema>();
    const used = new Set(declared);
    for (const entry of this.#schemas.values()) {
      let name = entry.name;
      for (let n = 2; used.has(name); n++) name = `${entry.name}_${n}`;
      used.add(name);
      for (const ref of entry.refs) ref.$ref = `${SCHEMA_PREFIX}${name}`;
      byName.set(name, this.#schemaNames.get(entry.name)!);
    }
    // The references in the document, then in the schemas it refers to (a status's body refers
    // to its bodies).
    const places = new Map<string, JsonSchema[]>();
    const reached: string[] = [];
    const found = (ref: JsonSchema, name: string) => {
      if (!byName.has(name)) return;
      const refs = places.get(name) ?? [];
      if (refs.length === 0) reached.push(name);
      places.set(name, [...refs, ref]);
    };
    collectReferences(parts, found);
    for (let next = reached.pop(); next !== undefined; next = reached.pop()) {
      collectReferences(byName.get(next), found);
    }
    const result: Record<string, JsonSchema> = {};
    for (const [name, schema] of byName) {
      const refs = places.get(name) ?? [];
      if (refs.length >= 2) result[name] = schema;
      else if (refs.length === 1) {
        const place = refs[0]!;
        delete place.$ref;
        Object.assign(place, schema);
      }
    }
    return result;
  }

  #candidate(kind: ComponentKind, name: string, object: object): Candidate {
    const key = `${kind} ${JSON.stringify(object)}`;
    let candidate = this.#candidates.get(key);
    if (candidate === undefined) {
      candidate = { kind, name: name.replace(NAME_CHARACTER, '_'), object, uses: 0 };
      this.#candidates.set(key, candidate);
    }
    this.#uses.set(object, candidate);
    return candidate;
  }

  /**
   * Puts a reference in place of every use of a part used twice or more, moves the parameters
   * every operation of a path takes to the path, and returns the shared parts by kind and name.
   */
  share(paths: OpenApiDocument['paths']): SharedComponents {
    const components: Record<ComponentKind, Record<string, object>> = {
      responses: {},
      parameters: {},
      headers: {},
      requestBodies: {},
    };
    // A range used once gives way to the answers of its statuses.
    for (const [range, answers] of this.#ranges) {
      if (!this.#isShared(range))
        for (const answer of Object.values(answers)) this.#uses.get(answer)!.uses += 1;
    }
    for (const candidate of this.#candidates.values()) {
      if (candidate.uses < 2) continue;
      const taken = components[candidate.kind];
      const wanted =
        candidate.families === undefined
          ? candidate.name
          : `${commonName(candidate.families)}${candidate.suffix ?? ''}`.replace(NAME_CHARACTER, '_');
      let name = wanted;
      for (let n = 2; name in taken; n++) name = `${wanted}_${n}`;
      taken[name] = candidate.object;
      candidate.ref = { $ref: `#/components/${candidate.kind}/${name}` };
    }
    for (const response of Object.values(components.responses))
      this.#referHeaders(response as OpenApiResponse);
    for (const item of Object.values(paths)) this.#referPathItem(item);
    const shared: SharedComponents = {};
    for (const kind of ['responses', 'parameters', 'headers', 'requestBodies'] as const) {
      if (Object.keys(components[kind]).length > 0) Object.assign(shared, { [kind]: components[kind] });
    }
    return shared;
  }

  #isShared(object: object): boolean {
    return (this.#uses.get(object)?.uses ?? 0) >= 2;
  }

  /** The reference of a shared part, or the part itself. */
  #refer<T extends object>(object: T): T | OpenApiReference {
    return this.#uses.get(object)?.ref ?? object;
  }

  #referHeaders(response: OpenApiResponse | OpenApiReference): void {
    if ('$ref' in response || response.headers === undefined) return;
    for (const [name, header] of Object.entries(response.headers))
      response.headers[name] = this.#refer(header);
  }

  #referOperation(operation: OpenApiOperation): void {
    if (operation.parameters)
      operation.parameters = operation.parameters.map((parameter) => this.#refer(parameter));
    if (operation.requestBody) operation.requestBody = this.#refer(operation.requestBody);
    const responses: OpenApiOperation['responses'] = {};
    for (const [status, response] of Object.entries(operation.responses)) {
      const answers = this.#ranges.get(response);
      const expanded = answers !== undefined && !this.#isShared(response) ? answers : { [status]: response };
      for (const [key, answer] of Object.entries(expanded)) {
        this.#referHeaders(answer);
        responses[key] = this.#refer(answer);
      }
    }
    operation.responses = responses;
  }

  #referPathItem(item: OpenApiPathItem): void {
    const operations = METHODS.flatMap((method) => (item[method] ? [item[method]] : []));
    for (const operation of operations) this.#referOperation(operation);
    if (operations.length < 2) return;
    // A parameter (or reference) every operation has is the path's.
    const keyed = operations.map(
      (operation) =>
        new Map((operation.parameters ?? []).map((parameter) => [JSON.stringify(parameter), parameter])),
    );
    const common = [...keyed[0]!].filter(([key]) => keyed.every((parameters) => parameters.has(key)));
    if (common.length === 0) return;
    // The path's parameters first, then its operations.
    const methods = { ...item };
    for (const method of METHODS) delete item[method];
    Object.assign(item, { parameters: common.map(([, parameter]) => parameter) }, methods);
    for (const [index, operation] of operations.entries()) {
      const own = [...keyed[index]!].filter(([key]) => !common.some(([shared]) => shared === key));
      if (own.length > 0) operation.parameters = own.map(([, parameter]) => parameter);
      else delete operation.parameters;
    }
  }
}
