import { createHash } from 'node:crypto';
import { errorResponse } from '../http-types.ts';
import { cb58 } from '../rng.ts';
import type { Route, RouteAnswer } from '../router.ts';
import type { EvmData, EvmNetwork, ExportRequest } from '../dataset/evm.ts';
import {
  CHAIN_FEATURES,
  CURRENCY_CODES,
  PRIMARY_CHAIN_IDS,
  PRIMARY_NETWORK_ID,
  type Chain,
  type ChainFeature,
  type CurrencyCode,
  type IcmMessage,
} from '../../shapes/index.ts';

/**
 * Routes of the EVM half of the Data API (E1, E2, E3, E5 + operations, E6, E9,
 * E10, E14, E16, E17, E19 and single transactions). Every bound of the seed is
 * enforced with its error body; lists page with an opaque token bound to the
 * request's filters.
 */
/** What E2 needs of the primary-network data (structural, so any dataset with these members fits). */
export interface L1TxSource {
  allValidators(): readonly { txHash: string }[];
  readonly subnets: readonly { l1ConversionTransactionHash?: string }[];
}

export interface EvmRoutesDataset {
  evm: Record<EvmNetwork, EvmData>;
  /**
   * Optional primary-network data. When given, E2 only signs the network's
   * L1-related P-chain transactions (validator registrations and L1
   * conversions) and answers 404 for other well-formed ids; without it every
   * well-formed cb58 id gets a deterministic signature.
   */
  primary?: Record<EvmNetwork, L1TxSource>;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const fail = (status: number, message: string): never => {
  throw new HttpError(status, message);
};

type Handler = Route['handle'];

function guarded(handle: Handler): Handler {
  return async (params, req) => {
    try {
      return await handle(params, req);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.message, '');
      throw error;
    }
  };
}

const ok = (body: unknown): RouteAnswer => ({ status: 200, body });

// ---------------------------------------------------------------- parameter parsing

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const HEX = /^(0x)?([0-9a-fA-F]{2})+$/;
const CB58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PRIMARY_EXPORT_TYPES = [
  'TRANSACTION_EXPORT_PRIMARY_NETWORK',
  'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING',
  'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE',
] as const;
const PRIMARY_CHAIN_VALUES: readonly string[] = [
  PRIMARY_NETWORK_ID,
  PRIMARY_CHAIN_IDS.mainnet.x, PRIMARY_CHAIN_IDS.fuji.x, PRIMARY_CHAIN_IDS.mainnet.c, PRIMARY_CHAIN_IDS.fuji.c,
  'p-chain', 'x-chain', 'c-chain',
];

function networkOf(value: string, name = 'network'): EvmNetwork {
  if (value === 'mainnet') return 'mainnet';
  if (value === 'fuji' || value === 'testnet') return 'fuji';
  return fail(400, `${name} must be one of mainnet, fuji, testnet`);
}

function evmAddress(value: string, name = 'address'): string {
  if (!EVM_ADDRESS.test(value)) fail(400, `Invalid ${name} format: expected 0x followed by 40 hex characters`);
  return value.toLowerCase();
}

/** A query parameter, or undefined when absent (an empty value counts as given, and is usually invalid). */
function param(q: URLSearchParams, name: string): string | undefined {
  return q.has(name) ? (q.get(name) ?? '') : undefined;
}

function uintParam(q: URLSearchParams, name: string): number | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) fail(400, `${name} must be a non-negative integer`);
  return Number(raw);
}

function enumParam<T extends string>(q: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) fail(400, `${name} must be one of ${values.join(', ')}`);
  return raw as T;
}

function currencyParam(q: URLSearchParams): CurrencyCode {
  return enumParam(q, 'currency', CURRENCY_CODES) ?? 'usd';
}

function blockRange(q: URLSearchParams): { startBlock?: number; endBlock?: number } {
  const startBlock = uintParam(q, 'startBlock');
  const endBlock = uintParam(q, 'endBlock');
  if (startBlock !== undefined && endBlock !== undefined && startBlock > endBlock) {
    fail(400, 'startBlock must be less than or equal to endBlock');
  }
  const range: { startBlock?: number; endBlock?: number } = {};
  if (startBlock !== undefined) range.startBlock = startBlock;
  if (endBlock !== undefined) range.endBlock = endBlock;
  return range;
}

function blockNumberParam(q: URLSearchParams): number | undefined {
  const raw = param(q, 'blockNumber');
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) fail(400, 'blockNumber must be a string of decimal digits');
  return Number(raw);
}

