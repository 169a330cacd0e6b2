import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AUTHORIZATION } from '../fixtures/bench-auth';
import { settingId } from '../fixtures/bench-settings';
import { SETTINGS_PATH } from '../fixtures/settings-routes';
import { type ChildServer, compareServers, startChildServer } from '../harness/http-load';
import {
  meets,
  type RunSettings,
  type Scenario,
  type ScenarioResult,
  type Target,
} from '../harness/scenario';
import { skippedRow } from '../harness/skipped-row';
import type { ServerKind } from '../servers/server-kinds';

const PATH = `${SETTINGS_PATH}/${settingId(4)}`;

/** One HTTP comparison: the library through an adapter against the same route written for that host. */
interface HttpCase {
  readonly id: string;
  readonly title: string;
  readonly subject: { readonly kind: ServerKind; readonly label: string; readonly adapterSource: string };
  readonly baseline: { readonly kind: ServerKind; readonly label: string };
  readonly target: Target;
}

async function fetchText(server: ChildServer): Promise<{ status: number; body: string }> {
  const response = await fetch(server.origin + PATH, { headers: { authorization: AUTHORIZATION } });
  return { status: response.status, body: await response.text() };
}

async function runCase(httpCase: HttpCase, settings: RunSettings): Promise<ScenarioResult> {
  const adapterFile = fileURLToPath(new URL(`../../${httpCase.subject.adapterSource}`, import.meta.url));
  const common = {
    id: httpCase.id,
    table: 'targets' as const,
    title: httpCase.title,
    metric: 'throughput' as const,
    target: httpCase.target,
  };
  if (!existsSync(adapterFile)) {
    return skippedRow(
      { ...common, subjectLabel: httpCase.subject.label, baselineLabel: httpCase.baseline.label },
      `${httpCase.subject.adapterSource} does not exist yet`,
    );
  }
  const [subject, baseline] = await Promise.all([
    startChildServer(httpCase.subject.kind),
    startChildServer(httpCase.baseline.kind),
  ]);
  try {
    const [ours, theirs] = await Promise.all([fetchText(subject), fetchText(baseline)]);
    if (ours.status !== 200 || theirs.status !== 200 || ours.body !== theirs.body) {
      throw new Error(
        `${httpCase.id}: the servers answer differently (${ours.status} ${ours.body} / ${theirs.status} ${theirs.body})`,
      );
    }
    const comparison = await compareServers(subject, baseline, PATH, settings.httpRounds, {
      connections: settings.httpConnections,
      pipelining: settings.httpPipelining,
      seconds: settings.httpSeconds,
      headers: { authorization: AUTHORIZATION },
    });
    return {
      ...common,
      subject: { label: httpCase.subject.label, value: comparison.subject, rounds: comparison.subjectRounds },
      baseline: {
        label: httpCase.baseline.label,
        value: comparison.baseline,
        rounds: comparison.baselineRounds,
      },
      ratio: comparison.ratio,
      roundRatios: comparison.ratios,
      met: meets(httpCase.target, comparison.ratio),
      checks: {
        sameBody: true,
        subjectServerCpuMicrosPerRequest: Math.round(comparison.subjectCpuMicrosPerRequest),
        baselineServerCpuMicrosPerRequest: Math.round(comparison.baselineCpuMicrosPerRequest),
        connections: settings.httpConnections,
        pipelining: settings.httpPipelining,
        secondsPerRun: settings.httpSeconds,
      },
    };
  } finally {
    await Promise.all([subject.stop(), baseline.stop()]);
  }
}

function httpScenario(httpCase: HttpCase): Scenario {
  return {
    id: httpCase.id,
    title: httpCase.title,
    run: async (settings) => ({ rows: [await runCase(httpCase, settings)] }),
  };
}

/**
 * HTTP end to end on node:http over loopback with keep-alive: the library through
 * `toNodeHandler` against a bare node:http handler doing the same routing, auth and JSON.
 */
export const httpNodeScenario = httpScenario({
  id: 'http-node',
  title: 'HTTP end to end, node:http, GET one setting',
  subject: {
    kind: 'node-adapter',
    label: 'toNodeHandler(server)',
    adapterSource: 'src/adapters/node/index.ts',
  },
  baseline: { kind: 'node-bare', label: 'bare node:http handler' },
  target: { kind: 'throughput', ratio: 0.8, text: '≥ 0.8× bare node:http req/s' },
});

/** The same through the Fastify adapter, against the route written natively in Fastify. */
export const httpFastifyScenario = httpScenario({
  id: 'http-fastify',
  title: 'HTTP end to end, Fastify, GET one setting',
  subject: {
    kind: 'fastify-adapter',
    label: 'fastifyPlugin(server)',
    adapterSource: 'src/adapters/fastify/index.ts',
  },
  baseline: { kind: 'fastify-native', label: 'native Fastify route' },
  target: { kind: 'throughput', ratio: 0.9, text: '≥ 0.9× native Fastify req/s' },
});
