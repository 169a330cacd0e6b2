import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';
import type { SettingsSchema } from '../schema/settings-schema';
import type { LevelTexts } from './level-texts';
import type { MigrationLevel } from './settings-migration';

/**
 * The {@link MigrationLevel} one step sees of one level: the level's texts in memory, the ids the
 * step may touch (every registered one and the step's `reads`). Values are checked as
 * `updateValue` checks them; secrets are plain here and encrypted when the level is written.
 */
export class MigrationLevelView implements MigrationLevel {
  readonly scope: string | null;
  readonly #schema: SettingsSchema;
  readonly #state: LevelTexts;
  readonly #reads: ReadonlySet<string>;
  readonly #where: string;

  /**
   * @param scope - `''` for the global level, else the scope path
   * @param schema - today's registration
   * @param state - the level's texts (changed in place)
   * @param reads - the ids the step declared besides the registered ones
   */
  constructor(scope: string, schema: SettingsSchema, state: LevelTexts, reads: ReadonlySet<string>) {
    this.scope = scope === '' ? null : scope;
    this.#schema = schema;
    this.#state = state;
    this.#reads = reads;
    this.#where = scope === '' ? 'global' : `scope "${scope}"`;
  }

  text(id: string): string | undefined {
    this.#allow(id);
    this.#readable(id);
    return this.#state.texts.get(id);
  }

  value(id: string): unknown {
    this.#allow(id);
    const setting = this.#schema.get(id);
    if (setting === undefined || this.#state.unreadable.has(id)) return undefined;
    const text = this.#state.texts.get(id);
    return text === undefined ? undefined : setting.codec.decode(text);
  }

  set(id: string, value: unknown): void {
    this.#allow(id);
    const setting = this.#schema.get(id);
    if (setting === undefined) {
      throw new Framework_Plugin_Exception(
        `MigrationLevel.set: "${id}" is not a registered setting (only registered settings can be set)`,
        400,
      );
    }
    const problem = setting.describeInvalidValue(value);
    if (problem !== undefined) {
      throw new Framework_Plugin_Exception(`Invalid value for setting "${id}": ${problem}`, 400);
    }
    this.#state.remove(id);
    this.#state.texts.set(id, setting.codec.encode(value));
  }

  delete(id: string): void {
    this.#allow(id);
    this.#state.remove(id);
  }

  rename(from: string, to: string): void {
    this.#allow(from);
    this.#allow(to);
    if (from === to || !this.#state.has(from)) return;
    this.#readable(from);
    if (this.#state.has(to)) this.#state.remove(from);
    else this.#state.move(from, to);
  }

  #allow(id: string): void {
    if (typeof id !== 'string' || (!this.#schema.has(id) && !this.#reads.has(id))) {
      throw new Framework_Plugin_Exception(
        `MigrationLevel: "${String(id)}" is neither a registered setting nor among the step's reads`,
        400,
      );
    }
  }

  #readable(id: string): void {
    if (this.#state.unreadable.has(id)) {
      throw new Framework_Plugin_Exception(
        `The stored secret "${id}" at the ${this.#where} level cannot be decrypted`,
        500,
      );
    }
  }
}
