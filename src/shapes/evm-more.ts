/**
 * The EVM operations beside the per-chain ones: the spec's listAddressChains (the
 * chains an address is active on), listContractDeployments (the contracts an
 * address deployed), listTransactionsV2 (E3 with ERC-20 token reputations),
 * listTokens (an NFT collection's tokens) and reindexNft (no answer body).
 * listLatestBlocksAllChains and listLatestTransactionsAllChains answer the pages of
 * getLatestBlocks and listLatestTransactions (ListEvmBlocksResponse,
 * ListNativeTransactionsResponse).
 */
import * as v from 'valibot';
import { pageOf, type Network, type PageParams, type SortOrder } from './common.ts';
import { describeEvm } from './evm.ts';
import { describeEvmBlocks, type TransactionStatus } from './evm-blocks.ts';
import { TOKEN_REPUTATIONS } from './evm-address.ts';
import { perKit, type Kit } from './kit.ts';

export const describeEvmMore = perKit((k: Kit) => {
  const { Chain, Erc20Token, Erc20Transfer, Erc721Token, TransactionDetails } = describeEvm(k);
  const { ContractMetadata } = describeEvmBlocks(k);

  /** listTransactionsV2's ERC-20 token (Erc20TokenV2): the v1 token plus the spec's nullable reputation. */
  const Erc20TokenV2 = v.object({ ...Erc20Token.entries, tokenReputation: k.mayBeAbsent(v.nullable(k.openEnum(TOKEN_REPUTATIONS))) });
  const Erc20TransferV2 = v.object({ ...Erc20Transfer.entries, erc20Token: Erc20TokenV2 });
  /** One item of listTransactionsV2 (TransactionDetailsV2): E3's item with V2 ERC-20 transfers. */
  const TransactionDetailsV2 = v.object({ ...TransactionDetails.entries, erc20Transfers: v.optional(v.array(Erc20TransferV2), []) });

  /**
   * One item of listTokens: the spec's Erc721Token or Erc1155Token (a oneOf told apart
   * by `ercType`); `name` and `symbol` are the ERC-721 variant's only.
   */
  const CollectionToken = k.requires(
    v.object({
      ...Erc721Token.entries,
      name: v.optional(k.string),
      symbol: v.optional(k.string),
      ercType: k.mayBeAbsent(k.openEnum(['ERC-721', 'ERC-1155'])),
    }),
    { tag: 'ercType', byValue: { 'ERC-721': ['name', 'symbol'] } },
  );

  return {
    Erc20TokenV2,
    Erc20TransferV2,
    TransactionDetailsV2,
    CollectionToken,
    ListAddressChainsResponse: v.object({
      indexedChains: v.optional(v.array(Chain), []),
      unindexedChains: v.optional(v.array(k.string), []),
    }),
    ListContractDeploymentsResponse: pageOf(k, { contracts: v.array(ContractMetadata) }),
    ListAddressTransactionsV2Response: pageOf(k, { transactions: v.array(TransactionDetailsV2) }),
    ListCollectionTokensResponse: pageOf(k, { tokens: v.array(CollectionToken) }),
    /** reindexNft answers 201 without a body: nothing to read. */
    ReindexNftResponse: k.unknown,
  };
});

type EvmMore = ReturnType<typeof describeEvmMore>;

export type Erc20TokenV2 = v.InferOutput<EvmMore['Erc20TokenV2']>;
export type TransactionDetailsV2 = v.InferOutput<EvmMore['TransactionDetailsV2']>;
export type CollectionToken = v.InferOutput<EvmMore['CollectionToken']>;
export type ListAddressChainsResponse = v.InferOutput<EvmMore['ListAddressChainsResponse']>;
export type ListContractDeploymentsResponse = v.InferOutput<EvmMore['ListContractDeploymentsResponse']>;
export type ListAddressTransactionsV2Response = v.InferOutput<EvmMore['ListAddressTransactionsV2Response']>;
export type ListCollectionTokensResponse = v.InferOutput<EvmMore['ListCollectionTokensResponse']>;

/** listLatestBlocksAllChains' query. */
export interface ListAllChainsBlocksParams extends PageParams {
  network?: Network;
}

/** listLatestTransactionsAllChains' query. */
export interface ListAllChainsTransactionsParams extends PageParams {
  network?: Network;
  status?: TransactionStatus;
}

/** listTransactionsV2's query: E3's plus `filterSpamTokens`. */
export interface ListAddressTransactionsV2Params extends PageParams {
  startBlock?: number;
  endBlock?: number;
  sortOrder?: SortOrder;
  filterSpamTokens?: boolean;
}
