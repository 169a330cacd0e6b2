/**
 * A plugin whose settings cover every setting type, each plain, with a default, with options
 * and multi with options, and every control type.
 */
import {
  type ControlType,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type OptionStore,
  type SettingType,
} from 'commerce-plugin-framework';

/** A valid value per setting type, and two options of each. */
export const SAMPLES: Readonly<Record<SettingType, readonly [unknown, unknown]>> = {
  string: ['alpha', 'beta'],
  url: ['https://shop.example/a', 'HTTP://shop.example/b'],
  email: ['shop@example.com', 'desk@example.org'],
  integer: [7, -3],
  float: [2.5, 10],
  boolean: [true, false],
  object: [{ a: 1, list: [1, 'x', null] }, ['x', { y: true }]],
};

/** The control of some settings; together every control type. */
const CONTROLS: Readonly<Record<string, ControlType>> = {
  string_plain: 'text',
  string_default: 'textarea',
  string_options: 'radio',
  string_multi: 'select',
  url_plain: 'text',
  email_plain: 'email',
  integer_plain: 'number',
  integer_default: 'range',
  float_default: 'number',
  boolean_plain: 'checkbox',
  object_plain: 'textarea',
};

/** Further string settings shown with the other controls. */
const STRING_CONTROLS: readonly ControlType[] = ['password', 'date', 'color', 'file'];

class EverySettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    for (const [type, [first, second]] of Object.entries(SAMPLES) as [SettingType, [unknown, unknown]][]) {
      this.registerSetting(`${type}_plain`, type, { name: `${type} plain` });
      this.registerSetting(`${type}_default`, type, {
        description: `A ${type} with a default.`,
        default: first,
      });
      this.registerSetting(`${type}_options`, type, { options: [first, second], default: second });
      this.registerSetting(`${type}_multi`, type, { options: [first, second], is_multi: true });
    }
    for (const control of STRING_CONTROLS) this.registerSetting(`string_${control}`, 'string');
    for (const [id, control] of Object.entries(CONTROLS)) {
      const options = this.getSetting(id)!.getOptions();
      this.registerControl(id, control, {
        name: `${id} field`,
        ...(options.length > 0
          ? { options: Object.fromEntries(options.map((option) => [String(option), `Option ${option}`])) }
          : {}),
      });
    }
    for (const control of STRING_CONTROLS) this.registerControl(`string_${control}`, control);
  }
}

/** The plugin of {@link EverySettings}, id `every`. */
export class EverySettingPlugin extends Framework_Plugin {
  readonly #settings: EverySettings;

  constructor(store: OptionStore = new MemoryOptionStore()) {
    super({ id: 'every', name: 'Every setting', version: '1.0.0' });
    this.#settings = new EverySettings('every', store);
  }

  override getSettingsHandler(): EverySettings {
    return this.#settings;
  }
}
