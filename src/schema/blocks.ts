import { builder } from '../builder.ts';
import { newBudgetWindow, type Context } from '../context.ts';
import { badInput, isUpstreamError } from '../errors.ts';
import { blockchainById } from '../loaders/subnets.ts';
import { costs } from '../lib/cost.ts';
import type { NetworkId } from '../loaders/types.ts';
import {
  PRIMARY_CHAIN_IDS, type Block, type ChainInfo, type ListUtxosParams, type ProposerDetails, type SortOrder, type Utxo,
  type UtxoSortBy, type Vertex,
} from '../shapes/index.ts';
import { AssetAmountRef, ChainInfoRef } from './common.ts';
import { type Connection, type ConnectionArgs, pageArgs, resolvePageConnection, type UpstreamPage } from './connection.ts';
import { SortOrderEnum } from './enums.ts';
import {
  checkAddressesOnNetwork, checkCb58Id, checkNonNegativeInt, checkPrimaryAddresses, checkPrimaryChainId, checkRange, INPUT_LIMITS,
  primaryChainOf,
} from './input-checks.ts';
import { NetworkNameEnum, NetworkRef, networkId } from './network.ts';
import { PAGES, checkFirst } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, optional, registerNodeFamily } from './relay-node.ts';
import { RewardType } from './rewards.ts';
import { BlockchainRef } from './subnets.ts';
import { loadValidator, validatorLinkCost, ValidatorInterface } from './validators.ts';

// ---------------------------------------------------------------- primary chain ids

type ChainLetter = 'p' | 'x' | 'c';
const ALIAS_OF: Record<ChainLetter, string> = { p: 'p-chain', x: 'x-chain', c: 'c-chain' };
const NETWORKS: readonly NetworkId[] = ['mainnet', 'fuji'];

/** Which primary chain of `network` an id names (alias or fixed id); undefined for other ids. */
const chainOf = primaryChainOf;

/**
 * The canonical form of a blockchain id on `network`: aliases become the fixed id.
 * A fixed id of the other network is a caller mistake, told before any call; the
 * seed's blockchain endpoints take no other id, so none is sent.
 */
function resolvePrimaryChain(argument: string, network: NetworkId, id: string): PrimaryBlockchainShape {
  checkPrimaryChainId(argument, id);
  const chain = chainOf(network, id);
  if (chain) return { network, blockchainId: PRIMARY_CHAIN_IDS[network][chain], alias: ALIAS_OF[chain] };
  for (const other of NETWORKS) {
    if (other === network) continue;
    const foreign = chainOf(other, id);
    if (foreign) throw badInput(argument, `this is the ${other} ${ALIAS_OF[foreign]} id; on ${network} use "${ALIAS_OF[foreign]}" or ${PRIMARY_CHAIN_IDS[network][foreign]}`);
  }
  throw badInput(argument, 'is not a primary-network chain');
}

const PRIMARY_CHAIN_ARG = '`p-chain`, `x-chain`, `c-chain` (any case), or the blockchain id of one of them on this network.';

const isNetwork = (value: string | undefined): value is NetworkId => value === 'mainnet' || value === 'fuji';

// ---------------------------------------------------------------- shapes

/** A primary-network chain as a root of its listings. Resolving it makes no upstream call. */
export interface PrimaryBlockchainShape {
  network: NetworkId;
  /** The canonical blockchain id (aliases resolved). */
  blockchainId: string;
  /** `p-chain`, `x-chain` or `c-chain`; null for other ids. */
  alias: string | null;
}

export type BlockShape = Block & { network: NetworkId; blockchainId: string };
export type VertexShape = Vertex & { network: NetworkId; blockchainId: string };
export type UtxoShape = Utxo & { network: NetworkId; blockchainId: string };

/** A page of a listing that also reports which chain it read (`chainInfo`). */
type ConnectionWithChainInfo<T> = Connection<T> & { chainInfo: ChainInfo | null };

