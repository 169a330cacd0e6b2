/**
 * The Node options of a helper child process (an HTTP server, a propagation reader, a cold
 * start): TypeScript through tsx, and with `BENCH_CHILD_CPU_PROF=<dir>` (or its older name
 * `BENCH_SERVER_CPU_PROF`) a V8 CPU profile written to `<dir>/<name>/` when the child exits
 * (the largest file there is the main thread's; tsx's loader thread writes one too).
 */
export function childExecArgv(name: string): string[] {
  const directory = process.env.BENCH_CHILD_CPU_PROF ?? process.env.BENCH_SERVER_CPU_PROF;
  const execArgv = ['--import', 'tsx'];
  if (directory) execArgv.push('--cpu-prof', `--cpu-prof-dir=${directory}/${name}`);
  return execArgv;
}
