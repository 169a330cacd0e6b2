import type { ControlObject, Framework_Control } from './control';
import type { SettingType } from './setting-types';
import type { ValueCodec } from './value-codec';

/** The REST shape of a setting (CONTRACT §5): what `GET …/settings/{id}` answers. */
export interface SettingObject {
  /** The setting's id. */
  id: string;
  /** One of the seven setting types. */
  type: string;
  /** The label. */
  name: string;
  /** The help text. */
  description: string;
  /** Whether the value is an array of values of the type. */
  is_multi: boolean;
  /** The allowed values; `[]` when any value of the type is allowed. */
  options: unknown[];
  /** `null` when the setting has no default. */
  default: unknown;
  /** The current value with the default applied; `null` when neither exists. */
  value: unknown;
  /** The control that shows the setting, or `null`. */
  control: ControlObject | null;
}

/** Everything a setting is made of; fixed at registration. */
/** @internal */
export interface SettingDefinition {
  readonly id: string;
  readonly type: SettingType;
  readonly name: string;
  readonly description: string;
  readonly isMulti: boolean;
  readonly options: readonly unknown[];
  readonly defaultValue: unknown;
  readonly codec: ValueCodec;
}

const UNCONFIGURED: SettingDefinition = {
  id: '',
  type: 'string',
  name: '',
  description: '',
  isMulti: false,
  options: [],
  defaultValue: null,
  codec: {
    problem: () => 'the setting is not registered',
    encode: String,
    decode: () => undefined,
  },
};

/**
 * One registered setting: its definition (type, label, default, allowed options, control)
 * and its current in-memory value. Created by {@link Framework_Abstract_Settings.registerSetting};
 * read values through the settings container, which loads them from the store.
 */
export class Framework_Setting {
  #definition: SettingDefinition = UNCONFIGURED;
  #value: unknown = null;
  #control: Framework_Control | null = null;
  /** True when the in-memory value is known to mirror the store. */
  #fresh = false;
  /** Counts the reports that the stored value changed elsewhere (see {@link markStale}). */
  #generation = 0;

  /** @internal Called once by the settings container. */
  configure(definition: SettingDefinition): void {
    this.#definition = definition;
  }

  /** @internal The compiled validation and storage logic. */
  get codec(): ValueCodec {
    return this.#definition.codec;
  }

  /** @internal Whether the in-memory value mirrors the store. */
  get isFresh(): boolean {
    return this.#fresh;
  }

  /** @internal The number of change reports so far; a store access records it when it starts. */
  get generation(): number {
    return this.#generation;
  }

  /**
   * @internal Sets the in-memory value (`null`: nothing stored) from a store access that
   * started at `startedAt` (a {@link generation}). The value counts as current only when no
   * change was reported since then; otherwise the setting stays stale and is read again.
   */
  setStoredValue(value: unknown, startedAt: number): void {
    this.#value = value ?? null;
    this.#fresh = startedAt === this.#generation;
  }

  /** @internal Marks the in-memory value as possibly out of date: the next read goes to the store. */
  markStale(): void {
    this.#generation++;
    this.#fresh = false;
  }

  /** @internal Attaches the control. */
  setControl(control: Framework_Control): void {
    this.#control = control;
  }

  /** The setting's id, unique within its container. */
  getId(): string {
    return this.#definition.id;
  }
  /** One of the seven setting types. */
  getType(): string {
    return this.#definition.type;
  }
  /** The label. */
  getName(): string {
    return this.#definition.name;
  }
  /** The help text. */
  getDescription(): string {
    return this.#definition.description;
  }
  /** Whether the value is an array of values of the type. */
  isMulti(): boolean {
    return this.#definition.isMulti;
  }
  /** The allowed values (`[]`: any value of the type). */
  getOptions(): unknown[] {
    return [...this.#definition.options];
  }
  /** The default value, or `null` when there is none. */
  getDefault(): unknown {
    return this.#definition.defaultValue;
  }
  /** The current in-memory value, `null` when nothing is stored (the default is not applied). */
  getValue(): unknown {
    return this.#value;
  }
  /** The control that shows this setting, or `null`. */
  getControl(): Framework_Control | null {
    return this.#control;
  }
  /** Whether `updateValue` would accept `value` (the whole array for a multi setting; options are checked). */
  validateValue(value: unknown): boolean {
    return this.#definition.codec.problem(value) === undefined;
  }
  /** Why `updateValue` would reject `value`, or `undefined` when it would accept it. */
  describeInvalidValue(value: unknown): string | undefined {
    return this.#definition.codec.problem(value);
  }

  /** The REST shape (CONTRACT §5), with the default applied to `value`. */
  toJSON(): SettingObject {
    const definition = this.#definition;
    return {
      id: definition.id,
      type: definition.type,
      name: definition.name,
      description: definition.description,
      is_multi: definition.isMulti,
      options: [...definition.options],
      default: definition.defaultValue,
      value: this.#value ?? definition.defaultValue,
      control: this.#control ? this.#control.toJSON() : null,
    };
  }
}
