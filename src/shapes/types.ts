/**
 * Wire types of the two upstream APIs, named and shaped as in the seeds
 * (`shared/seeds/chain-data-rest-api.md`, `shared/seeds/node-json-rpc-api.md`).
 *
 * The devnet serves exactly these shapes and the clients return them. Fields the
 * seed lists are present on what the devnet serves; fields that only the public
 * spec has (the status-specific validator and delegator fields, for example) are
 * optional here. The clients normalise the spec's variants on read (a price
 * `value` given as a number becomes a string), so code above the upstream layer
 * sees one form.
 */

// ---------------------------------------------------------------- shared enums

export type Network = 'mainnet' | 'fuji' | 'testnet';
export type SortOrder = 'asc' | 'desc';
export const CURRENCY_CODES = [
  'usd', 'eur', 'aud', 'cad', 'chf', 'clp', 'cny', 'czk', 'dkk', 'gbp', 'hkd', 'huf', 'jpy', 'nzd',
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];
export const VALIDATION_STATUSES = ['completed', 'active', 'pending', 'removed'] as const;
export type ValidationStatus = (typeof VALIDATION_STATUSES)[number];
export const DELEGATION_STATUSES = ['completed', 'active', 'pending'] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];
export const VALIDATOR_SORT_BY = [
  'blockIndex', 'delegationCapacity', 'timeRemaining', 'delegationFee', 'uptimePerformance',
] as const;
export type ValidatorSortBy = (typeof VALIDATOR_SORT_BY)[number];
export const UTXO_SORT_BY = ['timestamp', 'amount'] as const;
export type UtxoSortBy = (typeof UTXO_SORT_BY)[number];
export const CHAIN_FEATURES = ['nftIndexing', 'webhooks', 'teleporter'] as const;
export type ChainFeature = (typeof CHAIN_FEATURES)[number];

/** The P-chain id, which is also the primary network's subnet id. */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

/** Fixed primary-network blockchain ids (from the public spec's `BlockchainId` enum). */
export const PRIMARY_CHAIN_IDS = {
  mainnet: {
    p: PRIMARY_NETWORK_ID,
    x: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    c: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  },
  fuji: {
    p: PRIMARY_NETWORK_ID,
    x: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    c: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
  },
} as const;

// ---------------------------------------------------------------- shared objects

export interface ErrorBody {
  /** The spec allows a list of messages; the client joins them. */
  message: string | string[];
  statusCode: number;
  error: string;
}

export interface Price {
  currencyCode: string;
  /** Decimal string. The public spec sends a number; the client converts it. */
  value: string;
}

export interface AddressInfo {
  name?: string;
  symbol?: string;
  decimals?: number;
  logoUri?: string;
  address: string;
}

export interface AssetAmount {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
  type: string;
  amount: string;
}

export interface NftMetadata {
  indexStatus: string;
  metadataLastUpdatedTimestamp?: number;
  name?: string;
  symbol?: string;
  imageUri?: string;
  description?: string;
  animationUri?: string;
  externalUrl?: string;
  background?: string;
  /** ERC-721 only. */
  attributes?: string;
  /** ERC-1155 only. */
  decimals?: number;
  /** ERC-1155 only. */
  properties?: string;
}

export interface TransactionMethod {
  callType: string;
  methodHash: string;
  methodName?: string;
}

export interface NativeTransaction {
  blockNumber: string;
  blockTimestamp: number;
  blockHash: string;
  chainId: string;
  blockIndex: number;
  txHash: string;
  txStatus: string;
  txType: number;
  gasLimit: string;
  gasUsed: string;
  gasPrice: string;
  nonce: string;
  from: AddressInfo;
  to: AddressInfo;
  method?: TransactionMethod;
  value: string;
}

/** The deployment and single-transaction endpoints add the fee fields and the input. */
export interface FullNativeTransaction extends NativeTransaction {
  input: string;
  baseFeePerGas: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
}

export interface Erc20Token {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  logoUri?: string;
  ercType: string;
  price?: Price;
}

export interface Erc721Token {
  address: string;
  name: string;
  symbol: string;
  ercType: string;
  tokenId: string;
  tokenUri: string;
  metadata: NftMetadata;
  ownerAddress?: string;
}

