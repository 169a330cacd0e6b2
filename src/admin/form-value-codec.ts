import type { Framework_Setting } from '../settings/setting';
import type { SettingType } from '../settings/setting-types';

/**
 * The one place where typed setting values become form text and submitted form text becomes
 * typed values again, per setting type. Which texts a field has is its widget's row
 * (`widgets/`); the rows convert through these.
 */

/**
 * Converted form text: a value of the type, or a message for the merchant. A message that may
 * quote the text (JSON's reason) comes with `secretError`, the same advice without anything of
 * the text, for secret fields.
 */
export type Parsed = { readonly value: unknown } | { readonly error: string; readonly secretError?: string };

/** What a submitted field asks for. */
export type FieldOutcome =
  /** Store this (already validated) value. */
  | {
      /** Store `value`. */
      readonly action: 'set';
      /** The typed value read from the form text, already checked against the setting. */
      readonly value: unknown;
    }
  /** Remove the stored value: the setting reads its default again. */
  | {
      /** Delete the stored value. */
      readonly action: 'clear';
    }
  /** Leave the stored value as it is (field absent, or an empty password or file field). */
  | {
      /** Write nothing for this field. */
      readonly action: 'keep';
    }
  /** The submitted text is not acceptable; `message` says why. */
  | {
      /** Reject the field (and so the form). */
      readonly action: 'invalid';
      /** What is wrong with the submitted text, for the merchant (shown next to the field). */
      readonly message: string;
    };

/** How the values of one setting type are written into and read from a form. */
export interface TypeFormText {
  /** One value of the type as form text (`multiline`: the text may span lines, for a lone `object`). */
  toText(value: unknown, multiline: boolean): string;
  /** Non-empty form text as a value of the type. */
  fromText(text: string): Parsed;
}

const WHOLE_NUMBER = /^[+-]?\d+$/;
const DECIMAL_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const TRUE_TEXT = /^(?:yes|true|1|on)$/i;
const FALSE_TEXT = /^(?:no|false|0|off)$/i;

const asText: TypeFormText['toText'] = (value) => String(value);
const asIs = (text: string): Parsed => ({ value: text });
const trimmed = (text: string): Parsed => ({ value: text.trim() });
/** `-0` reads as `0`, as the settings layer stores it. */
const withoutNegativeZero = (n: number) => (n === 0 ? 0 : n);

/**
 * What of a `JSON.parse` failure can be said without quoting the text (JavaScript engines quote
 * it: `Unexpected token 'x', "{"a": x}" is not valid JSON`): where it breaks, or that it ends
 * too early; nothing else.
 */
function jsonReasonWithoutText(reason: string): string {
  const position = /\bat position (\d+)/.exec(reason)?.[1];
  if (position !== undefined) return ` (it breaks at character ${Number(position) + 1})`;
  return /end of (?:JSON )?input|Unterminated/i.test(reason) ? ' (the text ends too early)' : '';
}

/** Per setting type: how its values are written into and read from a form. */
const TYPE_FORM_TEXT: Readonly<Record<SettingType, TypeFormText>> = {
  string: { toText: asText, fromText: asIs },
  url: { toText: asText, fromText: trimmed },
  email: { toText: asText, fromText: trimmed },
  integer: {
    toText: asText,
    fromText(text) {
      const candidate = text.trim();
      return WHOLE_NUMBER.test(candidate)
        ? { value: withoutNegativeZero(Number(candidate)) }
        : { error: 'Enter a whole number, such as 42.' };
    },
  },
  float: {
    toText: asText,
    fromText(text) {
      const candidate = text.trim();
      const n = Number(candidate);
      return DECIMAL_NUMBER.test(candidate) && Number.isFinite(n)
        ? { value: withoutNegativeZero(n) }
        : { error: 'Enter a number, such as 2.5.' };
    },
  },
  boolean: {
    toText: (value) => (value ? 'yes' : 'no'),
    fromText(text) {
      const candidate = text.trim();
      if (TRUE_TEXT.test(candidate)) return { value: true };
      if (FALSE_TEXT.test(candidate) || candidate === '') return { value: false };
      return { error: 'Enter yes or no.' };
    },
  },
  object: {
    toText: (value, multiline) => JSON.stringify(value, null, multiline ? 2 : undefined),
    fromText(text) {
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'it cannot be parsed';
        return {
          error: `Enter valid JSON, such as {"key": "value"} (${reason}).`,
          secretError: `Enter valid JSON, such as {"key": "value"}${jsonReasonWithoutText(reason)}.`,
        };
      }
    },
  },
};

