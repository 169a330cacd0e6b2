import { allowPublic, RouteRegistry } from 'commerce-plugin-framework';
import FindMyWay from 'find-my-way';
import { type MatcherSegment, RouteMatcher } from '../../src/rest/registry/route-matcher';
import type { RegisteredRoute } from '../../src/rest/registry/route-registry';
import { colonTemplate, routeTable } from '../fixtures/route-table';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput, ScenarioResult } from '../harness/scenario';
import { throughputRow } from '../harness/time-row';

/** Sample request paths looked up per call, spread evenly over the table. */
const SAMPLES = 64;
const ORIGIN = 'http://localhost';
const SIZES = [20, 200, 2000] as const;

/**
 * The matcher segments of a registered route, built as `RestPipeline` builds them: the REST
 * root and namespace as text, then the route's segments; a parameter is digits-only when
 * every endpoint declaring it declares it `integer`.
 */
function matcherSegments(route: RegisteredRoute): MatcherSegment[] {
  const segments: MatcherSegment[] = [
    { text: 'api' },
    ...route.namespace.split('/').map((text) => ({ text })),
  ];
  for (const segment of route.segments) {
    if (segment.kind === 'static') {
      segments.push({ text: segment.text });
      continue;
    }
    const declared = route.endpoints
      .map((endpoint) => endpoint.argSchemas[segment.name])
      .filter((schema) => schema !== undefined);
    const integer = declared.length > 0 && declared.every((schema) => schema.type === 'integer');
    segments.push({ param: integer ? 'integer' : 'any' });
  }
  return segments;
}

async function measureSize(size: number, settings: RunSettings): Promise<ScenarioResult> {
  const table = routeTable(size);
  const registry = new RouteRegistry();
  const handler = () => null;
  for (const route of table) {
    registry.register(route.namespace, route.template, {
      methods: 'GET',
      permission: allowPublic(),
      args: route.args,
      handler,
    });
  }
  registry.seal();
  const matcher = new RouteMatcher<RegisteredRoute>();
  for (const route of registry.entries()) {
    if (!matcher.add(matcherSegments(route), route))
      throw new Error(`matching: duplicate shape ${route.path}`);
  }

  const router = FindMyWay();
  for (const route of registry.entries()) {
    const path = colonTemplate(route.path);
    router.on('GET', path, () => {}, { path: route.path });
  }

  const step = Math.max(1, Math.floor(table.length / SAMPLES));
  const urls: string[] = [];
  const expected: string[] = [];
  for (let index = 0; urls.length < SAMPLES; index = (index + step) % table.length) {
    const route = table[index]!;
    urls.push(`${ORIGIN}/api/${route.namespace}${route.requestPath}`);
    expected.push(`/api/${route.namespace}${route.template}`);
  }
  const pathStart = ORIGIN.length;

  urls.forEach((url, index) => {
    const path = url.slice(pathStart);
    const ours = matcher.match(path)?.route;
    const theirs = router.find('GET', path)?.store as { path: string } | undefined;
    if (
      ours?.byMethod.get('GET') === undefined ||
      ours.path !== expected[index] ||
      theirs?.path !== expected[index]
    ) {
      throw new Error(`matching: ${path} found ${ours?.path} / ${theirs?.path}, expected ${expected[index]}`);
    }
  });

  let found = 0;
  const comparison = await compareInterleaved(
    {
      label: 'RouteMatcher.match + method',
      run: () => {
        for (let index = 0; index < urls.length; index++) {
          // A fresh string per lookup, as a request's path is: no cached hash.
          const match = matcher.match(urls[index]!.slice(pathStart));
          if (match !== null && match.route.byMethod.get('GET') !== undefined) found++;
        }
      },
    },
    {
      label: 'find-my-way find',
      run: () => {
        for (let index = 0; index < urls.length; index++) {
          if (router.find('GET', urls[index]!.slice(pathStart)) !== null) found++;
        }
      },
    },
    {
      opsPerCall: urls.length,
      rounds: settings.rounds,
      timeMs: settings.timeMs,
      warmupMs: settings.warmupMs,
    },
  );
  if (found === 0) throw new Error('matching: nothing matched');
  return throughputRow(
    {
      id: `matching-${size}`,
      table: size === 200 ? 'targets' : 'growth-matching',
      title:
        size === 200
          ? 'route matching, 200-route registry (static and `{param}` routes)'
          : `route matching, ${size}-route registry`,
      size,
      ...(size === 200
        ? { target: { kind: 'throughput', ratio: 1, text: '≥ 1.0× find-my-way throughput' } as const }
        : {}),
      checks: { routes: size, staticRoutes: table.filter((route) => !route.template.includes('{')).length },
    },
    comparison,
  );
}

/**
 * Route matching: the registry's internal matcher (`RouteMatcher`, what `RestPipeline`
 * builds from `RouteRegistry.entries()`; `RouteRegistry` itself exposes no matching), plus
 * the per-method endpoint lookup, against find-my-way's `find('GET', path)` on the same table.
 * Measured at 20, 200 and 2000 routes.
 */
export const routeMatchingScenario: Scenario = {
  id: 'matching',
  title: 'route matching vs find-my-way',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const rows: ScenarioResult[] = [];
    for (const size of SIZES) rows.push(await measureSize(size, settings));
    return { rows };
  },
};
