/**
 * Where the library's time goes in the issue 15 scenarios, and the fixes proposed in the library,
 * keyed by section id: written after profiling (`--cpu-prof` on the scenario process and, through
 * `BENCH_CHILD_CPU_PROF`, on its helper processes; summarised with `bench/profile-summary.ts`).
 * `bench/RESULTS.md` prints them at the end of each section, whatever the verdicts of the run.
 * Figures quoted here come from the profiling runs of 2026-11-23 on the shared 2-core VM (load 4–6):
 * read them as proportions.
 */

const PROPAGATION: readonly string[] = [
  '**Fixed since the profile below (measured before/after in the same machine, 2026-11-23).** (1) The settings ' +
    'container keeps its `storeTimeoutMs` with ONE timer for all its store calls (`StoreDeadlines`, ' +
    '`src/settings/store-calls.ts`) instead of one `setTimeout`/`clearTimeout` per call; the stores arm none by default. ' +
    'Arming a timer on an otherwise idle process cost about 60 µs per write in the paced diagnostic. (2) No history ' +
    'entry is built when the store keeps none; entry ids draw their random part once per process. (3) The value is ' +
    'checked once per write (`ValueCodec.decodeEncoded` reads back the text the codec made, without zod), and each ' +
    'codec remembers its last decoded text (the old value of the next write, a scope’s copy of a global text). ' +
    '(4) `encodeChangeMessage` skips the `TextEncoder` when the message surely fits. (5) `callStore` has no async ' +
    'frame; `PostgresOptionStore` skips the wait for its table once it is known. (6) The idle-pool trap: with a pg ' +
    'Pool, reads run on the change feed’s own connection when it is free (it is warm: the notification just came in ' +
    'on it), falling back to the pool. In-process paced p50 (one change every 2 ms): PostgreSQL write 193 → 63 µs, ' +
    'read 99 → 65 µs; Redis write 188 → 92 µs, read 79 → 25 µs.',
  '**Reader (B), notification → read sent: 70–190 µs of the library against 8–12 µs for the bare listener** ' +
    '(the “B: notification → read sent” phase; the in-process diagnostic below gives 69 µs against 8 µs at one ' +
    'change every 2 ms, 7 µs against 0.4 µs back to back: the path is long rather than heavy, and each of its steps ' +
    'is paid again when the code has gone cold between changes). The chain, in order: `PoolListenerFeed` handler → ' +
    '`RemoteStoreCore.#onMessage` (`decodeChangeMessage`) → `ChangeWatchers.reportChange` (copies the subscriber set ' +
    'per message) → `SettingsCore.#onRemoteChange` (`parseKey`, `ValueLevels.markStale` through the `seeing` generator ' +
    'over every cached level, a `queueMicrotask` refresh) → `LevelView.#read` → `SettingsCore.entry` (async) → ' +
    '`ValueLevel.ensureFresh` → `ValueLevel.read` (key and entry arrays, `#pendingReads` bookkeeping, two closures ' +
    'per read) → `SettingsCore.#queued` → `withStoreTimeout` (**timer 1**) + `KeyedQueue.run` (a tail promise and a ' +
    'clean-up `then` per key) → `callStore` (async try/await) → `PostgresOptionStore.getMany` (`new Set(keys)`) → ' +
    '`RemoteStoreCore.run` → `runStoreOperation` (**timer 2**, a `.catch` wrapper, a new Promise) → ' +
    '`await #ensureTable()` (a microtask turn even when the table is known) → `pool.query`; then `readStoredText` → ' +
    '`codec.decode` (zod `safeParse`) → `deepFreeze`. Under tsx, the `__name` calls on the closures `ValueLevel.read` ' +
    'creates per read are another ~10% (the built package has none).',
  '**Writer (A), `updateValue` → request sent: 150–300 µs against 3–8 µs** (phase “A: start → request sent”; in ' +
    'process 150–160 µs against 4–7 µs paced). In the paced profile `newEntryId` (`src/settings/history/history-entry.ts`) ' +
    'is about half of the writer’s own CPU: one `crypto.getRandomValues` per call plus `Array.from(…).map(padStart).join`; ' +
    'and `WriteCoordinator.#plan` builds the history entry (`new Date().toISOString()`, both values decoded and masked) ' +
    'even when the store has no `commit` and the entry is thrown away. `#plan` also re-validates the value it just ' +
    'validated (`codec.decode(stored.plain)` runs zod again; with the old value, three zod parses per write). The same ' +
    'two timers wrap the store call, and `encodeChangeMessage` runs `TextEncoder.encode` on every message to check ' +
    'the 8000-byte NOTIFY limit.',
  '**Proposed fixes, by expected gain.** (1) `WriteCoordinator.#plan`: build history entries only when they will be ' +
    'stored (`store.commit` and `historyLimit > 0`), and make `newEntryId` cheap (a random per-process prefix drawn ' +
    'once plus the time and a counter, or random bytes drawn 4 KiB at a time; no per-byte `padStart`): about half of ' +
    'the writer’s CPU. (2) One time limit per store call: under a settings container, the package’s stores should not ' +
    'arm their own timer (`runStoreOperation`) on top of `withStoreTimeout` — let the container pass its limit down, ' +
    'or replace per-call timers by one coarse deadline sweep: two timers and two promise wrappers less on both paths. ' +
    '(3) A read fast path: `KeyedQueue.run` — a read must wait for pending writes of its keys, but need not become ' +
    'their tail; when no key is busy, run it directly (no tail promise, no clean-up per key); ' +
    '`PostgresOptionStore.#run`: a flag instead of `await #ensureTable()` once the table is known; no `new Set` for ' +
    'one key. (4) Keep the validated, frozen value for the cache instead of decoding the encoded text again (one zod ' +
    'parse per write instead of three). (5) `encodeChangeMessage`: skip the `TextEncoder` when `message.length × 3 ≤ ' +
    'maxBytes`. (6) Redis: the store sends its Lua script with every `EVAL`; `EVALSHA` (ioredis `defineCommand`) sends ' +
    'the hash.',
  '**The idle-pool trap.** The re-read after a notification goes through the caller’s pool; once the pool has closed ' +
    'its idle connections (pg’s default `idleTimeoutMillis` is 10 s), the first change after a quiet spell opens a ' +
    'connection first: p50 28.7 ms against 11.7 ms warm on this VM (the issue’s outside run: 5.5 ms against 0.9 ms). A ' +
    'bare listener reading on its own LISTEN connection: 2.9 ms. Fix: `PoolListenerFeed` owns a connection that is ' +
    'always open; read the changed keys on it (a `getMany` on the feed’s connection, falling back to the pool while ' +
    'it reconnects), or keep one pool connection warm. Today’s workaround for hosts: `new pg.Pool({ min: 1 })` ' +
    '(pg-pool ≥ 3.7), measured here at 7.2 ms p50.',
];

