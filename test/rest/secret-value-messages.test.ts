/** Refused secrets: the message says what is wrong without repeating the value (third round). */
import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, call, GatewayPlugin, makeServer } from './support/fixtures';

class SecretSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('token', 'string', { name: 'Token', secret: true });
    this.registerSetting('mode', 'string', { name: 'Mode', secret: true, options: ['live-key', 'test-key'] });
    this.registerSetting('keys', 'string', { name: 'Keys', secret: true, is_multi: true });
    this.registerSetting('credentials', 'object', { name: 'Credentials', secret: true });
    this.registerSetting('pin', 'integer', { name: 'PIN', secret: true });
  }
}

const NUL_MESSAGE =
  "the text contains a NUL character, which stores cannot hold (a secret's value is not repeated here)";

describe('a secret refused for a NUL character or a lone surrogate', () => {
  const settings = new SecretSettings('vault', new MemoryOptionStore());
  const problem = (id: string, value: unknown) => settings.getSetting(id)!.describeInvalidValue(value);

  it('says so instead of "expected a value of type string", never repeating the value', () => {
    expect(problem('token', 'sk_live\u0000abcdef')).toBe(NUL_MESSAGE);
    expect(problem('mode', 'live-key\u0000')).toBe(NUL_MESSAGE);
    expect(problem('keys', ['ok-key-1', 'bad\u0000key-2'])).toBe(NUL_MESSAGE);
    expect(problem('credentials', { user: 'u', password: 'p\u0000ssword' })).toBe(NUL_MESSAGE);
    expect(problem('credentials', { 'ke\u0000y': 'v' })).toBe(NUL_MESSAGE);
    expect(problem('token', 'half \ud800 pair')).toBe(
      "the text contains a lone surrogate (half of a UTF-16 character pair), which stores cannot hold (a secret's value is not repeated here)",
    );
    for (const id of ['token', 'mode', 'keys', 'credentials']) {
      expect(problem(id, 'sk_live\u0000abcdef') ?? '').not.toMatch(/sk_live|abcdef|live-key|test-key/);
    }
  });

  it('keeps the general message when the characters are not the only problem', () => {
    expect(problem('mode', 'other\u0000')).toBe(
      "expected a value of type string among the allowed options (a secret's value is not repeated here)",
    );
    expect(problem('pin', '12\u000034')).toBe(
      "expected a value of type integer (a secret's value is not repeated here)",
    );
    expect(problem('token', 42)).toBe(
      "expected a value of type string (a secret's value is not repeated here)",
    );
  });

  it('rejects updateValue and a REST PUT with that message', async () => {
    await expect(settings.updateValue('token', 'sk_live\u0000abcdef')).rejects.toThrow(NUL_MESSAGE);
    const server = makeServer({ plugins: [new GatewayPlugin()] });
    const res = await call(server, 'PUT', '/api/commerce/v3/acme/settings/api_key', {
      token: ADMIN_TOKEN,
      body: { value: 'sk_live\u0000abcdef' },
    });
    expect([res.status, res.json.code]).toEqual([400, 'rest_setting_value_invalid']);
    expect(res.json.message).toContain('contains a NUL character');
    expect(res.text).not.toMatch(/sk_live|abcdef|expected a value of type string/);
  });
});
