import { describe, expect, it } from 'vitest';
import { erc1155BalancePages } from '../../src/loaders/addresses.ts';
import { nullOnNotFound } from '../../src/loaders/not-found.ts';
import { createNodeDirectory, loaderContext, type LoaderContext } from '../../src/loaders/registry.ts';
import type { ListErc1155BalancesResponse, NativeTokenBalance } from '../../src/shapes/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';

/** A request context over a Data API that has only the methods a test gives it. */
function contextWith(methods: Partial<DataApi>): LoaderContext {
  return loaderContext({ dataApi: methods as DataApi, nodes: createNodeDirectory([]) });
}

describe('erc1155BalancePages', () => {
  it('keeps the native balance of the first page read', async () => {
    const balance = (value: string): NativeTokenBalance => ({ balance: value }) as NativeTokenBalance;
    let calls = 0;
    const listErc1155Balances = async (): Promise<ListErc1155BalancesResponse> => {
      calls++;
      return { erc1155TokenBalances: [], nativeTokenBalance: balance(String(calls)), ...(calls < 2 ? { nextPageToken: 't' } : {}) };
    };
    const pages = erc1155BalancePages(contextWith({ listErc1155Balances }), '43114', '0xabc', {});
    expect(pages.nativeTokenBalance()).toBeUndefined();
    await pages.fetchPage(undefined, 10);
    await pages.fetchPage('t', 10);
    expect(pages.nativeTokenBalance()?.balance).toBe('1');
  });
});

describe('nullOnNotFound', () => {
  const failure = (status: number) => new UpstreamError(`HTTP ${status}`, { upstream: 'data-api', kind: 'http', operation: 'GET /v1/x', status });

  it('turns a 404 into null and passes answers through', async () => {
    expect(await nullOnNotFound(Promise.reject(failure(404)))).toBeNull();
    expect(await nullOnNotFound(Promise.resolve(7))).toBe(7);
  });

  it('rethrows every other failure as it came', async () => {
    const error = failure(503);
    await expect(nullOnNotFound(Promise.reject(error))).rejects.toBe(error);
    const timeout = new UpstreamError('timed out', { upstream: 'data-api', kind: 'timeout', operation: 'GET /v1/x' });
    await expect(nullOnNotFound(Promise.reject(timeout))).rejects.toBe(timeout);
  });
});
