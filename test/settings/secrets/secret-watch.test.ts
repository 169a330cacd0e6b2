import { describe, expect, it } from 'vitest';
import {
  MAX_WATCHED_SECRETS,
  type SecretVerdict,
  SecretWatch,
} from '../../../src/settings/secrets/secret-watch';

const verdict = (text: string): SecretVerdict => ({
  text,
  state: 'ok',
  order: 0,
  named: 'api_key',
  global: true,
});
const audited = (watch: SecretWatch, verdicts: [string, string][]) => {
  const generation = watch.startFull();
  watch.finishFull(generation, new Map(verdicts.map(([key, text]) => [key, verdict(text)])));
};

describe('SecretWatch: when an audit may build on the last one', () => {
  it('only after a full audit; a change before it is not noted, one after it is', () => {
    const watch = new SecretWatch();
    watch.changed('k1');
    expect(watch.current).toBe(false);
    audited(watch, [['k1', 't1']]);
    expect(watch.current).toBe(true);
    expect([...watch.takeChanged()]).toEqual([]);
    watch.changed('k1');
    expect([...watch.takeChanged()]).toEqual([['k1', undefined]]);
    expect([...watch.takeChanged()]).toEqual([]);
  });

  it('keeps the changes made while a full audit ran (it may have read the key before)', () => {
    const watch = new SecretWatch();
    const generation = watch.startFull();
    watch.changed('k2');
    watch.finishFull(generation, new Map([['k2', verdict('old')]]));
    expect(watch.current).toBe(true);
    expect([...watch.takeChanged()]).toEqual([['k2', undefined]]);
  });

  it('keeps the text this instance wrote, unless another instance’s change of the key is pending', () => {
    const watch = new SecretWatch();
    audited(watch, [['k', 't']]);
    watch.changed('k', 'mine');
    watch.changed('gone', null);
    expect([...watch.takeChanged()]).toEqual([
      ['k', 'mine'],
      ['gone', null],
    ]);
    // Reported, then this instance's commit resolves: the key is still read (the report may be of a later commit).
    watch.changed('k');
    watch.changed('k', 'mine again');
    expect([...watch.takeChanged()]).toEqual([['k', undefined]]);
    // This instance's write, then a report: read.
    watch.changed('k', 'mine');
    watch.changed('k');
    expect([...watch.takeChanged()]).toEqual([['k', undefined]]);
  });

  it('a gap during a full audit: its verdicts are not built on', () => {
    const watch = new SecretWatch();
    const generation = watch.startFull();
    watch.lost();
    watch.finishFull(generation, new Map([['k', verdict('t')]]));
    expect(watch.current).toBe(false);
    // Its texts are still known, so that the next full audit does not decrypt them again.
    audited(watch, [['k', 't']]);
    expect(watch.known('k', 't')?.state).toBe('ok');
    expect(watch.known('k', 'other')).toBeUndefined();
  });

  it('too many changed keys, or too many secrets: the next audit is a full one', () => {
    const watch = new SecretWatch();
    audited(watch, [['k', 't']]);
    for (let n = 0; n <= MAX_WATCHED_SECRETS; n++) watch.changed(`k${n}`);
    expect(watch.current).toBe(false);
    audited(
      watch,
      Array.from({ length: MAX_WATCHED_SECRETS + 1 }, (_, n): [string, string] => [`k${n}`, 't']),
    );
    expect(watch.current).toBe(false);
  });
});