const SCOPES: readonly string[] = [
  '**Fixed since:** `settings.scope(path)` of a cached level returns the view kept with the level (no path check, ' +
    'no allocation); a codec’s one-entry decode memo spares the second zod parse of the same global text in a cold ' +
    'scope read. Still open: the LRU re-insertion per read and the entries `Map` keyed by setting.',
  '**Warm read (misses ≤ 3×: 3.5–4.6× on this VM).** Profile of random reads over 1,000 cached scopes: ' +
    '`isScopePath` 13% (`settings.scope(path)` splits the path and runs the segment regex on every call), ' +
    '`ValueLevels.level` 10% (the LRU moves the scope to the end of its `Map` — a `delete` and a `set` — on every read ' +
    'of a scope that was not the last one read), `LevelView` creation and `getValue` 10% (a new view per call), ' +
    '`ValueLevel.entry` 8% (a `Map` keyed by the `Framework_Setting`), `SettingsSchema.get` 3%. Holding the view ' +
    'instead reads at about 2.3× the awaited `Map.get`. Fixes: (1) `scope(path)` returns the cached level’s view when ' +
    'the level is cached, checking the path only when a level is created (no split, no regex, no allocation: about a ' +
    'third of the read); (2) a cheaper recency rule (a use mark or clock hand, moving a scope only when it is not among ' +
    'the most recent half) instead of a `Map` re-insertion per read; (3) a level’s entries in an array indexed by the ' +
    'setting’s registration ordinal.',
  '**Cold read (one round trip, as designed).** 20 settings × (scope + global) = 40 keys in one `getMany`. The ' +
    'library then decodes all 40 texts through zod, the 20 global ones included, although the global level has the ' +
    'same texts decoded already; and each cached scope keeps its own copies of the global texts and values (heap ' +
    '≈ 7.8 kB per cached scope, objects parsed and frozen once per scope). Fix: reuse a parent level’s decoded value ' +
    'when the text read is the one it holds (or a one-entry decode memo per setting: same text, same frozen value) — ' +
    'half the zod work of a cold read and about half the heap per scope.',
];

const COLD_START: readonly string[] = [
  '`createRestServer` takes 7–12 ms against 0.9–1.0 ms for Hono’s routes (registration excluded on both sides; ' +
    'partial runs of the ninth session). Both fixes an earlier profile proposed are in: the library’s settings routes ' +
    'share one argument validator per argument record (`sharedArgs`), and a route’s runner is generated at its first ' +
    'request. What remains is the number of routes and first-run cost: the library registers 161 routes for the 20 ' +
    'plugins (the settings routes CONTRACT §13 requires of every plugin: list, one setting, batch, history, export, ' +
    'import, plan, apply, restore…), the Hono app 41; a second `createRestServer` over 20 new plugins in the same ' +
    'process takes 3–4 ms, so about two thirds of the first one is code running for the first time (the ' +
    'interpreter, before any inline cache). Profiled at 50 µs intervals: `RouteRegistry.register` 4.6 ms in all ' +
    '(argument records checked 2.2 ms, path templates, docs), the pipeline’s matcher 2.2 ms. Registration itself (20 ms) is ' +
    'the same on both sides: the same containers; codec compilation is 7–15 ms of it (zod building its internals at ' +
    'first use).',
  'New scopes: 110–130 µs per new scope once warm on this VM (a memory store), flat from the first thousand to the ' +
    'last, and every setting keeps its codec: nothing is compiled per scope. The time is spent decoding the 20 global ' +
    'texts again through zod for every new scope (see Scopes, cold read) and in the read path’s `KeyedQueue` over 40 keys.',
];

