import { describe, expect, it } from 'vitest';
import { createSharedProbe } from '../../src/lib/shared-probe.ts';

describe('a shared probe', () => {
  it('calls the upstream at most once per interval, sharing a probe in flight, and remembers failures too', async () => {
    let calls = 0;
    let fail = false;
    let clock = 0;
    const probe = createSharedProbe(
      async () => {
        calls++;
        if (fail) throw new Error('down');
      },
      5000,
      () => clock,
    );
    // 1,000 callers at once: one call.
    expect((await Promise.all(Array.from({ length: 1000 }, probe))).every(Boolean)).toBe(true);
    expect(calls).toBe(1);
    clock = 4999;
    expect(await probe()).toBe(true);
    expect(calls).toBe(1);
    fail = true;
    clock = 5000;
    expect(await probe()).toBe(false);
    expect(await probe()).toBe(false);
    expect(calls).toBe(2);
    fail = false;
    clock = 10_000;
    expect(await probe()).toBe(true);
    expect(calls).toBe(3);
  });
});
