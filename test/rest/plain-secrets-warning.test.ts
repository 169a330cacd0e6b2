/** `createRestServer({ logger })`: one warning per plugin whose secrets have no cipher, never a value. */
import {
  createAesGcmCipher,
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
} from 'commerce-plugin-framework';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatewayPlugin, PlainPlugin } from './support/fixtures';

const KEY = btoa('k'.repeat(32));

class FlaggedSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('webhook_secret', 'string', {
      name: 'Webhook secret',
      secret: true,
      default: 'whsec_default_77',
    });
    this.registerSetting('title', 'string', { name: 'Title' });
  }
}

/** A plugin whose only secret is `secret: true`, with or without a cipher. */
class FlaggedPlugin extends Framework_Plugin {
  readonly #settings: FlaggedSettings;
  constructor(id: string, withCipher: boolean) {
    super({ id, name: id, version: '1.0.0' });
    this.#settings = new FlaggedSettings(
      id,
      new MemoryOptionStore({ [`framework_${id}_webhook_secret`]: 'whsec_live_stored_88' }),
      withCipher ? { secrets: createAesGcmCipher([{ id: 'k', key: KEY }]) } : {},
    );
  }
  override getSettingsHandler(): FlaggedSettings {
    return this.#settings;
  }
}

function recordingLogger() {
  const lines: string[] = [];
  return { lines, logger: { warn: (message: string) => void lines.push(message) } };
}

describe('createRestServer logger: secrets without a cipher', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('warns once per plugin with secret settings and no cipher, naming the plugin, never a value', async () => {
    const store = new MemoryOptionStore({ framework_acme_api_key: 'sk_live_stored_99' });
    const { lines, logger } = recordingLogger();
    createRestServer({
      plugins: [
        new GatewayPlugin(store), // two password controls, no cipher
        new PlainPlugin(), // no settings
        new FlaggedPlugin('flagged', false), // `secret: true`, no cipher
        new FlaggedPlugin('ciphered', true), // a cipher: no warning
      ],
      logger,
    });
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('plugin "acme" has 2 secret settings and no cipher');
    expect(lines[1]).toContain('plugin "flagged" has a secret setting and no cipher');
    for (const line of lines) {
      expect(line).toContain('plain text');
      expect(line).not.toMatch(/sk_live|whsec|preset|api_key|webhook_secret|\n/);
    }
  });

  it('warns through console.warn by default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    createRestServer({ plugins: [new GatewayPlugin(), new FlaggedPlugin('ciphered', true)] });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('"acme"');
  });

  it('says nothing when every secret has a cipher', () => {
    const { lines, logger } = recordingLogger();
    createRestServer({ plugins: [new FlaggedPlugin('ciphered', true), new PlainPlugin()], logger });
    expect(lines).toEqual([]);
  });

  it('refuses a logger without warn, and survives one that throws', () => {
    expect(() => createRestServer({ plugins: [], logger: {} as never })).toThrow(/logger must have a warn/);
    const server = createRestServer({
      plugins: [new GatewayPlugin()],
      logger: {
        warn() {
          throw new Error('log sink down');
        },
      },
    });
    expect(server.getRoutes().length).toBeGreaterThan(0);
  });
});
