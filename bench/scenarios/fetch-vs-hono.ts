import { MemoryOptionStore } from 'commerce-plugin-framework';
import { AUTHORIZATION } from '../fixtures/bench-auth';
import { BenchSettings, seedTexts, settingId } from '../fixtures/bench-settings';
import { createBenchServer, createHonoApp, SETTINGS_PATH } from '../fixtures/settings-routes';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput } from '../harness/scenario';
import { throughputRow } from '../harness/time-row';

const SETTINGS = 100;
const OPS = 20;
const URL_TEXT = `http://localhost${SETTINGS_PATH}/${settingId(4)}`;

/** A GET of one setting as a Fetch request, built anew for every call (as a host would). */
function newRequest(): Request {
  return new Request(URL_TEXT, { headers: { authorization: AUTHORIZATION } });
}

/**
 * `server.fetch` answering GET of one setting (bearer auth, management-capability check,
 * argument validation, JSON), against the same route written in Hono and called with
 * `app.request`: the same bearer check function, the same settings instance, the same JSON
 * body. Both sides get a new `Request` per call and read the response body as text.
 */
export const fetchVsHonoScenario: Scenario = {
  id: 'fetch',
  title: 'server.fetch GET one setting vs Hono app.request',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const ours = new BenchSettings(SETTINGS, new MemoryOptionStore(seedTexts(SETTINGS)));
    await ours.load();
    const server = createBenchServer(ours);
    const app = createHonoApp(ours);

    const subjectResponse = await server.fetch(newRequest());
    const baselineResponse = await app.request(newRequest());
    const subjectBody = await subjectResponse.text();
    const baselineBody = await baselineResponse.text();
    if (subjectResponse.status !== 200 || baselineResponse.status !== 200 || subjectBody !== baselineBody) {
      throw new Error(
        `fetch: the two sides answer differently (${subjectResponse.status} ${subjectBody} / ${baselineResponse.status} ${baselineBody})`,
      );
    }

    let bytes = 0;
    const comparison = await compareInterleaved(
      {
        label: 'server.fetch',
        run: async () => {
          for (let n = 0; n < OPS; n++) bytes += (await (await server.fetch(newRequest())).text()).length;
        },
      },
      {
        label: 'Hono app.request',
        run: async () => {
          for (let n = 0; n < OPS; n++) bytes += (await (await app.request(newRequest())).text()).length;
        },
      },
      { opsPerCall: OPS, rounds: settings.rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs },
    );
    if (bytes === 0) throw new Error('fetch: no body was read');
    return {
      rows: [
        throughputRow(
          {
            id: 'fetch',
            table: 'targets',
            title: '`server.fetch` GET one setting, bearer auth + permission check',
            target: { kind: 'throughput', ratio: 1, text: '≥ 1.0× Hono throughput' },
            checks: { sameBody: true },
          },
          comparison,
        ),
      ],
    };
  },
};
