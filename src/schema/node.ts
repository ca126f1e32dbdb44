import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { badInput, codedError, ErrorCode, isUpstreamError } from '../errors.ts';
import {
  MAX_PEER_IDS_PER_CALL, nodeForNetwork, nodeNetwork, nodeRpc, peerByNodeId, sortedPeers, type PeerShape,
} from '../loaders/nodes.ts';
import type { NetworkId } from '../loaders/types.ts';
import { costs, pageOf, type FieldCost } from '../lib/cost.ts';
import type { AcpPreference, TxFees, Upgrades } from '../shapes/index.ts';
import type { NodeClient } from '../upstream/client-types.ts';
import type { Connection } from './connection.ts';
import { checkAlias, checkNodeIds, checkNodeName, checkSubnetId, INPUT_LIMITS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import {
  argsHash, checkFirst, decodeCursor, filterArgs, parentHash, type PageSpec,
} from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { loadValidator, validatorLinkCost, ValidatorInterface } from './validators.ts';
import { pageArgs } from './connection.ts';

/**
 * The backing shape of `AvalancheNode`: only the configured name. Every field asks
 * that node (through the per-request cache in `src/loaders/nodes.ts`); the node's URL
 * is never exposed, since it may carry credentials.
 */
export interface AvalancheNodeShape {
  name: string;
}

/** The configured node behind a shape or a `node` argument; NODE_NOT_CONFIGURED when there is none. */
export function requireNode(ctx: Context, name?: string | null): NodeClient {
  const node = ctx.nodes.get(name);
  if (node) return node;
  throw name == null
    ? codedError(ErrorCode.NODE_NOT_CONFIGURED, 'No node is configured (set NODE_URLS)')
    : codedError(ErrorCode.NODE_NOT_CONFIGURED, `No node named "${name}" is configured`, { node: name, configured: ctx.nodes.list.map((n) => n.name) });
}

/**
 * A node's "no such thing" answers are JSON-RPC errors (code -32000) whose message is
 * the only signal; the messages are avalanchego's own (reference/node-api-facts.md).
 * A single lookup of something that does not exist is null, like everywhere else.
 */
export async function nullWhenRpcSays<T>(promise: Promise<T>, message: RegExp): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (isUpstreamError(error) && error.kind === 'rpc' && message.test(error.rpcError?.message ?? '')) return null;
    throw error;
  }
}

const asNetwork = (name: string | null | undefined): NetworkId | undefined => (name == null ? undefined : networkId(name));

/** The network a node-scoped link reads from: the argument, else the node's own network, else mainnet. */
async function linkNetwork(ctx: Context, node: NodeClient, requested: string | null | undefined): Promise<NetworkId> {
  return asNetwork(requested) ?? (await nodeNetwork(ctx, node).catch(() => undefined)) ?? 'mainnet';
}

export const AvalancheNodeRef = builder.objectRef<AvalancheNodeShape>('AvalancheNode');

/**
 * A node method: one JSON-RPC call per node (`nodeRpc` makes each method and params
 * once per request and node). The network of a node is learned once per process
 * (`NodeDirectory.networkIdOf`), so links that need it add nothing.
 */
export const NODE_METHOD: FieldCost = costs.nodeMethod();

const NodePopRef = builder.objectRef<{ publicKey: string; proofOfPossession: string }>('NodePop').implement({
  description: "The node's BLS key and its proof of possession (info.getNodeID `nodePOP`).",
  fields: (t) => ({
    publicKey: t.exposeString('publicKey', { nullable: false, description: '48-byte compressed BLS public key, 0x-prefixed hex.' }),
    proofOfPossession: t.exposeString('proofOfPossession', { nullable: false, description: '96-byte BLS signature proving possession of the key, 0x-prefixed hex.' }),
  }),
});

interface NameVersion {
  name: string;
  version: string;
}

