/**
 * `utf8Length` counts what an encoder writes, without encoding: on ASCII texts (its fast path)
 * and on any mix of ASCII, two-, three- and four-byte characters and lone surrogates.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../src/storage/utf8-length';

const encoder = new TextEncoder();

describe('utf8Length', () => {
  it('answers what TextEncoder writes, for ASCII texts', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 300 }), (text) => {
        expect(utf8Length(text)).toBe(encoder.encode(text).length);
      }),
    );
  });

  it('answers what TextEncoder writes, for any UTF-16 text (lone surrogates as U+FFFD)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary-ascii' }),
            fc.string({ unit: 'binary' }),
            fc.string({
              unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)),
            }),
          ),
        ),
        (parts) => {
          const text = parts.join('');
          expect(utf8Length(text)).toBe(encoder.encode(text).length);
        },
      ),
    );
  });

  it('counts one non-ASCII character among ASCII ones', () => {
    expect(utf8Length('{"v":"a"}')).toBe(9);
    expect(utf8Length('{"v":"é"}')).toBe(10);
    expect(utf8Length('{"v":"€"}')).toBe(11);
    expect(utf8Length('{"v":"😀"}')).toBe(12);
    expect(utf8Length('{"v":"\ud800"}')).toBe(11);
  });
});
