/** What a secret's value (or default) reads as wherever it leaves the process (CONTRACT §7). */
export const MASKED_VALUE = '********';

/** A secret's value as it may be shown: `"********"` when there is one, `null` when not. Non-secrets as they are. */
export function maskValue(value: unknown, secret: boolean): unknown {
  return secret && value !== null && value !== undefined ? MASKED_VALUE : value;
}

/**
 * Whether a REST or admin write of `value` to a setting is the mask echoed back (a form or
 * client that sends the Setting object it read): such a write leaves the stored secret as it
 * is, succeeds and records no history.
 */
export function isMaskedEcho(secret: boolean, value: unknown): boolean {
  return secret && value === MASKED_VALUE;
}
