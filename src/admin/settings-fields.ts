import type { Framework_Abstract_Settings } from '../settings/abstract-settings';
import { MASKED_VALUE } from '../settings/secrets/mask';
import type { Framework_Setting } from '../settings/setting';
import type { AdminField, FieldState } from './admin-field';
import { resolveWidget } from './field-widget';
import type { LevelValue } from './form-changes';
import { type FieldOutcome, normaliseLineBreaks } from './form-value-codec';
import { editedWhileInheriting } from './inherit-edits';
import { widgetRow } from './widgets/widget-table';

/** A submitted settings form, read field by field. */
export interface SettingsSubmission {
  /** What each field asks for, by setting id, in registration order. */
  readonly outcomes: ReadonlyMap<string, FieldOutcome>;
  /** What each field shows if the form is rendered again: the submitted texts and the errors. */
  readonly states: ReadonlyMap<string, FieldState>;
  /** The refused fields, by setting id: why. Empty when every field is acceptable. */
  readonly errors: ReadonlyMap<string, string>;
  /**
   * What was typed into secret fields, by setting id (not empty, not the mask): never shown
   * again, and no message of the page may repeat it (see `withoutSecretEcho`).
   */
  readonly typedSecrets: ReadonlyMap<string, string>;
}

/** The note of a secret field whose typed value the page shows again after a failed save. */
export const SECRET_NOT_SAVED_NOTE =
  'Not saved: what you typed here was not stored and is not shown again, so type it again.';

function elementIdOf(name: string): string {
  return `field-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

/**
 * The form fields of one settings handler: one field per registered setting, in registration
 * order, named by the setting's storage key (`getOptionName(id)`), shown with the setting's
 * control or, without one, the default control of its type.
 *
 * @example
 * ```ts
 * const fields = new Framework_Register_Settings_Fields(plugin.getSettingsHandler()!);
 * const page = new Framework_Register_Settings(plugin, { fields });
 * ```
 */
export class Framework_Register_Settings_Fields {
  readonly #settings: Framework_Abstract_Settings;

  /** @param settings - the settings handler whose settings the form edits */
  constructor(settings: Framework_Abstract_Settings) {
    this.#settings = settings;
  }

  /** The settings handler the fields edit. */
  getSettingsHandler(): Framework_Abstract_Settings {
    return this.#settings;
  }

  /** The fields, one per registered setting, in registration order. */
  getFields(): AdminField[] {
    return [...this.#settings.getSettings().values()].map((setting) => this.#fieldOf(setting));
  }

  /**
   * The current values (stored, else default; `null` when neither), by setting id, read
   * fresh from the store in one `getMany`.
   *
   * @throws `OptionStoreError` when the store fails
   */
  async readValues(): Promise<Map<string, unknown>> {
    await this.#settings.load();
    const values = new Map<string, unknown>();
    for (const [id, setting] of this.#settings.getSettings()) {
      values.set(id, setting.getValue() ?? setting.getDefault());
    }
    return values;
  }

  /**
   * The fields' values at one level — the global one (no scope) or a scope — read in one store
   * round trip when not cached: what each shows (resolved, default applied, secrets masked),
   * what is stored at the level itself, and where the shown value comes from.
   *
   * @throws `Framework_Plugin_Exception` (400) for an invalid scope path; `OptionStoreError` when the store fails
   */
  async readLevel(scope?: string): Promise<Map<string, LevelValue>> {
    const level = this.#settings.level(scope);
    const objects = await level.getSettingObjects();
    const values = new Map<string, LevelValue>();
    for (const object of objects) {
      const [own, origin] = await Promise.all([level.getOwnValue(object.id), level.getOrigin(object.id)]);
      values.set(object.id, { shown: object.value, own, origin });
    }
    return values;
  }

  /** What each field shows for `values` (as {@link readValues} answers them), by setting id. */
  statesFor(values: ReadonlyMap<string, unknown>): Map<string, FieldState> {
    const states = new Map<string, FieldState>();
    for (const field of this.getFields()) {
      const id = field.setting.getId();
      const value = values.get(id) ?? null;
      const row = widgetRow(field.widget);
      states.set(id, {
        texts: row.formTexts(field.setting, field.widget, value),
        note: row.note(field.widget, value),
      });
    }
    return states;
  }

  /**
   * Reads a submitted form: every field converted to its type and validated by the settings
   * layer. Fields absent from the form show `current` (their stored values) when rendered
   * again; secret fields never show what was typed, and say under the field that it was not
   * saved (the states are shown only when the save failed).
   */
  readSubmission(form: URLSearchParams, current: ReadonlyMap<string, unknown>): SettingsSubmission {
    const outcomes = new Map<string, FieldOutcome>();
    const states = new Map<string, FieldState>();
    const errors = new Map<string, string>();
    const typedSecrets = new Map<string, string>();
    for (const field of this.getFields()) {
      const id = field.setting.getId();
      const row = widgetRow(field.widget);
      const submitted = form.getAll(field.name).map(normaliseLineBreaks);
      const typed = submitted.filter((text) => text !== '' && text !== MASKED_VALUE).join('\n');
      const typedSecret = field.setting.isSecret() && typed !== '';
      if (typedSecret) typedSecrets.set(id, typed);
      const { texts, outcome } = row.read(field.setting, field.widget, submitted);
      outcomes.set(id, outcome);
      const currentValue = current.get(id) ?? null;
      // Browsers omit an unchecked box or an empty multi-choice: absent, it shows what was sent.
      const shown =
        submitted.length > 0 || row.absentMeansEmpty
          ? texts
          : row.formTexts(field.setting, field.widget, currentValue);
      const error = outcome.action === 'invalid' ? outcome.message : undefined;
      if (error !== undefined) errors.set(id, error);
      // These states are shown only when the save failed: a typed secret is then gone, and says so.
      const note = row.note(field.widget, currentValue);
      states.set(id, {
        texts: shown,
        error,
        note: typedSecret ? `${SECRET_NOT_SAVED_NOTE}${note === undefined ? '' : ` ${note}`}` : note,
      });
    }
    return { outcomes, states, errors, typedSecrets };
  }

  /**
   * The ids of the fields among `inherit` (their "Use parent value" box ticked) that the form
   * changed: what they sent differs from what they showed (see `inherit-edits.ts`); `current`
   * is what each shows now, for a form that did not post what it showed.
   */
  editedWhileInheriting(
    form: URLSearchParams,
    inherit: ReadonlySet<string>,
    current: ReadonlyMap<string, unknown>,
  ): Set<string> {
    return editedWhileInheriting(this.getFields(), form, inherit, current);
  }

  /** The fields as HTML rows, each showing its state from `states` (by setting id). */
  renderFields(states: ReadonlyMap<string, FieldState>): string {
    return this.getFields()
      .map((field) =>
        widgetRow(field.widget).render(field, states.get(field.setting.getId()) ?? { texts: [] }),
      )
      .join('\n');
  }

  #fieldOf(setting: Framework_Setting): AdminField {
    const control = setting.getControl();
    const name = this.#settings.getOptionName(setting.getId());
    return {
      setting,
      name,
      elementId: elementIdOf(name),
      label: control?.getName() || setting.getName() || setting.getId(),
      description: control?.getDescription() || setting.getDescription(),
      widget: resolveWidget(setting),
    };
  }
}
