import { describe, expect, it } from 'vitest';
import type { UpstreamBudget } from '../../src/loaders/budget.ts';
import { nodeHealthPolling, watchNodeHealth } from '../../src/loaders/node-health.ts';
import { configuredNodeNames, nodeName, nodeRpc, nodeRpcOrNull, sortedPeers, validatorPeer } from '../../src/loaders/nodes.ts';
import { createNodeDirectory, loaderContext, upstreamOf, type LoaderContext } from '../../src/loaders/registry.ts';
import type { DataApi, NodeClient } from '../../src/upstream/client-types.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import type { HealthReport, NodeRpcMethod, Peer } from '../../src/shapes/index.ts';

// The node services without HTTP: fake node clients that record what they are asked.

type Answer = (method: NodeRpcMethod, params: unknown) => unknown;

interface FakeNode extends NodeClient {
  calls: { method: NodeRpcMethod; params: unknown }[];
}

function fakeNode(name: string, answer: Answer): FakeNode {
  const calls: FakeNode['calls'] = [];
  return {
    name,
    url: `http://${name}`,
    calls,
    call: (async (method: NodeRpcMethod, params: unknown) => {
      calls.push({ method, params });
      return answer(method, params);
    }) as NodeClient['call'],
    healthGet: async () => ({ status: 200, report: { healthy: true, checks: {} } }),
  };
}

function contextOf(nodes: NodeClient[], signal?: AbortSignal): LoaderContext & { upstreamCalls: UpstreamBudget } {
  return {
    ...loaderContext({ dataApi: {} as DataApi, nodes: createNodeDirectory(nodes) }, signal ? { signal } : {}),
    upstreamCalls: { count: 0, limit: 1, refused: 0, retries: 0 },
  };
}

const peer = (nodeID: string): Peer => ({
  ip: '10.0.0.1:9651', publicIP: '', nodeID, version: 'avalanchego/1.14.2', lastSent: '', lastReceived: '', observedUptime: 100,
  trackedSubnets: [], benched: [],
});

describe('node names', () => {
  it('names the configured nodes, the first by default, and refuses others with NODE_NOT_CONFIGURED', () => {
    const ctx = contextOf([fakeNode('a', () => ({})), fakeNode('b', () => ({}))]);
    expect(configuredNodeNames(ctx)).toEqual(['a', 'b']);
    expect(nodeName(ctx)).toBe('a');
    expect(nodeName(ctx, 'b')).toBe('b');
    expect(() => nodeName(ctx, 'c')).toThrow(expect.objectContaining({ extensions: expect.objectContaining({ code: 'NODE_NOT_CONFIGURED', configured: ['a', 'b'] }) }));
    expect(() => nodeName(contextOf([]))).toThrow(/This gateway has no node configured/);
  });
});

describe('nodeRpc', () => {
  it('asks each method and params once per request and node, whatever the key order', async () => {
    const a = fakeNode('a', (method) => (method === 'info.getNodeID' ? { nodeID: 'NodeID-a' } : { networkID: 1 }));
    const ctx = contextOf([a]);
    await Promise.all([nodeRpc(ctx, 'a', 'info.getNodeID'), nodeRpc(ctx, 'a', 'info.getNodeID', {})]);
    await nodeRpc(ctx, 'a', 'info.getNodeID');
    expect(a.calls.map((c) => c.method)).toEqual(['info.getNodeID']);
    await nodeRpc(contextOf([a]), 'a', 'info.getNodeID');
    expect(a.calls).toHaveLength(2);
  });

  it('nodeRpcOrNull answers null only for the node error it names', async () => {
    const rpcError = (message: string) =>
      new UpstreamError(message, { upstream: 'node:a', kind: 'rpc', operation: 'info.uptime', rpcError: { code: -32000, message } });
    const a = fakeNode('a', (_method, params) => {
      throw rpcError((params as { subnetID?: string }).subnetID ? 'node is not a validator' : 'something else broke');
    });
    const ctx = contextOf([a]);
    await expect(nodeRpcOrNull(ctx, 'a', 'info.uptime', { subnetID: 'x' }, /not a validator/i)).resolves.toBeNull();
    await expect(nodeRpcOrNull(ctx, 'a', 'info.uptime', {}, /not a validator/i)).rejects.toThrow(/something else broke/);
  });
});

