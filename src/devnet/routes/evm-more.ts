// Routes of the EVM operations beside the per-chain ones (public spec):
// listLatestBlocksAllChains and listLatestTransactionsAllChains (every chain of a
// network, merged newest first from the very blocks getLatestBlocks and
// listLatestTransactions serve), listAddressChains (the chains where the address's
// history is non-empty), listContractDeployments (the contracts the address
// deployed, as getContractMetadata describes them), listTransactionsV2 (E3's items
// with the ERC-20 reputation the balances report), listTokens (a collection's
// tokens, each the token getTokenDetails serves) and reindexNft.
import { approximately, TRANSACTION_STATUSES, type EvmBlock, type NativeTransaction, type TransactionDetails } from '../../shapes/index.ts';
import { shortDigest } from '../../lib/text.ts';
import type { EvmData, EvmNetwork } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { blockRange, chainLookup, enumParam, evmAddress, LIST_LIMITS, networkOf, paginate, param } from './evm-params.ts';
import { bad, fail, get, ok, post } from './http-error.ts';

/** Blocks one merged listing request reads at most; a page that reaches it is answered short, with a token to go on. */
const MAX_WALK_BLOCKS = 2_000;
/** Tokens whose last reindexing is remembered (the oldest forgotten first). */
const MAX_REINDEXED = 10_000;
/** The spec: "Reindexing can only be called once per hour for each NFT token." */
const REINDEX_INTERVAL_MS = 3_600_000;

/** Where a merged listing resumes on one chain: the block, and the items of it already served (`b` < 0: done). */
type Cursor = [b: number, i: number];

function pageSizeOf(q: URLSearchParams): number {
  const raw = param(q, 'pageSize');
  if (raw === undefined) return LIST_LIMITS.defaultSize;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > LIST_LIMITS.maxSize) bad(`pageSize must be an integer between 1 and ${LIST_LIMITS.maxSize}`);
  return Number(raw);
}

function booleanParam(q: URLSearchParams, name: string): boolean | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') bad(`${name} must be a boolean value`);
  return raw === 'true';
}

/** The token of a merged listing: one cursor per chain of the network, and a hash of the route and filters. */
function decodeCursors(q: URLSearchParams, scope: string, chains: number): Cursor[] | undefined {
  const raw = param(q, 'pageToken');
  if (raw === undefined) return undefined;
  let t: { p?: unknown; h?: unknown } | undefined;
  try {
    t = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { p?: unknown; h?: unknown };
  } catch {
    t = undefined;
  }
  const valid = (c: unknown): c is Cursor =>
    Array.isArray(c) && c.length === 2 && Number.isSafeInteger(c[0]) && Number.isSafeInteger(c[1]) && (c[0] as number) >= -1 && (c[1] as number) >= 0;
  if (!t || typeof t !== 'object' || t.h !== shortDigest(scope, 12) || !Array.isArray(t.p) || t.p.length !== chains || !t.p.every(valid)) {
    return bad('Invalid pageToken');
  }
  return t.p;
}

const encodeCursors = (cursors: Cursor[], scope: string): string => Buffer.from(JSON.stringify({ p: cursors, h: shortDigest(scope, 12) })).toString('base64url');

/**
 * Items of every chain, newest block first across chains (a tie goes to the chain
 * listed first), each block's items in block order: a page of `size` and the token
 * of what follows. Positions are absolute, so pages do not shift as blocks arrive.
 */
function mergeLatest<T>(
  chainIds: readonly string[],
  cursors: Cursor[],
  size: number,
  scope: string,
  timestampOf: (chain: number, n: number) => number,
  itemsOf: (chain: number, n: number) => readonly T[],
): { page: T[]; nextPageToken?: string } {
  const page: T[] = [];
  for (let reads = 0; page.length < size && reads < MAX_WALK_BLOCKS + size; reads++) {
    let best = -1;
    for (let c = 0; c < chainIds.length; c++) {
      const b = (cursors[c] as Cursor)[0];
      if (b >= 0 && (best < 0 || timestampOf(c, b) > timestampOf(best, (cursors[best] as Cursor)[0]))) best = c;
    }
    if (best < 0) break;
    const cursor = cursors[best] as Cursor;
    const items = itemsOf(best, cursor[0]);
    if (cursor[1] < items.length) page.push(items[cursor[1]++] as T);
    if (cursor[1] >= items.length) cursors[best] = [cursor[0] - 1, 0];
  }
  return cursors.some((c) => c[0] >= 0) ? { page, nextPageToken: encodeCursors(cursors, scope) } : { page };
}

