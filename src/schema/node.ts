import { ipOfHostPort } from '../lib/host-port.ts';
import type { InputShapeFromFields } from '@pothos/core';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import {
  configuredNodeNames, isConfiguredNode, linkNetwork, NODE_METHOD_COST, NODE_REFETCH_CALLS, nodeName, nodeRpc, nodeRpcOrNull,
  acrossNodeNetworks, ownNodeId, PEERS_COST, PEERS_PAGE, sortedPeers, throughOwnNodeId, VALIDATOR_PEER_COST, validatorPeer, type PeerShape,
} from '../loaders/nodes.ts';
import type { NetworkId } from '../loaders/types.ts';
import type { AcpPreference, TxFees, Upgrades } from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { CursorBinding, lazyConnection, lazyEdge, pageArgs, type Connection } from './connection.ts';
import { BOUNDS, checkNodeName, NODE_BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { badCursor, checkFirst, decodeCursor } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { loadValidator, ValidatorInterface } from './validators.ts';
import { unixSecondsToDate } from './scalars.ts';

/**
 * The backing shape of `AvalancheNode`: only the configured name. Every field asks
 * that node through the node services (`src/loaders/nodes.ts`, one call per method and
 * request); the node's URL is never exposed, since it may carry credentials.
 */
export interface AvalancheNodeShape {
  name: string;
}

/** A `node` argument: omitted is the first node, a given name must be configured (NODE_NOT_CONFIGURED names the argument). */
export const checkNodeArg = (argument: string, value: string | null | undefined, ctx: Context): void =>
  checkNodeName(argument, value, configuredNodeNames(ctx));

const asNetwork = (name: string | null | undefined): NetworkId | undefined => (name == null ? undefined : networkId(name));

export const AvalancheNodeRef = builder.objectRef<AvalancheNodeShape>('AvalancheNode');

const NodePopRef = builder.objectRef<{ publicKey: string; proofOfPossession: string }>('NodePop').implement({
  description: "The node's BLS key and its proof of possession (info.getNodeID `nodePOP`).",
  fields: (t) => ({
    publicKey: t.expose('publicKey', { type: 'Hex', description: '48-byte compressed BLS public key, 0x-prefixed hex.' }),
    proofOfPossession: t.expose('proofOfPossession', { type: 'Hex', description: '96-byte BLS signature proving possession of the key, 0x-prefixed hex.' }),
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
    version: t.exposeString('version', { description: 'Version of that VM.' }),
  }),
});

type NodeVersionShape = Awaited<ReturnType<typeof nodeRpc<'info.getNodeVersion'>>>;

const NodeVersionRef = builder.objectRef<NodeVersionShape>('NodeVersion').implement({
  description: 'Versions of the node software (info.getNodeVersion).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Node version, e.g. `avalanchego/1.14.2`.' }),
    databaseVersion: t.exposeString('databaseVersion', { description: 'Database version, e.g. `v1.4.5`.' }),
    gitCommit: t.exposeString('gitCommit', { description: 'Git commit the node was built from (may be empty).' }),
    rpcProtocolVersion: t.exposeString('rpcProtocolVersion', { description: 'RPCChainVM protocol version, a decimal string (e.g. "45").' }),
    vmVersions: t.field({
      type: [NodeVmVersionRef],
      description: 'Version of each VM, sorted by VM name.',
      resolve: (v) => Object.entries(v.vmVersions ?? {}).map(([name, version]) => ({ name, version })).sort((a, b) => a.name.localeCompare(b.name)),
    }),
  }),
});

const uint = (description: string, key: keyof TxFees) =>
  ({ type: 'UInt256' as const, description, resolve: (fees: TxFees) => fees[key] });

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
    aliases: t.exposeStringList('aliases', { description: "The VM's aliases, e.g. `avm`." }),
  }),
});

