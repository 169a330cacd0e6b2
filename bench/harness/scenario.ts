/**
 * What a row compares: time per operation (lower is better), throughput (higher is better), or
 * a size in bytes (lower is better).
 */
export type MetricKind = 'time' | 'throughput' | 'size';

/** A target a scenario must show, as a ratio against its baseline. */
export interface Target {
  /** `time` and `size`: subject / baseline must be at most `ratio`; `throughput`: subject / baseline at least `ratio`. */
  readonly kind: MetricKind;
  readonly ratio: number;
  /** As written in the issue, e.g. `≤ 3× baseline time`. */
  readonly text: string;
}

/** One measured side. `value` is ns per operation (time), operations per second (throughput) or bytes (size). */
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
  /** Set when the scenario could not run (e.g. an adapter that does not exist yet), or the error it failed with. */
  readonly skipped?: string;
  /** True when `skipped` is the error the scenario failed with (the run went on with the next one). */
  readonly failed?: boolean;
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
  /** Propagation samples per side (library, floor) per store and reader count. */
  readonly propagationSamples: number;
  /** Fresh processes started per side for cold-start measurements. */
  readonly freshProcesses: number;
  /** The numbers of scopes the scopes scenario grows its table to, in order; the last carries the targets. */
  readonly scopeCounts: readonly number[];
}

/** A table of details a scenario adds to the report (percentiles, a split of time, a growth table). */
export interface DetailTable {
  /** Shown above the table; may be empty. */
  readonly caption: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/**
 * A section of the report written by one scenario: what it measures and how (floors, peers,
 * the choices that keep the measurement from distorting what it measures), and its detail tables.
 */
export interface ReportSection {
  /** The scenario's id. */
  readonly id: string;
  /** The section heading. */
  readonly title: string;
  /** Paragraphs (markdown) before the tables. */
  readonly intro: readonly string[];
  readonly tables: readonly DetailTable[];
  /** Paragraphs (markdown) after the tables. */
  readonly outro?: readonly string[];
}

/** What a scenario returns: its rows, and optionally a section of details. */
export interface ScenarioOutput {
  readonly rows: readonly ScenarioResult[];
  readonly sections?: readonly ReportSection[];
}

/** A benchmark scenario: builds its fixtures, measures, and returns one or more rows. */
export interface Scenario {
  /** Short id used by `--only`. */
  readonly id: string;
  /** What it measures, one line. */
  readonly title: string;
  run(settings: RunSettings): Promise<ScenarioOutput>;
}

/** Whether `ratio` meets `target`. */
export function meets(target: Target, ratio: number): boolean {
  return target.kind === 'throughput' ? ratio >= target.ratio : ratio <= target.ratio;
}
