import type { MeasuredSide, MetricKind, ScenarioResult } from './scenario';

/** A time in nanoseconds with a readable unit. */
export function formatTime(ns: number): string {
  if (ns < 1_000) return `${ns.toFixed(ns < 100 ? 1 : 0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 2 : 1)} µs`;
  return `${(ns / 1_000_000).toFixed(2)} ms`;
}

/** A rate per second with thousands separators. */
export function formatRate(perSecond: number, unit: string): string {
  return `${Math.round(perSecond).toLocaleString('en-US')} ${unit}`;
}

/** One side's value as shown in tables: time per operation, or operations (requests) per second. */
export function formatSide(side: MeasuredSide, metric: MetricKind, unit = 'ops/s'): string {
  return metric === 'time' ? `${formatTime(side.value)}/op` : formatRate(side.value, unit);
}

/** The ratio in the target's terms, e.g. `1.83× time` or `0.92× throughput`. */
export function formatRatio(row: ScenarioResult): string {
  return `${row.ratio.toFixed(2)}× ${row.metric === 'time' ? 'time' : 'throughput'}`;
}

/** ✅ met, ❌ missed, or — without a target. */
export function formatVerdict(row: ScenarioResult): string {
  if (row.skipped !== undefined) return 'skipped';
  if (row.met === undefined) return '—';
  return row.met ? '✅ met' : '❌ missed';
}

/** The unit of a row's throughput: requests for HTTP rows, operations otherwise. */
export function rateUnit(row: ScenarioResult): string {
  return row.id.startsWith('http') || row.id === 'fetch' ? 'req/s' : 'ops/s';
}