const NodeFxRef = builder.objectRef<{ fxId: string; name: string }>('NodeFx').implement({
  description: 'A feature extension installed on the node (info.getVMs `fxs`).',
  fields: (t) => ({
    fxId: t.exposeString('fxId', { nullable: false, description: 'Fx id (cb58).' }),
    name: t.exposeString('name', { description: 'Fx name, e.g. `secp256k1fx`.' }),
  }),
});

const NodeUptimeRef = builder
  .objectRef<{ rewardingStakePercentage: number; weightedAveragePercentage: number }>('NodeUptime')
  .implement({
    description: 'How the network sees this node\'s uptime (info.uptime).',
    fields: (t) => ({
      rewardingStakePercentage: t.exposeFloat('rewardingStakePercentage', { description: 'Percent of stake that considers this node above the uptime requirement.' }),
      weightedAveragePercentage: t.exposeFloat('weightedAveragePercentage', { description: 'Stake-weighted mean of the uptimes observed by the peers, percent.' }),
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
    acpNumber: t.exposeInt('acpNumber', { description: 'Proposal number.' }),
    supportWeight: t.field({ type: 'UInt256', description: 'Stake weight of the supporters.', resolve: (a) => a.supportWeight }),
    supporters: t.exposeStringList('supporters', { description: 'Node ids supporting it.' }),
    objectWeight: t.field({ type: 'UInt256', description: 'Stake weight of the objectors.', resolve: (a) => a.objectWeight }),
    objectors: t.exposeStringList('objectors', { description: 'Node ids objecting to it.' }),
    abstainWeight: t.field({ type: 'UInt256', description: 'Stake weight of the validators that neither support nor object.', resolve: (a) => a.abstainWeight }),
  }),
});

export const PeerRef = builder.objectRef<PeerShape>('Peer').implement({
  description: 'A node connected to a configured node (info.peers).',
  fields: (t) => ({
    nodeId: t.exposeString('nodeID', { description: "The peer's node id, `NodeID-...` (spelled as `Validator.nodeId` and `AvalancheNode.nodeId`)." }),
    nodeID: t.exposeString('nodeID', {
      description: "The peer's node id, `NodeID-...`, in the node API's spelling.",
      deprecationReason: 'Use `nodeId`, spelled as everywhere else in this schema (the same value).',
    }),
    ip: t.exposeString('ip', { description: 'Remote address of the connection (`host:port`).' }),
    publicIP: t.exposeString('publicIP', { description: 'Public address the peer announces (`host:port`, empty when unknown).' }),
    ipAddress: t.field({ type: 'IP', nullable: true, description: 'The IP address of `ip`, without its port; null when the host is not an IP address.', resolve: (p) => ipOfHostPort(p.ip) }),
    publicIPAddress: t.field({ type: 'IP', nullable: true, description: 'The IP address of `publicIP`, without its port; null when unknown or not an IP address.', resolve: (p) => ipOfHostPort(p.publicIP) }),
    version: t.exposeString('version', { description: 'Software version the peer runs, e.g. `avalanchego/1.14.2`.' }),
    upgradeTime: t.field({ type: 'UInt64', nullable: true, description: 'Upgrade time the peer announced, unix seconds (nodes from v1.14.1).', resolve: (p) => p.upgradeTime ?? null }),
    upgradeAt: t.field({ type: 'DateTime', nullable: true, description: 'Upgrade time the peer announced: `upgradeTime` as a DateTime.', resolve: (p) => unixSecondsToDate(p.upgradeTime) }),
    lastSent: t.exposeString('lastSent', { description: 'When a message was last sent to the peer (RFC 3339).' }),
    lastReceived: t.exposeString('lastReceived', { description: 'When a message was last received from the peer (RFC 3339).' }),
    observedUptime: t.exposeFloat('observedUptime', { description: "The configured node's primary-network uptime as this peer observes it, percent." }),
    trackedSubnets: t.exposeStringList('trackedSubnets', { description: 'Subnet ids the peer tracks.' }),
    supportedACPs: t.intList({ nullable: true, description: 'ACP numbers the peer supports.', resolve: (p) => p.supportedACPs ?? null }),
    objectedACPs: t.intList({ nullable: true, description: 'ACP numbers the peer objects to.', resolve: (p) => p.objectedACPs ?? null }),
    benched: t.exposeStringList('benched', { description: 'Chains (primary aliases, e.g. `C`) on which the peer is currently benched.' }),
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
      upstreamCost: acrossNodeNetworks(validatorLinkCost),
      resolve: async (p, args, ctx) => loadValidator(ctx, await linkNetwork(ctx, p.node, asNetwork(args.network)), p.nodeID),
    }),
  }),
});

