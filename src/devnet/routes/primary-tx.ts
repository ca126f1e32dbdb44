import { EVM_ADDRESS } from '../../lib/ids.ts';
import { PRIMARY_NETWORK_TX_TYPES, type SortOrder } from '../../shapes/index.ts';
import type { Dataset } from '../dataset/index.ts';
import type { PrimaryData } from '../dataset/primary/index.ts';
import type { TxQuery } from '../dataset/primary/transactions.ts';
import type { DevnetNetwork } from '../node-view.ts';
import type { DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';
import { bad, fail, get, ok } from './http-error.ts';
import { chainInfo, decodeToken, encodeToken, parseAddresses, parseChain, parseNetwork, Query } from './primary.ts';

/**
 * The public spec's primary-network transactions, balances and assets:
 * getTxByHash, listLatestPrimaryNetworkTransactions,
 * listActivePrimaryNetworkStakingTransactions, getBalancesByAddresses and
 * getAssetDetails, over the dataset's transactions (`dataset/primary/transactions.ts`).
 * Bounds as the spec's (pageSize 1-100, default 10; timestamps >= 0; `txTypes` of
 * `PrimaryNetworkTxType`), errors with the seed's error body, page tokens bound to
 * the request's filters as elsewhere.
 */

const TX_TYPES: readonly string[] = PRIMARY_NETWORK_TX_TYPES;

/** `txTypes` as a comma list or a repeated parameter, each one of the spec's types. */
function parseTxTypes(req: DevnetRequest): string[] | undefined {
  const values = req.query.getAll('txTypes').flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
  for (const v of values) if (!TX_TYPES.includes(v)) bad(`txTypes must be a list of: ${TX_TYPES.join(', ')}`);
  return values.length > 0 ? [...new Set(values)] : undefined;
}

/** The listing filters; `evm` accepts 0x addresses (C-chain atomic lookups), which own no UTXO here. */
function parseTxQuery(data: PrimaryData, q: Query, req: DevnetRequest, evm: boolean): TxQuery {
  const raw = q.csv('addresses');
  const bech = raw?.filter((a) => !(evm && EVM_ADDRESS.test(a)));
  const addresses = raw ? (bech && bech.length > 0 ? parseAddresses(data, bech, 'addresses', ['P', 'X', 'C']) : []) : undefined;
  const startTimestamp = q.int('startTimestamp', 0, Number.MAX_SAFE_INTEGER);
  const endTimestamp = q.int('endTimestamp', 0, Number.MAX_SAFE_INTEGER);
  if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) bad('startTimestamp must not be greater than endTimestamp');
  const sortOrder: SortOrder = q.sortOrder();
  const txTypes = parseTxTypes(req);
  return {
    ...(addresses ? { addresses } : {}),
    ...(txTypes ? { txTypes } : {}),
    ...(startTimestamp !== undefined ? { startTimestamp } : {}),
    ...(endTimestamp !== undefined ? { endTimestamp } : {}),
    sortOrder,
  };
}

function page(key: string, items: unknown[], next: number | undefined, scope: unknown, extra: Record<string, unknown>): RouteAnswer {
  const body: Record<string, unknown> = {};
  if (next !== undefined) body.nextPageToken = encodeToken(scope, next);
  body[key] = items;
  return ok({ ...body, ...extra });
}

export function primaryTxRoutes(dataset: Dataset): Route[] {
  const data = (network: DevnetNetwork): PrimaryData => dataset.primary[network];
  const base = '/v1/networks/{network}/blockchains/{blockchainId}';
  return [
    get(`${base}/transactions/{txHash}`, (params) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const hash = params.txHash ?? '';
      if (hash.length === 0 || hash.length > 100) bad('txHash must be a transaction hash');
      const tx = data(network).transactions.transaction(chain, hash);
      if (!tx) fail(404, `Transaction ${hash} not found on ${network} ${chainInfo(chain, network).chainName}`);
      return ok(tx);
    }),
    get(`${base}/transactions`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const parsed = parseTxQuery(data(network), q, req, chain === 'c');
      // The transactions of one L1 validation, which lives on the P-chain; an unknown id matches none.
      const l1ValidationId = q.raw('l1ValidationId');
      if (l1ValidationId !== undefined && chain !== 'p') bad('l1ValidationId filters P-chain transactions only');
      const filter: TxQuery = l1ValidationId !== undefined ? { ...parsed, txHashes: data(network).l1ValidationTxHashes(l1ValidationId) } : parsed;
      const scope = ['primaryTransactions', network, chain, filter];
      const cursor = decodeToken(q.raw('pageToken'), scope);
      const result = data(network).transactions.list(chain, filter, cursor, pageSize);
      // Address and C-chain listings page by offset; block scans say where to resume.
      const next = result.hasMore ? (result.next ?? cursor + result.items.length) : undefined;
      return page('transactions', result.items, next, scope, { chainInfo: chainInfo(chain, network) });
    }),
    get(`${base}/transactions:listStaking`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p']);
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const filter = parseTxQuery(data(network), q, req, false);
      const scope = ['stakingTransactions', network, filter];
      const offset = decodeToken(q.raw('pageToken'), scope);
      const result = data(network).transactions.listStaking(filter, offset, pageSize);
      return page('transactions', result.items, result.hasMore ? offset + result.items.length : undefined, scope, { chainInfo: chainInfo(chain, network) });
    }),
    get(`${base}/balances`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const q = new Query(req.query);
      const raw = q.csv('addresses');
      if (!raw) bad('addresses is required: a comma-separated list of addresses');
      if (raw.length > 64) bad('addresses must hold at most 64 addresses');
      const addresses = parseAddresses(data(network), raw, 'addresses', ['P', 'X', 'C']);
      const blockTimestamp = q.int('blockTimestamp', 0, Number.MAX_SAFE_INTEGER);
      const balances = data(network).transactions.balances(chain, addresses, blockTimestamp);
      return ok({ balances, chainInfo: chainInfo(chain, network) });
    }),
    get(`${base}/assets/{assetId}`, (params) => {
      const network = parseNetwork(params.network);
      parseChain(network, params.blockchainId, ['x']);
      const assetId = params.assetId ?? '';
      const asset = data(network).transactions.asset(assetId);
      if (!asset) fail(404, `Asset ${assetId} not found on ${network}`);
      return ok(asset);
    }),
  ];
}
