import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevnetHandler } from '../../src/devnet/http-types.ts';
import { createNodeSimulator, goDuration, idFromName, rfc3339Nano, type NodeSimulator } from '../../src/devnet/node/index.ts';
import type { DevnetBlockchain, NodeDataView } from '../../src/devnet/node-view.ts';
import { Rng } from '../../src/devnet/rng.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';

// The node simulator over real HTTP: first through a bare node:http server
// around the handler with a small hand-written view, then through startDevnet.

const PRIMARY = '11111111111111111111111111111111LpoYY';
const MAINNET_X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const MAINNET_C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
const UNMARSHAL = "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";

const rng = new Rng('node-api-test');
const validators = Array.from({ length: 60 }, () => rng.nodeId());
const subnets = [rng.cb58Id(), rng.cb58Id()];
const subnetChains: DevnetBlockchain[] = subnets.map((subnetId, i) => ({
  blockchainId: rng.cb58Id(),
  subnetId,
  vmId: idFromName('subnetevm'),
  name: `Subnet ${i} EVM`,
  aliases: [],
}));
const view: NodeDataView = {
  activeValidatorNodeIds: () => validators,
  blockchains: () => [
    { blockchainId: PRIMARY, subnetId: PRIMARY, vmId: idFromName('platformvm'), name: 'P-Chain', aliases: ['P', 'platform'] },
    { blockchainId: MAINNET_X, subnetId: PRIMARY, vmId: idFromName('avm'), name: 'X-Chain', aliases: ['X', 'avm'] },
    { blockchainId: MAINNET_C, subnetId: PRIMARY, vmId: idFromName('evm'), name: 'C-Chain', aliases: ['C', 'evm'] },
    ...subnetChains,
  ],
  subnetIds: () => subnets,
};

let clock = Date.UTC(2026, 2, 1, 12, 0, 0);
const now = (): number => clock;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw HTTP call, so tests control every header (fetch would add a content type and a host). */
function call(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

interface RpcReply {
  jsonrpc: string;
  id: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data: unknown };
}

async function rpc(base: string, path: string, method: string, params?: unknown): Promise<RpcReply> {
  const answer = await call(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.text) as RpcReply;
}

async function result<T = Record<string, unknown>>(base: string, path: string, method: string, params?: unknown): Promise<T> {
  const reply = await rpc(base, path, method, params);
  expect(reply.error).toBeUndefined();
  return reply.result as T;
}

async function rpcError(base: string, path: string, method: string, params?: unknown): Promise<string> {
  const reply = await rpc(base, path, method, params);
  expect(reply).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32000, data: null } });
  expect(reply.result).toBeUndefined();
  return reply.error?.message ?? '';
}

