/**
 * A profiling aid: starts this checkout's soak server with `--cpu-prof` (into the directory of
 * the first argument), sends it `SOAK_PROFILE_WRITES` (default 2000) sequential writes — or, with
 * `--mix`, `SOAK_SECONDS` (default 10) of the soak's mixed load — and stops it, so that the
 * profile holds mostly that work. Summarise it with `bench/profile-summary.ts`.
 */
import { fileURLToPath } from 'node:url';
import { SEQUENTIAL_KINDS, SequentialClient } from './sequential-requests';
import { runSoakLoad, startSoakServer, stopSoakServer } from './soak-load';

const directory = process.argv[2];
if (directory === undefined) throw new Error('usage: profile-writes.ts <profile directory> [--mix]');
const mix = process.argv.includes('--mix');
const entry = process.env.SOAK_SERVER_ENTRY ?? fileURLToPath(new URL('./soak-server.ts', import.meta.url));
const server = await startSoakServer({ entry, execArgv: ['--cpu-prof', `--cpu-prof-dir=${directory}`] });
try {
  if (mix) {
    await runSoakLoad(server.url, Number(process.env.SOAK_SECONDS ?? 10), 10);
  } else {
    const write = SEQUENTIAL_KINDS.find((kind) => kind.id === 'write')!;
    const client = new SequentialClient(server.url);
    const samples: number[] = [];
    for (let n = 0; n < Number(process.env.SOAK_PROFILE_WRITES ?? 2000); n++)
      samples.push(await client.send(write));
    client.close();
    samples.sort((a, b) => a - b);
    console.log(`writes: ${samples.length}, p50 ${samples[samples.length >> 1]!.toFixed(2)} ms`);
  }
} finally {
  await stopSoakServer(server);
}
