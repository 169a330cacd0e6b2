import type { Framework_Setting } from '../settings/setting';
import type { SettingType } from '../settings/setting-types';
import { optionText } from '../settings/value-codec';
import type { FieldChoice, FieldWidget } from './field-widget';

/**
 * The one place where typed setting values become form text and submitted form text becomes
 * typed values again, per setting type.
 */

/** Converted form text: a value of the type, or a message for the merchant. */
type Parsed = { readonly value: unknown } | { readonly error: string };

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

interface TypeFormText {
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
        return { error: `Enter valid JSON, such as {"key": "value"} (${reason}).` };
      }
    },
  },
};

function formTextOf(setting: Framework_Setting): TypeFormText {
  return TYPE_FORM_TEXT[setting.getType() as SettingType] ?? TYPE_FORM_TEXT.string;
}

/** Browsers submit line breaks as CRLF; values keep plain LF. */
function normaliseLineBreaks(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** A settings-layer problem as a sentence: capitalised, ending with a full stop. */
export function problemSentence(problem: string): string {
  const sentence = problem.charAt(0).toUpperCase() + problem.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** The option whose text is `text`, else the text read as the setting's type. */
function fromChoiceText(setting: Framework_Setting, text: string): Parsed {
  const option = setting.getOptions().find((candidate) => optionText(candidate) === text);
  if (option !== undefined) return { value: option };
  return formTextOf(setting).fromText(text);
}

function validated(setting: Framework_Setting, value: unknown): FieldOutcome {
  const problem = setting.describeInvalidValue(value);
  return problem === undefined
    ? { action: 'set', value }
    : { action: 'invalid', message: problemSentence(problem) };
}

/** Reads a list of texts (multi settings): each text to a value, errors named by `where(index)`. */
function fromTexts(
  setting: Framework_Setting,
  texts: readonly string[],
  read: (text: string) => Parsed,
  where: (index: number) => string,
): FieldOutcome {
  const values: unknown[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = read(text);
    if ('error' in parsed) return { action: 'invalid', message: `${where(index)}: ${parsed.error}` };
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

function isChoice(choices: readonly FieldChoice[], text: string): boolean {
  return choices.some((choice) => choice.text === text);
}

function notAChoice(text: string): string {
  const shown = text.length > 40 ? `${text.slice(0, 39)}…` : text;
  return `“${shown}” is not one of the offered choices.`;
}

function choiceLabel(choices: readonly FieldChoice[], text: string): string {
  return choices.find((choice) => choice.text === text)?.label ?? text;
}

/**
 * The form texts that show `value` (a typed value, `null` for none) in `widget`: one text for
 * inputs and text areas, the chosen option texts for choices, `yes` for a checked box. Secret
 * fields show nothing.
 */
export function formTextsFor(setting: Framework_Setting, widget: FieldWidget, value: unknown): string[] {
  const typeText = formTextOf(setting);
  switch (widget.kind) {
    case 'checkbox':
      return value === true ? ['yes'] : [];
    case 'select':
    case 'radio':
      return value === null || value === undefined ? [] : [optionText(value)];
    case 'multi-select':
    case 'checkbox-group':
      return Array.isArray(value) ? value.map(optionText) : [];
    case 'lines':
      if (widget.secret || !Array.isArray(value)) return [''];
      return [value.map((item) => typeText.toText(item, false)).join('\n')];
    case 'input':
      if (widget.inputType === 'password' || widget.inputType === 'file') return [''];
      return value === null || value === undefined ? [''] : [typeText.toText(value, false)];
    case 'textarea':
      return value === null || value === undefined ? [''] : [typeText.toText(value, true)];
  }
}

/**
 * Reads one field of a submitted form: the texts it sent (kept to show the form again) and
 * what they ask for, validated by the settings layer.
 *
 * A checkbox or a multi-choice field absent from the form counts as unchecked (false, an
 * empty list), as browsers send nothing for them; other absent fields keep the stored value.
 * An empty field clears the stored value (the default applies again), except for `string`
 * settings, where the empty text is a value, and for password and file fields, where it keeps
 * the stored value.
 */
export function readFormField(
  setting: Framework_Setting,
  widget: FieldWidget,
  name: string,
  form: URLSearchParams,
): { texts: string[]; outcome: FieldOutcome } {
  const texts = form.getAll(name).map(normaliseLineBreaks);
  const first = texts[0];
  const typeText = formTextOf(setting);
  const options = setting.getOptions();
  const emptyClears = setting.getType() !== 'string' || (options.length > 0 && !options.includes(''));
  const readSingle = (text: string): FieldOutcome => {
    if (emptyClears && text.trim() === '') return { action: 'clear' };
    const parsed = typeText.fromText(text);
    return 'error' in parsed
      ? { action: 'invalid', message: parsed.error }
      : validated(setting, parsed.value);
  };

  switch (widget.kind) {
    case 'checkbox': {
      if (first === undefined) return { texts, outcome: validated(setting, false) };
      const parsed = TYPE_FORM_TEXT.boolean.fromText(first);
      const outcome: FieldOutcome =
        'error' in parsed ? { action: 'invalid', message: parsed.error } : validated(setting, parsed.value);
      return { texts, outcome };
    }
    case 'select':
    case 'radio': {
      if (first === undefined) return { texts, outcome: { action: 'keep' } };
      if (first === '' && !options.includes('')) {
        return { texts, outcome: { action: 'clear' } };
      }
      const parsed = isChoice(widget.choices, first) ? fromChoiceText(setting, first) : undefined;
      const outcome: FieldOutcome =
        parsed === undefined || 'error' in parsed
          ? { action: 'invalid', message: notAChoice(first) }
          : validated(setting, parsed.value);
      return { texts: [first], outcome };
    }
    case 'multi-select':
    case 'checkbox-group': {
      const unknown = texts.find((text) => !isChoice(widget.choices, text));
      if (unknown !== undefined)
        return { texts, outcome: { action: 'invalid', message: notAChoice(unknown) } };
      const outcome = fromTexts(
        setting,
        texts,
        (text) => fromChoiceText(setting, text),
        (index) => `“${choiceLabel(widget.choices, texts[index] ?? '')}”`,
      );
      return { texts, outcome };
    }
    case 'lines': {
      if (first === undefined || (widget.secret && first === ''))
        return { texts, outcome: { action: 'keep' } };
      const numbered = first
        .split('\n')
        .map((line, index) => ({ line, number: index + 1 }))
        .filter(({ line }) => line.trim() !== '');
      const outcome = fromTexts(
        setting,
        numbered.map(({ line }) => line),
        (line) => typeText.fromText(line),
        (index) => `Line ${numbered[index]?.number ?? index + 1}`,
      );
      return { texts: [first], outcome };
    }
    case 'input':
    case 'textarea': {
      if (first === undefined) return { texts, outcome: { action: 'keep' } };
      const keepsWhenEmpty =
        widget.kind === 'input' && (widget.inputType === 'password' || widget.inputType === 'file');
      if (keepsWhenEmpty && first === '') return { texts: [first], outcome: { action: 'keep' } };
      return { texts: [first], outcome: readSingle(first) };
    }
  }
}