/** Serves a handler the way server.ts does (JSON unless a content type is given). */
async function serve(handler: DevnetHandler): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      void Promise.resolve(
        handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }),
      ).then((answer) => {
        const payload = answer.body === undefined ? '' : answer.contentType === undefined ? JSON.stringify(answer.body) : String(answer.body);
        res.statusCode = answer.status;
        res.setHeader('content-type', answer.contentType ?? 'application/json; charset=utf-8');
        res.setHeader('x-route', answer.route);
        for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
        res.end(payload);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let sim: NodeSimulator;
let base: string;
let noAdminBase: string;
let fujiBase: string;
let hostBase: string;
const servers: Server[] = [];

beforeAll(async () => {
  sim = createNodeSimulator({ name: 'mainnet', network: 'mainnet', view, seed: 1, now });
  const main = await serve(sim.handle);
  const noAdmin = await serve(createNodeSimulator({ name: 'mainnet', network: 'mainnet', view, seed: 1, now, adminEnabled: false }).handle);
  const fuji = await serve(createNodeSimulator({ name: 'fuji', network: 'fuji', view, seed: 1, now }).handle);
  const hosts = await serve(createNodeSimulator({ name: 'h', network: 'mainnet', view, seed: 1, now, allowedHosts: ['localhost'] }).handle);
  servers.push(main.server, noAdmin.server, fuji.server, hosts.server);
  base = main.url;
  noAdminBase = noAdmin.url;
  fujiBase = fuji.url;
  hostBase = hosts.url;
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

describe('transport', () => {
  it('requires POST and application/json on the JSON-RPC endpoints, as plain-text errors', async () => {
    const get = await call(`${base}/ext/info`);
    expect(get).toMatchObject({ status: 405, text: 'rpc: POST method required, received GET' });
    expect(get.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(get.headers['x-route']).toBe('GET /ext/info (invalid)');

    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNetworkID' });
    expect(await call(`${base}/ext/info`, { method: 'POST', body })).toMatchObject({ status: 415, text: 'rpc: unrecognized Content-Type: ' });
    expect(await call(`${base}/ext/info`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } })).toMatchObject({
      status: 415,
      text: 'rpc: unrecognized Content-Type: application/x-www-form-urlencoded',
    });
    const loose = await call(`${base}/ext/info`, { method: 'POST', body, headers: { 'content-type': 'Application/JSON;charset=UTF-8' } });
    expect(loose.status).toBe(200);
    expect(JSON.parse(loose.text)).toEqual({ jsonrpc: '2.0', result: { networkID: '1' }, id: 1 });
    expect(loose.headers['x-content-type-options']).toBe('nosniff');
    expect(loose.headers['x-route']).toBe('POST info.getNetworkID');
  });

  it('matches paths exactly and carries node-id on every answer', async () => {
    const { nodeId } = sim.state();
    for (const path of ['/ext/info/', '/ext/nope', '/ext', '/ext/health/other']) {
      const answer = await call(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(answer.status).toBe(404);
      expect(answer.text.trim()).toBe('404 page not found');
      expect(answer.headers['node-id']).toBe(nodeId);
    }
    expect((await call(`${base}/ext/health/liveness`)).headers['node-id']).toBe(nodeId);
  });

  it('hides /ext routes from requests carrying Avalanche-Api-Route', async () => {
    const answer = await call(`${base}/ext/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'avalanche-api-route': 'bc/C' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNodeID' }),
    });
    expect(answer.status).toBe(404);
  });

  it('answers 404 for /ext/admin when the admin API is disabled', async () => {
    const answer = await call(`${noAdminBase}/ext/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'admin.getLoggerLevel' }),
    });
    expect(answer).toMatchObject({ status: 404 });
    expect(await result(noAdminBase, '/ext/info', 'info.getNetworkName')).toEqual({ networkName: 'mainnet' });
  });

  it('applies the allowed-hosts filter when configured: IPs and listed names pass, other names get 403', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNetworkID' });
    const post = (host: string) => call(`${hostBase}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json', host }, body });
    expect((await post('127.0.0.1:9650')).status).toBe(200);
    expect((await post('LOCALHOST:9650')).status).toBe(200);
    expect(await post('devnet:9650')).toMatchObject({ status: 403, text: 'invalid host specified\n' });
    expect((await call(`${base}/ext/info`, { method: 'POST', headers: { 'content-type': 'application/json', host: 'devnet' }, body })).status).toBe(200);
  });
});

describe('JSON-RPC envelope', () => {
  const post = (body: string, path = '/ext/info') => call(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it('rejects a batch with a -32700 parse error, HTTP 200 and id null', async () => {
    const answer = await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'info.getNodeID' }]));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32700,
        message: 'json: cannot unmarshal array into Go value of type json2.serverRequest',
        data: { jsonrpc: '', method: '', params: null, id: null },
      },
      id: null,
    });
    expect(JSON.parse((await post('{"jsonrpc":"2.0",')).text)).toMatchObject({ error: { code: -32700, message: 'unexpected EOF' }, id: null });
  });

  it('rejects a wrong jsonrpc version with -32600 and the request as data', async () => {
    const answer = JSON.parse((await post(JSON.stringify({ jsonrpc: '1.0', id: 'a', method: 'info.getNodeID' }))).text) as RpcReply;
    expect(answer).toEqual({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'jsonrpc must be 2.0', data: { jsonrpc: '1.0', method: 'info.getNodeID', params: null, id: 'a' } },
      id: 'a',
    });
  });

  it('treats a missing or null id as a notification: HTTP 200, empty body, even on error', async () => {
    for (const body of [
      { jsonrpc: '2.0', method: 'info.getNodeID' },
      { jsonrpc: '2.0', id: null, method: 'info.getNodeID' },
      { jsonrpc: '2.0', method: 'info.nope' },
    ]) {
      const answer = await post(JSON.stringify(body));
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('');
    }
  });

  it('echoes the id as sent, and reads params by name or as a one-element array', async () => {
    const byName = JSON.parse((await post(JSON.stringify({ jsonrpc: '2.0', id: 'req-1', method: 'info.getBlockchainID', params: { alias: 'X' } }))).text) as RpcReply;
    expect(byName).toEqual({ jsonrpc: '2.0', result: { blockchainID: MAINNET_X }, id: 'req-1' });
    expect(await result(base, '/ext/info', 'info.getBlockchainID', [{ alias: 'C' }])).toEqual({ blockchainID: MAINNET_C });
    expect(await result(base, '/ext/info', 'info.getBlockchainID', { ALIAS: 'C', extra: 1 })).toEqual({ blockchainID: MAINNET_C });
    expect(await result(base, '/ext/info', 'info.getNodeIP', [])).toHaveProperty('ip');
  });

  it('names bad methods the way gorilla/rpc does', async () => {
    expect(await rpcError(base, '/ext/info', 'info.fooBar')).toBe('rpc: can\'t find method "info.FooBar"');
    expect(await rpcError(base, '/ext/info', 'info.getNodeId')).toBe('rpc: can\'t find method "info.GetNodeId"');
    expect(await rpcError(base, '/ext/info', 'info.GetNodeID')).toBe('method must start with a non-uppercase letter');
    expect(await rpcError(base, '/ext/info', 'admin.alias')).toBe('rpc: can\'t find service "admin.Alias"');
    expect(await rpcError(base, '/ext/info', 'Info.getNodeID')).toBe('rpc: can\'t find service "Info.GetNodeID"');
    expect(await rpcError(base, '/ext/info', 'getNodeID')).toBe('rpc: service/method request ill-formed: "getNodeID"');
    expect(await rpcError(base, '/ext/info', 'info.get.nodeID')).toBe('rpc: service/method request ill-formed: "info.Get.nodeID"');
    expect(await rpcError(base, '/ext/info', '')).toBe('rpc: service/method request ill-formed: ""');
    expect(await rpcError(base, '/ext/health', 'info.getNodeID')).toBe('rpc: can\'t find service "info.GetNodeID"');
  });

  it('replaces every params decoding failure with the generic unmarshal error', async () => {
    expect(await rpcError(base, '/ext/info', 'info.isBootstrapped', { chain: 5 })).toBe(UNMARSHAL);
    expect(await rpcError(base, '/ext/info', 'info.isBootstrapped', 'X')).toBe(UNMARSHAL);
    expect(await rpcError(base, '/ext/info', 'info.peers', { nodeIDs: ['not-a-node-id'] })).toBe(UNMARSHAL);
    expect(await rpcError(base, '/ext/info', 'info.peers', { nodeIDs: ['NodeID-abc'] })).toBe(UNMARSHAL);
    expect(await rpcError(base, '/ext/admin', 'admin.setLoggerLevel', { logLevel: 'LOUD' })).toBe(UNMARSHAL);
    expect(await rpcError(base, '/ext/health', 'health.health', { tags: 'x' })).toBe(UNMARSHAL);
  });
});

describe('info', () => {
  it('reports network, node identity, version, fees, VMs and upgrades with the node serialization', async () => {
    expect(await result(base, '/ext/info', 'info.getNetworkID')).toEqual({ networkID: '1' });
    expect(await result(fujiBase, '/ext/info', 'info.getNetworkID')).toEqual({ networkID: '5' });
    expect(await result(fujiBase, '/ext/info', 'info.getNetworkName')).toEqual({ networkName: 'fuji' });

    const id = await result<{ nodeID: string; nodePOP: { publicKey: string; proofOfPossession: string } }>(base, '/ext/info', 'info.getNodeID');
    expect(id.nodeID).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]{20,40}$/);
    expect(validators).toContain(id.nodeID);
    expect(id.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(id.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
    expect(await result(base, '/ext/info', 'info.getNodeIP')).toEqual({ ip: expect.stringMatching(/^\d+\.\d+\.\d+\.\d+:9651$/) as unknown });

    expect(await result(base, '/ext/info', 'info.getNodeVersion')).toMatchObject({
      version: 'avalanchego/1.14.2',
      databaseVersion: 'v1.4.5',
      rpcProtocolVersion: '45',
      vmVersions: { avm: expect.any(String) as unknown, evm: expect.any(String) as unknown, platform: expect.any(String) as unknown },
    });
    expect(await result(base, '/ext/info', 'info.getTxFee')).toEqual({
      txFee: '1000000', createAssetTxFee: '10000000', createSubnetTxFee: '1000000000', transformSubnetTxFee: '10000000000',
      createBlockchainTxFee: '1000000000', addPrimaryNetworkValidatorFee: '0', addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000', addSubnetDelegatorFee: '1000000',
    });
    expect(await result(fujiBase, '/ext/info', 'info.getTxFee')).toMatchObject({ createSubnetTxFee: '100000000', transformSubnetTxFee: '1000000000' });

    const { vms, fxs } = await result<{ vms: Record<string, string[]>; fxs: Record<string, string> }>(base, '/ext/info', 'info.getVMs');
    expect(vms).toMatchObject({
      rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT: ['platform'],
      jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq: ['avm'],
      mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6: ['evm'],
      srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy: [],
    });
    expect(fxs).toEqual({
      spdxUxVJQbX85MGxMHbKw1sHxMnSqJ3QBzDyDYEP3h6TLuxqQ: 'secp256k1fx',
      qd2U4HDWUvMrVUeTcCHp6xH3Qpnn1XbU5MDdnBoiifFqvgXwT: 'nftfx',
      rXJsCSEYXg2TehWxCEEGj6JU2PWKTkd6cBdNLjoe2SpsKD9cy: 'propertyfx',
    });

    const upgrades = await result(base, '/ext/info', 'info.upgrades');
    expect(upgrades).toMatchObject({
      apricotPhase1Time: '2021-03-31T14:00:00Z',
      apricotPhase4MinPChainHeight: 793005,
      cortinaXChainStopVertexID: 'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
      durangoTime: '2024-03-06T16:00:00Z',
      etnaTime: '2024-12-16T17:00:00Z',
      fortunaTime: '2025-04-08T15:00:00Z',
      graniteTime: '2025-11-19T16:00:00Z',
      graniteEpochDuration: 300000000000,
      heliconTime: '9999-12-01T00:00:00Z',
    });
    expect(Object.keys(upgrades)).toHaveLength(18);
    expect(await result(fujiBase, '/ext/info', 'info.upgrades')).toMatchObject({ apricotPhase4MinPChainHeight: 47437, graniteTime: '2025-10-29T15:00:00Z' });
  });

  it('resolves chains by alias or id, with the node error messages', async () => {
    expect(await result(base, '/ext/info', 'info.getBlockchainID', { alias: 'platform' })).toEqual({ blockchainID: PRIMARY });
    expect(await result(base, '/ext/info', 'info.getBlockchainID', { alias: MAINNET_C })).toEqual({ blockchainID: MAINNET_C });
    expect(await rpcError(base, '/ext/info', 'info.getBlockchainID', { alias: 'Q' })).toBe('there is no ID with alias: Q');
    expect(await result(base, '/ext/info', 'info.isBootstrapped', { chain: 'C' })).toEqual({ isBootstrapped: true });
    expect(await result(base, '/ext/info', 'info.isBootstrapped', { chain: MAINNET_X })).toEqual({ isBootstrapped: true });
    expect(await rpcError(base, '/ext/info', 'info.isBootstrapped', { chain: 'Q' })).toBe("there is no chain with alias/ID 'Q'");
    expect(await rpcError(base, '/ext/info', 'info.isBootstrapped', {})).toBe("argument 'chain' not given");
    expect(await rpcError(base, '/ext/info', 'info.isBootstrapped')).toBe("argument 'chain' not given");
  });

  it('lists the active validators as peers, minus itself and a few unconnected ones', async () => {
    const { nodeId } = sim.state();
    const reply = await result<{ numPeers: string; peers: Array<Record<string, unknown>> }>(base, '/ext/info', 'info.peers');
    expect(reply.numPeers).toBe(String(reply.peers.length));
    const ids = reply.peers.map((p) => p.nodeID as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(nodeId);
    for (const id of ids) expect(validators).toContain(id);
    expect(ids.length).toBeGreaterThanOrEqual(Math.floor(validators.length * 0.85));
    expect(ids.length).toBeLessThanOrEqual(validators.length - 1);

    const peer = reply.peers[0] ?? {};
    expect(Object.keys(peer)).toEqual([
      'ip', 'publicIP', 'nodeID', 'version', 'upgradeTime', 'lastSent', 'lastReceived', 'observedUptime',
      'trackedSubnets', 'supportedACPs', 'objectedACPs', 'benched',
    ]);
    for (const p of reply.peers) {
      expect(p.ip).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+$/);
      expect(p.publicIP).toMatch(/^\d+\.\d+\.\d+\.\d+:9651$/);
      expect(p.version).toMatch(/^avalanchego\/1\.1[34]\.\d+$/);
      expect(p.upgradeTime).toBe(Date.parse('2025-11-19T16:00:00Z') / 1000);
      expect(p.lastSent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
      expect(Date.parse(p.lastReceived as string)).toBeLessThanOrEqual(clock);
      expect(clock - Date.parse(p.lastReceived as string)).toBeLessThan(5_000);
      expect(p.observedUptime).toMatch(/^\d{1,3}$/);
      const tracked = p.trackedSubnets as string[];
      expect(tracked).toEqual([...tracked].sort());
      for (const s of tracked) expect(subnets).toContain(s);
      const acps = p.supportedACPs as number[];
      expect(acps.map(String)).toEqual(acps.map(String).sort());
      expect(Array.isArray(p.benched)).toBe(true);
    }
    // Stable per node: the same peer looks the same on the next call.
    const again = await result<{ peers: Array<Record<string, unknown>> }>(base, '/ext/info', 'info.peers');
    const strip = (p: Record<string, unknown>) => ({ ...p, lastSent: 0, lastReceived: 0 });
    expect(again.peers.map(strip)).toEqual(reply.peers.map(strip));
  });

  it('filters peers by nodeIDs in request order, omitting ids that are not connected', async () => {
    const all = await result<{ peers: Array<{ nodeID: string }> }>(base, '/ext/info', 'info.peers');
    const [a, b] = all.peers.map((p) => p.nodeID);
    const stranger = new Rng('stranger').nodeId();
    const reply = await result<{ numPeers: string; peers: Array<{ nodeID: string }> }>(base, '/ext/info', 'info.peers', {
      nodeIDs: [b, stranger, a, sim.state().nodeId],
    });
    expect(reply.numPeers).toBe('2');
    expect(reply.peers.map((p) => p.nodeID)).toEqual([b, a]);
    expect(await result(base, '/ext/info', 'info.peers', { nodeIDs: [stranger] })).toEqual({ numPeers: '0', peers: [] });
    expect(await result<{ peers: unknown[] }>(base, '/ext/info', 'info.peers', { nodeIDs: [] })).toMatchObject({ numPeers: String(all.peers.length) });
  });

  it('reports ACP preferences from the connected peers', async () => {
    const { acps } = await result<{ acps: Record<string, { supportWeight: string; supporters: string[]; objectWeight: string; objectors: string[]; abstainWeight: string }> }>(
      base, '/ext/info', 'info.acps',
    );
    const peers = (await result<{ peers: Array<{ nodeID: string; supportedACPs: number[]; objectedACPs: number[] }> }>(base, '/ext/info', 'info.peers')).peers;
    expect(Object.keys(acps).length).toBeGreaterThan(0);
    for (const [n, pref] of Object.entries(acps)) {
      expect(n).toMatch(/^\d+$/);
      expect(pref.abstainWeight).toBe('0');
      expect(pref.supportWeight).toMatch(/^\d+$/);
      expect(pref.objectWeight).toMatch(/^\d+$/);
      expect(pref.supporters.length + pref.objectors.length).toBeGreaterThan(0);
      expect(pref.supporters).toEqual([...pref.supporters].sort());
      const supporters = peers.filter((p) => p.supportedACPs.includes(Number(n))).map((p) => p.nodeID).sort();
      expect(pref.supporters).toEqual(supporters);
      expect(pref.objectors).toEqual(peers.filter((p) => p.objectedACPs.includes(Number(n))).map((p) => p.nodeID).sort());
      expect(BigInt(pref.supportWeight) > 0n).toBe(supporters.length > 0);
    }
  });

  it('reports uptime as 4-decimal strings, per tracked subnet too', async () => {
    const primary = await result<Record<string, string>>(base, '/ext/info', 'info.uptime');
    expect(primary.rewardingStakePercentage).toMatch(/^\d{2,3}\.\d{4}$/);
    expect(primary.weightedAveragePercentage).toMatch(/^\d{2,3}\.\d{4}$/);
    const [tracked] = sim.state().trackedSubnetIds;
    expect(tracked).toBeDefined();
    expect(await result(base, '/ext/info', 'info.uptime', { subnetID: tracked })).toMatchObject({ rewardingStakePercentage: expect.stringMatching(/^\d+\.\d{4}$/) as unknown });
    expect(await rpcError(base, '/ext/info', 'info.uptime', { subnetID: new Rng('other').cb58Id() })).toBe("couldn't get node uptime: subnet is not tracked");
    expect(await rpcError(base, '/ext/info', 'info.uptime', { subnetID: 'nope' })).toBe(UNMARSHAL);
  });
});

describe('admin', () => {
  it('adds HTTP aliases that serve the aliased endpoint, with the router errors', async () => {
    expect(await result(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'myinfo' })).toEqual({});
    expect(await result(base, '/ext/myinfo', 'info.getNetworkName')).toEqual({ networkName: 'mainnet' });
    expect((await result(base, '/ext/info', 'info.getNetworkName')).networkName).toBe('mainnet');
    expect(await rpcError(base, '/ext/admin', 'admin.alias', { endpoint: 'admin', alias: 'myinfo' })).toBe(
      'route is either already aliased or already maps to a handle: /ext/myinfo',
    );
    expect(await rpcError(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'health' })).toBe('failed to create endpoint as /ext/health already exists');
    expect(await rpcError(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'x'.repeat(513) })).toBe('alias length is too long');
    expect(await result(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'y'.repeat(512) })).toEqual({});
    // The seed counts characters, not bytes: 512 two-byte characters pass, 513 do not.
    expect(await result(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'é'.repeat(512) })).toEqual({});
    expect(await rpcError(base, '/ext/admin', 'admin.alias', { endpoint: 'info', alias: 'é'.repeat(513) })).toBe('alias length is too long');

    // Aliasing health brings its sub-endpoints along.
    expect(await result(base, '/ext/admin', 'admin.alias', { endpoint: 'health', alias: 'status' })).toEqual({});
    const ready = await call(`${base}/ext/status/readiness`);
    expect(ready.status).toBe(200);
    expect(ready.headers['x-route']).toBe('GET /ext/health/readiness');
    // An alias of a missing endpoint is reserved but serves nothing.
    expect(await result(base, '/ext/admin', 'admin.alias', { endpoint: 'nothing', alias: 'ghost' })).toEqual({});
    expect((await call(`${base}/ext/ghost`, { method: 'POST' })).status).toBe(404);
    expect(sim.state().httpAliases['/ext/myinfo']).toBe('/ext/info');
    // Another node instance keeps its own routes.
    expect((await call(`${fujiBase}/ext/myinfo`, { method: 'POST' })).status).toBe(404);
  });

  it('aliases chains, and lists chain aliases by cb58 id only', async () => {
    expect(await result(base, '/ext/admin', 'admin.getChainAliases', { chain: PRIMARY })).toEqual({ aliases: ['P', 'platform', PRIMARY] });
    expect(await result(base, '/ext/admin', 'admin.aliasChain', { chain: 'X', alias: 'exchange' })).toEqual({});
    expect(await result(base, '/ext/info', 'info.getBlockchainID', { alias: 'exchange' })).toEqual({ blockchainID: MAINNET_X });
    expect(await result(base, '/ext/info', 'info.isBootstrapped', { chain: 'exchange' })).toEqual({ isBootstrapped: true });
    expect(await result(base, '/ext/admin', 'admin.getChainAliases', { chain: MAINNET_X })).toEqual({ aliases: ['X', 'avm', MAINNET_X, 'exchange'] });
    expect(await rpcError(base, '/ext/admin', 'admin.aliasChain', { chain: 'Q', alias: 'q' })).toBe('there is no ID with alias: Q');
    expect(await rpcError(base, '/ext/admin', 'admin.aliasChain', { chain: 'C', alias: 'exchange' })).toBe('alias already mapped to an ID: exchange');
    expect(await rpcError(base, '/ext/admin', 'admin.aliasChain', { chain: 'C', alias: 'avm' })).toBe('alias already mapped to an ID: avm');
    expect(await rpcError(base, '/ext/admin', 'admin.aliasChain', { chain: 'C', alias: 'z'.repeat(513) })).toBe('alias length is too long');

    expect(await result(base, '/ext/admin', 'admin.getChainAliases', { chain: new Rng('unknown').cb58Id() })).toEqual({ aliases: null });
    expect(await rpcError(base, '/ext/admin', 'admin.getChainAliases', { chain: 'X' })).toBe('input string is smaller than the checksum size');
    expect(await rpcError(base, '/ext/admin', 'admin.getChainAliases', { chain: '0OIl' })).toBe("base58 decoding error: invalid base58 digit ('0')");
    expect(await rpcError(base, '/ext/admin', 'admin.getChainAliases', { chain: `${MAINNET_X.slice(0, -1)}z` })).toBe('invalid input checksum');
    expect(await rpcError(base, '/ext/admin', 'admin.getChainAliases', { chain: validators[0]?.slice('NodeID-'.length) })).toBe(
      'invalid hash length: expected 32 bytes but got 20',
    );
  });

  it('gets and sets logger levels', async () => {
    const subnetChainIds = sim.state().chains.filter((c) => c.subnetId !== PRIMARY).map((c) => c.blockchainId);
    expect(subnetChainIds.length).toBeGreaterThan(0);
    const all = await result<{ loggerLevels: Record<string, { logLevel: string; displayLevel: string }> }>(base, '/ext/admin', 'admin.getLoggerLevel');
    expect(Object.keys(all.loggerLevels).sort()).toEqual(['C', 'P', 'X', 'main', 'vm-factory', ...subnetChainIds].sort());
    expect(all.loggerLevels.main).toEqual({ logLevel: 'INFO', displayLevel: 'INFO' });

    expect(await result(base, '/ext/admin', 'admin.setLoggerLevel', { loggerName: 'C', logLevel: 'debug' })).toEqual({
      loggerLevels: { C: { logLevel: 'DEBUG', displayLevel: 'INFO' } },
    });
    expect(await result(base, '/ext/admin', 'admin.getLoggerLevel', { loggerName: 'C' })).toEqual({ loggerLevels: { C: { logLevel: 'DEBUG', displayLevel: 'INFO' } } });
    const everyone = await result<{ loggerLevels: Record<string, { displayLevel: string }> }>(base, '/ext/admin', 'admin.setLoggerLevel', { displayLevel: 'Warn' });
    expect(Object.keys(everyone.loggerLevels)).toHaveLength(Object.keys(all.loggerLevels).length);
    expect(Object.values(everyone.loggerLevels).every((l) => l.displayLevel === 'WARN')).toBe(true);
    expect(everyone.loggerLevels.C).toEqual({ logLevel: 'DEBUG', displayLevel: 'WARN' });

    expect(await rpcError(base, '/ext/admin', 'admin.setLoggerLevel', { loggerName: 'C' })).toBe('need to specify either displayLevel or logLevel');
    expect(await rpcError(base, '/ext/admin', 'admin.setLoggerLevel', { logLevel: null, displayLevel: null })).toBe('need to specify either displayLevel or logLevel');
    expect(await rpcError(base, '/ext/admin', 'admin.setLoggerLevel', { loggerName: 'http', logLevel: 'INFO' })).toBe('logger with name "http" not found');
    expect(await rpcError(base, '/ext/admin', 'admin.getLoggerLevel', { loggerName: 'http' })).toBe('logger with name "http" not found');
  });

  it('loads plugin VMs deterministically, with failedVMs only when something failed', async () => {
    const first = await result<{ newVMs: Record<string, string[]>; failedVMs?: unknown }>(base, '/ext/admin', 'admin.loadVMs');
    expect(Object.keys(first.newVMs)).toHaveLength(1);
    expect(first).not.toHaveProperty('failedVMs');
    const [loaded] = Object.keys(first.newVMs);
    expect((await result<{ vms: Record<string, string[]> }>(base, '/ext/info', 'info.getVMs')).vms).toHaveProperty(loaded ?? '');
    const second = await result<{ newVMs: Record<string, string[]>; failedVMs?: Record<string, string> }>(base, '/ext/admin', 'admin.loadVMs');
    expect(second.newVMs).toEqual({});
    expect(Object.values(second.failedVMs ?? {})).toHaveLength(1);
    expect(await result(base, '/ext/admin', 'admin.loadVMs')).toEqual({ newVMs: {} });
  });

  it('runs the CPU profiler state machine and answers the other profiles with {}', async () => {
    expect(await rpcError(base, '/ext/admin', 'admin.stopCPUProfiler')).toBe("cpu profiler doesn't exist");
    expect(await result(base, '/ext/admin', 'admin.startCPUProfiler')).toEqual({});
    expect(sim.state().cpuProfilerRunning).toBe(true);
    expect(await rpcError(base, '/ext/admin', 'admin.startCPUProfiler')).toBe('cpu profiler already running');
    expect(await result(base, '/ext/admin', 'admin.stopCPUProfiler')).toEqual({});
    expect(await rpcError(base, '/ext/admin', 'admin.stopCPUProfiler')).toBe("cpu profiler doesn't exist");
    expect(await result(base, '/ext/admin', 'admin.lockProfile')).toEqual({});
    expect(await result(base, '/ext/admin', 'admin.memoryProfile')).toEqual({});
    expect(await result(base, '/ext/admin', 'admin.dbGet', { key: '0x00ff' })).toEqual({ value: '', errorCode: 2 });
    expect(await rpcError(base, '/ext/admin', 'admin.dbGet', { key: '00ff' })).toBe('missing 0x prefix to hex encoding');
  });
});

describe('health', () => {
  type Report = { checks: Record<string, Record<string, unknown>>; healthy: boolean };
  const get = async (path: string): Promise<{ status: number; report: Report; contentType: unknown }> => {
    const answer = await call(`${base}${path}`);
    return { status: answer.status, report: JSON.parse(answer.text) as Report, contentType: answer.headers['content-type'] };
  };
  /** Times (15 s apart, over 8 minutes) at which the node is unhealthy and healthy. */
  const scan = async (): Promise<{ sick: number[]; well: number[] }> => {
    const start = clock;
    const sick: number[] = [];
    const well: number[] = [];
    for (let t = start; t < start + 8 * 60_000; t += 15_000) {
      clock = t;
      ((await get('/ext/health')).status === 503 ? sick : well).push(t);
    }
    clock = start;
    return { sick, well };
  };

  it('serves liveness with no checks and readiness with the bootstrapped check', async () => {
    expect(await result(base, '/ext/health', 'health.liveness')).toEqual({ checks: {}, healthy: true });
    const live = await get('/ext/health/liveness');
    expect(live).toMatchObject({ status: 200, report: { checks: {}, healthy: true }, contentType: 'application/json' });
    const ready = await result<Report>(base, '/ext/health', 'health.readiness');
    expect(Object.keys(ready.checks)).toEqual(['bootstrapped']);
    expect(ready.checks.bootstrapped).toMatchObject({ message: [], duration: expect.any(Number) as unknown });
    expect((await get('/ext/health/readiness')).status).toBe(200);
    // A POST to a sub-path still gets the GET behaviour.
    expect((await call(`${base}/ext/health/readiness`, { method: 'POST' })).status).toBe(200);
    expect((await call(`${base}/ext/health`, { method: 'HEAD' })).status).toBe(405);
  });

  it('reports application checks and one check per chain, with the node message shapes', async () => {
    const report = await result<Report>(base, '/ext/health', 'health.health');
    const names = Object.keys(report.checks);
    const state = sim.state();
    expect(names).toEqual(expect.arrayContaining(['network', 'router', 'database', 'diskspace', 'bls', 'bootstrapped', 'P', 'X', 'C']));
    for (const chain of state.chains) expect(names).toContain(chain.primaryAlias);
    expect(names).toEqual([...names].sort());

    const peers = await result<{ numPeers: string }>(base, '/ext/info', 'info.peers');
    expect(report.checks.network?.message).toMatchObject({
      connectedPeers: Number(peers.numPeers),
      sendFailRate: expect.any(Number) as unknown,
      timeSinceLastMsgReceived: expect.stringMatching(/^[\d.]+(ns|µs|ms|s)$/) as unknown,
      timeSinceLastMsgSent: expect.any(String) as unknown,
    });
    expect(report.checks.router?.message).toMatchObject({ longestRunningRequest: expect.any(String) as unknown, outstandingRequests: expect.any(Number) as unknown });
    expect(report.checks.diskspace?.message).toMatchObject({ availableDiskBytes: expect.any(Number) as unknown });
    const c = report.checks.C as { message: { engine: { consensus: Record<string, unknown>; vm: unknown }; networking: { percentConnected: number } }; timestamp: string; duration: number };
    expect(c.message.engine.consensus).toMatchObject({
      lastAcceptedHeight: expect.any(Number) as unknown,
      lastAcceptedID: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{45,52}$/) as unknown,
      longestProcessingBlock: expect.any(String) as unknown,
      processingBlocks: expect.any(Number) as unknown,
    });
    expect(c.message.engine.vm).toBeNull();
    expect(c.message.networking.percentConnected).toBeGreaterThan(0.8);
    expect(c.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
    expect(clock - Date.parse(c.timestamp)).toBeLessThan(30_000);
    expect(Number.isInteger(c.duration)).toBe(true);
    expect((report.checks.P as { message: { engine: { vm: Record<string, number> } } }).message.engine.vm).toHaveProperty('primary-percentConnected');
  });

  it('flaps one subnet chain over time: unfiltered health is sometimes 503 while the primary tag stays healthy', async () => {
    const { sick, well } = await scan();
    expect(sick.length).toBeGreaterThan(0);
    expect(well.length).toBeGreaterThan(sick.length);
    const flapping = sim.state().flappingCheck ?? '';
    const flappingSubnet = sim.state().chains.find((ch) => ch.primaryAlias === flapping)?.subnetId ?? '';

    clock = sick[0] ?? clock;
    const unhealthy = await get('/ext/health');
    expect(unhealthy.status).toBe(503);
    expect(unhealthy.report.healthy).toBe(false);
    expect(unhealthy.contentType).toBe('application/json');
    const failing = Object.entries(unhealthy.report.checks).filter(([, r]) => r.error !== undefined);
    expect(failing.map(([n]) => n)).toEqual([flapping]);
    expect(failing[0]?.[1]).toMatchObject({
      error: expect.stringContaining('not connected to enough stake') as unknown,
      contiguousFailures: expect.any(Number) as unknown,
      timeOfFirstFailure: expect.any(String) as unknown,
    });
    expect(sim.healthyAt(clock)).toBe(false);
    // JSON-RPC always answers with a result, healthy or not.
    expect(await result(base, '/ext/health', 'health.health')).toMatchObject({ healthy: false });

    const primary = await get(`/ext/health?tag=${PRIMARY}`);
    expect(primary.status).toBe(200);
    expect(Object.keys(primary.report.checks).sort()).toEqual(['C', 'P', 'X', 'bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router']);
    expect((await result<Report>(base, '/ext/health', 'health.health', { tags: [PRIMARY] })).healthy).toBe(true);

    const bySubnet = await get(`/ext/health/health?tag=${flappingSubnet}`);
    expect(bySubnet.status).toBe(503);
    expect(Object.keys(bySubnet.report.checks)).toContain(flapping);
    expect(Object.keys(bySubnet.report.checks)).not.toContain('C');
    const both = await get(`/ext/health?tag=${flappingSubnet}&tag=${PRIMARY}`);
    expect(Object.keys(both.report.checks)).toEqual(expect.arrayContaining(['C', flapping]));

    const appOnly = ['bls', 'bootstrapped', 'database', 'diskspace', 'futureupgrade', 'network', 'router'];
    expect(Object.keys((await get('/ext/health?tag=')).report.checks).sort()).toEqual(appOnly);
    expect(Object.keys((await get('/ext/health?tag=unknown')).report.checks).sort()).toEqual(appOnly);
    expect(Object.keys((await get('/ext/health?tag=all')).report.checks)).toContain(flapping);

    clock = well[0] ?? clock;
    expect(await get('/ext/health')).toMatchObject({ status: 200, report: { healthy: true } });
  });

  it('keeps health identical for the same clock reading', async () => {
    const a = await result(base, '/ext/health', 'health.health');
    const b = await result(base, '/ext/health', 'health.health');
    expect(b).toEqual(a);
    clock += 30_000;
    const c = await result<Report>(base, '/ext/health', 'health.health');
    expect(c.checks.C?.timestamp).not.toBe((a as Report).checks.C?.timestamp);
  });
});

describe('formatting helpers', () => {
  it('formats times as RFC3339Nano and durations as Go does', () => {
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02T03:04:05Z');
    expect(rfc3339Nano(Date.UTC(2026, 0, 2, 3, 4, 5, 120), 4500)).toBe('2026-01-02T03:04:05.1200045Z');
    expect(goDuration(0)).toBe('0s');
    expect(goDuration(850)).toBe('850ns');
    expect(goDuration(1_500)).toBe('1.5µs');
    expect(goDuration(4_100_000)).toBe('4.1ms');
    expect(goDuration(2_000_000_000)).toBe('2s');
    expect(goDuration(62_500_000_000)).toBe('1m2.5s');
    expect(goDuration(3_723_000_000_000)).toBe('1h2m3s');
  });
});

describe('through startDevnet', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ validators: 200 });
  });
  afterAll(async () => {
    await devnet.close();
  });

  it('serves the mainnet node at /ext and the fuji node under /nodes/fuji, with the dataset validators as peers', async () => {
    for (const network of ['mainnet', 'fuji'] as const) {
      const url = devnet.nodeUrls[network] ?? '';
      const active = devnet.dataset.nodeView.activeValidatorNodeIds(network);
      const { nodeID } = await result<{ nodeID: string }>(url, '/ext/info', 'info.getNodeID');
      expect(active).toContain(nodeID);
      const reply = await result<{ numPeers: string; peers: Array<{ nodeID: string }> }>(url, '/ext/info', 'info.peers');
      const ids = reply.peers.map((p) => p.nodeID);
      expect(Number(reply.numPeers)).toBe(ids.length);
      for (const id of ids) expect(active).toContain(id);
      expect(ids.length).toBeGreaterThanOrEqual(Math.floor(active.length * 0.9));
      expect(await result(url, '/ext/info', 'info.getNetworkName')).toEqual({ networkName: network });
    }
    const stats = devnet.stats();
    expect(stats.byRoute['POST info.peers']).toBe(2);
  });

  it('knows the dataset chains and subnets', async () => {
    const url = devnet.nodeUrls.mainnet ?? '';
    const chains = devnet.dataset.nodeView.blockchains('mainnet');
    const x = chains.find((c) => c.aliases.includes('X'));
    expect(await result(url, '/ext/info', 'info.getBlockchainID', { alias: 'X' })).toEqual({ blockchainID: x?.blockchainId });
    const report = await result<{ checks: Record<string, unknown> }>(url, '/ext/health', 'health.health');
    const subnetChecks = Object.keys(report.checks).filter((n) => chains.some((c) => c.blockchainId === n));
    expect(subnetChecks.length).toBeGreaterThan(0);
    const known = new Set(devnet.dataset.nodeView.subnetIds('mainnet'));
    for (const name of subnetChecks) expect(known.has(chains.find((c) => c.blockchainId === name)?.subnetId ?? '')).toBe(true);
  });
});
