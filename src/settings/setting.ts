import type { ControlObject, Framework_Control } from './control';
import { maskValue } from './secrets/mask';
import { describeInvalidSecret } from './secrets/secret-problem';
import type { SettingType } from './setting-types';
import type { SettingValueIssue } from './setting-value-error';
import type { ValueCodec } from './value-codec';
import { LevelEntry } from './values/level-entry';

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
  /** With a `scope` argument: the scope path the values are of (CONTRACT §10). */
  scope?: string;
  /** With a `scope` argument: where `value` comes from — a scope path, `''` for the global value, `null` for the default. */
  origin?: string | null;
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
  /** Registered with `secret: true` (a `password` control makes a setting secret too). */
  readonly secret: boolean;
}

/** A control's REST shape; a secret's without its options (their texts are the secret's possible values). */
function maskControl(control: ControlObject, secret: boolean): ControlObject {
  return secret ? { ...control, options: {} } : control;
}

const UNCONFIGURED: SettingDefinition = {
  id: '',
  type: 'string',
  name: '',
  description: '',
  isMulti: false,
  options: [],
  defaultValue: null,
  secret: false,
  codec: {
    problem: () => 'the setting is not registered',
    issues: () => [{ path: [], code: 'custom', message: 'the setting is not registered' }],
    encode: String,
    decode: () => undefined,
    decodeEncoded: () => undefined,
  },
};

/**
 * One registered setting: its definition (type, label, default, allowed options, control,
 * secrecy) and its current in-memory global value. Created by
 * {@link Framework_Abstract_Settings.registerSetting}; read values through the settings
 * container, which loads them from the store.
 */
export class Framework_Setting {
  #definition: SettingDefinition = UNCONFIGURED;
  #control: Framework_Control | null = null;
  /** @internal The setting's entry in the global value level (its value, stored text and freshness). */
  readonly globalEntry = new LevelEntry(1);

  /** @internal Called once by the settings container. */
  configure(definition: SettingDefinition): void {
    this.#definition = definition;
  }

  /** @internal The compiled validation and storage logic. */
  get codec(): ValueCodec {
    return this.#definition.codec;
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
  /**
   * The current in-memory global value, `null` when nothing is stored (the default is not
   * applied). For a secret it is the plain value: keep it inside the process.
   */
  getValue(): unknown {
    return this.globalEntry.value;
  }
  /**
   * Whether the setting is a secret (CONTRACT §7): registered with `secret: true`, or shown by
   * a `password` control. Its value leaves the process only as `"********"`, and it is
   * encrypted at rest when the container has a cipher.
   */
  isSecret(): boolean {
    return this.#definition.secret || this.#control?.getType() === 'password';
  }
  /** The control that shows this setting, or `null`. */
  getControl(): Framework_Control | null {
    return this.#control;
  }
  /** Whether `updateValue` would accept `value` (the whole array for a multi setting; options are checked). */
  validateValue(value: unknown): boolean {
    return this.#definition.codec.problem(value) === undefined;
  }
  /**
   * Why `updateValue` would reject `value`, or `undefined` when it would accept it. For a
   * secret the reason is general: it never repeats the value or the allowed options (text
   * refused only for a NUL character or a lone surrogate says so, without the text).
   */
  describeInvalidValue(value: unknown): string | undefined {
    const problem = this.#definition.codec.problem(value);
    if (problem === undefined || !this.isSecret()) return problem;
    const { type, isMulti, options, codec } = this.#definition;
    const expected = `${isMulti ? 'a list of values' : 'a value'} of type ${type}${options.length > 0 ? ' among the allowed options' : ''}`;
    return describeInvalidSecret(value, expected, (candidate) => codec.problem(candidate) === undefined);
  }

  /**
   * Why `updateValue` would reject `value`, as the zod check's issues (path, code, message),
   * or `undefined` when it would accept it. For a secret there is one general issue at the
   * value itself: neither the value, its keys nor the allowed options are repeated.
   */
  describeInvalidValueIssues(value: unknown): SettingValueIssue[] | undefined {
    const issues = this.#definition.codec.issues(value);
    if (issues === undefined || !this.isSecret()) return issues;
    return [{ path: [], code: issues[0]?.code ?? 'custom', message: this.describeInvalidValue(value) ?? '' }];
  }

  /**
   * The REST shape (CONTRACT §5) of the global value, with the default applied to `value`; a
   * secret's non-null `value` and `default` are `"********"`, its `options` `[]` and its
   * control's `options` `{}`.
   */
  toJSON(): SettingObject {
    return this.describe(this.globalEntry.value);
  }

  /**
   * @internal The REST shape for `value` (`null`: nothing stored, the default applies unless
   * `withoutDefault`: an unreadable scoped secret), secrets masked.
   */
  describe(value: unknown, withoutDefault = false): SettingObject {
    const definition = this.#definition;
    const secret = this.isSecret();
    return {
      id: definition.id,
      type: definition.type,
      name: definition.name,
      description: definition.description,
      is_multi: definition.isMulti,
      // A secret's options would say what its value may be: never shown (nor its control's).
      options: secret ? [] : [...definition.options],
      default: maskValue(definition.defaultValue, secret),
      value: maskValue(withoutDefault ? value : (value ?? definition.defaultValue), secret),
      control: this.#control ? maskControl(this.#control.toJSON(), secret) : null,
    };
  }
}
