import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { VERTEX_LISTING_COST, vertexPages, type VertexOnChain } from '../loaders/primary-chain.ts';
import { vertexByHashLoader, VERTEX_LOOKUP_COST } from '../loaders/primary-blocks.ts';
import { pageArgs } from './connection.ts';
import { PAGES } from './pagination.ts';
import { chainInfoField, isNetwork, isXChain, PrimaryBlockchainRef, resolveChainConnection } from './primary-chain.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';

/** A vertex as the upstream returns it, plus the chain it was listed on. */
export type VertexShape = VertexOnChain;

export const VertexRef = builder.objectRef<VertexShape>('Vertex').implement({
  description: 'An X-chain vertex (the DAG era of the X-chain, before its linearization in Cortina).',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'vertexHash' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (v) => encodeGlobalId('Vertex', [v.network, v.blockchainId, () => v.vertexHeight, () => v.vertexHash]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (v) => v.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The X-chain id.' }),
    vertexHash: t.exposeString('vertexHash', { description: 'Vertex hash (id).' }),
    parentHashes: t.exposeStringList('parentHashes', { description: 'Parent vertices.' }),
    vertexHeight: t.expose('vertexHeight', { type: 'UInt64', description: 'Height in the DAG.' }),
    vertexIndex: t.expose('vertexIndex', { type: 'UInt64', description: 'Acceptance index.' }),
    vertexTimestamp: t.expose('vertexTimestamp', { type: 'UInt64', description: 'When it was accepted, unix seconds.' }),
    vertexTime: t.field({ type: 'DateTime', nullable: true, description: 'When it was accepted: `vertexTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.vertexTimestamp) }),
    txCount: t.exposeInt('txCount', { description: 'Number of transactions.' }),
    transactions: t.exposeStringList('transactions', { description: 'Transaction ids.' }),
    vertexSizeBytes: t.exposeInt('vertexSizeBytes', { description: 'Size, bytes.' }),
  }),
});

/** getVertexByHash (the height stays in the id, which older ids carry too). */
registerNodeFamily('Vertex', {
  refetchComputeUnits: VERTEX_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, ID_PARTS.uint, ID_PARTS.cb58Id],
  load: async (ctx, [network, blockchainId, _height, vertexHash]) => {
    if (!isNetwork(network) || !blockchainId || !vertexHash) return null;
    return vertexByHashLoader(ctx).load({ chain: { network, blockchainId }, hash: vertexHash });
  },
  typeOf: () => 'Vertex',
  refetchCalls: (ids) => ids.length,
});

export const VertexConnection = builder.connectionObject(
  { type: VertexRef, name: 'VertexConnection', description: 'A page of X-chain vertices, newest first.', fields: (t) => ({ chainInfo: chainInfoField(t) }) },
  { name: 'VertexEdge', description: 'A vertex and its cursor.' },
);

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  vertices: t.field({
    type: VertexConnection,
    nullable: false,
    description: 'Latest vertices, newest first. X-chain only.',
    args: pageArgs(t.arg, PAGES.vertices),
    upstreamCost: VERTEX_LISTING_COST,
    resolve: (b, args, ctx) => {
      if (!isXChain(b)) throw badInput('vertices', 'vertices exist only on the X-chain (x-chain)');
      return resolveChainConnection({ ctx, page: PAGES.vertices, args, parent: { network: b.network, blockchainId: b.blockchainId }, fetchPage: vertexPages(ctx, b) });
    },
  }),
}));