const NodeVmVersionRef = builder.objectRef<NameVersion>('NodeVmVersion').implement({
  description: 'Version of one VM the node runs.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'VM name (its primary alias, e.g. `avm`, `evm`, `platform`).' }),
    version: t.exposeString('version', { nullable: false, description: 'Version of that VM.' }),
  }),
});

type NodeVersionShape = Awaited<ReturnType<typeof nodeRpc<'info.getNodeVersion'>>>;

const NodeVersionRef = builder.objectRef<NodeVersionShape>('NodeVersion').implement({
  description: 'Versions of the node software (info.getNodeVersion).',
  fields: (t) => ({
    version: t.exposeString('version', { nullable: false, description: 'Node version, e.g. `avalanchego/1.14.2`.' }),
    databaseVersion: t.exposeString('databaseVersion', { nullable: false, description: 'Database version, e.g. `v1.4.5`.' }),
    gitCommit: t.exposeString('gitCommit', { nullable: false, description: 'Git commit the node was built from (may be empty).' }),
    rpcProtocolVersion: t.exposeString('rpcProtocolVersion', { nullable: false, description: 'RPCChainVM protocol version, a decimal string (e.g. "45").' }),
    vmVersions: t.field({
      type: [NodeVmVersionRef],
      nullable: false,
      description: 'Version of each VM, sorted by VM name.',
      resolve: (v) => Object.entries(v.vmVersions ?? {}).map(([name, version]) => ({ name, version })).sort((a, b) => a.name.localeCompare(b.name)),
    }),
  }),
});

const uint = (description: string, key: keyof TxFees) =>
  ({ type: 'UInt256' as const, nullable: false, description, resolve: (fees: TxFees) => fees[key] });

const NodeTxFeesRef = builder.objectRef<TxFees>('NodeTxFees').implement({
  description: 'Fee record of info.getTxFee, in nano-AVAX (deprecated by the node since v1.12.2).',
  fields: (t) => ({
    txFee: t.field(uint('Default fee of an X-chain transaction.', 'txFee')),
    createAssetTxFee: t.field(uint('Fee of a CreateAssetTx on the X-chain.', 'createAssetTxFee')),
    createSubnetTxFee: t.field(uint('No longer used.', 'createSubnetTxFee')),
    transformSubnetTxFee: t.field(uint('No longer used.', 'transformSubnetTxFee')),
    createBlockchainTxFee: t.field(uint('No longer used.', 'createBlockchainTxFee')),
    addPrimaryNetworkValidatorFee: t.field(uint('No longer used.', 'addPrimaryNetworkValidatorFee')),
    addPrimaryNetworkDelegatorFee: t.field(uint('No longer used.', 'addPrimaryNetworkDelegatorFee')),
    addSubnetValidatorFee: t.field(uint('No longer used.', 'addSubnetValidatorFee')),
    addSubnetDelegatorFee: t.field(uint('No longer used.', 'addSubnetDelegatorFee')),
  }),
});

export const NodeVmRef = builder.objectRef<{ vmId: string; aliases: string[] }>('NodeVm').implement({
  description: 'A VM installed on the node (info.getVMs).',
  fields: (t) => ({
    vmId: t.exposeString('vmId', { nullable: false, description: 'VM id (cb58).' }),
    aliases: t.exposeStringList('aliases', { nullable: false, description: "The VM's aliases, e.g. `avm`." }),
  }),
});

const NodeFxRef = builder.objectRef<{ fxId: string; name: string }>('NodeFx').implement({
  description: 'A feature extension installed on the node (info.getVMs `fxs`).',
  fields: (t) => ({
    fxId: t.exposeString('fxId', { nullable: false, description: 'Fx id (cb58).' }),
    name: t.exposeString('name', { nullable: false, description: 'Fx name, e.g. `secp256k1fx`.' }),
  }),
});

