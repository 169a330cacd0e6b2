import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeChangeMessage,
  encodeChangeMessage,
  encodeVersionedMessage,
} from '../../../src/storage/remote/change-message';

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

  it("versioned: the keys, then the version the store fills in and each key's text, 0 deleted, null not known", () => {
    const keys = ['a', 'b "quoted"', 'c@eu/de', '😀'];
    const texts = ['{"x":"y\\n"}', null, undefined, 'é'];
    const message = encodeVersionedMessage(sender, keys, texts)!;
    const text = `${message.head}12345678901234567890${message.tail}`;
    // What an instance of 0.2 reads: a JSON array of strings, the keys first, then one more that names no setting.
    const seen = JSON.parse(text.slice(`m:${sender}:`.length)) as unknown[];
    expect(seen.slice(0, keys.length)).toEqual(keys);
    expect(seen).toHaveLength(keys.length + 1);
    expect(String(seen[keys.length]).charCodeAt(0)).toBe(0);
    const version = '12345678901234567890';
    expect(decodeChangeMessage(text)).toEqual({
      kind: 'change',
      sender,
      keys,
      changes: [{ text: texts[0], version }, { text: undefined, version }, undefined, { text: 'é', version }],
    });
  });

  it('versioned: beyond the payload limit with the longest version, or for a key that starts with a NUL, none', () => {
    const keys = ['k'];
    const message = encodeVersionedMessage(sender, keys, ['é'.repeat(10)])!;
    const bytes = new TextEncoder().encode(message.head + message.tail).length + 20;
    expect(encodeVersionedMessage(sender, keys, ['é'.repeat(10)], bytes)).toEqual(message);
    expect(encodeVersionedMessage(sender, keys, ['é'.repeat(10)], bytes - 1)).toBeUndefined();
    expect(encodeVersionedMessage(sender, ['\u0000v1:1:[]'], ['x'])).toBeUndefined();
  });

  it('versioned: given up exactly when the message would not fit, whatever its keys and texts (property)', () => {
    const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;
    const key = fc
      .string({ unit: 'binary', maxLength: 24, size: 'max' })
      .filter((text) => text.charCodeAt(0) !== 0);
    // Texts of any code units (escaped in the message), and plain ones (not escaped), long enough
    // for the message to be mostly their own bytes.
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200, size: 'max' }),
      fc.string({ maxLength: 400, size: 'max' }),
      fc.constant(null),
      fc.constant(undefined),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(key, text), { maxLength: 6 }),
        fc.integer({ min: -4, max: 4 }),
        (pairs, offset) => {
          const keys = pairs.map(([name]) => name);
          const texts = pairs.map(([, state]) => state);
          const whole = encodeVersionedMessage(sender, keys, texts)!;
          // The longest version the store may fill in has 20 digits.
          const bytes = utf8Bytes(whole.head + whole.tail) + 20;
          const bounded = encodeVersionedMessage(sender, keys, texts, bytes + offset);
          if (offset >= 0) expect(bounded).toEqual(whole);
          else expect(bounded).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('versioned: a malformed versioned element leaves the keys to be read, without changes', () => {
    const mark = '\u0000v1:';
    for (const element of [
      `${mark}x:["t"]`,
      `${mark}01:["t"]`,
      `${mark}1:not json`,
      `${mark}1:["t","u"]`,
      `${mark}1`,
    ]) {
      expect(decodeChangeMessage(`m:${sender}:${JSON.stringify(['k', element])}`), element).toEqual({
        kind: 'change',
        sender,
        keys: ['k'],
      });
    }
  });
});
