import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { isUpstreamError } from '../errors.ts';
import { chainById, chainsList } from '../loaders/chains.ts';
import { costs } from '../lib/cost.ts';
import { nftTokenById } from '../loaders/evm.ts';
import { blockchainById, subnetById } from '../loaders/subnets.ts';
import type { NetworkId } from '../loaders/types.ts';
import type { Chain, CurrencyCode, NetworkToken } from '../shapes/index.ts';
import { AddressRef, type AddressShape } from './addresses.ts';
import { CurrencyCodeEnum, UNKNOWN_ENUM_VALUE, upstreamEnum } from './enums.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { checkChainId, checkDecimal, checkEvmAddress, checkEvmTxHash } from './input-checks.ts';
import { NftTokenRef, type NftTokenShape } from './nfts.ts';
import { argsHash, checkFirst, filterArgs, inspectCursor, type PageSpec } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { BlockchainRef, SubnetRef } from './subnets.ts';
import { loadTransaction, TransactionRef, type TransactionShape } from './transactions.ts';

// ---------------------------------------------------------------- checks shared by the EVM modules
// Function declarations, so modules that import them in an import cycle can call them.

/**
 * Page size and cursor, checked before any upstream call: a cursor must come from this
 * connection with these same arguments (its signature is checked by `opaqueInputChecks`, run by `useInputValidation`,
 * its parent when the page is read).
 */
export function checkPage(args: Record<string, unknown>, page: PageSpec): void {
  checkFirst(args['first'], page);
  const after = args['after'];
  if (typeof after === 'string' && after !== '') inspectCursor(after, page, argsHash(page, filterArgs(args)));
}

/** A single lookup: the upstream's 404 means "does not exist", which is null, not an error. */
export async function nullOnNotFound<T>(lookup: Promise<T>): Promise<T | null> {
  try {
    return await lookup;
  } catch (error) {
    if (isUpstreamError(error) && error.isNotFound) return null;
    throw error;
  }
}

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
    logoUri: t.exposeString('logoUri', { nullable: true, description: 'Logo URL.' }),
    description: t.exposeString('description', { nullable: true, description: 'Description.' }),
  }),
});

const UtilityAddressesRef = builder.objectRef<NonNullable<Chain['utilityAddresses']>>('UtilityAddresses').implement({
  description: 'Well-known helper contracts of a chain.',
  fields: (t) => ({
    multicall: t.exposeString('multicall', { nullable: true, description: 'Multicall contract address.' }),
  }),
});

// ---------------------------------------------------------------- Chain

export const ChainRef = builder.objectRef<Chain>('Chain');

ChainRef.implement({
  description:
    'An EVM chain the Data API indexes (the C-chain or an L1/subnet chain), with its addresses, transactions, contract deployments and NFTs.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (c) => encodeGlobalId('Chain', [c.chainId]) }),
    chainId: t.exposeString('chainId', { description: 'EVM chain id, decimal (43114 for the mainnet C-chain).' }),
    status: t.field({ type: ChainStatus.ref, description: 'Whether the Data API serves the chain.', resolve: (c) => ChainStatus.out(c.status) ?? UNKNOWN_ENUM_VALUE }),
    chainName: t.exposeString('chainName', { description: 'Name.' }),
    description: t.exposeString('description', { description: 'Description.' }),
    platformChainId: t.exposeString('platformChainId', { nullable: true, description: 'The blockchain id on the P-chain (cb58).' }),
    subnetId: t.exposeString('subnetId', { nullable: true, description: 'The subnet (L1) that validates the chain.' }),
    vmId: t.exposeString('vmId', { nullable: true, description: 'The VM id.' }),
    vmName: t.field({ type: VmName.ref, description: 'The VM.', resolve: (c) => VmName.out(c.vmName) ?? UNKNOWN_ENUM_VALUE }),
    explorerUrl: t.exposeString('explorerUrl', { nullable: true, description: 'Block explorer URL.' }),
    rpcUrl: t.exposeString('rpcUrl', { description: 'Public JSON-RPC URL.' }),
    wsUrl: t.exposeString('wsUrl', { nullable: true, description: 'Public WebSocket URL.' }),
    isTestnet: t.exposeBoolean('isTestnet', { description: 'True on the test network (Fuji).' }),
    network: t.field({ type: NetworkNameEnum, description: 'MAINNET or FUJI, from `isTestnet`.', resolve: (c) => chainNetwork(c) }),
    utilityAddresses: t.field({ type: UtilityAddressesRef, nullable: true, description: 'Helper contracts.', resolve: (c) => c.utilityAddresses ?? null }),
    networkToken: t.field({ type: NetworkTokenRef, description: 'The native token.', resolve: (c) => c.networkToken }),
    chainLogoUri: t.exposeString('chainLogoUri', { nullable: true, description: 'Logo URL.' }),
    private: t.exposeBoolean('private', { nullable: true, description: 'True for a private chain.' }),
    enabledFeatures: t.field({
      type: [ChainFeature.ref],
      description: 'Data API features enabled on this chain.',
      resolve: (c) => (c.enabledFeatures ?? []).flatMap((f) => ChainFeature.out(f) ?? []),
    }),
    subnet: t.field({
      type: SubnetRef,
      nullable: true,
      description: 'The subnet (L1) that validates this chain.',
      // The subnet list, once per request and network.
      extensions: { cost: costs.oncePerScope(2) },
      resolve: (c, _args, ctx) => (c.subnetId ? subnetById(ctx, chainNetwork(c)).load(c.subnetId) : null),
    }),
    blockchain: t.field({
      type: BlockchainRef,
      nullable: true,
      description: 'This chain as a blockchain of the P-chain (VM, genesis data, creation block).',
      extensions: { cost: costs.oncePerScope(2) },
      resolve: (c, _args, ctx) => (c.platformChainId ? blockchainById(ctx, chainNetwork(c)).load(c.platformChainId) : null),
    }),
    address: t.field({
      type: AddressRef,
      description: 'An address on this chain: its transactions, balances and ICM messages. Makes no upstream call by itself.',
      args: { address: t.arg.string({ required: true, description: 'EVM address, 0x + 40 hex digits.' }) },
      extensions: { validateArgs: (args) => checkEvmAddress('address', args['address']) },
      resolve: (c, args): AddressShape => ({ chainId: c.chainId, address: args.address.toLowerCase() }),
    }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of one transaction on this chain; null when it does not exist.',
      args: { txHash: t.arg.string({ required: true, description: 'Transaction hash, 0x + 64 hex digits.' }) },
      // One lookup per chain: the API has no batch form.
      extensions: { validateArgs: (args) => checkEvmTxHash('txHash', args['txHash']), cost: costs.perParent() },
      resolve: (c, args, ctx) => loadTransaction(ctx, c.chainId, args.txHash),
    }),
    contractDeployment: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The transaction that deployed a contract (E6); null when the address is not a contract deployed on this chain.',
      args: {
        address: t.arg.string({ required: true, description: 'Contract address, 0x + 40 hex digits.' }),
        currency: t.arg({ type: CurrencyCodeEnum, description: 'Currency of the native token prices (default USD).' }),
      },
      extensions: { validateArgs: (args) => checkEvmAddress('address', args['address']), cost: costs.perParent() },
      resolve: (c, args, ctx) => loadDeployment(ctx, c.chainId, args.address, args.currency as CurrencyCode | null | undefined),
    }),
    nftToken: t.field({
      type: NftTokenRef,
      nullable: true,
      description: 'One NFT of a collection on this chain (E19); null when the collection or token does not exist.',
      args: {
        address: t.arg.string({ required: true, description: 'Collection contract address, 0x + 40 hex digits.' }),
        tokenId: t.arg.string({ required: true, description: 'Token id, decimal digits.' }),
      },
      extensions: {
        validateArgs: (args) => {
          checkEvmAddress('address', args['address']);
          checkDecimal('tokenId', args['tokenId']);
        },
        cost: costs.perParent(),
      },
      resolve: (c, args, ctx) => loadNftToken(ctx, c.chainId, args.address, args.tokenId),
    }),
  }),
});

