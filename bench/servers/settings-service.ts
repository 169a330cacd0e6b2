import { MemoryOptionStore } from 'commerce-plugin-framework';
import { BenchSettings, seedTexts } from '../fixtures/bench-settings';

/** The number of settings every HTTP server serves. */
export const HTTP_SETTINGS = 100;

/** The settings every HTTP server answers from: 100 settings in memory, loaded. */
export async function loadedSettings(): Promise<BenchSettings> {
  const settings = new BenchSettings(HTTP_SETTINGS, new MemoryOptionStore(seedTexts(HTTP_SETTINGS)));
  await settings.load();
  return settings;
}
