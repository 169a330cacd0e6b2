/**
 * A reader process (B) of the propagation scenario. Waits for a {@link ReaderSetup} from its
 * parent (the writer, A), opens the paths it names (the library's settings on the store, and
 * the bare listeners of the floor), answers `{ ready: true }`, then reports an
 * {@link Observation} for every change it reads back, until the parent says `stop` or goes away.
 */

import { type OpenPaths, openPostgresPaths } from '../fixtures/propagation-postgres';
import type { Observation, ReaderSetup } from '../fixtures/propagation-protocol';
import { openRedisPaths } from '../fixtures/propagation-redis';
import { sharedClock } from '../harness/shared-clock';

async function main(): Promise<void> {
  if (process.send === undefined) throw new Error('propagation-reader.ts runs as a child process with IPC');
  const setup = await new Promise<ReaderSetup>((resolve) => {
    process.once('message', (message) => resolve(message as ReaderSetup));
  });
  const now = sharedClock(setup.clockBase);
  const report = (observation: Observation) => process.send?.({ observation });
  const open = setup.backend === 'postgres' ? openPostgresPaths : openRedisPaths;
  const paths: OpenPaths = await open(setup, now, report);
  const stop = async () => {
    await paths.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('message', (message) => {
    if (message === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.send({ ready: true });
}

await main();
