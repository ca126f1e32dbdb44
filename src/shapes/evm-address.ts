/**
 * The token side of an EVM address, from the public spec (the seed does not describe
 * these): its ERC-20 and ERC-721 balances and its collectibles (listErc20Balances,
 * listErc721Balances, listCollectibleBalances), and its ERC-20/721/1155 transfers and
 * internal transactions, each with its block and transaction (listErc20Transactions,
 * listErc721Transactions, listErc1155Transactions, listInternalTransactions).
 * Tokens inside them are the same descriptions as in a transaction's transfers.
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type CurrencyCode, type PageParams } from './common.ts';
import { describeEvm } from './evm.ts';
import { perKit, type Kit } from './kit.ts';

/** `tokenReputation` of an ERC-20 balance (nullable in the spec: no verdict). */
export const TOKEN_REPUTATIONS = ['Malicious', 'Benign'] as const;

export const describeEvmAddress = perKit((k: Kit) => {
  const { AddressInfo, Price } = describeCommon(k);
  const { Erc20Token, Erc721Token, Erc1155Token, NativeTokenBalance, InternalTransaction } = describeEvm(k);

  const Erc20TokenBalance = v.object({
    ...Erc20Token.entries,
    chainId: k.string,
    balance: k.decimal,
    balanceValue: v.optional(Price),
    tokenReputation: k.mayBeAbsent(v.nullable(k.openEnum(TOKEN_REPUTATIONS))),
  });
  const Erc721TokenBalance = v.object({ ...Erc721Token.entries, chainId: k.string });

  /**
   * One collectible: the spec's oneOf(Erc721TokenBalance, Erc1155TokenBalance) told apart
   * by `ercType`, read as one object whose kind-specific fields are optional (the strict
   * build requires them by `ercType`).
   */
  const CollectibleBalance = k.requires(
    v.object({
      ...Erc1155Token.entries,
      ercType: k.mayBeAbsent(k.openEnum(['ERC-721', 'ERC-1155'])),
      chainId: k.string,
      /** ERC-721 only. */
      name: v.optional(k.string),
      /** ERC-721 only. */
      symbol: v.optional(k.string),
      /** ERC-721 only. */
      ownerAddress: v.optional(k.string),
      /** ERC-1155 only. */
      balance: v.optional(k.decimal),
    }),
    { tag: 'ercType', byValue: { 'ERC-721': ['name', 'symbol'], 'ERC-1155': ['balance'] } },
  );

  /** What every transfer listing item carries about where it happened. */
  const placed = {
    blockNumber: k.decimal64,
    blockTimestamp: k.wideInteger,
    blockTimestampMilliseconds: v.optional(k.wideInteger),
    blockHash: k.string,
    txHash: k.string,
  };
  const AddressErc20Transfer = v.object({ ...placed, from: AddressInfo, to: AddressInfo, logIndex: k.int32, value: k.decimal, erc20Token: Erc20Token });
  const AddressErc721Transfer = v.object({ ...placed, from: AddressInfo, to: AddressInfo, logIndex: k.int32, erc721Token: Erc721Token });
  const AddressErc1155Transfer = v.object({ ...placed, from: AddressInfo, to: AddressInfo, logIndex: k.int32, value: k.decimal, erc1155Token: Erc1155Token });
  const AddressInternalTransaction = v.object({ ...placed, ...InternalTransaction.entries });

  return {
    Erc20TokenBalance,
    Erc721TokenBalance,
    CollectibleBalance,
    AddressErc20Transfer,
    AddressErc721Transfer,
    AddressErc1155Transfer,
    AddressInternalTransaction,
    ListErc20BalancesResponse: pageOf(k, { nativeTokenBalance: NativeTokenBalance, erc20TokenBalances: v.array(Erc20TokenBalance) }),
    ListErc721BalancesResponse: pageOf(k, { nativeTokenBalance: NativeTokenBalance, erc721TokenBalances: v.array(Erc721TokenBalance) }),
    ListCollectibleBalancesResponse: pageOf(k, { collectibleBalances: v.array(CollectibleBalance) }),
    ListErc20TransfersResponse: pageOf(k, { transactions: v.array(AddressErc20Transfer) }),
    ListErc721TransfersResponse: pageOf(k, { transactions: v.array(AddressErc721Transfer) }),
    ListErc1155TransfersResponse: pageOf(k, { transactions: v.array(AddressErc1155Transfer) }),
    ListInternalTransactionsResponse: pageOf(k, { transactions: v.array(AddressInternalTransaction) }),
  };
});

type EvmAddress = ReturnType<typeof describeEvmAddress>;

export type TokenReputation = (typeof TOKEN_REPUTATIONS)[number];
export type Erc20TokenBalance = v.InferOutput<EvmAddress['Erc20TokenBalance']>;
export type Erc721TokenBalance = v.InferOutput<EvmAddress['Erc721TokenBalance']>;
export type CollectibleBalance = v.InferOutput<EvmAddress['CollectibleBalance']>;
export type AddressErc20Transfer = v.InferOutput<EvmAddress['AddressErc20Transfer']>;
export type AddressErc721Transfer = v.InferOutput<EvmAddress['AddressErc721Transfer']>;
export type AddressErc1155Transfer = v.InferOutput<EvmAddress['AddressErc1155Transfer']>;
export type AddressInternalTransaction = v.InferOutput<EvmAddress['AddressInternalTransaction']>;
export type ListErc20BalancesResponse = v.InferOutput<EvmAddress['ListErc20BalancesResponse']>;
export type ListErc721BalancesResponse = v.InferOutput<EvmAddress['ListErc721BalancesResponse']>;
export type ListCollectibleBalancesResponse = v.InferOutput<EvmAddress['ListCollectibleBalancesResponse']>;
export type ListErc20TransfersResponse = v.InferOutput<EvmAddress['ListErc20TransfersResponse']>;
export type ListErc721TransfersResponse = v.InferOutput<EvmAddress['ListErc721TransfersResponse']>;
export type ListErc1155TransfersResponse = v.InferOutput<EvmAddress['ListErc1155TransfersResponse']>;
export type ListInternalTransactionsResponse = v.InferOutput<EvmAddress['ListInternalTransactionsResponse']>;

/** listErc20Balances's query. */
export interface ListErc20BalancesParams extends PageParams {
  blockNumber?: string;
  filterSpamTokens?: boolean;
  /** Sent as a comma-separated list. */
  contractAddresses?: readonly string[];
  currency?: CurrencyCode;
}

/** listErc721Balances's and listCollectibleBalances's query. */
export interface ListNftBalancesParams extends PageParams {
  contractAddress?: string;
}

/** The query of the four transfer listings (block numbers: `startBlock` inclusive, `endBlock` exclusive). */
export interface ListAddressTransfersParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
}