const NodeUptimeRef = builder
  .objectRef<{ rewardingStakePercentage: number; weightedAveragePercentage: number }>('NodeUptime')
  .implement({
    description: 'How the network sees this node\'s uptime (info.uptime).',
    fields: (t) => ({
      rewardingStakePercentage: t.exposeFloat('rewardingStakePercentage', { nullable: false, description: 'Percent of stake that considers this node above the uptime requirement.' }),
      weightedAveragePercentage: t.exposeFloat('weightedAveragePercentage', { nullable: false, description: 'Stake-weighted mean of the uptimes observed by the peers, percent.' }),
    }),
  });

const time = (key: keyof Upgrades, what: string) =>
  ({ type: 'String' as const, nullable: true as const, description: `Activation time of ${what}, ISO 8601 (null when the node does not report it).`, resolve: (u: Upgrades) => (u[key] as string | undefined) ?? null });

const NetworkUpgradesRef = builder.objectRef<Upgrades>('NetworkUpgrades').implement({
  description: 'Activation schedule of the named network upgrades, as the node is configured (info.upgrades). Times far in the future (9999-...) mean unscheduled.',
  fields: (t) => ({
    apricotPhase1Time: t.field(time('apricotPhase1Time', 'Apricot phase 1')),
    apricotPhase2Time: t.field(time('apricotPhase2Time', 'Apricot phase 2')),
    apricotPhase3Time: t.field(time('apricotPhase3Time', 'Apricot phase 3')),
    apricotPhase4Time: t.field(time('apricotPhase4Time', 'Apricot phase 4')),
    apricotPhase4MinPChainHeight: t.field({ type: 'UInt256', nullable: true, description: 'Minimum P-chain height of Apricot phase 4.', resolve: (u) => u.apricotPhase4MinPChainHeight ?? null }),
    apricotPhase5Time: t.field(time('apricotPhase5Time', 'Apricot phase 5')),
    apricotPhasePre6Time: t.field(time('apricotPhasePre6Time', 'Apricot phase pre-6')),
    apricotPhase6Time: t.field(time('apricotPhase6Time', 'Apricot phase 6')),
    apricotPhasePost6Time: t.field(time('apricotPhasePost6Time', 'Apricot phase post-6')),
    banffTime: t.field(time('banffTime', 'Banff')),
    cortinaTime: t.field(time('cortinaTime', 'Cortina')),
    cortinaXChainStopVertexID: t.string({ nullable: true, description: 'Last X-chain vertex before Cortina linearised the X-chain (cb58).', resolve: (u) => u.cortinaXChainStopVertexID ?? null }),
    durangoTime: t.field(time('durangoTime', 'Durango')),
    etnaTime: t.field(time('etnaTime', 'Etna')),
    fortunaTime: t.field(time('fortunaTime', 'Fortuna')),
    graniteTime: t.field(time('graniteTime', 'Granite')),
    graniteEpochDuration: t.field({ type: 'UInt256', nullable: true, description: 'Epoch duration from Granite on, nanoseconds (nodes from v1.14.0).', resolve: (u) => u.graniteEpochDuration ?? null }),
    heliconTime: t.field(time('heliconTime', 'Helicon (nodes from v1.14.1)')),
  }),
});

const AcpPreferenceRef = builder.objectRef<AcpPreference & { acpNumber: number }>('AcpPreference').implement({
  description: "The connected primary-network validators' stance on one Avalanche Community Proposal (info.acps).",
  fields: (t) => ({
    acpNumber: t.exposeInt('acpNumber', { nullable: false, description: 'Proposal number.' }),
    supportWeight: t.field({ type: 'UInt256', nullable: false, description: 'Stake weight of the supporters.', resolve: (a) => a.supportWeight }),
    supporters: t.exposeStringList('supporters', { nullable: false, description: 'Node ids supporting it.' }),
    objectWeight: t.field({ type: 'UInt256', nullable: false, description: 'Stake weight of the objectors.', resolve: (a) => a.objectWeight }),
    objectors: t.exposeStringList('objectors', { nullable: false, description: 'Node ids objecting to it.' }),
    abstainWeight: t.field({ type: 'UInt256', nullable: false, description: 'Stake weight of the validators that neither support nor object.', resolve: (a) => a.abstainWeight }),
  }),
});

