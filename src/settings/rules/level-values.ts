import type { SettingsSchema } from '../schema/settings-schema';
import type { LevelTexts } from '../schema-versions/level-texts';

/**
 * Every registered setting's value at a level as `getValue` reads it, from the plain texts of the
 * level's chain (nearest first, the global level last): the nearest text that reads, `null` at a
 * scope's unreadable secret, else the default. What the rules of a migration or a plan are given.
 */
export function levelValues(schema: SettingsSchema, chain: readonly LevelTexts[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const last = chain.length - 1;
  for (const setting of schema.settings()) {
    const id = setting.getId();
    let value: unknown = setting.getDefault();
    for (let index = 0; index <= last; index++) {
      const level = chain[index]!;
      const text = level.texts.get(id);
      const decoded = text === undefined ? undefined : setting.codec.decode(text);
      if (decoded !== undefined) {
        value = decoded;
        break;
      }
      if (level.unreadable.has(id) && index < last) {
        value = null;
        break;
      }
    }
    values[id] = value;
  }
  return values;
}
