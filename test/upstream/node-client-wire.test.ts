import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { createNodeClient, parseDataApiUrl, parseNodeUrls } from '../../src/upstream/node-client.ts';
import { configFromEnv } from '../../src/server/config.ts';
import { startCaptureServer, type CapturedRequest, type CaptureServer } from './capture-server.ts';

// What the node client puts on the wire and how it reads what comes back,
// checked against a server that records requests.

let server: CaptureServer;
const http = createHttpUpstream({ retryBaseDelayMs: 1 });

/** Echoes the request id with the given result, like a well-behaved node. */
const rpcResult = (result: unknown) => (req: CapturedRequest) => ({
  body: { jsonrpc: '2.0', id: (JSON.parse(req.body) as { id: unknown }).id, result },
});

beforeAll(async () => {
  server = await startCaptureServer();
});
afterAll(async () => {
  await http.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.fallback = rpcResult({});
});

describe('JSON-RPC envelope', () => {
  it('posts one request object with an incrementing non-null integer id to /ext/<api>', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.fallback = rpcResult({ networkName: 'mainnet' });
    await node.call('info.getNetworkName');
    server.fallback = rpcResult({ loggerLevels: {} });
    await node.call('admin.getLoggerLevel', { loggerName: 'main' });
    server.fallback = rpcResult({ checks: {}, healthy: true });
    await node.call('health.liveness');
    const [first, second, third] = server.requests.map((r) => ({ ...r, json: JSON.parse(r.body) as Record<string, unknown> }));
    expect(first).toMatchObject({ method: 'POST', url: '/ext/info', json: { jsonrpc: '2.0', id: 1, method: 'info.getNetworkName', params: {} } });
    expect(first?.headers['content-type']).toBe('application/json');
    expect(Array.isArray(first?.json)).toBe(false);
    expect(second).toMatchObject({ url: '/ext/admin', json: { id: 2, method: 'admin.getLoggerLevel', params: { loggerName: 'main' } } });
    expect(third).toMatchObject({ url: '/ext/health', json: { id: 3, method: 'health.liveness' } });
  });

  it('keeps a path prefix of the node URL and sends URL credentials as basic auth, never showing them', async () => {
    const node = createNodeClient({ name: 'fuji', url: `${server.url.replace('//', '//user:s3cret@')}/nodes/fuji/`, http });
    expect(node.url).toBe(`${server.url}/nodes/fuji`);
    await node.call('info.getNodeIP');
    expect(server.requests[0]?.url).toBe('/nodes/fuji/ext/info');
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('user:s3cret').toString('base64')}`);
  });

  it('maps a JSON-RPC error object (HTTP 200) to kind rpc', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.fallback = (req) => ({
      body: { jsonrpc: '2.0', id: (JSON.parse(req.body) as { id: number }).id, error: { code: -32000, message: 'there is no ID with alias: Q', data: null } },
    });
    const error = await node.call('info.getBlockchainID', { alias: 'Q' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'rpc', upstream: 'node:a', operation: 'info.getBlockchainID', status: 200, attempts: 1,
      rpcError: { code: -32000, message: 'there is no ID with alias: Q' },
    });
    expect(server.requests).toHaveLength(1);
  });

  it('reports an empty body, a mismatched id and a non-object as protocol errors', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer({ raw: '' }, { body: { jsonrpc: '2.0', id: 999, result: {} } }, { body: [1] });
    await expect(node.call('info.getNodeID')).rejects.toMatchObject({ kind: 'protocol' });
    await expect(node.call('info.getNodeID')).rejects.toMatchObject({ kind: 'protocol' });
    await expect(node.call('info.getNodeID')).rejects.toMatchObject({ kind: 'protocol' });
  });

  it('maps a 404 (API disabled) to kind http status 404', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer({ status: 404, raw: '404 page not found\n' });
    const error = await node.call('admin.getChainAliases', { chain: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 404, operation: 'admin.getChainAliases' });
    expect((error as Error).message).toContain('404 page not found');
  });

  it('retries read-only methods only', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer({ status: 503, raw: 'busy' });
    await expect(node.call('info.getNodeVersion')).resolves.toBeDefined();
    expect(server.requests).toHaveLength(2);
    server.requests.length = 0;
    server.answer({ status: 503, raw: 'busy' });
    await expect(node.call('admin.memoryProfile')).rejects.toMatchObject({ kind: 'http', status: 503, attempts: 1 });
    expect(server.requests).toHaveLength(1);
  });

  it('turns the stringly numbers into numbers and keeps uint64 values as strings', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer(
      { body: { jsonrpc: '2.0', id: 1, result: { networkID: '5' } } },
      { body: { jsonrpc: '2.0', id: 2, result: { rewardingStakePercentage: '99.8734', weightedAveragePercentage: '98.0000' } } },
      { body: { jsonrpc: '2.0', id: 3, result: { numPeers: '1', peers: [{ nodeID: 'NodeID-x', observedUptime: '97' }] } } },
      { body: { jsonrpc: '2.0', id: 4, result: { txFee: '1000000' } } },
    );
    expect(await node.call('info.getNetworkID')).toEqual({ networkID: 5 });
    expect(await node.call('info.uptime')).toEqual({ rewardingStakePercentage: 99.8734, weightedAveragePercentage: 98 });
    const peers = await node.call('info.peers');
    expect(peers.numPeers).toBe(1);
    expect(peers.peers[0]?.observedUptime).toBe(97);
    expect(await node.call('info.getTxFee')).toMatchObject({ txFee: '1000000' });
  });
});

describe('health GET', () => {
  it('sends repeated tag parameters and treats 503 with a report as an answer', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    const report = { checks: { P: { timestamp: 't', duration: 1, error: 'not yet run' } }, healthy: false };
    server.answer({ status: 503, body: report });
    await expect(node.healthGet('readiness', ['tag-a', 'tag b'])).resolves.toEqual({ status: 503, report });
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/ext/health/readiness?tag=tag-a&tag=tag+b' });
    expect(server.requests).toHaveLength(1);
  });

  it('uses /ext/health for the health path, and retries a 503 that carries no report', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer({ status: 503, body: { message: 'Injected fault', statusCode: 503, error: 'Service Unavailable' } }, { body: { checks: {}, healthy: true } });
    await expect(node.healthGet('health')).resolves.toEqual({ status: 200, report: { checks: {}, healthy: true } });
    expect(server.requests.map((r) => r.url)).toEqual(['/ext/health', '/ext/health']);
  });

  it('treats other statuses as errors', async () => {
    const node = createNodeClient({ name: 'a', url: server.url, http });
    server.answer({ status: 404, raw: '404 page not found' });
    await expect(node.healthGet('liveness')).rejects.toMatchObject({ kind: 'http', status: 404, operation: 'GET /ext/health/liveness' });
  });
});

describe('parseNodeUrls', () => {
  it('reads name=url pairs and names a bare URL default', () => {
    expect(parseNodeUrls('mainnet=http://127.0.0.1:9650, fuji=http://127.0.0.1:9650/nodes/fuji/')).toEqual([
      { name: 'mainnet', url: 'http://127.0.0.1:9650' },
      { name: 'fuji', url: 'http://127.0.0.1:9650/nodes/fuji' },
    ]);
    expect(parseNodeUrls('http://10.0.0.1:9650')).toEqual([{ name: 'default', url: 'http://10.0.0.1:9650' }]);
    expect(parseNodeUrls('')).toEqual([]);
    expect(parseNodeUrls(' , ')).toEqual([]);
  });

  it('rejects duplicate names, invalid URLs and other schemes with a clear message', () => {
    expect(() => parseNodeUrls('a=http://x:1,a=http://y:2')).toThrow(/node name "a" is used twice/);
    expect(() => parseNodeUrls('http://x:1,http://y:2')).toThrow(/"default" is used twice/);
    expect(() => parseNodeUrls('a=not a url')).toThrow(/NODE_URLS entry 1 \(a\): "not a url" is not a valid URL/);
    expect(() => parseNodeUrls('a=ftp://x')).toThrow(/must use http or https/);
    expect(() => parseNodeUrls('bad name=http://x')).toThrow(/node name "bad name"/);
  });

  it('reads DATA_API_URL as a base URL: a bad one names the variable, a copied /v1 is dropped', () => {
    expect(() => parseDataApiUrl('127.0.0.1:4899')).toThrow(/^DATA_API_URL: "127.0.0.1:4899" is not a valid URL \(expected e.g. http/);
    expect(() => parseDataApiUrl('localhost:4899')).toThrow(/^DATA_API_URL: .* must use http or https/);
    expect(() => configFromEnv({ DATA_API_URL: '127.0.0.1:4899' })).toThrow(/^DATA_API_URL: /);
    expect(parseDataApiUrl('http://127.0.0.1:4899/v1')).toBe('http://127.0.0.1:4899');
    expect(parseDataApiUrl(' https://glacier-api.avax.network/ ')).toBe('https://glacier-api.avax.network');
    expect(parseDataApiUrl('https://proxy.example/glacier/v1/')).toBe('https://proxy.example/glacier');
  });

  it('does not echo credentials in its errors', () => {
    expect(() => parseNodeUrls('a=ftp://user:pw@x')).toThrow(/\/\/\*\*\*@x/);
  });
});
