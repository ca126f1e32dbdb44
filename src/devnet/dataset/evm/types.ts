import type { DevnetNetwork } from '../../node-view.ts';

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
  /** Touched by the first transaction of every new block of every chain (with `activityPeerAddress`, its counterparty). */
  activityAddress: string;
  activityPeerAddress: string;
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

export interface CreateEvmDataInput {
  network: EvmNetwork;
  /** The C-chain and every EVM subnet chain of the network. */
  chains: EvmChainSeed[];
  seed: number;
  /** Clock in ms since epoch. */
  now: () => number;
}
