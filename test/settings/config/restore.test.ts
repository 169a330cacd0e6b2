import {
  createAesGcmCipher,
  Framework_Abstract_Settings,
  MemoryOptionStore,
  type OptionStore,
  type SettingsOptions,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorePair } from '../../reliability/support/real-stores';
import { GatewayV1, GatewayV3 } from '../schema-versions/support/gateway-versions';
import { describeOnEveryStore } from '../support/every-store';

const KEY = { id: 'k1', key: btoa(String.fromCharCode(...new Uint8Array(32).fill(6))) };
const cipher = () => createAesGcmCipher([KEY]);

class Shop extends Framework_Abstract_Settings {
  constructor(store: OptionStore, options: SettingsOptions = {}) {
    super('acme', store, { secrets: cipher(), ...options });
  }
  protected registerSettings(): void {
    this.registerSetting('title', 'string', { default: 'Shop' });
    this.registerSetting('fee', 'float');
    this.registerSetting('api_key', 'string', { secret: true });
    this.registerSetting('tags', 'string', { is_multi: true });
  }
}

/** The newest history entry id over the levels `levels`. */
async function newestEntry(shop: Shop, levels: readonly string[]): Promise<string> {
  const ids: string[] = [];
  for (const level of levels) {
    const [entry] = await shop.level(level).getHistory({ limit: 1 });
    if (entry) ids.push(entry.id);
  }
  return ids.sort().at(-1)!;
}

describeOnEveryStore('restore', (open) => {
  let pair: StorePair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('brings every level back to the state right after an entry, or at a time — secrets included — and applies it', async () => {
    pair = await open();
    const shop = new Shop(pair.first);
    await shop.updateValue('title', 'First');
    await shop.updateValue('api_key', 'sk_first_secret');
    await shop.scope('eu').updateValue('fee', 2);
    const then = await shop.exportSettings();
    const point = await newestEntry(shop, ['', 'eu']);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const time = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    await shop.updateValue('title', 'Second');
    await shop.updateValue('api_key', 'sk_second_secret');
    await shop.scope('eu').deleteValue('fee');
    await shop.scope('us').updateValue('tags', ['a']);
    for (const to of [point, time]) {
      const plan = await shop.planRestore({ to });
      expect(plan.errors).toEqual([]);
      expect(plan.changes.map((change) => [change.scope, change.id, change.action]).sort()).toEqual(
        [
          [null, 'title', 'set'],
          [null, 'api_key', 'set'],
          ['eu', 'fee', 'set'],
          ['us', 'tags', 'delete'],
        ].sort(),
      );
      expect(JSON.stringify(plan)).not.toMatch(/sk_(first|second)_secret/);
      const other = new Shop(pair.second);
      await other.applyPlan(JSON.parse(JSON.stringify(plan)), { actor: { id: 'ops' } });
      expect(await other.exportSettings()).toEqual(then);
      expect(await other.getValue('api_key')).toBe('sk_first_secret');
      const [entry] = await other.getHistory({ settingId: 'title', limit: 1 });
      expect(entry).toMatchObject({ via: 'import', actor: { id: 'ops' } });
      // Forward again for the next target.
      await other.updateValue('title', 'Second');
      await other.updateValue('api_key', 'sk_second_secret');
      await other.scope('eu').deleteValue('fee');
      await other.scope('us').updateValue('tags', ['a']);
      other.dispose();
    }
    // One level, some settings.
    const titleOnly = await shop.planRestore({ to: point, scope: null, settingIds: ['title'] });
    expect(titleOnly.changes).toEqual([
      { scope: null, id: 'title', action: 'set', old: 'Second', new: 'First' },
    ]);
    const euOnly = await shop.planRestore({ to: point, scope: 'eu' });
    expect(euOnly.changes).toEqual([{ scope: 'eu', id: 'fee', action: 'set', old: null, new: 2 }]);
    await expect(shop.planRestore({ to: 'no-such-entry' })).rejects.toMatchObject({ code: 404 });
    shop.dispose();
  });

  it('without a cipher a changed secret is secret_not_restorable; history trimmed past the point is history_too_short', async () => {
    pair = await open();
    const plain = new Shop(pair.first, { secrets: undefined });
    await plain.updateValue('api_key', 'sk_one');
    await plain.updateValue('title', 'One');
    const point = await newestEntry(plain, ['']);
    await plain.updateValue('api_key', 'sk_two');
    const plan = await plain.planRestore({ to: point });
    expect(plan.errors).toEqual([
      expect.objectContaining({ scope: null, id: 'api_key', code: 'secret_not_restorable' }),
    ]);
    expect(JSON.stringify(plan)).not.toContain('sk_one');
    plain.dispose();

    const short = new Shop(pair.second, { historyLimit: 2 });
    await short.scope('eu').updateValue('title', 'A');
    const early = await newestEntry(short, ['eu']);
    await short.scope('eu').updateValue('title', 'B');
    await short.scope('eu').updateValue('fee', 1);
    await short.scope('eu').updateValue('title', 'C');
    const tooShort = await short.planRestore({ to: early, scope: 'eu' });
    expect(tooShort.errors.map((error) => [error.id, error.code]).sort()).toEqual([
      ['fee', 'history_too_short'],
      ['title', 'history_too_short'],
    ]);
    short.dispose();
  });
});

