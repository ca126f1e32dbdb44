/**
 * EVM chains and their data: the chain list (E17), address transactions (E3, E9),
 * balances (E10, E14), the complete view of a transaction (E6 and the lookup by
 * hash) and NFT tokens (E19).
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type CurrencyCode, type Network, type PageParams, type SortOrder } from './common.ts';
import { perKit, type Kit } from './kit.ts';

export const CHAIN_FEATURES = ['nftIndexing', 'webhooks', 'teleporter'] as const;
export type ChainFeature = (typeof CHAIN_FEATURES)[number];

export const describeEvm = perKit((k: Kit) => {
  const { AddressInfo, Price } = describeCommon(k);

  /** One description for ERC-721 (`attributes`) and ERC-1155 (`decimals`, `properties`) metadata. */
  const NftMetadata = v.object({
    indexStatus: k.mayBeAbsent(k.string),
    metadataLastUpdatedTimestamp: v.optional(k.wideInteger),
    name: v.optional(k.string),
    symbol: v.optional(k.string),
    imageUri: v.optional(k.string),
    description: v.optional(k.string),
    animationUri: v.optional(k.string),
    externalUrl: v.optional(k.string),
    background: v.optional(k.string),
    /** ERC-721 only. */
    attributes: v.optional(k.string),
    /** ERC-1155 only. */
    decimals: v.optional(k.int32),
    /** ERC-1155 only. */
    properties: v.optional(k.string),
  });

  const TransactionMethod = v.object({ callType: k.mayBeAbsent(k.string), methodHash: k.string, methodName: v.optional(k.string) });

  const nativeTransactionEntries = {
    blockNumber: k.decimal,
    blockTimestamp: k.wideInteger,
    blockHash: k.string,
    chainId: k.string,
    blockIndex: k.int32,
    txHash: k.string,
    /** Served as a String ("1" success, "0" failure): its digits are checked only by the strict build. */
    txStatus: k.pattern(/^\d+$/, 'a string of decimal digits'),
    txType: k.int32,
    gasLimit: k.decimal,
    gasUsed: k.decimal,
    gasPrice: k.decimal,
    nonce: k.decimal,
    from: AddressInfo,
    to: AddressInfo,
    method: v.optional(TransactionMethod),
    value: k.decimal,
  };
  const NativeTransaction = v.object(nativeTransactionEntries);
  /** The deployment and single-transaction endpoints add the input and the fee fields. */
  const FullNativeTransaction = v.object({
    ...nativeTransactionEntries,
    input: k.hex,
    baseFeePerGas: k.decimal,
    maxFeePerGas: v.optional(k.decimal),
    maxPriorityFeePerGas: v.optional(k.decimal),
  });

  const Erc20Token = v.object({
    address: k.string,
    name: k.string,
    symbol: k.string,
    decimals: k.int32,
    logoUri: v.optional(k.string),
    ercType: k.mayBeAbsent(k.openEnum(['ERC-20'])),
    price: v.optional(Price),
  });
  const erc721TokenEntries = {
    address: k.string,
    name: k.string,
    symbol: k.string,
    ercType: k.mayBeAbsent(k.openEnum(['ERC-721'])),
    tokenId: k.string,
    tokenUri: k.string,
    metadata: NftMetadata,
    ownerAddress: v.optional(k.string),
  };
  const Erc721Token = v.object(erc721TokenEntries);
  const erc1155TokenEntries = {
    address: k.string,
    ercType: k.mayBeAbsent(k.openEnum(['ERC-1155'])),
    tokenId: k.string,
    tokenUri: k.string,
    metadata: NftMetadata,
  };
  const Erc1155Token = v.object(erc1155TokenEntries);

  const Erc20Transfer = v.object({ from: AddressInfo, to: AddressInfo, logIndex: k.int32, value: k.decimal, erc20Token: Erc20Token });
  const Erc721Transfer = v.object({ from: AddressInfo, to: AddressInfo, logIndex: k.int32, erc721Token: Erc721Token });
  const Erc1155Transfer = v.object({ from: AddressInfo, to: AddressInfo, logIndex: k.int32, value: k.decimal, erc1155Token: Erc1155Token });
  const InternalTransaction = v.object({
    from: AddressInfo,
    to: AddressInfo,
    internalTxType: k.mayBeAbsent(k.string),
    value: k.decimal,
    isReverted: k.boolean,
    gasUsed: k.decimal,
    gasLimit: k.decimal,
  });
  const TeleporterMessageInfo = v.object({
    teleporterMessageId: k.string,
    direction: k.mayBeAbsent(k.string),
    sourceChainId: v.optional(k.string),
    destinationChainId: v.optional(k.string),
  });

  /** The public spec leaves the transfer lists out when empty; they read as empty lists. */
  const transferEntries = {
    erc20Transfers: v.optional(v.array(Erc20Transfer), []),
    erc721Transfers: v.optional(v.array(Erc721Transfer), []),
    erc1155Transfers: v.optional(v.array(Erc1155Transfer), []),
    internalTransactions: v.optional(v.array(InternalTransaction), []),
  };
  /** One item of E3: an address-scoped (possibly partial) view of a transaction. */
  const TransactionDetails = v.object({ nativeTransaction: NativeTransaction, ...transferEntries });

  const NetworkToken = v.object({
    name: k.string,
    symbol: k.string,
    decimals: k.int32,
    logoUri: v.optional(k.string),
    description: v.optional(k.string),
  });
  const NetworkTokenDetails = v.object({
    networkToken: NetworkToken,
    currentPrice: v.optional(Price),
    historicalPrice: v.optional(Price),
  });
  /** E6 and `GET /v1/chains/{chainId}/transactions/{txHash}`: the complete view of one transaction. */
  const FullTransaction = v.object({
    ...transferEntries,
    networkTokenDetails: NetworkTokenDetails,
    nativeTransaction: FullNativeTransaction,
    teleporterMessageInfo: v.optional(TeleporterMessageInfo),
  });

  const NativeTokenBalance = v.object({
    name: k.string,
    symbol: k.string,
    decimals: k.int32,
    logoUri: v.optional(k.string),
    chainId: k.string,
    price: v.optional(Price),
    balance: k.decimal,
    balanceValue: v.optional(Price),
  });
  const Erc1155TokenBalance = v.object({ ...erc1155TokenEntries, chainId: k.string, balance: k.decimal });

  const Chain = v.object({
    chainId: k.string,
    status: k.mayBeAbsent(k.string),
    chainName: k.string,
    description: k.string,
    platformChainId: v.optional(k.string),
    subnetId: v.optional(k.string),
    vmId: v.optional(k.string),
    vmName: k.mayBeAbsent(k.string),
    explorerUrl: v.optional(k.string),
    rpcUrl: k.string,
    wsUrl: v.optional(k.string),
    isTestnet: k.boolean,
    utilityAddresses: v.optional(v.object({ multicall: v.optional(k.string) })),
    networkToken: NetworkToken,
    chainLogoUri: v.optional(k.string),
    private: v.optional(k.boolean),
    enabledFeatures: v.optional(v.array(k.openEnum(CHAIN_FEATURES))),
  });

  /** E19: ERC-721 in the seed (name and symbol required there); the public spec also allows an ERC-1155 token. */
  const NftToken = k.requires(v.object({
    ...erc721TokenEntries,
    name: v.optional(k.string),
    symbol: v.optional(k.string),
  }), ['name', 'symbol']);

  return {
    NftMetadata,
    TransactionMethod,
    NativeTransaction,
    FullNativeTransaction,
    Erc20Token,
    Erc721Token,
    Erc1155Token,
    Erc20Transfer,
    Erc721Transfer,
    Erc1155Transfer,
    InternalTransaction,
    TeleporterMessageInfo,
    TransactionDetails,
    NetworkToken,
    NetworkTokenDetails,
    FullTransaction,
    NativeTokenBalance,
    Erc1155TokenBalance,
    Chain,
    NftToken,
    ListAddressTransactionsResponse: pageOf(k, { transactions: v.array(TransactionDetails) }),
    ListNativeTransactionsResponse: pageOf(k, { transactions: v.array(NativeTransaction) }),
    ListErc1155BalancesResponse: pageOf(k, { nativeTokenBalance: NativeTokenBalance, erc1155TokenBalances: v.array(Erc1155TokenBalance) }),
    GetNativeBalanceResponse: v.object({ nativeTokenBalance: NativeTokenBalance }),
    ListChainsResponse: v.object({ chains: v.array(Chain) }),
  };
});

