import {
  convertSetting,
  defineMigration,
  remapOptions,
  removeSetting,
  renameSetting,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

describe('defineMigration: what a step touches', () => {
  it('declares the ids of its helpers, so a migration reads and compares only those', () => {
    const step = defineMigration(
      2,
      'helpers only',
      renameSetting('api_key', 'secret_key'),
      remapOptions('mode', { live: 'production' }),
      convertSetting('retries', Number),
      removeSetting('legacy'),
    );
    expect(step.touches).toEqual(['api_key', 'secret_key', 'mode', 'retries', 'legacy']);
  });

  it('declares nothing when one change is the user’s own (it may read any id)', () => {
    const step = defineMigration(2, 'mixed', renameSetting('a', 'b'), {
      apply(level) {
        if (level.text('c') === 'x') level.delete('b');
      },
    });
    expect(step).not.toHaveProperty('touches');
  });
});
