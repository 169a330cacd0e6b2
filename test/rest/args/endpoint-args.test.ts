import { Framework_Plugin_Exception } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';
import { compileEndpointArgs, sharedArgs } from '../../../src/rest/args/endpoint-args';

describe('compileEndpointArgs (the registry’s arguments)', () => {
  it('checks schemas and defaults at once, before any request', () => {
    expect(() => compileEndpointArgs({ a: { type: 'nope' as 'string' } }, 'GET /x')).toThrow(
      Framework_Plugin_Exception,
    );
    expect(() => compileEndpointArgs({ a: { type: 'integer', default: 'x' } }, 'GET /x')).toThrow(
      /invalid default/,
    );
  });

  it('runs like compileArgs, the runner made on the first run and kept', () => {
    const validator = compileEndpointArgs({ id: { type: 'integer', required: true, minimum: 1 } }, 'GET /x');
    expect(validator.names).toEqual(['id']);
    expect(validator.run(null, undefined, 'id=3', null)).toEqual({ id: 3 });
    const kept = validator.run;
    expect(validator.run(null, undefined, 'id=4', null)).toEqual({ id: 4 });
    expect(validator.run).toBe(kept);
    expect(validator.generated).toBe(true);
    expect(() => validator.run(null, undefined, 'id=0', null)).toThrow();
  });

  it('compiles a shared record once for every endpoint declaring it', () => {
    const record = sharedArgs({ page: { type: 'integer', default: 1 } });
    expect(Object.isFrozen(record)).toBe(true);
    expect(compileEndpointArgs(record, 'GET /a')).toBe(compileEndpointArgs(record, 'GET /b'));
    const own = { page: { type: 'integer', default: 1 } } as const;
    expect(compileEndpointArgs(own, 'GET /a')).not.toBe(compileEndpointArgs(own, 'GET /b'));
  });
});