const withChain = <T extends object>(parent: PrimaryBlockchainShape, item: T) => ({ ...item, network: parent.network, blockchainId: parent.blockchainId });

// ---------------------------------------------------------------- Block

const ProposerDetailsRef = builder.objectRef<ProposerDetails>('ProposerDetails').implement({
  description: 'Snowman++ proposer data of a block (who proposed it and at which P-chain height).',
  fields: (t) => ({
    proposerId: t.exposeString('proposerId', { nullable: true, description: 'Id of the proposer block wrapping this block.' }),
    proposerParentId: t.exposeString('proposerParentId', { nullable: true, description: 'Id of the parent proposer block.' }),
    proposerNodeId: t.exposeString('proposerNodeId', { nullable: true, description: 'The proposing node, `NodeID-...`.' }),
    proposerPChainHeight: t.exposeInt('proposerPChainHeight', { nullable: true, description: 'P-chain height the proposer referenced.' }),
    proposerTimestamp: t.exposeInt('proposerTimestamp', { nullable: true, description: 'Proposer timestamp, unix seconds.' }),
  }),
});

const blockIdParts = (b: BlockShape) => [b.network, b.blockchainId, b.blockNumber, b.blockTimestamp, b.blockHash];

export const BlockRef = builder.objectRef<BlockShape>('Block').implement({
  description: 'A block of a primary-network chain (P, X or C) as the Data API indexes it.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'blockHash' in value && 'parentHash' in value,
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (b) => encodeGlobalId('Block', blockIdParts(b)) }),
    network: t.field({ type: 'String', description: 'Network (mainnet or fuji).', resolve: (b) => b.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The chain the block belongs to.' }),
    blockNumber: t.field({ type: 'UInt256', description: 'Height.', resolve: (b) => b.blockNumber }),
    blockHash: t.exposeString('blockHash', { description: 'Block hash (id).' }),
    parentHash: t.exposeString('parentHash', { description: "Parent block's hash." }),
    blockType: t.exposeString('blockType', { description: 'Block type as the upstream names it (e.g. a P-chain block kind).' }),
    blockTimestamp: t.exposeInt('blockTimestamp', { description: 'When the block was accepted, unix seconds.' }),
    txCount: t.exposeInt('txCount', { description: 'Number of transactions.' }),
    transactions: t.exposeStringList('transactions', { description: 'Transaction ids.' }),
    blockSizeBytes: t.exposeInt('blockSizeBytes', { description: 'Size, bytes.' }),
    l1ValidatorsAccruedFees: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'Fees accrued by L1 validators so far, nano-AVAX (P-chain, after Etna).',
      resolve: (b) => b.l1ValidatorsAccruedFees ?? null,
    }),
    activeL1Validators: t.exposeInt('activeL1Validators', { nullable: true, description: 'Active L1 validators at this block (P-chain, after Etna).' }),
    currentSupply: t.field({ type: 'UInt256', nullable: true, description: 'AVAX supply at this block, nano-AVAX.', resolve: (b) => b.currentSupply ?? null }),
    proposerDetails: t.field({ type: ProposerDetailsRef, nullable: true, description: 'Proposer data.', resolve: (b) => b.proposerDetails ?? null }),
    proposer: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: "The proposing node's primary-network validation (from `proposerDetails.proposerNodeId`).",
      extensions: { cost: validatorLinkCost },
      resolve: (b, _args, ctx) => {
        const nodeId = b.proposerDetails?.proposerNodeId;
        return nodeId ? loadValidator(ctx, b.network, nodeId) : null;
      },
    }),
  }),
});

// Blocks can share a second; a refetch reads at most this many pages back from the block's time.
const BLOCK_REFETCH_PAGES = 3;
const BLOCK_REFETCH_PAGE_SIZE = 25;

/**
 * E15 has no single-block lookup: the id carries the block's timestamp, so a
 * refetch lists the blocks up to that second (`endTimestamp` = timestamp + 1)
 * and matches the hash, reading back only while blocks of that second remain.
 */
