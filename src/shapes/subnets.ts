/**
 * Subnets and their blockchains (E7), with the EVM genesis of each EVM blockchain.
 *
 * The genesis DTOs have no `required` list in the public spec; the seed's own
 * enumeration (with its explicit nullable keys) is taken as required.
 */
import * as v from 'valibot';
import { pageOf, type PageParams, type SortOrder } from './common.ts';
import { perKit, type Kit } from './kit.ts';

export const describeSubnets = perKit((k: Kit) => {
  /** A precompile's allow list (tx, contract deployer, native minter, fee manager, reward manager). */
  const AllowListConfig = v.object({
    blockTimestamp: k.integer,
    adminAddresses: v.array(k.string),
    managerAddresses: v.array(k.string),
    enabledAddresses: v.array(k.string),
  });

  const GenesisConfig = v.object({
    berlinBlock: k.integer,
    byzantiumBlock: k.integer,
    chainId: k.integer,
    constantinopleBlock: k.integer,
    eip150Block: k.integer,
    eip150Hash: k.string,
    eip155Block: k.integer,
    eip158Block: k.integer,
    homesteadBlock: k.integer,
    istanbulBlock: k.integer,
    londonBlock: k.integer,
    muirGlacierBlock: k.integer,
    petersburgBlock: k.integer,
    subnetEVMTimestamp: k.integer,
    allowFeeRecipients: k.boolean,
    feeConfig: v.object({
      baseFeeChangeDenominator: k.integer,
      blockGasCostStep: k.integer,
      gasLimit: k.integer,
      maxBlockGasCost: k.integer,
      minBaseFee: k.integer,
      minBlockGasCost: k.integer,
      targetBlockRate: k.integer,
      targetGas: k.integer,
    }),
    warpConfig: v.object({ blockTimestamp: k.integer, quorumNumerator: k.integer, requirePrimaryNetworkSigners: k.boolean }),
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
    airdropAmount: v.nullable(k.number),
    airdropHash: k.hex,
    alloc: v.record(v.string(), v.object({ balance: k.hex, code: k.hex, storage: v.record(v.string(), k.string) })),
    baseFeePerGas: v.nullable(k.number),
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
    createBlockTimestamp: k.integer,
    createBlockNumber: k.decimal,
    blockchainId: k.string,
    vmId: k.string,
    subnetId: k.string,
    blockchainName: k.string,
    evmChainId: v.optional(k.integer),
    /** An object for EVM chains; the public spec allows an encoded string for other VMs. */
    genesisData: v.optional(k.readAlso(GenesisData, v.string())),
  });

  const Subnet = v.object({
    createBlockTimestamp: k.integer,
    createBlockIndex: k.decimal,
    subnetId: k.string,
    ownerAddresses: v.array(k.string),
    threshold: k.integer,
    locktime: k.integer,
    subnetOwnershipInfo: v.object({ locktime: k.integer, threshold: k.integer, addresses: v.array(k.string) }),
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
