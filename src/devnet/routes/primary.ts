import {
  CURRENCY_CODES,
  DELEGATION_STATUSES,
  PRIMARY_CHAIN_IDS,
  PRIMARY_NETWORK_ID,
  UTXO_SORT_BY,
  VALIDATION_STATUSES,
  VALIDATOR_SORT_BY,
  type ChainInfo,
  type SortOrder,
} from '../../shapes/index.ts';
import { devnetNetworkOf, type Dataset } from '../dataset/index.ts';
import { CHAIN_NAMES, type Page, type PrimaryChain, type PrimaryData, type Range } from '../dataset/primary/index.ts';
import type { DevnetNetwork } from '../node-view.ts';
import type { DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';
import { shortDigest } from '../../lib/text.ts';
import { bad, fail, guarded } from './http-error.ts';
import { cachedPages, createPageCache, requestKey } from './page-cache.ts';

/**
 * The primary-network endpoints of the Data API seed: E4 utxos, E7 subnets,
 * E8 validators, E11/E12 rewards, E13 delegators, E15 blocks, E18 vertices.
 *
 * Every bound of the seed is enforced with its error body; unknown query
 * parameters are ignored. Page tokens are opaque to callers: base64url of the
 * position plus a hash of the endpoint, network and filters, so a token replayed
 * against other arguments is rejected with 400. `pageSize` may change between
 * pages. List defaults: `sortOrder=desc` (newest first).
 */

// ------------------------------------------------------------------ parameters

const DECIMAL = /^\d+(\.\d+)?$/;
const INTEGER = /^\d+$/;

export class Query {
  constructor(private readonly q: URLSearchParams) {}

  /** The raw value; an absent parameter is undefined (an empty one is '' and fails typed parsers). */
  raw(name: string): string | undefined {
    return this.q.get(name) ?? undefined;
  }

  int(name: string, min: number, max: number): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!INTEGER.test(v) || Number(v) < min || Number(v) > max) bad(`${name} must be an integer between ${min} and ${max}`);
    return Number(v);
  }

  num(name: string, min: number, max: number): number | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!DECIMAL.test(v) || Number(v) < min || Number(v) > max) bad(`${name} must be a number between ${min} and ${max}`);
    return Number(v);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) bad(`${name} must be one of: ${values.join(', ')}`);
    return v as T;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') bad(`${name} must be a boolean (true or false)`);
    return v === 'true';
  }

  /**
   * A list: comma-separated (the spec's `string` lists, what the seed shows), the name repeated
   * (`a=1&a=2`, the form style of the spec's array parameters), or both mixed. Empty entries are
   * dropped, an all-empty list counts as absent.
   */
  csv(name: string): string[] | undefined {
    if (!this.q.has(name)) return undefined;
    const items = [...new Set(this.q.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean))];
    return items.length > 0 ? items : undefined;
  }

  pageSize(defaultSize: number, max: number): number {
    return this.int('pageSize', 1, max) ?? defaultSize;
  }

  sortOrder(): SortOrder {
    return this.oneOf('sortOrder', ['asc', 'desc'] as const) ?? 'desc';
  }

  /** [min, max] when either bound is given, else undefined; min must not exceed max. */
  range(minName: string, maxName: string, parse: (name: string) => number | undefined, lo: number, hi: number): Range | undefined {
    const min = parse(minName);
    const max = parse(maxName);
    if (min === undefined && max === undefined) return undefined;
    if (min !== undefined && max !== undefined && min > max) bad(`${minName} must not be greater than ${maxName}`);
    return [min ?? lo, max ?? hi];
  }
}

export function parseNetwork(name: string | undefined): DevnetNetwork {
  const network = name === undefined ? undefined : devnetNetworkOf(name);
  if (!network) bad(`network must be one of: mainnet, fuji, testnet`);
  return network;
}

const ALIASES: ReadonlyMap<string, PrimaryChain> = new Map([['p-chain', 'p'], ['x-chain', 'x'], ['c-chain', 'c']]);
const ALL_CHAIN_IDS = new Set<string>([...Object.values(PRIMARY_CHAIN_IDS.mainnet), ...Object.values(PRIMARY_CHAIN_IDS.fuji)]);

/**
 * `p-chain` / `x-chain` / `c-chain` or one of the network's fixed ids. Another
 * value of the spec's `BlockchainId` set (a chain of the other network) is a 404;
 * anything else fails validation (400).
 */