registerNodeFamily('Block', {
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, ID_PARTS.decimal, ID_PARTS.uint, ID_PARTS.blockHash],
  load: async (ctx, [network, blockchainId, _blockNumber, timestamp, blockHash]) => {
    const ts = Number(timestamp);
    if (!isNetwork(network) || !blockchainId || !blockHash || !Number.isSafeInteger(ts) || ts < 0) return null;
    let pageToken: string | undefined;
    for (let pages = 0; pages < BLOCK_REFETCH_PAGES; pages++) {
      const page = await ctx.dataApi.listBlocks(
        network,
        blockchainId,
        { endTimestamp: ts + 1, pageSize: BLOCK_REFETCH_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) },
        ctx.call,
      );
      const found = page.blocks.find((b) => b.blockHash === blockHash);
      if (found) return { ...found, network, blockchainId };
      const oldest = page.blocks[page.blocks.length - 1];
      pageToken = page.nextPageToken;
      if (!pageToken || !oldest || oldest.blockTimestamp < ts) break;
    }
    return null;
  },
  typeOf: () => 'Block',
  refetchCalls: (ids) => ids.length * BLOCK_REFETCH_PAGES,
});

// ---------------------------------------------------------------- Vertex

export const VertexRef = builder.objectRef<VertexShape>('Vertex').implement({
  description: 'An X-chain vertex (the DAG era of the X-chain, before its linearization in Cortina).',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'vertexHash' in value,
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (v) => encodeGlobalId('Vertex', [v.network, v.blockchainId, v.vertexHeight, v.vertexHash]) }),
    network: t.field({ type: 'String', description: 'Network (mainnet or fuji).', resolve: (v) => v.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The X-chain id.' }),
    vertexHash: t.exposeString('vertexHash', { description: 'Vertex hash (id).' }),
    parentHashes: t.exposeStringList('parentHashes', { description: 'Parent vertices.' }),
    vertexHeight: t.exposeInt('vertexHeight', { description: 'Height in the DAG.' }),
    vertexIndex: t.exposeInt('vertexIndex', { description: 'Acceptance index.' }),
    vertexTimestamp: t.exposeInt('vertexTimestamp', { description: 'When it was accepted, unix seconds.' }),
    txCount: t.exposeInt('txCount', { description: 'Number of transactions.' }),
    transactions: t.exposeStringList('transactions', { description: 'Transaction ids.' }),
    vertexSizeBytes: t.exposeInt('vertexSizeBytes', { description: 'Size, bytes.' }),
  }),
});

// E18 lists the latest vertices only, with no filter: a refetch reads back at most this many pages.
const VERTEX_REFETCH_PAGES = 5;

/**
 * Best effort: E18 cannot look a vertex up, so a refetch reads the latest pages
 * (newest first) until it passes the vertex's height. Vertices deeper than
 * `VERTEX_REFETCH_PAGES` pages of 100 refetch as null.
 */
