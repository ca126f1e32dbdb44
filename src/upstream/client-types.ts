import type {
  AggregateSignaturesBody, CreateExportBody, CurrencyCode, ExportOperation, FullTransaction,
  GetNativeBalanceResponse, HealthPath, HealthReport, ListAddressTransactionsParams,
  ListAddressTransactionsResponse, ListBlocksParams, ListBlocksResponse, ListChainsParams,
  ListChainsResponse, ListDelegatorsParams, ListDelegatorsResponse, ListErc1155BalancesParams,
  ListErc1155BalancesResponse, ListHistoricalRewardsParams, ListHistoricalRewardsResponse,
  ListIcmMessagesParams, ListIcmMessagesResponse, ListNativeTransactionsParams,
  ListNativeTransactionsResponse, ListPendingRewardsResponse, ListRewardsParams, ListSubnetsResponse,
  ListUtxosParams, ListUtxosResponse, ListValidatorsParams, ListValidatorsResponse,
  ListVerticesResponse, Network, NftToken, NodeRpcMethod, NodeRpcMethods, PageParams, SignedMessage,
  SortOrder,
} from '../shapes/index.ts';
// Primary-network lookups and ICM
import type {
  AvaxSupply, Blockchain, GetValidatorDetailsParams, IcmMessage, ListAllIcmMessagesParams, ListBlockchainsParams,
  ListBlockchainsResponse, NetworkDetails, Subnet,
} from '../shapes/index.ts';
// EVM address tokens
import type {
  ListAddressTransfersParams, ListCollectibleBalancesResponse, ListErc1155TransfersResponse, ListErc20BalancesParams,
  ListErc20BalancesResponse, ListErc20TransfersResponse, ListErc721BalancesResponse, ListErc721TransfersResponse,
  ListInternalTransactionsResponse, ListNftBalancesParams,
} from '../shapes/index.ts';
// EVM blocks, latest transactions, contracts and transfers
import type {
  Chain, ContractMetadata, EvmBlock, ListBlockTransactionsParams, ListContractTransfersParams, ListContractTransfersResponse,
  ListEvmBlocksParams, ListEvmBlocksResponse, ListLatestTransactionsParams,
} from '../shapes/index.ts';
// Primary-network transactions, balances and assets
import type {
  AssetDetails, GetPrimaryBalancesParams, ListPChainTransactionsResponse, ListPrimaryTransactionsParams, PrimaryBalancesByChain,
  PrimaryChainAlias, PrimaryTransactionByChain, PrimaryTransactionPageByChain,
} from '../shapes/index.ts';
import type {
  ChainAddressChainIdMapListResponse, LastActivityTimestamp, ListAssetTransactionsParams, ListL1ValidatorsParams, ListL1ValidatorsResponse, PrimaryAddressesParams,
} from '../shapes/index.ts';
// Primary-network blocks and vertices by id
import type { Block, ListVerticesByHeightParams, OmittedPaths, Vertex } from '../shapes/index.ts';
// EVM across chains, an address's chains and deployments, transactions v2, an NFT collection's tokens
import type {
  ListAddressChainsResponse, ListAddressTransactionsV2Params, ListAddressTransactionsV2Response, ListAllChainsBlocksParams,
  ListAllChainsTransactionsParams, ListCollectionTokensResponse, ListContractDeploymentsResponse,
} from '../shapes/index.ts';
// The Data API's health checks and the caller's usage reports
import type {
  ApiLogsParams, ApiLogsResponse, DataApiHealth, PrimaryNetworkRpcUsageMetricsResponse, PrimaryRpcUsageParams, SubnetRpcUsageMetricsResponse,
  SubnetRpcUsageParams, UsageMetricsParams, UsageMetricsResponse,
} from '../shapes/index.ts';
// The calling key's webhooks and shared secret
import type {
  CreateWebhookRequest, ListWebhookAddressesParams, ListWebhookAddressesResponse, ListWebhooksParams, ListWebhooksResponse, UpdateWebhookRequest,
  Webhook, WebhookAddressesChange, WebhookSharedSecret,
} from '../shapes/index.ts';
import type { UpstreamErrorKind, UpstreamName } from './errors.ts';