export interface Erc1155Token {
  address: string;
  ercType: string;
  tokenId: string;
  tokenUri: string;
  metadata: NftMetadata;
}

export interface Erc20Transfer {
  from: AddressInfo;
  to: AddressInfo;
  logIndex: number;
  value: string;
  erc20Token: Erc20Token;
}

export interface Erc721Transfer {
  from: AddressInfo;
  to: AddressInfo;
  logIndex: number;
  erc721Token: Erc721Token;
}

export interface Erc1155Transfer {
  from: AddressInfo;
  to: AddressInfo;
  logIndex: number;
  value: string;
  erc1155Token: Erc1155Token;
}

export interface InternalTransaction {
  from: AddressInfo;
  to: AddressInfo;
  internalTxType: string;
  value: string;
  isReverted: boolean;
  gasUsed: string;
  gasLimit: string;
}

export interface TeleporterMessageInfo {
  teleporterMessageId: string;
  direction: string;
  sourceChainId?: string;
  destinationChainId?: string;
}

/** One item of E3: an address-scoped (possibly partial) view of a transaction. */
export interface TransactionDetails {
  nativeTransaction: NativeTransaction;
  erc20Transfers: Erc20Transfer[];
  erc721Transfers: Erc721Transfer[];
  erc1155Transfers: Erc1155Transfer[];
  internalTransactions: InternalTransaction[];
}

export interface NetworkToken {
  name: string;
  symbol: string;
  decimals: number;
  logoUri?: string;
  description?: string;
}

export interface NetworkTokenDetails {
  networkToken: NetworkToken;
  currentPrice?: Price;
  historicalPrice?: Price;
}

/** E6 and `GET /v1/chains/{chainId}/transactions/{txHash}`: the complete view of one transaction. */
export interface FullTransaction {
  erc20Transfers: Erc20Transfer[];
  erc721Transfers: Erc721Transfer[];
  erc1155Transfers: Erc1155Transfer[];
  internalTransactions: InternalTransaction[];
  networkTokenDetails: NetworkTokenDetails;
  nativeTransaction: FullNativeTransaction;
  teleporterMessageInfo?: TeleporterMessageInfo;
}

export interface NativeTokenBalance {
  name: string;
  symbol: string;
  decimals: number;
  logoUri?: string;
  chainId: string;
  price?: Price;
  balance: string;
  balanceValue?: Price;
}

export interface Erc1155TokenBalance {
  address: string;
  ercType: string;
  tokenId: string;
  tokenUri: string;
  metadata: NftMetadata;
  chainId: string;
  balance: string;
}

export interface Utxo {
  addresses: string[];
  asset: AssetAmount;
  consumedOnChainId: string;
  createdOnChainId: string;
  consumingTxHash?: string;
  txHash: string;
  utxoId: string;
  utxoBytes?: string;
  amount: string;
  assetId: string;
  /** Absent in the public spec's X/C-chain UTXO shape. */
  blockNumber?: string;
  consumingBlockNumber?: string;
  blockTimestamp: number;
  consumingBlockTimestamp?: number;
  platformLocktime?: number;
  stakeableLocktime?: number;
  outputIndex: number;
  threshold?: number;
  rewardType?: string;
  staked?: boolean;
  utxoStartTimestamp?: number;
  utxoEndTimestamp?: number;
  utxoType: string;
}

export interface ExportOperation {
  operationId: string;
  operationType: string;
  operationStatus: string;
  message?: string;
  metadata?: { code?: string; downloadUrl?: string; nextDate?: string };
  createdAtTimestamp: number;
  updatedAtTimestamp: number;
}

export interface AllowListConfig {
  blockTimestamp: number;
  adminAddresses: string[];
  managerAddresses: string[];
  enabledAddresses: string[];
}