registerNodeFamily('Vertex', {
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, ID_PARTS.uint, ID_PARTS.cb58Id],
  load: async (ctx, [network, blockchainId, height, vertexHash]) => {
    const h = Number(height);
    if (!isNetwork(network) || !blockchainId || !vertexHash || !Number.isSafeInteger(h)) return null;
    let pageToken: string | undefined;
    for (let pages = 0; pages < VERTEX_REFETCH_PAGES; pages++) {
      const page = await ctx.dataApi.listVertices(network, blockchainId, { pageSize: PAGES.vertices.maxSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
      const found = page.vertices.find((v) => v.vertexHash === vertexHash);
      if (found) return { ...found, network, blockchainId };
      const lowest = Math.min(...page.vertices.map((v) => v.vertexHeight));
      pageToken = page.nextPageToken;
      if (!pageToken || lowest < h) break;
    }
    return null;
  },
  typeOf: () => 'Vertex',
  refetchCalls: (ids) => ids.length * VERTEX_REFETCH_PAGES,
});

// ---------------------------------------------------------------- Utxo

export const UtxoSortByEnum = builder.enumType('UtxoSortBy', {
  description: 'Sort key of a UTXO listing.',
  values: {
    TIMESTAMP: { value: 'timestamp', description: 'Creation time (default).' },
    AMOUNT: { value: 'amount', description: 'Amount.' },
  } as const,
});

export const UtxoRef = builder.objectRef<UtxoShape>('Utxo').implement({
  description: 'An unspent (or, with `includeSpent`, spent) transaction output on the P-, X- or C-chain.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'utxoId' in value && 'createdOnChainId' in value,
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (u) => encodeGlobalId('Utxo', [u.network, u.blockchainId, u.addresses[0] ?? '', u.utxoId]) }),
    network: t.field({ type: 'String', description: 'Network (mainnet or fuji).', resolve: (u) => u.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The chain the UTXO was listed on.' }),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO id.' }),
    addresses: t.exposeStringList('addresses', { description: 'Addresses that own it.' }),
    asset: t.field({ type: AssetAmountRef, description: 'Asset and amount.', resolve: (u) => u.asset }),
    amount: t.field({ type: 'UInt256', description: 'Amount in the smallest unit (deprecated upstream: use `asset.amount`).', resolve: (u) => u.amount }),
    assetId: t.exposeString('assetId', { description: 'Asset id (deprecated upstream: use `asset.assetId`).' }),
    consumedOnChainId: t.exposeString('consumedOnChainId', { description: 'Chain on which it is (or will be) consumed.' }),
    createdOnChainId: t.exposeString('createdOnChainId', { description: 'Chain on which it was created.' }),
    txHash: t.exposeString('txHash', { description: 'The creating transaction.' }),
    consumingTxHash: t.exposeString('consumingTxHash', { nullable: true, description: 'The spending transaction, if spent.' }),
    utxoBytes: t.exposeString('utxoBytes', { nullable: true, description: 'The serialized UTXO, hex.' }),
    outputIndex: t.exposeInt('outputIndex', { description: 'Output index in the creating transaction.' }),
    blockNumber: t.field({ type: 'UInt256', nullable: true, description: 'Height of the creating block.', resolve: (u) => u.blockNumber ?? null }),
    blockTimestamp: t.exposeInt('blockTimestamp', { description: 'When it was created, unix seconds.' }),
    consumingBlockNumber: t.field({ type: 'UInt256', nullable: true, description: 'Height of the spending block, if spent.', resolve: (u) => u.consumingBlockNumber ?? null }),
    consumingBlockTimestamp: t.exposeInt('consumingBlockTimestamp', { nullable: true, description: 'When it was spent, unix seconds.' }),
    platformLocktime: t.exposeInt('platformLocktime', { nullable: true, description: 'Locked until, unix seconds (0 = unlocked).' }),
    stakeableLocktime: t.exposeInt('stakeableLocktime', { nullable: true, description: 'Stakeable lock until, unix seconds (P-chain).' }),
    threshold: t.exposeInt('threshold', { nullable: true, description: 'Signatures needed to spend it.' }),
    rewardType: t.field({ type: RewardType.ref, nullable: true, description: 'For reward outputs: what the reward paid for.', resolve: (u) => RewardType.out(u.rewardType) }),
    staked: t.exposeBoolean('staked', { nullable: true, description: 'True while staked (P-chain).' }),
    utxoStartTimestamp: t.exposeInt('utxoStartTimestamp', { nullable: true, description: 'Start of the staking period for staked outputs, unix seconds.' }),
    utxoEndTimestamp: t.exposeInt('utxoEndTimestamp', { nullable: true, description: 'End of the staking period for staked outputs, unix seconds.' }),
    utxoType: t.exposeString('utxoType', { description: 'Output kind as the upstream names it (e.g. STAKE, TRANSFER).' }),
  }),
});

// A refetch lists the owner's UTXOs (spent ones too) and matches the id, at most this many pages.
const UTXO_REFETCH_PAGES = 5;

