import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import {
  BLOCKCHAIN_LISTING_COST, blockchainById, blockchainLookup, blockchainPages, subnetById, subnetLookup, SUBNET_LIST_COST, SUBNET_LIST_NOTE, SUBNET_LISTING_COST,
  SUBNET_LOOKUP_COST, subnetPages, subnetRefetchCalls,
} from '../loaders/subnets.ts';
import { VALIDATOR_LISTING_COST } from '../loaders/staking.ts';
import type { NetworkId } from '../loaders/types.ts';
import { PRIMARY_NETWORK_ID, type AllowListConfig, type GenesisConfig, type GenesisData, withFields } from '../shapes/index.ts';
import { ChainRef } from './chains.ts';
import { pageArgs, resolvePageConnection } from './connection.ts';
import { SortOrderEnum } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { BlockchainRef, SubnetRef, type BlockchainShape, type SubnetShape } from './subnet-refs.ts';
import { checkValidatorArgs, resolveValidators, ValidatorConnection, ValidatorInterface, validatorListArgs, type ValidatorListArgs } from './validators.ts';
import { unixSecondsToDate } from './scalars.ts';

export { BlockchainRef, SubnetRef, type BlockchainShape, type SubnetShape };

const isNetwork = (value: string | undefined): value is NetworkId => value === 'mainnet' || value === 'fuji';

// ---------------------------------------------------------------- EVM genesis

