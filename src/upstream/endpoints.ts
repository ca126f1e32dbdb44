/**
 * Every Data API operation, described once: the client (`data-api.ts`), the cached client
 * (`cached-clients.ts`) and the spec and devnet tests are built from this table. Adding an
 * endpoint is one row here plus its shape in `src/shapes` (and its method in `DataApi`).
 */
import type { DataApi } from './client-types.ts';
import type { WeightTier } from '../lib/compute-units.ts';
import { PAGES, primaryTxShapesOf, SHAPES, type Leaf, type PageSpec, type PrimaryChainAlias, type Shapes } from '../shapes/index.ts';

/** How fast a kind of resource changes; each class has its own TTL (`DEFAULT_CACHE_TTLS`). */
export type CacheClass =
  | 'chains'
  | 'subnets'
  | 'nodeFacts'
  | 'nodeStatus'
  | 'bootstrapped'
  | 'staking'
  | 'activity'
  | 'blocks'
  | 'health';

/**
 * Where one positional argument of a client method goes:
 * - `{ path: name }`: the template's `{name}` segment;
 * - `'query'`: an object whose members are the query parameters (absent: none);
 * - `'body'`: the JSON body, as it is;
 * - `'query+addresses'`: an object whose `addresses` list goes comma-joined in the JSON body
 *   (`{ addresses: "a,b" }`) and whose other members are the query parameters.
 */
export type ArgPlace = { readonly path: string } | 'query' | 'body' | 'query+addresses';

/** The primary-network shapes a row reads by chain: the transaction, a page of them, or the balances. */
export type PrimaryShapeKind = keyof ReturnType<typeof primaryTxShapesOf>;

/** Positional arguments of a client method: its parameters without the trailing `CallOptions`. */
type Positional<F> = F extends (...args: infer A) => unknown ? (Required<A> extends [...infer P, unknown] ? P : never) : never;

/** One place per positional argument, in order; a path segment only for a string argument. */
type PlacesOf<P extends unknown[]> = number extends P['length'] ? readonly ArgPlace[]
  : { readonly [I in keyof P]: [P[I]] extends [string] ? ArgPlace : Exclude<ArgPlace, { readonly path: string }> };

/** The HTTP methods the Data API's operations use (a DELETE may carry a JSON body). Only GETs are retried. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface EndpointRow<P extends unknown[] = unknown[]> {
  /** The spec's `operationId` (test/data/glacier-parameters.json), which the spec tests check the row against. */
  readonly operationId: string;
  /**
   * What one call costs in the Data API's compute units: the spec's `x-execution-weight`, or for the six
   * operations it leaves unweighted the tier chosen in `UNWEIGHTED_OPERATIONS` (src/lib/compute-units.ts).
   * test/upstream/spec-conformance.test.ts checks every row against the spec.
   */
  readonly weight: WeightTier;
  readonly method: HttpMethod;
  /** Path template under the base URL; `{name}` segments are filled from the arguments, URL-encoded. */
  readonly template: string;
  /** Where each positional argument goes; their count is where `CallOptions` sits. */
  readonly args: PlacesOf<P>;
  /** Path segments the operation always sends with the same value (`{blockchainId}` of a P-chain-only listing). */
  readonly fixed?: Readonly<Record<string, string>>;
  /**
   * Query parameters the spec declares as arrays (`type: array`, the default form style with
   * explode): sent as the name repeated once per value (`txTypes=A&txTypes=B`). Every other list
   * is a `string` in the spec ("a comma separated list") and goes as one comma-joined value.
   */
  readonly repeated?: readonly string[];
  /** The answer's shape: a key of `SHAPES`, or, asked by chain alias (`{blockchainId}`), that chain's shape of a kind. */
  readonly shape: keyof Shapes | { readonly byChain: PrimaryShapeKind };
  /** The field the answer is useless without (a page's item list): a violation there fails the call. */
  readonly container?: string;
  /** Null: never cached nor shared (mutations, export status, which callers poll). */
  readonly cache: CacheClass | null;
  /** The page-size bounds of a paged listing (its cost per page), from `src/shapes/pages.ts`. */
  readonly page?: PageSpec;
  /** The operation may answer 2xx without a body (reindexNft's 201): that is its whole answer. */
  readonly emptyAnswer?: true;
  /**
   * The answer carries a secret (the webhook shared secret): an answer that does not match its
   * shape is reported by the field's name only, never with the value or the reader's reason (which
   * may quote it), and a body that is not JSON without the parser's error (which quotes the body).
   */
  readonly secret?: true;
}

