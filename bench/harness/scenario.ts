/** What a target compares: time per operation (lower is better) or throughput (higher is better). */
export type MetricKind = 'time' | 'throughput';

/** A target a scenario must show, as a ratio against its baseline. */
export interface Target {
  /** `time`: subject time / baseline time must be at most `ratio`; `throughput`: subject / baseline at least `ratio`. */
  readonly kind: MetricKind;
  readonly ratio: number;
  /** As written in the issue, e.g. `≤ 3× baseline time`. */
  readonly text: string;
}

/** One measured side. `value` is ns per operation (time) or requests per second (throughput). */
export interface MeasuredSide {
  readonly label: string;
  readonly value: number;
  /** The per-round values, in round order. */
  readonly rounds: readonly number[];
}

/** One row of the results: a subject and its baseline, measured in the same run. */
export interface ScenarioResult {
  /** Stable id, e.g. `list-pglite-100`. */
  readonly id: string;
  /** Which table the row belongs to: the targets, or the growth tables. */
  readonly table: 'targets' | 'growth-list' | 'growth-matching' | 'diagnostics';
  readonly title: string;
  /** The size of the data (settings, routes), for growth rows. */
  readonly size?: number;
  readonly metric: MetricKind;
  readonly subject: MeasuredSide;
  readonly baseline: MeasuredSide;
  /**
   * The comparison in the target's terms: subject/baseline time for `time`, subject/baseline
   * throughput for `throughput`; the median of the per-round ratios.
   */
  readonly ratio: number;
  readonly roundRatios: readonly number[];
  readonly target?: Target;
  /** Whether the target is met (absent without a target). */
  readonly met?: boolean;
  /** Facts checked during the run (e.g. store round trips per request). */
  readonly checks?: Readonly<Record<string, string | number | boolean>>;
  /** Set when the scenario could not run (e.g. an adapter that does not exist yet). */
  readonly skipped?: string;
}

/** Run-wide settings every scenario reads. */
export interface RunSettings {
  /** Rounds of in-process comparisons. */
  readonly rounds: number;
  /** Measuring time per side per round (ms). */
  readonly timeMs: number;
  /** Warm-up per side per round (ms). */
  readonly warmupMs: number;
  /** HTTP load runs per side. */
  readonly httpRounds: number;
  /** Seconds per HTTP load run. */
  readonly httpSeconds: number;
  /** Concurrent keep-alive connections of the HTTP load generator. */
  readonly httpConnections: number;
  /** Requests in flight per connection. */
  readonly httpPipelining: number;
}

/** A benchmark scenario: builds its fixtures, measures, and returns one or more rows. */
export interface Scenario {
  /** Short id used by `--only`. */
  readonly id: string;
  /** What it measures, one line. */
  readonly title: string;
  run(settings: RunSettings): Promise<ScenarioResult[]>;
}

/** Whether `ratio` meets `target`. */
export function meets(target: Target, ratio: number): boolean {
  return target.kind === 'time' ? ratio <= target.ratio : ratio >= target.ratio;
}
