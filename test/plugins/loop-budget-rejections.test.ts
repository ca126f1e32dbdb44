import { describe, expect, it } from 'vitest';
import type { GraphQLResolveInfo } from 'graphql';
import { pausing } from '../../src/gateway/plugins/use-loop-budget.ts';

// The executor drops the results still pending once a sibling has failed their non-null parent. A dropped
// result that fails later must not become an unhandled rejection, which would end a Node process.
describe('a resolver result the executor dropped', () => {
  it('fails later without an unhandled rejection, while whoever awaits it still gets the error', async () => {
    const seen: unknown[] = [];
    const listener = (reason: unknown) => seen.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const failing = pausing(() => new Promise((_resolve, reject) => setTimeout(() => reject(new Error('late failure')), 5)));
      const info = { fieldNodes: [] } as unknown as GraphQLResolveInfo;
      // Dropped: nobody awaits it.
      void failing(undefined, {}, {}, info);
      // Awaited: the error still arrives.
      await expect(failing(undefined, {}, {}, info) as Promise<unknown>).rejects.toThrow('late failure');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
