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

/** A size in bytes with a readable unit (kB = 1000 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1_000) return `${Math.round(bytes)} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(bytes < 10_000 ? 2 : 1)} kB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/** One side's value as shown in tables: time per operation, operations (requests) per second, or bytes. */
export function formatSide(side: MeasuredSide, metric: MetricKind, unit = 'ops/s'): string {
  if (metric === 'size') return formatBytes(side.value);
  return metric === 'time' ? `${formatTime(side.value)}/op` : formatRate(side.value, unit);
}

/** A value without the per-operation suffix: a time, a rate or a size. */
export function formatValue(value: number, metric: MetricKind, unit = 'ops/s'): string {
  if (metric === 'size') return formatBytes(value);
  return metric === 'time' ? formatTime(value) : formatRate(value, unit);
}

/** The ratio in the target's terms, e.g. `1.83× time`, `0.92× throughput` or `0.40× size`. */
export function formatRatio(row: ScenarioResult): string {
  return `${row.ratio.toFixed(2)}× ${row.metric}`;
}

/** ✅ met, ❌ missed, or — without a target. */
export function formatVerdict(row: ScenarioResult): string {
  if (row.skipped !== undefined) return row.failed ? '❌ failed' : 'skipped';
  if (row.met === undefined) return '—';
  return row.met ? '✅ met' : '❌ missed';
}

/** The unit of a row's throughput: requests for HTTP rows, writes for write rows, operations otherwise. */
export function rateUnit(row: ScenarioResult): string {
  if (row.id.startsWith('http') || row.id === 'fetch') return 'req/s';
  return row.id.startsWith('writes-') ? 'writes/s' : 'ops/s';
}