interface PeerConnectionShape extends Connection<PeerShape> {
  totalCount: number;
}

export const PeerConnectionRef = builder.connectionObject(
  { type: PeerRef, name: 'PeerConnection', description: 'A page of the peers of a node, in node-id order.' },
  { name: 'PeerEdge', description: 'A peer and its cursor.' },
);

builder.objectFields(PeerConnectionRef, (t) => ({
  totalCount: t.int({ nullable: false, description: 'Number of peers matching the arguments (`numPeers`), on all pages.', resolve: (c) => ('totalCount' in c && typeof c.totalCount === 'number' ? c.totalCount : 0) }),
}));

const peersArgs = builder.args((t) => ({
  nodeIds: t.stringList({ description: 'Only these node ids; ids the node is not connected to are left out.', bound: NODE_BOUNDS.peerNodeIds }),
  ...pageArgs(t, PEERS_PAGE),
}));
type PeersArgs = InputShapeFromFields<typeof peersArgs>;

/**
 * The peers list (one `info.peers` call) paged in node-id order: a cursor holds the
 * node id of its edge, and `after` continues with the next node id, so pages stay
 * consistent while peers connect and disconnect.
 */
async function resolvePeers(ctx: Context, name: string, args: PeersArgs): Promise<PeerConnectionShape> {
  const first = checkFirst(args.first, PEERS_PAGE);
  const ids = args.nodeIds?.length ? [...new Set(args.nodeIds)].sort() : undefined;
  const binding = new CursorBinding(ctx.cursors, PEERS_PAGE, { nodeIds: ids }, { node: name });
  let afterId: string | undefined;
  if (args.after) {
    const cursor = decodeCursor(ctx.cursors, args.after, PEERS_PAGE, binding.hash);
    if (cursor.p !== binding.parent || cursor.t === undefined) throw badCursor("belongs to another node's list", "pass a cursor from this node's own `pageInfo.endCursor`");
    afterId = cursor.t;
  }
  const peers = await sortedPeers(ctx, name, ids);
  let start = 0;
  if (afterId !== undefined) {
    const bound = afterId;
    start = peers.findIndex((p) => p.nodeID > bound);
    if (start === -1) start = peers.length;
  }
  const page = peers.slice(start, start + first);
  const edges = page.map((peer, i) => lazyEdge(binding, peer.nodeID, first, start + i, peer));
  return { ...lazyConnection(edges, start + first < peers.length), totalCount: peers.length };
}

