import { PGlite } from '@electric-sql/pglite';
import { Framework_REST_API_Settings, type SettingObject } from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import {
  BenchSettings,
  seedTexts,
  settingDefault,
  settingId,
  settingType,
  storageKey,
} from '../fixtures/bench-settings';
import { countPgliteStatements } from '../fixtures/tap-queries';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput, ScenarioResult } from '../harness/scenario';
import { timeRow } from '../harness/time-row';

const SIZES = [10, 100, 1000] as const;
const TRUE_TEXT = /^(?:yes|true|1)$/i;

type QueryCounter = ReturnType<typeof countPgliteStatements>;

/** What a hand-written handler knows about each setting: everything but the value. */
interface SettingShape {
  readonly key: string;
  readonly base: Omit<SettingObject, 'value' | 'control'>;
  readonly decode: (text: string) => unknown;
}

function decoderFor(index: number): (text: string) => unknown {
  switch (settingType(index)) {
    case 'integer':
      return (text) => Math.trunc(Number(text));
    case 'float':
      return Number;
    case 'boolean':
      return (text) => TRUE_TEXT.test(text);
    case 'object':
      return (text) => JSON.parse(text);
    default:
      return (text) => text;
  }
}

function settingShapes(count: number): SettingShape[] {
  const shapes: SettingShape[] = [];
  for (let index = 0; index < count; index++) {
    shapes.push({
      key: storageKey(index),
      base: {
        id: settingId(index),
        type: settingType(index),
        name: `Setting ${index}`,
        description: `Benchmark setting number ${index}`,
        is_multi: false,
        options: [],
        default: settingDefault(index) ?? null,
      },
      decode: decoderFor(index),
    });
  }
  return shapes;
}

async function measureSize(
  database: PGlite,
  counter: QueryCounter,
  size: number,
  settings: RunSettings,
): Promise<ScenarioResult> {
  const table = `bench_options_${size}`;
  const store = new PostgresOptionStore({ client: database, table });
  await store.get('create-the-table');
  const texts = seedTexts(size);
  await database.query(
    `INSERT INTO "${table}" (key, value) SELECT * FROM unnest($1::text[], $2::text[]) ` +
      'ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value',
    [Object.keys(texts), Object.values(texts)],
  );

  const ours = new BenchSettings(size, store);
  const controller = new Framework_REST_API_Settings(ours);
  await ours.load();
  // The first load subscribes to the store's change feed, which then asks for one re-read: let it pass.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const coldGet = async (): Promise<string> => {
    await ours.load();
    const items: SettingObject[] = [];
    for (const setting of ours.getSettings().values()) items.push(controller.prepareSettingItem(setting));
    return JSON.stringify(items);
  };

  const shapes = settingShapes(size);
  const keys = shapes.map((shape) => shape.key);
  const select = `SELECT key, value FROM "${table}" WHERE key = ANY($1::text[])`;
  const handWritten = async (): Promise<string> => {
    const { rows } = await database.query<{ key: string; value: string }>(select, [keys]);
    const found = new Map<string, string>();
    for (const row of rows) found.set(row.key, row.value);
    const items: SettingObject[] = [];
    for (const shape of shapes) {
      const text = found.get(shape.key);
      const value = text === undefined ? null : shape.decode(text);
      items.push({ ...shape.base, value: value ?? shape.base.default, control: null });
    }
    return JSON.stringify(items);
  };

  const before = counter.count();
  const probes = 5;
  let subjectBody = '';
  for (let n = 0; n < probes; n++) subjectBody = await coldGet();
  const queriesPerGet = (counter.count() - before) / probes;
  if (queriesPerGet !== 1) throw new Error(`list-pglite: a cold GET ran ${queriesPerGet} queries, not 1`);
  const baselineBody = await handWritten();
  if (subjectBody !== baselineBody) throw new Error(`list-pglite: the bodies differ at ${size} settings`);

  const comparison = await compareInterleaved(
    { label: 'settings.load() + Setting objects + JSON', run: coldGet },
    { label: 'SELECT … = ANY($1) + same JSON by hand', run: handWritten },
    { opsPerCall: 1, rounds: settings.rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs },
  );
  ours.dispose();
  await store.close();
  return timeRow(
    {
      id: `list-pglite-${size}`,
      table: size === 100 ? 'targets' : 'growth-list',
      title:
        size === 100
          ? 'GET all settings, 100 settings, PGlite (cold)'
          : `GET all settings, ${size} settings, PGlite`,
      size,
      ...(size === 100
        ? { target: { kind: 'time', ratio: 1.5, text: 'one round trip; ≤ 1.5× baseline time' } as const }
        : {}),
      checks: { queriesPerGet, bodyBytes: subjectBody.length },
    },
    comparison,
  );
}

/**
 * GET all settings from PGlite, cold for the store: every iteration runs `settings.load()`
 * (the read a cold GET runs: one `getMany` for every setting, decoded through the type
 * table), then builds the Setting objects as the settings controller does and serialises
 * them. The baseline runs the one `SELECT key, value … WHERE key = ANY($1)` of the same keys
 * and builds the same JSON by hand. The number of queries per GET is counted and must be 1.
 */
export const listPgliteScenario: Scenario = {
  id: 'list',
  title: 'GET all settings from PGlite vs one SELECT',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const database = await PGlite.create();
    const counter = countPgliteStatements(database);
    try {
      const rows: ScenarioResult[] = [];
      for (const size of SIZES) rows.push(await measureSize(database, counter, size, settings));
      return { rows };
    } finally {
      await database.close();
    }
  },
};
