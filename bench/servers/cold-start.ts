/**
 * One cold start, in a fresh process (`cold-start.ts <mode> [scopes]`), reported to the parent
 * over IPC as a {@link ColdStartReport}:
 * - `library`: import, construct 20 plugins × 50 settings (memory stores holding every value),
 *   run their registration, `createRestServer`, then the first GET of one setting;
 * - `hono`: the same, with the settings routes written in Hono over the same settings;
 * - `codecs`: only the codec compilation `registerSetting` does for the same 1,000 settings;
 * - `scopes`: one container of 20 settings reading `scopes` new scopes, timing each, and
 *   checking that every setting keeps the codec it was registered with.
 */
import type {
  ColdStartMode,
  ColdStartReport,
  ColdStartTimings,
  ScopeCreation,
} from '../fixtures/cold-start-protocol';
import { COLD_START_PLUGINS, COLD_START_SETTINGS } from '../fixtures/cold-start-protocol';

const PATH = '/api/commerce/v3/plugin0/settings/setting_4';

async function serve(mode: 'library' | 'hono'): Promise<ColdStartTimings> {
  const started = performance.now();
  const [{ MemoryOptionStore }, fixtures, routes, auth] = await Promise.all([
    import('commerce-plugin-framework'),
    import('../fixtures/bench-settings'),
    import('../fixtures/settings-routes'),
    import('../fixtures/bench-auth'),
  ]);
  const imported = performance.now();
  // Node loads its fetch classes (undici) lazily, at the first use of Request, Response or
  // Headers: done here, on both sides, so that no phase below pays it.
  await new Response(new Request('http://localhost/', { headers: new Headers() }).body).text();
  const primed = performance.now();
  const list = Array.from({ length: COLD_START_PLUGINS }, (_unused, index) => {
    const id = `plugin${index}`;
    const store = new MemoryOptionStore(fixtures.seedTexts(COLD_START_SETTINGS, id));
    return new fixtures.BenchSettings(COLD_START_SETTINGS, store, undefined, id);
  });
  const constructed = performance.now();
  for (const settings of list) settings.getId();
  const registered = performance.now();
  const handle =
    mode === 'library'
      ? routes.createBenchServer(list).fetch
      : (() => {
          const app = routes.createHonoApp(list);
          return (request: Request) => app.request(request);
        })();
  const built = performance.now();
  const response = await handle(
    new Request(`http://localhost${PATH}`, { headers: { authorization: auth.AUTHORIZATION } }),
  );
  const body = await response.text();
  const answered = performance.now();
  if (response.status !== 200) throw new Error(`cold start (${mode}): ${response.status} ${body}`);
  return {
    importMs: imported - started,
    fetchClassesMs: primed - imported,
    constructMs: constructed - primed,
    registerMs: registered - constructed,
    serverMs: built - registered,
    firstGetMs: answered - built,
  };
}

async function codecs(): Promise<ColdStartTimings> {
  const [{ compileValueCodec }, { SETTING_TYPE_DEFINITIONS }, fixtures] = await Promise.all([
    import('../../src/settings/value-codec'),
    import('../../src/settings/setting-types'),
    import('../fixtures/bench-settings'),
  ]);
  const started = performance.now();
  for (let plugin = 0; plugin < COLD_START_PLUGINS; plugin++) {
    for (let index = 0; index < COLD_START_SETTINGS; index++) {
      // As registerSetting does: the element codec (to check options), then the setting's codec and its default.
      const definition = SETTING_TYPE_DEFINITIONS.get(fixtures.settingType(index))!;
      compileValueCodec(definition, false, []);
      const codec = compileValueCodec(definition, false, []);
      const fallback = fixtures.settingDefault(index);
      if (fallback !== undefined && codec.problem(fallback) !== undefined)
        throw new Error('codecs: bad default');
    }
  }
  return { codecsMs: performance.now() - started };
}

async function scopes(count: number): Promise<ScopeCreation> {
  const [{ MemoryOptionStore }, fixtures] = await Promise.all([
    import('commerce-plugin-framework'),
    import('../fixtures/bench-settings'),
  ]);
  // The default scope cache (1,000 scopes): older scopes are evicted as new ones come.
  const settings = new fixtures.BenchSettings(20, new MemoryOptionStore(fixtures.seedTexts(20)));
  await settings.load();
  const codecsBefore = [...settings.getSettings().values()].map((setting) => setting.codec);
  const id = fixtures.settingId(0);
  // ms per 1,000 scopes is µs per scope.
  let firstMicros = 0;
  let mark = performance.now();
  for (let index = 0; index < count; index++) {
    await settings.scope(`shop${index}`).getValue(id);
    if (index === 999) firstMicros = performance.now() - mark;
    if (index === count - 1001) mark = performance.now();
  }
  const lastMicros = performance.now() - mark;
  const codecsAfter = [...settings.getSettings().values()].map((setting) => setting.codec);
  return {
    scopes: count,
    firstMicros,
    lastMicros,
    sameCodecs: codecsAfter.every((codec, index) => codec === codecsBefore[index]),
    cachedScopes: settings.getCachedScopeCount(),
  };
}

async function main(): Promise<void> {
  const mode = process.argv[2] as ColdStartMode;
  let report: ColdStartReport;
  if (mode === 'library' || mode === 'hono') report = { timings: await serve(mode) };
  else if (mode === 'codecs') report = { timings: await codecs() };
  else if (mode === 'scopes') report = { scopes: await scopes(Number(process.argv[3])) };
  else throw new Error(`cold-start.ts: unknown mode ${mode}`);
  await new Promise<void>((resolve, reject) =>
    process.send?.(report, (error: Error | null) => (error ? reject(error) : resolve())),
  );
}

await main();