AvalancheNodeRef.implement({
  description:
    'One configured node (NODE_URLS), read through its info, health and admin APIs. Every field asks this node; each node method is called at most once per request.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (n) => encodeGlobalId('AvalancheNode', [n.name]) }),
    name: t.exposeString('name', { description: 'The name the node is configured under (its URL is never shown).' }),
    nodeId: t.string({
      nullable: true,
      description: "The node's id, `NodeID-...` (info.getNodeID).",
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, n.name, 'info.getNodeID')).nodeID,
    }),
    nodePOP: t.field({
      type: NodePopRef,
      nullable: true,
      description: "The node's BLS public key and proof of possession (info.getNodeID).",
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, n.name, 'info.getNodeID')).nodePOP,
    }),
    ip: t.string({
      nullable: true,
      description: 'The address the node announces to its peers, `host:port` (info.getNodeIP).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, n.name, 'info.getNodeIP')).ip,
    }),
    ipAddress: t.field({
      type: 'IP',
      nullable: true,
      description: 'The IP address of `ip`, without its port (info.getNodeIP); null when the host is not an IP address.',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => ipOfHostPort((await nodeRpc(ctx, n.name, 'info.getNodeIP')).ip),
    }),
    version: t.field({
      type: NodeVersionRef,
      nullable: true,
      description: 'Node, database, VM and RPC protocol versions (info.getNodeVersion).',
      upstreamCost: NODE_METHOD_COST,
      resolve: (n, _args, ctx) => nodeRpc(ctx, n.name, 'info.getNodeVersion'),
    }),
    networkId: t.int({
      nullable: true,
      description: 'Network id: 1 is mainnet, 5 is fuji (info.getNetworkID).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, n.name, 'info.getNetworkID')).networkID,
    }),
    networkName: t.string({
      nullable: true,
      description: 'Network name, e.g. `mainnet`, `fuji`, `local` (info.getNetworkName).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => (await nodeRpc(ctx, n.name, 'info.getNetworkName')).networkName,
    }),
    isBootstrapped: t.boolean({
      nullable: true,
      description: 'Whether the node has finished bootstrapping the chain (info.isBootstrapped); null when the node knows no chain by that id or alias.',
      args: { chain: t.arg.string({ required: true, description: 'Chain id or alias (`X`, `P`, `C`, ...).', bound: NODE_BOUNDS.alias }) },
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, args, ctx) => (await nodeRpcOrNull(ctx, n.name, 'info.isBootstrapped', { chain: args.chain }, /no chain with alias/i))?.isBootstrapped ?? null,
    }),
    blockchainId: t.string({
      nullable: true,
      description: 'The blockchain id behind an alias (info.getBlockchainID); null when the node knows no such alias.',
      args: { alias: t.arg.string({ required: true, description: 'A chain alias, e.g. `X`.', bound: NODE_BOUNDS.alias }) },
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, args, ctx) => (await nodeRpcOrNull(ctx, n.name, 'info.getBlockchainID', { alias: args.alias }, /no ID with alias/i))?.blockchainID ?? null,
    }),
    txFee: t.field({
      type: NodeTxFeesRef,
      nullable: true,
      description: 'Transaction fees (info.getTxFee).',
      deprecationReason: 'info.getTxFee is deprecated by the node since v1.12.2; only txFee and createAssetTxFee are still used.',
      upstreamCost: NODE_METHOD_COST,
      resolve: (n, _args, ctx) => nodeRpc(ctx, n.name, 'info.getTxFee'),
    }),
    vms: t.field({
      type: [NodeVmRef],
      nullable: true,
      description: 'VMs installed on the node with their aliases, sorted by VM id (info.getVMs).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => {
        const { vms } = await nodeRpc(ctx, n.name, 'info.getVMs');
        return Object.entries(vms ?? {}).map(([vmId, aliases]) => ({ vmId, aliases: aliases ?? [] })).sort((a, b) => (a.vmId < b.vmId ? -1 : 1));
      },
    }),
    fxs: t.field({
      type: [NodeFxRef],
      nullable: true,
      description: 'Feature extensions installed on the node, sorted by fx id (info.getVMs `fxs`; empty when the node does not report them).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => {
        const { fxs } = await nodeRpc(ctx, n.name, 'info.getVMs');
        return Object.entries(fxs ?? {}).map(([fxId, name]) => ({ fxId, name })).sort((a, b) => (a.fxId < b.fxId ? -1 : 1));
      },
    }),
    peers: t.field({
      type: PeerConnectionRef,
      nullable: true,
      description: "The node's connected peers in node-id order (info.peers); one info.peers call per request.",
      args: peersArgs,
      upstreamCost: PEERS_COST,
      resolve: (n, args, ctx) => resolvePeers(ctx, n.name, args),
    }),
    uptime: t.field({
      type: NodeUptimeRef,
      nullable: true,
      description: "The node's uptime as its peers observe it (info.uptime); null when the node is not a validator (of that subnet).",
      args: { subnetId: t.arg.string({ description: 'An L1 or subnet; the primary network when omitted.', bound: BOUNDS.subnetId }) },
      upstreamCost: NODE_METHOD_COST,
      resolve: (n, args, ctx) => nodeRpcOrNull(ctx, n.name, 'info.uptime', args.subnetId ? { subnetID: args.subnetId } : {}, /not a validator/i),
    }),
    upgrades: t.field({
      type: NetworkUpgradesRef,
      nullable: true,
      description: 'The network upgrade schedule the node runs with (info.upgrades).',
      upstreamCost: NODE_METHOD_COST,
      resolve: (n, _args, ctx) => nodeRpc(ctx, n.name, 'info.upgrades'),
    }),
    acps: t.field({
      type: [AcpPreferenceRef],
      nullable: true,
      description: 'Community proposals some connected validator supports or objects to, by proposal number (info.acps).',
      upstreamCost: NODE_METHOD_COST,
      resolve: async (n, _args, ctx) => {
        const { acps } = await nodeRpc(ctx, n.name, 'info.acps');
        return Object.entries(acps ?? {}).map(([number, pref]) => withFields(pref, { acpNumber: Number(number) })).sort((a, b) => a.acpNumber - b.acpNumber);
      },
    }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: "The node's own primary-network validation, by its node id (active first, else pending, else the latest completed); null when it never validated.",
      args: { network: t.arg({ type: NetworkNameEnum, description: "Network to look in; default: the node's own network (MAINNET when it is neither mainnet nor fuji)." }) },
      upstreamCost: throughOwnNodeId(acrossNodeNetworks(validatorLinkCost)),
      resolve: async (n, args, ctx) => {
        const { nodeId, network } = await ownNodeId(ctx, n.name, asNetwork(args.network));
        return loadValidator(ctx, network, nodeId);
      },
    }),
  }),
});

