import { builder, type BuilderTypes } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import type { FetchChainPage, PrimaryChain } from '../loaders/primary-chain.ts';
import { blockchainById, SUBNET_LIST_COST, SUBNET_LIST_NOTE } from '../loaders/subnets.ts';
import type { NetworkId } from '../loaders/types.ts';
import { PRIMARY_CHAIN_IDS, type ChainInfo } from '../shapes/index.ts';
import { ChainInfoRef } from './common.ts';
import { type Connection, type PageConnectionOptions, resolvePageConnection } from './connection.ts';
import { BOUNDS, checkPrimaryChainId, primaryChainOf } from './input-checks.ts';
import { NetworkNameEnum, NetworkRef } from './network.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { BlockchainRef } from './subnets.ts';

/**
 * `PrimaryBlockchain`, a primary-network chain (P, X or C) as the root of its
 * listings, and `Network.blockchain` that returns it. Its listings add their fields
 * in their own modules: blocks (`blocks.ts`), vertices (`vertices.ts`), UTXOs
 * (`utxos.ts`); the block subscription is `block-subscription.ts`.
 */

type ChainLetter = 'p' | 'x' | 'c';
const ALIAS_OF: Record<ChainLetter, string> = { p: 'p-chain', x: 'x-chain', c: 'c-chain' };
const NETWORKS: readonly NetworkId[] = ['mainnet', 'fuji'];

/** A primary-network chain as a root of its listings. Resolving it makes no upstream call. */
export interface PrimaryBlockchainShape extends PrimaryChain {
  /** `p-chain`, `x-chain` or `c-chain`; null for other ids. */
  alias: string | null;
}

export const isNetwork = (value: string | undefined): value is NetworkId => value === 'mainnet' || value === 'fuji';

/**
 * The canonical form of a blockchain id on `network`: aliases become the fixed id.
 * A fixed id of the other network is a caller mistake, told before any call; the
 * seed's blockchain endpoints take no other id, so none is sent.
 */
export function resolvePrimaryChain(argument: string, network: NetworkId, id: string): PrimaryBlockchainShape {
  checkPrimaryChainId(argument, id);
  const chain = primaryChainOf(network, id);
  if (chain) return { network, blockchainId: PRIMARY_CHAIN_IDS[network][chain], alias: ALIAS_OF[chain] };
  for (const other of NETWORKS) {
    if (other === network) continue;
    const foreign = primaryChainOf(other, id);
    if (foreign) throw badInput(argument, `this is the ${other} ${ALIAS_OF[foreign]} id; on ${network} use "${ALIAS_OF[foreign]}" or ${PRIMARY_CHAIN_IDS[network][foreign]}`);
  }
  throw badInput(argument, 'is not a primary-network chain');
}

export const isXChain = (b: PrimaryChain): boolean => b.blockchainId === PRIMARY_CHAIN_IDS[b.network].x;

// ---------------------------------------------------------------- connections that tell which chain they listed

/** The `chainInfo` of the last page each chain connection read, by connection object. */
const chainInfos = new WeakMap<object, ChainInfo>();

/** `chainInfo` of a connection over a chain listing: declared in the connection's `fields`. */
export const chainInfoField = <Shape extends object>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Shape>) =>
  t.field({
    type: ChainInfoRef,
    nullable: true,
    description: 'Which chain and network the upstream says it listed.',
    resolve: (connection) => chainInfos.get(connection) ?? null,
  });

/** A Relay connection over a chain listing (`resolvePageConnection`), keeping the `chainInfo` of the last page read for its `chainInfo` field. */
export async function resolveChainConnection<T>(options: Omit<PageConnectionOptions<T>, 'fetchPage'> & { fetchPage: FetchChainPage<T> }): Promise<Connection<T>> {
  let chainInfo: ChainInfo | undefined;
  const connection = await resolvePageConnection<T>({
    ...options,
    fetchPage: async (pageToken, pageSize) => {
      const page = await options.fetchPage(pageToken, pageSize);
      chainInfo = page.chainInfo ?? chainInfo;
      return page;
    },
  });
  if (chainInfo) chainInfos.set(connection, chainInfo);
  return connection;
}

// ---------------------------------------------------------------- PrimaryBlockchain

export const PrimaryBlockchainRef = builder.objectRef<PrimaryBlockchainShape>('PrimaryBlockchain').implement({
  description: 'A primary-network chain (P, X or C) as the root of its block, vertex and UTXO listings. Resolving it makes no upstream call.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'alias' in value && 'blockchainId' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (b) => encodeGlobalId('PrimaryBlockchain', [b.network, b.blockchainId]) }),
    network: t.field({ type: NetworkNameEnum, description: 'The network.', resolve: (b) => b.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The blockchain id (aliases resolved to the fixed id).' }),
    alias: t.exposeString('alias', { nullable: true, description: '`p-chain`, `x-chain` or `c-chain`; null for another id.' }),
    blockchain: t.field({
      type: BlockchainRef,
      nullable: true,
      description: `This chain as a blockchain record (VM, subnet). ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (b, _args, ctx) => blockchainById(ctx, b.network).load(b.blockchainId),
    }),
  }),
});

registerNodeFamily('PrimaryBlockchain', {
  // Refetched from the id alone: no call.
  refetchComputeUnits: 0,
  parts: [ID_PARTS.network, ID_PARTS.primaryChain],
  load: async (_ctx, [network, blockchainId]) => {
    if (!isNetwork(network) || !blockchainId) return null;
    const chain = primaryChainOf(network, blockchainId);
    if (chain) return { network, blockchainId: PRIMARY_CHAIN_IDS[network][chain], alias: ALIAS_OF[chain] };
    // The seed's blockchain endpoints take the primary chains only: any other id refetches as null.
    return null;
  },
  typeOf: () => 'PrimaryBlockchain',
  refetchCalls: () => 0,
});

builder.objectFields(NetworkRef, (t) => ({
  blockchain: t.field({
    type: PrimaryBlockchainRef,
    nullable: false,
    description: 'A primary-network chain, the root of its blocks, vertices and UTXOs. Makes no upstream call by itself.',
    args: { id: t.arg.string({ required: true, description: 'The chain.', bound: BOUNDS.primaryChainId }) },
    resolve: (n, args) => resolvePrimaryChain('id', n.network, args.id),
  }),
}));
