import type { ArgSchema } from '../args/arg-schema';

/** The TypeScript type of one JSON type name. */
type TypeOfName<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

/** Property names an object schema requires: draft-04 (`required: true` on the property) or 2020-12 (`required: [...]` on the object). */
type RequiredProperties<S, P> =
  | (S extends { readonly required: readonly (infer R)[] } ? Extract<R, keyof P> : never)
  | { [K in keyof P]: P[K] extends { readonly required: true } ? K : never }[keyof P];

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectValue<S, P> = Simplify<
  { -readonly [K in RequiredProperties<S, P> & keyof P]: ValueOfSchema<P[K]> } & {
    -readonly [K in Exclude<keyof P, RequiredProperties<S, P>>]?: ValueOfSchema<P[K]>;
  }
> &
  (S extends { readonly additionalProperties: false } ? unknown : Record<string, unknown>);

/**
 * The value a JSON Schema (or an `ArgSchema`) describes, as far as its keywords say: `const`,
 * `enum` (the union of its values), `anyOf`/`oneOf`, `type` (a name or a list), array `items`,
 * object `properties` with `required` (draft-04 or 2020-12 form). Anything it cannot tell is
 * `unknown`. Declare schemas `as const` for literal types.
 */
export type ValueOfSchema<S> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer V)[] }
      ? ValueOfSchema<V>
      : S extends { readonly oneOf: readonly (infer V)[] }
        ? ValueOfSchema<V>
        : S extends { readonly type: 'array'; readonly items: infer I }
          ? ValueOfSchema<I>[]
          : S extends { readonly type: 'object'; readonly properties: infer P }
            ? ObjectValue<S, P>
            : S extends { readonly type: readonly (infer T)[] }
              ? TypeOfName<T>
              : S extends { readonly type: infer T }
                ? TypeOfName<T>
                : unknown;

/** The value of one argument: `sanitize`'s result when it has one, else what its schema describes. */
export type ArgValue<S> = S extends { sanitize(...args: never[]): infer R } ? R : ValueOfSchema<S>;

/** Whether an argument is always present in `request.params`: required, or with a default. */
type AlwaysPresent<S> = S extends { readonly required: true }
  ? true
  : S extends { readonly default: {} | null }
    ? true
    : false;

/** The names of the `{param}` segments of a path template: `'/items/{id}/notes/{note}'` → `'id' | 'note'`. */
export type PathParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParamNames<Rest>
  : never;

/**
 * The `request.params` of an endpoint with the arguments `A` at the path `P`: each argument
 * typed by its schema (integer → `number`, an enum → the union of its values…), required ones
 * and ones with a default always present, the others optional; a path parameter always
 * present. With arguments not known precisely (`Record<string, ArgSchema>`), plain
 * `Record<string, unknown>`.
 */
export type InferParams<A, P extends string = string> = string extends keyof A
  ? Record<string, unknown>
  : Simplify<
      {
        -readonly [K in keyof A as K extends PathParamNames<P>
          ? K
          : AlwaysPresent<A[K]> extends true
            ? K
            : never]: ArgValue<A[K]>;
      } & {
        -readonly [K in keyof A as K extends PathParamNames<P>
          ? never
          : AlwaysPresent<A[K]> extends true
            ? never
            : K]?: ArgValue<A[K]>;
      } & { -readonly [K in Exclude<PathParamNames<P>, keyof A>]: string }
    >;

/** Arguments as an endpoint declares them. */
export type ArgSchemas = Readonly<Record<string, ArgSchema>>;
