/**
 * Subnets and their blockchains (E7), with the EVM genesis of each EVM blockchain.
 *
 * The genesis DTOs have no `required` list in the public spec; the seed's own
 * enumeration (with its explicit nullable keys) is taken as required.
 */
import * as v from 'valibot';
import { pageOf, PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID, type PageParams, type SortOrder } from './common.ts';
import { perKit, type Kit } from './kit.ts';

export const describeSubnets = perKit((k: Kit) => {
  /** A precompile's allow list (tx, contract deployer, native minter, fee manager, reward manager). */
  const AllowListConfig = v.object({
    blockTimestamp: k.wideInteger,
    adminAddresses: v.array(k.string),
    managerAddresses: v.array(k.string),
    enabledAddresses: v.array(k.string),
  });

  const GenesisConfig = v.object({
    berlinBlock: k.wideInteger256,
    byzantiumBlock: k.wideInteger256,
    chainId: k.wideInteger256,
    constantinopleBlock: k.wideInteger256,
    eip150Block: k.wideInteger256,
    eip150Hash: k.string,
    eip155Block: k.wideInteger256,
    eip158Block: k.wideInteger256,
    homesteadBlock: k.wideInteger256,
    istanbulBlock: k.wideInteger256,
    londonBlock: k.wideInteger256,
    muirGlacierBlock: k.wideInteger256,
    petersburgBlock: k.wideInteger256,
    subnetEVMTimestamp: k.wideInteger,
    allowFeeRecipients: k.boolean,
    feeConfig: v.object({
      baseFeeChangeDenominator: k.wideInteger256,
      blockGasCostStep: k.wideInteger256,
      gasLimit: k.wideInteger256,
      maxBlockGasCost: k.wideInteger256,
      minBaseFee: k.wideInteger256,
      minBlockGasCost: k.wideInteger256,
      targetBlockRate: k.wideInteger256,
      targetGas: k.wideInteger256,
    }),
    warpConfig: v.object({ blockTimestamp: k.wideInteger, quorumNumerator: k.int32, requirePrimaryNetworkSigners: k.boolean }),
    txAllowListConfig: AllowListConfig,
    contractDeployerAllowListConfig: AllowListConfig,
    contractNativeMinterConfig: AllowListConfig,
    feeManagerConfig: AllowListConfig,
    rewardManagerConfig: AllowListConfig,
  });

  /**
   * The seed names the nullable keys but not their non-null type; the public spec
   * (EvmGenesisDto) gives a number for `airdropAmount` / `baseFeePerGas` and a
   * string for the blob gas fields. Every other key is a hex string.
   */
  const GenesisData = v.object({
    airdropAmount: v.nullable(k.wideInteger256),
    airdropHash: k.hex,
    alloc: v.record(v.string(), v.object({ balance: k.hex, code: k.hex, storage: v.record(v.string(), k.string) })),
    baseFeePerGas: v.nullable(k.wideInteger256),
    blobGasUsed: v.nullable(k.hex),
    coinbase: k.hex,
    config: GenesisConfig,
    difficulty: k.hex,
    excessBlobGas: v.nullable(k.hex),
    extraData: k.hex,
    gasLimit: k.hex,
    gasUsed: k.hex,
    mixHash: k.hex,
    nonce: k.hex,
    number: k.hex,
    parentHash: k.hex,
    timestamp: k.hex,
  });

  /** `evmChainId` and `genesisData` are optional in the public spec (P- and X-chains have neither). */
  const Blockchain = v.object({
    createBlockTimestamp: k.wideInteger,
    createBlockNumber: k.decimal,
    blockchainId: k.string,
    vmId: k.string,
    subnetId: k.string,
    blockchainName: k.string,
    evmChainId: v.optional(k.wideInteger256),
    /** An object for EVM chains; the public spec allows an encoded string for other VMs. */
    genesisData: v.optional(k.readAlso(GenesisData, v.string())),
  });

  const Subnet = v.object({
    createBlockTimestamp: k.wideInteger,
    createBlockIndex: k.decimal,
    subnetId: k.string,
    ownerAddresses: v.array(k.string),
    threshold: k.wideInteger,
    locktime: k.wideInteger,
    subnetOwnershipInfo: v.object({ locktime: k.wideInteger, threshold: k.wideInteger, addresses: v.array(k.string) }),
    isL1: k.boolean,
    l1ConversionTransactionHash: v.optional(k.string),
    l1ValidatorManagerDetails: v.optional(v.object({ blockchainId: k.string, contractAddress: k.string })),
    blockchains: v.array(Blockchain),
  });

  return {
    AllowListConfig,
    GenesisConfig,
    GenesisData,
    Blockchain,
    Subnet,
    ListSubnetsResponse: pageOf(k, { subnets: v.array(Subnet) }),
  };
});

type Subnets = ReturnType<typeof describeSubnets>;

export type AllowListConfig = v.InferOutput<Subnets['AllowListConfig']>;
export type GenesisConfig = v.InferOutput<Subnets['GenesisConfig']>;
export type GenesisData = v.InferOutput<Subnets['GenesisData']>;
export type Blockchain = v.InferOutput<Subnets['Blockchain']>;
export type Subnet = v.InferOutput<Subnets['Subnet']>;
export type ListSubnetsResponse = v.InferOutput<Subnets['ListSubnetsResponse']>;

export type ListSubnetsParams = PageParams & { sortOrder?: SortOrder };

/** VM ids of the primary network's chains, as a node lists them (`info.getVMs`: the VM's name, zero-padded, in cb58). */
export const PRIMARY_VM_IDS = {
  platform: 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT',
  avm: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
  evm: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6',
} as const;

/** The EVM chain id of each network's C-Chain. */
export const C_CHAIN_EVM_IDS = { mainnet: 43114, fuji: 43113 } as const;

/**
 * The primary network as a Subnet with its three chains. E7 does not list it, yet every
 * primary-network validation points at it (`subnetId` 111...LpoYY): the gateway answers
 * it from this record, and the devnet builds its own from it (`createdAt`: its genesis).
 */
export function primaryNetworkSubnet(network: keyof typeof PRIMARY_CHAIN_IDS, createdAt = 0): Subnet {
  const ids = PRIMARY_CHAIN_IDS[network];
  const chain = (blockchainId: string, vmId: string, blockchainName: string, evmChainId?: number): Blockchain => ({
    createBlockTimestamp: createdAt,
    createBlockNumber: '0',
    blockchainId,
    vmId,
    subnetId: PRIMARY_NETWORK_ID,
    blockchainName,
    ...(evmChainId === undefined ? {} : { evmChainId }),
  });
  return {
    createBlockTimestamp: createdAt,
    createBlockIndex: '0',
    subnetId: PRIMARY_NETWORK_ID,
    ownerAddresses: [],
    threshold: 0,
    locktime: 0,
    subnetOwnershipInfo: { locktime: 0, threshold: 0, addresses: [] },
    isL1: false,
    blockchains: [
      chain(ids.p, PRIMARY_VM_IDS.platform, 'P-Chain'),
      chain(ids.x, PRIMARY_VM_IDS.avm, 'X-Chain'),
      chain(ids.c, PRIMARY_VM_IDS.evm, 'C-Chain', C_CHAIN_EVM_IDS[network]),
    ],
  };
}