/** One attempt of one upstream call, as reported to an {@link UpstreamObserver}. */
export interface UpstreamAttempt {
  upstream: UpstreamName;
  /** The route template or JSON-RPC method (`GET /v1/chains`, `info.peers`); never a URL or a key. */
  operation: string;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
  /** The HTTP status, when the upstream answered. */
  status?: number;
  /** What failed, when the attempt did not get an answer (or got an error status). */
  error?: UpstreamErrorKind;
  durationMs: number;
  /** What the call weighs in the Data API's compute units (its endpoint's tier); absent for node calls, which bill nothing. */
  computeUnits?: number;
}

/** An attempt about to be sent, as offered to {@link UpstreamObserver.admit}. */
export type UpstreamAttemptRequest = Pick<UpstreamAttempt, 'upstream' | 'operation' | 'attempt' | 'computeUnits'>;

/** Sees every attempt (retries included), e.g. to count upstream calls per GraphQL request. */
export interface UpstreamObserver {
  onAttempt(info: UpstreamAttempt): void;
  /**
   * Asked before each attempt (retries included) is sent: false refuses it, and the
   * call fails at once with an `UpstreamError` of kind `budget` without reaching the
   * upstream. This is where a request's upstream-call budget is enforced. Omitted: admit all.
   */
  admit?(attempt: UpstreamAttemptRequest): boolean;
}

/** Per-call options every client method takes. */
export interface CallOptions {
  /** The GraphQL request's signal: aborting it cancels the upstream call and its retries. */
  signal?: AbortSignal;
  /** A caller's own Data API key; replaces the server's key for this call. */
  apiKey?: string;
  /** Overrides the client's per-call deadline (ms), which covers every attempt and backoff. */
  timeoutMs?: number;
  /** Told about each attempt of this call, in addition to the client's own observer. */
  observer?: UpstreamObserver;
  /**
   * The GraphQL request's id, sent upstream as `x-request-id` so upstream logs can be joined
   * with the gateway's. Must satisfy `isRequestId` (src/lib/request-id.ts); the clients
   * drop one that does not.
   */
  requestId?: string;
  /**
   * Told, for each answer, until when it may be reused (ms since the epoch): the cache
   * entry's expiry for a cached read, 0 for an answer that is never cached (mutations,
   * admin and export status, a broken answer, any call when caching is off). The
   * whole-response cache keeps a response no longer than the earliest of these.
   */
  onExpiry?: (expiresAt: number) => void;
  /**
   * The parts of an operation's answer nothing in this request reads (`src/schema/projection.ts`),
   * by the operation's name (`listSubnets`): the client's reader leaves them out, so a request holds
   * only what it reads. A cache that shares an answer between requests reads it whole.
   */
  omit?: (operation: string) => OmittedPaths | undefined;
}

/**
 * One method per endpoint of the Chain Data REST API seed (E1-E19) plus the two referenced lookups.
 * List parameters go in the spec's encoding: `txTypes` (an array in the spec) as the name repeated
 * once per value, every other list (a comma-separated `string` in the spec: `nodeIds`, `addresses`,
 * `rewardAddresses`, `contractAddresses`) as one comma-joined value. test/upstream/spec-conformance.test.ts
 * checks every method against the spec's parameter table.
 */
