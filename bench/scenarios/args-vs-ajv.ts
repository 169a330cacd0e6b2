import { isDeepStrictEqual } from 'node:util';
import Ajv from 'ajv';
import { type ArgSchema, Framework_REST_Controller } from 'commerce-plugin-framework';
import { compileArgs } from 'commerce-plugin-framework/adapter-kit';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput } from '../harness/scenario';
import { timeRow } from '../harness/time-row';

const OPS = 1000;

/** A list controller that keeps the library's standard collection arguments. */
class BenchListController extends Framework_REST_Controller {
  registerRoutes(): void {}
}

/** The five collection arguments of a list route, as `Framework_REST_Controller.getCollectionParams` declares them. */
const COLLECTION_ARGS: Readonly<Record<string, ArgSchema>> = new BenchListController(
  'bench/v1',
  'items',
).getCollectionParams();

/** The equivalent JSON Schema for Ajv (draft-07, the Ajv default; the keywords used mean the same there). */
const COLLECTION_SCHEMA = {
  type: 'object',
  properties: {
    page: { type: 'integer', default: 1, minimum: 1 },
    per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
    search: { type: 'string' },
    orderby: { type: 'string', enum: ['date', 'name', 'modified'], default: 'date' },
    order: { type: 'string', enum: ['ASC', 'DESC'], default: 'DESC' },
  },
} as const;

/** The parsed query of `?page=3&per_page=25&search=blue+shirt&orderby=name&order=ASC`: two integers to coerce. */
const QUERY: Readonly<Record<string, string>> = {
  page: '3',
  per_page: '25',
  search: 'blue shirt',
  orderby: 'name',
  order: 'ASC',
};

/**
 * Validation with coercion of a 5-argument list query: the library's compiled argument
 * validator (`compileArgs(...).run`, given the parsed query values as the pipeline passes
 * them) against an Ajv validator compiled from the equivalent JSON Schema with `coerceTypes`
 * and `useDefaults`. Both start from the same parsed values. Ajv writes the coerced values
 * into its input, so it gets a shallow copy per call (about 20 ns, counted on its side); the
 * library leaves its input alone and returns a new params object.
 */
export const argsVsAjvScenario: Scenario = {
  id: 'args',
  title: 'argument validation of a 5-argument list query vs Ajv',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const validator = compileArgs(COLLECTION_ARGS, 'bench list route');
    const ajv = new Ajv({ coerceTypes: true, useDefaults: true });
    const validate = ajv.compile(COLLECTION_SCHEMA);
    const parsed = new Map(Object.entries(QUERY));

    const ours = () => validator.run(null, undefined, parsed, null);
    const theirs = () => {
      const data: Record<string, unknown> = { ...QUERY };
      if (!validate(data)) throw new Error(`args: Ajv rejected ${JSON.stringify(QUERY)}`);
      return data;
    };
    if (!isDeepStrictEqual(ours(), theirs())) {
      throw new Error(
        `args: the validators disagree: ${JSON.stringify(ours())} / ${JSON.stringify(theirs())}`,
      );
    }

    let sink: unknown;
    const comparison = await compareInterleaved(
      {
        label: 'compileArgs(…).run',
        run: () => {
          for (let n = 0; n < OPS; n++) sink = ours();
        },
      },
      {
        label: 'Ajv (coerceTypes, useDefaults)',
        run: () => {
          for (let n = 0; n < OPS; n++) sink = theirs();
        },
      },
      { opsPerCall: OPS, rounds: settings.rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs },
    );
    if (sink === undefined) throw new Error('args: nothing validated');
    return {
      rows: [
        timeRow(
          {
            id: 'args',
            table: 'targets',
            title: 'argument validation, 5-argument list query (coercion included)',
            target: { kind: 'time', ratio: 1.5, text: '≤ 1.5× Ajv time' },
          },
          comparison,
        ),
      ],
    };
  },
};
