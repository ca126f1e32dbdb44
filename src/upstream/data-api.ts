import type { CallOptions, DataApi } from './client-types.ts';
import { UpstreamError } from './errors.ts';
import { createHttpUpstream, type HttpUpstream } from './http.ts';
import { requestIdHeader } from './request-id.ts';
import {
  isObject, normalizePage, normalizePrices, normalizeUtxo, normalizeValidator,
} from './normalize.ts';
import type {
  ExportOperation, FullTransaction, GetNativeBalanceResponse, ListAddressTransactionsResponse,
  ListBlocksResponse, ListChainsResponse, ListDelegatorsResponse, ListErc1155BalancesResponse,
  ListHistoricalRewardsResponse, ListIcmMessagesResponse, ListNativeTransactionsResponse,
  ListPendingRewardsResponse, ListSubnetsResponse, ListUtxosResponse, ListValidatorsResponse,
  ListVerticesResponse, NftToken, SignedMessage,
} from '../shapes/index.ts';

/** Options of {@link createDataApiClient}. */
export interface DataApiClientOptions {
  /** Base URL of the Data API without `/v1` (`DATA_API_URL`); it may carry a path prefix. */
  baseUrl: string;
  /** The server's API key (`DATA_API_KEY`), sent on every call unless the call brings its own. */
  apiKey?: string;
  /** Header carrying the key (`DATA_API_KEY_HEADER`). Default `x-service-api-key`, as in the seed. */
  apiKeyHeader?: string;
  /** The HTTP policy (pools, timeouts, retries). Default: a new {@link createHttpUpstream}() owned by the client. */
  http?: HttpUpstream;
  /** Per-call deadline, ms, when the call gives none. Default: the HTTP policy's (15 s). */
  timeoutMs?: number;
}

/** The Data API client plus `close()`, which releases the pools when the client created its own. */
export interface DataApiClient extends DataApi {
  close(): Promise<void>;
}

type QueryValue = string | number | boolean | readonly string[] | undefined;
type Query = Record<string, QueryValue>;

interface Endpoint {
  method: 'GET' | 'POST';
  /** Path template under the base URL; `{name}` segments are filled from `pathParams`, URL-encoded. */
  template: string;
}

export const DEFAULT_API_KEY_HEADER = 'x-service-api-key';

/** Longest API key accepted from a caller, characters. */
export const MAX_API_KEY_LENGTH = 256;
/**
 * An API key: base64, base64url, hex, UUID or dotted-token characters. No space, comma
 * (two headers joined), quote, colon, `|` or control character, so a key can neither
 * break a header nor a cache key.
 */
const API_KEY = /^[A-Za-z0-9._~+/=-]+$/;

/** True for a string that may be sent as an API key (a caller's, or the server's). */
export function isApiKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_API_KEY_LENGTH && API_KEY.test(key);
}

/**
 * Bounds of what the client puts in a URL. Callers check their arguments earlier
 * and more precisely; these are the last line, so no input can turn a path template
 * into another route (`..`, `/`, `%2e%2e`) or smuggle a query parameter.
 */
export const URL_LIMITS = {
  /** Longest path parameter, characters (the longest real one, a P-chain address, is about 50). */
  maxPathParam: 128,
  /** Longest query parameter value, characters (a comma list of 100 node ids is about 4,000). */
  maxQueryValue: 8192,
} as const;

