import { MemoryOptionStore, type RestServer } from 'commerce-plugin-framework';
import type { Hono } from 'hono';
import { AUTHORIZATION } from '../fixtures/bench-auth';
import { BenchSettings, seedTexts, settingId } from '../fixtures/bench-settings';
import { changingValue } from '../fixtures/changing-value';
import { routeTable } from '../fixtures/route-table';
import { createBenchServer, createHonoApp, SETTINGS_PATH } from '../fixtures/settings-routes';
import { createShopHonoApp, createShopServer, SHOP_SETTINGS_PATH, ShopPlugin } from '../fixtures/shop-plugin';
import { formatTime } from '../harness/format';
import { measureRounds, median, type Side } from '../harness/interleaved';
import {
  meets,
  type ReportSection,
  type RunSettings,
  type Scenario,
  type ScenarioOutput,
  type ScenarioResult,
  type Target,
} from '../harness/scenario';

const SETTINGS = 100;
const OPS = 20;
const SETTING_INDEX = 4;
const URL_TEXT = `http://localhost${SETTINGS_PATH}/${settingId(SETTING_INDEX)}`;
const TARGET: Target = { kind: 'time', ratio: 0.6, text: '≤ 0.6× Hono’s work above the floor' };

/** A GET of one setting as a Fetch request, built anew for every call. */
function newRequest(): Request {
  return new Request(URL_TEXT, { headers: { authorization: AUTHORIZATION } });
}

/** A side that answers `OPS` requests per call and reads every body as text. */
function side(
  label: string,
  handle: (request: Request) => Promise<Response> | Response,
  sink: { bytes: number },
): Side {
  return {
    label,
    run: async () => {
      for (let n = 0; n < OPS; n++) sink.bytes += (await (await handle(newRequest())).text()).length;
    },
  };
}

/** The two sides of one case, ready to answer {@link newRequest}. */
interface Sides {
  readonly server: RestServer;
  readonly app: Hono;
}

interface Case {
  readonly id: string;
  readonly title: string;
  /** Shown in the table's first column. */
  readonly label: string;
  readonly routes: number;
  readonly build: () => Promise<Sides>;
}

/** The fixture plugin (`load()`ed, `bearerTokenAuth`) with `routes` more routes. */
async function benchSides(routes: number): Promise<Sides> {
  const ours = new BenchSettings(SETTINGS, new MemoryOptionStore(seedTexts(SETTINGS)));
  await ours.load();
  const table = routeTable(routes);
  return { server: createBenchServer(ours, table), app: createHonoApp(ours, table) };
}

/**
 * A `Framework_Plugin` subclass holding its own settings class, a plain `authenticate`
 * function, nothing loaded by hand; with `written`, the setting's value changed once through
 * `PUT` first.
 */
async function shopSides(written: boolean): Promise<Sides> {
  const plugin = new ShopPlugin(SETTINGS);
  const server = createShopServer(plugin);
  if (written) {
    const put = await server.fetch(
      new Request(`http://localhost${SHOP_SETTINGS_PATH}/${settingId(SETTING_INDEX)}`, {
        method: 'PUT',
        headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
        body: JSON.stringify({ value: changingValue(SETTING_INDEX, 1) }),
      }),
    );
    if (put.status !== 200) throw new Error(`own-work: the write answered ${put.status} ${await put.text()}`);
  }
  return { server, app: createShopHonoApp(plugin) };
}

const CASES: readonly Case[] = [
  {
    id: 'own-work-get',
    title: 'own work above the floor, `server.fetch` GET one setting',
    label: 'settings routes only',
    routes: 0,
    build: () => benchSides(0),
  },
  {
    id: 'own-work-200-routes',
    title: 'own work above the floor, `server.fetch` GET one setting, 200 more routes',
    label: '200 more routes',
    routes: 200,
    build: () => benchSides(200),
  },
  {
    id: 'own-work-plugin-class',
    title:
      'own work above the floor, `server.fetch` GET one setting, a `Framework_Plugin` subclass with its own settings class and a plain `authenticate`',
    label: 'plugin subclass, own settings class, plain authenticate',
    routes: 0,
    build: () => shopSides(false),
  },
  {
    id: 'own-work-after-write',
    title:
      'own work above the floor, `server.fetch` GET one setting, the same plugin after one PUT of that setting',
    label: 'the same, after one PUT',
    routes: 0,
    build: () => shopSides(true),
  },
];

