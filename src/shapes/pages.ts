/** Page-size bounds of one upstream listing, from the seed's Limits table. */
export interface PageSpec {
  /** Connection name, part of every cursor so cursors cannot cross connections. */
  readonly name: string;
  readonly defaultSize: number;
  readonly maxSize: number;
}

const spec = (name: string, defaultSize: number, maxSize: number): PageSpec => ({ name, defaultSize, maxSize });

/** The seed's page-size defaults and ranges, per endpoint. */
export const PAGES = {
  addressTransactions: spec('addressTransactions', 10, 100), // E3
  utxos: spec('utxos', 10, 1024), // E4
  subnets: spec('subnets', 100, 10000), // E7
  validators: spec('validators', 10, 100), // E8
  nativeTransactions: spec('nativeTransactions', 10, 100), // E9
  erc1155Balances: spec('erc1155Balances', 10, 500), // E10
  historicalRewards: spec('historicalRewards', 10, 100), // E11
  pendingRewards: spec('pendingRewards', 10, 100), // E12
  delegators: spec('delegators', 10, 100), // E13
  blocks: spec('blocks', 10, 100), // E15
  icmMessages: spec('icmMessages', 10, 100), // E16
  vertices: spec('vertices', 10, 100), // E18
  // Primary-network blocks proposed by a node and vertices at a height (public spec: 1-100)
  nodeBlocks: spec('nodeBlocks', 10, 100), // listPrimaryNetworkBlocksByNodeId
  verticesByHeight: spec('verticesByHeight', 10, 100), // getVertexByHeight
  // EVM blocks, latest transactions and contract transfers
  evmBlocks: spec('evmBlocks', 10, 100), // getLatestBlocks
  evmBlockTransactions: spec('evmBlockTransactions', 10, 100), // getTransactionsForBlock
  latestTransactions: spec('latestTransactions', 10, 100), // listLatestTransactions
  contractTransfers: spec('contractTransfers', 10, 100), // listTransfers
  // EVM address tokens (public spec: balances 1-500, transfer listings 1-100)
  erc20Balances: spec('erc20Balances', 10, 500), // listErc20Balances
  erc721Balances: spec('erc721Balances', 10, 500), // listErc721Balances
  collectibleBalances: spec('collectibleBalances', 10, 500), // listCollectibleBalances
  erc20Transfers: spec('erc20Transfers', 10, 100), // listErc20Transactions
  erc721Transfers: spec('erc721Transfers', 10, 100), // listErc721Transactions
  erc1155Transfers: spec('erc1155Transfers', 10, 100), // listErc1155Transactions
  internalTransactions: spec('internalTransactions', 10, 100), // listInternalTransactions
  // EVM across chains, deployments, transactions v2 and collection tokens (public spec: 1-100)
  allChainsBlocks: spec('allChainsBlocks', 10, 100), // listLatestBlocksAllChains
  allChainsTransactions: spec('allChainsTransactions', 10, 100), // listLatestTransactionsAllChains
  contractDeployments: spec('contractDeployments', 10, 100), // listContractDeployments
  addressTransactionsV2: spec('addressTransactionsV2', 10, 100), // listTransactionsV2
  collectionTokens: spec('collectionTokens', 10, 100), // listTokens
  // Primary-network lookups and ICM
  blockchains: spec('blockchains', 100, 10000), // listBlockchains
  allIcmMessages: spec('allIcmMessages', 10, 100), // listIcmMessages
  validationHistory: spec('validationHistory', 10, 100), // getSingleValidatorDetails (a node's validations)
  // Primary-network transactions (public spec: 1-100)
  primaryTransactions: spec('primaryTransactions', 10, 100), // listLatestPrimaryNetworkTransactions
  stakingTransactions: spec('stakingTransactions', 10, 100), // listActivePrimaryNetworkStakingTransactions
  // L1 validators, an asset's transactions, UTXOs by GET (public spec: 1-100)
  l1Validators: spec('l1Validators', 10, 100), // listL1Validators
  assetTransactions: spec('assetTransactions', 10, 100), // listAssetTransactions
  utxosByGet: spec('utxosByGet', 10, 100), // getUtxosByAddresses (the GET form of E4)
  // The caller's request logs (public spec: 1-100, default 10)
  apiLogs: spec('apiLogs', 10, 100), // getApiLogs
  // The calling key's webhooks and the addresses one watches (public spec: 1-100, default 10)
  webhooks: spec('webhooks', 10, 100), // listWebhooks
  webhookAddresses: spec('webhookAddresses', 10, 100), // getAddressesFromWebhook
} as const satisfies Record<string, PageSpec>;