export function evmMoreRoutes(evm: Record<EvmNetwork, EvmData>): Route[] {
  const chainData = chainLookup(evm);
  const reindexed = new Map<string, number>();

  /** A merged listing over the chains of the request's network (`network`, default mainnet). */
  function merged<T>(q: URLSearchParams, route: string, filter: string, itemsOf: (data: EvmData, chainId: string, n: number) => readonly T[]) {
    const data = evm[networkOf(param(q, 'network') ?? 'mainnet')];
    const chainIds = data.chains().map((c) => c.chainId);
    const scope = `${route}|${data.network}|${filter}|${chainIds.join(',')}`;
    const size = pageSizeOf(q);
    const cursors = decodeCursors(q, scope, chainIds.length) ?? chainIds.map((id): Cursor => [data.latestBlock(id) ?? -1, 0]);
    // A token never reaches past a chain's latest block.
    for (const [c, id] of chainIds.entries()) {
      const cursor = cursors[c] as Cursor;
      const latest = data.latestBlock(id) ?? -1;
      if (cursor[0] > latest) cursors[c] = [latest, 0];
    }
    const blockOf = (c: number, n: number): EvmBlock | undefined => data.blocks.content(chainIds[c] as string, n)?.block;
    return mergeLatest(chainIds, cursors, size, scope, (c, n) => approximately(blockOf(c, n)?.blockTimestamp ?? 0), (c, n) => itemsOf(data, chainIds[c] as string, n));
  }

  return [
    // listLatestBlocksAllChains
    get('/v1/blocks', (_p, req) => {
      const { page, nextPageToken } = merged(req.query, 'blocks', '', (data, chainId, n) => {
        const block = data.blocks.content(chainId, n)?.block;
        return block ? [block] : [];
      });
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), blocks: page });
    }),

    // listLatestTransactionsAllChains
    get('/v1/transactions', (_p, req) => {
      const status = enumParam(req.query, 'status', TRANSACTION_STATUSES);
      const wanted = status === undefined ? undefined : status === 'success' ? '1' : '0';
      const { page, nextPageToken } = merged<NativeTransaction>(req.query, 'transactions', status ?? '', (data, chainId, n) => {
        const all = data.blocks.content(chainId, n)?.transactions ?? [];
        return wanted === undefined ? all : all.filter((tx) => tx.txStatus === wanted);
      });
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // listAddressChains: EVM chain ids are global, so both networks' chains are asked.
    get('/v1/address/{address}/chains', (p) => {
      const address = evmAddress(p.address ?? '');
      return ok({ indexedChains: [...evm.mainnet.activeChains(address), ...evm.fuji.activeChains(address)], unindexedChains: [] });
    }),

    // listContractDeployments
    get('/v1/chains/{chainId}/contracts/{address}/deployments', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const items = data.deployedBy(chain.chainId, address) ?? [];
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, `deployments|${chain.chainId}|${address}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), contracts: page });
    }),

    // listTransactionsV2: E3's items; every devnet ERC-20 is Benign, as its balances say.
    get('/v2/chains/{chainId}/addresses/{address}/transactions', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const sortOrder = enumParam(req.query, 'sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      // The devnet lists no spam tokens: the filter is checked and changes nothing.
      const spam = booleanParam(req.query, 'filterSpamTokens') ?? false;
      const items = data.addressTransactions(chain.chainId, address, range) ?? [];
      if (sortOrder === 'desc') items.reverse();
      const scope = `v2|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}|${sortOrder}|${spam}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      const v2 = (t: TransactionDetails) => ({
        ...t,
        erc20Transfers: t.erc20Transfers.map((x) => ({ ...x, erc20Token: { ...x.erc20Token, tokenReputation: 'Benign' } })),
      });
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page.map(v2) });
    }),

    // listTokens: ids 1..n of the collection, each made only when its page is served.
    get('/v1/chains/{chainId}/nfts/collections/{address}/tokens', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const size = data.collectionSize(chain.chainId, address) ?? 0;
      const ids = Array.from({ length: size }, (_, i) => String(i + 1));
      const { page, nextPageToken } = paginate(ids, req.query, LIST_LIMITS, `tokens|${chain.chainId}|${address}`);
      const tokens = page.flatMap((id) => data.nftToken(chain.chainId, address, id) ?? []);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), tokens });
    }),

    // reindexNft: 201 without a body; a token is reindexed at most once an hour.
    post('/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const tokenId = p.tokenId ?? '';
      if (!data.nftToken(chain.chainId, address, tokenId)) fail(404, `Token ${tokenId} of collection ${address} not found on chain ${chain.chainId}`);
      const key = `${chain.chainId}|${address}|${tokenId}`;
      const now = Date.now();
      const last = reindexed.get(key);
      if (last !== undefined && now - last < REINDEX_INTERVAL_MS) fail(429, 'Reindexing can only be called once per hour for each NFT token');
      reindexed.delete(key);
      reindexed.set(key, now);
      if (reindexed.size > MAX_REINDEXED) reindexed.delete(reindexed.keys().next().value as string);
      return { status: 201 };
    }),
  ];
}
