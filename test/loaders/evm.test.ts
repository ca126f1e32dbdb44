import { describe, expect, it } from 'vitest';
import { erc1155BalancePages } from '../../src/loaders/addresses.ts';
import { findIcmMessage, icmMessagePages, icmRefetchCalls, MAX_ICM_REFETCH_PAGES } from '../../src/loaders/icm.ts';
import { nullOnNotFound } from '../../src/loaders/not-found.ts';
import { createNodeDirectory, loaderContext, type LoaderContext } from '../../src/loaders/registry.ts';
import type { IcmMessage, ListErc1155BalancesResponse, ListIcmMessagesParams, ListIcmMessagesResponse, NativeTokenBalance } from '../../src/shapes/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';

/** A request context over a Data API that has only the methods a test gives it. */
function contextWith(methods: Partial<DataApi>): LoaderContext {
  return loaderContext({ dataApi: methods as DataApi, nodes: createNodeDirectory([]) });
}

const message = (messageId: string): IcmMessage => ({ messageId }) as IcmMessage;

/** E16 over `pages` pages of ids (newest first), recording the params of each call. */
function icmListing(pages: string[][]) {
  const calls: { address: string; params: ListIcmMessagesParams | undefined }[] = [];
  const listIcmMessages = async (address: string, params?: ListIcmMessagesParams): Promise<ListIcmMessagesResponse> => {
    calls.push({ address, params });
    const index = params?.pageToken ? Number(params.pageToken) : 0;
    const next = index + 1 < pages.length ? String(index + 1) : undefined;
    return { messages: (pages[index] ?? []).map(message), ...(next ? { nextPageToken: next } : {}) };
  };
  return { calls, ctx: contextWith({ listIcmMessages }) };
}

describe('findIcmMessage (node(id:) for ICM messages)', () => {
  it('reads pages of 100 until the message shows up, and says how it was listed', async () => {
    const { calls, ctx } = icmListing([['a', 'b'], ['c'], ['d', 'e'], ['f']]);
    const found = await findIcmMessage(ctx, '0xabc', 'e', 'fuji');
    expect(found).toMatchObject({ messageId: 'e', listedAddress: '0xabc', listedNetwork: 'fuji' });
    expect(calls.map((c) => c.params)).toEqual([
      { pageSize: 100, network: 'fuji' },
      { pageSize: 100, pageToken: '1', network: 'fuji' },
      { pageSize: 100, pageToken: '2', network: 'fuji' },
    ]);
  });

  it('stops at the end of the listing: null, no call past the last page', async () => {
    const { calls, ctx } = icmListing([['a'], ['b']]);
    expect(await findIcmMessage(ctx, '0xabc', 'zz')).toBeNull();
    expect(calls).toHaveLength(2);
    expect(calls[0]?.params).toEqual({ pageSize: 100 });
  });

  it(`gives up after ${MAX_ICM_REFETCH_PAGES} pages, as many calls as the estimator counts`, async () => {
    const pages = Array.from({ length: MAX_ICM_REFETCH_PAGES + 5 }, (_, i) => [`m${i}`]);
    const { calls, ctx } = icmListing(pages);
    expect(await findIcmMessage(ctx, '0xabc', `m${MAX_ICM_REFETCH_PAGES + 2}`)).toBeNull();
    expect(calls).toHaveLength(MAX_ICM_REFETCH_PAGES);
    expect(icmRefetchCalls([['0xabc', 'x']])).toBe(MAX_ICM_REFETCH_PAGES);
  });
});

describe('icmMessagePages', () => {
  it('lists the lowercased address and tags each message with how it was listed', async () => {
    const { calls, ctx } = icmListing([['a', 'b'], ['c']]);
    const page = await icmMessagePages(ctx, '0xABC', 'mainnet')(undefined, 2);
    expect(calls).toEqual([{ address: '0xabc', params: { pageSize: 2, network: 'mainnet' } }]);
    expect(page.nextPageToken).toBe('1');
    expect(page.items.map((m) => [m.messageId, m.listedAddress, m.listedNetwork])).toEqual([
      ['a', '0xabc', 'mainnet'],
      ['b', '0xabc', 'mainnet'],
    ]);
  });
});

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