export interface GenesisConfig {
  berlinBlock: number;
  byzantiumBlock: number;
  chainId: number;
  constantinopleBlock: number;
  eip150Block: number;
  eip150Hash: string;
  eip155Block: number;
  eip158Block: number;
  homesteadBlock: number;
  istanbulBlock: number;
  londonBlock: number;
  muirGlacierBlock: number;
  petersburgBlock: number;
  subnetEVMTimestamp: number;
  allowFeeRecipients: boolean;
  feeConfig: {
    baseFeeChangeDenominator: number;
    blockGasCostStep: number;
    gasLimit: number;
    maxBlockGasCost: number;
    minBaseFee: number;
    minBlockGasCost: number;
    targetBlockRate: number;
    targetGas: number;
  };
  warpConfig: { blockTimestamp: number; quorumNumerator: number; requirePrimaryNetworkSigners: boolean };
  txAllowListConfig: AllowListConfig;
  contractDeployerAllowListConfig: AllowListConfig;
  contractNativeMinterConfig: AllowListConfig;
  feeManagerConfig: AllowListConfig;
  rewardManagerConfig: AllowListConfig;
}

export interface GenesisData {
  airdropAmount: number | null;
  airdropHash: string;
  alloc: Record<string, { balance: string; code: string; storage: Record<string, string> }>;
  baseFeePerGas: number | null;
  blobGasUsed: string | null;
  coinbase: string;
  config: GenesisConfig;
  difficulty: string;
  excessBlobGas: string | null;
  extraData: string;
  gasLimit: string;
  gasUsed: string;
  mixHash: string;
  nonce: string;
  number: string;
  parentHash: string;
  timestamp: string;
}

export interface Blockchain {
  createBlockTimestamp: number;
  createBlockNumber: string;
  blockchainId: string;
  vmId: string;
  subnetId: string;
  blockchainName: string;
  evmChainId?: number;
  /** An object for EVM chains; the public spec allows an encoded string for other VMs. */
  genesisData?: GenesisData | string;
}

export interface Subnet {
  createBlockTimestamp: number;
  createBlockIndex: string;
  subnetId: string;
  ownerAddresses: string[];
  threshold: number;
  locktime: number;
  subnetOwnershipInfo: { locktime: number; threshold: number; addresses: string[] };
  isL1: boolean;
  l1ConversionTransactionHash?: string;
  l1ValidatorManagerDetails?: { blockchainId: string; contractAddress: string };
  blockchains: Blockchain[];
}

export interface ValidatorRewards {
  validationRewardAmount: string;
  delegationRewardAmount: string;
  rewardAddresses?: string[];
  rewardTxHash?: string;
}

/**
 * The seed's one flat validator shape, with the public spec's status-specific
 * fields as optional extras (active: uptime, stake share, health, geolocation,
 * capacity; removed: the removal tx).
 */
export interface Validator {
  txHash: string;
  nodeId: string;
  subnetId: string;
  amountStaked: string;
  delegationFee?: string;
  amountDelegated?: string;
  startTimestamp: number;
  endTimestamp: number;
  blsCredentials?: { publicKey: string; proofOfPossession: string };
  delegatorCount?: number;
  rewards?: ValidatorRewards;
  validationStatus: ValidationStatus | string;
  // public-spec extras
  stakePercentage?: number;
  uptimePerformance?: number;
  potentialRewards?: ValidatorRewards;
  validatorHealth?: {
    reachabilityPercent: number;
    benchedPChainRequestsPercent: number;
    benchedXChainRequestsPercent: number;
    benchedCChainRequestsPercent: number;
  };
  geolocation?: {
    city: string;
    country: string;
    countryCode: string;
    latitude: number;
    longitude: number;
  } | null;
  avalancheGoVersion?: string;
  delegationCapacity?: string;
  removeTxHash?: string;
  removeTimestamp?: number;
}

export interface Delegator {
  txHash: string;
  nodeId: string;
  rewardAddresses: string[];
  amountDelegated: string;
  delegationFee: string;
  /** Completed delegations (seed: every delegation). */
  grossReward?: string;
  netReward?: string;
  /** Active and pending delegations in the public spec. */
  estimatedGrossReward?: string;
  estimatedNetReward?: string;
  startTimestamp: number;
  endTimestamp: number;
  delegationStatus: DelegationStatus | string;
}

export interface HistoricalReward {
  addresses: string[];
  txHash: string;
  amountStaked: string;
  nodeId: string;
  startTimestamp: number;
  endTimestamp: number;
  rewardType: string;
  utxoId: string;
  outputIndex: number;
  reward: AssetAmount & { historicalPrice?: Price };
  rewardTxHash: string;
}

