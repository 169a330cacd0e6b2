import { Framework_Abstract_Settings, MemoryOptionStore } from 'commerce-plugin-framework';
import { Framework_Register_Settings_Fields } from 'commerce-plugin-framework/admin';
import { describe, expect, it } from 'vitest';

class Typed extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('s', 'string');
    this.registerSetting('u', 'url');
    this.registerSetting('e', 'email');
    this.registerSetting('i', 'integer');
    this.registerSetting('f', 'float');
    this.registerSetting('b', 'boolean');
    this.registerSetting('o', 'object');
    this.registerSetting('io', 'integer', { options: [1, 5, 10] });
    this.registerSetting('fo', 'float', { options: [0.5, 1.5], is_multi: true });
    this.registerSetting('oo', 'object', { options: [{ a: 1 }, [1, 2]] });
    this.registerControl('oo', 'radio');
    this.registerSetting('bs', 'boolean');
    this.registerControl('bs', 'radio');
    this.registerSetting('ml', 'float', { is_multi: true });
    this.registerSetting('mo', 'object', { is_multi: true });
    this.registerSetting('pw', 'string');
    this.registerControl('pw', 'password');
  }
}

const fields = new Framework_Register_Settings_Fields(new Typed('t', new MemoryOptionStore()));

function read(entries: Record<string, string | string[]>) {
  const form = new URLSearchParams();
  for (const [id, value] of Object.entries(entries)) {
    for (const item of Array.isArray(value) ? value : [value]) form.append(`framework_t_${id}`, item);
  }
  return fields.readSubmission(form, new Map());
}

function outcome(id: string, value: string | string[]) {
  return read({ [id]: value }).outcomes.get(id);
}

describe('form text to typed values', () => {
  it('converts each type from its text', () => {
    expect(outcome('s', '  spaced  ')).toEqual({ action: 'set', value: '  spaced  ' });
    expect(outcome('s', 'a\r\nb')).toEqual({ action: 'set', value: 'a\nb' });
    expect(outcome('u', ' https://example.com/x ')).toEqual({
      action: 'set',
      value: 'https://example.com/x',
    });
    expect(outcome('e', 'shop@example.com')).toEqual({ action: 'set', value: 'shop@example.com' });
    expect(outcome('i', ' -42 ')).toEqual({ action: 'set', value: -42 });
    expect(outcome('i', '-0')).toEqual({ action: 'set', value: 0 });
    expect(outcome('f', '2.5')).toEqual({ action: 'set', value: 2.5 });
    expect(outcome('f', '1e3')).toEqual({ action: 'set', value: 1000 });
    expect(outcome('f', '.5')).toEqual({ action: 'set', value: 0.5 });
    expect(outcome('b', 'yes')).toEqual({ action: 'set', value: true });
    expect(outcome('o', '{"a": [1, "x"]}')).toEqual({ action: 'set', value: { a: [1, 'x'] } });
    expect(outcome('o', '"text"')).toEqual({ action: 'set', value: 'text' });
  });

  it('refuses text that is not of the type, saying what to enter', () => {
    expect(outcome('i', '4.5')).toEqual({ action: 'invalid', message: 'Enter a whole number, such as 42.' });
    expect(outcome('i', '0x10')).toMatchObject({ action: 'invalid' });
    expect(outcome('i', '9007199254740993')).toEqual({
      action: 'invalid',
      message: 'Expected a safe integer, received number 9007199254740992.',
    });
    expect(outcome('f', 'Infinity')).toEqual({ action: 'invalid', message: 'Enter a number, such as 2.5.' });
    expect(outcome('f', '1e999')).toEqual({ action: 'invalid', message: 'Enter a number, such as 2.5.' });
    expect(outcome('b', 'maybe')).toEqual({ action: 'invalid', message: 'Enter yes or no.' });
    expect(outcome('o', '{broken')).toMatchObject({
      action: 'invalid',
      message: expect.stringMatching(/^Enter valid JSON/),
    });
    expect(outcome('o', 'null')).toMatchObject({
      action: 'invalid',
      message: 'Expected a JSON value other than null.',
    });
    expect(outcome('u', 'example.com')).toMatchObject({
      action: 'invalid',
      message: 'A URL must start with http:// or https://.',
    });
    expect(outcome('e', 'a@b')).toMatchObject({ action: 'invalid' });
    expect(outcome('s', 'nul\u0000char')).toMatchObject({ action: 'invalid' });
  });

  it('clears non-string settings on empty text, and keeps the empty string for strings', () => {
    expect(outcome('i', '')).toEqual({ action: 'clear' });
    expect(outcome('u', '  ')).toEqual({ action: 'clear' });
    expect(outcome('o', '')).toEqual({ action: 'clear' });
    expect(outcome('s', '')).toEqual({ action: 'set', value: '' });
  });

  it('reads options by their text, whatever the type', () => {
    expect(outcome('io', '5')).toEqual({ action: 'set', value: 5 });
    expect(outcome('io', '7')).toEqual({
      action: 'invalid',
      message: '“7” is not one of the offered choices.',
    });
    expect(outcome('io', '')).toEqual({ action: 'clear' });
    expect(outcome('fo', ['1.5', '0.5'])).toEqual({ action: 'set', value: [1.5, 0.5] });
    expect(outcome('oo', '[1,2]')).toEqual({ action: 'set', value: [1, 2] });
    expect(outcome('oo', '{"a":1}')).toEqual({ action: 'set', value: { a: 1 } });
    expect(outcome('bs', 'false')).toEqual({ action: 'set', value: false });
  });

  it('reads one value per line for multi settings without options, naming the bad line', () => {
    expect(outcome('ml', '1.5\r\n\r\n  2\n')).toEqual({ action: 'set', value: [1.5, 2] });
    expect(outcome('ml', '')).toEqual({ action: 'set', value: [] });
    expect(outcome('ml', '1\n\nx')).toEqual({
      action: 'invalid',
      message: 'Line 3: Enter a number, such as 2.5.',
    });
    expect(outcome('mo', '{"a":1}\n[2]')).toEqual({ action: 'set', value: [{ a: 1 }, [2]] });
    expect(outcome('mo', '{"a":1}\nnull')).toMatchObject({
      action: 'invalid',
      message: expect.stringMatching(/^Line 2: /),
    });
  });

  it('treats absent checkboxes and multi-choices as unchecked, other absent fields as unchanged', () => {
    const { outcomes } = read({});
    expect(outcomes.get('b')).toEqual({ action: 'set', value: false });
    expect(outcomes.get('fo')).toEqual({ action: 'set', value: [] });
    expect(outcomes.get('s')).toEqual({ action: 'keep' });
    expect(outcomes.get('i')).toEqual({ action: 'keep' });
    expect(outcomes.get('io')).toEqual({ action: 'keep' });
    expect(outcomes.get('ml')).toEqual({ action: 'keep' });
  });

  it('keeps the stored password when its field is empty', () => {
    expect(outcome('pw', '')).toEqual({ action: 'keep' });
    expect(outcome('pw', 'new secret')).toEqual({ action: 'set', value: 'new secret' });
  });
});
