import { SETTING_TYPE_DEFINITIONS } from '../src/settings/setting-types';
import { compileValueCodec } from '../src/settings/value-codec';
const values: unknown[] = ['', 'a', 'a\u0000b', '\ud800', 'http://x.y', 'HTTPS://a', 'https://', 'http://a b', 'ftp://x', 'a@b.cd', 'ab@cd.ef', 'a@@b.cd', 'abc@-x.com', 0, -0, 1.5, NaN, Infinity, -Infinity, 2**53, 1e400, true, false, null, undefined, {}, [], [1, 'a'], { a: 1 }, { __proto__: null, a: 2 }, new Date(0), [1, 2, 3], ['a', 'b'], [true], [null], 'live', 'test', 3n, Symbol('s'), () => 1, { a: NaN }, { ['__proto__']: 1 }];
const out: string[] = [];
for (const [type, def] of SETTING_TYPE_DEFINITIONS) {
  for (const isMulti of [false, true]) {
    for (const options of [[], type === 'object' ? [{ a: 1 }, [1, 'a']] : type === 'string' ? ['live', 'test'] : type === 'integer' ? [0, 1] : type === 'boolean' ? [true] : []]) {
      const codec = compileValueCodec(def, isMulti, options);
      for (const v of values) {
        const input = isMulti && !Array.isArray(v) ? [v] : v;
        let p: string | undefined;
        try { p = codec.problem(input); } catch (e) { p = `THROW ${(e as Error).message}`; }
        out.push(`${type} ${isMulti} ${options.length} ${String(typeof v === 'symbol' ? 'sym' : typeof v === 'bigint' ? 'big' : JSON.stringify(v))} => ${p}`);
        for (const t of ['', 'yes', 'no', '1', '1.5', '-0', '1e3', 'abc', '["a"]', '[1]', '{"a":1}', 'http://x.y', 'a@b.cd', 'live']) {
          out.push(`  decode ${type} ${isMulti} ${options.length} ${t} => ${JSON.stringify(codec.decode(t))}`);
        }
      }
    }
  }
}
console.log(out.join('\n'));
