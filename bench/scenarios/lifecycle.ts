/**
 * The settings lifecycle at scale on PostgreSQL (issues 21 and 22): a migration of 100,000
 * scopes × 20 settings (one rename, one remap) against bare batched SQL making the same changes
 * with the same history rows; an export of the same size against a bare keyset SELECT streamed
 * to JSON; and plan + apply of 10,000 changes over 1,000 scopes against bare SQL doing the same
 * upserts and history inserts in one transaction. Heap growth is sampled during the migration
 * and the export. Skipped without `DATABASE_URL`.
 */
import {
  defineMigration,
  Framework_Abstract_Settings,
  type OptionStore,
  remapOptions,
  renameSetting,
  type SettingsDocument,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import pg from 'pg';
import { optionTableName } from '../../src/storage/postgres/table-name';
import { withBenchSchema } from '../fixtures/bench-schema';
import { formatBytes, formatTime } from '../harness/format';
import { heapUsedAfterGc } from '../harness/heap';
import { median } from '../harness/interleaved';
import type {
  ReportSection,
  RunSettings,
  Scenario,
  ScenarioOutput,
  ScenarioResult,
  Target,
} from '../harness/scenario';
import { postgresUrl } from '../harness/services';
import { skippedRow } from '../harness/skipped-row';

const PLUGIN = 'bench_life';
const BASE = `framework_${PLUGIN}`;
const SETTINGS = 20;
const MIGRATION_TARGET: Target = {
  kind: 'time',
  ratio: 3,
  text: '≤ 3× the batched SQL; heap growth ≤ 64 MiB',
};
const EXPORT_TARGET: Target = {
  kind: 'time',
  ratio: 3,
  text: '≤ 3× the bare SELECT streamed to JSON; heap growth ≤ 128 MiB',
};
const APPLY_TARGET: Target = {
  kind: 'time',
  ratio: 3,
  text: '≤ 3× the same upserts + history inserts in one transaction',
};
const MIGRATION_HEAP = 64 * 2 ** 20;
const EXPORT_HEAP = 128 * 2 ** 20;

/** The ids of the plain string settings s02…s19 (the first two are `name`/`title` and `mode`). */
const PLAIN_IDS = Array.from(
  { length: SETTINGS - 2 },
  (_, index) => `s${String(index + 2).padStart(2, '0')}`,
);

/** Version 2 of settings seeded at version 1 (`name`, `mode` with options a/b, 18 strings): `name` became `title`, the modes `a`/`b` became `x`/`y`. */
class LifeV2 extends Framework_Abstract_Settings {
  constructor(store: OptionStore, options: SettingsOptions = {}) {
    super(PLUGIN, store, {
      schemaVersion: 2,
      migrateOnLoad: false,
      migrations: [
        defineMigration(
          2,
          'rename and remap',
          renameSetting('name', 'title'),
          remapOptions('mode', { a: 'x', b: 'y' }),
        ),
      ],
      ...options,
    });
  }
  protected registerSettings(): void {
    this.registerSetting('title', 'string');
    this.registerSetting('mode', 'string', { options: ['x', 'y'] });
    for (const id of PLAIN_IDS) this.registerSetting(id, 'string');
  }
}

/** Samples the heap every 25 ms while `work` runs: the peak above the heap before it (after a full GC). */
async function peakHeapGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const before = heapUsedAfterGc();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 25);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { result, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

/** Fills `table` with version-1 values: the global level and `scopes` scopes, every setting at each, made in the server. */
async function seedVersion1(pool: pg.Pool, table: string, scopes: number): Promise<void> {
  await new PostgresOptionStore({ client: pool, table }).getMany(['create-the-table']);
  const sql = optionTableName(table).sql;
  const ids = ['name', 'mode', ...PLAIN_IDS];
  const values = ids.map((id) => (id === 'mode' ? 'a' : `${id} value`));
  await pool.query(
    `INSERT INTO ${sql} (key, value) SELECT '${BASE}_' || id || CASE WHEN n = 0 THEN '' ELSE '@shop' || n END, value ` +
      'FROM unnest($1::text[], $2::text[]) AS s(id, value), generate_series(0, $3) AS n',
    [ids, values, scopes],
  );
  await pool.query(`INSERT INTO ${sql} (key, value) VALUES ($1, '1')`, [`${BASE}:schema`]);
  await pool.query(`ANALYZE ${sql}`);
}

/**
 * The floor of the migration: the same changes in bare SQL, 1,000 rows per statement — keyset
 * pages of the `name` and `mode` rows; for each page the renamed rows moved (delete + insert),
 * the remapped rows updated, and the same history rows (JSON entries, one per changed text)
 * inserted in the log table; each page one transaction.
 */
async function bareMigration(pool: pg.Pool, table: string): Promise<number> {
  const sql = optionTableName(table).sql;
  const log = optionTableName(table).logSql;
  let changed = 0;
  let seq = 0;
  /** Inserts history rows as the store would (entry and tag), numbered after the previous ones. */
  const logRows = async (client: pg.PoolClient, history: string[], tags: string[]) => {
    await client.query(
      `INSERT INTO ${log} (log, seq, entry, tag) SELECT 'bare', $3::bigint + n, e, g FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(e, g, n)`,
      [history, tags, seq],
    );
    seq += history.length;
  };
  const page = async (prefix: string, work: (rows: { key: string; value: string }[]) => Promise<void>) => {
    let after: string | null = null;
    for (;;) {
      const { rows }: { rows: { key: string; value: string }[] } = await pool.query(
        `SELECT key, value FROM ${sql} WHERE ($1::text IS NULL OR key > $1) AND key >= $2 AND starts_with(key, $2) ORDER BY key LIMIT 1000`,
        [after, prefix],
      );
      if (rows.length === 0) return;
      await work(rows);
      after = rows[rows.length - 1]!.key;
    }
  };
  const entries = (rows: { key: string }[], make: (key: string) => string) =>
    rows.map((row) => make(row.key));
  await page(`${BASE}_name`, async (rows) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DELETE FROM ${sql} WHERE key = ANY($1)`, [rows.map((row) => row.key)]);
      await client.query(`INSERT INTO ${sql} (key, value) SELECT * FROM unnest($1::text[], $2::text[])`, [
        rows.map((row) => row.key.replace('_name', '_title')),
        rows.map((row) => row.value),
      ]);
      const history = [
        ...entries(rows, (key) =>
          JSON.stringify({ setting_id: 'name', key, action: 'delete', via: 'migration' }),
        ),
        ...entries(rows, (key) =>
          JSON.stringify({ setting_id: 'title', key, action: 'update', via: 'migration' }),
        ),
      ];
      await logRows(client, history, [...rows.map(() => 'name'), ...rows.map(() => 'title')]);
      await client.query('COMMIT');
      changed += rows.length * 2;
    } finally {
      client.release();
    }
  });
  await page(`${BASE}_mode`, async (rows) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `UPDATE ${sql} SET value = CASE value WHEN 'a' THEN 'x' WHEN 'b' THEN 'y' ELSE value END WHERE key = ANY($1)`,
        [rows.map((row) => row.key)],
      );
      const history = entries(rows, (key) =>
        JSON.stringify({ setting_id: 'mode', key, old: 'a', new: 'x', via: 'migration' }),
      );
      await logRows(
        client,
        history,
        rows.map(() => 'mode'),
      );
      await client.query('COMMIT');
      changed += rows.length;
    } finally {
      client.release();
    }
  });
  return changed;
}

/** A single-measurement time row (the subject and baseline each run once on data of their own). */
function onceRow(
  id: string,
  title: string,
  target: Target,
  subject: { label: string; ns: number },
  baseline: { label: string; ns: number },
  met: boolean,
  checks: ScenarioResult['checks'],
): ScenarioResult {
  const ratio = subject.ns / baseline.ns;
  return {
    id,
    table: 'targets',
    title,
    metric: 'time',
    subject: { label: subject.label, value: subject.ns, rounds: [subject.ns] },
    baseline: { label: baseline.label, value: baseline.ns, rounds: [baseline.ns] },
    ratio,
    roundRatios: [ratio],
    target,
    met: met && ratio <= target.ratio,
    ...(checks === undefined ? {} : { checks }),
  };
}

async function measureMigration(pool: pg.Pool, schema: string, scopes: number): Promise<ScenarioResult> {
  const subjectTable = `${schema}.migrate_subject`;
  const floorTable = `${schema}.migrate_floor`;
  await seedVersion1(pool, subjectTable, scopes);
  await seedVersion1(pool, floorTable, scopes);
  await new PostgresOptionStore({ client: pool, table: floorTable }).readLogPage('create', { limit: 1 });
  const store = new PostgresOptionStore({ client: pool, table: subjectTable });
  const settings = new LifeV2(store);
  const started = performance.now();
  const { result: report, growth } = await peakHeapGrowth(() => settings.migrate());
  const subjectNs = (performance.now() - started) * 1e6;
  const floorStarted = performance.now();
  const floorChanged = await bareMigration(pool, floorTable);
  const floorNs = (performance.now() - floorStarted) * 1e6;
  const changed = report.steps.reduce((sum, step) => sum + step.changed, 0);
  if (changed !== floorChanged)
    throw new Error(`lifecycle: the migration changed ${changed} texts, the floor ${floorChanged}`);
  settings.dispose();
  await store.close();
  return onceRow(
    'lifecycle-migration',
    `migration of ${scopes.toLocaleString('en-US')} scopes × ${SETTINGS} settings (one rename, one remap), PostgreSQL`,
    MIGRATION_TARGET,
    { label: `settings.migrate(), heap growth ${formatBytes(growth)}`, ns: subjectNs },
    { label: 'bare batched SQL, 1,000 rows per statement, same history rows', ns: floorNs },
    growth <= MIGRATION_HEAP,
    { levels: report.steps[0]?.levels ?? 0, changed, heapGrowthBytes: Math.round(growth) },
  );
}

async function measureExport(pool: pg.Pool, schema: string, scopes: number): Promise<ScenarioResult> {
  const table = `${schema}.migrate_subject`;
  const store = new PostgresOptionStore({ client: pool, table });
  const settings = new LifeV2(store);
  let bytes = 0;
  const started = performance.now();
  const { growth } = await peakHeapGrowth(async () => {
    for await (const chunk of settings.exportSettingsText()) bytes += chunk.length;
  });
  const subjectNs = (performance.now() - started) * 1e6;
  // The floor: the same rows in keyset pages of 20,000, each level's values as JSON text.
  const sql = optionTableName(table).sql;
  let floorBytes = 0;
  const floorStarted = performance.now();
  let after = `${BASE}_`;
  for (;;) {
    const { rows } = await pool.query<{ key: string; value: string }>(
      `SELECT key, value FROM ${sql} WHERE key > $1 AND starts_with(key, $2) ORDER BY key LIMIT 20000`,
      [after, `${BASE}_`],
    );
    if (rows.length === 0) break;
    const levels = new Map<string, Record<string, string>>();
    for (const row of rows) {
      const at = row.key.indexOf('@');
      const id = row.key.slice(BASE.length + 1, at === -1 ? undefined : at);
      const level = at === -1 ? '' : row.key.slice(at + 1);
      const values = levels.get(level) ?? {};
      values[id] = row.value;
      levels.set(level, values);
    }
    for (const [level, values] of levels)
      floorBytes += JSON.stringify(level).length + JSON.stringify(values).length;
    after = rows[rows.length - 1]!.key;
  }
  const floorNs = (performance.now() - floorStarted) * 1e6;
  settings.dispose();
  await store.close();
  if (floorBytes === 0 || bytes === 0) throw new Error('lifecycle: nothing exported');
  return onceRow(
    'lifecycle-export',
    `export of ${scopes.toLocaleString('en-US')} scopes × ${SETTINGS} settings, PostgreSQL`,
    EXPORT_TARGET,
    {
      label: `settings.exportSettingsText() (${formatBytes(bytes)}), heap growth ${formatBytes(growth)}`,
      ns: subjectNs,
    },
    { label: 'keyset SELECT of the same rows, each level as JSON', ns: floorNs },
    growth <= EXPORT_HEAP,
    { bytes, heapGrowthBytes: Math.round(growth) },
  );
}

async function measurePlanApply(pool: pg.Pool, schema: string, rounds: number): Promise<ScenarioResult> {
  const scopes = 1000;
  const perScope = 10;
  const table = `${schema}.apply_subject`;
  const floorTable = `${schema}.apply_floor`;
  for (const each of [table, floorTable]) await seedVersion1(pool, each, scopes);
  await pool.query(`UPDATE ${optionTableName(table).sql} SET value = '2' WHERE key = $1`, [`${BASE}:schema`]);
  const store = new PostgresOptionStore({ client: pool, table });
  const settings = new LifeV2(store);
  const floorStore = new PostgresOptionStore({ client: pool, table: floorTable });
  await floorStore.readLogPage('create', { limit: 1 });
  const changedIds = PLAIN_IDS.slice(0, perScope);
  const document = (round: number): SettingsDocument => {
    const levels: Record<string, Record<string, unknown>> = {};
    for (let n = 1; n <= scopes; n++) {
      levels[`shop${n}`] = Object.fromEntries(changedIds.map((id) => [id, `${id} round ${round}`]));
    }
    return { format: 'commerce-plugin-settings', version: 1, plugin: PLUGIN, schema_version: 2, levels };
  };
  const floorSql = optionTableName(floorTable);
  const subjectNs: number[] = [];
  const floorNs: number[] = [];
  // Round 0 warms both sides up and is not counted: the first plan and apply of a process run
  // their code for the first time and prepare their statements (3.46× in its first round in a
  // run whose later rounds gave 2.66–3.23×).
  for (let round = 0; round <= rounds; round++) {
    const started = performance.now();
    const plan = await settings.planImport(document(round));
    if (plan.changes.length !== scopes * perScope || plan.errors.length > 0) {
      throw new Error(`lifecycle: planned ${plan.changes.length} changes, ${plan.errors.length} errors`);
    }
    await settings.applyPlan(plan);
    const subjectRoundNs = (performance.now() - started) * 1e6;
    const keys: string[] = [];
    const values: string[] = [];
    const history: string[] = [];
    const floorStarted = performance.now();
    for (let n = 1; n <= scopes; n++) {
      for (const id of changedIds) {
        keys.push(`${BASE}_${id}@shop${n}`);
        values.push(`${id} round ${round}`);
        history.push(
          JSON.stringify({ setting_id: id, scope: `shop${n}`, new: `${id} round ${round}`, via: 'import' }),
        );
      }
    }
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${floorSql.sql} (key, value) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [keys, values],
      );
      await client.query(
        `INSERT INTO ${floorSql.logSql} (log, seq, entry, tag) SELECT 'bare', $3::bigint + n, e, g FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t(e, g, n)`,
        [history, history.map(() => 'setting'), round * history.length],
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    if (round > 0) {
      subjectNs.push(subjectRoundNs);
      floorNs.push((performance.now() - floorStarted) * 1e6);
    }
  }
  settings.dispose();
  await store.close();
  const ratios = subjectNs.map((ns, index) => ns / floorNs[index]!);
  const ratio = median(ratios);
  return {
    id: 'lifecycle-plan-apply',
    table: 'targets',
    title: `plan + apply of ${(scopes * perScope).toLocaleString('en-US')} changes over ${scopes.toLocaleString('en-US')} scopes, PostgreSQL`,
    metric: 'time',
    subject: {
      label: 'settings.planImport(document) + applyPlan(plan)',
      value: median(subjectNs),
      rounds: subjectNs,
    },
    baseline: {
      label: 'bare upserts + history inserts in one transaction',
      value: median(floorNs),
      rounds: floorNs,
    },
    ratio,
    roundRatios: ratios,
    target: APPLY_TARGET,
    met: ratio <= APPLY_TARGET.ratio,
  };
}

const INTRO: readonly string[] = [
  'A PostgreSQL table of the bench’s own holds a plugin’s 20 settings at the global level and at every scope ' +
    '(`shop1`…), stored at schema version 1 (`name`, `mode` with options `a`/`b`, 18 strings), made in the server.',
  '**Migration**: `settings.migrate()` of a version-2 container (`name` renamed `title`, `mode` remapped to ' +
    '`x`/`y`): every level streamed a page of keys at a time, each level’s changes, history entries and marker one ' +
    'conditional write, levels batched per commit. The floor makes the same changes in bare SQL on a copy of the table: ' +
    'keyset pages of 1,000 rows, the renamed rows moved, the remapped rows updated, the same number of history rows ' +
    'inserted, one transaction per page. Each side runs once on its own copy (the data changes); the heap is sampled ' +
    'every 25 ms during the migration (the peak above the heap before it, after a full GC).',
  '**Export**: `settings.exportSettingsText()` of the migrated table (the document a batch of levels at a time) ' +
    'against keyset SELECTs of the same rows (20,000 per page) turned into JSON per level.',
  '**Plan + apply**: 1,000 scopes; a document changing 10 settings at each (10,000 changes), planned and applied ' +
    '(one commit with a precondition per key and 10,000 history entries) against the same upserts and history inserts ' +
    'in one transaction of bare SQL, after one round of both that is not counted; rounds alternate the values so ' +
    'every round changes everything.',
];

/** The lifecycle at scale: migration, export, plan + apply. */
export const lifecycleScenario: Scenario = {
  id: 'lifecycle',
  title: 'settings lifecycle at scale: migration, export, plan + apply (PostgreSQL)',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    const service = postgresUrl();
    const scopes = settings.scopeCounts[settings.scopeCounts.length - 1] ?? 100_000;
    if ('skip' in service) {
      const common = {
        table: 'targets' as const,
        metric: 'time' as const,
        subjectLabel: 'library',
        baselineLabel: 'bare SQL',
      };
      return {
        rows: [
          skippedRow(
            { ...common, id: 'lifecycle-migration', title: 'migration', target: MIGRATION_TARGET },
            service.skip,
          ),
          skippedRow(
            { ...common, id: 'lifecycle-export', title: 'export', target: EXPORT_TARGET },
            service.skip,
          ),
          skippedRow(
            { ...common, id: 'lifecycle-plan-apply', title: 'plan + apply', target: APPLY_TARGET },
            service.skip,
          ),
        ],
      };
    }
    return withBenchSchema(service.url, async (schema) => {
      const pool = new pg.Pool({ connectionString: service.url, max: 4 });
      pool.on('error', () => {});
      try {
        const migration = await measureMigration(pool, schema, scopes);
        const exported = await measureExport(pool, schema, scopes);
        const applied = await measurePlanApply(pool, schema, Math.min(settings.rounds, 5));
        const rows = [migration, exported, applied];
        const section: ReportSection = {
          id: 'lifecycle',
          title: 'The settings lifecycle at scale',
          intro: INTRO,
          tables: [
            {
              caption: '',
              header: ['row', 'library', 'floor', 'ratio', 'checks'],
              rows: rows.map((row) => [
                row.title,
                formatTime(row.subject.value),
                formatTime(row.baseline.value),
                `${row.ratio.toFixed(2)}×`,
                Object.entries(row.checks ?? {})
                  .map(
                    ([name, value]) =>
                      `${name}: ${typeof value === 'number' && name.endsWith('Bytes') ? formatBytes(value) : value}`,
                  )
                  .join(', '),
              ]),
            },
          ],
        };
        return { rows, sections: [section] };
      } finally {
        await pool.end();
      }
    });
  },
};