export const PeerRef = builder.objectRef<PeerShape>('Peer').implement({
  description: 'A node connected to a configured node (info.peers).',
  fields: (t) => ({
    nodeID: t.exposeString('nodeID', { nullable: false, description: "The peer's node id, `NodeID-...`." }),
    ip: t.exposeString('ip', { nullable: false, description: 'Remote address of the connection (`host:port`).' }),
    publicIP: t.exposeString('publicIP', { nullable: false, description: 'Public address the peer announces (`host:port`, empty when unknown).' }),
    version: t.exposeString('version', { nullable: false, description: 'Software version the peer runs, e.g. `avalanchego/1.14.2`.' }),
    upgradeTime: t.int({ nullable: true, description: 'Upgrade time the peer announced, unix seconds (nodes from v1.14.1).', resolve: (p) => p.upgradeTime ?? null }),
    lastSent: t.exposeString('lastSent', { nullable: false, description: 'When a message was last sent to the peer (RFC 3339).' }),
    lastReceived: t.exposeString('lastReceived', { nullable: false, description: 'When a message was last received from the peer (RFC 3339).' }),
    observedUptime: t.exposeFloat('observedUptime', { nullable: false, description: "The configured node's primary-network uptime as this peer observes it, percent." }),
    trackedSubnets: t.exposeStringList('trackedSubnets', { nullable: false, description: 'Subnet ids the peer tracks.' }),
    supportedACPs: t.intList({ nullable: true, description: 'ACP numbers the peer supports.', resolve: (p) => p.supportedACPs ?? null }),
    objectedACPs: t.intList({ nullable: true, description: 'ACP numbers the peer objects to.', resolve: (p) => p.objectedACPs ?? null }),
    benched: t.exposeStringList('benched', { nullable: false, description: 'Chains (primary aliases, e.g. `C`) on which the peer is currently benched.' }),
    node: t.field({
      type: AvalancheNodeRef,
      nullable: false,
      description: 'The configured node this peer was read from.',
      resolve: (p) => ({ name: p.node }),
    }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description:
        "The peer's primary-network validation (active first, else pending, else the latest completed); null when it never validated. Batched: the peers of a page cost one validators call.",
      args: { network: t.arg({ type: NetworkNameEnum, description: "Network to look in; default: the network of the node the peer was read from (MAINNET when that node's network is neither)." }) },
      extensions: { cost: validatorLinkCost },
      resolve: async (p, args, ctx) => {
        const node = ctx.nodes.get(p.node);
        const network = node ? await linkNetwork(ctx, node, args.network) : (asNetwork(args.network) ?? 'mainnet');
        return loadValidator(ctx, network, p.nodeID);
      },
    }),
  }),
});

/**
 * Peers are an in-memory list read with one `info.peers` call. It is sorted by node
 * id, and a cursor holds the node id of its edge: `after` continues with the next
 * node id, so pages stay consistent while peers connect and disconnect.
 */
export const PEERS_PAGE: PageSpec = { name: 'peers', defaultSize: 100, maxSize: 1000 };

interface PeerConnectionShape extends Connection<PeerShape> {
  totalCount: number;
}

export const PeerConnectionRef = builder.connectionObject(
  { type: PeerRef, name: 'PeerConnection', description: 'A page of the peers of a node, in node-id order.' },
  { name: 'PeerEdge', description: 'A peer and its cursor.' },
);

builder.objectFields(PeerConnectionRef, (t) => ({
  totalCount: t.int({ nullable: false, description: 'Number of peers matching the arguments (`numPeers`), on all pages.', resolve: (c) => (c as unknown as PeerConnectionShape).totalCount }),
}));

interface PeersArgs {
  nodeIds?: string[] | null;
  first?: number | null;
  after?: string | null;
}

function checkPeersArgs(args: PeersArgs): number {
  const first = checkFirst(args.first, PEERS_PAGE);
  const ids = args.nodeIds ?? [];
  checkNodeIds('nodeIds', ids, INPUT_LIMITS.peerNodeIds);
  return first;
}