registerNodeFamily('Utxo', {
  parts: [ID_PARTS.network, ID_PARTS.primaryChain, optional(ID_PARTS.primaryAddress), ID_PARTS.cb58Id],
  load: async (ctx, [network, blockchainId, address, utxoId]) => {
    if (!isNetwork(network) || !blockchainId || !address || !utxoId) return null;
    let pageToken: string | undefined;
    for (let pages = 0; pages < UTXO_REFETCH_PAGES; pages++) {
      const page = await ctx.dataApi.listUtxos(
        network,
        blockchainId,
        { addresses: [address], includeSpent: true, pageSize: PAGES.utxos.maxSize, ...(pageToken ? { pageToken } : {}) },
        ctx.call,
      );
      const found = page.utxos.find((u) => u.utxoId === utxoId);
      if (found) return { ...found, network, blockchainId };
      pageToken = page.nextPageToken;
      if (!pageToken) break;
    }
    return null;
  },
  typeOf: () => 'Utxo',
  refetchCalls: (ids) => ids.length * UTXO_REFETCH_PAGES,
});

// ---------------------------------------------------------------- connections

const chainInfoField = <T>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, Connection<T>>) =>
  t.field({
    type: ChainInfoRef,
    nullable: true,
    description: 'Which chain and network the upstream says it listed.',
    resolve: (c) => (c as ConnectionWithChainInfo<T>).chainInfo ?? null,
  });

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

export const BlockConnection = builder.connectionObject(
  { type: BlockRef, name: 'BlockConnection', description: 'A page of blocks, newest first.', fields: (t) => ({ chainInfo: chainInfoField(t as never) }) },
  { name: 'BlockEdge', description: 'A block and its cursor.' },
);

export const VertexConnection = builder.connectionObject(
  { type: VertexRef, name: 'VertexConnection', description: 'A page of X-chain vertices, newest first.', fields: (t) => ({ chainInfo: chainInfoField(t as never) }) },
  { name: 'VertexEdge', description: 'A vertex and its cursor.' },
);

export const UtxoConnection = builder.connectionObject(
  { type: UtxoRef, name: 'UtxoConnection', description: 'A page of UTXOs.', fields: (t) => ({ chainInfo: chainInfoField(t as never) }) },
  { name: 'UtxoEdge', description: 'A UTXO and its cursor.' },
);

/** Runs a connection and keeps the `chainInfo` of the last page read. */
async function withChainInfo<T>(
  run: (track: (page: UpstreamPage<T> & { chainInfo?: ChainInfo | undefined }) => UpstreamPage<T>) => Promise<Connection<T>>,
): Promise<ConnectionWithChainInfo<T>> {
  let chainInfo: ChainInfo | null = null;
  const connection = await run((page) => {
    chainInfo = page.chainInfo ?? chainInfo;
    return page;
  });
  return { ...connection, chainInfo };
}

// ---------------------------------------------------------------- PrimaryBlockchain

interface BlocksArgs extends ConnectionArgs {
  startTimestamp?: number | null;
  endTimestamp?: number | null;
}

function checkBlocksArgs(args: BlocksArgs): void {
  checkFirst(args.first, PAGES.blocks);
  for (const name of ['startTimestamp', 'endTimestamp'] as const) checkNonNegativeInt(name, args[name], 'unix seconds');
  if (args.startTimestamp != null && args.endTimestamp != null && args.startTimestamp > args.endTimestamp) {
    throw badInput('startTimestamp', 'must not be after endTimestamp');
  }
}

interface UtxosArgs extends ConnectionArgs {
  addresses: string[];
  assetId?: string | null;
  minUtxoAmount?: number | null;
  includeSpent?: boolean | null;
  sortBy?: string | null;
  sortOrder?: string | null;
}

