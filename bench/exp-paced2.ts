import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { BenchSettings, settingId } from './fixtures/bench-settings';
import { FakePgPool } from './fixtures/fake-drivers';
const pool = new FakePgPool();
const writer = new BenchSettings(20, new PostgresOptionStore({ client: pool, table: 'options' }));
await writer.load();
const ID = settingId(0);
const times: number[] = [];
for (let i = 0; i < 3000; i++) {
  const e = performance.now() + Number(process.env.GAP ?? 2); while (performance.now() < e);
  const t = process.hrtime.bigint();
  await writer.updateValue(ID, `w${i}`);
  times.push(Number(process.hrtime.bigint() - t));
}
const s = times.slice(100).sort((x, y) => x - y);
console.log(`GAP ${process.env.GAP} p50 ${(s[s.length >> 1]! / 1000).toFixed(1)} µs`);
