/** The fairness notes printed in `bench/RESULTS.md`: how each baseline is made to do the same work. */
export const FAIRNESS_NOTES: readonly string[] = [
  '**Same run, alternating order.** Each scenario runs in a fresh child process, so no scenario inherits ' +
    'another one’s JIT state or garbage. Within it, subject and baseline are measured in the same process ' +
    '(HTTP: each server in its own child process, the load generator in the scenario’s), round by round, the ' +
    'first side alternating between rounds (A B, B A, …). The reported ratio is the median of the per-round ' +
    'ratios, so noise that lasts longer than a round cancels out. Nothing is asserted on times; `npm test` ' +
    'never runs these.',
  '**Source, not build.** The bench runs the TypeScript sources through tsx (esbuild), as the tests do, so ' +
    'no build step is needed on a fresh clone. tsx compiles with esbuild’s `keepNames`, which turns every ' +
    'named closure into a `__name(…)` call (an `Object.defineProperty`) where it is created; the built package ' +
    '(tsup) has no such calls. The one such closure the profile found on a measured path, created per request (`write` in the node adapter’s `serveExchange`, about 3% of its server’s CPU under tsx), has since been inlined.',
  '**Warm `getValue`.** The settings are loaded first (one `getMany`); `getValue` then reads memory. ' +
    'The baseline is `Map.get` of the stored text by the same setting id plus the conversion the settings ' +
    'layer applies to stored integers (decimal check, `Number`, truncation). `getValue` returns a Promise, ' +
    'so the baseline is an `async` function too and both are awaited: the comparison is between two async ' +
    'reads (an awaited plain `Map.get` would mostly measure the cost of `await`). The library converts at ' +
    'load time, so its warm read does no conversion at all: that is the design being measured.',
  '**`server.fetch` vs Hono.** Both sides serve the same routes (settings list, one setting, PUT, system ' +
    'status) from the same settings instance, run the very same bearer check (`bearerTokenAuth` over three ' +
    'tokens, constant-time comparison) and the same management-capability check, and answer the same ' +
    'Setting object as the same JSON text (checked byte for byte before timing). Each call builds a new ' +
    '`Request` and reads the response body as text, on both sides; Hono is called with `app.request(request)`.',
  '**Argument validation vs Ajv.** The five collection arguments (`page`, `per_page`, `search`, `orderby`, ' +
    '`order`) as `Framework_REST_Controller.getCollectionParams` declares them, and the equivalent JSON Schema ' +
    'compiled by Ajv with `coerceTypes` and `useDefaults`. Input: the parsed query ' +
    '`page=3&per_page=25&search=blue+shirt&orderby=name&order=ASC` (two integers to coerce). The library ' +
    'gets the parsed values (a `Map`, as the pipeline passes them) and returns a new params object; Ajv ' +
    'writes coercions into its input, so it gets a shallow copy per call (20–40 ns, counted on its side). ' +
    'Both results are checked equal first. One input shape only: alternating two query shapes sends Ajv ' +
    'into a V8 slow path (about 30× slower) that would flatter the library.',
  '**Route matching vs find-my-way.** Entry used: the internal `RouteMatcher` ' +
    '(`src/rest/registry/route-matcher.ts`), filled exactly as `RestPipeline` fills it from ' +
    '`RouteRegistry.entries()`, plus the per-method endpoint lookup (`byMethod.get`) — `RouteRegistry` ' +
    'itself exposes no matching. find-my-way gets the same table (`{param}` as `:param`) and is asked ' +
    '`find("GET", path)`. The table is half static routes (`/res0`, `/res0/batch`), half parameterised ' +
    '(`/res0/{id}` with an integer id, `/res0/{id}/notes/{note_id}`), 20 routes per namespace under `/api`. ' +
    '64 request paths spread over the table are looked up per call; each lookup gets a freshly sliced path ' +
    'string, as a request would (a reused string literal caches its hash and would flatter `Map` lookups).',
  '**GET all settings, PGlite.** Cold for the store: every iteration runs `settings.load()`, the read a ' +
    'cold GET runs (a GET after a change notification, or the first one of an instance, reads every stale ' +
    'setting in one `getMany`, which is what `load()` does for all of them), then builds the Setting ' +
    'objects as the settings controller does and serialises them. Queries are counted on the PGlite ' +
    'instance: exactly one per GET (checked every run, reported in the growth table). The baseline is the ' +
    'one `SELECT key, value … WHERE key = ANY($1)` of the same keys, then the same JSON built by hand ' +
    '(type conversion without validation), checked byte for byte against the library’s. Both sides are ' +
    'async and awaited. Values: a cycle of the seven types, every setting stored, every third with a default.',
  '**HTTP end to end.** Each server runs alone in its own child process on 127.0.0.1; autocannon ' +
    '(keep-alive, same connections and pipelining for both) runs in the scenario’s process, one server at a time, ' +
    'A B then B A, after a warm-up run of each. Both sides answer GET of one setting with the same bearer ' +
    'check, the same capability check and the same JSON body with `Content-Type` and `Content-Length` ' +
    '(compared before loading). The bare node:http handler and the native Fastify route check the raw ' +
    '`Authorization` header with the same pattern and the same constant-time comparison; the library ' +
    'calls the `bearerTokenAuth` function the host configured.',
];