function checkUtxosArgs(args: UtxosArgs): void {
  checkFirst(args.first, PAGES.utxos);
  checkPrimaryAddresses('addresses', args.addresses, ['P', 'X', 'C'], true);
  checkRange('minUtxoAmount', args.minUtxoAmount, 0, Number.MAX_SAFE_INTEGER);
  if (args.assetId != null) checkCb58Id('assetId', args.assetId, 'an asset id (cb58 of 32 bytes)');
}

const isXChain = (b: PrimaryBlockchainShape): boolean => b.blockchainId === PRIMARY_CHAIN_IDS[b.network].x;

export const PrimaryBlockchainRef = builder.objectRef<PrimaryBlockchainShape>('PrimaryBlockchain').implement({
  description: 'A primary-network chain (P, X or C) as the root of its block, vertex and UTXO listings. Resolving it makes no upstream call.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'alias' in value && 'blockchainId' in value,
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (b) => encodeGlobalId('PrimaryBlockchain', [b.network, b.blockchainId]) }),
    network: t.field({ type: NetworkNameEnum, description: 'The network.', resolve: (b) => b.network }),
    blockchainId: t.exposeString('blockchainId', { description: 'The blockchain id (aliases resolved to the fixed id).' }),
    alias: t.exposeString('alias', { nullable: true, description: '`p-chain`, `x-chain` or `c-chain`; null for another id.' }),
    blockchain: t.field({
      type: BlockchainRef,
      nullable: true,
      description: 'This chain as a blockchain record (VM, subnet), from the request\'s one subnet list.',
      // The subnet list, once per request and network.
      extensions: { cost: costs.oncePerScope(2) },
      resolve: (b, _args, ctx) => blockchainById(ctx, b.network).load(b.blockchainId),
    }),
    blocks: t.field({
      type: BlockConnection,
      description: 'Latest blocks, newest first (E15). Page size 1-100, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.blocks),
        startTimestamp: t.arg.int({ description: 'Only blocks at or after this time, unix seconds (>= 0).' }),
        endTimestamp: t.arg.int({ description: 'Only blocks at or before this time, unix seconds (>= 0).' }),
      },
      extensions: { validateArgs: (args) => checkBlocksArgs(args as BlocksArgs), cost: costs.listing(PAGES.blocks) },
      resolve: (b, rawArgs, ctx) => {
        const args = rawArgs as BlocksArgs;
        return withChainInfo<BlockShape>((track) =>
          resolvePageConnection<BlockShape>({
            ctx,
            page: PAGES.blocks,
            args,
            parent: { network: b.network, blockchainId: b.blockchainId },
            fetchPage: async (pageToken, pageSize) => {
              const page = await ctx.dataApi.listBlocks(
                b.network,
                b.blockchainId,
                {
                  pageSize,
                  ...(pageToken ? { pageToken } : {}),
                  ...(args.startTimestamp != null ? { startTimestamp: args.startTimestamp } : {}),
                  ...(args.endTimestamp != null ? { endTimestamp: args.endTimestamp } : {}),
                },
                ctx.call,
              );
              return track({ items: page.blocks.map((block) => withChain(b, block)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo });
            },
          }),
        );
      },
    }),
    vertices: t.field({
      type: VertexConnection,
      description: 'Latest vertices, newest first (E18). X-chain only. Page size 1-100, default 10.',
      args: {
        ...pageArgs(t.arg, PAGES.vertices),
      },
      extensions: { validateArgs: (args) => void checkFirst(args['first'], PAGES.vertices), cost: costs.listing(PAGES.vertices) },
      resolve: (b, args, ctx) => {
        if (!isXChain(b)) throw badInput('vertices', 'vertices exist only on the X-chain (x-chain)');
        return withChainInfo<VertexShape>((track) =>
          resolvePageConnection<VertexShape>({
            ctx,
            page: PAGES.vertices,
            args,
            parent: { network: b.network, blockchainId: b.blockchainId },
            fetchPage: async (pageToken, pageSize) => {
              const page = await ctx.dataApi.listVertices(b.network, b.blockchainId, { pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
              return track({ items: page.vertices.map((v) => withChain(b, v)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo });
            },
          }),
        );
      },
    }),
    utxos: t.field({
      type: UtxoConnection,
      description: 'UTXOs owned by some addresses on this chain (E4). Page size 1-1024, default 10.',
      args: {
        addresses: t.arg.stringList({
          required: true,
          description: `Primary-network addresses of this network (\`avax1...\`/\`fuji1...\`, optionally with a \`P-\`/\`X-\`/\`C-\` prefix): 1 to ${INPUT_LIMITS.addresses}.`,
        }),
        ...pageArgs(t.arg, PAGES.utxos),
        assetId: t.arg.string({ description: 'Only this asset (cb58 id). X-chain only.' }),
        minUtxoAmount: t.arg.float({ description: `Only UTXOs of at least this amount, nano-units (0 to ${Number.MAX_SAFE_INTEGER}, inclusive).` }),
        includeSpent: t.arg.boolean({ description: 'Include spent UTXOs (default false).' }),
        sortBy: t.arg({ type: UtxoSortByEnum, description: 'Sort key (default TIMESTAMP).' }),
        sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
      },
      extensions: { validateArgs: (args) => checkUtxosArgs(args as unknown as UtxosArgs), cost: costs.listing(PAGES.utxos) },
      resolve: (b, rawArgs, ctx) => {
        const args = rawArgs as unknown as UtxosArgs;
        if (args.assetId != null && !isXChain(b)) throw badInput('assetId', 'is only supported on the X-chain');
        checkAddressesOnNetwork('addresses', args.addresses, b.network);
        const params: ListUtxosParams = {
          addresses: args.addresses,
          ...(args.assetId != null ? { assetId: args.assetId } : {}),
          ...(args.minUtxoAmount != null ? { minUtxoAmount: args.minUtxoAmount } : {}),
          ...(args.includeSpent != null ? { includeSpent: args.includeSpent } : {}),
          ...(args.sortBy ? { sortBy: args.sortBy as UtxoSortBy } : {}),
          ...(args.sortOrder ? { sortOrder: args.sortOrder as SortOrder } : {}),
        };
        return withChainInfo<UtxoShape>((track) =>
          resolvePageConnection<UtxoShape>({
            ctx,
            page: PAGES.utxos,
            args,
            parent: { network: b.network, blockchainId: b.blockchainId },
            fetchPage: async (pageToken, pageSize) => {
              const page = await ctx.dataApi.listUtxos(b.network, b.blockchainId, { ...params, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
              return track({ items: page.utxos.map((u) => withChain(b, u)), nextPageToken: page.nextPageToken, chainInfo: page.chainInfo });
            },
          }),
        );
      },
    }),
  }),
});

registerNodeFamily('PrimaryBlockchain', {
  parts: [ID_PARTS.network, ID_PARTS.primaryChain],
  load: async (_ctx, [network, blockchainId]) => {
    if (!isNetwork(network) || !blockchainId) return null;
    const chain = chainOf(network, blockchainId);
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
    description: 'A primary-network chain, the root of its blocks, vertices and UTXOs: `p-chain`, `x-chain`, `c-chain` or the fixed blockchain id of one. Makes no upstream call by itself.',
    args: { id: t.arg.string({ required: true, description: PRIMARY_CHAIN_ARG }) },
    extensions: { validateArgs: (args) => checkPrimaryChainId('id', args['id']) },
    resolve: (n, args) => resolvePrimaryChain('id', n.network, args.id),
  }),
}));