registerNodeFamily('AvalancheNode', {
  refetchComputeUnits: NODE_METHOD_COST.computeUnits ?? 0,
  parts: [ID_PARTS.nodeName],
  load: async (ctx, [name]) => (name !== undefined && isConfiguredNode(ctx, name) ? { name } : null),
  typeOf: () => 'AvalancheNode',
  refetchCalls: NODE_REFETCH_CALLS,
});

builder.queryFields((t) => ({
  avalancheNode: t.field({
    type: AvalancheNodeRef,
    nullable: true,
    description: 'A configured node by name; the first configured node when `name` is omitted. NODE_NOT_CONFIGURED when no node has that name (or none is configured).',
    args: { name: t.arg.string({ description: 'A name from NODE_URLS (`avalancheNodes` lists them).' }) },
    checkArgs: (args, ctx) => checkNodeArg('name', args.name, ctx),
    resolve: (_root, args, ctx) => ({ name: nodeName(ctx, args.name) }),
  }),
  avalancheNodes: t.field({
    type: [AvalancheNodeRef],
    nullable: false,
    description: 'Every configured node, in configuration order.',
    resolve: (_root, _args, ctx) => configuredNodeNames(ctx).map((name) => ({ name })),
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
    checkArgs: (args, ctx) => {
      if (args.node != null) checkNodeArg('node', args.node, ctx);
    },
    upstreamCost: VALIDATOR_PEER_COST,
    resolve: (v, args, ctx) => validatorPeer(ctx, v.network, v.nodeId, args.node),
  }),
}));