export interface PendingReward {
  addresses: string[];
  txHash: string;
  amountStaked: string;
  nodeId: string;
  startTimestamp: number;
  endTimestamp: number;
  rewardType: string;
  progress: number;
  estimatedReward: AssetAmount;
}

export interface ProposerDetails {
  proposerId?: string;
  proposerParentId?: string;
  proposerNodeId?: string;
  proposerPChainHeight?: number;
  proposerTimestamp?: number;
}

export interface Block {
  blockNumber: string;
  blockHash: string;
  parentHash: string;
  blockType: string;
  blockTimestamp: number;
  txCount: number;
  transactions: string[];
  blockSizeBytes: number;
  l1ValidatorsAccruedFees?: number;
  activeL1Validators?: number;
  currentSupply?: string;
  proposerDetails?: ProposerDetails;
}

export interface Vertex {
  vertexHash: string;
  parentHashes: string[];
  vertexHeight: number;
  vertexIndex: number;
  vertexTimestamp: number;
  txCount: number;
  transactions: string[];
  vertexSizeBytes: number;
}

export interface IcmMessage {
  messageId: string;
  icmContractAddress: string;
  sourceBlockchainId: string;
  destinationBlockchainId: string;
  sourceEvmChainId: string;
  destinationEvmChainId: string;
  messageNonce: string;
  from: string;
  to: string;
  data?: string;
  messageExecuted: boolean;
  receipts: { receivedMessageNonce: string; relayerRewardAddress: string }[];
  receiptDelivered: boolean;
  rewardDetails: {
    address: string;
    name: string;
    symbol: string;
    decimals: number;
    logoUri?: string;
    ercType: string;
    price?: Price;
    value: string;
  };
  sourceTransaction?: { txHash: string; timestamp: number; gasSpent: string };
  /** Public spec: delivered messages. */
  destinationTransaction?: {
    txHash: string;
    timestamp: number;
    gasSpent: string;
    rewardRedeemer: string;
    delivererAddress: string;
  };
  status: string;
}

export interface Chain {
  chainId: string;
  status: string;
  chainName: string;
  description: string;
  platformChainId?: string;
  subnetId?: string;
  vmId?: string;
  vmName: string;
  explorerUrl?: string;
  rpcUrl: string;
  wsUrl?: string;
  isTestnet: boolean;
  utilityAddresses?: { multicall?: string };
  networkToken: NetworkToken;
  chainLogoUri?: string;
  private?: boolean;
  enabledFeatures?: string[];
}

/** E19 (ERC-721 in the seed; the public spec also allows an ERC-1155 token). */
export interface NftToken {
  address: string;
  name?: string;
  symbol?: string;
  ercType: string;
  tokenId: string;
  tokenUri: string;
  metadata: NftMetadata;
  ownerAddress?: string;
}

export interface ChainInfo {
  chainName: string;
  network: string;
}

// ---------------------------------------------------------------- Data API requests and responses

export interface PageParams {
  pageToken?: string;
  pageSize?: number;
}

export interface AggregateSignaturesBody {
  message?: string;
  justification?: string;
  signingSubnetId?: string;
  quorumPercentage?: number;
  quorumPercentageBuffer?: number;
  pChainHeight?: number;
}

export interface SignedMessage {
  signedMessage: string;
}

export interface ListAddressTransactionsParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
  sortOrder?: SortOrder;
}

export interface ListUtxosParams extends PageParams {
  /** Sent in the JSON body as a comma-separated string. */
  addresses: string[];
  assetId?: string;
  minUtxoAmount?: number;
  includeSpent?: boolean;
  sortBy?: UtxoSortBy;
  sortOrder?: SortOrder;
}

export interface CreateExportBody {
  type: string;
  firstDate?: string;
  lastDate?: string;
  startDate?: string;
  endDate?: string;
  options: { addresses: string[]; includeChains: string[] };
}

export interface ListValidatorsParams extends PageParams {
  nodeIds?: string[];
  sortBy?: ValidatorSortBy;
  sortOrder?: SortOrder;
  validationStatus?: ValidationStatus;
  minDelegationCapacity?: string;
  maxDelegationCapacity?: string;
  minTimeRemaining?: number;
  maxTimeRemaining?: number;
  minFeePercentage?: number;
  maxFeePercentage?: number;
  minUptimePerformance?: number;
  maxUptimePerformance?: number;
  subnetId?: string;
}

