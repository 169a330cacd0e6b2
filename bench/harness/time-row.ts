import type { InterleavedComparison } from './interleaved';
import { meets, type ScenarioResult, type Target } from './scenario';

/** What a time-per-operation row needs besides the measurements. */
export interface TimeRowInfo {
  readonly id: string;
  readonly table: ScenarioResult['table'];
  readonly title: string;
  readonly size?: number;
  readonly target?: Target;
  readonly checks?: ScenarioResult['checks'];
}

/** Turns an interleaved comparison into a result row (metric: time per operation, lower is better). */
export function timeRow(info: TimeRowInfo, comparison: InterleavedComparison): ScenarioResult {
  const ratio = comparison.timeRatio;
  const target = info.target;
  return {
    id: info.id,
    table: info.table,
    title: info.title,
    ...(info.size === undefined ? {} : { size: info.size }),
    metric: 'time',
    subject: {
      label: comparison.subject.label,
      value: comparison.subject.medianNs,
      rounds: comparison.subject.roundsNs,
    },
    baseline: {
      label: comparison.baseline.label,
      value: comparison.baseline.medianNs,
      rounds: comparison.baseline.roundsNs,
    },
    ratio,
    roundRatios: comparison.roundRatios,
    ...(target === undefined ? {} : { target, met: meets(target, ratio) }),
    ...(info.checks === undefined ? {} : { checks: info.checks }),
  };
}

/** The same row read as throughput (operations per second, higher is better): ratio = baseline time / subject time. */
export function throughputRow(info: TimeRowInfo, comparison: InterleavedComparison): ScenarioResult {
  const perSecond = (ns: number) => 1e9 / ns;
  const ratios = comparison.roundRatios.map((ratio) => 1 / ratio);
  const ratio = 1 / comparison.timeRatio;
  const target = info.target;
  return {
    id: info.id,
    table: info.table,
    title: info.title,
    ...(info.size === undefined ? {} : { size: info.size }),
    metric: 'throughput',
    subject: {
      label: comparison.subject.label,
      value: perSecond(comparison.subject.medianNs),
      rounds: comparison.subject.roundsNs.map(perSecond),
    },
    baseline: {
      label: comparison.baseline.label,
      value: perSecond(comparison.baseline.medianNs),
      rounds: comparison.baseline.roundsNs.map(perSecond),
    },
    ratio,
    roundRatios: ratios,
    ...(target === undefined ? {} : { target, met: meets(target, ratio) }),
    ...(info.checks === undefined ? {} : { checks: info.checks }),
  };
}
