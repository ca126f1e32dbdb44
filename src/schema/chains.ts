import { builder } from './builder.ts';
import {
  chainById, chainInfoById, chainRefetchCalls, chainsList, CHAIN_INFO_COST, CHAIN_LIST_COST, CHAIN_LOOKUP_COST,
} from '../loaders/chains.ts';
import { blockchainById, subnetById, SUBNET_LIST_COST, SUBNET_LIST_NOTE } from '../loaders/subnets.ts';
import type { NetworkId } from '../loaders/types.ts';
import type { Chain, NetworkToken } from '../shapes/index.ts';
import { openEnumField, openEnumListField, upstreamEnum } from './enums.ts';
import { BOUNDS, evmChainIdOf } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { BlockchainRef, SubnetRef } from './subnet-refs.ts';

/**
 * The EVM chains the Data API indexes. The links from a chain to what lives on it
 * (`address`, `transaction`, `contractDeployment`, `nftToken`) are added by the
 * modules of those types (`builder.objectFields(ChainRef, ...)`), which import this
 * one: nothing here imports them back.
 */

/** The network an EVM chain belongs to. */
export function chainNetwork(chain: Chain): NetworkId {
  return chain.isTestnet ? 'fuji' : 'mainnet';
}

// ---------------------------------------------------------------- enums and small objects

export const ChainFeature = upstreamEnum('ChainFeature', 'An optional feature of the Data API on a chain.', {
  NFT_INDEXING: { value: 'nftIndexing', description: 'NFT metadata is indexed.' },
  WEBHOOKS: { value: 'webhooks', description: 'Webhooks can be registered.' },
  TELEPORTER: { value: 'teleporter', description: 'ICM (Teleporter) messages are indexed.' },
});

export const ChainStatus = upstreamEnum('ChainStatus', 'Whether the Data API serves a chain.', {
  OK: { value: 'OK', description: 'Indexed and served.' },
  UNAVAILABLE: { value: 'UNAVAILABLE', description: 'Temporarily not served.' },
});

export const VmName = upstreamEnum('VmName', 'The virtual machine a chain runs.', {
  EVM: { value: 'EVM', description: 'An Avalanche EVM (C-chain, Subnet-EVM).' },
  BITCOIN: { value: 'BITCOIN', description: 'Bitcoin.' },
  ETHEREUM: { value: 'ETHEREUM', description: 'Ethereum.' },
});

export const NetworkTokenRef = builder.objectRef<NetworkToken>('NetworkToken').implement({
  description: 'The native (gas) token of a chain.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name.' }),
    symbol: t.exposeString('symbol', { description: 'Symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Decimals (18 on EVM chains).' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Logo URL.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
  }),
});

const UtilityAddressesRef = builder.objectRef<NonNullable<Chain['utilityAddresses']>>('UtilityAddresses').implement({
  description: 'Well-known helper contracts of a chain.',
  fields: (t) => ({
    multicall: t.expose('multicall', { type: 'EvmAddress', nullable: true, description: 'Multicall contract address.' }),
  }),
});

// ---------------------------------------------------------------- Chain

export const ChainRef = builder.objectRef<Chain>('Chain');

