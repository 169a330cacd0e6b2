import { MemoryOptionStore } from 'commerce-plugin-framework';
import { BenchSettings, seedTexts, settingId, settingType, storageKey } from '../fixtures/bench-settings';
import { compareInterleaved } from '../harness/interleaved';
import type { RunSettings, Scenario, ScenarioOutput } from '../harness/scenario';
import { timeRow } from '../harness/time-row';

const SETTINGS = 100;
/** An `integer` setting: the baseline converts its text the way the settings layer reads integers. */
const INDEX = 1;
const OPS = 1000;
const DECIMAL_TEXT = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Warm `getValue` of a loaded setting, against `Map.get` of the stored text plus the same
 * conversion to an integer (decimal check, `Number`, truncation). `getValue` returns a
 * Promise, so the baseline is an async function too and both are awaited: the comparison is
 * between two async reads, not between an async read and a plain map access.
 */
export const getValueScenario: Scenario = {
  id: 'get-value',
  title: 'warm getValue of a loaded setting',
  async run(settings: RunSettings): Promise<ScenarioOutput> {
    if (settingType(INDEX) !== 'integer') throw new Error('get-value: fixture setting must be an integer');
    const texts = seedTexts(SETTINGS);
    const subjectSettings = new BenchSettings(SETTINGS, new MemoryOptionStore(texts));
    await subjectSettings.load();
    const id = settingId(INDEX);

    // The stored texts by setting id: the baseline looks up the same id string the subject gets.
    const map = new Map<string, string>();
    for (let index = 0; index < SETTINGS; index++) map.set(settingId(index), texts[storageKey(index)]!);
    const baselineGetValue = async (key: string): Promise<unknown> => {
      const text = map.get(key);
      if (text === undefined || !DECIMAL_TEXT.test(text)) return null;
      return Math.trunc(Number(text));
    };

    const expected = await baselineGetValue(id);
    const actual = await subjectSettings.getValue(id);
    if (actual !== expected) throw new Error(`get-value: subject read ${actual}, baseline ${expected}`);

    let sink: unknown;
    const comparison = await compareInterleaved(
      {
        label: 'settings.getValue(id)',
        run: async () => {
          for (let n = 0; n < OPS; n++) sink = await subjectSettings.getValue(id);
        },
      },
      {
        label: 'async Map.get + integer conversion',
        run: async () => {
          for (let n = 0; n < OPS; n++) sink = await baselineGetValue(id);
        },
      },
      { opsPerCall: OPS, rounds: settings.rounds, timeMs: settings.timeMs, warmupMs: settings.warmupMs },
    );
    if (sink !== expected) throw new Error('get-value: the last read changed');
    return {
      rows: [
        timeRow(
          {
            id: 'get-value',
            table: 'targets',
            title: 'warm `getValue` of a loaded setting',
            target: { kind: 'time', ratio: 3, text: '≤ 3× baseline time' },
          },
          comparison,
        ),
      ],
    };
  },
};
