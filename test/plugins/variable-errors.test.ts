import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shortMessage } from '../../src/gateway/plugins/use-variable-errors.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

describe('refused variables', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it.each([
    ['a 100 kB string where a UInt64 belongs', 'query($v: UInt64) { network(name: FUJI) { blockchain(id: "p-chain") { blocks(first: 1, startTimestamp: $v) { edges { cursor } } } } }', 'x'.repeat(100_000)],
    ['a 100 kB string where an enum belongs', 'query($v: NetworkName!) { network(name: $v) { name } }', 'y'.repeat(100_000)],
    ['a list of 1,000 long strings where an Int belongs', 'query($v: Int) { network(name: FUJI) { validators(first: $v) { edges { cursor } } } }', Array.from({ length: 1000 }, () => 'z'.repeat(100))],
  ])('%s: BAD_USER_INPUT naming the variable, without echoing the value', async (_name, query, value) => {
    stack.devnet.resetStats();
    const result = await stack.query(query, { v: value });
    const error = result.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', variableName: 'v' });
    expect(error?.message.length).toBeLessThanOrEqual(1100);
    expect(JSON.stringify(result).length).toBeLessThan(4000);
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('names the variable on every error of one that fails past the error limit, the limit error included', async () => {
    stack.devnet.resetStats();
    const keys = Array.from({ length: 40 }, () => 'not an object');
    const result = await stack.query('query($v: [AddressKeyInput!]!) { addresses(keys: $v) { id } }', { v: keys });
    const errors = result.errors ?? [];
    expect(errors.at(-1)?.message).toMatch(/error limit/);
    for (const error of errors) expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', variableName: 'v' });
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('property: a message is at most 1 KiB and quotes no string longer than 64 characters whole', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), fc.string({ maxLength: 200 }), (text, value) => {
        const message = shortMessage(`Variable "$v" got invalid value ${JSON.stringify(value)}; ${text}`);
        expect(message.length).toBeLessThanOrEqual(1025);
        if (value.length <= 64 && !/["\\]/.test(value)) expect(message).toContain(JSON.stringify(value).slice(0, 60));
      }),
    );
  });
});
