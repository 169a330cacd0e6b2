import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/**
 * The bytes of JavaScript heap in use after a full garbage collection (`--expose-gc` is turned on
 * at run time, so the scenario needs no Node flag). Two readings around an allocation give its
 * retained size.
 */
export function heapUsedAfterGc(): number {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}
