import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { BenchSettings, settingId } from './fixtures/bench-settings';
import { FakePgPool } from './fixtures/fake-drivers';
const pool = new FakePgPool();
const writer = new BenchSettings(20, new PostgresOptionStore({ client: pool, table: 'options' }), { storeTimeoutMs: Number(process.env.SET ?? 10000) });
await writer.load();
const ID = settingId(0);
const mode = process.env.MODE ?? 'lib';
const times: number[] = [];
for (let i = 0; i < 2000; i++) {
  const e = performance.now() + Number(process.env.GAP ?? 2); while (performance.now() < e);
  const t = process.hrtime.bigint();
  if (mode === 'lib') await writer.updateValue(ID, `w${i}`);
  else if (mode === 'validate') writer.getSetting(ID)!.validateValue(`w${i}`);
  else if (mode === 'floor') await pool.query('WITH written AS (INSERT', ['k', `w${i}`]);
  times.push(Number(process.hrtime.bigint() - t));
}
const s = times.slice(100).sort((x, y) => x - y);
console.log(`${mode} SET ${process.env.SET} GAP ${process.env.GAP} p50 ${(s[s.length >> 1]! / 1000).toFixed(2)} µs`);
