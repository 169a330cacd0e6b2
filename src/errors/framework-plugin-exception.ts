import { brandClass, hasBrandedInstance } from './brand';

/**
 * The error the settings layer raises on purpose: a rejected value, an unknown setting, a
 * broken registration. `code` follows HTTP: 400 for bad input, 404 for an unknown id.
 *
 * `err instanceof Framework_Plugin_Exception` holds across the ESM and CommonJS builds of one
 * install.
 *
 * @example
 * ```ts
 * try {
 *   await settings.updateValue('debug', 'yes please');
 * } catch (err) {
 *   if (err instanceof Framework_Plugin_Exception && err.code === 400) console.warn(err.message);
 * }
 * ```
 */
export class Framework_Plugin_Exception extends Error {
  /** A status-like code: 400 invalid input, 404 unknown id, 0 when unspecified. */
  readonly code: number;

  /**
   * @param message - what was wrong and where, for a human
   * @param code - a status-like code, 0 by default
   */
  constructor(message: string, code = 0) {
    super(message);
    this.name = 'Framework_Plugin_Exception';
    this.code = code;
  }

  /** Brand-based `instanceof`, so that errors from the other build (ESM/CJS) are recognised. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrandedInstance(this, value);
  }
}
brandClass(Framework_Plugin_Exception, 'Framework_Plugin_Exception');