// ---------------------------------------------------------------- pagination

interface PageLimits {
  defaultSize: number;
  maxSize: number;
}

const LIST_LIMITS: PageLimits = { defaultSize: 10, maxSize: 100 };
const E10_LIMITS: PageLimits = { defaultSize: 10, maxSize: 500 };

function scopeHash(scope: string): string {
  return createHash('sha256').update(scope).digest('base64url').slice(0, 12);
}

/**
 * Offset paging. The token is base64url JSON `{o, h}`: the offset and a hash of
 * the route and filters, so a token cannot be replayed against other filters.
 * The page size is not part of the hash: a client may change it between pages.
 */
function paginate<T>(items: readonly T[], q: URLSearchParams, limits: PageLimits, scope: string): { page: T[]; nextPageToken?: string } {
  const rawSize = param(q, 'pageSize');
  let size = limits.defaultSize;
  if (rawSize !== undefined) {
    if (!/^\d+$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > limits.maxSize) {
      fail(400, `pageSize must be an integer between 1 and ${limits.maxSize}`);
    }
    size = Number(rawSize);
  }
  const h = scopeHash(scope);
  let offset = 0;
  const token = param(q, 'pageToken');
  if (token !== undefined) {
    let decoded: unknown;
    try {
      decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    } catch {
      decoded = undefined;
    }
    const t = decoded as { o?: unknown; h?: unknown } | undefined;
    if (!t || typeof t !== 'object' || !Number.isSafeInteger(t.o) || (t.o as number) < 0 || t.h !== h) {
      fail(400, 'Invalid pageToken');
    }
    offset = (t as { o: number }).o;
  }
  const page = items.slice(offset, offset + size);
  const next = offset + size;
  if (next >= items.length) return { page };
  return { page, nextPageToken: Buffer.from(JSON.stringify({ o: next, h })).toString('base64url') };
}

// ---------------------------------------------------------------- signatures

function u32(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

function isCb58Id(value: string): boolean {
  if (!CB58_CHARS.test(value) || value.length < 40 || value.length > 60) return false;
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const ch of value) n = n * 58n + BigInt(alphabet.indexOf(ch));
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  const zeros = value.length - value.replace(/^1+/, '').length;
  const bytes = Buffer.concat([Buffer.alloc(zeros), Buffer.from(n === 0n ? '' : hex, 'hex')]);
  if (bytes.length !== 36) return false;
  const checksum = createHash('sha256').update(bytes.subarray(0, 32)).digest().subarray(-4);
  return checksum.equals(bytes.subarray(32));
}

interface SignRequest {
  network: EvmNetwork;
  unsignedHex: string;
  subnet: string;
  quorum: number;
  buffer: number;
  height: number;
}

/**
 * A Warp-shaped signed message: unsigned bytes ‖ signature type 0 ‖ length-
 * prefixed signer bit set ‖ 96-byte BLS-looking aggregate signature, all
 * derived from the inputs so the same request always gets the same answer.
 */
function signedMessage(r: SignRequest): string {
  const key = `${r.network}|${r.unsignedHex}|${r.subnet}|${r.quorum}|${r.buffer}|${r.height}`;
  const digest = (label: string): Buffer => createHash('sha256').update(`${key}|${label}`).digest();
  const validators = 8 + ((createHash('sha256').update(`${r.network}|${r.subnet}|${r.height}`).digest()[0] ?? 0) % 24);
  const signers = Math.min(validators, Math.ceil((validators * (r.quorum + r.buffer)) / 100));
  const order = Array.from({ length: validators }, (_, i) => i)
    .sort((a, b) => digest(`v${a}`).compare(digest(`v${b}`)))
    .slice(0, signers);
  const bitset = Buffer.alloc(Math.ceil(validators / 8));
  for (const i of order) {
    const byte = bitset.length - 1 - Math.floor(i / 8);
    bitset[byte] = (bitset[byte] ?? 0) | (1 << (i % 8));
  }
  const signature = Buffer.concat([digest('s0'), digest('s1'), digest('s2')]);
  return `${r.unsignedHex}${u32(0)}${u32(bitset.length)}${bitset.toString('hex')}${signature.toString('hex')}`;
}

/** An unsigned Warp message wrapping `payload`: codec ‖ network id ‖ source chain ‖ payload. */
function unsignedWarp(network: EvmNetwork, sourceChain: Buffer, payload: Buffer): string {
  return `0000${u32(network === 'mainnet' ? 1 : 5)}${sourceChain.toString('hex')}${u32(payload.length)}${payload.toString('hex')}`;
}

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

