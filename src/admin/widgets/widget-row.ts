import type { Framework_Setting } from '../../settings/setting';
import type { AdminField, FieldState } from '../admin-field';
import type { FieldWidget } from '../field-widget';
import type { FieldOutcome } from '../form-value-codec';

/** The kinds of {@link FieldWidget}: `input`, `textarea`, `lines`, `checkbox`, `select`, … */
export type WidgetKind = FieldWidget['kind'];

/** The widget of one kind, e.g. `WidgetOfKind<'input'>` is `{ kind: 'input'; inputType }`. */
export type WidgetOfKind<K extends WidgetKind> = Extract<FieldWidget, { kind: K }>;

/** A form field shown with a widget of type `W`. */
export type WidgetField<W extends FieldWidget> = AdminField & { readonly widget: W };

/** One submitted field: the texts to show if the form is rendered again, and what they ask for. */
export interface FieldReading {
  /** The submitted texts (line breaks as LF), as the field shows them again. */
  readonly texts: string[];
  /** What the texts ask for, validated by the settings layer. */
  readonly outcome: FieldOutcome;
}

/**
 * One row of the widget table (`widget-table.ts`): everything the admin form knows about one
 * kind of {@link FieldWidget}. Rendering, the form texts of a value, reading a submission, the
 * note under the field and the error summary's link all read the same row, as the setting
 * types do in `settings/setting-types.ts`.
 */
export interface WidgetRow<W extends FieldWidget> {
  /** The field as HTML: its control inside a labelled row or a fieldset, showing `state`. */
  render(field: WidgetField<W>, state: FieldState): string;
  /**
   * The form texts that show `value` (a typed value, `null` for none): one text for inputs and
   * text areas, the chosen option texts for choices, `yes` for a checked box. Secret fields
   * show nothing.
   */
  formTexts(setting: Framework_Setting, widget: W, value: unknown): string[];
  /**
   * Reads the texts the form sent under the field's name (none when it is absent; line breaks
   * already LF): what they ask for, validated by the settings layer. A field absent from the
   * form keeps the stored value unless it means nothing chosen ({@link absentMeansEmpty}).
   */
  read(setting: Framework_Setting, widget: W, texts: string[]): FieldReading;
  /** The note under the help text for the current `value`, if any. */
  note(widget: W, value: unknown): string | undefined;
  /**
   * Whether a field absent from the form means "nothing chosen" (an unchecked box, a checkbox
   * group or multi-select without a choice: browsers send nothing for them) rather than "keep
   * the stored value"; the form shown again then keeps what was submitted, not the stored value.
   */
  readonly absentMeansEmpty: boolean;
  /** The HTML id the error summary links to: the control, or a group's first choice. */
  anchorId(field: WidgetField<W>): string;
  /**
   * Whether a browser submits a value of its own for this control when it is rendered empty (a
   * colour input sends `#000000`, a range its middle): what it sends then says nothing about an
   * edit.
   */
  fillsWhenEmpty(widget: W): boolean;
}
