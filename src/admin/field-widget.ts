import type { Framework_Setting } from '../settings/setting';
import { SETTING_TYPE_DEFINITIONS } from '../settings/setting-types';
import { optionText } from '../settings/value-codec';

/** One choice of a select, radio group or checkbox group: the submitted text and its label. */
export interface FieldChoice {
  /** What the form submits: the option's text (`optionText`), e.g. `live`, `5`, `true`. */
  readonly text: string;
  /** What the merchant reads. */
  readonly label: string;
}

/** The `<input type>`s the admin form uses for single values. */
export type FieldInputType = 'text' | 'email' | 'password' | 'number' | 'date' | 'color' | 'range' | 'file';

/**
 * How a setting is shown and read back: the HTML control the form uses for it, decided once
 * from the setting's control type (or the type's default control), its type, `is_multi` and
 * its options.
 */
export type FieldWidget =
  /** An `<input>`; `secret` (password): never echoed, empty keeps the stored value; `file`: empty keeps it too. */
  | {
      /** A single-line `<input>`. */
      readonly kind: 'input';
      /** The input's `type` attribute; `text` when the control names no known input type. */
      readonly inputType: FieldInputType;
    }
  /** A `<textarea>` holding one value (`code`: JSON of an `object` setting). */
  | {
      /** A multi-line `<textarea>` for one value. */
      readonly kind: 'textarea';
      /** Whether the text is code (JSON of an `object` setting): shown in a monospace font, no spellcheck. */
      readonly code: boolean;
    }
  /** One checkbox for a boolean: checked submits `yes`, unchecked means false. */
  | {
      /** A single checkbox. */
      readonly kind: 'checkbox';
    }
  /** A dropdown of choices. */
  | {
      /** A single-choice `<select>`. */
      readonly kind: 'select';
      /** The options, in display order. */
      readonly choices: readonly FieldChoice[];
    }
  /** A radio group of choices. */
  | {
      /** A group of radio buttons, one per choice. */
      readonly kind: 'radio';
      /** The buttons, in display order. */
      readonly choices: readonly FieldChoice[];
    }
  /** A multi-select of choices (multi setting, `select` control). */
  | {
      /** A `<select multiple>`. */
      readonly kind: 'multi-select';
      /** The options, in display order; any number may be selected. */
      readonly choices: readonly FieldChoice[];
    }
  /** A checkbox group of choices (multi setting). */
  | {
      /** A group of checkboxes, one per choice. */
      readonly kind: 'checkbox-group';
      /** The checkboxes, in display order; any number may be checked. */
      readonly choices: readonly FieldChoice[];
    }
  /** A `<textarea>` with one value per line (multi setting without options). */
  | {
      /** A `<textarea>` whose lines are the values of a multi setting. */
      readonly kind: 'lines';
      /** Whether each line is code (JSON of an `object` value): monospace, no spellcheck. */
      readonly code: boolean;
      /** Whether the values are secrets (`password` control): never echoed; an empty submission keeps them. */
      readonly secret: boolean;
    };

const INPUT_CONTROLS: ReadonlySet<string> = new Set<FieldInputType>([
  'text',
  'email',
  'password',
  'number',
  'date',
  'color',
  'range',
  'file',
]);

const BOOLEAN_CHOICES: readonly FieldChoice[] = [
  { text: 'true', label: 'Yes' },
  { text: 'false', label: 'No' },
];

/**
 * The choices a setting offers: the control's options (keys are option texts, values are
 * labels) when it has any, else the setting's options labelled with their text.
 */
export function choicesOf(setting: Framework_Setting): FieldChoice[] {
  const controlOptions = setting.getControl()?.getOptions() ?? {};
  const entries = Object.entries(controlOptions);
  if (entries.length > 0)
    return entries.map(([text, label]) => ({ text, label: label === '' ? text : label }));
  return setting.getOptions().map((option) => {
    const text = optionText(option);
    return { text, label: text };
  });
}

/** The control type a setting is shown with: its own control's, else its type's default. */
export function effectiveControlType(setting: Framework_Setting): string {
  if (setting.isSecret()) return 'password';
  const declared = setting.getControl()?.getType();
  if (declared) return declared;
  if (setting.getOptions().length > 0 && setting.getType() !== 'boolean') return 'select';
  return SETTING_TYPE_DEFINITIONS.get(setting.getType())?.defaultControl ?? 'text';
}

/** The widget of a setting without a usable control: the default for its type. */
function defaultWidget(setting: Framework_Setting): FieldWidget {
  const type = setting.getType();
  if (setting.isMulti()) return multiWidget(setting, 'checkbox');
  if (type === 'boolean') return { kind: 'checkbox' };
  const choices = choicesOf(setting);
  if (setting.getOptions().length > 0 && choices.length > 0) return { kind: 'select', choices };
  const control = SETTING_TYPE_DEFINITIONS.get(type)?.defaultControl ?? 'text';
  if (control === 'textarea') return { kind: 'textarea', code: type === 'object' };
  return { kind: 'input', inputType: INPUT_CONTROLS.has(control) ? (control as FieldInputType) : 'text' };
}

function multiWidget(setting: Framework_Setting, controlType: string): FieldWidget {
  const choices = choicesOf(setting);
  if (choices.length > 0) {
    return controlType === 'select' ? { kind: 'multi-select', choices } : { kind: 'checkbox-group', choices };
  }
  return { kind: 'lines', code: setting.getType() === 'object', secret: controlType === 'password' };
}

/**
 * Decides how a setting is shown. A control that cannot show the setting (a `select` without
 * any options, a `checkbox` for a non-boolean without options) falls back to the default
 * control of the setting's type.
 */
export function resolveWidget(setting: Framework_Setting): FieldWidget {
  const controlType = effectiveControlType(setting);
  // A secret is always a password field (a select or a checked box would show its value).
  if (setting.isSecret()) {
    return setting.isMulti()
      ? { kind: 'lines', code: setting.getType() === 'object', secret: true }
      : { kind: 'input', inputType: 'password' };
  }
  const declared = setting.getControl() !== null;
  if (!declared) return defaultWidget(setting);
  if (setting.isMulti()) return multiWidget(setting, controlType);
  const isBoolean = setting.getType() === 'boolean';
  const choices = choicesOf(setting);
  const choicesOrBoolean = choices.length > 0 ? choices : isBoolean ? BOOLEAN_CHOICES : [];
  switch (controlType) {
    case 'checkbox':
      if (isBoolean) return { kind: 'checkbox' };
      return choices.length > 0 ? { kind: 'radio', choices } : defaultWidget(setting);
    case 'select':
    case 'radio':
      return choicesOrBoolean.length > 0
        ? { kind: controlType, choices: choicesOrBoolean }
        : defaultWidget(setting);
    case 'textarea':
      return { kind: 'textarea', code: setting.getType() === 'object' };
    default:
      return INPUT_CONTROLS.has(controlType)
        ? { kind: 'input', inputType: controlType as FieldInputType }
        : defaultWidget(setting);
  }
}