const network = { path: 'network' } as const;
const chainId = { path: 'chainId' } as const;
const address = { path: 'address' } as const;
const blockchainId = { path: 'blockchainId' } as const;
const webhookId = { path: 'id' } as const;

/** One row per `DataApi` method, in the interface's order. */
export const ENDPOINTS = {
  aggregateSignatures: { operationId: 'aggregateSignatures', weight: 'medium', method: 'POST', template: '/v1/signatureAggregator/{network}/aggregateSignatures', args: [network, 'body'], shape: 'SignedMessage', cache: null },
  getAggregatedSignatures: { operationId: 'getAggregatedSignatures', weight: 'medium', method: 'GET', template: '/v1/signatureAggregator/{network}/aggregateSignatures/{txHash}', args: [network, { path: 'txHash' }], shape: 'SignedMessage', cache: 'activity' },
  listAddressTransactions: {
    operationId: 'listTransactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions', args: [chainId, address, 'query'],
    shape: 'ListAddressTransactionsResponse', container: 'transactions', cache: 'activity', page: PAGES.addressTransactions,
  },
  listUtxos: {
    operationId: 'getUtxosByAddressesV2', weight: 'xl', method: 'POST', template: '/v1/networks/{network}/blockchains/{blockchainId}/utxos', args: [network, blockchainId, 'query+addresses'],
    shape: 'ListUtxosResponse', container: 'utxos', cache: 'activity', page: PAGES.utxos,
  },
  createTransactionExport: { operationId: 'postTransactionExportJob', weight: 'medium', method: 'POST', template: '/v1/operations/transactions:export', args: ['body'], shape: 'ExportOperation', cache: null },
  getDeploymentTransaction: { operationId: 'getDeploymentTransaction', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/contracts/{address}/transactions:getDeployment', args: [chainId, address, 'query'], shape: 'FullTransaction', cache: 'activity' },
  listSubnets: { operationId: 'listSubnets', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/subnets', args: [network, 'query'], shape: 'ListSubnetsResponse', container: 'subnets', cache: 'subnets', page: PAGES.subnets },
  listValidators: {
    operationId: 'listValidators', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/validators', args: [network, 'query'],
    shape: 'ListValidatorsResponse', container: 'validators', cache: 'staking', page: PAGES.validators,
  },
  listNativeTransactions: {
    operationId: 'listNativeTransactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listNative', args: [chainId, address, 'query'],
    shape: 'ListNativeTransactionsResponse', container: 'transactions', cache: 'activity', page: PAGES.nativeTransactions,
  },
  listErc1155Balances: {
    operationId: 'listErc1155Balances', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:listErc1155', args: [chainId, address, 'query'],
    shape: 'ListErc1155BalancesResponse', container: 'erc1155TokenBalances', cache: 'activity', page: PAGES.erc1155Balances,
  },
  listHistoricalRewards: {
    operationId: 'listHistoricalPrimaryNetworkRewards', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/rewards', args: [network, 'query'],
    shape: 'ListHistoricalRewardsResponse', container: 'historicalRewards', cache: 'staking', page: PAGES.historicalRewards,
  },
  listPendingRewards: {
    operationId: 'listPendingPrimaryNetworkRewards', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/rewards:listPending', args: [network, 'query'],
    shape: 'ListPendingRewardsResponse', container: 'pendingRewards', cache: 'staking', page: PAGES.pendingRewards,
  },
  listDelegators: {
    operationId: 'listDelegators', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/delegators', args: [network, 'query'],
    shape: 'ListDelegatorsResponse', container: 'delegators', cache: 'staking', page: PAGES.delegators,
  },
  getNativeBalance: { operationId: 'getNativeBalance', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:getNative', args: [chainId, address, 'query'], shape: 'GetNativeBalanceResponse', cache: 'activity' },
  listBlocks: {
    operationId: 'listLatestPrimaryNetworkBlocks', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/blocks', args: [network, blockchainId, 'query'],
    shape: 'ListBlocksResponse', container: 'blocks', cache: 'blocks', page: PAGES.blocks,
  },
  listIcmMessages: {
    operationId: 'listIcmMessagesByAddress', weight: 'medium', method: 'GET', template: '/v1/icm/addresses/{address}/messages', args: [address, 'query'],
    shape: 'ListIcmMessagesResponse', container: 'messages', cache: 'activity', page: PAGES.icmMessages,
  },
  listChains: { operationId: 'supportedChains', weight: 'free', method: 'GET', template: '/v1/chains', args: ['query'], shape: 'ListChainsResponse', container: 'chains', cache: 'chains' },
  listVertices: {
    operationId: 'listLatestXChainVertices', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/vertices', args: [network, blockchainId, 'query'],
    shape: 'ListVerticesResponse', container: 'vertices', cache: 'blocks', page: PAGES.vertices,
  },
  // Primary-network blocks and vertices by id, a node's proposed blocks. An accepted block is final
  // (Snowman does not reorganise) and vertices are the X-chain's past: both cached as long as the chain list.
  getPrimaryBlock: {
    operationId: 'getBlockById', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/blocks/{blockId}', args: [network, blockchainId, { path: 'blockId' }],
    shape: 'Block', cache: 'chains',
  },
  listBlocksByNode: {
    operationId: 'listPrimaryNetworkBlocksByNodeId', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/nodes/{nodeId}/blocks',
    args: [network, blockchainId, { path: 'nodeId' }, 'query'], shape: 'ListBlocksResponse', container: 'blocks', cache: 'blocks', page: PAGES.nodeBlocks,
  },
  getVertex: {
    operationId: 'getVertexByHash', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/vertices/{vertexHash}', args: [network, blockchainId, { path: 'vertexHash' }],
    shape: 'Vertex', cache: 'chains',
  },
  listVerticesByHeight: {
    operationId: 'getVertexByHeight', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/vertices:listByHeight', args: [network, blockchainId, 'query'],
    shape: 'ListVerticesResponse', container: 'vertices', cache: 'chains', page: PAGES.verticesByHeight,
  },
  getNftToken: { operationId: 'getTokenDetails', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}', args: [chainId, address, { path: 'tokenId' }], shape: 'NftToken', cache: 'activity' },
  // Export status is polled: never cached.
  getOperation: { operationId: 'getOperationResult', weight: 'small', method: 'GET', template: '/v1/operations/{operationId}', args: [{ path: 'operationId' }], shape: 'ExportOperation', cache: null },
  getTransaction: { operationId: 'getTransaction', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/transactions/{txHash}', args: [chainId, { path: 'txHash' }], shape: 'FullTransaction', cache: 'activity' },
  // EVM blocks, latest transactions, contracts and transfers: the moving heads as blocks, the rest as activity
  getLatestBlocks: { operationId: 'getLatestBlocks', weight: 'small', method: 'GET', template: '/v1/chains/{chainId}/blocks', args: [chainId, 'query'], shape: 'ListEvmBlocksResponse', container: 'blocks', cache: 'blocks', page: PAGES.evmBlocks },
  getBlock: { operationId: 'getBlock', weight: 'small', method: 'GET', template: '/v1/chains/{chainId}/blocks/{blockId}', args: [chainId, { path: 'blockId' }], shape: 'EvmBlock', cache: 'activity' },
  getTransactionsForBlock: {
    operationId: 'getTransactionsForBlock', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/blocks/{blockId}/transactions', args: [chainId, { path: 'blockId' }, 'query'],
    shape: 'ListNativeTransactionsResponse', container: 'transactions', cache: 'activity', page: PAGES.evmBlockTransactions,
  },
  listLatestTransactions: {
    operationId: 'listLatestTransactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/transactions', args: [chainId, 'query'],
    shape: 'ListNativeTransactionsResponse', container: 'transactions', cache: 'blocks', page: PAGES.latestTransactions,
  },
  getContractMetadata: { operationId: 'getContractMetadata', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}', args: [chainId, address], shape: 'ContractMetadata', cache: 'activity' },
  listTransfers: {
    operationId: 'listTransfers', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/tokens/{address}/transfers', args: [chainId, address, 'query'],
    shape: 'ListContractTransfersResponse', container: 'transfers', cache: 'activity', page: PAGES.contractTransfers,
  },
  getChainInfo: { operationId: 'getChainInfo', weight: 'free', method: 'GET', template: '/v1/chains/{chainId}', args: [chainId], shape: 'Chain', cache: 'chains' },
  // EVM across chains, an address's chains and deployments, transactions v2, an NFT collection's tokens and their reindexing
  listLatestBlocksAllChains: {
    operationId: 'listLatestBlocksAllChains', weight: 'medium', method: 'GET', template: '/v1/blocks', args: ['query'],
    shape: 'ListEvmBlocksResponse', container: 'blocks', cache: 'blocks', page: PAGES.allChainsBlocks,
  },
  listLatestTransactionsAllChains: {
    operationId: 'listLatestTransactionsAllChains', weight: 'medium', method: 'GET', template: '/v1/transactions', args: ['query'],
    shape: 'ListNativeTransactionsResponse', container: 'transactions', cache: 'blocks', page: PAGES.allChainsTransactions,
  },
  listAddressChains: { operationId: 'listAddressChains', weight: 'xl', method: 'GET', template: '/v1/address/{address}/chains', args: [address], shape: 'ListAddressChainsResponse', cache: 'activity' },
  listContractDeployments: {
    operationId: 'listContractDeployments', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/contracts/{address}/deployments', args: [chainId, address, 'query'],
    shape: 'ListContractDeploymentsResponse', container: 'contracts', cache: 'activity', page: PAGES.contractDeployments,
  },
  listAddressTransactionsV2: {
    operationId: 'listTransactionsV2', weight: 'medium', method: 'GET', template: '/v2/chains/{chainId}/addresses/{address}/transactions', args: [chainId, address, 'query'],
    shape: 'ListAddressTransactionsV2Response', container: 'transactions', cache: 'activity', page: PAGES.addressTransactionsV2,
  },
  listCollectionTokens: {
    operationId: 'listTokens', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/nfts/collections/{address}/tokens', args: [chainId, address, 'query'],
    shape: 'ListCollectionTokensResponse', container: 'tokens', cache: 'activity', page: PAGES.collectionTokens,
  },
  // A mutation: never cached.
  reindexNft: {
    operationId: 'reindexNft', weight: 'small', method: 'POST', template: '/v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex', args: [chainId, address, { path: 'tokenId' }],
    shape: 'ReindexNftResponse', cache: null, emptyAnswer: true,
  },
  // EVM address tokens
  listErc20Balances: {
    operationId: 'listErc20Balances', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:listErc20', args: [chainId, address, 'query'],
    shape: 'ListErc20BalancesResponse', container: 'erc20TokenBalances', cache: 'activity', page: PAGES.erc20Balances,
  },
  listErc721Balances: {
    operationId: 'listErc721Balances', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:listErc721', args: [chainId, address, 'query'],
    shape: 'ListErc721BalancesResponse', container: 'erc721TokenBalances', cache: 'activity', page: PAGES.erc721Balances,
  },
  listCollectibleBalances: {
    operationId: 'listCollectibleBalances', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/balances:listCollectibles', args: [chainId, address, 'query'],
    shape: 'ListCollectibleBalancesResponse', container: 'collectibleBalances', cache: 'activity', page: PAGES.collectibleBalances,
  },
  listErc20Transfers: {
    operationId: 'listErc20Transactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listErc20', args: [chainId, address, 'query'],
    shape: 'ListErc20TransfersResponse', container: 'transactions', cache: 'activity', page: PAGES.erc20Transfers,
  },
  listErc721Transfers: {
    operationId: 'listErc721Transactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listErc721', args: [chainId, address, 'query'],
    shape: 'ListErc721TransfersResponse', container: 'transactions', cache: 'activity', page: PAGES.erc721Transfers,
  },
  listErc1155Transfers: {
    operationId: 'listErc1155Transactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listErc1155', args: [chainId, address, 'query'],
    shape: 'ListErc1155TransfersResponse', container: 'transactions', cache: 'activity', page: PAGES.erc1155Transfers,
  },
  listInternalTransactions: {
    operationId: 'listInternalTransactions', weight: 'medium', method: 'GET', template: '/v1/chains/{chainId}/addresses/{address}/transactions:listInternals', args: [chainId, address, 'query'],
    shape: 'ListInternalTransactionsResponse', container: 'transactions', cache: 'activity', page: PAGES.internalTransactions,
  },
  // Primary-network lookups and ICM
  getValidatorDetails: {
    operationId: 'getSingleValidatorDetails', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/validators/{nodeId}', args: [network, { path: 'nodeId' }, 'query'],
    shape: 'ListValidatorsResponse', container: 'validators', cache: 'staking', page: PAGES.validationHistory,
  },
  getSubnet: { operationId: 'getSubnetById', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/subnets/{subnetId}', args: [network, { path: 'subnetId' }], shape: 'Subnet', cache: 'subnets' },
  listBlockchains: {
    operationId: 'listBlockchains', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains', args: [network, 'query'],
    shape: 'ListBlockchainsResponse', container: 'blockchains', cache: 'subnets', page: PAGES.blockchains,
  },
  getBlockchain: { operationId: 'getBlockchainById', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}', args: [network, blockchainId], shape: 'Blockchain', cache: 'subnets' },
  getNetworkDetails: { operationId: 'getNetworkDetails', weight: 'xl', method: 'GET', template: '/v1/networks/{network}', args: [network], shape: 'NetworkDetails', cache: 'staking' },
  getAvaxSupply: { operationId: 'getAvaxSupply', weight: 'free', method: 'GET', template: '/v1/avax/supply', args: [], shape: 'AvaxSupply', cache: 'staking' },
  listAllIcmMessages: {
    operationId: 'listIcmMessages', weight: 'medium', method: 'GET', template: '/v1/icm/messages', args: ['query'], shape: 'ListIcmMessagesResponse', container: 'messages', cache: 'activity', page: PAGES.allIcmMessages,
  },
  getIcmMessage: { operationId: 'getIcmMessage', weight: 'medium', method: 'GET', template: '/v1/icm/messages/{messageId}', args: [{ path: 'messageId' }], shape: 'IcmMessage', cache: 'activity' },
  // Primary-network transactions, balances and assets: asked by the chain's alias, read by that chain's shape
  getPrimaryTransaction: {
    operationId: 'getTxByHash', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/transactions/{txHash}', args: [network, blockchainId, { path: 'txHash' }],
    shape: { byChain: 'transaction' }, cache: 'activity',
  },
  listPrimaryTransactions: {
    operationId: 'listLatestPrimaryNetworkTransactions', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/transactions', args: [network, blockchainId, 'query'], repeated: ['txTypes'],
    shape: { byChain: 'page' }, container: 'transactions', cache: 'activity', page: PAGES.primaryTransactions,
  },
  listStakingTransactions: {
    operationId: 'listActivePrimaryNetworkStakingTransactions', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/transactions:listStaking', args: [network, 'query'], fixed: { blockchainId: 'p-chain' },
    repeated: ['txTypes'], shape: 'ListPChainTransactionsResponse', container: 'transactions', cache: 'staking', page: PAGES.stakingTransactions,
  },
  getPrimaryBalances: {
    operationId: 'getBalancesByAddresses', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/balances', args: [network, blockchainId, 'query'],
    shape: { byChain: 'balances' }, container: 'balances', cache: 'activity',
  },
  // An asset never changes: cached as long as the chain list.
  getAssetDetails: {
    operationId: 'getAssetDetails', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}', args: [network, { path: 'assetId' }], fixed: { blockchainId: 'x-chain' },
    shape: 'AssetDetails', cache: 'chains',
  },
  // L1 validators, an asset's transactions, UTXOs by GET and address activity
  listL1Validators: {
    operationId: 'listL1Validators', weight: 'medium', method: 'GET', template: '/v1/networks/{network}/l1Validators', args: [network, 'query'],
    shape: 'ListL1ValidatorsResponse', container: 'validators', cache: 'staking', page: PAGES.l1Validators,
  },
  listAssetTransactions: {
    operationId: 'listAssetTransactions', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/assets/{assetId}/transactions', args: [network, { path: 'assetId' }, 'query'],
    fixed: { blockchainId: 'x-chain' }, repeated: ['txTypes'], shape: 'ListXChainTransactionsResponse', container: 'transactions', cache: 'activity', page: PAGES.assetTransactions,
  },
  listUtxosByGet: {
    operationId: 'getUtxosByAddresses', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/utxos', args: [network, blockchainId, 'query'],
    shape: 'ListUtxosResponse', container: 'utxos', cache: 'activity', page: PAGES.utxosByGet,
  },
  getChainIdsForAddresses: {
    operationId: 'getChainIdsForAddresses', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/addresses:listChainIds', args: [network, 'query'],
    shape: 'ChainAddressChainIdMapListResponse', container: 'addresses', cache: 'activity',
  },
  getLastActivity: {
    operationId: 'getLastActivityTimestampByAddresses', weight: 'xl', method: 'GET', template: '/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses', args: [network, blockchainId, 'query'],
    shape: 'LastActivityTimestamp', cache: 'activity',
  },
  getLastActivityByPost: {
    operationId: 'getLastActivityTimestampByAddressesV2', weight: 'xl', method: 'POST', template: '/v1/networks/{network}/blockchains/{blockchainId}/lastActivityTimestampByAddresses', args: [network, blockchainId, 'query+addresses'],
    shape: 'LastActivityTimestamp', cache: 'activity',
  },
  // The Data API's health checks (health: 2 s) and the calling key's usage reports (never cached: they count the calls themselves)
  dataHealthCheck: { operationId: 'data-health-check', weight: 'free', method: 'GET', template: '/v1/health-check', args: [], shape: 'DataApiHealth', cache: 'health' },
  liveCheck: { operationId: 'live-check', weight: 'free', method: 'GET', template: '/v1/live-check', args: [], shape: 'DataApiHealth', cache: 'health' },
  getApiUsageMetrics: {
    operationId: 'getApiUsageMetrics', weight: 'xxl', method: 'GET', template: '/v1/apiUsageMetrics', args: ['query'], shape: 'UsageMetricsResponse', container: 'metrics', cache: null,
  },
  getApiLogs: {
    operationId: 'getApiLogs', weight: 'xxl', method: 'GET', template: '/v1/apiLogs', args: ['query'], shape: 'ApiLogsResponse', container: 'logs', cache: null, page: PAGES.apiLogs,
  },
  getSubnetRpcUsageMetrics: {
    operationId: 'getSubnetRpcUsageMetrics', weight: 'xxl', method: 'GET', template: '/v1/subnetRpcUsageMetrics', args: ['query'], shape: 'SubnetRpcUsageMetricsResponse', container: 'metrics', cache: null,
  },
  getPrimaryNetworkRpcUsageMetrics: {
    operationId: 'getPrimaryNetworkRpcUsageMetrics', weight: 'xxl', method: 'GET', template: '/v1/primaryNetworkRpcUsageMetrics', args: ['query'],
    shape: 'PrimaryNetworkRpcUsageMetricsResponse', container: 'metrics', cache: null,
  },
  // The calling key's webhooks and shared secret: each key sees only its own, so never cached nor shared
  createWebhook: { operationId: 'createWebhook', weight: 'medium', method: 'POST', template: '/v1/webhooks', args: ['body'], shape: 'Webhook', cache: null },
  listWebhooks: {
    operationId: 'listWebhooks', weight: 'small', method: 'GET', template: '/v1/webhooks', args: ['query'], shape: 'ListWebhooksResponse', container: 'webhooks', cache: null, page: PAGES.webhooks,
  },
  getWebhook: { operationId: 'getWebhook', weight: 'small', method: 'GET', template: '/v1/webhooks/{id}', args: [webhookId], shape: 'Webhook', cache: null },
  updateWebhook: { operationId: 'updateWebhook', weight: 'medium', method: 'PATCH', template: '/v1/webhooks/{id}', args: [webhookId, 'body'], shape: 'Webhook', cache: null },
  deactivateWebhook: { operationId: 'deactivateWebhook', weight: 'medium', method: 'DELETE', template: '/v1/webhooks/{id}', args: [webhookId], shape: 'Webhook', cache: null },
  listWebhookAddresses: {
    operationId: 'getAddressesFromWebhook', weight: 'medium', method: 'GET', template: '/v1/webhooks/{id}/addresses', args: [webhookId, 'query'],
    shape: 'ListWebhookAddressesResponse', container: 'addresses', cache: null, page: PAGES.webhookAddresses,
  },
  addWebhookAddresses: { operationId: 'addAddressesToWebhook', weight: 'medium', method: 'PATCH', template: '/v1/webhooks/{id}/addresses', args: [webhookId, 'body'], shape: 'Webhook', cache: null },
  removeWebhookAddresses: { operationId: 'removeAddressesFromWebhook', weight: 'medium', method: 'DELETE', template: '/v1/webhooks/{id}/addresses', args: [webhookId, 'body'], shape: 'Webhook', cache: null },
  getWebhookSharedSecret: { operationId: 'getSharedSecret', weight: 'small', method: 'GET', template: '/v1/webhooks:getSharedSecret', args: [], shape: 'WebhookSharedSecret', cache: null, secret: true },
  rotateWebhookSharedSecret: {
    operationId: 'generateOrRotateSharedSecret', weight: 'medium', method: 'POST', template: '/v1/webhooks:generateOrRotateSharedSecret', args: [], shape: 'WebhookSharedSecret', cache: null, secret: true,
  },
} as const satisfies { readonly [K in keyof DataApi]: EndpointRow<Positional<DataApi[K]>> };

export type EndpointName = keyof typeof ENDPOINTS;

/** The rows, named, in the table's order. */
export const ENDPOINT_NAMES = Object.keys(ENDPOINTS) as EndpointName[];

/** The operation as errors, metrics and traces name it: `GET /v1/chains/{chainId}`. */
export function operationOf(row: EndpointRow): string {
  return `${row.method} ${row.template}`;
}

const PRIMARY_TX = primaryTxShapesOf(SHAPES);

/** The shape a row's answer is read through; `chain` is the `{blockchainId}` sent, for the rows read by chain. */
export function shapeOf(row: EndpointRow, chain: string | undefined): Leaf<unknown> {
  if (typeof row.shape === 'string') return SHAPES[row.shape] as Leaf<unknown>;
  return PRIMARY_TX[row.shape.byChain][chain as PrimaryChainAlias] as Leaf<unknown>;
}
