/**
 * Settings whose one migration step increments a counter at every level: a level migrated twice
 * shows 2, one skipped shows 0. For the exactly-once tests across processes.
 */
import { Framework_Abstract_Settings, type OptionStore } from '../../../../src/index';

/** The counter settings at schema version 2; `delayMs` slows each level's step down (to be killed mid-way). */
export class CounterSettings extends Framework_Abstract_Settings {
  constructor(store: OptionStore, delayMs = 0) {
    super('counted', store, {
      schemaVersion: 2,
      migrateOnLoad: false,
      migrations: [
        {
          version: 2,
          name: 'increment',
          async up(level) {
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
            const value = level.value('counter');
            level.set('counter', (typeof value === 'number' ? value : 0) + 1);
          },
        },
      ],
    });
  }
  protected registerSettings(): void {
    this.registerSetting('counter', 'integer');
  }
}

/** The storage key of the counter at `scope` (`''`: global). */
export function counterKey(scope: string): string {
  return scope === '' ? 'framework_counted_counter' : `framework_counted_counter@${scope}`;
}

/** The scope paths of the tests: `s0` … `s<n-1>`. */
export function scopes(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `s${index}`);
}
