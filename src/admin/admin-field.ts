import type { Framework_Setting } from '../settings/setting';
import type { FieldWidget } from './field-widget';

/** One form field of a settings page: a setting, the name it is posted under and how it is shown. */
export interface AdminField {
  /** The setting the field edits. */
  readonly setting: Framework_Setting;
  /** The form field name: the setting's storage key, `${optionPrefix}_${pluginId}_${settingId}`. */
  readonly name: string;
  /** The HTML id of the field's control (derived from `name`). */
  readonly elementId: string;
  /** The label: the control's name, else the setting's name, else its id. */
  readonly label: string;
  /** The help text: the control's description, else the setting's. */
  readonly description: string;
  /** How the field is shown and read back. */
  readonly widget: FieldWidget;
}

/** What one field shows: its form texts, and an error or a note under it. */
export interface FieldState {
  /** The form texts (see the widget row's `formTexts`): the current value, or what was just submitted. */
  readonly texts: readonly string[];
  /** Why the submitted value was refused, shown next to the field. */
  readonly error?: string;
  /** A note under the help text (e.g. "A password is saved; leave the field empty to keep it."). */
  readonly note?: string;
  /** The link to the field's history view at the page's level (settings page only). */
  readonly history?: string;
  /**
   * On a scope's page: the "Use parent value" box — ticked when the scope stores no value of
   * its own — and, for a ticked box, where the value shown comes from (e.g. `scope eu`) and a
   * digest of what the field shows.
   */
  readonly inherit?: {
    readonly checked: boolean;
    readonly from: string;
    /**
     * For a ticked box: a digest of the texts the field shows, posted back with the form, so
     * that the page can tell a field edited while its box was ticked (see `shownDigest`).
     */
    readonly shown?: string;
  };
}
