import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * Directive arguments the executor cannot use are caller mistakes, refused before execution with
 * BAD_USER_INPUT and no upstream call: `@stream(initialCount: -1)` answered a masked internal error
 * (graphql-tools' executor asserts it), and so did `@defer(if: $flag)` with `$flag` null (the argument
 * has a default, so validation lets a nullable variable through).
 */

const STREAM = (count: string) => `{ network(name: FUJI) { validators(first: 3) { edges @stream(initialCount: ${count}) { cursor } } } }`;

describe('directive arguments', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const refused = async (query: string, variables?: Record<string, unknown>) => {
    stack.devnet.resetStats();
    const result = await stack.query(query, variables);
    expect(stack.upstreamRequests()).toBe(0);
    expect(result.data ?? undefined).toBeUndefined();
    return result.errors ?? [];
  };

  it.each([
    ['-1', undefined],
    ['null', undefined],
    ['$n', { n: -5 }],
    ['$n', { n: null }],
  ])('@stream(initialCount: %s) %j: BAD_USER_INPUT naming the directive and argument', async (count, variables) => {
    const query = count === '$n' ? `query($n: Int) ${STREAM('$n')}` : STREAM(count);
    const errors = await refused(query, variables);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', directiveName: 'stream', argumentName: 'initialCount' });
    expect(errors[0]?.message).toMatch(/^@stream\(initialCount:\) must be an integer from 0 up/);
  });

  it('a non-integer or a 33-bit initialCount is refused with a code before execution too', async () => {
    for (const [query, variables, code] of [
      [STREAM('1.5'), undefined, 'GRAPHQL_VALIDATION_FAILED'],
      [STREAM('99999999999'), undefined, 'GRAPHQL_VALIDATION_FAILED'],
      [`query($n: Int) ${STREAM('$n')}`, { n: 2 ** 40 }, 'BAD_USER_INPUT'],
      [`query($n: Int) ${STREAM('$n')}`, { n: 'x' }, 'BAD_USER_INPUT'],
    ] as const) {
      const errors = await refused(query, variables);
      expect(errors.map((error) => error.extensions?.['code'])).toEqual([code]);
    }
  });

  it('@defer(if: $flag) and @stream(if: $flag) with $flag null: BAD_USER_INPUT, not an internal error', async () => {
    const defer = 'query($flag: Boolean) { network(name: FUJI) { name ... @defer(if: $flag) { validators(first: 1) { edges { cursor } } } } }';
    const stream = 'query($flag: Boolean) { network(name: FUJI) { validators(first: 2) { edges @stream(if: $flag) { cursor } } } }';
    for (const [query, directiveName] of [[defer, 'defer'], [stream, 'stream']] as const) {
      const errors = await refused(query, { flag: null });
      expect(errors).toHaveLength(1);
      expect(errors[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', directiveName });
    }
  });

  it('valid arguments still stream, defer and include as asked', async () => {
    const result = await stack.query(
      'query($n: Int, $flag: Boolean!) { network(name: FUJI) { name @include(if: $flag) validators(first: 2) { edges @stream(initialCount: $n) { cursor } } } }',
      { n: 5, flag: true },
    );
    expect(result.errors).toBeUndefined();
    expect((result.data as { network: { validators: { edges: unknown[] } } }).network.validators.edges).toHaveLength(2);
  });
});