export interface ListNativeTransactionsParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
}

export interface ListErc1155BalancesParams extends PageParams {
  blockNumber?: string;
  contractAddress?: string;
}

export interface ListRewardsParams extends PageParams {
  addresses?: string[];
  nodeIds?: string[];
  sortOrder?: SortOrder;
}

export interface ListHistoricalRewardsParams extends ListRewardsParams {
  currency?: CurrencyCode;
}

export interface ListDelegatorsParams extends PageParams {
  rewardAddresses?: string[];
  sortOrder?: SortOrder;
  delegationStatus?: DelegationStatus;
  nodeIds?: string[];
}

export interface ListBlocksParams extends PageParams {
  startTimestamp?: number;
  endTimestamp?: number;
}

export interface ListIcmMessagesParams extends PageParams {
  network?: Network;
}

export interface ListChainsParams {
  network?: Network;
  feature?: ChainFeature;
}

export interface Page {
  nextPageToken?: string;
}

export interface ListAddressTransactionsResponse extends Page { transactions: TransactionDetails[] }
export interface ListUtxosResponse extends Page { utxos: Utxo[]; chainInfo?: ChainInfo }
export interface ListSubnetsResponse extends Page { subnets: Subnet[] }
export interface ListValidatorsResponse extends Page { validators: Validator[] }
export interface ListNativeTransactionsResponse extends Page { transactions: NativeTransaction[] }
export interface ListErc1155BalancesResponse extends Page {
  nativeTokenBalance: NativeTokenBalance;
  erc1155TokenBalances: Erc1155TokenBalance[];
}
export interface ListHistoricalRewardsResponse extends Page { historicalRewards: HistoricalReward[] }
export interface ListPendingRewardsResponse extends Page { pendingRewards: PendingReward[] }
export interface ListDelegatorsResponse extends Page { delegators: Delegator[] }
export interface GetNativeBalanceResponse { nativeTokenBalance: NativeTokenBalance }
export interface ListBlocksResponse extends Page { blocks: Block[]; chainInfo?: ChainInfo }
export interface ListIcmMessagesResponse extends Page { messages: IcmMessage[] }
export interface ListChainsResponse { chains: Chain[] }
export interface ListVerticesResponse extends Page { vertices: Vertex[]; chainInfo?: ChainInfo }

// ---------------------------------------------------------------- Node JSON-RPC API

export interface LoggerLevel { logLevel: string; displayLevel: string }

export interface Peer {
  ip: string;
  publicIP: string;
  nodeID: string;
  version: string;
  lastSent: string;
  lastReceived: string;
  benched: string[];
  /** The node sends a decimal string; the client converts it to a number. */
  observedUptime: number;
  trackedSubnets: string[];
  upgradeTime?: number;
  supportedACPs?: number[];
  objectedACPs?: number[];
}

export interface AcpPreference {
  supportWeight: string;
  supporters: string[];
  objectWeight: string;
  objectors: string[];
  abstainWeight: string;
}

export interface TxFees {
  txFee: string;
  createAssetTxFee: string;
  createSubnetTxFee: string;
  transformSubnetTxFee: string;
  createBlockchainTxFee: string;
  addPrimaryNetworkValidatorFee: string;
  addPrimaryNetworkDelegatorFee: string;
  addSubnetValidatorFee: string;
  addSubnetDelegatorFee: string;
}

export interface Upgrades {
  apricotPhase1Time: string;
  apricotPhase2Time: string;
  apricotPhase3Time: string;
  apricotPhase4Time: string;
  apricotPhase4MinPChainHeight: number;
  apricotPhase5Time: string;
  apricotPhasePre6Time: string;
  apricotPhase6Time: string;
  apricotPhasePost6Time: string;
  banffTime: string;
  cortinaTime: string;
  cortinaXChainStopVertexID: string;
  durangoTime: string;
  etnaTime: string;
  fortunaTime: string;
  graniteTime: string;
  graniteEpochDuration?: number;
  heliconTime?: string;
}

export interface HealthCheckResult {
  message?: unknown;
  error?: unknown;
  timestamp: string;
  duration: number;
  contiguousFailures?: number;
  timeOfFirstFailure?: string;
}

