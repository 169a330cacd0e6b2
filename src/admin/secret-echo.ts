/**
 * No message of the admin form repeats what was typed into a secret field (CONTRACT, third
 * round): "repeats" means any {@link ECHO_LENGTH} consecutive characters of the typed text. The
 * form's own checks say nothing of a secret's text by construction; the messages of a refused
 * save — which may come from the host's `updateValue` override — pass through
 * {@link withoutSecretEcho} with the secrets typed into the form.
 */

/** How many consecutive characters of a typed secret make a repetition. */
export const ECHO_LENGTH = 6;

/** What a message that would repeat a typed secret says instead. */
export const SECRET_ECHO_MESSAGE =
  'This value was refused. The reason is not shown because it would repeat part of a secret; check what you typed.';

/** Whether `message` holds any {@link ECHO_LENGTH} consecutive characters (code points) of `typed`. */
export function repeatsTypedText(message: string, typed: string): boolean {
  const characters = Array.from(typed);
  if (characters.length < ECHO_LENGTH || message.length < ECHO_LENGTH) return false;
  for (let start = 0; start + ECHO_LENGTH <= characters.length; start++) {
    if (message.includes(characters.slice(start, start + ECHO_LENGTH).join(''))) return true;
  }
  return false;
}

/** `message`, or {@link SECRET_ECHO_MESSAGE} when it repeats any of the `typedSecrets`. */
export function withoutSecretEcho(message: string, typedSecrets: Iterable<string>): string {
  for (const typed of typedSecrets) if (repeatsTypedText(message, typed)) return SECRET_ECHO_MESSAGE;
  return message;
}
