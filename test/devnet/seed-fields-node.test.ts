import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { HEALTH_CHECK_NAMES, type NodeRpcMethod } from '../../src/shapes/index.ts';
import { Coverage, Findings, list, STRICT_NODE_RESULTS as N, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * Every method of the node seed, called on the devnet's nodes over HTTP, against
 * the strict build of the upstream descriptions (src/shapes/node-rpc.ts): the
 * JSON-RPC envelope, each result's fields and formats (the node's numbers as
 * decimal strings), and the health reports of the JSON-RPC and GET endpoints.
 */

type Json = Record<string, unknown>;

let devnet: Devnet;
const coverage = new Coverage();

beforeAll(async () => {
  devnet = await startDevnet({});
});

afterAll(async () => {
  await devnet?.close();
});

let rpcId = 1;

async function rpc(nodeUrl: string, method: string, params: Json = {}): Promise<{ envelope: Json; result: unknown }> {
  const api = method.slice(0, method.indexOf('.'));
  const id = rpcId++;
  const res = await fetch(`${nodeUrl}/ext/${api}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  expect(res.status, method).toBe(200);
  const envelope = (await res.json()) as Json;
  expect(envelope.error, `${method} answered an error`).toBeUndefined();
  expect(envelope.id, `${method} echoes the id`).toBe(id);
  return { envelope, result: envelope.result };
}

describe('Node seed shapes', () => {
  const readMethods: [NodeRpcMethod, Json][] = [
    ['info.acps', {}],
    ['info.isBootstrapped', { chain: 'X' }],
    ['info.getBlockchainID', { alias: 'C' }],
    ['info.getNetworkID', {}],
    ['info.getNetworkName', {}],
    ['info.getNodeID', {}],
    ['info.getNodeIP', {}],
    ['info.getNodeVersion', {}],
    ['info.getTxFee', {}],
    ['info.getVMs', {}],
    ['info.peers', {}],
    ['info.uptime', {}],
    ['info.upgrades', {}],
    ['admin.getChainAliases', { chain: '11111111111111111111111111111111LpoYY' }],
    ['admin.getLoggerLevel', {}],
    ['admin.getLoggerLevel', { loggerName: 'P' }],
    ['admin.getConfig', {}],
    ['admin.dbGet', { key: `0x${'00'.repeat(32)}` }],
    ['admin.dbGet', { key: '0x00ff' }],
    ['health.health', {}],
    ['health.readiness', {}],
    ['health.liveness', {}],
  ];

  it('info, admin and health read methods: JSON-RPC envelope and result fields, on both nodes', async () => {
    const f = new Findings(coverage);
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      for (const [method, params] of readMethods) {
        const { envelope, result } = await rpc(url, method, params);
        f.check(`${network} ${method}`, envelope, S.JsonRpcResponse);
        f.check(`${network} ${method} result`, result, N[method]);
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('info.peers: every Peer; numPeers agrees with the list; nodeIDs filter', async () => {
    const f = new Findings(coverage);
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      const { result } = await rpc(url, 'info.peers');
      const r = result as Json;
      f.check(`${network} info.peers`, r, N['info.peers']);
      const peers = list(r, 'peers');
      expect(peers.length, `${network} peers`).toBeGreaterThan(10);
      if (String(r.numPeers) !== String(peers.length)) f.add(`${network} info.peers: numPeers ${String(r.numPeers)} != ${peers.length} peers`);
      const wanted = peers.slice(0, 3).map((p) => String(p.nodeID));
      const filtered = (await rpc(url, 'info.peers', { nodeIDs: wanted })).result as Json;
      f.check(`${network} info.peers(nodeIDs)`, filtered, N['info.peers']);
      expect(list(filtered, 'peers').map((p) => p.nodeID).sort()).toEqual([...wanted].sort());
    }
    expect(f.summary()).toEqual([]);
  });

  it('admin methods that change state answer the seed result', async () => {
    const f = new Findings(coverage);
    const url = devnet.nodeUrls.fuji as string;
    const calls: [NodeRpcMethod, Json][] = [
      ['admin.alias', { endpoint: 'info', alias: 'seed-fields-info' }],
      ['admin.aliasChain', { chain: 'X', alias: 'seed-fields-x' }],
      ['admin.setLoggerLevel', { loggerName: 'P', logLevel: 'DEBUG' }],
      ['admin.lockProfile', {}],
      ['admin.memoryProfile', {}],
      ['admin.startCPUProfiler', {}],
      ['admin.stopCPUProfiler', {}],
      ['admin.stacktrace', {}],
      ['admin.loadVMs', {}],
      ['admin.loadVMs', {}],
    ];
    for (const [method, params] of calls) {
      const { envelope, result } = await rpc(url, method, params);
      f.check(method, envelope, S.JsonRpcResponse);
      f.check(`${method} result`, result, N[method]);
    }
    const levels = (await rpc(url, 'admin.getLoggerLevel', { loggerName: 'P' })).result as Json;
    f.check('admin.getLoggerLevel after set', levels, N['admin.getLoggerLevel']);
    expect((levels.loggerLevels as Record<string, Json>).P?.logLevel).toBe('DEBUG');
    expect(f.summary()).toEqual([]);
  });

  it('health report: checks named as in the seed, chain/diskspace/network/router messages, failure fields on failing checks', async () => {
    const f = new Findings(coverage);
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      const report = (await rpc(url, 'health.health')).result as Json;
      f.check(`${network} health.health`, report, S.HealthReport);
      const checks = (report.checks ?? {}) as Record<string, Json>;
      for (const name of HEALTH_CHECK_NAMES) if (!(name in checks)) f.add(`${network} health.health: no ${name} check`);
      for (const chain of ['C', 'P', 'X']) if (checks[chain]) f.check(`${network} ${chain} check message`, checks[chain].message, S.HealthCheckMessages.chain);
      if (checks.diskspace) f.check(`${network} diskspace check message`, checks.diskspace.message, S.HealthCheckMessages.diskspace);
      if (checks.network) f.check(`${network} network check message`, checks.network.message, S.HealthCheckMessages.network);
      if (checks.router) f.check(`${network} router check message`, checks.router.message, S.HealthCheckMessages.router);
      const failing = Object.entries(checks).filter(([, c]) => c.error !== undefined);
      for (const [name, c] of failing) {
        for (const k of ['contiguousFailures', 'timeOfFirstFailure']) if (c[k] === undefined) f.add(`${network} failing check ${name}: no ${k}`);
      }
      const healthy = failing.length === 0;
      if (report.healthy !== healthy) f.add(`${network} health.health: healthy=${String(report.healthy)} with ${failing.length} failing checks`);
      const live = (await rpc(url, 'health.liveness')).result;
      expect(live).toEqual({ checks: {}, healthy: true });
    }
    expect(f.summary()).toEqual([]);
  });

  it('health GET endpoints: 200 when healthy, 503 when not, with a health report body', async () => {
    const f = new Findings(coverage);
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      for (const path of ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness', '/ext/health?tag=11111111111111111111111111111111LpoYY']) {
        const res = await fetch(`${url}${path}`);
        const body = (await res.json()) as Json;
        f.check(`${network} GET ${path}`, body, S.HealthReport);
        const expected = body.healthy === true ? 200 : 503;
        if (res.status !== expected) f.add(`${network} GET ${path}: status ${res.status} with healthy=${String(body.healthy)}`);
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('failing health checks (over a few health periods of a hand-driven clock) carry error, contiguousFailures and timeOfFirstFailure', async () => {
    const f = new Findings(coverage);
    let clock = Date.UTC(2026, 0, 15);
    const timed = await startDevnet({ validators: 40, now: () => clock });
    const statuses = new Set<number>();
    let failing = 0;
    try {
      for (let period = 0; period < 16; period++, clock += 30_000) {
        for (const [network, url] of Object.entries(timed.nodeUrls)) {
          const res = await fetch(`${url}/ext/health`);
          statuses.add(res.status);
          const report = (await res.json()) as Json;
          f.check(`${network} t+${period * 30}s`, report, S.HealthReport);
          for (const [name, c] of Object.entries((report.checks ?? {}) as Record<string, Json>)) {
            if (c.error === undefined) continue;
            failing += 1;
            for (const k of ['contiguousFailures', 'timeOfFirstFailure']) if (c[k] === undefined) f.add(`${network} t+${period * 30}s failing check ${name}: no ${k}`);
          }
        }
      }
    } finally {
      await timed.close();
    }
    expect(failing, 'some check failed during the periods').toBeGreaterThan(0);
    expect([...statuses].sort()).toEqual([200, 503]);
    expect(f.summary()).toEqual([]);
  });
});

describe('coverage', () => {
  it('every field of every checked shape was served by at least one instance', () => {
    const checked = coverage.checked();
    for (const name of ['JsonRpcResponse', 'Peer', 'AcpPreference', 'TxFees', 'Upgrades', 'HealthCheckResult', 'HealthReport', 'LoggerLevel', 'chain check message']) {
      expect(checked, `${name} was checked`).toContain(name);
    }
    // Fields the seeds describe as conditional: the node reports a failed VM load only when one fails.
    const conditional = new Set(['admin.loadVMs result.failedVMs']);
    expect(coverage.neverSeen().filter((field) => !conditional.has(field))).toEqual([]);
  });

  it('refuses the node numbers the clients read as numbers when they come as JSON numbers', () => {
    const f = new Findings();
    f.check('info.getNetworkID', { networkID: 5 }, N['info.getNetworkID']);
    f.check('info.uptime', { rewardingStakePercentage: '99.5', weightedAveragePercentage: 98 }, N['info.uptime']);
    expect(f.summary()).toEqual([
      'info.getNetworkID $.networkID: expected string, got 5',
      'info.uptime $.weightedAveragePercentage: expected string, got 98',
    ]);
  });
});
