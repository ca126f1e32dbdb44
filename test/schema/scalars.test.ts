import { describe, expect, it } from 'vitest';
import { UInt256Scalar } from '../../src/schema/scalars.ts';

describe('UInt256', () => {
  const max = ((1n << 256n) - 1n).toString();

  it('serializes decimals, safe integers, bigints and hex quantities as decimal strings', () => {
    expect(UInt256Scalar.serialize('2000000000000')).toBe('2000000000000');
    expect(UInt256Scalar.serialize('0')).toBe('0');
    expect(UInt256Scalar.serialize(' 12 ')).toBe('12');
    expect(UInt256Scalar.serialize(42)).toBe('42');
    expect(UInt256Scalar.serialize(7n)).toBe('7');
    expect(UInt256Scalar.serialize('0xff')).toBe('255');
    expect(UInt256Scalar.serialize(max)).toBe(max);
    expect(UInt256Scalar.serialize('9'.repeat(77))).toBe('9'.repeat(77));
  });

  it('refuses what is not an unsigned integer below 2^256', () => {
    for (const bad of ['', '007', '-1', '1.5', '1e3', 'abc', '9'.repeat(78), (1n << 256n).toString(), '1'.repeat(101), -1, 1.5]) {
      expect(() => UInt256Scalar.serialize(bad), String(bad)).toThrow(/UInt256 cannot represent/);
    }
  });
});
