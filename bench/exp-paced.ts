import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresOptionStore } from 'commerce-plugin-framework/stores/postgres';
import { BenchSettings, settingId } from './fixtures/bench-settings';
import { FakePgPool } from './fixtures/fake-drivers';

const storeTimeout = Number(process.env.ST ?? 0);
const settingsTimeout = Number(process.env.SET ?? 10000);
const pool = new FakePgPool();
const writer = new BenchSettings(20, new PostgresOptionStore({ client: pool, table: 'options', timeoutMs: storeTimeout }), { storeTimeoutMs: settingsTimeout });
await writer.load();
const ID = settingId(0);
const times: number[] = [];
const hot: number[] = [];
for (let i = 0; i < 600; i++) {
  const t = process.hrtime.bigint();
  await writer.updateValue(ID, `w${i}`);
  times.push(Number(process.hrtime.bigint() - t));
  if (process.env.PACE === "busy") { const e = performance.now() + 2; while (performance.now() < e); await new Promise(r => setImmediate(r)); } else if (process.env.PACE !== "0") await sleep(2);
}
for (let i = 0; i < 2000; i++) {
  const t = process.hrtime.bigint();
  await writer.updateValue(ID, `h${i}`);
  hot.push(Number(process.hrtime.bigint() - t));
}
const med = (a: number[]) => a.slice(100).sort((x, y) => x - y)[Math.floor((a.length - 100) / 2)]! / 1000;
console.log(`paced p50 ${med(times).toFixed(1)} µs, hot p50 ${med(hot).toFixed(1)} µs`);