// ---------------------------------------------------------------- Subscription.blocks

/** How often `Subscription.blocks` polls E15. */
const BLOCK_POLL_INTERVAL_MS = 2000;
// Blocks fetched per poll, and pages read when more than that arrived since the last poll.
const BLOCK_POLL_PAGE_SIZE = 20;
const BLOCK_POLL_MAX_PAGES = 5;

/** Resolves after `ms`, or at once when `signal` aborts (never rejects: the poll loop checks the signal). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Transient failures (timeouts, 429, 5xx, network, an open breaker, the upstream rate ceiling) skip one poll; anything else ends the subscription. */
function isTransient(error: unknown): boolean {
  if (!isUpstreamError(error)) return false;
  if (error.kind === 'http') return error.status === 429 || (error.status ?? 0) >= 500;
  return error.kind === 'timeout' || error.kind === 'network' || error.kind === 'protocol' || error.kind === 'circuit' || error.kind === 'throttled';
}

async function* pollBlocks(ctx: Context, chain: PrimaryBlockchainShape, signal: AbortSignal): AsyncGenerator<BlockShape> {
  const call = { ...ctx.call, signal };
  const list = (pageToken: string | undefined, pageSize: number) =>
    ctx.dataApi.listBlocks(chain.network, chain.blockchainId, { pageSize, ...(pageToken ? { pageToken } : {}) }, call);

  const head = await list(undefined, 1);
  let last = head.blocks[0] ? BigInt(head.blocks[0].blockNumber) : -1n;
  while (!signal.aborted) {
    await pause(BLOCK_POLL_INTERVAL_MS, signal);
    if (signal.aborted) return;
    // Each poll gets the subscription's per-event budget (useQueryCost); a spent one ends the subscription.
    newBudgetWindow(ctx.upstreamCalls);
    const fresh: Block[] = [];
    try {
      let pageToken: string | undefined;
      for (let pages = 0; pages < BLOCK_POLL_MAX_PAGES; pages++) {
        const page = await list(pageToken, BLOCK_POLL_PAGE_SIZE);
        const newer = page.blocks.filter((b) => BigInt(b.blockNumber) > last);
        fresh.push(...newer);
        pageToken = page.nextPageToken;
        if (!pageToken || newer.length < page.blocks.length) break;
      }
    } catch (error) {
      if (signal.aborted) return;
      if (isTransient(error)) continue;
      throw error;
    }
    fresh.sort((a, b) => (BigInt(a.blockNumber) < BigInt(b.blockNumber) ? -1 : 1));
    for (const block of fresh) {
      const height = BigInt(block.blockNumber);
      if (height <= last) continue;
      last = height;
      yield withChain(chain, block);
    }
  }
}

