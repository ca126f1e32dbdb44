import { PRIMARY_NETWORK_ID } from '../../shapes/index.ts';
import type { DevnetNetwork, NodeDataView } from '../node-view.ts';
import { createEvmData, type EvmChainSeed, type EvmData } from './evm/index.ts';
import { C_CHAIN_EVM_IDS, createPrimaryData, VM_IDS, type PrimaryData, type PrimaryFixtures } from './primary/index.ts';

export type { PrimaryData, PrimaryFixtures } from './primary/index.ts';

export const DEVNET_NETWORKS: readonly DevnetNetwork[] = ['mainnet', 'fuji'];

export interface DatasetOptions {
  /** Seed of every generated value: same seed, same dataset. */
  seed: number;
  /** Validations per network (primary and subnet validators together). */
  validatorsPerNetwork: number;
  /** Clock in ms since epoch; statuses are fixed at creation, blocks and progress follow it. */
  now: () => number;
  /** The clock staking records move by (validations and delegations starting and ending); default `now`. */
  stakingNow?: () => number;
}

/** One network's entry of `GET /__devnet/fixtures`. */
export type NetworkFixtures = ReturnType<EvmData['fixtures']> & PrimaryFixtures;
export type Fixtures = Record<DevnetNetwork, NetworkFixtures>;

export interface Dataset {
  readonly seed: number;
  readonly now: () => number;
  /** What the node simulator sees of the data (peers = active validators, chains, subnets). */
  readonly nodeView: NodeDataView;
  readonly primary: Record<DevnetNetwork, PrimaryData>;
  readonly evm: Record<DevnetNetwork, EvmData>;
  /** Sample identifiers per network with data behind them. */
  fixtures(): Fixtures;
}

/** The Data API's `network` values: `testnet` is an alias of `fuji`. */
export function devnetNetworkOf(name: string): DevnetNetwork | undefined {
  if (name === 'mainnet') return 'mainnet';
  if (name === 'fuji' || name === 'testnet') return 'fuji';
  return undefined;
}

export function createDataset(opts: DatasetOptions): Dataset {
  // EVM chain ids are global (`/v1/chains/{chainId}` has no network), so both networks draw from one set.
  const usedEvmChainIds = new Set<number>([C_CHAIN_EVM_IDS.mainnet, C_CHAIN_EVM_IDS.fuji]);
  const primary = {} as Record<DevnetNetwork, PrimaryData>;
  const evm = {} as Record<DevnetNetwork, EvmData>;
  for (const network of DEVNET_NETWORKS) {
    const data = createPrimaryData({ network, seed: opts.seed, validators: opts.validatorsPerNetwork, now: opts.now, ...(opts.stakingNow ? { stakingNow: opts.stakingNow } : {}), usedEvmChainIds });
    primary[network] = data;
    const chains: EvmChainSeed[] = [
      {
        evmChainId: C_CHAIN_EVM_IDS[network],
        blockchainId: data.chainIds.c,
        subnetId: PRIMARY_NETWORK_ID,
        vmId: VM_IDS.evm,
        name: 'C-Chain',
        isCChain: true,
      },
      ...data.subnetChains.flatMap((c) =>
        c.evmChainId === undefined
          ? []
          : [{ evmChainId: c.evmChainId, blockchainId: c.blockchainId, subnetId: c.subnetId, vmId: c.vmId, name: c.name, isCChain: false }],
      ),
    ];
    evm[network] = createEvmData({ network, chains, seed: opts.seed, now: opts.now });
  }

  const nodeView: NodeDataView = {
    activeValidatorNodeIds: (network) => primary[network].activeValidatorNodeIds(),
    blockchains: (network) => primary[network].devnetBlockchains(),
    subnetIds: (network) => primary[network].subnetIds(),
  };

  // The primary fixtures scan the data once; the EVM half is asked each time (its operations change).
  const primaryFixtures = new Map<DevnetNetwork, PrimaryFixtures>();
  const fixturesOf = (network: DevnetNetwork): NetworkFixtures => {
    let own = primaryFixtures.get(network);
    if (!own) {
      own = primary[network].fixtures();
      primaryFixtures.set(network, own);
    }
    return { ...evm[network].fixtures(), ...own };
  };
  return {
    seed: opts.seed,
    now: opts.now,
    nodeView,
    primary,
    evm,
    fixtures: () => ({ mainnet: fixturesOf('mainnet'), fuji: fixturesOf('fuji') }),
  };
}
