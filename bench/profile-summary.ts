/**
 * Summarises a V8 CPU profile (`node --cpu-prof`): the functions with the most self time (their
 * own code) and the most total time (the function and everything it calls; each sample counts
 * once per function). Shares are of the time not idle.
 *
 * ```sh
 * node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/run.ts --only=args
 * npx tsx bench/profile-summary.ts /tmp/prof/<file>.cpuprofile [top=25] [filter]
 * ```
 * For the HTTP scenarios, profile the server children instead:
 * `BENCH_SERVER_CPU_PROF=/tmp/prof npx tsx bench/run.ts --only=http-node` writes
 * `/tmp/prof/<server kind>/*.cpuprofile` (the largest file is the main thread's).
 */
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: {
    readonly functionName: string;
    readonly url: string;
    readonly lineNumber: number;
  };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function frameName(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  const file = url === '' ? '' : relative(process.cwd(), url.replace(/^file:\/\//, ''));
  return `${functionName || '(anonymous)'}${file === '' ? '' : ` ${file}`}`;
}

async function main(): Promise<void> {
  const [file, topText = '25', filter = ''] = process.argv.slice(2);
  if (file === undefined) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top] [filter]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  const selfMicros = new Map<string, number>();
  const totalMicros = new Map<string, number>();
  let sampled = 0;
  let busy = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    sampled += delta;
    const name = frameName(node);
    if (name === '(idle)') return;
    busy += delta;
    selfMicros.set(name, (selfMicros.get(name) ?? 0) + delta);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined) break;
      const label = frameName(frame);
      if (seen.has(label)) continue;
      seen.add(label);
      totalMicros.set(label, (totalMicros.get(label) ?? 0) + delta);
    }
  });

  const top = Number(topText);
  const show = (title: string, table: ReadonlyMap<string, number>) => {
    console.log(title);
    const rows = [...table]
      .filter(([name]) => name.includes(filter) && name !== '(root)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, top);
    for (const [name, micros] of rows) {
      const share = ((micros / busy) * 100).toFixed(1).padStart(5);
      console.log(`${share}%  ${(micros / 1000).toFixed(1).padStart(8)} ms  ${name}`);
    }
  };
  console.log(`${(sampled / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms not idle`);
  show('-- self time', selfMicros);
  show('-- total time', totalMicros);
}

await main();