export function parseChain(network: DevnetNetwork, id: string | undefined, allowed: readonly PrimaryChain[]): PrimaryChain {
  const ids = PRIMARY_CHAIN_IDS[network];
  let chain: PrimaryChain | undefined = id === undefined ? undefined : ALIASES.get(id);
  if (!chain) chain = id === ids.p ? 'p' : id === ids.x ? 'x' : id === ids.c ? 'c' : undefined;
  if (chain && allowed.includes(chain)) return chain;
  const names = allowed.map((c) => CHAIN_NAMES[c]);
  if (!chain && id !== undefined && ALL_CHAIN_IDS.has(id)) {
    const otherIsAllowed = (['p', 'x', 'c'] as const).some(
      (c) => allowed.includes(c) && PRIMARY_CHAIN_IDS[network === 'mainnet' ? 'fuji' : 'mainnet'][c] === id,
    );
    if (otherIsAllowed) fail(404, `Blockchain ${id} not found on ${network}`);
  }
  bad(`blockchainId must be ${names.join(', ')} or the network's ${allowed.map((c) => c.toUpperCase()).join('/')}-chain id`);
}

const ADDRESS_BODY = /^(avax|fuji)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}$/;

/**
 * Primary-network addresses: an optional chain prefix (`P-`, `X-`; `C-` too for
 * UTXOs), then a bech32 address whose hrp is the network's (`avax` / `fuji`).
 * Returns the bodies without prefix.
 */
export function parseAddresses(data: PrimaryData, raw: readonly string[], name: string, prefixes: readonly string[]): string[] {
  return raw.map((entry) => {
    const dash = entry.indexOf('-');
    let body = entry;
    if (dash >= 0) {
      const prefix = entry.slice(0, dash).toUpperCase();
      if (!prefixes.includes(prefix)) bad(`Invalid address format in ${name}: ${entry}`);
      body = entry.slice(dash + 1);
    }
    if (!ADDRESS_BODY.test(body)) bad(`Invalid address format in ${name}: ${entry}`);
    if (!body.startsWith(`${data.hrp}1`)) bad(`Address ${entry} in ${name} is not a ${data.network} address (expected the ${data.hrp} prefix)`);
    return body;
  });
}

// ------------------------------------------------------------------ page tokens

interface TokenBody {
  v: 1;
  /** Position: an offset, or for blocks the next height. */
  p: number;
  /** Hash of the endpoint, network and filters. */
  f: string;
}

function filterHash(scope: unknown): string {
  return shortDigest(JSON.stringify(scope), 16);
}