async function measureCase(
  entry: Case,
  settings: RunSettings,
): Promise<{ row: ScenarioResult; line: string[] }> {
  const { server, app } = await entry.build();

  const response = await server.fetch(newRequest());
  const body = await response.text();
  const honoBody = await (await app.request(newRequest())).text();
  if (response.status !== 200 || body !== honoBody) {
    throw new Error(
      `${entry.id}: the library and Hono answer differently (${response.status} ${body} / ${honoBody})`,
    );
  }
  // The floor answers exactly what the library answers: the same status, body and headers
  // (Content-Type, ETag, Cache-Control, X-Content-Type-Options), prebuilt.
  const headers = Object.fromEntries(response.headers);
  const honoHeaders = Object.fromEntries((await app.request(newRequest())).headers);
  if (JSON.stringify(headers) !== JSON.stringify(honoHeaders)) {
    throw new Error(
      `${entry.id}: the library and Hono answer different headers (${JSON.stringify(headers)} / ${JSON.stringify(honoHeaders)})`,
    );
  }
  const floor = (_request: Request) => new Response(body, { status: 200, headers });

  const sink = { bytes: 0 };
  const { roundsNs } = await measureRounds(
    [
      side('prebuilt Response', floor, sink),
      side('server.fetch', server.fetch, sink),
      side('Hono app.request', (request) => app.request(request), sink),
    ],
    { opsPerCall: OPS, rounds: settings.rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs },
  );
  if (sink.bytes === 0) throw new Error(`${entry.id}: no body was read`);
  const [floorNs, oursNs, honoNs] = roundsNs as [number[], number[], number[]];
  const oursAbove = oursNs.map((ns, round) => ns - floorNs[round]!);
  const honoAbove = honoNs.map((ns, round) => ns - floorNs[round]!);
  // A round where Hono's time is not above the floor's (the floor measured at a busy moment) has
  // no ratio: dividing by a difference of zero or less would turn the noise into any number, of
  // either sign. Those rounds are left out; with none left, the row misses.
  const ratios = oursAbove.flatMap((ns, round) => (honoAbove[round]! > 0 ? [ns / honoAbove[round]!] : []));
  const ratio = ratios.length > 0 ? median(ratios) : Number.POSITIVE_INFINITY;
  const row: ScenarioResult = {
    id: entry.id,
    table: 'targets',
    title: `${entry.title}: (ours − floor) / (Hono − floor)`,
    metric: 'time',
    subject: { label: 'server.fetch − floor', value: median(oursAbove), rounds: oursAbove },
    baseline: { label: 'Hono app.request − floor', value: median(honoAbove), rounds: honoAbove },
    ratio,
    roundRatios: ratios,
    target: TARGET,
    met: meets(TARGET, ratio),
    checks: {
      sameBody: true,
      floorNs: Math.round(median(floorNs)),
      roundsWithoutRatio: oursAbove.length - ratios.length,
      oursNs: Math.round(median(oursNs)),
      honoNs: Math.round(median(honoNs)),
      routes: entry.routes + 3,
    },
  };
  const line = [
    entry.label,
    formatTime(median(floorNs)),
    formatTime(median(oursNs)),
    formatTime(median(honoNs)),
    formatTime(median(oursAbove)),
    formatTime(median(honoAbove)),
    `${ratio.toFixed(2)}×`,
    `${median(oursNs.map((ns, round) => ns / honoNs[round]!)).toFixed(2)}×`,
  ];
  return { row, line };
}

const SECTION_INTRO: readonly string[] = [
  'Whole-request ratios against Hono swing from run to run because most of a `server.fetch` call is not the ' +
    'library’s: building the `Request` (URL parsing, headers), building the `Response` and reading its body. The ' +
    'floor does exactly that and nothing else: a fetch handler answering the same `Request` with a `Response` built ' +
    'from the prebuilt JSON text and headers of the same answer (same status, `Content-Type`, `ETag`, ' +
    '`Cache-Control: no-store`, `X-Content-Type-Options: nosniff`; Hono’s handler sends them too). Each round measures the three ' +
    'sides in rotating order, 20 requests per call, each side building a new `Request` and reading the body as ' +
    'text; the ratio is the median over rounds of (library − floor) / (Hono − floor): the part each one controls. ' +
    'A round where Hono is not slower than the floor (the floor measured at a busy moment of the machine) has no ' +
    'such ratio and is left out (`roundsWithoutRatio` in results.json).',
  'The plugin-subclass cases build the plugin as an application does: a `Framework_Plugin` subclass creating its ' +
    'own `Framework_Abstract_Settings` subclass, `authenticate` a plain function of the `Request` returning the user ' +
    '(not `bearerTokenAuth`), no `load()` by hand; Hono’s middleware calls the same function. The after-write case ' +
    'first changes the value once with a `PUT` through `server.fetch`, then measures GETs.',
  'The 200-route case adds the route table of the matching scenario (half static, half parameterised routes ' +
    'in 10 namespaces) to both the library’s server and the Hono app; the request is the same GET of one setting.',
];

/**
 * The work `server.fetch` adds above a floor that only builds the Request and a prebuilt
 * Response, against the work Hono adds above the same floor, for GET of one setting, without
 * and with 200 more routes.
 */
export const ownWorkScenario: Scenario = {
  id: 'own-work',
  title: 'server.fetch and Hono above a prebuilt-Response floor',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const measured = [];
    for (const entry of CASES) measured.push(await measureCase(entry, settings));
    const section: ReportSection = {
      id: 'own-work',
      title: 'Own work above the floor (`server.fetch` vs Hono)',
      intro: SECTION_INTRO,
      tables: [
        {
          caption: 'Per request (medians over rounds):',
          header: [
            'routes',
            'floor',
            'server.fetch',
            'Hono',
            'library above floor',
            'Hono above floor',
            'ratio above floor',
            'whole-request time ratio',
          ],
          rows: measured.map((item) => item.line),
        },
      ],
    };
    return { rows: measured.map((item) => item.row), sections: [section] };
  },
};
