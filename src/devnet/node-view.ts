/** The devnet networks (the Data API's `testnet` is an alias of `fuji`). */
export type DevnetNetwork = 'mainnet' | 'fuji';

export interface DevnetBlockchain {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  name: string;
  /** Chain aliases the node knows, e.g. `['P', 'platform']` for the P-chain. */
  aliases: string[];
}

/**
 * What the simulated node needs to know of the generated dataset, so that the
 * node API agrees with the Data API (peers are validators, chains exist).
 */
export interface NodeDataView {
  /** Node ids of the network's active primary-network validators: the node's peers. */
  activeValidatorNodeIds(network: DevnetNetwork): readonly string[];
  /** The network's blockchains: P, X, C (aliases `P`/`platform`, `X`/`avm`, `C`/`evm`) and subnet chains. */
  blockchains(network: DevnetNetwork): readonly DevnetBlockchain[];
  /** Subnet ids on the network (tracked subnets, health tags). */
  subnetIds(network: DevnetNetwork): readonly string[];
}
