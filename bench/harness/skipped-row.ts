import type { MetricKind, ScenarioResult, Target } from './scenario';

/** What a skipped row shows: the row it would have been. */
export interface SkippedRowInfo {
  readonly id: string;
  readonly table: ScenarioResult['table'];
  readonly title: string;
  readonly metric: MetricKind;
  readonly subjectLabel: string;
  readonly baselineLabel: string;
  readonly target?: Target;
}

/**
 * A row that could not be measured in this run (a service not configured, a capability not on
 * this branch yet), with the reason; the reason is printed at once too, so a run never skips
 * silently.
 */
export function skippedRow(info: SkippedRowInfo, reason: string): ScenarioResult {
  console.log(`  skipped ${info.id}: ${reason}`);
  const empty = { value: Number.NaN, rounds: [] };
  return {
    id: info.id,
    table: info.table,
    title: info.title,
    metric: info.metric,
    subject: { label: info.subjectLabel, ...empty },
    baseline: { label: info.baselineLabel, ...empty },
    ratio: Number.NaN,
    roundRatios: [],
    ...(info.target === undefined ? {} : { target: info.target }),
    skipped: reason,
  };
}

/**
 * The row of a scenario that failed (threw, or its process died): the run goes on with the
 * next scenario, and the tables show the error where the scenario's rows would be.
 */
export function failedRow(
  scenario: { readonly id: string; readonly title: string },
  error: string,
): ScenarioResult {
  console.log(`  FAILED ${scenario.id}: ${error}`);
  const empty = { value: Number.NaN, rounds: [] };
  return {
    id: scenario.id,
    table: 'targets',
    title: scenario.title,
    metric: 'time',
    subject: { label: 'not measured', ...empty },
    baseline: { label: 'not measured', ...empty },
    ratio: Number.NaN,
    roundRatios: [],
    skipped: error,
    failed: true,
  };
}