export function encodeToken(scope: unknown, position: number): string {
  const body: TokenBody = { v: 1, p: position, f: filterHash(scope) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position stored in `token`, 0 without one; 400 for a malformed token or one issued for other arguments. */
export function decodeToken(token: string | undefined, scope: unknown): number {
  if (token === undefined) return 0;
  let body: Partial<TokenBody> | undefined;
  try {
    body = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<TokenBody>;
  } catch {
    body = undefined;
  }
  if (!body || typeof body !== 'object' || body.v !== 1 || !Number.isSafeInteger(body.p) || (body.p as number) < 0) {
    bad('Invalid pageToken');
  }
  if (body.f !== filterHash(scope)) bad('pageToken does not belong to this request (its filters or endpoint differ)');
  return body.p as number;
}

/** `{nextPageToken?, [key]: items, ...extra}` with the token only when a next page exists. */
function listAnswer<T>(key: string, page: Page<T>, scope: unknown, offset: number, extra: Record<string, unknown> = {}): RouteAnswer {
  const body: Record<string, unknown> = {};
  if (page.hasMore) body.nextPageToken = encodeToken(scope, offset + page.items.length);
  body[key] = page.items;
  Object.assign(body, extra);
  return { status: 200, body };
}

/**
 * A page of UTXOs, for the POST listing and its GET form alike (their tokens share one scope, so a
 * token of one form reads on in the other): the filters from the query, the addresses as parsed.
 */
export function utxoListing(data: PrimaryData, network: DevnetNetwork, chain: PrimaryChain, addresses: string[], q: Query, pageSize: number): RouteAnswer {
  const assetId = q.raw('assetId');
  if (assetId !== undefined && chain !== 'x') bad('assetId is only supported for the X-chain');
  if (assetId === '') bad('assetId must not be empty');
  const minUtxoAmount = q.num('minUtxoAmount', 0, Number.MAX_SAFE_INTEGER);
  const includeSpent = q.bool('includeSpent') ?? false;
  const sortBy = q.oneOf('sortBy', UTXO_SORT_BY) ?? 'timestamp';
  const sortOrder = q.sortOrder();
  const filter = { addresses, assetId, minUtxoAmount, includeSpent, sortBy, sortOrder };
  const scope = ['utxos', network, chain, filter];
  const offset = decodeToken(q.raw('pageToken'), scope);
  return listAnswer('utxos', data.listUtxos(chain, filter, offset, pageSize), scope, offset, { chainInfo: chainInfo(chain, network) });
}

export function chainInfo(chain: PrimaryChain, network: DevnetNetwork): ChainInfo {
  return { chainName: CHAIN_NAMES[chain], network };
}

const MAX_DELEGATION_CAPACITY = 720_000_000_000_000_000n;

function parseCapacity(q: Query, name: string): number | undefined {
  const v = q.raw(name);
  if (v === undefined) return undefined;
  if (!INTEGER.test(v) || BigInt(v) > MAX_DELEGATION_CAPACITY) bad(`${name} must be a decimal string of nAVAX between 0 and ${MAX_DELEGATION_CAPACITY}`);
  // Every stored capacity is below 2^53, so rounding a larger bound cannot change a comparison.
  return Number(v);
}

// ------------------------------------------------------------------ routes

export function primaryRoutes(dataset: Dataset): Route[] {
  const data = (network: DevnetNetwork): PrimaryData => dataset.primary[network];
  // Pages of subnets, validators, delegators and rewards follow from the request and the staking
  // records' version (timeline.ts: it moves when a validation or delegation starts, ends or is added,
  // so no page outlives its list), except what the clock moves between those: pending rewards'
  // progress and the validators' time remaining, kept per second.
  const pages = createPageCache();
  const second = (): number => Math.floor(dataset.now() / 1000);
  const version = (): string => `${dataset.primary.mainnet.stakingVersion()}.${dataset.primary.fuji.stakingVersion()}`;
  const cached = (route: Route, byTime: (req: DevnetRequest) => boolean = () => false): Route => ({
    ...route,
    handle: cachedPages(pages, (req) => `${requestKey(req)}|v${version()}${byTime(req) ? `|${second()}` : ''}`, route.handle, { route: `${route.method} ${route.pattern}`, seed: dataset.seed }),
  });

  return [
    {
      method: 'POST',
      pattern: '/v1/networks/{network}/blockchains/{blockchainId}/utxos',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 1024);
        let body: unknown;
        try {
          body = JSON.parse(req.body);
        } catch {
          bad('The request body must be JSON: {"addresses": "<comma-separated addresses>"}');
        }
        const rawAddresses = (body as { addresses?: unknown } | null)?.addresses;
        if (typeof rawAddresses !== 'string' || rawAddresses.trim() === '') {
          bad('addresses is required: a non-empty string of comma-separated addresses');
        }
        const entries = [...new Set(rawAddresses.split(',').map((s) => s.trim()).filter(Boolean))];
        if (entries.length === 0) bad('addresses is required: a non-empty string of comma-separated addresses');
        return utxoListing(data(network), network, chain, parseAddresses(data(network), entries, 'addresses', ['P', 'X', 'C']), q, pageSize);
      }),
    },
    cached({
      method: 'GET',
      pattern: '/v1/networks/{network}/subnets',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const q = new Query(req.query);
        const pageSize = q.pageSize(100, 10_000);
        const sortOrder = q.sortOrder();
        const scope = ['subnets', network, sortOrder];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('subnets', data(network).listSubnets(sortOrder, offset, pageSize), scope, offset);
      }),
    }),
    cached({
      method: 'GET',
      pattern: '/v1/networks/{network}/validators',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const subnetId = q.raw('subnetId');
        if (subnetId === '') bad('subnetId must not be empty');
        const sortBy = q.oneOf('sortBy', VALIDATOR_SORT_BY) ?? 'blockIndex';
        if (sortBy === 'delegationFee' && !(network === 'mainnet' && subnetId === PRIMARY_NETWORK_ID)) {
          bad(`sortBy=delegationFee is only supported for mainnet with subnetId=${PRIMARY_NETWORK_ID}`);
        }
        const filter = {
          nodeIds: q.csv('nodeIds'),
          sortBy,
          sortOrder: q.sortOrder(),
          validationStatus: q.oneOf('validationStatus', VALIDATION_STATUSES),
          subnetId,
          delegationCapacity: q.range('minDelegationCapacity', 'maxDelegationCapacity', (n) => parseCapacity(q, n), 0, Number.MAX_SAFE_INTEGER),
          timeRemaining: q.range('minTimeRemaining', 'maxTimeRemaining', (n) => q.num(n, 0, 2_147_483_647), 0, 2_147_483_647),
          feePercentage: q.range('minFeePercentage', 'maxFeePercentage', (n) => q.num(n, 2, 100), 2, 100),
          uptimePerformance: q.range('minUptimePerformance', 'maxUptimePerformance', (n) => q.num(n, 0, 100), 0, 100),
        };
        const scope = ['validators', network, filter];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('validators', data(network).listValidators(filter, offset, pageSize), scope, offset);
      }),
    }, (req) => req.query.has('minTimeRemaining') || req.query.has('maxTimeRemaining')),
    cached({
      method: 'GET',
      pattern: '/v1/networks/{network}/delegators',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const rewardAddresses = q.csv('rewardAddresses');
        const filter = {
          nodeIds: q.csv('nodeIds'),
          // Reward addresses are P-chain addresses; a `P-` prefix is accepted and dropped.
          rewardAddresses: rewardAddresses?.map((a) => (/^p-/i.test(a) ? a.slice(2) : a)),
          delegationStatus: q.oneOf('delegationStatus', DELEGATION_STATUSES),
          sortOrder: q.sortOrder(),
        };
        const scope = ['delegators', network, filter];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('delegators', data(network).listDelegators(filter, offset, pageSize), scope, offset);
      }),
    }),
    cached({
      method: 'GET',
      pattern: '/v1/networks/{network}/rewards',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const filter = rewardFilter(data(network), q);
        const currency = q.oneOf('currency', CURRENCY_CODES) ?? 'usd';
        const scope = ['rewards', network, filter, currency];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('historicalRewards', data(network).listHistoricalRewards(filter, currency, offset, pageSize), scope, offset);
      }),
    }),
    cached({
      method: 'GET',
      pattern: '/v1/networks/{network}/rewards:listPending',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const filter = rewardFilter(data(network), q);
        const scope = ['pendingRewards', network, filter];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('pendingRewards', data(network).listPendingRewards(filter, offset, pageSize), scope, offset);
      }),
    }, () => true),
    {
      method: 'GET',
      pattern: '/v1/networks/{network}/blockchains/{blockchainId}/blocks',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const startTimestamp = q.int('startTimestamp', 0, Number.MAX_SAFE_INTEGER);
        const endTimestamp = q.int('endTimestamp', 0, Number.MAX_SAFE_INTEGER);
        if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) {
          bad('startTimestamp must not be greater than endTimestamp');
        }
        const scope = ['blocks', network, chain, startTimestamp, endTimestamp];
        const token = q.raw('pageToken');
        // The token holds the next height, so blocks produced meanwhile do not shift later pages.
        const cursor = token === undefined ? undefined : decodeToken(token, scope);
        const { items, next } = data(network).listBlocks(chain, { startTimestamp, endTimestamp }, cursor, pageSize);
        const body: Record<string, unknown> = {};
        if (next !== undefined) body.nextPageToken = encodeToken(scope, next);
        body.blocks = items;
        body.chainInfo = chainInfo(chain, network);
        return { status: 200, body };
      }),
    },
    {
      method: 'GET',
      pattern: '/v1/networks/{network}/blockchains/{blockchainId}/vertices',
      handle: guarded((params, req) => {
        const network = parseNetwork(params.network);
        const chain = parseChain(network, params.blockchainId, ['x']);
        const q = new Query(req.query);
        const pageSize = q.pageSize(10, 100);
        const scope = ['vertices', network];
        const offset = decodeToken(q.raw('pageToken'), scope);
        return listAnswer('vertices', data(network).listVertices(offset, pageSize), scope, offset, { chainInfo: chainInfo(chain, network) });
      }),
    },
  ];
}

/** E11/E12: at least one of `addresses` / `nodeIds`; addresses with the network's hrp. */
function rewardFilter(data: PrimaryData, q: Query): { addresses?: string[]; nodeIds?: string[]; sortOrder: SortOrder } {
  const rawAddresses = q.csv('addresses');
  const nodeIds = q.csv('nodeIds');
  if (!rawAddresses && !nodeIds) bad('At least one of addresses or nodeIds is required');
  const addresses = rawAddresses ? parseAddresses(data, rawAddresses, 'addresses', ['P', 'X']) : undefined;
  return { addresses, nodeIds, sortOrder: q.sortOrder() };
}
