import type { PlanConflict, SettingsPlan } from 'commerce-plugin-framework';
import {
  type ArgFailure,
  type REST_ERROR_CATALOGUE,
  RestError,
  type RestErrorCode,
  type RestErrorData,
  restError,
} from 'commerce-plugin-framework';
import { describe, expect, expectTypeOf, it } from 'vitest';

describe('restError', () => {
  it('is an answer without a stack trace; a RestError of your own keeps its stack', () => {
    const limit = Error.stackTraceLimit;
    const answer = restError('rest_forbidden', 'No.', {}, { status: 401 });
    expect(answer.stack ?? '').not.toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new RestError('acme_out_of_stock', 'Gone.', 409).stack).toMatch(/\n\s+at /);
    expect(new Error('after').stack).toMatch(/\n\s+at /);
  });

  it('builds a RestError with the catalogue status, the data and the headers', () => {
    const error = restError('rest_precondition_failed', 'Changed.', { etag: '"t"' });
    expect(error).toBeInstanceOf(RestError);
    expect(error.toJSON()).toEqual({
      code: 'rest_precondition_failed',
      message: 'Changed.',
      data: { status: 412, etag: '"t"' },
    });
    expect(restError('rest_no_route', 'No route.').status).toBe(404);
    const forbidden = restError('rest_forbidden', 'No.', {}, { status: 403 });
    expect(forbidden.status).toBe(403);
    const allow = restError('rest_method_not_allowed', 'No.', {}, { headers: { Allow: 'GET' } });
    expect(allow.headers).toEqual({ Allow: 'GET' });
    const invalid = restError(
      'rest_setting_value_invalid',
      'Bad.',
      { params: { value: 'Bad.' }, setting_id: 'x', details: [] },
      { status: 422 },
    );
    expect(invalid.status).toBe(422);
  });

  it('types data by the code: a wrong shape does not compile', () => {
    expectTypeOf<RestErrorCode>().toEqualTypeOf<keyof typeof REST_ERROR_CATALOGUE>();
    expectTypeOf<keyof RestErrorData>().toEqualTypeOf<RestErrorCode>();
    expectTypeOf<RestErrorData['rest_precondition_failed']>().toEqualTypeOf<
      { readonly etag: string } | { readonly plan: SettingsPlan; readonly conflicts: readonly PlanConflict[] }
    >();
    expectTypeOf(restError).parameter(0).toEqualTypeOf<RestErrorCode>();
    const typeOnly = () => {
      // @ts-expect-error: not a code of the catalogue
      restError('rest_made_up', 'x');
      // @ts-expect-error: `etag` is missing
      restError('rest_precondition_failed', 'x', {});
      // @ts-expect-error: `etag` must be a string
      restError('rest_precondition_failed', 'x', { etag: 1 });
      // @ts-expect-error: the data of rest_body_too_large is `{max_bytes}`
      restError('rest_body_too_large', 'x', { feature: 'y' });
      // @ts-expect-error: rest_forbidden has two statuses: say which
      restError('rest_forbidden', 'x');
      // @ts-expect-error: 404 is not a status of rest_forbidden
      restError('rest_forbidden', 'x', {}, { status: 404 });
      // @ts-expect-error: a code without data takes none
      restError('rest_no_route', 'x', { extra: 1 });
    };
    expect(typeOnly).toBeTypeOf('function');
  });

  it('narrows an argument failure by its code', () => {
    const failure = { code: 'rest_out_of_bounds', path: ['n'], params: { minimum: 1 } } as ArgFailure;
    if (failure.code === 'rest_out_of_bounds')
      expectTypeOf(failure.params.minimum).toEqualTypeOf<number | undefined>();
    // @ts-expect-error: params of rest_too_short is `{minLength}`
    const wrong: ArgFailure = { code: 'rest_too_short', path: ['n'], params: { maxLength: 1 } };
    expect(wrong.code).toBe('rest_too_short');
  });
});
