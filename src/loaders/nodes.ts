import DataLoader from 'dataloader';
import { codedError, configuredNames, ErrorCode, isUpstreamError, NO_NODE_CONFIGURED, upstreamValueError } from '../errors/graphql.ts';
import { costs, pageOf, type FieldCost } from '../lib/cost.ts';
import { NODE_CALL_COMPUTE_UNITS } from '../lib/compute-units.ts';
import type { NodeRpcMethod, NodeRpcMethods, PageSpec, Peer } from '../shapes/index.ts';
import { withFields, withSharedFields } from '../shapes/index.ts';
import type { NodeClient } from '../upstream/client-types.ts';
import { isNodeId } from '../lib/ids.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * The node services: the schema names a configured node by its name (NODE_URLS) and
 * reaches it only through these functions; the clients stay here. Each service's cost
 * is declared beside it.
 */

/** A peer as the schema sees it: the node's answer plus the name of the node it was read from. */
export type PeerShape = Peer & { node: string };

/** Most node ids sent in one `info.peers` call; a request asking for more makes several calls. */
export const MAX_PEER_IDS_PER_CALL = 1000;

type Params<M extends NodeRpcMethod> = NodeRpcMethods[M]['params'];
type Result<M extends NodeRpcMethod> = NodeRpcMethods[M]['result'];

// ---------------------------------------------------------------- names

/** The configured nodes' names, in configuration order. */
export function configuredNodeNames(ctx: LoaderContext): string[] {
  return upstreamOf(ctx).nodes.list.map((node) => node.name);
}

/** True when a node of that name is configured. */
export function isConfiguredNode(ctx: LoaderContext, name: string): boolean {
  return upstreamOf(ctx).nodes.get(name) !== undefined;
}

/**
 * The client of the configured node named `name` (the first one when omitted);
 * NODE_NOT_CONFIGURED when there is none. For the node services of src/loaders only:
 * the schema names nodes, it never holds a client.
 */
export function clientOf(ctx: LoaderContext, name?: string | null): NodeClient {
  const { nodes } = upstreamOf(ctx);
  const node = nodes.get(name);
  if (node) return node;
  throw name == null
    ? codedError(ErrorCode.NODE_NOT_CONFIGURED, NO_NODE_CONFIGURED, { configured: [] })
    : codedError(ErrorCode.NODE_NOT_CONFIGURED, `No node named "${name}" is configured: ${configuredNames(nodes.list.map((n) => n.name))}`, { node: name, configured: nodes.list.map((n) => n.name) });
}

/** The name of the configured node `name` (the first node when omitted); NODE_NOT_CONFIGURED when there is none. */
export function nodeName(ctx: LoaderContext, name?: string | null): string {
  return clientOf(ctx, name).name;
}

/** `node(id:)` of an AvalancheNode: its name is configuration, nothing is asked. */
export const NODE_REFETCH_CALLS = (): number => 0;

// ---------------------------------------------------------------- JSON-RPC reads

interface RpcKey {
  method: NodeRpcMethod;
  params: Record<string, unknown>;
}

/** Stable key of a call: the method and its params with sorted keys, undefined values dropped. */
function rpcKey(key: RpcKey): string {
  const params = Object.keys(key.params)
    .filter((k) => key.params[k] !== undefined)
    .sort()
    .map((k) => [k, key.params[k]]);
  return `${key.method} ${JSON.stringify(params)}`;
}

/**
 * One read-only JSON-RPC call to the configured node `name`, made at most once per
 * request for the same method and params: `nodeId`, `nodePOP` and `validator` of an
 * AvalancheNode share one `info.getNodeID`. JSON-RPC has no batch here (the node
 * rejects arrays), so a batch of keys becomes parallel calls. Only for methods that
 * read: mutations go through `node-admin.ts`, never this cache.
 */
export function nodeRpc<M extends NodeRpcMethod>(ctx: LoaderContext, name: string, method: M, params?: Params<M>): Promise<Result<M>> {
  const node = clientOf(ctx, name);
  const loader = memoLoader(ctx, `nodeRpc:${node.name}`, () =>
    new DataLoader<RpcKey, unknown, string>(
      (keys) =>
        Promise.all(
          keys.map((k) =>
            node
              .call(k.method, k.params as Params<typeof k.method>, ctx.call)
              .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
          ),
        ),
      { cacheKeyFn: rpcKey },
    ),
  );
  return loader.load({ method, params: (params ?? {}) as Record<string, unknown> }) as Promise<Result<M>>;
}

