import type { ControlType } from './control-types';

/** The REST shape of a control: part of the Setting object. */
export interface ControlObject {
  /** One of the twelve control types. */
  type: string;
  /** The label (the setting's name unless the control has its own). */
  name: string;
  /** The help text (the setting's description unless the control has its own). */
  description: string;
  /** Option labels keyed by the option's text; `{}` when the control offers no choices. */
  options: Record<string, string>;
}

/**
 * A UI-control descriptor: how a setting is shown in a form (`select`, `checkbox`, …), with
 * its label, help text and, for choices, option labels keyed by the option's text.
 * Created by {@link Framework_Abstract_Settings.registerControl}.
 */
export class Framework_Control {
  #settingId = '';
  #type: ControlType | string = 'text';
  #name = '';
  #description = '';
  #options: Record<string, string> = {};
  #revision = 0;

  /** @internal Counts the changes made through the setters (caches of the REST shape compare it). */
  get revision(): number {
    return this.#revision;
  }

  /** The id of the setting this control shows. */
  getSettingId(): string {
    return this.#settingId;
  }
  /** One of the twelve control types. */
  getType(): string {
    return this.#type;
  }
  /** The label. */
  getName(): string {
    return this.#name;
  }
  /** The help text. */
  getDescription(): string {
    return this.#description;
  }
  /** Option labels keyed by the option's text (`{}` when the control offers no choices). */
  getOptions(): Record<string, string> {
    return { ...this.#options };
  }
  /** Sets the id of the setting this control shows. */
  setSettingId(id: string): void {
    this.#settingId = id;
    this.#revision++;
  }
  /** Sets the control type. */
  setType(type: string): void {
    this.#type = type;
    this.#revision++;
  }
  /** Sets the label. */
  setName(name: string): void {
    this.#name = name;
    this.#revision++;
  }
  /** Sets the help text. */
  setDescription(description: string): void {
    this.#description = description;
    this.#revision++;
  }
  /** Sets the option labels, keyed by the option's text. */
  setOptions(options: Record<string, string>): void {
    this.#options = Object.assign(Object.create(null), options);
    this.#revision++;
  }

  /** The REST shape: `{type, name, description, options}`. */
  toJSON(): ControlObject {
    return { type: this.#type, name: this.#name, description: this.#description, options: this.getOptions() };
  }
}