export interface HealthReport {
  checks: Record<string, HealthCheckResult>;
  healthy: boolean;
}

/**
 * Every JSON-RPC method of the node seed: its params and its result, as the
 * client returns them (64-bit integers stay decimal strings; `networkID`,
 * `observedUptime` and the uptime percentages become numbers).
 */
export interface NodeRpcMethods {
  'admin.alias': { params: { endpoint: string; alias: string }; result: Record<string, never> };
  'admin.aliasChain': { params: { chain: string; alias: string }; result: Record<string, never> };
  'admin.getChainAliases': { params: { chain: string }; result: { aliases: string[] | null } };
  'admin.getLoggerLevel': { params: { loggerName?: string }; result: { loggerLevels: Record<string, LoggerLevel> } };
  'admin.loadVMs': {
    params: Record<string, never>;
    result: { newVMs: Record<string, string[]>; failedVMs?: Record<string, string> };
  };
  'admin.lockProfile': { params: Record<string, never>; result: Record<string, never> };
  'admin.memoryProfile': { params: Record<string, never>; result: Record<string, never> };
  'admin.setLoggerLevel': {
    params: { loggerName?: string; logLevel?: string; displayLevel?: string };
    result: { loggerLevels?: Record<string, LoggerLevel> };
  };
  'admin.startCPUProfiler': { params: Record<string, never>; result: Record<string, never> };
  'admin.stopCPUProfiler': { params: Record<string, never>; result: Record<string, never> };
  'info.acps': { params: Record<string, never>; result: { acps: Record<string, AcpPreference> } };
  'info.isBootstrapped': { params: { chain: string }; result: { isBootstrapped: boolean } };
  'info.getBlockchainID': { params: { alias: string }; result: { blockchainID: string } };
  'info.getNetworkID': { params: Record<string, never>; result: { networkID: number } };
  'info.getNetworkName': { params: Record<string, never>; result: { networkName: string } };
  'info.getNodeID': {
    params: Record<string, never>;
    result: { nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } };
  };
  'info.getNodeIP': { params: Record<string, never>; result: { ip: string } };
  'info.getNodeVersion': {
    params: Record<string, never>;
    result: {
      version: string;
      databaseVersion: string;
      gitCommit: string;
      vmVersions: Record<string, string>;
      rpcProtocolVersion: string;
    };
  };
  'info.getTxFee': { params: Record<string, never>; result: TxFees };
  'info.getVMs': { params: Record<string, never>; result: { vms: Record<string, string[]>; fxs?: Record<string, string> } };
  'info.peers': { params: { nodeIDs?: string[] }; result: { numPeers: number; peers: Peer[] } };
  'info.uptime': {
    params: { subnetID?: string };
    result: { rewardingStakePercentage: number; weightedAveragePercentage: number };
  };
  'info.upgrades': { params: Record<string, never>; result: Upgrades };
  'health.health': { params: { tags?: string[] }; result: HealthReport };
  'health.readiness': { params: { tags?: string[] }; result: HealthReport };
  'health.liveness': { params: Record<string, never>; result: HealthReport };
}

export type NodeRpcMethod = keyof NodeRpcMethods;

/** The health GET endpoints: `/ext/health`, `/ext/health/health`, `/ext/health/readiness`, `/ext/health/liveness`. */
export type HealthPath = 'health' | 'readiness' | 'liveness';

/** Which API (path under `/ext/`) serves each method. */
export function nodeApiOf(method: NodeRpcMethod): 'admin' | 'info' | 'health' {
  return method.slice(0, method.indexOf('.')) as 'admin' | 'info' | 'health';
}

/** Methods that only read: safe to retry and to cache. */
export const READ_ONLY_NODE_METHODS: ReadonlySet<NodeRpcMethod> = new Set<NodeRpcMethod>([
  'admin.getChainAliases',
  'admin.getLoggerLevel',
  'info.acps',
  'info.isBootstrapped',
  'info.getBlockchainID',
  'info.getNetworkID',
  'info.getNetworkName',
  'info.getNodeID',
  'info.getNodeIP',
  'info.getNodeVersion',
  'info.getTxFee',
  'info.getVMs',
  'info.peers',
  'info.uptime',
  'info.upgrades',
  'health.health',
  'health.readiness',
  'health.liveness',
]);
