import DataLoader from 'dataloader';
import type { NodeClient } from '../upstream/client-types.ts';
import type { NodeRpcMethod, NodeRpcMethods, Peer } from '../shapes/index.ts';
import { isNodeId } from './ids.ts';
import { memoLoader, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/** A peer as the schema sees it: the node's answer plus the name of the node it was read from. */
export type PeerShape = Peer & { node: string };

/** Most node ids sent in one `info.peers` call; a request asking for more makes several calls. */
export const MAX_PEER_IDS_PER_CALL = 1000;


type Params<M extends NodeRpcMethod> = NodeRpcMethods[M]['params'];
type Result<M extends NodeRpcMethod> = NodeRpcMethods[M]['result'];

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
 * One read-only JSON-RPC call to a configured node, made at most once per request
 * for the same method and params: `nodeId`, `nodePOP` and `validator` of an
 * AvalancheNode share one `info.getNodeID`. JSON-RPC has no batch here (the node
 * rejects arrays), so a batch of keys becomes parallel calls. Only for methods that
 * read: mutations call the client directly so they never hit this cache.
 */
export function nodeRpc<M extends NodeRpcMethod>(ctx: LoaderContext, node: NodeClient, method: M, params?: Params<M>): Promise<Result<M>> {
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

/** The network a node runs (learned once per process, see NodeDirectory): undefined for networks other than mainnet and fuji. */
export async function nodeNetwork(ctx: LoaderContext, node: NodeClient): Promise<NetworkId | undefined> {
  const networkID = await ctx.nodes.networkIdOf(node, ctx.call);
  return networkID === 1 ? 'mainnet' : networkID === 5 ? 'fuji' : undefined;
}

/**
 * The configured node to ask about something on `network`: the first one (in
 * configuration order) that runs that network, else the first node. A node that
 * cannot tell its network is skipped. Each node's network is learned once per process.
 */
export async function nodeForNetwork(ctx: LoaderContext, network: NetworkId): Promise<NodeClient | undefined> {
  // Ask every node at once: one round, however many nodes are configured.
  const networks = await Promise.all(ctx.nodes.list.map((node) => nodeNetwork(ctx, node).catch(() => undefined)));
  const index = networks.indexOf(network);
  return ctx.nodes.list[index === -1 ? 0 : index];
}

/**
 * A peer of `node` by node id, null when that node is not connected to it. All
 * ids asked in one request go to the node as one `info.peers` call with `nodeIDs`
 * (the node omits ids it is not connected to); malformed ids are answered null
 * without a call.
 */
export function peerByNodeId(ctx: LoaderContext, node: NodeClient): DataLoader<string, PeerShape | null> {
  return memoLoader(ctx, `peerByNodeId:${node.name}`, () =>
    new DataLoader<string, PeerShape | null>(
      async (nodeIds) => {
        const wanted = [...new Set(nodeIds.filter(isNodeId))];
        const found = new Map<string, PeerShape>();
        if (wanted.length > 0) {
          const { peers } = await node.call('info.peers', { nodeIDs: wanted }, ctx.call);
          for (const peer of peers) found.set(peer.nodeID, { ...peer, node: node.name });
        }
        return nodeIds.map((id) => found.get(id) ?? null);
      },
      { maxBatchSize: MAX_PEER_IDS_PER_CALL },
    ),
  );
}

/**
 * The peers of `node` (optionally only `nodeIds`), sorted by node id so that
 * positions are stable between requests; one `info.peers` call per request and filter.
 */
export async function sortedPeers(ctx: LoaderContext, node: NodeClient, nodeIds?: readonly string[]): Promise<PeerShape[]> {
  const params = nodeIds && nodeIds.length > 0 ? { nodeIDs: [...new Set(nodeIds)].sort() } : {};
  const { peers } = await nodeRpc(ctx, node, 'info.peers', params);
  return peers
    .map((peer) => ({ ...peer, node: node.name }))
    .sort((a, b) => (a.nodeID < b.nodeID ? -1 : a.nodeID > b.nodeID ? 1 : 0));
}
