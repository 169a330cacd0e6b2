import fc from 'fast-check';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import {
  booleanArrayLiteral,
  integerArrayLiteral,
  textArrayLiteral,
} from '../../../src/storage/postgres/array-literal';
import { describeWithService } from '../../support/services';

/**
 * The store's own array literals: PostgreSQL parses each back to exactly the array it was made
 * of — quotes, backslashes, braces, commas, blanks, the text `NULL`, empty texts, empty arrays,
 * nulls, astral characters, JSON texts and control characters included.
 */
describeWithService('DATABASE_URL', 'PostgreSQL array literals', (url) => {
  const client = new pg.Client({ connectionString: url });
  const connected = client.connect();
  afterAll(() => client.end());

  /** A text PostgreSQL can hold (no NUL, no lone surrogate). */
  const storableText = fc
    .string({ unit: 'grapheme', maxLength: 12 })
    .map((text) => text.replaceAll('\0', ''))
    .chain((text) =>
      fc.constantFrom(
        text,
        `"${text}"`,
        `\\${text}\\`,
        `{${text},}`,
        ` ${text} `,
        'NULL',
        'null',
        '',
        // JSON texts (history entries, stored values): quoted through JSON.stringify…
        JSON.stringify({ at: text, old: [`"${text}"`, '\\'] }),
        // …unless a control character would be escaped differently.
        `"${text}"\n\t\u0001\\`,
      ),
    );

  it('text[]: every array comes back as it was', async () => {
    await connected;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(storableText, { nil: null }), { maxLength: 20 }), async (texts) => {
        const { rows } = await client.query('SELECT $1::text[] AS back', [textArrayLiteral(texts)]);
        expect(rows[0].back).toEqual(texts);
      }),
      { numRuns: 200 },
    );
  });

  it('boolean[]: flags come back as they were', async () => {
    await connected;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 20 }), async (flags) => {
        const { rows } = await client.query('SELECT $1::boolean[] AS back', [booleanArrayLiteral(flags)]);
        expect(rows[0].back).toEqual(flags);
      }),
      { numRuns: 50 },
    );
  });

  it('bigint[]: integers and nulls come back as they were', async () => {
    await connected;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(fc.maxSafeInteger(), { nil: null }), { maxLength: 20 }),
        async (numbers) => {
          const { rows } = await client.query('SELECT $1::bigint[]::text[] AS back', [
            integerArrayLiteral(numbers),
          ]);
          expect(rows[0].back).toEqual(numbers.map((number) => (number === null ? null : String(number))));
        },
      ),
      { numRuns: 100 },
    );
  });
});
