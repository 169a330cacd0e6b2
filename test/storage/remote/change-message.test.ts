import { describe, expect, it } from 'vitest';
import { decodeChangeMessage, encodeChangeMessage } from '../../../src/storage/remote/change-message';

const sender = 'a1b2c3d4e5f6a1b2c3d4e5f6';

describe('change messages', () => {
  it('names one key in the k: form every version reads, several keys in one m: message', () => {
    expect(encodeChangeMessage(sender, ['mode'])).toBe(`k:${sender}:mode`);
    const keys = ['a', 'b:with:colons', 'c "quoted" @eu/de', '😀'];
    const message = encodeChangeMessage(sender, keys);
    expect(message.startsWith(`m:${sender}:`)).toBe(true);
    expect(decodeChangeMessage(message)).toEqual({ kind: 'change', sender, keys });
    expect(decodeChangeMessage(`k:${sender}:x:y`)).toEqual({ kind: 'change', sender, keys: ['x:y'] });
  });

  it('falls back to the resync form beyond the payload limit, counted in UTF-8 bytes', () => {
    const keys = ['é'.repeat(10), 'b'];
    const exact = encodeChangeMessage(sender, keys);
    const bytes = new TextEncoder().encode(exact).length;
    expect(encodeChangeMessage(sender, keys, bytes)).toBe(exact);
    expect(encodeChangeMessage(sender, keys, bytes - 1)).toBe(`r:${sender}`);
    expect(encodeChangeMessage(sender, ['x'.repeat(8_000)], 7_999)).toBe(`r:${sender}`);
  });

  it('reads anything else, a malformed m: message included, as a resync', () => {
    expect(decodeChangeMessage(`r:${sender}`)).toEqual({ kind: 'resync', sender });
    for (const text of [
      '',
      'resync',
      `m:${sender}:not json`,
      `m:${sender}:{"a":1}`,
      `m:${sender}:[1,2]`,
      'm::[]',
    ]) {
      expect(decodeChangeMessage(text).kind, text).toBe('resync');
    }
  });
});