// Path parameters are ids, addresses, hashes, names: never a dot segment, a separator, `%`, whitespace or a control character.
const PATH_PARAM = /^[A-Za-z0-9._~:@!$'()*+,;=-]+$/;
// Query values are URL-encoded by URLSearchParams; only control characters are refused.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** Throws an `input` UpstreamError (nothing sent) unless `value` is a safe path segment. */
function checkPathParam(operation: string, name: string, value: string): void {
  if (value.length === 0 || value.length > URL_LIMITS.maxPathParam || value === '.' || value === '..' || !PATH_PARAM.test(value)) {
    throw refused(operation, name, `path parameter "${name}" is empty, too long (over ${URL_LIMITS.maxPathParam}), a dot segment or holds a separator`);
  }
}

function checkQueryValue(operation: string, name: string, value: string): void {
  if (value.length > URL_LIMITS.maxQueryValue || CONTROL.test(value)) {
    throw refused(operation, name, `query parameter "${name}" is longer than ${URL_LIMITS.maxQueryValue} characters or holds a control character`);
  }
}

function refused(operation: string, parameter: string, why: string): UpstreamError {
  return new UpstreamError(`data-api ${operation}: not sent: ${why}`, { upstream: 'data-api', kind: 'input', operation, parameter });
}

export function createDataApiClient(options: DataApiClientOptions): DataApiClient {
  const base = new URL(options.baseUrl);
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new Error(`DATA_API_URL must be an http(s) URL, got protocol ${base.protocol}`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const keyHeader = (options.apiKeyHeader ?? DEFAULT_API_KEY_HEADER).toLowerCase();
  const ownsHttp = options.http === undefined;
  const http = options.http ?? createHttpUpstream();

  async function call(
    endpoint: Endpoint,
    pathParams: Record<string, string>,
    query: Query | undefined,
    opts: CallOptions | undefined,
    json?: unknown,
  ): Promise<Record<string, unknown>> {
    const operation = `${endpoint.method} ${endpoint.template}`;
    const url = new URL(base.origin);
    url.pathname = basePath + endpoint.template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = pathParams[name];
      if (value === undefined) throw new Error(`missing path parameter ${name} for ${operation}`);
      checkPathParam(operation, name, value);
      return encodeURIComponent(value);
    });
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      const text = Array.isArray(value) ? value.join(',') : String(value);
      if (Array.isArray(value) && value.length === 0) continue;
      checkQueryValue(operation, name, text);
      url.searchParams.set(name, text);
    }
    const headers: Record<string, string> = {};
    // A caller's key was parsed in the context already; checked again so no other path can send a bad one.
    if (opts?.apiKey !== undefined && !isApiKey(opts.apiKey)) throw refused(operation, keyHeader, 'the caller\'s API key is not well-formed');
    const key = opts?.apiKey ?? options.apiKey;
    if (key) headers[keyHeader] = key;
    Object.assign(headers, requestIdHeader(opts?.requestId));

    const result = await http.request({
      upstream: 'data-api',
      operation,
      method: endpoint.method,
      url,
      headers,
      json,
      // Only GETs are retried: the POSTs start work (E1, E5) or are not known to be safe to repeat.
      idempotent: endpoint.method === 'GET',
      signal: opts?.signal,
      timeoutMs: opts?.timeoutMs ?? options.timeoutMs,
      observer: opts?.observer,
    });
    if (!isObject(result.body)) {
      throw new UpstreamError(`data-api ${operation}: HTTP ${result.status} with a body that is not a JSON object`, {
        upstream: 'data-api', kind: 'protocol', operation, status: result.status,
      });
    }
    return normalizePrices(result.body);
  }

  /** Lists: the item array must be there (a missing one is a protocol error, not an empty page). */
  function list<T>(operation: Endpoint, body: Record<string, unknown>, key: string): T {
    if (!Array.isArray(body[key])) {
      throw new UpstreamError(`data-api ${operation.method} ${operation.template}: answer has no "${key}" list`, {
        upstream: 'data-api', kind: 'protocol', operation: `${operation.method} ${operation.template}`,
      });
    }
    return normalizePage(body) as T;
  }

  const E = {
    aggregate: { method: 'POST', template: '/v1/signatureAggregator/{network}/aggregateSignatures' },
    aggregated: { method: 'GET', template: '/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}' },
    addressTxs: { method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions' },
    utxos: { method: 'POST', template: '/v1/networks/{network}/blockchains/{blockchainId}/utxos' },
    export: { method: 'POST', template: '/v1/operations/transactions:export' },
    deployment: { method: 'GET', template: '/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment' },
    subnets: { method: 'GET', template: '/v1/networks/{network}/subnets' },
    validators: { method: 'GET', template: '/v1/networks/{network}/validators' },
    nativeTxs: { method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listNative' },
    erc1155: { method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:listErc1155' },
    rewards: { method: 'GET', template: '/v1/networks/{network}/rewards' },
    pending: { method: 'GET', template: '/v1/networks/{network}/rewards:listPending' },
    delegators: { method: 'GET', template: '/v1/networks/{network}/delegators' },
    nativeBalance: { method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:getNative' },
    blocks: { method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/blocks' },
    icm: { method: 'GET', template: '/v1/icm/addresses/{address}/messages' },
    chains: { method: 'GET', template: '/v1/chains' },
    vertices: { method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/vertices' },
    nft: { method: 'GET', template: '/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}' },
    operation: { method: 'GET', template: '/v1/operations/{operationId}' },
    transaction: { method: 'GET', template: '/v1/chains/{chainId}/transactions/{txHash}' },
  } as const satisfies Record<string, Endpoint>;

  return {
    async aggregateSignatures(network, body, opts) {
      return (await call(E.aggregate, { network }, undefined, opts, body)) as unknown as SignedMessage;
    },
    async getAggregatedSignatures(network, txHash, opts) {
      return (await call(E.aggregated, { network, txHash }, undefined, opts)) as unknown as SignedMessage;
    },
    async listAddressTransactions(chainId, address, params, opts) {
      const body = await call(E.addressTxs, { chainId, address }, { ...params }, opts);
      return list<ListAddressTransactionsResponse>(E.addressTxs, body, 'transactions');
    },
    async listUtxos(network, blockchainId, params, opts) {
      const { addresses, ...query } = params;
      const body = await call(E.utxos, { network, blockchainId }, query, opts, { addresses: addresses.join(',') });
      const page = list<ListUtxosResponse>(E.utxos, body, 'utxos');
      page.utxos = page.utxos.map(normalizeUtxo);
      return page;
    },
    async createTransactionExport(body, opts) {
      return (await call(E.export, {}, undefined, opts, body)) as unknown as ExportOperation;
    },
    async getDeploymentTransaction(chainId, address, params, opts) {
      return (await call(E.deployment, { chainId, address }, { ...params }, opts)) as unknown as FullTransaction;
    },
    async listSubnets(network, params, opts) {
      return list<ListSubnetsResponse>(E.subnets, await call(E.subnets, { network }, { ...params }, opts), 'subnets');
    },
    async listValidators(network, params, opts) {
      const page = list<ListValidatorsResponse>(E.validators, await call(E.validators, { network }, { ...params }, opts), 'validators');
      page.validators = page.validators.map(normalizeValidator);
      return page;
    },
    async listNativeTransactions(chainId, address, params, opts) {
      const body = await call(E.nativeTxs, { chainId, address }, { ...params }, opts);
      return list<ListNativeTransactionsResponse>(E.nativeTxs, body, 'transactions');
    },
    async listErc1155Balances(chainId, address, params, opts) {
      const body = await call(E.erc1155, { chainId, address }, { ...params }, opts);
      return list<ListErc1155BalancesResponse>(E.erc1155, body, 'erc1155TokenBalances');
    },
    async listHistoricalRewards(network, params, opts) {
      const body = await call(E.rewards, { network }, { ...params }, opts);
      return list<ListHistoricalRewardsResponse>(E.rewards, body, 'historicalRewards');
    },
    async listPendingRewards(network, params, opts) {
      const body = await call(E.pending, { network }, { ...params }, opts);
      return list<ListPendingRewardsResponse>(E.pending, body, 'pendingRewards');
    },
    async listDelegators(network, params, opts) {
      const body = await call(E.delegators, { network }, { ...params }, opts);
      return list<ListDelegatorsResponse>(E.delegators, body, 'delegators');
    },
    async getNativeBalance(chainId, address, params, opts) {
      return (await call(E.nativeBalance, { chainId, address }, { ...params }, opts)) as unknown as GetNativeBalanceResponse;
    },
    async listBlocks(network, blockchainId, params, opts) {
      const body = await call(E.blocks, { network, blockchainId }, { ...params }, opts);
      return list<ListBlocksResponse>(E.blocks, body, 'blocks');
    },
    async listIcmMessages(address, params, opts) {
      return list<ListIcmMessagesResponse>(E.icm, await call(E.icm, { address }, { ...params }, opts), 'messages');
    },
    async listChains(params, opts) {
      return list<ListChainsResponse>(E.chains, await call(E.chains, {}, { ...params }, opts), 'chains');
    },
    async listVertices(network, blockchainId, params, opts) {
      const body = await call(E.vertices, { network, blockchainId }, { ...params }, opts);
      return list<ListVerticesResponse>(E.vertices, body, 'vertices');
    },
    async getNftToken(chainId, address, tokenId, opts) {
      return (await call(E.nft, { chainId, address, tokenId }, undefined, opts)) as unknown as NftToken;
    },
    async getOperation(operationId, opts) {
      return (await call(E.operation, { operationId }, undefined, opts)) as unknown as ExportOperation;
    },
    async getTransaction(chainId, txHash, opts) {
      return (await call(E.transaction, { chainId, txHash }, undefined, opts)) as unknown as FullTransaction;
    },
    close: async () => {
      if (ownsHttp) await http.close();
    },
  };
}