describe('peers', () => {
  it('sortedPeers reads info.peers once and sorts by node id, each peer tagged with its node', async () => {
    const a = fakeNode('a', () => ({ numPeers: 3, peers: [peer('NodeID-c'), peer('NodeID-a'), peer('NodeID-b')] }));
    const ctx = contextOf([a]);
    const [all, again] = await Promise.all([sortedPeers(ctx, 'a'), sortedPeers(ctx, 'a', [])]);
    expect(all.map((p) => [p.nodeID, p.node])).toEqual([['NodeID-a', 'a'], ['NodeID-b', 'a'], ['NodeID-c', 'a']]);
    expect(again).toEqual(all);
    expect(a.calls).toEqual([{ method: 'info.peers', params: {} }]);
  });

  it('validatorPeer asks the named node, or the first node running the network', async () => {
    const id = 'NodeID-7Xhw2mDxuDS44j42TCB6U5579esbSt3Lg';
    const peers = (method: NodeRpcMethod) => (method === 'info.getNetworkID' ? { networkID: 5 } : { numPeers: 1, peers: [peer(id)] });
    const mainnet = fakeNode('m', (method) => (method === 'info.getNetworkID' ? { networkID: 1 } : { numPeers: 0, peers: [] }));
    const fuji = fakeNode('f', peers);
    const ctx = contextOf([mainnet, fuji]);
    expect(await validatorPeer(ctx, 'fuji', id)).toMatchObject({ nodeID: id, node: 'f' });
    expect(await validatorPeer(ctx, 'fuji', id, 'm')).toBeNull();
    await expect(validatorPeer(ctx, 'fuji', id, 'nope')).rejects.toThrow(/No node named "nope"/);
    expect(await validatorPeer(contextOf([]), 'mainnet', id)).toBeNull();
  });
});

describe('watchNodeHealth', () => {
  it('emits only when healthy or the set of failing checks changes, renewing the budget window at each poll', async () => {
    const check = (error?: string, timestamp = 't') => ({ timestamp, duration: 1, ...(error ? { error } : {}) });
    const reports: HealthReport[] = [
      { healthy: true, checks: { P: check(), X: check() } },
      { healthy: true, checks: { P: check(undefined, 't2'), X: check() } },
      { healthy: false, checks: { P: check('down'), X: check() } },
      { healthy: false, checks: { P: check('still down', 't3'), X: check() } },
      { healthy: false, checks: { P: check('down'), X: check('down') } },
      { healthy: true, checks: { P: check(), X: check() } },
    ];
    let polls = 0;
    const controller = new AbortController();
    const ctx = contextOf([], controller.signal);
    const windows: number[] = [];
    const node = fakeNode('fake', () => {
      // What the budget held when this poll was sent: each poll starts a fresh window.
      windows.push(ctx.upstreamCalls.count);
      ctx.upstreamCalls.count += 1;
      return reports[Math.min(polls++, reports.length - 1)];
    });
    const withNode = { ...loaderContext({ ...upstreamOf(ctx), nodes: createNodeDirectory([node]) }, ctx.call), upstreamCalls: ctx.upstreamCalls };
    const previous = nodeHealthPolling.intervalMs;
    nodeHealthPolling.intervalMs = 1;
    const emitted: HealthReport[] = [];
    try {
      for await (const report of watchNodeHealth(withNode, 'fake')) {
        emitted.push(report);
        if (emitted.length === 4) controller.abort();
      }
    } finally {
      nodeHealthPolling.intervalMs = previous;
    }
    expect(emitted).toEqual([reports[0], reports[2], reports[4], reports[5]]);
    expect(windows).toHaveLength(6);
    expect(windows.every((count) => count === 0)).toBe(true);
  });
});
