import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { createNodeClient, parseNodeUrls, type NodeClientHandle } from '../../src/upstream/node-client.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID } from '../../src/shapes/index.ts';

// Every NodeRpcMethods method and the health GETs against the devnet's
// simulated nodes (mainnet at the root, fuji under /nodes/fuji) over real HTTP.

let devnet: Devnet;
let clock = Date.now();
const http = createHttpUpstream({ retryBaseDelayMs: 1 });
let mainnet: NodeClientHandle;
let fuji: NodeClientHandle;

beforeAll(async () => {
  // A movable clock: the simulated health checks run every 30 s and one subnet chain flaps.
  devnet = await startDevnet({ validators: 200, now: () => clock });
  const nodes = parseNodeUrls(`mainnet=${devnet.nodeUrls.mainnet},fuji=${devnet.nodeUrls.fuji}`);
  [mainnet, fuji] = nodes.map((n) => createNodeClient({ ...n, http })) as [NodeClientHandle, NodeClientHandle];
});
afterAll(async () => {
  await http.close();
  await devnet.close();
});
afterEach(() => {
  devnet.setChaos({ failNext: 0, faultStatus: 503, routeFilter: undefined, latencyMs: 0 });
});

async function rpcFailure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamError);
  expect(error).toMatchObject({ kind: 'rpc', status: 200, rpcError: { code: -32000 } });
  return error as UpstreamError;
}