async function loadDeployment(ctx: Context, chainId: string, address: string, currency: CurrencyCode | null | undefined): Promise<TransactionShape | null> {
  const tx = await nullOnNotFound(ctx.dataApi.getDeploymentTransaction(chainId, address, currency ? { currency } : {}, ctx.call));
  return tx ? { ...tx, chainId } : null;
}

/** E19 through the request's loader; null when the token does not exist. */
export async function loadNftToken(ctx: Context, chainId: string, address: string, tokenId: string): Promise<NftTokenShape | null> {
  const token = await nftTokenById(ctx).load({ chainId, address: address.toLowerCase(), tokenId });
  return token ? { ...token, chainId } : null;
}

registerNodeFamily('Chain', {
  parts: [ID_PARTS.chainId],
  load: async (ctx, [chainId]) => (chainId ? chainById(ctx).load(chainId) : null),
  typeOf: () => 'Chain',
  refetchCalls: () => 1,
});

/**
 * Chains the chain list (E17) is taken to hold at most, for the cost of what is
 * asked under `chains` (one lookup per chain): the Data API indexes a few dozen.
 * Past it the run-time budget holds.
 */
export const MAX_CHAINS = 100;

builder.queryFields((t) => ({
  chains: t.field({
    type: [ChainRef],
    description:
      'The EVM chains the Data API indexes (E17), of one network or all. `feature` keeps the chains that have it enabled (filtered from the one chain list of the request).',
    args: {
      network: t.arg({ type: NetworkNameEnum, description: 'Only this network (all when omitted).' }),
      feature: t.arg({ type: ChainFeature.ref, description: 'Only chains with this feature enabled.' }),
    },
    extensions: { validateArgs: (args) => ChainFeature.checkInput('feature', args['feature']), cost: costs.list(() => MAX_CHAINS, () => 1) },
    resolve: async (_root, args, ctx) => {
      const chains = await chainsList(ctx, args.network ? networkId(args.network) : undefined);
      const feature = args.feature as string | null | undefined;
      return feature ? chains.filter((c) => (c.enabledFeatures ?? []).includes(feature)) : chains;
    },
  }),
  chain: t.field({
    type: ChainRef,
    nullable: true,
    description: 'An EVM chain by EVM chain id (`43114`) or blockchain id; null when the Data API does not index it.',
    args: { chainId: t.arg.string({ required: true, description: 'EVM chain id (decimal, e.g. `43114`) or blockchain id (cb58).' }) },
    extensions: { validateArgs: (args) => checkChainId('chainId', args['chainId']), cost: costs.oncePerScope(1) },
    resolve: (_root, args, ctx) => chainById(ctx).load(args.chainId),
  }),
}));