async function resolvePeers(ctx: Context, node: NodeClient, args: PeersArgs): Promise<PeerConnectionShape> {
  const first = checkPeersArgs(args);
  const ids = args.nodeIds?.length ? [...new Set(args.nodeIds)].sort() : undefined;
  const hash = argsHash(PEERS_PAGE, filterArgs({ nodeIds: ids }));
  const parent = parentHash({ node: node.name });
  let afterId: string | undefined;
  if (args.after) {
    const cursor = decodeCursor(ctx.cursors, args.after, PEERS_PAGE, hash);
    if (cursor.p !== parent || cursor.t === undefined) throw badInput('after', 'this cursor belongs to another node');
    afterId = cursor.t;
  }
  const peers = await sortedPeers(ctx, node, ids);
  let start = 0;
  if (afterId !== undefined) {
    const bound = afterId;
    start = peers.findIndex((p) => p.nodeID > bound);
    if (start === -1) start = peers.length;
  }
  const page = peers.slice(start, start + first);
  const edges = page.map((peer, i) => ({ cursor: ctx.cursors.encode({ t: peer.nodeID, s: first, i: start + i, h: hash, p: parent }), node: peer }));
  return {
    edges,
    totalCount: peers.length,
    pageInfo: {
      hasNextPage: start + first < peers.length,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

const ofNode = (ctx: Context, n: AvalancheNodeShape): NodeClient => requireNode(ctx, n.name);

AvalancheNodeRef.implement({
  description:
    'One configured node (NODE_URLS), read through its info, health and admin APIs. Every field asks this node; each node method is called at most once per request.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (n) => encodeGlobalId('AvalancheNode', [n.name]) }),
    name: t.exposeString('name', { nullable: false, description: 'The name the node is configured under (its URL is never shown).' }),
    nodeId: t.string({
      nullable: true,
      description: "The node's id, `NodeID-...` (info.getNodeID).",
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, ofNode(ctx, n), 'info.getNodeID')).nodeID,
    }),
    nodePOP: t.field({
      type: NodePopRef,
      nullable: true,
      description: "The node's BLS public key and proof of possession (info.getNodeID).",
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, ofNode(ctx, n), 'info.getNodeID')).nodePOP,
    }),
    ip: t.string({
      nullable: true,
      description: 'The address the node announces to its peers, `host:port` (info.getNodeIP).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, ofNode(ctx, n), 'info.getNodeIP')).ip,
    }),
    version: t.field({
      type: NodeVersionRef,
      nullable: true,
      description: 'Node, database, VM and RPC protocol versions (info.getNodeVersion).',
      extensions: { cost: NODE_METHOD },
      resolve: (n, _args, ctx) => nodeRpc(ctx, ofNode(ctx, n), 'info.getNodeVersion'),
    }),
    networkId: t.int({
      nullable: true,
      description: 'Network id: 1 is mainnet, 5 is fuji (info.getNetworkID).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, ofNode(ctx, n), 'info.getNetworkID')).networkID,
    }),
    networkName: t.string({
      nullable: true,
      description: 'Network name, e.g. `mainnet`, `fuji`, `local` (info.getNetworkName).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, ofNode(ctx, n), 'info.getNetworkName')).networkName,
    }),
    isBootstrapped: t.boolean({
      nullable: true,
      description: 'Whether the node has finished bootstrapping the chain (info.isBootstrapped); null when the node knows no chain by that id or alias.',
      args: { chain: t.arg.string({ required: true, description: `Chain id or alias (\`X\`, \`P\`, \`C\`, ...), at most ${INPUT_LIMITS.aliasBytes} bytes.` }) },
      extensions: { validateArgs: (args) => checkAlias('chain', args['chain']), cost: NODE_METHOD },
      resolve: async (n, args, ctx) =>
        (await nullWhenRpcSays(nodeRpc(ctx, ofNode(ctx, n), 'info.isBootstrapped', { chain: args.chain }), /no chain with alias/i))?.isBootstrapped ?? null,
    }),
    blockchainId: t.string({
      nullable: true,
      description: 'The blockchain id behind an alias (info.getBlockchainID); null when the node knows no such alias.',
      args: { alias: t.arg.string({ required: true, description: `A chain alias, e.g. \`X\`, at most ${INPUT_LIMITS.aliasBytes} bytes.` }) },
      extensions: { validateArgs: (args) => checkAlias('alias', args['alias']), cost: NODE_METHOD },
      resolve: async (n, args, ctx) =>
        (await nullWhenRpcSays(nodeRpc(ctx, ofNode(ctx, n), 'info.getBlockchainID', { alias: args.alias }), /no ID with alias/i))?.blockchainID ?? null,
    }),
    txFee: t.field({
      type: NodeTxFeesRef,
      nullable: true,
      description: 'Transaction fees (info.getTxFee).',
      deprecationReason: 'info.getTxFee is deprecated by the node since v1.12.2; only txFee and createAssetTxFee are still used.',
      extensions: { cost: NODE_METHOD },
      resolve: (n, _args, ctx) => nodeRpc(ctx, ofNode(ctx, n), 'info.getTxFee'),
    }),
    vms: t.field({
      type: [NodeVmRef],
      nullable: true,
      description: 'VMs installed on the node with their aliases, sorted by VM id (info.getVMs).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => {
        const { vms } = await nodeRpc(ctx, ofNode(ctx, n), 'info.getVMs');
        return Object.entries(vms ?? {}).map(([vmId, aliases]) => ({ vmId, aliases: aliases ?? [] })).sort((a, b) => (a.vmId < b.vmId ? -1 : 1));
      },
    }),
    fxs: t.field({
      type: [NodeFxRef],
      nullable: true,
      description: 'Feature extensions installed on the node, sorted by fx id (info.getVMs `fxs`; empty when the node does not report them).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => {
        const { fxs } = await nodeRpc(ctx, ofNode(ctx, n), 'info.getVMs');
        return Object.entries(fxs ?? {}).map(([fxId, name]) => ({ fxId, name })).sort((a, b) => (a.fxId < b.fxId ? -1 : 1));
      },
    }),
    peers: t.field({
      type: PeerConnectionRef,
      nullable: true,
      description: `The node's connected peers in node-id order (info.peers). Page size 1-${PEERS_PAGE.maxSize}, default ${PEERS_PAGE.defaultSize}; one info.peers call per request.`,
      args: {
        nodeIds: t.arg.stringList({ description: `Only these node ids, \`NodeID-...\` (at most ${INPUT_LIMITS.peerNodeIds}); ids the node is not connected to are left out.` }),
        ...pageArgs(t.arg, PEERS_PAGE),
      },
      extensions: {
        validateArgs: (args) => void checkPeersArgs(args as PeersArgs),
        // One info.peers call per node, whatever the page; pages default to 100 peers.
        cost: { calls: ({ parents }) => parents, size: (args) => pageOf(args, PEERS_PAGE), connection: true },
      },
      resolve: (n, args, ctx) => resolvePeers(ctx, ofNode(ctx, n), args) as never,
    }),
    uptime: t.field({
      type: NodeUptimeRef,
      nullable: true,
      description: "The node's uptime as its peers observe it (info.uptime); null when the node is not a validator (of that subnet).",
      args: { subnetId: t.arg.string({ description: 'An L1/subnet id (cb58); the primary network when omitted.' }) },
      extensions: {
        validateArgs: (args) => {
          if (args['subnetId'] != null) checkSubnetId('subnetId', args['subnetId']);
        },
        cost: NODE_METHOD,
      },
      resolve: (n, args, ctx) =>
        nullWhenRpcSays(nodeRpc(ctx, ofNode(ctx, n), 'info.uptime', args.subnetId ? { subnetID: args.subnetId } : {}), /not a validator/i),
    }),
    upgrades: t.field({
      type: NetworkUpgradesRef,
      nullable: true,
      description: 'The network upgrade schedule the node runs with (info.upgrades).',
      extensions: { cost: NODE_METHOD },
      resolve: (n, _args, ctx) => nodeRpc(ctx, ofNode(ctx, n), 'info.upgrades'),
    }),
    acps: t.field({
      type: [AcpPreferenceRef],
      nullable: true,
      description: 'Community proposals some connected validator supports or objects to, by proposal number (info.acps).',
      extensions: { cost: NODE_METHOD },
      resolve: async (n, _args, ctx) => {
        const { acps } = await nodeRpc(ctx, ofNode(ctx, n), 'info.acps');
        return Object.entries(acps ?? {}).map(([number, pref]) => ({ ...pref, acpNumber: Number(number) })).sort((a, b) => a.acpNumber - b.acpNumber);
      },
    }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: "The node's own primary-network validation, by its node id (active first, else pending, else the latest completed); null when it never validated.",
      args: { network: t.arg({ type: NetworkNameEnum, description: "Network to look in; default: the node's own network (MAINNET when it is neither mainnet nor fuji)." }) },
      // info.getNodeID on each node, then the batched validator link.
      extensions: { cost: { calls: (input) => NODE_METHOD.calls(input) + validatorLinkCost.calls(input) } },
      resolve: async (n, args, ctx) => {
        const node = ofNode(ctx, n);
        const [{ nodeID }, network] = await Promise.all([nodeRpc(ctx, node, 'info.getNodeID'), linkNetwork(ctx, node, args.network)]);
        return loadValidator(ctx, network, nodeID);
      },
    }),
  }),
});

