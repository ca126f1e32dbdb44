import { describe, expect, it } from 'vitest';
import { bearer, sameSecret } from '../../src/lib/secrets.ts';

describe('bearer', () => {
  it('takes the token of a Bearer header, any case, trimmed', () => {
    expect(bearer('Bearer abc')).toBe('abc');
    expect(bearer('bearer   abc  ')).toBe('abc');
    expect(bearer('Basic abc')).toBeUndefined();
    expect(bearer(null)).toBeUndefined();
  });
});

describe('sameSecret', () => {
  it('admits only the configured secret, and nobody when none is configured', () => {
    expect(sameSecret('s3cret', 's3cret')).toBe(true);
    expect(sameSecret('s3cre', 's3cret')).toBe(false);
    expect(sameSecret(undefined, 's3cret')).toBe(false);
    expect(sameSecret('s3cret', undefined)).toBe(false);
    expect(sameSecret('', '')).toBe(false);
  });
});
