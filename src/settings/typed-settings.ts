import type { OptionStore } from '../storage/option-store';
import { Framework_Abstract_Settings, type SettingArgs, type SettingsOptions } from './abstract-settings';
import type { ControlType } from './control-types';
import type { SettingType, SettingValueTypes } from './setting-types';
import { markPassThrough } from './writes/write-context';
import type { WriteOptions } from './writes/write-options';

/** One setting of a {@link defineSettings} declaration: the arguments of `registerSetting` plus its type and control. */
export interface SettingDeclaration extends SettingArgs {
  /** One of the seven setting types. */
  readonly type: SettingType;
  /** The UI control, as `registerControl` takes it. */
  readonly control?: {
    /** One of the twelve control types. */
    readonly type: ControlType;
    /** The label; defaults to the setting's name. */
    readonly name?: string;
    /** The help text; defaults to the setting's description. */
    readonly description?: string;
    /** Option labels keyed by the option's text. */
    readonly options?: Record<string, string>;
  };
}

/** A declaration of settings by id, in registration order. */
export type SettingsDeclaration = Readonly<Record<string, SettingDeclaration>>;

/** The type of one value of a declared setting: its options' literal types when it has options, else its type's. */
export type DeclaredElement<D extends SettingDeclaration> = D extends {
  /** The declared options. */
  readonly options: readonly (infer O)[];
}
  ? [O] extends [never]
    ? SettingValueTypes[D['type']]
    : O
  : SettingValueTypes[D['type']];

/** The type of a declared setting's value: an array of elements for `is_multi: true`. */
export type DeclaredValue<D extends SettingDeclaration> = D extends {
  /** Declared multi-valued. */
  readonly is_multi: true;
}
  ? DeclaredElement<D>[]
  : DeclaredElement<D>;

/** What `getValue(id)` resolves to: the value, or `null` when the setting has no default and nothing is stored. */
export type DeclaredReadValue<D extends SettingDeclaration> = D extends {
  /** A declared default. */
  readonly default: NonNullable<unknown>;
}
  ? DeclaredValue<D>
  : DeclaredValue<D> | null;

/**
 * A settings container made from a declaration, whose methods know each declared setting's
 * id and value type. Usually created through {@link defineSettings}.
 */
export class DeclaredSettings<S extends SettingsDeclaration> extends Framework_Abstract_Settings {
  readonly #declaration: S;

  /**
   * @param declaration - the settings, by id, in registration order
   * @param id - the plugin's id
   * @param store - where the values live
   * @param options - storage-key prefix and store timeout
   */
  constructor(declaration: S, id: string, store: OptionStore, options?: SettingsOptions) {
    super(id, store, options);
    this.#declaration = declaration;
  }

  /** Registers the declared settings and their controls, in declaration order. */
  protected registerSettings(): void {
    for (const [id, { type, control, ...args }] of Object.entries(this.#declaration)) {
      this.registerSetting(id, type, args);
      if (control) {
        const { type: controlType, ...controlArgs } = control;
        this.registerControl(id, controlType, controlArgs);
      }
    }
  }

  /** {@inheritDoc Framework_Abstract_Settings.getValue} */
  override getValue<K extends keyof S & string>(id: K, withDefault?: true): Promise<DeclaredReadValue<S[K]>>;
  override getValue<K extends keyof S & string>(
    id: K,
    withDefault: boolean,
  ): Promise<DeclaredValue<S[K]> | null>;
  override getValue(id: string, withDefault = true): Promise<unknown> {
    return super.getValue(id, withDefault);
  }

  /** {@inheritDoc Framework_Abstract_Settings.updateValue} */
  override updateValue<K extends keyof S & string>(
    id: K,
    value: DeclaredValue<S[K]>,
    options?: WriteOptions,
  ): Promise<void> {
    return super.updateValue(id, value, options);
  }

  /** {@inheritDoc Framework_Abstract_Settings.deleteValue} */
  override deleteValue(id: keyof S & string, options?: WriteOptions): Promise<boolean> {
    return super.deleteValue(id, options);
  }
}
// The typed methods only narrow the types and pass everything on: no write-context wrapper needed.
markPassThrough(DeclaredSettings.prototype.updateValue);
markPassThrough(DeclaredSettings.prototype.deleteValue);

/** The class {@link defineSettings} returns: construct it like any settings container, or extend it. */
export interface TypedSettingsClass<S extends SettingsDeclaration> {
  new (id: string, store: OptionStore, options?: SettingsOptions): DeclaredSettings<S>;
  /** The declaration the class was made from. */
  readonly declaration: S;
}

/**
 * Declares settings so that TypeScript knows each value's type, and returns a
 * {@link Framework_Abstract_Settings} class registering them (in declaration order) with the
 * same run-time behaviour as a hand-written `registerSettings`.
 *
 * @example
 * ```ts
 * const GatewaySettings = defineSettings({
 *   enabled: { type: 'boolean', name: 'Enabled', default: false },
 *   mode: { type: 'string', options: ['live', 'test'], default: 'test', control: { type: 'select' } },
 *   retries: { type: 'integer' },
 * });
 * const settings = new GatewaySettings('acme', store);
 * const enabled = await settings.getValue('enabled'); // boolean
 * const mode = await settings.getValue('mode'); // 'live' | 'test'
 * const retries = await settings.getValue('retries'); // number | null
 * await settings.updateValue('enabled', 'yes'); // compile error
 * ```
 *
 * Extend the returned class to add checks: `class Mine extends defineSettings({...}) { override async updateValue(...) {...} }`.
 */
export function defineSettings<const S extends SettingsDeclaration>(declaration: S): TypedSettingsClass<S> {
  return class extends DeclaredSettings<S> {
    static readonly declaration = declaration;

    constructor(id: string, store: OptionStore, options?: SettingsOptions) {
      super(declaration, id, store, options);
    }
  };
}