/** A node method: once per node it is asked on, and at most once per configured node (`nodeRpc` memoises per request). */
export const NODE_METHOD_COST: FieldCost = costs.nodeMethod();

/**
 * {@link nodeRpc}, null when the node answers that the thing asked about does not
 * exist. A node's "no such thing" answers are JSON-RPC errors (code -32000) whose
 * message is the only signal; `notFound` matches avalanchego's own messages
 * (reference/node-api-facts.md). A single lookup of something absent is null, as everywhere.
 */
export async function nodeRpcOrNull<M extends NodeRpcMethod>(
  ctx: LoaderContext,
  name: string,
  method: M,
  params: Params<M>,
  notFound: RegExp,
): Promise<Result<M> | null> {
  try {
    return await nodeRpc(ctx, name, method, params);
  } catch (error) {
    if (isUpstreamError(error) && error.kind === 'rpc' && notFound.test(error.rpcError?.message ?? '')) return null;
    throw error;
  }
}

// ---------------------------------------------------------------- networks

/** The network a node runs (learned once per process, see NodeDirectory): undefined for networks other than mainnet and fuji. */
async function networkOf(ctx: LoaderContext, node: NodeClient): Promise<NetworkId | undefined> {
  const networkID = await upstreamOf(ctx).nodes.networkIdOf(node, ctx.call);
  return networkID === 1 ? 'mainnet' : networkID === 5 ? 'fuji' : undefined;
}

/**
 * The network a node-scoped link reads from: `requested`, else the network of the node
 * `name` (when it is configured and tells), else mainnet. Learned once per process, so
 * links that need it add no call.
 */
export async function linkNetwork(ctx: LoaderContext, name: string, requested?: NetworkId): Promise<NetworkId> {
  if (requested) return requested;
  const node = upstreamOf(ctx).nodes.get(name);
  return (node ? await networkOf(ctx, node).catch(() => undefined) : undefined) ?? 'mainnet';
}

/**
 * The configured node to ask about something on `network`: the first one (in
 * configuration order) that runs that network, else the first node. A node that
 * cannot tell its network is skipped. Each node's network is learned once per process.
 */
export function nodeForNetwork(ctx: LoaderContext, network: NetworkId): Promise<NodeClient | undefined> {
  // Once per request and network: every validator of a list asks it for its peer.
  const key = NODE_FOR_NETWORK_KEY[network];
  let chosen = ctx.loaders.get(key) as Promise<NodeClient | undefined> | undefined;
  if (!chosen) {
    chosen = chooseNode(ctx, network);
    ctx.loaders.set(key, chosen);
  }
  return chosen;
}

const NODE_FOR_NETWORK_KEY: Readonly<Record<NetworkId, string>> = { mainnet: 'nodeForNetwork:mainnet', fuji: 'nodeForNetwork:fuji' };

async function chooseNode(ctx: LoaderContext, network: NetworkId): Promise<NodeClient | undefined> {
  const { list } = upstreamOf(ctx).nodes;
  // Ask every node at once: one round, however many nodes are configured.
  const networks = await Promise.all(list.map((node) => networkOf(ctx, node).catch(() => undefined)));
  const index = networks.indexOf(network);
  return list[index === -1 ? 0 : index];
}

/** The node's own id (info.getNodeID) and the network its links read from. */
export async function ownNodeId(ctx: LoaderContext, name: string, requested?: NetworkId): Promise<{ nodeId: string; network: NetworkId }> {
  const [{ nodeID }, network] = await Promise.all([nodeRpc(ctx, name, 'info.getNodeID'), linkNetwork(ctx, name, requested)]);
  return { nodeId: nodeID, network };
}

/** What a link through {@link ownNodeId} costs: info.getNodeID on each node, then `link`. */
export const throughOwnNodeId = (link: FieldCost): FieldCost => ({
  calls: (input) => NODE_METHOD_COST.calls(input) + link.calls(input),
  // Each call weighs at most the link's heaviest (node calls weigh nothing).
  ...(link.computeUnits !== undefined ? { computeUnits: link.computeUnits } : {}),
});

/** The networks a node can run that chaingraph reads validators of (a node of any other network reads MAINNET's). */
const LINK_NETWORKS = 2;