function parseJsonBody(body: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return fail(400, 'Request body must be a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) fail(400, 'Request body must be a JSON object');
  return parsed as Record<string, unknown>;
}

// ---------------------------------------------------------------- exports

function dateField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  // The round trip rejects impossible dates such as 2025-02-30, which Date would roll over.
  const time = typeof value === 'string' && DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) {
    fail(400, `${name} must be a date in the form YYYY-MM-DD`);
  }
  return value as string;
}

function stringArray(value: unknown, name: string, required: boolean): string[] | undefined {
  if (value === undefined && !required) return undefined;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    return fail(400, `${name} must be an array of strings`);
  }
  return value;
}

// ---------------------------------------------------------------- routes

export function evmRoutes(dataset: EvmRoutesDataset): Route[] {
  const networks: EvmNetwork[] = ['mainnet', 'fuji'];
  const evm = dataset.evm;

  function chainData(chainId: string): { data: EvmData; chain: Chain } {
    for (const n of networks) {
      const data = evm[n];
      if (!data.hasChain(chainId)) continue;
      const chain = data.chains().find((c) => c.chainId === chainId || c.platformChainId === chainId);
      if (chain) return { data, chain };
    }
    return fail(404, `Chain ${chainId} not found`);
  }

  // Built on the first E2 request of each network: a scan of every validation, once.
  const l1Txs = new Map<EvmNetwork, Set<string>>();
  function l1TxHashes(network: EvmNetwork): Set<string> | undefined {
    const source = dataset.primary?.[network];
    if (!source) return undefined;
    let set = l1Txs.get(network);
    if (!set) {
      set = new Set(source.allValidators().map((v) => v.txHash));
      for (const s of source.subnets) if (s.l1ConversionTransactionHash) set.add(s.l1ConversionTransactionHash);
      l1Txs.set(network, set);
    }
    return set;
  }

  function knownChain(id: string): EvmData | undefined {
    return networks.map((n) => evm[n]).find((d) => d.hasChain(id));
  }

  const get = (pattern: string, handle: Handler): Route => ({ method: 'GET', pattern, handle: guarded(handle) });
  const post = (pattern: string, handle: Handler): Route => ({ method: 'POST', pattern, handle: guarded(handle) });

  return [
    // E1
    post('/v1/signatureAggregator/{network}/aggregateSignatures', (p, req) => {
      const network = networkOf(p.network ?? '');
      const body = parseJsonBody(req.body);
      const hasMessage = body.message !== undefined && body.message !== null;
      const hasJustification = body.justification !== undefined && body.justification !== null;
      if (hasMessage === hasJustification) fail(400, 'Exactly one of message or justification must be provided');
      const field = hasMessage ? 'message' : 'justification';
      const value = body[field];
      if (typeof value !== 'string' || !HEX.test(value)) fail(400, `${field} must be a non-empty hex string of even length, optionally prefixed with 0x`);
      const hex = (value as string).replace(/^0x/, '').toLowerCase();

      const quorum = body.quorumPercentage ?? 67;
      const buffer = body.quorumPercentageBuffer ?? 0;
      const height = body.pChainHeight ?? 0;
      if (!isInt(quorum, 0, 100)) fail(400, 'quorumPercentage must be an integer between 0 and 100');
      if (!isInt(buffer, 0, 100)) fail(400, 'quorumPercentageBuffer must be an integer between 0 and 100');
      if ((quorum as number) + (buffer as number) > 100) fail(400, 'quorumPercentage + quorumPercentageBuffer must be at most 100');
      if (!isInt(height, 0, Number.MAX_SAFE_INTEGER)) fail(400, 'pChainHeight must be a non-negative integer');
      const subnetRaw = body.signingSubnetId;
      if (subnetRaw !== undefined && subnetRaw !== null
        && (typeof subnetRaw !== 'string' || !(HEX.test(subnetRaw) || CB58_CHARS.test(subnetRaw)))) {
        fail(400, 'signingSubnetId must be hex or cb58');
      }

      let unsignedHex = hex;
      let sourceChain: string | undefined;
      if (hasMessage) {
        // A Warp unsigned message starts codec(2) ‖ networkID(4) ‖ sourceChainID(32).
        if (hex.length >= 76) sourceChain = cb58(Buffer.from(hex.slice(12, 76), 'hex'));
      } else {
        const payload = createHash('sha256').update(`justification|${hex}`).digest();
        unsignedHex = unsignedWarp(network, Buffer.alloc(32), payload);
      }
      const sourceSubnet = sourceChain ? evm[network].chains().find((c) => c.platformChainId === sourceChain)?.subnetId : undefined;
      const subnet = typeof subnetRaw === 'string' ? subnetRaw : (sourceSubnet ?? PRIMARY_NETWORK_ID);
      return ok({
        signedMessage: signedMessage({
          network, unsignedHex, subnet, quorum: quorum as number, buffer: buffer as number, height: height as number,
        }),
      });
    }),

    // E2
    get('/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}', (p) => {
      const network = networkOf(p.network ?? '');
      const txHash = p.txHash ?? '';
      if (!isCb58Id(txHash)) fail(400, 'txHash must be a P-chain or X-chain transaction id (cb58)');
      const known = l1TxHashes(network);
      if (known && !known.has(txHash)) fail(404, `No L1-related P-chain transaction ${txHash} on ${network}`);
      const payload = createHash('sha256').update(`l1-tx|${txHash}`).digest();
      const unsignedHex = unsignedWarp(network, Buffer.alloc(32), payload);
      return ok({ signedMessage: signedMessage({ network, unsignedHex, subnet: PRIMARY_NETWORK_ID, quorum: 67, buffer: 0, height: 0 }) });
    }),

    // E3
    get('/v1/chains/{chainId}/addresses/{address}/transactions', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const sortOrder = enumParam(req.query, 'sortOrder', ['asc', 'desc'] as const) ?? 'desc';
      const items = data.addressTransactions(chain.chainId, address, range) ?? [];
      if (sortOrder === 'desc') items.reverse();
      const scope = `E3|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}|${sortOrder}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // E9
    get('/v1/chains/{chainId}/addresses/{address}/transactions:listNative', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const range = blockRange(req.query);
      const items = (data.nativeTransactions(chain.chainId, address, range) ?? []).reverse();
      const scope = `E9|${chain.chainId}|${address}|${range.startBlock}|${range.endBlock}`;
      const { page, nextPageToken } = paginate(items, req.query, LIST_LIMITS, scope);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), transactions: page });
    }),

    // E10
    get('/v1/chains/{chainId}/addresses/{address}/balances:listErc1155', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const blockNumber = blockNumberParam(req.query);
      const rawContract = param(req.query, 'contractAddress');
      const contract = rawContract === undefined ? undefined : evmAddress(rawContract, 'contractAddress');
      const items = data.erc1155Balances(chain.chainId, address, blockNumber, contract) ?? [];
      const scope = `E10|${chain.chainId}|${address}|${blockNumber}|${contract}`;
      const { page, nextPageToken } = paginate(items, req.query, E10_LIMITS, scope);
      const nativeTokenBalance = data.nativeBalance(chain.chainId, address, blockNumber, 'usd');
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), nativeTokenBalance, erc1155TokenBalances: page });
    }),

    // E14
    get('/v1/chains/{chainId}/addresses/{address}/balances:getNative', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const blockNumber = blockNumberParam(req.query);
      const currency = currencyParam(req.query);
      return ok({ nativeTokenBalance: data.nativeBalance(chain.chainId, address, blockNumber, currency) });
    }),

    // E6
    get('/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment', (p, req) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const currency = currencyParam(req.query);
      const tx = data.deployment(chain.chainId, address, currency);
      return tx ? ok(tx) : fail(404, `No contract deployed at ${address} on chain ${chain.chainId}`);
    }),

    // Single transaction (the complete view E3 points to)
    get('/v1/chains/{chainId}/transactions/{txHash}', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const txHash = p.txHash ?? '';
      if (!TX_HASH.test(txHash)) fail(400, 'txHash must be 0x followed by 64 hex characters');
      const tx = data.transaction(chain.chainId, txHash, 'usd');
      return tx ? ok(tx) : fail(404, `Transaction ${txHash} not found on chain ${chain.chainId}`);
    }),

    // E19
    get('/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}', (p) => {
      const { data, chain } = chainData(p.chainId ?? '');
      const address = evmAddress(p.address ?? '');
      const tokenId = p.tokenId ?? '';
      if (!/^\d+$/.test(tokenId)) fail(400, 'tokenId must be a string of decimal digits');
      const token = data.nftToken(chain.chainId, address, tokenId);
      return token ? ok(token) : fail(404, `Token ${tokenId} of collection ${address} not found on chain ${chain.chainId}`);
    }),

    // E16
    get('/v1/icm/addresses/{address}/messages', (p, req) => {
      const address = evmAddress(p.address ?? '');
      const rawNetwork = param(req.query, 'network');
      const network = rawNetwork === undefined ? undefined : networkOf(rawNetwork);
      const selected = network ? [network] : networks;
      const messages: IcmMessage[] = selected.flatMap((n) => evm[n].icmMessages(address));
      if (selected.length > 1) {
        messages.sort((a, b) => (b.sourceTransaction?.timestamp ?? 0) - (a.sourceTransaction?.timestamp ?? 0) || a.messageId.localeCompare(b.messageId));
      }
      const { page, nextPageToken } = paginate(messages, req.query, LIST_LIMITS, `E16|${address}|${network ?? 'all'}`);
      return ok({ ...(nextPageToken ? { nextPageToken } : {}), messages: page });
    }),

    // E17
    get('/v1/chains', (_p, req) => {
      const rawNetwork = param(req.query, 'network');
      const network = rawNetwork === undefined ? undefined : networkOf(rawNetwork);
      const feature: ChainFeature | undefined = enumParam(req.query, 'feature', CHAIN_FEATURES);
      const chains = (network ? [network] : networks)
        .flatMap((n) => evm[n].chains())
        .filter((c) => !feature || (c.enabledFeatures ?? []).includes(feature));
      return ok({ chains });
    }),

    // E5
    post('/v1/operations/transactions:export', (_p, req) => {
      const body = parseJsonBody(req.body);
      const type = body.type;
      const isEvm = type === 'TRANSACTION_EXPORT_EVM';
      if (!isEvm && !(PRIMARY_EXPORT_TYPES as readonly unknown[]).includes(type)) {
        fail(400, `type must be one of TRANSACTION_EXPORT_EVM, ${PRIMARY_EXPORT_TYPES.join(', ')}`);
      }
      const [first, last, start, end] = ['firstDate', 'lastDate', 'startDate', 'endDate'].map((k) => dateField(body, k));
      // startDate / endDate are the deprecated names of firstDate / lastDate.
      const firstDate = first ?? start;
      const lastDate = last ?? end;
      if (firstDate && lastDate && firstDate > lastDate) fail(400, 'firstDate must not be after lastDate');

      const options = body.options;
      if (!options || typeof options !== 'object' || Array.isArray(options)) return fail(400, 'options is required');
      const opts = options as Record<string, unknown>;
      const includeChains = stringArray(opts.includeChains, 'options.includeChains', true) ?? [];
      if (includeChains.length === 0) fail(400, 'options.includeChains must not be empty');

      let network: EvmNetwork = 'mainnet';
      const request: ExportRequest = { type: type as string, addresses: [], includeChains };
      if (firstDate) request.firstDate = firstDate;
      if (lastDate) request.lastDate = lastDate;
      if (isEvm) {
        const addresses = stringArray(opts.addresses, 'options.addresses', true) ?? [];
        if (addresses.length === 0) fail(400, 'options.addresses must not be empty');
        request.addresses = addresses.map((a) => evmAddress(a, 'options.addresses item'));
        const owners = includeChains.map((id) => knownChain(id));
        request.unknownChains = includeChains.filter((_, i) => !owners[i]);
        network = owners.find((d) => d)?.network ?? 'mainnet';
      } else {
        for (const id of includeChains) {
          if (!PRIMARY_CHAIN_VALUES.includes(id)) fail(400, `options.includeChains values must be one of ${PRIMARY_CHAIN_VALUES.join(', ')}`);
        }
        request.addresses = stringArray(opts.addresses, 'options.addresses', false) ?? [];
        const evmAddresses = stringArray(opts.cChainEvmAddresses, 'options.cChainEvmAddresses', false) ?? [];
        evmAddresses.forEach((a) => evmAddress(a, 'options.cChainEvmAddresses item'));
        const fujiIds: readonly string[] = [PRIMARY_CHAIN_IDS.fuji.x, PRIMARY_CHAIN_IDS.fuji.c];
        const fujiPrefixed = request.addresses.some((a) => /^([PXC]-)?fuji1/.test(a));
        if (includeChains.some((id) => fujiIds.includes(id)) || fujiPrefixed) network = 'fuji';
      }
      return ok(evm[network].createExport(request));
    }),

    get('/v1/operations/{operationId}', (p) => {
      const id = p.operationId ?? '';
      for (const n of networks) {
        const op = evm[n].operation(id);
        if (op) return ok(op);
      }
      return fail(404, `Operation ${id} not found`);
    }),
  ];
}
