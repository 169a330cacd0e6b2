import type { Framework_Setting } from '../../settings/setting';
import { optionText } from '../../settings/value-codec';
import type { FieldChoice } from '../field-widget';
import { type FieldOutcome, formTextOf, fromTexts, type Parsed, validated } from '../form-value-codec';
import type { WidgetOfKind, WidgetRow } from './widget-row';

/**
 * How the choice widgets map a setting's value to chosen option texts and back: `select` and
 * `radio` choose one option, `multi-select` and `checkbox-group` any number.
 */

/** The part of a choice widget's row that reads and writes its chosen options. */
export type ChoiceReading<W extends WidgetOfKind<'select' | 'radio' | 'multi-select' | 'checkbox-group'>> =
  Pick<WidgetRow<W>, 'formTexts' | 'read' | 'absentMeansEmpty'>;

/** The option whose text is `text`, else the text read as the setting's type. */
function fromChoiceText(setting: Framework_Setting, text: string): Parsed {
  const option = setting.getOptions().find((candidate) => optionText(candidate) === text);
  if (option !== undefined) return { value: option };
  return formTextOf(setting).fromText(text);
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
 * One chosen option (`select`, `radio`): the option's text, none for no value. Absent keeps the
 * stored value, the empty text clears it (unless `''` is an option), any text that is not
 * offered is refused.
 */
export const ONE_CHOICE: ChoiceReading<WidgetOfKind<'select' | 'radio'>> = {
  formTexts: (_setting, _widget, value) => (value === null || value === undefined ? [] : [optionText(value)]),
  read(setting, widget, texts) {
    const first = texts[0];
    if (first === undefined) return { texts, outcome: { action: 'keep' } };
    if (first === '' && !setting.getOptions().includes('')) {
      return { texts, outcome: { action: 'clear' } };
    }
    const parsed = isChoice(widget.choices, first) ? fromChoiceText(setting, first) : undefined;
    const outcome: FieldOutcome =
      parsed === undefined || 'error' in parsed
        ? { action: 'invalid', message: notAChoice(first) }
        : validated(setting, parsed.value);
    return { texts: [first], outcome };
  },
  absentMeansEmpty: false,
};

/**
 * Any number of chosen options of a multi setting (`multi-select`, `checkbox-group`): one text
 * each. Absent (nothing chosen, browsers send nothing) is the empty list; a text that is not
 * offered is refused.
 */
export const MANY_CHOICES: ChoiceReading<WidgetOfKind<'multi-select' | 'checkbox-group'>> = {
  formTexts: (_setting, _widget, value) => (Array.isArray(value) ? value.map(optionText) : []),
  read(setting, widget, texts) {
    const unknown = texts.find((text) => !isChoice(widget.choices, text));
    if (unknown !== undefined) return { texts, outcome: { action: 'invalid', message: notAChoice(unknown) } };
    const outcome = fromTexts(
      setting,
      texts,
      (text) => fromChoiceText(setting, text),
      (index) => `“${choiceLabel(widget.choices, texts[index] ?? '')}”`,
    );
    return { texts, outcome };
  },
  absentMeansEmpty: true,
};
