import { TRANSACTION_STATUSES, type Chain, type ContractTransfer, type NativeTransaction } from '../../shapes/index.ts';
import type { EvmData, EvmNetwork } from '../dataset/evm/index.ts';
import type { Route } from '../router.ts';
import { chainLookup, enumParam, evmAddress, param, type PageLimits } from './evm-params.ts';
import { EVM_HASH } from '../../lib/ids.ts';
import { shortDigest } from '../../lib/text.ts';
import { bad, fail, get, ok } from './http-error.ts';

/**
 * Routes of the spec's EVM chain operations: getChainInfo, getLatestBlocks, getBlock,
 * getTransactionsForBlock, listLatestTransactions, getContractMetadata and
 * listTransfers, over the blocks of `src/devnet/dataset/evm/blocks.ts`.
 *
 * The listings walk blocks downwards from the latest one (or from `endBlock`), so
 * their page tokens hold a position rather than an offset: the block to resume at,
 * the index in that block's list, and a hash of the route and filters (a token
 * cannot be replayed against other filters, and pages do not shift as new blocks
 * arrive). A walk reads at most {@link MAX_WALK_BLOCKS} blocks per request: a page
 * that reaches it is answered short, with a token to go on.
 */

/** Blocks one listing request reads at most. */
export const MAX_WALK_BLOCKS = 2_000;
const LIST_LIMITS: PageLimits = { defaultSize: 10, maxSize: 100 };

interface WalkToken {
  /** The block to resume at. */
  b: number;
  /** Items of that block already served. */
  i: number;
  h: string;
}

const scopeHash = (scope: string): string => shortDigest(scope, 12);

function encodeToken(b: number, i: number, scope: string): string {
  return Buffer.from(JSON.stringify({ b, i, h: scopeHash(scope) } satisfies WalkToken)).toString('base64url');
}

function decodeToken(q: URLSearchParams, scope: string): WalkToken | undefined {
  const raw = param(q, 'pageToken');
  if (raw === undefined) return undefined;
  let t: Partial<WalkToken> | undefined;
  try {
    t = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Partial<WalkToken>;
  } catch {
    t = undefined;
  }
  if (!t || typeof t !== 'object' || !Number.isSafeInteger(t.b) || !Number.isSafeInteger(t.i) || (t.b as number) < 0 || (t.i as number) < 0 || t.h !== scopeHash(scope)) {
    return bad('Invalid pageToken');
  }
  return t as WalkToken;
}

/** `pageSize` in 1..max (getTransactionsForBlock also takes the spec's 0, read as the default). */
function pageSizeOf(q: URLSearchParams, limits: PageLimits, zeroIsDefault = false): number {
  const raw = param(q, 'pageSize');
  if (raw === undefined || (zeroIsDefault && raw === '0')) return limits.defaultSize;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > limits.maxSize) bad(`pageSize must be an integer between 1 and ${limits.maxSize}`);
  return Number(raw);
}

function blockParam(q: URLSearchParams, name: string): number | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) bad(`${name} must be a non-negative integer`);
  return Number(raw);
}

/**
 * Items of blocks `from`, `from - 1`, ... down to `lowest`, skipping `skip` items of
 * the first block: a page of `size` and the token of what follows.
 */
function walk<T>(
  from: number,
  lowest: number,
  skip: number,
  size: number,
  scope: string,
  itemsOf: (n: number) => readonly T[],
): { page: T[]; nextPageToken?: string } {
  const page: T[] = [];
  let n = from;
  let index = skip;
  for (let read = 0; n >= lowest && read < MAX_WALK_BLOCKS; read++) {
    const items = itemsOf(n);
    while (index < items.length && page.length < size) page.push(items[index++] as T);
    if (page.length === size) {
      // Past the last item of the lowest block: nothing follows.
      if (index >= items.length && n === lowest) return { page };
      return index < items.length ? { page, nextPageToken: encodeToken(n, index, scope) } : { page, nextPageToken: encodeToken(n - 1, 0, scope) };
    }
    n -= 1;
    index = 0;
  }
  return n >= lowest ? { page, nextPageToken: encodeToken(n, 0, scope) } : { page };
}

