import {
  allowPublic,
  bearerTokenAuth,
  constantTimeEqual,
  type RestRequest,
  type RestUser,
  readBearerToken,
  requireAll,
  requireCapability,
  requireItemAccess,
  requireManagement,
} from 'commerce-plugin-framework';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

function requestFor(user: RestUser | null, managementCapability?: string): RestRequest {
  return {
    method: 'GET',
    url: new URL('http://localhost/'),
    headers: new Headers(),
    params: {},
    body: undefined,
    user,
    get: () => undefined,
    userCan: (capability) => user?.capabilities.includes(capability) ?? false,
    server: managementCapability
      ? { restRoot: '/api', hostNamespace: 'commerce/v3', managementCapability }
      : undefined,
  };
}

const manager: RestUser = { id: 1, capabilities: ['manage_commerce'] };
const clerk: RestUser = { id: 2, capabilities: ['edit_shop_orders'] };

describe('permission helpers', () => {
  it('requireCapability wants an authenticated user with the capability', () => {
    const check = requireCapability('edit_shop_orders');
    expect(check(requestFor(clerk))).toBe(true);
    expect(check(requestFor(manager))).toBe(false);
    expect(check(requestFor(null))).toBe(false);
    expect(() => requireCapability('')).toThrow(TypeError);
  });

  it("requireManagement reads the server's management capability", () => {
    expect(requireManagement()(requestFor(manager))).toBe(true);
    expect(requireManagement()(requestFor(clerk))).toBe(false);
    expect(requireManagement()(requestFor(clerk, 'edit_shop_orders'))).toBe(true);
    expect(requireManagement()(requestFor(null))).toBe(false);
  });

  it('requireAll runs checks in order and stops at the first false, sync or async', async () => {
    const ran: string[] = [];
    const step = (name: string, verdict: boolean | Promise<boolean>) => () => {
      ran.push(name);
      return verdict;
    };
    expect(requireAll(step('a', true), step('b', false), step('c', true))(requestFor(null))).toBe(false);
    expect(ran).toEqual(['a', 'b']);
    ran.length = 0;
    expect(
      await requireAll(
        step('a', Promise.resolve(true)),
        step('b', Promise.resolve(false)),
        step('c', true),
      )(requestFor(null)),
    ).toBe(false);
    expect(ran).toEqual(['a', 'b']);
    ran.length = 0;
    expect(await requireAll(step('a', true), step('b', Promise.resolve(true)))(requestFor(null))).toBe(true);
    expect(requireAll()(requestFor(null))).toBe(true);
    expect(() => requireAll('x' as never)).toThrow(TypeError);
  });

  it('requireItemAccess needs management AND the item check, which runs only for managers', async () => {
    let asked = 0;
    const owns = (request: RestRequest) => {
      asked++;
      return request.user?.id === 1;
    };
    expect(requireItemAccess(owns)(requestFor(manager))).toBe(true);
    expect(requireItemAccess(owns)(requestFor({ id: 9, capabilities: ['manage_commerce'] }))).toBe(false);
    expect(asked).toBe(2);
    expect(requireItemAccess(owns)(requestFor(clerk))).toBe(false);
    expect(asked).toBe(2);
  });

  it('allowPublic allows everyone', () => {
    expect(allowPublic()(requestFor(null))).toBe(true);
  });
});

describe('bearer token helper', () => {
  const authenticate = bearerTokenAuth({ 'tok-A_1.~+/0123456': manager, 'tokenB-0123456789': clerk });
  const withHeader = (value?: string) =>
    new Request('http://localhost/', { headers: value === undefined ? {} : { authorization: value } });

  it('maps a known token to its user', () => {
    expect(authenticate(withHeader('Bearer tok-A_1.~+/0123456'))?.id).toBe(1);
    expect(authenticate(withHeader('bearer   tokenB-0123456789'))?.id).toBe(2);
    expect(authenticate(withHeader('Bearer tokenB-0123456789'))?.capabilities).toEqual(['edit_shop_orders']);
  });

  it('answers null for a missing, malformed or unknown token', () => {
    for (const header of [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Basic dG9rZW5COg==',
      'tokenB-0123456789',
      'Bearer tokenB-0123456789 extra',
      'Bearer tokenC-0123456789',
      'Bearer tokenB-01234567899',
      'Bearer tokenB-012345678',
    ]) {
      expect(authenticate(withHeader(header)), String(header)).toBeNull();
    }
  });

  it('accepts entries as pairs and refuses bad configuration', () => {
    expect(
      bearerTokenAuth([['abc-0123456789abc', manager]])(withHeader('Bearer abc-0123456789abc'))?.id,
    ).toBe(1);
    expect(() => bearerTokenAuth({ '': manager })).toThrow(TypeError);
    expect(() => bearerTokenAuth({ 'has space 0123456789': manager })).toThrow(TypeError);
    expect(() => bearerTokenAuth({ 'ok-0123456789abcd': { id: 1 } as never })).toThrow(TypeError);
  });

  it('refuses at creation a token shorter than 16 characters, "undefined" from a missing variable included', () => {
    const missing: string | undefined = undefined;
    for (const token of [String(missing), `${missing}`, 'dev-token', 'a'.repeat(15)]) {
      expect(() => bearerTokenAuth({ [token]: manager }), token).toThrow(/at least 16 characters/);
      expect(() => bearerTokenAuth([[token, manager]]), token).toThrow(TypeError);
    }
    // The message says how long it was, never the token itself.
    expect(() => bearerTokenAuth({ 'secret-ish-15ch': manager })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret-ish') }),
    );
    expect(bearerTokenAuth({ ['a'.repeat(16)]: manager })(withHeader(`Bearer ${'a'.repeat(16)}`))?.id).toBe(
      1,
    );
  });

  it('does not let callers change a user afterwards', () => {
    const user = { id: 5, capabilities: ['x'] };
    const auth = bearerTokenAuth({ 'abc-0123456789abc': user });
    user.capabilities.push('manage_commerce');
    expect(auth(withHeader('Bearer abc-0123456789abc'))?.capabilities).toEqual(['x']);
  });

  it('reads the token from headers', () => {
    expect(readBearerToken(new Headers({ authorization: 'Bearer a.b.c' }))).toBe('a.b.c');
    expect(readBearerToken(new Headers())).toBeNull();
  });

  it('compares in constant time: equal exactly when the strings are equal', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(constantTimeEqual(a, b)).toBe(a === b);
        expect(constantTimeEqual(a, a)).toBe(true);
      }),
      { numRuns: 2000, seed: 42 },
    );
    expect(constantTimeEqual('abc', 'abc\u0000')).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
  });
});
