// SPDX-License-Identifier: AGPL-3.0-or-later
import { checkAuthorization, tokensMatch } from './bearer-token.js';

describe('checkAuthorization', () => {
  it('is a no-op when no key is configured (unset or empty)', () => {
    expect(checkAuthorization(undefined, undefined)).toEqual({ ok: true });
    expect(checkAuthorization(undefined, '')).toEqual({ ok: true });
    expect(checkAuthorization('Basic abc', '')).toEqual({ ok: true });
  });

  it.each([
    [undefined, 'missing'],
    ['', 'missing'],
    ['   ', 'missing'],
    ['Basic dXNlcjpwYXNz', 'format'],
    ['Bearer', 'format'],
    ['Token s3cret', 'format'],
    ['Bearer a b', 'format'],
    ['Bearer wrong', 'invalid'],
    ['Bearer s3cre', 'invalid'],
    ['Bearer s3cret-and-more', 'invalid'],
  ])('rejects %p as %s', (header, reason) => {
    expect(checkAuthorization(header, 's3cret')).toEqual({ ok: false, reason });
  });

  it('accepts the right token, with any casing of the scheme', () => {
    expect(checkAuthorization('Bearer s3cret', 's3cret')).toEqual({ ok: true });
    expect(checkAuthorization('bearer s3cret', 's3cret')).toEqual({ ok: true });
  });

  it('compares tokens of different lengths without throwing', () => {
    expect(tokensMatch('a', 'a-much-longer-token')).toBe(false);
    expect(tokensMatch('', 'x')).toBe(false);
    expect(tokensMatch('same', 'same')).toBe(true);
  });
});