ChainRef.implement({
  description:
    'An EVM chain the Data API indexes (the C-chain or an L1/subnet chain), with its addresses, transactions, contract deployments and NFTs.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (c) => encodeGlobalId('Chain', [c.chainId]) }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id, decimal (43114 for the mainnet C-chain).' }),
    ...openEnumField(t, 'status', ChainStatus, { description: 'Whether the Data API serves the chain.', value: (c) => c.status }),
    chainName: t.exposeString('chainName', { description: 'Name.' }),
    description: t.exposeString('description', { description: 'Description.' }),
    platformChainId: t.exposeString('platformChainId', { nullable: true, description: 'The blockchain id on the P-chain (cb58).' }),
    subnetId: t.exposeString('subnetId', { nullable: true, description: 'The subnet (L1) that validates the chain.' }),
    vmId: t.exposeString('vmId', { nullable: true, description: 'The VM id.' }),
    ...openEnumField(t, 'vmName', VmName, { description: 'The VM.', value: (c) => c.vmName }),
    explorerUrl: t.expose('explorerUrl', { type: 'URL', nullable: true, description: 'Block explorer URL.' }),
    rpcUrl: t.expose('rpcUrl', { type: 'URL', description: 'Public JSON-RPC URL.' }),
    wsUrl: t.expose('wsUrl', { type: 'URL', nullable: true, description: 'Public WebSocket URL.' }),
    isTestnet: t.exposeBoolean('isTestnet', { description: 'True on the test network (Fuji).' }),
    network: t.field({ type: NetworkNameEnum, description: 'MAINNET or FUJI, from `isTestnet`.', resolve: (c) => chainNetwork(c) }),
    utilityAddresses: t.field({ type: UtilityAddressesRef, nullable: true, description: 'Helper contracts.', resolve: (c) => c.utilityAddresses ?? null }),
    networkToken: t.field({ type: NetworkTokenRef, description: 'The native token.', resolve: (c) => c.networkToken }),
    chainLogoUri: t.expose('chainLogoUri', { type: 'URL', nullable: true, description: 'Logo URL.' }),
    private: t.exposeBoolean('private', { nullable: true, description: 'True for a private chain.' }),
    ...openEnumListField(t, 'enabledFeatures', ChainFeature, { description: 'Data API features enabled on this chain.', value: (c) => c.enabledFeatures }),
    subnet: t.field({
      type: SubnetRef,
      nullable: true,
      description: `The subnet (L1) that validates this chain. ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (c, _args, ctx) => (c.subnetId ? subnetById(ctx, chainNetwork(c)).load(c.subnetId) : null),
    }),
    blockchain: t.field({
      type: BlockchainRef,
      nullable: true,
      description: `This chain as a blockchain of the P-chain (VM, genesis data, creation block). ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (c, _args, ctx) => (c.platformChainId ? blockchainById(ctx, chainNetwork(c)).load(c.platformChainId) : null),
    }),
  }),
});

registerNodeFamily('Chain', {
  refetchComputeUnits: CHAIN_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId],
  load: async (ctx, [chainId]) => (chainId ? chainById(ctx).load(chainId) : null),
  typeOf: () => 'Chain',
  refetchCalls: chainRefetchCalls,
});

builder.queryFields((t) => ({
  chains: t.field({
    type: [ChainRef],
    description:
      'The EVM chains the Data API indexes, of one network or all. `feature` keeps the chains that have it enabled (filtered from the one chain list of the request).',
    args: {
      network: t.arg({ type: NetworkNameEnum, description: 'Only this network (all when omitted).' }),
      feature: t.arg({ type: ChainFeature.ref, description: 'Only chains with this feature enabled.', bound: ChainFeature.bound }),
    },
    upstreamCost: CHAIN_LIST_COST,
    resolve: async (_root, args, ctx) => {
      const chains = await chainsList(ctx, args.network ? networkId(args.network) : undefined);
      const feature = args.feature;
      return feature ? chains.filter((c) => (c.enabledFeatures ?? []).some((f) => f === feature)) : chains;
    },
  }),
  chain: t.field({
    type: ChainRef,
    nullable: true,
    description:
      'An EVM chain by EVM chain id (`43114`), blockchain id, or `c-chain` (the C-Chain of `network`), read directly (getChainInfo); null when the Data API does not index it. Several in one request are answered by one chain list.',
    args: {
      chainId: t.arg.string({ required: true, description: 'The chain.', bound: BOUNDS.evmChainRef }),
      network: t.arg({ type: NetworkNameEnum, description: 'Whose C-Chain `chainId: "c-chain"` names (MAINNET when omitted); other chain ids name one chain on their own.' }),
    },
    upstreamCost: CHAIN_INFO_COST,
    resolve: (_root, args, ctx) => chainInfoById(ctx).load(evmChainIdOf(args.chainId, args.network ? networkId(args.network) : 'mainnet')),
  }),
}));
