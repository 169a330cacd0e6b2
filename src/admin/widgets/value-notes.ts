/** Whether a current value counts as saved for the notes under a field (not `null`, absent or `''`). */
export function hasValue(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** The note under a secret field (a password input, secret lines): whether a value is saved. */
export function secretNote(value: unknown): string {
  return hasValue(value)
    ? 'A value is saved and not shown. Leave the field empty to keep it.'
    : 'No value is saved yet.';
}
