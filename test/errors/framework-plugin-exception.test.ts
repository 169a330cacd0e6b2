import {
  Framework_Plugin_Exception,
  MigrationFailedError,
  OptionStoreError,
  PlanConflictError,
  SchemaOutdatedError,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

describe('Framework_Plugin_Exception', () => {
  it('is an Error with a message and a code that defaults to 0', () => {
    const error = new Framework_Plugin_Exception('Setting "mode": bad value');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(Framework_Plugin_Exception);
    expect(error.message).toBe('Setting "mode": bad value');
    expect(error.code).toBe(0);
    expect(error.name).toBe('Framework_Plugin_Exception');
    expect(new Framework_Plugin_Exception('x', 404).code).toBe(404);
    expect(String(error)).toBe('Framework_Plugin_Exception: Setting "mode": bad value');
  });

  it('recognises an instance of another copy of the class by its brand', () => {
    // What a second copy of the package (the other build) creates: a different class with the same brand.
    const brand = Symbol.for('commerce-plugin-framework:Framework_Plugin_Exception');
    class OtherCopy extends Error {
      readonly code = 400;
    }
    Object.defineProperty(OtherCopy.prototype, brand, { value: true });
    expect(new OtherCopy('x')).toBeInstanceOf(Framework_Plugin_Exception);
    expect(new OtherCopy('x')).not.toBeInstanceOf(OptionStoreError);
  });

  it("recognises an instance of another copy's public subclass by that subclass's brand", () => {
    const base = Symbol.for('commerce-plugin-framework:Framework_Plugin_Exception');
    const outdated = Symbol.for('commerce-plugin-framework:SchemaOutdatedError');
    class OtherBase extends Error {}
    Object.defineProperty(OtherBase.prototype, base, { value: true });
    class OtherOutdated extends OtherBase {}
    Object.defineProperty(OtherOutdated.prototype, outdated, { value: true });
    expect(new OtherOutdated('x')).toBeInstanceOf(SchemaOutdatedError);
    expect(new OtherOutdated('x')).toBeInstanceOf(Framework_Plugin_Exception);
    expect(new OtherOutdated('x')).not.toBeInstanceOf(MigrationFailedError);
    expect(new OtherBase('x')).not.toBeInstanceOf(SchemaOutdatedError);
    expect(new SchemaOutdatedError('acme', 3, 2)).not.toBeInstanceOf(PlanConflictError);
  });

  it('is not fooled by look-alikes', () => {
    expect({ code: 400, message: 'x', name: 'Framework_Plugin_Exception' }).not.toBeInstanceOf(
      Framework_Plugin_Exception,
    );
    expect(new Error('x')).not.toBeInstanceOf(Framework_Plugin_Exception);
    expect(new OptionStoreError('set')).not.toBeInstanceOf(Framework_Plugin_Exception);
    for (const value of [null, undefined, 0, 'x', Symbol('x')]) {
      expect((value as unknown) instanceof Framework_Plugin_Exception).toBe(false);
    }
  });

  it('subclasses keep the prototype-chain check', () => {
    class NotFound extends Framework_Plugin_Exception {
      constructor(what: string) {
        super(`${what} not found`, 404);
      }
    }
    class Invalid extends Framework_Plugin_Exception {}
    const notFound = new NotFound('mode');
    expect(notFound).toBeInstanceOf(NotFound);
    expect(notFound).toBeInstanceOf(Framework_Plugin_Exception);
    expect(notFound).toBeInstanceOf(Error);
    expect(notFound).not.toBeInstanceOf(Invalid);
    expect(new Framework_Plugin_Exception('x')).not.toBeInstanceOf(NotFound);
    expect(notFound.code).toBe(404);
    expect(notFound.message).toBe('mode not found');
  });
});

describe('OptionStoreError', () => {
  it('names the operation and the store, and keeps the cause', () => {
    const cause = new Error('connection refused');
    const error = new OptionStoreError('getMany', { cause, store: 'PostgresOptionStore' });
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(OptionStoreError);
    expect(error.name).toBe('OptionStoreError');
    expect(error.message).toBe('PostgresOptionStore.getMany failed: connection refused');
    expect(error.cause).toBe(cause);
    expect(error.operation).toBe('getMany');
    expect(error.store).toBe('PostgresOptionStore');
    expect(error.timedOut).toBe(false);
  });

  it('describes a timeout, a store-less failure and a non-Error cause', () => {
    expect(new OptionStoreError('set', { timedOut: true }).message).toBe('option store set timed out');
    expect(new OptionStoreError('set', { timedOut: true }).timedOut).toBe(true);
    expect(new OptionStoreError('delete', { cause: 'boom' }).message).toBe(
      'option store delete failed: boom',
    );
    expect(new OptionStoreError('get').message).toBe('option store get failed');
    expect(new OptionStoreError('get', { message: 'custom' }).message).toBe('custom');
  });

  it('recognises another copy by its brand; subclasses use the prototype chain', () => {
    const brand = Symbol.for('commerce-plugin-framework:OptionStoreError');
    const foreign = Object.create(Error.prototype, { [brand]: { value: true } });
    expect(foreign).toBeInstanceOf(OptionStoreError);
    expect(foreign).not.toBeInstanceOf(Framework_Plugin_Exception);
    class ConnectError extends OptionStoreError {}
    expect(new ConnectError('connect')).toBeInstanceOf(OptionStoreError);
    expect(new OptionStoreError('connect')).not.toBeInstanceOf(ConnectError);
  });
});