registerNodeFamily('AvalancheNode', {
  parts: [ID_PARTS.nodeName],
  load: async (ctx, [name]) => (name !== undefined && ctx.nodes.get(name) ? { name } : null),
  typeOf: () => 'AvalancheNode',
  refetchCalls: () => 0,
});

builder.queryFields((t) => ({
  avalancheNode: t.field({
    type: AvalancheNodeRef,
    nullable: true,
    description: 'A configured node by name; the first configured node when `name` is omitted. NODE_NOT_CONFIGURED when no node has that name (or none is configured).',
    args: { name: t.arg.string({ description: 'A name from NODE_URLS (`avalancheNodes` lists them).' }) },
    extensions: { validateArgs: (args, ctx) => checkNodeName('name', args['name'], ctx.nodes) },
    resolve: (_root, args, ctx) => ({ name: requireNode(ctx, args.name).name }),
  }),
  avalancheNodes: t.field({
    type: [AvalancheNodeRef],
    nullable: false,
    description: 'Every configured node, in configuration order.',
    resolve: (_root, _args, ctx) => ctx.nodes.list.map((node) => ({ name: node.name })),
  }),
}));

builder.interfaceFields(ValidatorInterface, (t) => ({
  peer: t.field({
    type: PeerRef,
    nullable: true,
    description:
      "This validator's node as a peer of a configured node (info.peers); null when that node is not connected to it. All validators of a request cost one info.peers call per node.",
    args: {
      node: t.arg.string({ description: "A configured node's name (NODE_NOT_CONFIGURED for another); default: the first node running this validation's network, else the first node." }),
    },
    // Omitted picks a node by network; a given name must be configured.
    extensions: {
      validateArgs: (args, ctx) => {
        if (args['node'] != null) checkNodeName('node', args['node'], ctx.nodes);
      },
      // One info.peers call on the chosen node for all validators of the request (MAX_PEER_IDS_PER_CALL ids each).
      cost: costs.batched(MAX_PEER_IDS_PER_CALL),
    },
    resolve: async (v, args, ctx) => {
      const node = args.node != null ? requireNode(ctx, args.node) : await nodeForNetwork(ctx, v.network);
      return node ? peerByNodeId(ctx, node).load(v.nodeId) : null;
    },
  }),
}));
