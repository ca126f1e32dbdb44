import { isNodeId } from '../../lib/ids.ts';
import { PRIMARY_NETWORK_TX_TYPES } from '../../shapes/index.ts';
import type { Dataset } from '../dataset/index.ts';
import type { PrimaryData } from '../dataset/primary/index.ts';
import type { DevnetNetwork } from '../node-view.ts';
import type { DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';
import { bad, fail, get, ok, post } from './http-error.ts';
import { chainInfo, decodeToken, encodeToken, parseAddresses, parseChain, parseNetwork, Query, utxoListing } from './primary.ts';

/**
 * The public spec's L1 validators (listL1Validators), an asset's transactions
 * (listAssetTransactions), the GET form of the UTXO listing (getUtxosByAddresses), the
 * chains of some addresses (getChainIdsForAddresses) and their last activity
 * (getLastActivityTimestampByAddresses, GET and POST), over the dataset's validations,
 * UTXOs and transactions. Bounds as the spec's; the GET UTXO listing shares the POST's
 * page tokens (same filters, same listing).
 */

/** Addresses one request may name (the spec gives none; the balances route's cap). */
const MAX_ADDRESSES = 64;
const TX_TYPES: readonly string[] = PRIMARY_NETWORK_TX_TYPES;

function addressesOf(data: PrimaryData, raw: string[] | undefined): string[] {
  if (!raw || raw.length === 0) bad('addresses is required: a comma-separated list of addresses');
  if (raw.length > MAX_ADDRESSES) bad(`addresses must hold at most ${MAX_ADDRESSES} addresses`);
  return parseAddresses(data, raw, 'addresses', ['P', 'X', 'C']);
}

/** The POST body's `{ addresses: "a,b" }` as a list. */
function bodyAddresses(req: DevnetRequest): string[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(req.body);
  } catch {
    bad('The request body must be JSON: {"addresses": "<comma-separated addresses>"}');
  }
  const raw = (body as { addresses?: unknown } | null)?.addresses;
  if (typeof raw !== 'string') bad('addresses is required: a string of comma-separated addresses');
  return [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
}

function page(key: string, items: unknown[], next: number | undefined, scope: unknown, extra: Record<string, unknown>): RouteAnswer {
  const body: Record<string, unknown> = {};
  if (next !== undefined) body.nextPageToken = encodeToken(scope, next);
  body[key] = items;
  return ok({ ...body, ...extra });
}

export function primaryAddressRoutes(dataset: Dataset): Route[] {
  const data = (network: DevnetNetwork): PrimaryData => dataset.primary[network];
  const base = '/v1/networks/{network}/blockchains/{blockchainId}';

  const lastActivity = (network: DevnetNetwork, blockchainId: string | undefined, raw: string[] | undefined): RouteAnswer => {
    const chain = parseChain(network, blockchainId, ['p', 'x', 'c']);
    const addresses = addressesOf(data(network), raw);
    const found = data(network).lastActivity(chain, addresses);
    if (!found) fail(404, `No activity found for these addresses on ${network} ${chainInfo(chain, network).chainName}`);
    return ok(found);
  };

  return [
    get('/v1/networks/{network}/l1Validators', (params, req) => {
      const network = parseNetwork(params.network);
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const nodeId = q.raw('nodeId');
      if (nodeId !== undefined && !isNodeId(nodeId)) bad("nodeId must be a valid node ID in format 'NodeID-HASH'");
      const filter = {
        ...(q.raw('l1ValidationId') !== undefined ? { l1ValidationId: q.raw('l1ValidationId') } : {}),
        ...(nodeId !== undefined ? { nodeId } : {}),
        ...(q.raw('subnetId') !== undefined ? { subnetId: q.raw('subnetId') } : {}),
        includeInactive: q.bool('includeInactiveL1Validators') ?? false,
      };
      const scope = ['l1Validators', network, filter];
      const offset = decodeToken(q.raw('pageToken'), scope);
      const result = data(network).listL1Validators(filter, offset, pageSize);
      return page('validators', result.items, result.hasMore ? offset + result.items.length : undefined, scope, { blockHeight: String(data(network).latestHeight('p')) });
    }),
    get(`${base}/assets/{assetId}/transactions`, (params, req) => {
      const network = parseNetwork(params.network);
      parseChain(network, params.blockchainId, ['x']);
      const assetId = params.assetId ?? '';
      if (!data(network).transactions.asset(assetId)) fail(404, `Asset ${assetId} not found on ${network}`);
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const txTypes = q.csv('txTypes');
      for (const t of txTypes ?? []) if (!TX_TYPES.includes(t)) bad(`txTypes must be a list of: ${TX_TYPES.join(', ')}`);
      const startTimestamp = q.int('startTimestamp', 0, Number.MAX_SAFE_INTEGER);
      const endTimestamp = q.int('endTimestamp', 0, Number.MAX_SAFE_INTEGER);
      if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) bad('startTimestamp must not be greater than endTimestamp');
      const filter = {
        ...(txTypes ? { txTypes } : {}),
        ...(startTimestamp !== undefined ? { startTimestamp } : {}),
        ...(endTimestamp !== undefined ? { endTimestamp } : {}),
        sortOrder: 'desc' as const,
      };
      const scope = ['assetTransactions', network, assetId, filter];
      const cursor = decodeToken(q.raw('pageToken'), scope);
      const result = data(network).transactions.listByAsset(assetId, filter, cursor, pageSize);
      const next = result.hasMore ? (result.next ?? cursor + result.items.length) : undefined;
      return page('transactions', result.items, next, scope, { chainInfo: chainInfo('x', network) });
    }),
    get(`${base}/utxos`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const raw = q.csv('addresses');
      if (!raw) bad('addresses is required: a comma-separated list of addresses');
      return utxoListing(data(network), network, chain, parseAddresses(data(network), raw, 'addresses', ['P', 'X', 'C']), q, pageSize);
    }),
    get('/v1/networks/{network}/addresses:listChainIds', (params, req) => {
      const network = parseNetwork(params.network);
      const raw = new Query(req.query).csv('addresses');
      const bodies = addressesOf(data(network), raw);
      return ok({ addresses: (raw ?? []).map((address, i) => ({ address, blockchainIds: data(network).chainIdsOf(bodies[i] as string) })) });
    }),
    get(`${base}/lastActivityTimestampByAddresses`, (params, req) => lastActivity(parseNetwork(params.network), params.blockchainId, new Query(req.query).csv('addresses'))),
    post(`${base}/lastActivityTimestampByAddresses`, (params, req) => lastActivity(parseNetwork(params.network), params.blockchainId, bodyAddresses(req))),
  ];
}
