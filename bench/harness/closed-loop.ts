import { median } from './interleaved';
import { type Percentiles, percentiles } from './percentiles';

/** One side of a closed-loop comparison: `operation(worker, n)` does one operation for worker `worker`. */
export interface LoopSide {
  readonly label: string;
  readonly operation: (worker: number, n: number) => Promise<void>;
}

/** How a closed-loop comparison runs. */
export interface LoopOptions {
  /** Workers per side, each doing one operation at a time. */
  readonly concurrency: number;
  /** Measuring time per side per round, ms. */
  readonly timeMs: number;
  /** Rounds; the side that goes first alternates. */
  readonly rounds: number;
  /** Unmeasured time per side before the first round, ms. */
  readonly warmupMs: number;
}

/** What one side did over all rounds. */
export interface LoopMeasurement {
  readonly label: string;
  /** Operations per second, per round. */
  readonly rounds: readonly number[];
  /** Median of `rounds`. */
  readonly perSecond: number;
  /** Latency of every operation of every round, ns. */
  readonly latency: Percentiles;
}

/** Both sides, and the per-round throughput ratios subject / baseline. */
export interface LoopComparison {
  readonly subject: LoopMeasurement;
  readonly baseline: LoopMeasurement;
  readonly ratios: readonly number[];
  readonly ratio: number;
}

/** Runs `side` with `concurrency` workers for `timeMs`; returns its operations and their latencies. */
async function runFor(
  side: LoopSide,
  concurrency: number,
  timeMs: number,
  counter: { n: number },
): Promise<{ operations: number; latencies: number[]; elapsedMs: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + timeMs;
  const worker = async (index: number) => {
    while (performance.now() < deadline) {
      const before = process.hrtime.bigint();
      await side.operation(index, counter.n++);
      latencies.push(Number(process.hrtime.bigint() - before));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_unused, index) => worker(index)));
  return { operations: latencies.length, latencies, elapsedMs: performance.now() - started };
}

/**
 * Throughput and latency of two sides under the same closed loop (a fixed number of workers,
 * each starting its next operation when the previous one ends), round by round in alternating
 * order. The ratio is the median of the per-round throughput ratios.
 */
export async function compareClosedLoop(
  subject: LoopSide,
  baseline: LoopSide,
  options: LoopOptions,
): Promise<LoopComparison> {
  const counter = { n: 0 };
  await runFor(subject, options.concurrency, options.warmupMs, counter);
  await runFor(baseline, options.concurrency, options.warmupMs, counter);
  const perSecond = { subject: [] as number[], baseline: [] as number[] };
  const latencies = { subject: [] as number[], baseline: [] as number[] };
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? (['subject', 'baseline'] as const) : (['baseline', 'subject'] as const);
    for (const which of order) {
      const side = which === 'subject' ? subject : baseline;
      const result = await runFor(side, options.concurrency, options.timeMs, counter);
      perSecond[which].push((result.operations * 1000) / result.elapsedMs);
      latencies[which].push(...result.latencies);
    }
  }
  const ratios = perSecond.subject.map((value, round) => value / perSecond.baseline[round]!);
  const measurement = (which: 'subject' | 'baseline', side: LoopSide): LoopMeasurement => ({
    label: side.label,
    rounds: perSecond[which],
    perSecond: median(perSecond[which]),
    latency: percentiles(latencies[which]),
  });
  return {
    subject: measurement('subject', subject),
    baseline: measurement('baseline', baseline),
    ratios,
    ratio: median(ratios),
  };
}