type Evm = ReturnType<typeof describeEvm>;

export type NftMetadata = v.InferOutput<Evm['NftMetadata']>;
export type TransactionMethod = v.InferOutput<Evm['TransactionMethod']>;
export type NativeTransaction = v.InferOutput<Evm['NativeTransaction']>;
export type FullNativeTransaction = v.InferOutput<Evm['FullNativeTransaction']>;
export type Erc20Token = v.InferOutput<Evm['Erc20Token']>;
export type Erc721Token = v.InferOutput<Evm['Erc721Token']>;
export type Erc1155Token = v.InferOutput<Evm['Erc1155Token']>;
export type Erc20Transfer = v.InferOutput<Evm['Erc20Transfer']>;
export type Erc721Transfer = v.InferOutput<Evm['Erc721Transfer']>;
export type Erc1155Transfer = v.InferOutput<Evm['Erc1155Transfer']>;
export type InternalTransaction = v.InferOutput<Evm['InternalTransaction']>;
export type TeleporterMessageInfo = v.InferOutput<Evm['TeleporterMessageInfo']>;
export type TransactionDetails = v.InferOutput<Evm['TransactionDetails']>;
export type NetworkToken = v.InferOutput<Evm['NetworkToken']>;
export type NetworkTokenDetails = v.InferOutput<Evm['NetworkTokenDetails']>;
export type FullTransaction = v.InferOutput<Evm['FullTransaction']>;
export type NativeTokenBalance = v.InferOutput<Evm['NativeTokenBalance']>;
export type Erc1155TokenBalance = v.InferOutput<Evm['Erc1155TokenBalance']>;
export type Chain = v.InferOutput<Evm['Chain']>;
export type NftToken = v.InferOutput<Evm['NftToken']>;
export type ListAddressTransactionsResponse = v.InferOutput<Evm['ListAddressTransactionsResponse']>;
export type ListNativeTransactionsResponse = v.InferOutput<Evm['ListNativeTransactionsResponse']>;
export type ListErc1155BalancesResponse = v.InferOutput<Evm['ListErc1155BalancesResponse']>;
export type GetNativeBalanceResponse = v.InferOutput<Evm['GetNativeBalanceResponse']>;
export type ListChainsResponse = v.InferOutput<Evm['ListChainsResponse']>;

export interface ListAddressTransactionsParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
  sortOrder?: SortOrder;
}

export interface ListNativeTransactionsParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
}

export interface ListErc1155BalancesParams extends PageParams {
  blockNumber?: string;
  contractAddress?: string;
}

export interface ListChainsParams {
  network?: Network;
  feature?: ChainFeature;
}

/** E6's query. */
export interface GetDeploymentParams {
  currency?: CurrencyCode;
}

/** E14's query. */
export interface GetNativeBalanceParams {
  blockNumber?: string;
  currency?: CurrencyCode;
}
