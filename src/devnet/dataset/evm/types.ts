import type {
  Chain,
  CurrencyCode,
  Erc1155TokenBalance,
  ExportOperation,
  FullTransaction,
  IcmMessage,
  NativeTokenBalance,
  NativeTransaction,
  NftToken,
  TransactionDetails,
} from '../../../shapes/index.ts';
import type { DevnetNetwork } from '../../node-view.ts';
// EVM address tokens
import type { AddressTokensData } from './balances.ts';
import type { EvmBlocksData } from './blocks.ts';

// The public types of the devnet's EVM data (what the routes and the dataset see).

export interface EvmChainSeed {
  evmChainId: number;
  blockchainId: string;
  subnetId: string;
  vmId: string;
  name: string;
  isCChain: boolean;
}

/** The devnet's networks, as the EVM data names them. */
export type EvmNetwork = DevnetNetwork;

export interface EvmFixtures {
  evmChainId: string;
  address: string;
  contractAddress: string;
  nftContract: string;
  nftTokenId: string;
  txHash: string;
  icmAddress: string;
  operationId: string;
  /** The C-chain's blockchain id (an alias of `evmChainId` in `/v1/chains/{chainId}`). */
  blockchainId: string;
  /** An ERC-1155 collection and a token of it that `address` holds. */
  erc1155Contract: string;
  erc1155TokenId: string;
  /** The deployment transaction of `contractAddress` (sent by `address`). */
  deploymentTxHash: string;
  /** Also, when the network has them: `icmSourceTxHash` + `icmSourceEvmChainId`, `subnetEvmChainId`. */
  [k: string]: string;
}

export interface BlockRange {
  /** Inclusive. */
  startBlock?: number;
  /** Exclusive. */
  endBlock?: number;
}

/** The validated body of `POST /v1/operations/transactions:export`. */
export interface ExportRequest {
  type: string;
  firstDate?: string;
  lastDate?: string;
  addresses: string[];
  includeChains: string[];
  /** Set by the caller when the request names chains the dataset does not have: the operation then FAILs. */
  unknownChains?: string[];
}

export interface EvmData {
  readonly network: EvmNetwork;
  /** E17 objects of this network, C-chain first. */
  chains(): readonly Chain[];
  /** True when `chainId` is one of this network's EVM chain ids or blockchain ids. */
  hasChain(chainId: string): boolean;
  /** The chain's latest block number at `now()`; undefined for an unknown chain. */
  latestBlock(chainId: string): number | undefined;
  /** E3 items (address-scoped views) in the block range, ascending by timestamp. */
  addressTransactions(chainId: string, address: string, range: BlockRange): TransactionDetails[] | undefined;
  /** E9 items: transactions the address sent or received natively, ascending by timestamp. */
  nativeTransactions(chainId: string, address: string, range: BlockRange): NativeTransaction[] | undefined;
  /** E14 / E10: the native balance at `blockNumber` (default latest). */
  nativeBalance(chainId: string, address: string, blockNumber: number | undefined, currency: CurrencyCode): NativeTokenBalance | undefined;
  /** E10: ERC-1155 balances held at `blockNumber` (default latest), optionally of one contract. */
  erc1155Balances(chainId: string, address: string, blockNumber: number | undefined, contractAddress?: string): Erc1155TokenBalance[] | undefined;
  /** E6: the contract's deployment transaction; undefined when the chain or contract is unknown. */
  deployment(chainId: string, contractAddress: string, currency: CurrencyCode): FullTransaction | undefined;
  /** The complete view of one transaction; undefined when the chain or hash is unknown. */
  transaction(chainId: string, txHash: string, currency: CurrencyCode): FullTransaction | undefined;
  /** E19: undefined when the chain, collection or token id is unknown. */
  nftToken(chainId: string, contractAddress: string, tokenId: string): NftToken | undefined;
  /** E16: messages where the address is sender or recipient, newest first. */
  icmMessages(address: string): IcmMessage[];
  /** E5: starts an export operation (RUNNING). */
  createExport(request: ExportRequest): ExportOperation;
  /** `GET /v1/operations/{id}`: the operation as of `now()`. */
  operation(operationId: string): ExportOperation | undefined;
  fixtures(): EvmFixtures;
  /** An address's token transfers and internal transactions, and the balances summed from them. */
  readonly addressTokens: AddressTokensData;
  /** Blocks, their transactions and transfers, and contract metadata. */
  readonly blocks: EvmBlocksData;
}

export interface CreateEvmDataInput {
  network: EvmNetwork;
  /** The C-chain and every EVM subnet chain of the network. */
  chains: EvmChainSeed[];
  seed: number;
  /** Clock in ms since epoch. */
  now: () => number;
}
