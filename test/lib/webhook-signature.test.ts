import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import canonicalize from 'canonicalize';
import {
  canonicalSlices, isWebhookSignature, signWebhookPayload, verifyWebhookSignature, verifyWebhookSignatureInSlices,
} from '../../src/lib/webhook-signature.ts';

// The gateway verifies deliveries with a sliced walker of its own; the devnet signs them with the
// `canonicalize` package. Here the walker is held to the package, byte for byte, on arbitrary JSON and
// on the values RFC 8785 singles out.

const joined = (value: unknown, sliceChars?: number): string => [...canonicalSlices(value, sliceChars)].join('');

/** Whether the package refuses a value (it throws): the walker must refuse the same ones. */
function packageForm(value: unknown): string | Error {
  try {
    return canonicalize(value) as string;
  } catch (error) {
    return error as Error;
  }
}

describe('canonicalSlices, against the canonicalize package', () => {
  it('writes what the package writes for arbitrary JSON, whatever the slice size', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 1, max: 64 }), (value, slice) => {
        // What JSON.parse would give for it: the walker is for parsed payloads.
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        expect(joined(parsed, slice)).toBe(packageForm(parsed));
      }),
      { numRuns: 500 },
    );
  });

  it('matches on RFC 8785 edge values: number forms, escapes, key order by UTF-16 units, nesting', () => {
    const text = String.raw`{"b":[1e21,1E-7,-0,0.1,100,1.5e300,"\u0000\u001f\"\\\/","é","😀"],"a":{"\ud83d\ude00":1,"\u00e9":2,"z":3,"A":4,"":5},"__proto__":{"x":null},"c":[[[[[true,false]]]]]}`;
    const parsed: unknown = JSON.parse(text);
    expect(joined(parsed)).toBe(packageForm(parsed));
    expect(joined(parsed, 1)).toBe(packageForm(parsed));
  });

  it('refuses what the package refuses: lone surrogates in values and keys, numbers that are not finite', () => {
    for (const text of [String.raw`{"a":"\ud800"}`, String.raw`{"\udc00":1}`, String.raw`["x\ud83d"]`, '{"a":1e999}', '[-1e400]']) {
      const parsed: unknown = JSON.parse(text);
      expect(packageForm(parsed)).toBeInstanceOf(Error);
      expect(() => joined(parsed)).toThrow();
    }
  });

  it('walks nesting deeper than a recursion could, in slices of about the size asked', () => {
    const depth = 100_000;
    const deep: unknown = JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    const slices = [...canonicalSlices(deep, 4096)];
    expect(slices.join('')).toBe(`${'['.repeat(depth)}${']'.repeat(depth)}`);
    expect(slices.length).toBeGreaterThan(depth / 4096);
    for (const slice of slices) expect(slice.length).toBeLessThan(4096 + 64);
  });
});

describe('verifyWebhookSignatureInSlices', () => {
  const payload = { webhookId: 'w', eventType: 'address_activity', messageId: 'm', event: { transaction: { txHash: '0x1', chainId: '43114', blockTimestamp: 1715621840, logs: Array.from({ length: 4000 }, (_, i) => ({ i })) } } };
  const body = JSON.stringify(payload);

  it('accepts what signWebhookPayload signed (any case of hex), refuses another secret, a changed payload and ill-formed headers', async () => {
    const signature = signWebhookPayload('secret', payload);
    expect(await verifyWebhookSignatureInSlices('secret', JSON.parse(body), signature)).toBe(true);
    expect(await verifyWebhookSignatureInSlices('secret', JSON.parse(body), signature.toUpperCase())).toBe(true);
    expect(await verifyWebhookSignatureInSlices('other', JSON.parse(body), signature)).toBe(false);
    expect(await verifyWebhookSignatureInSlices('secret', { ...payload, messageId: 'n' }, signature)).toBe(false);
    for (const header of [undefined, '', signature.slice(1), `${signature}0`, `${signature.slice(2)}zz`]) {
      expect(isWebhookSignature(header)).toBe(false);
      expect(await verifyWebhookSignatureInSlices('secret', JSON.parse(body), header)).toBe(false);
    }
    expect(verifyWebhookSignature('secret', JSON.parse(body), signature)).toBe(true);
  });

  it('gives the event loop a turn between slices: a 40 KB payload is several slices, each followed by a pause', async () => {
    let pauses = 0;
    const ok = await verifyWebhookSignatureInSlices('secret', JSON.parse(body), signWebhookPayload('secret', payload), async () => {
      pauses += 1;
    });
    expect(ok).toBe(true);
    expect(body.length).toBeGreaterThan(3 * 8192);
    expect(pauses).toBeGreaterThanOrEqual(3);
  });
});
