import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** One refused change of a batch. */
export interface BatchFailure {
  /** The setting id of the change. */
  readonly id: string;
  /** Why it was refused: code 404 for an unknown setting, 400 (or an override's 4xx) for a rejected value. */
  readonly error: Framework_Plugin_Exception;
}

/**
 * A batch (`updateValues`) was refused because at least one change was (code 400): nothing was
 * stored. `failures` lists every refused change, in request order.
 */
export class BatchRejectedError extends Framework_Plugin_Exception {
  /** Every refused change. */
  readonly failures: readonly BatchFailure[];

  /** @param failures - every refused change (at least one) */
  constructor(failures: readonly BatchFailure[]) {
    const first = failures[0];
    super(
      `The batch was not stored: ${failures.length} change${failures.length === 1 ? '' : 's'} refused${first ? ` (first: ${first.error.message})` : ''}`,
      400,
    );
    this.name = 'BatchRejectedError';
    this.failures = failures;
  }
}
brandClass(BatchRejectedError, 'BatchRejectedError');