/**
 * A validator link from objects read from the configured nodes (a node's own validation,
 * a peer's): their parents may sit on different networks, and the link's loader batches
 * per network, so each network beyond the first may add a listing of its own; and the
 * network of each node is learned once per process (info.getNetworkID), which a fresh
 * gateway may still have to ask within this request.
 */
export const acrossNodeNetworks = (link: FieldCost): FieldCost => ({
  calls: (input) =>
    input.parents <= 0 ? 0 : link.calls(input) + Math.min(input.parents, LINK_NETWORKS) - 1 + NODE_METHOD_COST.calls(input),
  ...(link.computeUnits !== undefined ? { computeUnits: link.computeUnits } : {}),
});

// ---------------------------------------------------------------- peers

/**
 * A peer of `node` by node id, null when that node is not connected to it. All
 * ids asked in one request go to the node as one `info.peers` call with `nodeIDs`
 * (the node omits ids it is not connected to). A malformed id is not sent: it was read
 * from an upstream answer (callers' ids are checked first), and is answered with an
 * error naming it.
 */
/** Peers of shared (cached) answers with their node's name, made once per peer (see `withSharedFields`). */
const peerCopies = new WeakMap<object, PeerShape>();

export function peerByNodeId(ctx: LoaderContext, node: NodeClient): DataLoader<string, PeerShape | null> {
  return memoLoader(ctx, `peerByNodeId:${node.name}`, () =>
    new DataLoader<string, PeerShape | null>(
      async (nodeIds) => {
        const wanted = [...new Set(nodeIds.filter(isNodeId))];
        const found = new Map<string, PeerShape>();
        if (wanted.length > 0) {
          const { peers } = await node.call('info.peers', { nodeIDs: wanted }, ctx.call);
          for (const peer of peers) found.set(peer.nodeID, withSharedFields(peer, { node: node.name }, peerCopies));
        }
        return nodeIds.map((id) => found.get(id) ?? (isNodeId(id) ? null : unusableNodeId(node.name)));
      },
      { maxBatchSize: MAX_PEER_IDS_PER_CALL },
    ),
  );
}

/** A peer's node id that is not one, not sent (see {@link peerByNodeId}). */
function unusableNodeId(node: string): Error {
  return upstreamValueError('nodeId', { upstream: `node:${node}`, operation: 'info.peers', parameter: 'nodeIDs' }, 'is not a node id (NodeID- followed by the cb58 of 20 bytes)');
}

/**
 * A validator's node as a peer: of the configured node `name` when given
 * (NODE_NOT_CONFIGURED for another), else of the first node running `network`, else
 * of the first node; null when that node is not connected to it (or none is configured).
 */
export async function validatorPeer(ctx: LoaderContext, network: NetworkId, nodeId: string, name?: string | null): Promise<PeerShape | null> {
  const node = name != null ? clientOf(ctx, name) : await nodeForNetwork(ctx, network);
  return node ? peerByNodeId(ctx, node).load(nodeId) : null;
}

/** One info.peers call on the chosen node for all validators of the request ({@link MAX_PEER_IDS_PER_CALL} ids each). */
export const VALIDATOR_PEER_COST: FieldCost = { ...costs.batched(MAX_PEER_IDS_PER_CALL), computeUnits: NODE_CALL_COMPUTE_UNITS };

/**
 * Peers are an in-memory list read with one `info.peers` call: the schema pages it
 * in node-id order (a cursor holds the node id of its edge).
 */
export const PEERS_PAGE: PageSpec = { name: 'peers', defaultSize: 100, maxSize: 1000 };

/**
 * The peers of the node `name` (optionally only `nodeIds`), sorted by node id so that
 * positions are stable between requests; one `info.peers` call per request and filter.
 */
export async function sortedPeers(ctx: LoaderContext, name: string, nodeIds?: readonly string[]): Promise<PeerShape[]> {
  const params = nodeIds && nodeIds.length > 0 ? { nodeIDs: [...new Set(nodeIds)].sort() } : {};
  const { peers } = await nodeRpc(ctx, name, 'info.peers', params);
  return peers
    .map((peer) => withFields(peer, { node: name }))
    .sort((a, b) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0));
}

/** One info.peers call per node, whatever the page; pages default to {@link PEERS_PAGE}'s 100 peers. */
export const PEERS_COST: FieldCost = { calls: ({ parents }) => parents, size: (args) => pageOf(args, PEERS_PAGE), connection: true, computeUnits: NODE_CALL_COMPUTE_UNITS };