export function evmBlockRoutes(evm: Record<EvmNetwork, EvmData>): Route[] {

  const lookup = chainLookup(evm);
  function chainData(chainId: string): { data: EvmData; chain: Chain; latest: number } {
    const { data, chain } = lookup(chainId);
    const latest = data.latestBlock(chainId);
    return latest !== undefined ? { data, chain, latest } : fail(404, `Chain ${chainId} not found`);
  }

  function blockOf(chainId: string, blockId: string): { data: EvmData; chain: Chain; n: number } {
    const { data, chain } = chainData(chainId);
    if (!/^\d{1,15}$/.test(blockId) && !EVM_HASH.test(blockId)) bad('blockId must be a block number or a 0x block hash of 64 hex characters');
    const n = data.blocks.blockNumberOf(chain.chainId, blockId);
    return n === undefined ? fail(404, `Block ${blockId} not found on chain ${chain.chainId}`) : { data, chain, n };
  }

  const transactionsOf = (data: EvmData, chainId: string) => (n: number): readonly NativeTransaction[] => data.blocks.content(chainId, n)?.transactions ?? [];

  return [
    // getChainInfo
    get('/v1/chains/{chainId}', (p) => ok(chainData(p.chainId ?? '').chain)),

    // getLatestBlocks
    get('/v1/chains/{chainId}/blocks', (_p, req) => {
      const { data, chain, latest } = chainData(_p.chainId ?? '');
      const scope = `blocks|${chain.chainId}`;
      const size = pageSizeOf(req.query, LIST_LIMITS);
      const from = decodeToken(req.query, scope)?.b ?? latest;
      const blocks = [];
      for (let n = Math.min(from, latest); n >= 0 && blocks.length < size; n--) {
        const content = data.blocks.content(chain.chainId, n);
        if (content) blocks.push(content.block);
      }
      const last = blocks[blocks.length - 1];
      const next = last && Number(last.blockNumber) > 0 ? encodeToken(Number(last.blockNumber) - 1, 0, scope) : undefined;
      return ok({ ...(next ? { nextPageToken: next } : {}), blocks });
    }),

    // getBlock
    get('/v1/chains/{chainId}/blocks/{blockId}', (p) => {
      const { data, chain, n } = blockOf(p.chainId ?? '', p.blockId ?? '');
      return ok(data.blocks.content(chain.chainId, n)?.block);
    }),

    // getTransactionsForBlock
    get('/v1/chains/{chainId}/blocks/{blockId}/transactions', (p, req) => {
      const { data, chain, n } = blockOf(p.chainId ?? '', p.blockId ?? '');
      const scope = `block-txs|${chain.chainId}|${n}`;
      const size = pageSizeOf(req.query, LIST_LIMITS, true);
      const token = decodeToken(req.query, scope);
      if (token && token.b !== n) bad('Invalid pageToken');
      const { page, nextPageToken } = walk(n, n, token?.i ?? 0, size, scope, transactionsOf(data, chain.chainId));
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // listLatestTransactions
    get('/v1/chains/{chainId}/transactions', (p, req) => {
      const { data, chain, latest } = chainData(p.chainId ?? '');
      const status = enumParam(req.query, 'status', TRANSACTION_STATUSES);
      const scope = `latest-txs|${chain.chainId}|${status ?? ''}`;
      const size = pageSizeOf(req.query, LIST_LIMITS);
      const token = decodeToken(req.query, scope);
      const all = transactionsOf(data, chain.chainId);
      const wanted = status === undefined ? undefined : status === 'success' ? '1' : '0';
      const itemsOf = wanted === undefined ? all : (n: number) => all(n).filter((tx) => tx.txStatus === wanted);
      const { page, nextPageToken } = walk(Math.min(token?.b ?? latest, latest), 0, token?.i ?? 0, size, scope, itemsOf);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // getContractMetadata
    get('/v1/chains/{chainId}/addresses/{address}', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const contract = data.blocks.contract(chain.chainId, address);
      return contract ? ok(contract) : fail(404, `No contract at ${address} on chain ${chain.chainId}`);
    }),

    // listTransfers
    get('/v1/chains/{chainId}/tokens/{address}/transfers', (p, req) => {
      const { data, chain, latest } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const startBlock = blockParam(req.query, 'startBlock');
      const endBlock = blockParam(req.query, 'endBlock');
      if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) bad('startBlock must be less than or equal to endBlock');
      const scope = `transfers|${chain.chainId}|${address}|${startBlock}|${endBlock}`;
      const size = pageSizeOf(req.query, LIST_LIMITS);
      const token = decodeToken(req.query, scope);
      // Only token contracts have transfers: anything else is an empty list, without a walk.
      if (!data.blocks.isToken(chain.chainId, address)) return ok({ transfers: [] });
      const top = Math.min(latest, endBlock === undefined ? latest : endBlock - 1);
      const itemsOf = (n: number): ContractTransfer[] =>
        (data.blocks.content(chain.chainId, n)?.transfers ?? []).filter((t) => (t.erc20Token ?? t.erc721Token ?? t.erc1155Token)?.address === address);
      const { page, nextPageToken } = walk(Math.min(token?.b ?? top, top), startBlock ?? 0, token?.i ?? 0, size, scope, itemsOf);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transfers: page });
    }),
  ];
}
