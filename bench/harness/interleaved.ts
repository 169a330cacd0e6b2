import { Bench } from 'tinybench';

/** One side of a comparison: a function that runs `opsPerCall` operations per call. */
export interface Side {
  /** Shown in tables, e.g. `Map.get + Number()`. */
  readonly label: string;
  /** Runs the operations once (sync or async). */
  readonly run: () => unknown;
}

/** How a comparison is run. */
export interface InterleaveOptions {
  /** Operations done by one call of each side (batching hides the timer's own cost for tiny operations). */
  readonly opsPerCall: number;
  /** Number of rounds; each round measures both sides, in alternating order. */
  readonly rounds: number;
  /** Measuring time per side per round, in ms. */
  readonly timeMs: number;
  /** Warm-up time per side per round, in ms. */
  readonly warmupMs: number;
  /** The least number of calls per side per round (default 16) and of warm-up calls (default 8): lower for slow calls. */
  readonly minIterations?: { readonly measured: number; readonly warmup: number };
}

/** The measurements of one side, per operation. */
export interface SideMeasurement {
  readonly label: string;
  /** Median over rounds of the per-round median time per operation, in nanoseconds. */
  readonly medianNs: number;
  /** Per-round median time per operation, in nanoseconds, in round order. */
  readonly roundsNs: readonly number[];
  /** Samples (calls) measured over all rounds. */
  readonly samples: number;
}

/** A subject measured against its baseline in the same run. */
export interface InterleavedComparison {
  readonly subject: SideMeasurement;
  readonly baseline: SideMeasurement;
  /** Median of the per-round ratios subject time / baseline time (lower is better for the subject). */
  readonly timeRatio: number;
  /** Per-round ratios subject time / baseline time. */
  readonly roundRatios: readonly number[];
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function medianLatencyMs(bench: Bench, name: string): { p50: number; samples: number } {
  const task = bench.getTask(name);
  const result = task?.result;
  if (result === undefined || result.state !== 'completed') {
    const error = result !== undefined && 'error' in result ? result.error : undefined;
    throw new Error(`benchmark task "${name}" did not complete (${result?.state ?? 'missing'})`, {
      cause: error,
    });
  }
  return { p50: result.latency.p50, samples: result.latency.samplesCount };
}

/**
 * Measures several sides in the same process, round by round, each with its own warm-up, the
 * order rotating between rounds (A B C, B C A, C A B, …) so that no side always runs first or
 * last. Returns, per side in the order given, the median time per operation of each round (ns).
 */
export async function measureRounds(
  sides: readonly Side[],
  options: InterleaveOptions,
): Promise<{ roundsNs: number[][]; samples: number[] }> {
  const roundsNs = sides.map(() => [] as number[]);
  const samples = sides.map(() => 0);
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({
      time: options.timeMs,
      warmupTime: options.warmupMs,
      iterations: options.minIterations?.measured ?? 16,
      warmupIterations: options.minIterations?.warmup ?? 8,
      throws: true,
    });
    for (let step = 0; step < sides.length; step++) {
      const index = (round + step) % sides.length;
      bench.add(String(index), sides[index]!.run);
    }
    await bench.run();
    sides.forEach((_side, index) => {
      const measured = medianLatencyMs(bench, String(index));
      roundsNs[index]!.push((measured.p50 * 1e6) / options.opsPerCall);
      samples[index]! += measured.samples;
    });
  }
  return { roundsNs, samples };
}

/**
 * Measures `subject` and `baseline` in the same process, in alternating order (round 1:
 * subject then baseline, round 2: baseline then subject, …), each with its own warm-up, and
 * compares them round by round. Machine noise that lasts longer than one round moves both
 * sides of that round alike; the median of the per-round ratios then cancels most of it.
 */
export async function compareInterleaved(
  subject: Side,
  baseline: Side,
  options: InterleaveOptions,
): Promise<InterleavedComparison> {
  const { roundsNs, samples } = await measureRounds([subject, baseline], options);
  const subjectNs = roundsNs[0]!;
  const baselineNs = roundsNs[1]!;
  const ratios = subjectNs.map((ns, round) => ns / baselineNs[round]!);
  return {
    subject: {
      label: subject.label,
      medianNs: median(subjectNs),
      roundsNs: subjectNs,
      samples: samples[0]!,
    },
    baseline: {
      label: baseline.label,
      medianNs: median(baselineNs),
      roundsNs: baselineNs,
      samples: samples[1]!,
    },
    timeRatio: median(ratios),
    roundRatios: ratios,
  };
}
