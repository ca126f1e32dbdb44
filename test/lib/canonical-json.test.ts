import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/lib/canonical-json.ts';

describe('canonicalJson', () => {
  it('ignores key order, keeps array order', () => {
    expect(canonicalJson({ b: 1, a: [2, 1] })).toBe('{"a":[2,1],"b":1}');
    expect(canonicalJson({ a: [1, 2] })).not.toBe(canonicalJson({ a: [2, 1] }));
    expect(canonicalJson({ x: { d: 1, c: 2 } })).toBe(canonicalJson({ x: { c: 2, d: 1 } }));
  });

  it('drops null and undefined members at any depth: null and absent mean the same', () => {
    expect(canonicalJson({ first: null, a: 1 })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson({ a: { b: undefined, c: null } })).toBe('{"a":{}}');
  });

  it('writes null/undefined inside arrays and at the top as null, like JSON.stringify', () => {
    expect(canonicalJson([1, null, undefined])).toBe('[1,null,null]');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(() => 1)).toBe('null');
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
  });
});