export interface DataApi {
  /** E1 `POST /v1/signatureAggregator/{network}/aggregateSignatures` */
  aggregateSignatures(network: Network, body: AggregateSignaturesBody, opts?: CallOptions): Promise<SignedMessage>;
  /** E2 `GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}` */
  getAggregatedSignatures(network: Network, txHash: string, opts?: CallOptions): Promise<SignedMessage>;
  /** E3 `GET /v1/chains/{chainId}/addresses/{address}/transactions` */
  listAddressTransactions(chainId: string, address: string, params?: ListAddressTransactionsParams, opts?: CallOptions): Promise<ListAddressTransactionsResponse>;
  /** E4 `POST /v1/networks/{network}/blockchains/{blockchainId}/utxos` */
  listUtxos(network: Network, blockchainId: string, params: ListUtxosParams, opts?: CallOptions): Promise<ListUtxosResponse>;
  /** E5 `POST /v1/operations/transactions:export` */
  createTransactionExport(body: CreateExportBody, opts?: CallOptions): Promise<ExportOperation>;
  /** E6 `GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment` */
  getDeploymentTransaction(chainId: string, address: string, params?: { currency?: CurrencyCode }, opts?: CallOptions): Promise<FullTransaction>;
  /** E7 `GET /v1/networks/{network}/subnets` */
  listSubnets(network: Network, params?: PageParams & { sortOrder?: SortOrder }, opts?: CallOptions): Promise<ListSubnetsResponse>;
  /** E8 `GET /v1/networks/{network}/validators` */
  listValidators(network: Network, params?: ListValidatorsParams, opts?: CallOptions): Promise<ListValidatorsResponse>;
  /** E9 `GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative` */
  listNativeTransactions(chainId: string, address: string, params?: ListNativeTransactionsParams, opts?: CallOptions): Promise<ListNativeTransactionsResponse>;
  /** E10 `GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155` */
  listErc1155Balances(chainId: string, address: string, params?: ListErc1155BalancesParams, opts?: CallOptions): Promise<ListErc1155BalancesResponse>;
  /** E11 `GET /v1/networks/{network}/rewards` */
  listHistoricalRewards(network: Network, params: ListHistoricalRewardsParams, opts?: CallOptions): Promise<ListHistoricalRewardsResponse>;
  /** E12 `GET /v1/networks/{network}/rewards:listPending` */
  listPendingRewards(network: Network, params: ListRewardsParams, opts?: CallOptions): Promise<ListPendingRewardsResponse>;
  /** E13 `GET /v1/networks/{network}/delegators` */
  listDelegators(network: Network, params?: ListDelegatorsParams, opts?: CallOptions): Promise<ListDelegatorsResponse>;
  /** E14 `GET /v1/chains/{chainId}/addresses/{address}/balances:getNative` */
  getNativeBalance(chainId: string, address: string, params?: { blockNumber?: string; currency?: CurrencyCode }, opts?: CallOptions): Promise<GetNativeBalanceResponse>;
  /** E15 `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks` */
  listBlocks(network: Network, blockchainId: string, params?: ListBlocksParams, opts?: CallOptions): Promise<ListBlocksResponse>;
  /** E16 `GET /v1/icm/addresses/{address}/messages` */
  listIcmMessages(address: string, params?: ListIcmMessagesParams, opts?: CallOptions): Promise<ListIcmMessagesResponse>;
  /** E17 `GET /v1/chains` */
  listChains(params?: ListChainsParams, opts?: CallOptions): Promise<ListChainsResponse>;
  /** E18 `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices` */
  listVertices(network: Network, blockchainId: string, params?: PageParams, opts?: CallOptions): Promise<ListVerticesResponse>;
  // Primary-network blocks and vertices by id, a node's proposed blocks
  /** getBlockById `GET /v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}` (a height or a hash) */
  getPrimaryBlock(network: Network, blockchainId: string, blockId: string, opts?: CallOptions): Promise<Block>;
  /** listPrimaryNetworkBlocksByNodeId `GET /v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks` */
  listBlocksByNode(network: Network, blockchainId: string, nodeId: string, params?: ListBlocksParams, opts?: CallOptions): Promise<ListBlocksResponse>;
  /** getVertexByHash `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}` (X-chain) */
  getVertex(network: Network, blockchainId: string, vertexHash: string, opts?: CallOptions): Promise<Vertex>;
  /** getVertexByHeight `GET /v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight` (X-chain) */
  listVerticesByHeight(network: Network, blockchainId: string, params: ListVerticesByHeightParams, opts?: CallOptions): Promise<ListVerticesResponse>;
  /** E19 `GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}` */
  getNftToken(chainId: string, address: string, tokenId: string, opts?: CallOptions): Promise<NftToken>;
  /** `GET /v1/operations/{operationId}` */
  getOperation(operationId: string, opts?: CallOptions): Promise<ExportOperation>;
  /** `GET /v1/chains/{chainId}/transactions/{txHash}` */
  getTransaction(chainId: string, txHash: string, opts?: CallOptions): Promise<FullTransaction>;
  // EVM blocks, latest transactions, contracts and transfers
  /** getLatestBlocks `GET /v1/chains/{chainId}/blocks` */
  getLatestBlocks(chainId: string, params?: ListEvmBlocksParams, opts?: CallOptions): Promise<ListEvmBlocksResponse>;
  /** getBlock `GET /v1/chains/{chainId}/blocks/{blockId}` (a block number or hash) */
  getBlock(chainId: string, blockId: string, opts?: CallOptions): Promise<EvmBlock>;
  /** getTransactionsForBlock `GET /v1/chains/{chainId}/blocks/{blockId}/transactions` */
  getTransactionsForBlock(chainId: string, blockId: string, params?: ListBlockTransactionsParams, opts?: CallOptions): Promise<ListNativeTransactionsResponse>;
  /** listLatestTransactions `GET /v1/chains/{chainId}/transactions` */
  listLatestTransactions(chainId: string, params?: ListLatestTransactionsParams, opts?: CallOptions): Promise<ListNativeTransactionsResponse>;
  /** getContractMetadata `GET /v1/chains/{chainId}/addresses/{address}` */
  getContractMetadata(chainId: string, address: string, opts?: CallOptions): Promise<ContractMetadata>;
  /** listTransfers `GET /v1/chains/{chainId}/tokens/{address}/transfers` */
  listTransfers(chainId: string, address: string, params?: ListContractTransfersParams, opts?: CallOptions): Promise<ListContractTransfersResponse>;
  /** getChainInfo `GET /v1/chains/{chainId}` */
  getChainInfo(chainId: string, opts?: CallOptions): Promise<Chain>;
  // EVM across chains, an address's chains and deployments, transactions v2, an NFT collection's tokens
  /** listLatestBlocksAllChains `GET /v1/blocks`: the latest blocks of every chain of a network, newest first. */
  listLatestBlocksAllChains(params?: ListAllChainsBlocksParams, opts?: CallOptions): Promise<ListEvmBlocksResponse>;
  /** listLatestTransactionsAllChains `GET /v1/transactions`: the latest transactions of every chain of a network. */
  listLatestTransactionsAllChains(params?: ListAllChainsTransactionsParams, opts?: CallOptions): Promise<ListNativeTransactionsResponse>;
  /** listAddressChains `GET /v1/address/{address}/chains`: the chains the address has activity on. */
  listAddressChains(address: string, opts?: CallOptions): Promise<ListAddressChainsResponse>;
  /** listContractDeployments `GET /v1/chains/{chainId}/contracts/{address}/deployments`: the contracts the address deployed. */
  listContractDeployments(chainId: string, address: string, params?: PageParams, opts?: CallOptions): Promise<ListContractDeploymentsResponse>;
  /** listTransactionsV2 `GET /v2/chains/{chainId}/addresses/{address}/transactions` */
  listAddressTransactionsV2(chainId: string, address: string, params?: ListAddressTransactionsV2Params, opts?: CallOptions): Promise<ListAddressTransactionsV2Response>;
  /** listTokens `GET /v1/chains/{chainId}/nfts/collections/{address}/tokens` */
  listCollectionTokens(chainId: string, address: string, params?: PageParams, opts?: CallOptions): Promise<ListCollectionTokensResponse>;
  /** reindexNft `POST /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex` (201, no body) */
  reindexNft(chainId: string, address: string, tokenId: string, opts?: CallOptions): Promise<unknown>;
  // EVM address tokens (public spec)
  /** listErc20Balances `GET /v1/chains/{chainId}/addresses/{address}/balances:listErc20` */
  listErc20Balances(chainId: string, address: string, params?: ListErc20BalancesParams, opts?: CallOptions): Promise<ListErc20BalancesResponse>;
  /** listErc721Balances `GET /v1/chains/{chainId}/addresses/{address}/balances:listErc721` */
  listErc721Balances(chainId: string, address: string, params?: ListNftBalancesParams, opts?: CallOptions): Promise<ListErc721BalancesResponse>;
  /** listCollectibleBalances `GET /v1/chains/{chainId}/addresses/{address}/balances:listCollectibles` */
  listCollectibleBalances(chainId: string, address: string, params?: ListNftBalancesParams, opts?: CallOptions): Promise<ListCollectibleBalancesResponse>;
  /** listErc20Transactions `GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc20` */
  listErc20Transfers(chainId: string, address: string, params?: ListAddressTransfersParams, opts?: CallOptions): Promise<ListErc20TransfersResponse>;
  /** listErc721Transactions `GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc721` */
  listErc721Transfers(chainId: string, address: string, params?: ListAddressTransfersParams, opts?: CallOptions): Promise<ListErc721TransfersResponse>;
  /** listErc1155Transactions `GET /v1/chains/{chainId}/addresses/{address}/transactions:listErc1155` */
  listErc1155Transfers(chainId: string, address: string, params?: ListAddressTransfersParams, opts?: CallOptions): Promise<ListErc1155TransfersResponse>;
  /** listInternalTransactions `GET /v1/chains/{chainId}/addresses/{address}/transactions:listInternals` */
  listInternalTransactions(chainId: string, address: string, params?: ListAddressTransfersParams, opts?: CallOptions): Promise<ListInternalTransactionsResponse>;
  // Primary-network lookups and ICM
  /** getSingleValidatorDetails `GET /v1/networks/{network}/validators/{nodeId}`: the node's validations, paged. */
  getValidatorDetails(network: Network, nodeId: string, params?: GetValidatorDetailsParams, opts?: CallOptions): Promise<ListValidatorsResponse>;
  /** getSubnetById `GET /v1/networks/{network}/subnets/{subnetId}` */
  getSubnet(network: Network, subnetId: string, opts?: CallOptions): Promise<Subnet>;
  /** listBlockchains `GET /v1/networks/{network}/blockchains` */
  listBlockchains(network: Network, params?: ListBlockchainsParams, opts?: CallOptions): Promise<ListBlockchainsResponse>;
  /** getBlockchainById `GET /v1/networks/{network}/blockchains/{blockchainId}` */
  getBlockchain(network: Network, blockchainId: string, opts?: CallOptions): Promise<Blockchain>;
  /** getNetworkDetails `GET /v1/networks/{network}` */
  getNetworkDetails(network: Network, opts?: CallOptions): Promise<NetworkDetails>;
  /** getAvaxSupply `GET /v1/avax/supply` */
  getAvaxSupply(opts?: CallOptions): Promise<AvaxSupply>;
  /** listIcmMessages `GET /v1/icm/messages`: every message, narrowed by the filters. */
  listAllIcmMessages(params?: ListAllIcmMessagesParams, opts?: CallOptions): Promise<ListIcmMessagesResponse>;
  /** getIcmMessage `GET /v1/icm/messages/{messageId}` */
  getIcmMessage(messageId: string, opts?: CallOptions): Promise<IcmMessage>;
  // Primary-network transactions, balances and assets (public spec; asked by chain alias, read by that chain's shape)
  /** getTxByHash `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}` */
  getPrimaryTransaction<C extends PrimaryChainAlias>(network: Network, chain: C, txHash: string, opts?: CallOptions): Promise<PrimaryTransactionByChain[C]>;
  /** listLatestPrimaryNetworkTransactions `GET /v1/networks/{network}/blockchains/{blockchainId}/transactions` */
  listPrimaryTransactions<C extends PrimaryChainAlias>(network: Network, chain: C, params?: ListPrimaryTransactionsParams, opts?: CallOptions): Promise<PrimaryTransactionPageByChain[C]>;
  /** listActivePrimaryNetworkStakingTransactions `GET /v1/networks/{network}/blockchains/p-chain/transactions:listStaking` */
  listStakingTransactions(network: Network, params?: ListPrimaryTransactionsParams, opts?: CallOptions): Promise<ListPChainTransactionsResponse>;
  /** getBalancesByAddresses `GET /v1/networks/{network}/blockchains/{blockchainId}/balances` */
  getPrimaryBalances<C extends PrimaryChainAlias>(network: Network, chain: C, params: GetPrimaryBalancesParams, opts?: CallOptions): Promise<PrimaryBalancesByChain[C]>;
  /** getAssetDetails `GET /v1/networks/{network}/blockchains/x-chain/assets/{assetId}` */
  getAssetDetails(network: Network, assetId: string, opts?: CallOptions): Promise<AssetDetails>;
  // L1 validators, an asset's transactions, UTXOs by GET and address activity (public spec)
  /** listL1Validators `GET /v1/networks/{network}/l1Validators` */
  listL1Validators(network: Network, params?: ListL1ValidatorsParams, opts?: CallOptions): Promise<ListL1ValidatorsResponse>;
  /** listAssetTransactions `GET /v1/networks/{network}/blockchains/x-chain/assets/{assetId}/transactions` */
  listAssetTransactions(network: Network, assetId: string, params?: ListAssetTransactionsParams, opts?: CallOptions): Promise<PrimaryTransactionPageByChain['x-chain']>;
  /** getUtxosByAddresses `GET /v1/networks/{network}/blockchains/{blockchainId}/utxos`: E4 with the addresses in the query (pageSize 1-100). */
  listUtxosByGet(network: Network, blockchainId: string, params: ListUtxosParams, opts?: CallOptions): Promise<ListUtxosResponse>;
  /** getChainIdsForAddresses `GET /v1/networks/{network}/addresses:listChainIds` */
  getChainIdsForAddresses(network: Network, params: PrimaryAddressesParams, opts?: CallOptions): Promise<ChainAddressChainIdMapListResponse>;
  /** getLastActivityTimestampByAddresses `GET .../blockchains/{blockchainId}/lastActivityTimestampByAddresses` */
  getLastActivity(network: Network, blockchainId: string, params: PrimaryAddressesParams, opts?: CallOptions): Promise<LastActivityTimestamp>;
  /** getLastActivityTimestampByAddressesV2 `POST .../blockchains/{blockchainId}/lastActivityTimestampByAddresses`: the addresses in the body. */
  getLastActivityByPost(network: Network, blockchainId: string, params: PrimaryAddressesParams, opts?: CallOptions): Promise<LastActivityTimestamp>;
  // The Data API's health checks and the calling key's usage reports (public spec)
  /** data-health-check `GET /v1/health-check`: the Data API and its dependencies. */
  dataHealthCheck(opts?: CallOptions): Promise<DataApiHealth>;
  /** live-check `GET /v1/live-check`: the Data API process answers. */
  liveCheck(opts?: CallOptions): Promise<DataApiHealth>;
  /** getApiUsageMetrics `GET /v1/apiUsageMetrics`: the calling key's Data API usage over time. */
  getApiUsageMetrics(params?: UsageMetricsParams, opts?: CallOptions): Promise<UsageMetricsResponse>;
  /** getApiLogs `GET /v1/apiLogs`: the calling key's requests, newest first. */
  getApiLogs(params?: ApiLogsParams, opts?: CallOptions): Promise<ApiLogsResponse>;
  /** getSubnetRpcUsageMetrics `GET /v1/subnetRpcUsageMetrics`: the calling key's Subnet RPC usage. */
  getSubnetRpcUsageMetrics(params?: SubnetRpcUsageParams, opts?: CallOptions): Promise<SubnetRpcUsageMetricsResponse>;
  /** getPrimaryNetworkRpcUsageMetrics `GET /v1/primaryNetworkRpcUsageMetrics`: the calling key's primary-network RPC usage. */
  getPrimaryNetworkRpcUsageMetrics(params: PrimaryRpcUsageParams, opts?: CallOptions): Promise<PrimaryNetworkRpcUsageMetricsResponse>;
  /** createWebhook `POST /v1/webhooks` (201): a webhook of the calling key. */
  createWebhook(body: CreateWebhookRequest, opts?: CallOptions): Promise<Webhook>;
  /** listWebhooks `GET /v1/webhooks`: the calling key's webhooks. */
  listWebhooks(params?: ListWebhooksParams, opts?: CallOptions): Promise<ListWebhooksResponse>;
  /** getWebhook `GET /v1/webhooks/{id}` (404 for another key's webhook). */
  getWebhook(id: string, opts?: CallOptions): Promise<Webhook>;
  /** updateWebhook `PATCH /v1/webhooks/{id}`. */
  updateWebhook(id: string, body: UpdateWebhookRequest, opts?: CallOptions): Promise<Webhook>;
  /** deactivateWebhook `DELETE /v1/webhooks/{id}`: the webhook, now inactive. */
  deactivateWebhook(id: string, opts?: CallOptions): Promise<Webhook>;
  /** getAddressesFromWebhook `GET /v1/webhooks/{id}/addresses`: the addresses an address-activity webhook watches. */
  listWebhookAddresses(id: string, params?: ListWebhookAddressesParams, opts?: CallOptions): Promise<ListWebhookAddressesResponse>;
  /** addAddressesToWebhook `PATCH /v1/webhooks/{id}/addresses`. */
  addWebhookAddresses(id: string, body: WebhookAddressesChange, opts?: CallOptions): Promise<Webhook>;
  /** removeAddressesFromWebhook `DELETE /v1/webhooks/{id}/addresses` (a DELETE with a JSON body). */
  removeWebhookAddresses(id: string, body: WebhookAddressesChange, opts?: CallOptions): Promise<Webhook>;
  /** getSharedSecret `GET /v1/webhooks:getSharedSecret`: the calling key's delivery-signing secret. */
  getWebhookSharedSecret(opts?: CallOptions): Promise<WebhookSharedSecret>;
  /** generateOrRotateSharedSecret `POST /v1/webhooks:generateOrRotateSharedSecret` (201): a new secret; the old one stops signing. */
  rotateWebhookSharedSecret(opts?: CallOptions): Promise<WebhookSharedSecret>;
}

export interface HealthGetResult {
  /** 200 when healthy, 503 when not: both are answers, not errors. */
  status: number;
  report: HealthReport;
}

/** One configured node. */
export interface NodeClient {
  readonly name: string;
  /** The node's base URL (no credentials), for display. */
  readonly url: string;
  /** One JSON-RPC 2.0 call (never a batch, always a non-null id). */
  call<M extends NodeRpcMethod>(method: M, params?: NodeRpcMethods[M]['params'], opts?: CallOptions): Promise<NodeRpcMethods[M]['result']>;
  /** `GET /ext/health[/<path>]?tag=...` */
  healthGet(path: HealthPath, tags?: string[], opts?: CallOptions): Promise<HealthGetResult>;
}