/**
 * The poll loop behind an iterator whose `return()` stops it at once: it aborts
 * the pause and any upstream call in flight, instead of waiting for the next poll.
 */
function blockStream(ctx: Context, chain: PrimaryBlockchainShape): AsyncIterableIterator<BlockShape> {
  const stop = new AbortController();
  const signal = ctx.call.signal ? AbortSignal.any([ctx.call.signal, stop.signal]) : stop.signal;
  const inner = pollBlocks(ctx, chain, signal);
  const iterator: AsyncIterableIterator<BlockShape> = {
    next: () => inner.next(),
    return: async () => {
      stop.abort();
      return inner.return(undefined);
    },
    throw: async (error: unknown) => {
      stop.abort();
      return inner.throw(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

builder.subscriptionField('blocks', (t) =>
  t.field({
    type: BlockRef,
    description: `Each new block of a primary-network chain, oldest first, as the Data API indexes it (E15 polled every ${BLOCK_POLL_INTERVAL_MS / 1000} s). Starts with the first block after subscribing.`,
    args: {
      network: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }),
      blockchainId: t.arg.string({ required: true, description: PRIMARY_CHAIN_ARG }),
    },
    extensions: {
      validateArgs: (args) => checkPrimaryChainId('blockchainId', args['blockchainId']),
      // Per event: one poll (at most BLOCK_POLL_MAX_PAGES pages; the head read at the start is one call).
      cost: costs.perParent(BLOCK_POLL_MAX_PAGES),
    },
    subscribe: (_root, args, ctx) => blockStream(ctx, resolvePrimaryChain('blockchainId', networkId(args.network), args.blockchainId)),
    resolve: (block: BlockShape) => block,
  }),
);