const OWN_WORK: readonly string[] = [
  '**Where `server.fetch` spent its own time per GET before this round** (self time of `src/` in a profile of the ' +
    'library alone; the rest is undici building the `Request`, the `Response` and reading the body, as for the ' +
    'floor): `JSON.stringify` of the Setting object (Hono’s handler does the same in `answerSetting`), the bearer ' +
    'check (the same function on both sides), the pipeline’s and the settings controller’s chain of async steps ' +
    '(`#getSetting` awaited the scope check, the entity tag and the Setting object in turn), route matching, ' +
    '`FetchExchange`/`splitRequestUrl`. Measured then: 1.19× (no extra routes) and 0.95× (200 routes) of Hono’s ' +
    'work above the floor.',
  '**Fixed, before → after in the same machine:** (1) the settings controller keeps the JSON text of each global ' +
    'Setting object while its value (frozen, compared by identity) and its control (a revision counter) stay the ' +
    'same, and answers it as is (`JsonText`); (2) a warm GET of one setting waits for nothing: when the entry is ' +
    'fresh and its entity tag known (its text is kept on the entry), the controller answers synchronously, and the ' +
    'pipeline, which runs every stage without a promise when none returns one, answers the request in one call. ' +
    'The floor and Hono now send the very headers the library sends (`ETag`, `Cache-Control`, ' +
    '`X-Content-Type-Options`), so all three give the same answer. Ratio: 1.19× / 0.95× → about 0.40× / 0.42×.',
];

const CHANGE_PATH: readonly string[] = [
  'The fixes are those of the propagation section: (1) no history entry (and no `newEntryId`) when the store keeps ' +
    'none, and a cheap `newEntryId`; (2) one timer per store call; (3) the read fast path through `KeyedQueue`, ' +
    '`callStore` and `#ensureTable`; (4) one zod parse per write. This diagnostic is the one to watch while making ' +
    'them: it does not depend on the network or the machine’s load as much as the propagation rows do.',
];

const BUNDLE: readonly string[] = [
  '**Done: the codecs are on `zod/mini`** (`src/settings/setting-types.ts`, `value-codec.ts`; every message is the ' +
    'codecs’ own, checked identical on 17,640 value/type/option combinations before and after). The root entry went ' +
    'from 135.8 kB to 47.0 kB gzipped, zod’s share of it from 454 kB to 11.8 kB minified; the small app from 131.2 kB ' +
    'to 42.5 kB (Hono’s: 8.5 kB). The trade: `zod/mini` has no methods (`.check(z.refine(…))` instead of `.refine`), ' +
    'loads no locale (no message changes: the codecs set every message), and `SettingTypeDefinition.schema` is a ' +
    '`ZodMiniType` (internal). Without zod at all the root entry would be 43.3 kB: the rest is the REST layer.',
  'The analysis that led there (before the change):',
  '**zod dominates, and mostly because of how it is imported.** `src/settings/setting-types.ts` and `value-codec.ts` ' +
    "write `import { z } from 'zod'`: `z` is an object re-exported by zod’s entry, so esbuild keeps every member — " +
    'every schema kind, the JSON-Schema converters, the locales — 454 kB of zod in a 540 kB app (84%). The same code ' +
    "with `import * as z from 'zod'` keeps 81 kB of zod: the small app goes from 122 kB to 53 kB gzipped. Fixes, by " +
    'gain: (1) the namespace import, two lines (−70 kB gzipped, nothing else changes); (2) the codecs on `zod/mini` ' +
    '(−19 kB more: about 34 kB gzipped; `check`/`refine` functions instead of methods, and no locale loaded, which ' +
    'changes no message since the codecs set every message themselves); (3) or no zod at all — the codecs only use ' +
    'zod to run predicates with custom messages (29 kB gzipped, about 3.5× Hono’s small app; the rest is mostly the ' +
    'argument compiler, 23 kB minified, and the pipeline).',
];

/** Findings by section id. */
export const FINDINGS: Readonly<Record<string, readonly string[]>> = {
  propagation: PROPAGATION,
  'change-path': CHANGE_PATH,
  scopes: SCOPES,
  'cold-start': COLD_START,
  'own-work': OWN_WORK,
  bundle: BUNDLE,
};
