import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/**
 * A write's `ifMatch` did not match the current state (code 412): nothing was stored.
 * `etag` is the current entity tag, for the REST answer's `data.etag`.
 */
export class PreconditionFailedError extends Framework_Plugin_Exception {
  /** The entity tag of the current state. */
  readonly etag: string;

  /**
   * @param settingId - the setting written
   * @param etag - the current entity tag
   */
  constructor(settingId: string, etag: string) {
    super(
      `Setting "${settingId}" has changed: its current entity tag does not match If-Match; nothing was stored`,
      412,
    );
    this.name = 'PreconditionFailedError';
    this.etag = etag;
  }
}
brandClass(PreconditionFailedError, 'PreconditionFailedError');