describe('restore across a migration', () => {
  it('a past state at schema version 1 comes back migrated to today’s schema', async () => {
    const store = new MemoryOptionStore();
    const v1 = new GatewayV1('acme', store, { secrets: cipher() });
    await v1.updateValue('api_key', 'sk_before_migration');
    await v1.updateValue('mode', 'live');
    const point = (await v1.getHistory({ limit: 1 }))[0]!.id;
    await new Promise((resolve) => setTimeout(resolve, 2));
    const v3 = new GatewayV3('acme', store, { secrets: cipher() });
    await v3.load();
    await v3.updateValue('secret_key', 'sk_after_migration');
    await v3.updateValue('mode', 'sandbox');
    const plan = await v3.planRestore({ to: point });
    expect(plan.errors).toEqual([]);
    expect(plan.changes).toEqual([
      { scope: null, id: 'secret_key', action: 'set', old: '********', new: '********' },
      { scope: null, id: 'mode', action: 'set', old: 'sandbox', new: 'production' },
    ]);
    await v3.applyPlan(plan);
    expect(await v3.getValue('secret_key')).toBe('sk_before_migration');
    expect(await v3.getValue('mode')).toBe('production');
  });
});

describe('restore of random histories (fast-check)', () => {
  const LEVELS = ['', 'eu', 'eu/de'];
  const write = fc.oneof(
    fc.record({
      kind: fc.constant('set' as const),
      level: fc.constantFrom(...LEVELS),
      id: fc.constantFrom('title', 'fee', 'api_key', 'tags'),
      seed: fc.nat(5),
    }),
    fc.record({
      kind: fc.constant('delete' as const),
      level: fc.constantFrom(...LEVELS),
      id: fc.constantFrom('title', 'fee', 'api_key', 'tags'),
      seed: fc.constant(0),
    }),
  );
  const valueFor = (id: string, seed: number): unknown =>
    id === 'fee'
      ? seed + 0.5
      : id === 'tags'
        ? Array.from({ length: seed % 3 }, (_, i) => `t${i}`)
        : `${id}-${seed}`;

  it('planning a restore to any entry, then applying it, gives the state at that time', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 12 }), fc.nat(), async (writes, pick) => {
        const shop = new Shop(new MemoryOptionStore());
        const points: { entry: string; state: string }[] = [];
        for (const step of writes) {
          const level = shop.level(step.level);
          if (step.kind === 'set') await level.updateValue(step.id, valueFor(step.id, step.seed));
          else await level.deleteValue(step.id);
          const entry = await newestEntry(shop, LEVELS);
          if (entry !== undefined) points.push({ entry, state: JSON.stringify(await shop.exportSettings()) });
        }
        if (points.length === 0) return;
        const point = points[pick % points.length]!;
        const plan = await shop.planRestore({ to: point.entry });
        expect(plan.errors).toEqual([]);
        await shop.applyPlan(plan);
        expect(JSON.stringify(await shop.exportSettings())).toBe(point.state);
      }),
      { numRuns: 60 },
    );
  });
});