const AllowListConfigRef = builder.objectRef<AllowListConfig>('GenesisAllowListConfig').implement({
  description: 'A precompile configured at genesis: when it activates and who may use or manage it.',
  fields: (t) => ({
    blockTimestamp: t.expose('blockTimestamp', { type: 'UInt64', nullable: true, description: 'Activation time, unix seconds.' }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'Activation time: `blockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.blockTimestamp) }),
    adminAddresses: t.expose('adminAddresses', { type: ['EvmAddress'], nullable: true, description: 'Admin addresses.' }),
    managerAddresses: t.expose('managerAddresses', { type: ['EvmAddress'], nullable: true, description: 'Manager addresses.' }),
    enabledAddresses: t.expose('enabledAddresses', { type: ['EvmAddress'], nullable: true, description: 'Enabled addresses.' }),
  }),
});

const FeeConfigRef = builder.objectRef<GenesisConfig['feeConfig']>('GenesisFeeConfig').implement({
  description: "The chain's dynamic fee configuration at genesis.",
  fields: (t) => {
    const quantity = (name: keyof GenesisConfig['feeConfig'], description: string) =>
      t.field({ type: 'UInt256', nullable: true, description, resolve: (f) => f[name] ?? null });
    return {
      baseFeeChangeDenominator: quantity('baseFeeChangeDenominator', 'Base fee change denominator.'),
      blockGasCostStep: quantity('blockGasCostStep', 'Block gas cost step.'),
      gasLimit: quantity('gasLimit', 'Block gas limit.'),
      maxBlockGasCost: quantity('maxBlockGasCost', 'Maximum block gas cost.'),
      minBaseFee: quantity('minBaseFee', 'Minimum base fee, wei.'),
      minBlockGasCost: quantity('minBlockGasCost', 'Minimum block gas cost.'),
      targetBlockRate: quantity('targetBlockRate', 'Target block rate, seconds.'),
      targetGas: quantity('targetGas', 'Target gas per fee window.'),
    };
  },
});

const WarpConfigRef = builder.objectRef<GenesisConfig['warpConfig']>('GenesisWarpConfig').implement({
  description: 'Warp (ICM) messaging configuration at genesis.',
  fields: (t) => ({
    blockTimestamp: t.expose('blockTimestamp', { type: 'UInt64', nullable: true, description: 'Activation time, unix seconds.' }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'Activation time: `blockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.blockTimestamp) }),
    quorumNumerator: t.exposeInt('quorumNumerator', { nullable: true, description: 'Share of stake (percent) that must sign a message.' }),
    requirePrimaryNetworkSigners: t.exposeBoolean('requirePrimaryNetworkSigners', {
      nullable: true,
      description: 'Whether messages from the primary network must be signed by primary-network validators.',
    }),
  }),
});

const GenesisConfigRef = builder.objectRef<GenesisConfig>('EvmGenesisConfig').implement({
  description: "The chain config of an EVM genesis: fork activation blocks, fees, Warp and precompiles.",
  fields: (t) => {
    const forkBlock = (name: keyof GenesisConfig, fork: string) =>
      t.field({ type: 'UInt256', nullable: true, description: `Block at which ${fork} activates.`, resolve: (c) => (c[name] as number | undefined) ?? null });
    const allowList = (name: keyof GenesisConfig, what: string) =>
      t.field({ type: AllowListConfigRef, nullable: true, description: `The ${what} precompile.`, resolve: (c) => (c[name] as AllowListConfig | undefined) ?? null });
    return {
      chainId: t.field({ type: 'UInt256', nullable: true, description: 'EVM chain id.', resolve: (c) => c.chainId ?? null }),
      homesteadBlock: forkBlock('homesteadBlock', 'Homestead'),
      eip150Block: forkBlock('eip150Block', 'EIP-150'),
      eip150Hash: t.exposeString('eip150Hash', { nullable: true, description: 'EIP-150 fork block hash.' }),
      eip155Block: forkBlock('eip155Block', 'EIP-155'),
      eip158Block: forkBlock('eip158Block', 'EIP-158'),
      byzantiumBlock: forkBlock('byzantiumBlock', 'Byzantium'),
      constantinopleBlock: forkBlock('constantinopleBlock', 'Constantinople'),
      petersburgBlock: forkBlock('petersburgBlock', 'Petersburg'),
      istanbulBlock: forkBlock('istanbulBlock', 'Istanbul'),
      muirGlacierBlock: forkBlock('muirGlacierBlock', 'Muir Glacier'),
      berlinBlock: forkBlock('berlinBlock', 'Berlin'),
      londonBlock: forkBlock('londonBlock', 'London'),
      subnetEVMTimestamp: t.expose('subnetEVMTimestamp', { type: 'UInt64', nullable: true, description: 'Subnet-EVM activation time, unix seconds.' }),
      subnetEVMTime: t.field({ type: 'DateTime', nullable: true, description: 'Subnet-EVM activation time: `subnetEVMTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.subnetEVMTimestamp) }),
      allowFeeRecipients: t.exposeBoolean('allowFeeRecipients', { nullable: true, description: 'Whether block producers may set their own fee recipient.' }),
      feeConfig: t.field({ type: FeeConfigRef, nullable: true, description: 'Dynamic fee configuration.', resolve: (c) => c.feeConfig ?? null }),
      warpConfig: t.field({ type: WarpConfigRef, nullable: true, description: 'Warp messaging configuration.', resolve: (c) => c.warpConfig ?? null }),
      txAllowListConfig: allowList('txAllowListConfig', 'transaction allow-list'),
      contractDeployerAllowListConfig: allowList('contractDeployerAllowListConfig', 'contract-deployer allow-list'),
      contractNativeMinterConfig: allowList('contractNativeMinterConfig', 'native minter'),
      feeManagerConfig: allowList('feeManagerConfig', 'fee manager'),
      rewardManagerConfig: allowList('rewardManagerConfig', 'reward manager'),
    };
  },
});

interface GenesisAllocation {
  address: string;
  balance?: string;
  code?: string;
  storage?: Record<string, string>;
}

const GenesisAllocationRef = builder.objectRef<GenesisAllocation>('GenesisAllocation').implement({
  description: 'An account funded (or a contract deployed) at genesis.',
  fields: (t) => ({
    address: t.exposeString('address', { description: 'The account address.' }),
    balance: t.exposeString('balance', { nullable: true, description: 'Initial balance, as in the genesis (hex wei).' }),
    code: t.exposeString('code', { nullable: true, description: 'Contract code, hex.' }),
    storage: t.field({ type: 'JSONObject', nullable: true, description: 'Contract storage: slot -> value, hex.', resolve: (a) => a.storage ?? null }),
  }),
});

const EvmGenesisRef = builder.objectRef<GenesisData>('EvmGenesis').implement({
  description: 'The genesis of an EVM blockchain, typed (the same data as `Blockchain.genesisData`). Hex strings stay as the genesis has them.',
  fields: (t) => {
    const hex = (name: keyof GenesisData, description: string) =>
      t.field({ type: 'String', nullable: true, description, resolve: (g) => (g[name] as string | null | undefined) ?? null });
    return {
      config: t.field({ type: GenesisConfigRef, nullable: true, description: 'Chain config.', resolve: (g) => g.config ?? null }),
      alloc: t.field({
        type: [GenesisAllocationRef],
        description: 'Accounts funded at genesis.',
        resolve: (g) => Object.entries(g.alloc ?? {}).map(([address, account]) => withFields(account, { address })),
      }),
      airdropAmount: t.field({ type: 'UInt256', nullable: true, description: 'Airdrop amount.', resolve: (g) => g.airdropAmount ?? null }),
      airdropHash: hex('airdropHash', 'Airdrop hash.'),
      baseFeePerGas: t.field({ type: 'UInt256', nullable: true, description: 'Base fee per gas at genesis.', resolve: (g) => g.baseFeePerGas ?? null }),
      blobGasUsed: hex('blobGasUsed', 'Blob gas used (hex).'),
      coinbase: hex('coinbase', 'Coinbase address.'),
      difficulty: hex('difficulty', 'Difficulty (hex).'),
      excessBlobGas: hex('excessBlobGas', 'Excess blob gas (hex).'),
      extraData: hex('extraData', 'Extra data (hex).'),
      gasLimit: hex('gasLimit', 'Gas limit (hex).'),
      gasUsed: hex('gasUsed', 'Gas used (hex).'),
      mixHash: hex('mixHash', 'Mix hash.'),
      nonce: hex('nonce', 'Nonce (hex).'),
      number: hex('number', 'Block number (hex).'),
      parentHash: hex('parentHash', 'Parent hash.'),
      timestamp: hex('timestamp', 'Timestamp (hex).'),
    };
  },
});

// ---------------------------------------------------------------- Blockchain

BlockchainRef.implement({
  description: 'A blockchain created on the P-chain: its VM, owning subnet, creation block and genesis. EVM blockchains link to their indexed `Chain`.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'blockchainId' in value && 'vmId' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (b) => encodeGlobalId('Blockchain', [b.network, b.blockchainId]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (b) => b.network }),
    createBlockTimestamp: t.expose('createBlockTimestamp', { type: 'UInt64', description: 'When the creating P-chain block was accepted, unix seconds.' }),
    createBlockTime: t.field({ type: 'DateTime', nullable: true, description: 'When the creating P-chain block was accepted: `createBlockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.createBlockTimestamp) }),
    createBlockNumber: t.field({ type: 'UInt256', description: 'Height of the creating P-chain block.', resolve: (b) => b.createBlockNumber }),
    blockchainId: t.exposeString('blockchainId', { description: 'The blockchain id (cb58).' }),
    vmId: t.exposeString('vmId', { description: 'The VM id (cb58).' }),
    subnetId: t.exposeString('subnetId', { description: 'The subnet that validates it.' }),
    blockchainName: t.exposeString('blockchainName', { description: 'Name given at creation.' }),
    evmChainId: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'EVM chain id for EVM blockchains, as a decimal string (compare with `Chain.chainId`).',
      resolve: (b) => b.evmChainId ?? null,
    }),
    genesisData: t.field({
      type: 'JSON',
      nullable: true,
      description: 'The genesis as the upstream sends it: an object for EVM chains (see `genesis` for a typed view), an encoded string for other VMs.',
      resolve: (b) => b.genesisData ?? null,
    }),
    genesis: t.field({
      type: EvmGenesisRef,
      nullable: true,
      description: 'The EVM genesis, typed; null for non-EVM blockchains.',
      resolve: (b) => (typeof b.genesisData === 'object' && b.genesisData !== null ? b.genesisData : null),
    }),
    subnet: t.field({
      type: SubnetRef,
      nullable: true,
      description: `The subnet (or L1) that validates this blockchain. ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (b, _args, ctx) => subnetById(ctx, b.network).load(b.subnetId),
    }),
    evmChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The indexed EVM chain of this blockchain (by EVM chain id, else by blockchain id); null when the Data API does not index it.',
      upstreamCost: CHAIN_LOOKUP_COST,
      resolve: (b, _args, ctx) => chainById(ctx).load(b.evmChainId != null ? String(b.evmChainId) : b.blockchainId),
    }),
  }),
});

registerNodeFamily('Blockchain', {
  refetchComputeUnits: SUBNET_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.cb58Id],
  // getBlockchainById for a lone id; several ids of a network share its subnet list.
  load: async (ctx, [network, blockchainId]) => (isNetwork(network) && blockchainId ? blockchainLookup(ctx, network).load(blockchainId) : null),
  typeOf: () => 'Blockchain',
  refetchCalls: (ids) => subnetRefetchCalls(ids.map(([network = '']) => network)),
});

// ---------------------------------------------------------------- Subnet

const SubnetOwnershipInfoRef = builder.objectRef<SubnetShape['subnetOwnershipInfo']>('SubnetOwnershipInfo').implement({
  description: 'Who controls a subnet: a threshold of these addresses may sign its management transactions.',
  fields: (t) => ({
    locktime: t.expose('locktime', { type: 'UInt64', description: 'Until when the ownership is locked, unix seconds (0 = not locked).' }),
    lockedUntil: t.field({ type: 'DateTime', nullable: true, description: 'Until when the ownership is locked (0 = not locked): `locktime` as a DateTime.', resolve: (p) => unixSecondsToDate(p.locktime) }),
    threshold: t.expose('threshold', { type: 'UInt64', description: 'Signatures required.' }),
    addresses: t.exposeStringList('addresses', { description: 'Owner addresses.' }),
  }),
});

type ManagerDetails = NonNullable<SubnetShape['l1ValidatorManagerDetails']> & { network: NetworkId };

const L1ValidatorManagerDetailsRef = builder.objectRef<ManagerDetails>('L1ValidatorManagerDetails').implement({
  description: "Where an L1's validator manager contract lives.",
  fields: (t) => ({
    blockchainId: t.exposeString('blockchainId', { description: 'The blockchain that hosts the contract.' }),
    contractAddress: t.expose('contractAddress', { type: 'EvmAddress', description: 'The validator manager contract address.' }),
    blockchain: t.field({
      type: BlockchainRef,
      nullable: true,
      description: `The blockchain that hosts the contract. ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (m, _args, ctx) => blockchainById(ctx, m.network).load(m.blockchainId),
    }),
  }),
});

/** Subnet.validators: E8's rules without the subnet id, which the parent pins. */
function checkSubnetValidatorArgs(args: ValidatorListArgs): void {
  // DELEGATION_FEE's subnet and network rules need the parent: checked again in the resolver.
  checkValidatorArgs({ ...args, sortBy: args.sortBy === 'delegationFee' ? null : (args.sortBy ?? null) });
}

SubnetRef.implement({
  description: 'A subnet (or L1): its owners, its blockchains and its validators. The primary network (11111111111111111111111111111111LpoYY) is one too.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'subnetId' in value && 'subnetOwnershipInfo' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (s) => encodeGlobalId('Subnet', [s.network, s.subnetId]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (s) => s.network }),
    subnetId: t.exposeString('subnetId', { description: 'The subnet id (cb58).' }),
    isPrimaryNetwork: t.boolean({ description: 'True for the primary network (P/X/C chains).', resolve: (s) => s.subnetId === PRIMARY_NETWORK_ID }),
    createBlockTimestamp: t.expose('createBlockTimestamp', { type: 'UInt64', description: 'When the creating P-chain block was accepted, unix seconds (0 for the primary network).' }),
    createBlockTime: t.field({ type: 'DateTime', nullable: true, description: 'When the creating P-chain block was accepted (0 for the primary network): `createBlockTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.createBlockTimestamp) }),
    createBlockIndex: t.field({ type: 'UInt256', description: 'Height of the creating P-chain block.', resolve: (s) => s.createBlockIndex }),
    ownerAddresses: t.exposeStringList('ownerAddresses', { description: 'Owner addresses. Deprecated upstream: use `subnetOwnershipInfo`.' }),
    threshold: t.expose('threshold', { type: 'UInt64', description: 'Owner signatures required. Deprecated upstream: use `subnetOwnershipInfo`.' }),
    locktime: t.expose('locktime', { type: 'UInt64', description: 'Ownership lock time, unix seconds. Deprecated upstream: use `subnetOwnershipInfo`.' }),
    lockedUntil: t.field({ type: 'DateTime', nullable: true, description: 'Ownership lock time: `locktime` as a DateTime. Deprecated upstream: use `subnetOwnershipInfo`.', resolve: (p) => unixSecondsToDate(p.locktime) }),
    subnetOwnershipInfo: t.field({ type: SubnetOwnershipInfoRef, description: 'Who controls the subnet.', resolve: (s) => s.subnetOwnershipInfo }),
    isL1: t.exposeBoolean('isL1', { description: 'True once the subnet was converted to an L1 (ConvertSubnetToL1Tx).' }),
    l1ConversionTransactionHash: t.exposeString('l1ConversionTransactionHash', { nullable: true, description: 'The ConvertSubnetToL1Tx, for L1s.' }),
    l1ValidatorManagerDetails: t.field({
      type: L1ValidatorManagerDetailsRef,
      nullable: true,
      description: "Where the L1's validator manager contract lives, for L1s.",
      resolve: (s) => (s.l1ValidatorManagerDetails ? { ...s.l1ValidatorManagerDetails, network: s.network } : null),
    }),
    blockchains: t.field({ type: [BlockchainRef], description: 'Blockchains this subnet validates.', resolve: (s) => s.blockchains }),
    validators: t.field({
      type: ValidatorConnection,
      // An upstream failure here fails this field only, not the whole list it sits in.
      nullable: true,
      description:
        "This subnet's validations. `filter.subnetId`, when given, must be this subnet; DELEGATION_FEE sorts only the primary network on MAINNET.",
      args: validatorListArgs,
      checkArgs: checkSubnetValidatorArgs,
      // One listing per subnet: no loader packs several subnets' validators into one call.
      upstreamCost: VALIDATOR_LISTING_COST,
      resolve: (s, args, ctx) => {
        const pinned = args.filter?.subnetId;
        if (pinned && pinned !== s.subnetId) throw badInput('filter.subnetId', 'must be this subnet (or left out)');
        checkValidatorArgs({ ...args, filter: { ...args.filter, subnetId: s.subnetId } }, s.network);
        return resolveValidators(ctx, s.network, args, s.subnetId);
      },
    }),
  }),
});

registerNodeFamily('Subnet', {
  refetchComputeUnits: SUBNET_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.cb58Id],
  // getSubnetById for a lone id; several ids of a network share its subnet list.
  load: async (ctx, [network, subnetId]) => (isNetwork(network) && subnetId ? subnetLookup(ctx, network).load(subnetId) : null),
  typeOf: () => 'Subnet',
  refetchCalls: (ids) => subnetRefetchCalls(ids.map(([network = '']) => network)),
});

export const SubnetConnection = builder.connectionObject(
  { type: SubnetRef, name: 'SubnetConnection', description: 'A page of subnets.' },
  { name: 'SubnetEdge', description: 'A subnet and its cursor.' },
);

export const BlockchainConnection = builder.connectionObject(
  { type: BlockchainRef, name: 'BlockchainConnection', description: 'A page of blockchains.' },
  { name: 'BlockchainEdge', description: 'A blockchain and its cursor.' },
);

builder.objectFields(NetworkRef, (t) => ({
  subnets: t.field({
    type: SubnetConnection,
    nullable: false,
    description: 'Subnets and L1s created on this network (the primary network itself is not listed, see `subnet`).',
    args: {
      ...pageArgs(t.arg, PAGES.subnets),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction (by creation).' }),
    },
    upstreamCost: SUBNET_LISTING_COST,
    resolve: (n, args, ctx) =>
      resolvePageConnection<SubnetShape>({
        ctx,
        page: PAGES.subnets,
        args,
        parent: { network: n.network },
        fetchPage: subnetPages(ctx, n.network, args.sortOrder ?? undefined),
      }),
  }),
  subnet: t.field({
    type: SubnetRef,
    nullable: true,
    description: `A subnet by id, including the primary network (${PRIMARY_NETWORK_ID}); null when the network has no such subnet. One subnet is read directly; several asked in one query (aliases) share one read of the subnet list.`,
    args: { subnetId: t.arg.string({ required: true, description: 'The subnet.', bound: BOUNDS.subnetId }) },
    upstreamCost: SUBNET_LOOKUP_COST,
    resolve: (n, args, ctx) => subnetLookup(ctx, n.network).load(args.subnetId),
  }),
  blockchains: t.field({
    type: BlockchainConnection,
    nullable: false,
    description: 'Blockchains created on this network, of every subnet (the primary network\'s P-, X- and C-Chains included), newest first by default.',
    args: {
      ...pageArgs(t.arg, PAGES.blockchains),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction (by creation).' }),
    },
    upstreamCost: BLOCKCHAIN_LISTING_COST,
    resolve: (n, args, ctx) =>
      resolvePageConnection<BlockchainShape>({
        ctx,
        page: PAGES.blockchains,
        args,
        parent: { network: n.network },
        fetchPage: blockchainPages(ctx, n.network, args.sortOrder ?? undefined),
      }),
  }),
}));

builder.interfaceFields(ValidatorInterface, (t) => ({
  subnet: t.field({
    type: SubnetRef,
    nullable: true,
    description: `The subnet validated (the primary network for primary-network validations). ${SUBNET_LIST_NOTE}`,
    upstreamCost: SUBNET_LIST_COST,
    resolve: (v, _args, ctx) => subnetById(ctx, v.network).load(v.subnetId),
  }),
}));
