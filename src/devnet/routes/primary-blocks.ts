import { isNodeId } from '../../lib/ids.ts';
import type { Dataset } from '../dataset/index.ts';
import type { PrimaryData } from '../dataset/primary/index.ts';
import type { DevnetNetwork } from '../node-view.ts';
import type { Route } from '../router.ts';
import { bad, fail, get, ok } from './http-error.ts';
import { chainInfo, decodeToken, encodeToken, parseChain, parseNetwork, Query } from './primary.ts';

/**
 * The public spec's primary-network lookups by id: getBlockById (a height or a hash),
 * listPrimaryNetworkBlocksByNodeId, getVertexByHash and getVertexByHeight, over the
 * blocks and vertices the listings serve (`dataset/primary/chain-activity.ts`): a block
 * or vertex by id is the listing's, a node's blocks are the listing's blocks it proposed.
 * Bounds as the spec's (pageSize 1-100, default 10; timestamps and heights >= 0), errors
 * with the seed's error body, page tokens bound to the request's arguments.
 */

/** Longest id looked at: a cb58 id of 32 bytes is about 50 characters, a 0x hash 66. */
const MAX_ID_LENGTH = 100;

export function primaryBlockRoutes(dataset: Dataset): Route[] {
  const data = (network: DevnetNetwork): PrimaryData => dataset.primary[network];
  const base = '/v1/networks/{network}/blockchains/{blockchainId}';
  return [
    get(`${base}/blocks/{blockId}`, (params) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const blockId = params.blockId ?? '';
      if (blockId.length === 0 || blockId.length > MAX_ID_LENGTH) bad('blockId must be a block height or a block hash');
      const block = data(network).blockById(chain, blockId);
      if (!block) fail(404, `Block ${blockId} not found on ${network} ${chainInfo(chain, network).chainName}`);
      return ok(block);
    }),
    get(`${base}/nodes/{nodeId}/blocks`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['p', 'x', 'c']);
      const nodeId = params.nodeId ?? '';
      if (!isNodeId(nodeId)) bad('nodeId must be a node id (NodeID-...)');
      const q = new Query(req.query);
      const pageSize = q.pageSize(10, 100);
      const startTimestamp = q.int('startTimestamp', 0, Number.MAX_SAFE_INTEGER);
      const endTimestamp = q.int('endTimestamp', 0, Number.MAX_SAFE_INTEGER);
      if (startTimestamp !== undefined && endTimestamp !== undefined && startTimestamp > endTimestamp) bad('startTimestamp must not be greater than endTimestamp');
      const scope = ['nodeBlocks', network, chain, nodeId, startTimestamp, endTimestamp];
      const token = q.raw('pageToken');
      // The token holds the next height, as the chain's listing does: new blocks do not shift later pages.
      const cursor = token === undefined ? undefined : decodeToken(token, scope);
      const { items, next } = data(network).listBlocksByNode(chain, nodeId, { startTimestamp, endTimestamp }, cursor, pageSize);
      return ok({ ...(next !== undefined ? { nextPageToken: encodeToken(scope, next) } : {}), blocks: items, chainInfo: chainInfo(chain, network) });
    }),
    get(`${base}/vertices/{vertexHash}`, (params) => {
      const network = parseNetwork(params.network);
      parseChain(network, params.blockchainId, ['x']);
      const hash = params.vertexHash ?? '';
      if (hash.length === 0 || hash.length > MAX_ID_LENGTH) bad('vertexHash must be a vertex hash');
      const vertex = data(network).vertexByHash(hash);
      if (!vertex) fail(404, `Vertex ${hash} not found on ${network}`);
      return ok(vertex);
    }),
    get(`${base}/vertices:listByHeight`, (params, req) => {
      const network = parseNetwork(params.network);
      const chain = parseChain(network, params.blockchainId, ['x']);
      const q = new Query(req.query);
      const vertexHeight = q.int('vertexHeight', 0, Number.MAX_SAFE_INTEGER);
      if (vertexHeight === undefined) bad('vertexHeight is required');
      const pageSize = q.pageSize(10, 100);
      const sortOrder = q.sortOrder();
      const scope = ['verticesByHeight', network, vertexHeight, sortOrder];
      const offset = decodeToken(q.raw('pageToken'), scope);
      const all = data(network).verticesAtHeight(vertexHeight);
      const ordered = sortOrder === 'asc' ? all : [...all].reverse();
      const items = ordered.slice(offset, offset + pageSize);
      const more = offset + items.length < ordered.length;
      return ok({ ...(more ? { nextPageToken: encodeToken(scope, offset + items.length) } : {}), vertices: items, chainInfo: chainInfo(chain, network) });
    }),
  ];
}
