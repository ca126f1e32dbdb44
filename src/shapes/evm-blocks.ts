/**
 * EVM blocks, the latest transactions of a chain, contract metadata and a token
 * contract's transfers: the spec's getLatestBlocks, getBlock, getTransactionsForBlock,
 * listLatestTransactions, getContractMetadata and listTransfers (getChainInfo answers
 * the E17 `Chain` object, getTransactionsForBlock and listLatestTransactions E9's page).
 */
import * as v from 'valibot';
import { describeCommon, pageOf, type PageParams } from './common.ts';
import { describeEvm } from './evm.ts';
import { perKit, type Kit } from './kit.ts';

/** `ercType` of getContractMetadata's four variants (Erc20Contract, Erc721Contract, Erc1155Contract, UnknownContract). */
export const CONTRACT_ERC_TYPES = ['ERC-20', 'ERC-721', 'ERC-1155', 'UNKNOWN'] as const;
export type ContractErcType = (typeof CONTRACT_ERC_TYPES)[number];

/** The spec's TransactionStatus: listLatestTransactions' `status` filter. */
export const TRANSACTION_STATUSES = ['failed', 'success'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** The spec's ResourceLinkType. */
export const RESOURCE_LINK_TYPES = [
  'Blog', 'CoinGecko', 'CoinMarketCap', 'Discord', 'Documentation', 'Facebook', 'Github', 'Instagram', 'LinkedIn',
  'Medium', 'Reddit', 'Support', 'Telegram', 'TikTok', 'Twitter', 'Website', 'Whitepaper', 'Youtube',
] as const;

export const describeEvmBlocks = perKit((k: Kit) => {
  const { AddressInfo } = describeCommon(k);
  const { Erc20Token, Erc721Token, Erc1155Token } = describeEvm(k);

  /** getLatestBlocks' items and getBlock's answer (EvmBlock, GetEvmBlockResponse: the same fields). */
  const EvmBlock = v.object({
    chainId: k.string,
    // Served as UInt64, as every EVM block number of these listings.
    blockNumber: k.decimal64,
    blockTimestamp: k.wideInteger,
    /** After the Granite upgrade only. */
    blockTimestampMilliseconds: v.optional(k.wideInteger),
    /** After the Granite upgrade only. */
    blockMinDelayExcess: v.optional(k.number),
    blockHash: k.string,
    txCount: k.int32,
    baseFee: k.decimal,
    gasUsed: k.decimal,
    gasLimit: k.decimal,
    gasCost: k.decimal,
    parentHash: k.string,
    feesSpent: k.decimal,
    cumulativeTransactions: k.decimal64,
  });

  const ImageAsset = v.object({ assetId: v.optional(k.string), imageUri: v.optional(k.string) });
  const ResourceLink = v.object({ type: k.openEnum(RESOURCE_LINK_TYPES), url: k.string });
  const ContractDeploymentDetails = v.object({
    txHash: k.string,
    deployerAddress: k.string,
    deployerContractAddress: v.optional(k.string),
  });
  /**
   * getContractMetadata: one description for the four variants, told apart by
   * `ercType`. `decimals` is the ERC-20 variant's (required there), `pricingProviders`
   * the ERC-20 and ERC-1155 variants', `symbol` all but UNKNOWN's.
   */
  const ContractMetadata = k.requires(
    v.object({
      address: k.string,
      ercType: k.openEnum(CONTRACT_ERC_TYPES),
      name: v.optional(k.string),
      symbol: v.optional(k.string),
      decimals: v.optional(k.int32),
      description: v.optional(k.string),
      officialSite: v.optional(k.string),
      email: v.optional(k.string),
      logoAsset: v.optional(ImageAsset),
      bannerAsset: v.optional(ImageAsset),
      color: v.optional(k.string),
      resourceLinks: v.optional(v.array(ResourceLink)),
      tags: v.optional(v.array(k.string)),
      deploymentDetails: v.optional(ContractDeploymentDetails),
      pricingProviders: v.optional(v.object({ coingeckoCoinId: v.optional(k.string) })),
    }),
    { tag: 'ercType', byValue: { 'ERC-20': ['decimals'] } },
  );

  /**
   * One item of listTransfers: the spec's Erc20Transfer, Erc721Transfer or
   * Erc1155Transfer (no discriminator: the token field present tells which), with
   * the block and transaction it happened in. `value` is absent for ERC-721.
   */
  const ContractTransfer = v.object({
    blockNumber: k.decimal64,
    blockTimestamp: k.wideInteger,
    blockTimestampMilliseconds: v.optional(k.wideInteger),
    blockHash: k.string,
    txHash: k.string,
    from: AddressInfo,
    to: AddressInfo,
    logIndex: k.int32,
    value: v.optional(k.decimal),
    erc20Token: v.optional(Erc20Token),
    erc721Token: v.optional(Erc721Token),
    erc1155Token: v.optional(Erc1155Token),
  });

  return {
    EvmBlock,
    ImageAsset,
    ResourceLink,
    ContractDeploymentDetails,
    ContractMetadata,
    ContractTransfer,
    ListEvmBlocksResponse: pageOf(k, { blocks: v.array(EvmBlock) }),
    ListContractTransfersResponse: pageOf(k, { transfers: v.array(ContractTransfer) }),
  };
});

type EvmBlocks = ReturnType<typeof describeEvmBlocks>;

export type EvmBlock = v.InferOutput<EvmBlocks['EvmBlock']>;
export type ImageAsset = v.InferOutput<EvmBlocks['ImageAsset']>;
export type ResourceLink = v.InferOutput<EvmBlocks['ResourceLink']>;
export type ContractDeploymentDetails = v.InferOutput<EvmBlocks['ContractDeploymentDetails']>;
export type ContractMetadata = v.InferOutput<EvmBlocks['ContractMetadata']>;
export type ContractTransfer = v.InferOutput<EvmBlocks['ContractTransfer']>;
export type ListEvmBlocksResponse = v.InferOutput<EvmBlocks['ListEvmBlocksResponse']>;
export type ListContractTransfersResponse = v.InferOutput<EvmBlocks['ListContractTransfersResponse']>;

/** getLatestBlocks' query. */
export type ListEvmBlocksParams = PageParams;

/** getTransactionsForBlock's query. */
export type ListBlockTransactionsParams = PageParams;

/** listLatestTransactions' query. */
export interface ListLatestTransactionsParams extends PageParams {
  status?: TransactionStatus;
}

/** listTransfers' query: `startBlock` inclusive, `endBlock` exclusive. */
export interface ListContractTransfersParams extends PageParams {
  startBlock?: number;
  endBlock?: number;
}