describe('info API', () => {
  it('info.getNetworkID and info.getNetworkName (numbers, and the path prefix reaches the fuji node)', async () => {
    expect(await mainnet.call('info.getNetworkID')).toEqual({ networkID: 1 });
    expect(await fuji.call('info.getNetworkID')).toEqual({ networkID: 5 });
    expect(await mainnet.call('info.getNetworkName')).toEqual({ networkName: 'mainnet' });
    expect(await fuji.call('info.getNetworkName')).toEqual({ networkName: 'fuji' });
  });

  it('info.getNodeID, info.getNodeIP, info.getNodeVersion', async () => {
    const id = await mainnet.call('info.getNodeID');
    expect(id.nodeID).toMatch(/^NodeID-/);
    expect(id.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(id.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
    expect((await mainnet.call('info.getNodeIP')).ip).toMatch(/:\d+$/);
    const version = await mainnet.call('info.getNodeVersion');
    expect(version.version).toMatch(/^avalanchego\//);
    expect(typeof version.rpcProtocolVersion).toBe('string');
    expect(version.vmVersions).toHaveProperty('platform');
  });

  it('info.getTxFee keeps uint64 values as strings', async () => {
    const fees = await mainnet.call('info.getTxFee');
    expect(fees.txFee).toBe('1000000');
    expect(fees.createSubnetTxFee).toBe('1000000000');
    expect((await fuji.call('info.getTxFee')).createSubnetTxFee).toBe('100000000');
  });

  it('info.getVMs, info.upgrades, info.acps', async () => {
    const { vms } = await mainnet.call('info.getVMs');
    expect(Object.keys(vms).length).toBeGreaterThan(0);
    const upgrades = await mainnet.call('info.upgrades');
    expect(upgrades.apricotPhase1Time).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(typeof upgrades.apricotPhase4MinPChainHeight).toBe('number');
    const { acps } = await mainnet.call('info.acps');
    for (const pref of Object.values(acps)) {
      expect(pref.supportWeight).toMatch(/^\d+$/);
      expect(Array.isArray(pref.supporters)).toBe(true);
    }
  });

  it('info.peers converts numPeers and observedUptime, and filters by nodeIDs', async () => {
    const all = await mainnet.call('info.peers');
    expect(typeof all.numPeers).toBe('number');
    expect(all.numPeers).toBe(all.peers.length);
    expect(all.peers.length).toBeGreaterThan(2);
    for (const peer of all.peers) expect(typeof peer.observedUptime).toBe('number');
    const wanted = all.peers.slice(0, 2).map((p) => p.nodeID);
    const some = await mainnet.call('info.peers', { nodeIDs: wanted });
    expect(some.peers.map((p) => p.nodeID)).toEqual(wanted);
    expect(some.numPeers).toBe(2);
  });

  it('info.uptime returns numbers, for the primary network and per subnet', async () => {
    const uptime = await mainnet.call('info.uptime');
    expect(typeof uptime.rewardingStakePercentage).toBe('number');
    expect(uptime.weightedAveragePercentage).toBeGreaterThan(0);
    expect(uptime.weightedAveragePercentage).toBeLessThanOrEqual(100);
    const error = await rpcFailure(mainnet.call('info.uptime', { subnetID: 'not-an-id' }));
    expect(error.rpcError?.message).toContain("couldn't unmarshal an argument");
  });

  it('info.isBootstrapped and info.getBlockchainID, and their -32000 errors', async () => {
    expect(await mainnet.call('info.isBootstrapped', { chain: 'X' })).toEqual({ isBootstrapped: true });
    expect(await mainnet.call('info.getBlockchainID', { alias: 'X' })).toEqual({ blockchainID: PRIMARY_CHAIN_IDS.mainnet.x });
    expect(await fuji.call('info.getBlockchainID', { alias: 'C' })).toEqual({ blockchainID: PRIMARY_CHAIN_IDS.fuji.c });
    const error = await rpcFailure(mainnet.call('info.getBlockchainID', { alias: 'no-such-chain' }));
    expect(error.rpcError?.message).toBe('there is no ID with alias: no-such-chain');
    expect(error).toMatchObject({ upstream: 'node:mainnet', operation: 'info.getBlockchainID', attempts: 1 });
    await rpcFailure(mainnet.call('info.isBootstrapped', { chain: 'no-such-chain' }));
  });
});

describe('admin API', () => {
  it('admin.getChainAliases and admin.aliasChain', async () => {
    const { aliases } = await mainnet.call('admin.getChainAliases', { chain: PRIMARY_NETWORK_ID });
    expect(aliases).toEqual(expect.arrayContaining(['P', 'platform']));
    expect(await mainnet.call('admin.aliasChain', { chain: PRIMARY_CHAIN_IDS.mainnet.x, alias: 'my-x' })).toEqual({});
    const after = await mainnet.call('admin.getChainAliases', { chain: PRIMARY_CHAIN_IDS.mainnet.x });
    expect(after.aliases).toContain('my-x');
    expect(await mainnet.call('info.getBlockchainID', { alias: 'my-x' })).toEqual({ blockchainID: PRIMARY_CHAIN_IDS.mainnet.x });
    const error = await rpcFailure(mainnet.call('admin.aliasChain', { chain: PRIMARY_CHAIN_IDS.mainnet.x, alias: 'my-x' }));
    expect(error.rpcError?.message).toContain('alias already mapped');
  });

  it('admin.alias, and the error for an alias already taken', async () => {
    expect(await mainnet.call('admin.alias', { endpoint: 'info', alias: 'my-info' })).toEqual({});
    await rpcFailure(mainnet.call('admin.alias', { endpoint: 'info', alias: 'my-info' }));
  });

  it('admin.getLoggerLevel and admin.setLoggerLevel', async () => {
    const before = await mainnet.call('admin.getLoggerLevel', { loggerName: 'main' });
    expect(Object.keys(before.loggerLevels)).toEqual(['main']);
    const set = await mainnet.call('admin.setLoggerLevel', { loggerName: 'main', logLevel: 'debug' });
    expect(set.loggerLevels?.main?.logLevel).toBe('DEBUG');
    const after = await mainnet.call('admin.getLoggerLevel', { loggerName: 'main' });
    expect(after.loggerLevels.main?.logLevel).toBe('DEBUG');
    const all = await mainnet.call('admin.getLoggerLevel');
    expect(Object.keys(all.loggerLevels).length).toBeGreaterThan(1);
    const error = await rpcFailure(mainnet.call('admin.setLoggerLevel', { loggerName: 'main' }));
    expect(error.rpcError?.message).toBe('need to specify either displayLevel or logLevel');
  });

  it('admin.loadVMs, admin.lockProfile, admin.memoryProfile', async () => {
    const loaded = await mainnet.call('admin.loadVMs');
    expect(typeof loaded.newVMs).toBe('object');
    expect(await mainnet.call('admin.lockProfile')).toEqual({});
    expect(await mainnet.call('admin.memoryProfile')).toEqual({});
  });

  it('admin.startCPUProfiler and admin.stopCPUProfiler follow the profiler state', async () => {
    expect(await fuji.call('admin.startCPUProfiler')).toEqual({});
    expect((await rpcFailure(fuji.call('admin.startCPUProfiler'))).rpcError?.message).toBe('cpu profiler already running');
    expect(await fuji.call('admin.stopCPUProfiler')).toEqual({});
    expect((await rpcFailure(fuji.call('admin.stopCPUProfiler'))).rpcError?.message).toBe("cpu profiler doesn't exist");
  });
});

describe('health API', () => {
  it('health.health, health.readiness (with tags) and health.liveness over JSON-RPC', async () => {
    const health = await mainnet.call('health.health');
    expect(typeof health.healthy).toBe('boolean');
    expect(Object.keys(health.checks)).toEqual(expect.arrayContaining(['network', 'P', 'X', 'C']));
    const readiness = await mainnet.call('health.readiness', { tags: ['application'] });
    expect(Object.keys(readiness.checks)).toEqual(['bootstrapped']);
    expect(await mainnet.call('health.liveness')).toEqual({ checks: {}, healthy: true });
  });

  it('healthGet reads each path and sends the tags', async () => {
    const liveness = await mainnet.healthGet('liveness');
    expect(liveness).toEqual({ status: 200, report: { checks: {}, healthy: true } });
    const readiness = await fuji.healthGet('readiness');
    expect(readiness.status).toBe(200);
    expect(Object.keys(readiness.report.checks)).toEqual(['bootstrapped']);
    const primary = await mainnet.healthGet('health', [PRIMARY_NETWORK_ID]);
    expect(Object.keys(primary.report.checks)).toEqual(expect.arrayContaining(['P', 'X', 'C', 'network']));
    const unknown = await mainnet.healthGet('health', ['no-such-tag']);
    expect(Object.keys(unknown.report.checks)).not.toContain('P');
    expect(Object.keys(unknown.report.checks)).toContain('network');
    const stats = devnet.stats().byRoute;
    expect(Object.keys(stats).some((k) => k.includes('/ext/health'))).toBe(true);
  });

  it('healthGet answers 503 with the report when the node is unhealthy, as an answer', async () => {
    const seen = new Map<number, boolean>();
    const start = clock;
    // The flapping check fails 2 runs in 8; walking the clock one run at a time finds both states.
    for (let run = 0; run < 16 && seen.size < 2; run++) {
      clock = start + run * 30_000;
      const { status, report } = await mainnet.healthGet('health');
      expect(report.healthy).toBe(status === 200);
      seen.set(status, report.healthy);
    }
    clock = start;
    expect([...seen.keys()].sort()).toEqual([200, 503]);
  });
});

describe('transport', () => {
  it('sends one request per call (no batch), counted per method by the devnet', async () => {
    devnet.resetStats();
    await Promise.all([mainnet.call('info.getNodeVersion'), mainnet.call('info.getNetworkName'), mainnet.call('info.getNodeVersion')]);
    const stats = devnet.stats();
    expect(stats.requests).toBe(3);
    const byMethod = Object.entries(stats.byRoute).filter(([k]) => k.includes('info.'));
    expect(Object.fromEntries(byMethod.map(([k, v]) => [k.replace(/^POST /, ''), v]))).toEqual({
      'info.getNodeVersion': 2,
      'info.getNetworkName': 1,
    });
  });

  it('retries a read-only method on 503 but not an admin write', async () => {
    devnet.resetStats();
    devnet.setChaos({ failNext: 1, routeFilter: 'info.getNodeVersion' });
    await expect(mainnet.call('info.getNodeVersion')).resolves.toHaveProperty('version');
    expect(devnet.stats().requests).toBe(2);
    devnet.resetStats();
    devnet.setChaos({ failNext: 1, routeFilter: 'admin.lockProfile' });
    await expect(mainnet.call('admin.lockProfile')).rejects.toMatchObject({ kind: 'http', status: 503, attempts: 1 });
    expect(devnet.stats().requests).toBe(1);
  });

  it('maps a missing API (404) to kind http status 404', async () => {
    const nowhere = createNodeClient({ name: 'nowhere', url: `${devnet.url}/nodes/nowhere`, http });
    const error = await nowhere.call('info.getNodeID').then(() => undefined, (e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 404, upstream: 'node:nowhere', operation: 'info.getNodeID' });
  });

  it('exposes the name and the display URL', () => {
    expect(mainnet.name).toBe('mainnet');
    expect(fuji.url).toBe(`${devnet.url}/nodes/fuji`);
  });
});