/** The form-text conversion of a setting's type (`string`'s for an unknown type). */
export function formTextOf(setting: Framework_Setting): TypeFormText {
  return TYPE_FORM_TEXT[setting.getType() as SettingType] ?? TYPE_FORM_TEXT.string;
}

/** The form-text conversion of one setting type. */
export function formTextOfType(type: SettingType): TypeFormText {
  return TYPE_FORM_TEXT[type];
}

/** Browsers submit line breaks as CRLF; values keep plain LF. */
export function normaliseLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A settings-layer problem as a sentence: capitalised, ending with a full stop. */
export function problemSentence(problem: string): string {
  const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The message of text that could not be converted; for a secret, one that never quotes the text. */
function parseError(
  setting: Framework_Setting,
  parsed: { readonly error: string; readonly secretError?: string },
): string {
  return setting.isSecret() ? (parsed.secretError ?? parsed.error) : parsed.error;
}

/** A value converted from form text, checked against the setting; converted text that failed, refused. */
export function outcomeOf(setting: Framework_Setting, parsed: Parsed): FieldOutcome {
  return 'error' in parsed
    ? { action: 'invalid', message: parseError(setting, parsed) }
    : validated(setting, parsed.value);
}

/** A typed value checked against the setting: `set` when it passes, else `invalid` with the reason. */
export function validated(setting: Framework_Setting, value: unknown): FieldOutcome {
  const problem = setting.describeInvalidValue(value);
  return problem === undefined
    ? { action: 'set', value }
    : { action: 'invalid', message: problemSentence(problem) };
}

/**
 * Reads a list of texts (multi settings): each text to a value, errors named by `where(index)`,
 * then the whole list checked against the setting.
 */
export function fromTexts(
  setting: Framework_Setting,
  texts: readonly string[],
  read: (text: string) => Parsed,
  where: (index: number) => string,
): FieldOutcome {
  const values: unknown[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = read(text);
    if ('error' in parsed)
      return { action: 'invalid', message: `${where(index)}: ${parseError(setting, parsed)}` };
    const problem = setting.describeInvalidValue([parsed.value]);
    if (problem !== undefined) {
      return {
        action: 'invalid',
        message: `${where(index)}: ${problemSentence(problem.replace(/^element \d+: /, ''))}`,
      };
    }
    values.push(parsed.value);
  }
  return validated(setting, values);
}

/** One value as the text of a one-value field (`multiline`: may span lines); `''` for none. */
export function valueText(setting: Framework_Setting, value: unknown, multiline: boolean): string {
  return value === null || value === undefined ? '' : formTextOf(setting).toText(value, multiline);
}

/**
 * The text of a one-value field (an input or a text area) as what it asks for. An empty field
 * clears the stored value (the default applies again), except for `string` settings, where the
 * empty text is a value unless the options exclude it.
 */
export function readValueText(setting: Framework_Setting, text: string): FieldOutcome {
  const options = setting.getOptions();
  const emptyClears = setting.getType() !== 'string' || (options.length > 0 && !options.includes(''));
  if (emptyClears && text.trim() === '') return { action: 'clear' };
  return outcomeOf(setting, formTextOf(setting).fromText(text));
}
