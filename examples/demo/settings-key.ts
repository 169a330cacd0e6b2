import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createAesGcmCipher, type SecretCipher } from 'commerce-plugin-framework';

/** Where the demo's settings key came from, for the start-up banner. */
export interface DemoSettingsKey {
  readonly cipher: SecretCipher;
  /** `SETTINGS_KEY`, or the file it was read from or written to. */
  readonly source: string;
  /** Set when a new key was generated: what the banner warns about. */
  readonly warning?: string;
}

const KEY_ID = 'demo';

/**
 * The key that encrypts the demo's secret settings (its API key) at rest: `SETTINGS_KEY`
 * (base64 of 32 bytes) when given, else the one kept in `keyFile`, generated there on first
 * start — fine for a demo, not for production, which keeps its key in a secret manager apart
 * from the data.
 */
export async function demoSettingsKey(
  fromEnv: string | undefined,
  keyFile: string,
): Promise<DemoSettingsKey> {
  if (fromEnv !== undefined && fromEnv !== '') {
    return { cipher: createAesGcmCipher([{ id: KEY_ID, key: fromEnv.trim() }]), source: 'SETTINGS_KEY' };
  }
  try {
    const stored = (await readFile(keyFile, 'utf8')).trim();
    return { cipher: createAesGcmCipher([{ id: KEY_ID, key: stored }]), source: keyFile };
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
  }
  const generated = randomBytes(32).toString('base64');
  await mkdir(dirname(keyFile), { recursive: true });
  // Written whole under a private name, then linked into place: link() fails if the key file
  // exists, so two demo processes starting at once keep the first one's key, and neither
  // ever reads a key file that is still being written.
  const draft = `${keyFile}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(draft, `${generated}\n`, { flag: 'wx', mode: 0o600 });
  try {
    await link(draft, keyFile);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
    return demoSettingsKey(undefined, keyFile);
  } finally {
    await unlink(draft);
  }
  return {
    cipher: createAesGcmCipher([{ id: KEY_ID, key: generated }]),
    source: keyFile,
    warning: `No SETTINGS_KEY given: generated a settings key and kept it in ${keyFile}, beside the data. Keep a production key in a secret manager, never beside the data it protects.`,
  };
}
