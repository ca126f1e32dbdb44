import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNodeSimulator } from '../../src/devnet/node/index.ts';
import type { DevnetHandler } from '../../src/devnet/http-types.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient, type NodeClientHandle } from '../../src/upstream/node-client.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// Admin mutations and the read-only admin fields through GraphQL: authorization
// before any upstream call, input bounds before any upstream call, and the node's
// own answers (state machine errors, admin API switched off) as coded errors.

const TOKEN = 'admin-secret';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const MAINNET_X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;

let stack: TestStack;
let open: TestStack;
const routes = () => stack.devnet.stats().byRoute;

beforeAll(async () => {
  [stack, open] = await Promise.all([startStack({ gateway: { adminToken: TOKEN } }), startStack()]);
});
afterAll(async () => {
  await Promise.all([stack.close(), open.close()]);
});
beforeEach(() => {
  stack.devnet.resetStats();
  open.devnet.resetStats();
});

async function admin(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const result = await stack.query<Data>(query, variables, AUTH);
  expect(result.errors).toBeUndefined();
  return result.data as Data;
}

const code = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['code'];

const START = 'mutation ($node: String) { adminStartCPUProfiler(input: { node: $node }) { avalancheNode { name } } }';
const STOP = 'mutation ($node: String) { adminStopCPUProfiler(input: { node: $node }) { avalancheNode { name } } }';

describe('authorization', () => {
  it('answers ADMIN_DISABLED when the gateway has no admin token, without calling the node', async () => {
    for (const headers of [undefined, AUTH]) {
      const result = await open.query(START, {}, headers);
      expect(code(result)).toBe('ADMIN_DISABLED');
      expect(result.data).toBeNull();
    }
    expect(open.upstreamRequests()).toBe(0);
  });

  it('answers FORBIDDEN without the token or with a wrong one, without calling the node', async () => {
    const mutations = [
      START,
      STOP,
      'mutation { adminMemoryProfile(input: {}) { avalancheNode { name } } }',
      'mutation { adminLockProfile(input: {}) { avalancheNode { name } } }',
      'mutation { adminLoadVMs(input: {}) { newVMs { vmId } } }',
      'mutation { adminAlias(input: { endpoint: "info", alias: "x" }) { path } }',
      'mutation { adminAliasChain(input: { chain: "X", alias: "x" }) { alias } }',
      'mutation { adminSetLoggerLevel(input: { logLevel: "DEBUG" }) { loggerLevels { name } } }',
    ];
    for (const mutation of mutations) {
      for (const headers of [undefined, { authorization: 'Bearer wrong' }, { authorization: TOKEN }]) {
        const result = await stack.query(mutation, {}, headers);
        expect(code(result)).toBe('FORBIDDEN');
      }
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('names an unknown node with NODE_NOT_CONFIGURED, without calling any node', async () => {
    const result = await stack.query(START, { node: 'nope' }, AUTH);
    expect(code(result)).toBe('NODE_NOT_CONFIGURED');
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('CPU profiler', () => {
  it('follows the node state machine, per node, and surfaces its errors as NODE_RPC_ERROR', async () => {
    const stopIdle = await stack.query(STOP, {}, AUTH);
    expect(stopIdle.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_RPC_ERROR', rpcCode: -32000, upstream: 'node:mainnet' });
    expect(stopIdle.errors?.[0]?.message).toMatch(/cpu profiler doesn't exist/);

    expect((await admin(START)).adminStartCPUProfiler).toEqual({ avalancheNode: { name: 'mainnet' } });
    const again = await stack.query(START, {}, AUTH);
    expect(again.errors?.[0]?.extensions?.['code']).toBe('NODE_RPC_ERROR');
    expect(again.errors?.[0]?.message).toMatch(/cpu profiler already running/);

    // The fuji node has its own profiler.
    expect((await admin(START, { node: 'fuji' })).adminStartCPUProfiler).toEqual({ avalancheNode: { name: 'fuji' } });
    expect((await admin(STOP, { node: 'fuji' })).adminStopCPUProfiler).toEqual({ avalancheNode: { name: 'fuji' } });
    expect((await admin(STOP)).adminStopCPUProfiler).toEqual({ avalancheNode: { name: 'mainnet' } });
    expect(routes()).toMatchObject({ 'POST admin.startCPUProfiler': 3, 'POST admin.stopCPUProfiler': 3 });
  });

  it('writes memory and lock profiles', async () => {
    const data = await admin('mutation { m: adminMemoryProfile(input: {}) { avalancheNode { name } } l: adminLockProfile(input: { node: "fuji" }) { avalancheNode { name } } }');
    expect(data).toEqual({ m: { avalancheNode: { name: 'mainnet' } }, l: { avalancheNode: { name: 'fuji' } } });
    expect(routes()).toMatchObject({ 'POST admin.memoryProfile': 1, 'POST admin.lockProfile': 1 });
  });
});

describe('aliases', () => {
  const ALIAS = 'mutation ($endpoint: String!, $alias: String!) { adminAlias(input: { endpoint: $endpoint, alias: $alias }) { endpoint alias path avalancheNode { name } } }';

  it('aliases an API path: the node then serves it under /ext/<alias>', async () => {
    const data = await admin(ALIAS, { endpoint: 'info', alias: 'myinfo' });
    expect(data.adminAlias).toEqual({ endpoint: 'info', alias: 'myinfo', path: '/ext/myinfo', avalancheNode: { name: 'mainnet' } });
    const response = await fetch(`${stack.devnet.url}/ext/myinfo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.getNetworkName' }),
    });
    expect(await response.json()).toMatchObject({ result: { networkName: 'mainnet' } });
    const twice = await stack.query(ALIAS, { endpoint: 'info', alias: 'myinfo' }, AUTH);
    expect(code(twice)).toBe('NODE_RPC_ERROR');
    expect(twice.errors?.[0]?.message).toMatch(/already aliased/);
  });

  it('checks the 512-character alias limit before any call (512 itself is allowed)', async () => {
    for (const [mutation, variables] of [
      [ALIAS, { endpoint: 'info', alias: 'a'.repeat(513) }],
      ['mutation ($a: String!) { adminAliasChain(input: { chain: "X", alias: $a }) { alias } }', { a: 'b'.repeat(513) }],
      // Characters, as the seed counts them, whatever their bytes.
      [ALIAS, { endpoint: 'info', alias: 'é'.repeat(513) }],
      [ALIAS, { endpoint: 'info', alias: '' }],
    ] as const) {
      const result = await stack.query(mutation, variables, AUTH);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'input.alias' });
    }
    expect(stack.upstreamRequests()).toBe(0);
    const longest = await admin(ALIAS, { endpoint: 'health', alias: 'h'.repeat(512) });
    expect(longest.adminAlias.alias).toHaveLength(512);
    const wide = await admin(ALIAS, { endpoint: 'health', alias: 'é'.repeat(512) });
    expect(wide.adminAlias.alias).toBe('é'.repeat(512));
  });

  it('aliases a chain, which the node then resolves, and lists chain aliases', async () => {
    const data = await admin('mutation { adminAliasChain(input: { chain: "X", alias: "exchange" }) { chain alias avalancheNode { name } } }');
    expect(data.adminAliasChain).toEqual({ chain: 'X', alias: 'exchange', avalancheNode: { name: 'mainnet' } });
    const read = await admin(`{ avalancheNode { blockchainId(alias: "exchange") chainAliases(chain: "${MAINNET_X}") } }`);
    expect(read.avalancheNode.blockchainId).toBe(MAINNET_X);
    expect(read.avalancheNode.chainAliases).toEqual(expect.arrayContaining(['X', 'avm', 'exchange', MAINNET_X]));
    expect(routes()).toMatchObject({ 'POST admin.aliasChain': 1, 'POST admin.getChainAliases': 1 });
  });

  it('answers chainAliases null for an unknown chain id; a malformed one is refused before any call', async () => {
    const unknown = await stack.query<Data>('{ avalancheNode { chainAliases(chain: "11111111111111111111111111111111LpoYY") unknown: chainAliases(chain: "2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm") } }', {}, AUTH);
    expect(unknown.errors).toBeUndefined();
    expect(unknown.data?.avalancheNode.chainAliases).toEqual(expect.arrayContaining(['P', 'platform']));
    expect(unknown.data?.avalancheNode.unknown).toBeNull();
    stack.devnet.resetStats();
    const malformed = await stack.query<Data>('{ avalancheNode { chainAliases(chain: "X") } }', {}, AUTH);
    expect(malformed.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'chain' });
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('logger levels', () => {
  const SET = 'mutation ($input: AdminSetLoggerLevelInput!) { adminSetLoggerLevel(input: $input) { loggerLevels { name logLevel displayLevel } avalancheNode { name } } }';

  it('reads all loggers or one, and null for an unknown logger', async () => {
    const data = await admin('{ avalancheNode(name: "fuji") { all: loggerLevels { name logLevel displayLevel } main: loggerLevels(loggerName: "main") { name logLevel } nope: loggerLevels(loggerName: "nope") { name } } }');
    const names = data.avalancheNode.all.map((l: Data) => l.name);
    expect(names).toEqual(expect.arrayContaining(['C', 'P', 'X', 'main', 'vm-factory']));
    expect(names).toEqual([...names].sort());
    expect(data.avalancheNode.main).toEqual([{ name: 'main', logLevel: 'INFO' }]);
    expect(data.avalancheNode.nope).toBeNull();
  });

  it('sets one level of one logger and reports the result', async () => {
    const data = await admin(SET, { input: { node: 'fuji', loggerName: 'main', logLevel: 'DEBUG' } });
    expect(data.adminSetLoggerLevel).toEqual({ loggerLevels: [{ name: 'main', logLevel: 'DEBUG', displayLevel: 'INFO' }], avalancheNode: { name: 'fuji' } });
    const after = await admin('{ avalancheNode(name: "fuji") { loggerLevels(loggerName: "main") { logLevel displayLevel } } }');
    expect(after.avalancheNode.loggerLevels).toEqual([{ logLevel: 'DEBUG', displayLevel: 'INFO' }]);
    const all = await admin(SET, { input: { node: 'fuji', displayLevel: 'WARN' } });
    expect(all.adminSetLoggerLevel.loggerLevels.length).toBeGreaterThan(3);
    expect(all.adminSetLoggerLevel.loggerLevels.every((l: Data) => l.displayLevel === 'WARN')).toBe(true);
  });

  it('needs logLevel or displayLevel, each one of the node\'s level names (any case, as the node reads them), checked before any call', async () => {
    const refused = [
      {}, { loggerName: 'main' }, { logLevel: 'UNKNOWN' }, { displayLevel: 'UNKNOWN', logLevel: 'INFO' },
      { logLevel: 'inf' }, { displayLevel: 'Debugs' }, { logLevel: '' }, { logLevel: 'INFO ' }, { logLevel: 'VERBOSE' },
    ];
    for (const input of refused) {
      const result = await stack.query(SET, { input }, AUTH);
      expect(code(result), JSON.stringify(input)).toBe('BAD_USER_INPUT');
    }
    const message = (await stack.query(SET, { input: { logLevel: 'inf' } }, AUTH)).errors?.[0]?.message;
    expect(message).toContain('VERBO, DEBUG, TRACE, INFO, WARN, ERROR, FATAL, OFF');
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('takes a level in any case, as the node does', async () => {
    const data = await admin(SET, { input: { node: 'fuji', loggerName: 'main', logLevel: 'trace', displayLevel: 'Warn' } });
    expect(data.adminSetLoggerLevel.loggerLevels).toEqual([{ name: 'main', logLevel: 'TRACE', displayLevel: 'WARN' }]);
  });

  it('surfaces an unknown logger on set as NODE_RPC_ERROR', async () => {
    const result = await stack.query(SET, { input: { loggerName: 'nope', logLevel: 'INFO' } }, AUTH);
    expect(code(result)).toBe('NODE_RPC_ERROR');
    expect(result.errors?.[0]?.message).toMatch(/logger with name "nope" not found/);
  });
});

describe('adminLoadVMs', () => {
  it('reports new and failed VMs', async () => {
    const LOAD = 'mutation { adminLoadVMs(input: { node: "fuji" }) { newVMs { vmId aliases } failedVMs { vmId error } avalancheNode { name } } }';
    const first = (await admin(LOAD)).adminLoadVMs;
    expect(first.newVMs).toHaveLength(1);
    expect(first.failedVMs).toEqual([]);
    const second = (await admin(LOAD)).adminLoadVMs;
    expect(second.newVMs).toEqual([]);
    expect(second.failedVMs).toEqual([{ vmId: expect.any(String), error: expect.stringMatching(/plugin/) }]);
    const vms = await admin('{ avalancheNode(name: "fuji") { vms { vmId } } }');
    expect(vms.avalancheNode.vms.map((v: Data) => v.vmId)).toContain(first.newVMs[0].vmId);
  });
});

describe('a node whose admin API is off', () => {
  let server: Server;
  let gateway: Gateway;
  let node: NodeClientHandle;
  let hits = 0;

  beforeAll(async () => {
    const simulator = createNodeSimulator({ name: 'locked', network: 'mainnet', view: stack.devnet.dataset.nodeView, seed: 7, now: Date.now, adminEnabled: false });
    server = await serve(simulator.handle, () => (hits += 1));
    node = createNodeClient({ name: 'locked', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    gateway = createGateway({ graphiql: false, adminToken: TOKEN }, { dataApi: createDataApiClient({ baseUrl: stack.devnet.url }), nodes: [node] });
  });
  afterAll(async () => {
    await gateway.dispose();
    await node.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers NODE_METHOD_UNAVAILABLE for admin mutations and admin reads, while info still works', async () => {
    const run = async (query: string) => {
      const response = await gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AUTH },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as GraphQLResponse<Data>;
    };
    const mutation = await run('mutation { adminMemoryProfile(input: {}) { avalancheNode { name } } }');
    expect(mutation.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_METHOD_UNAVAILABLE', upstream: 'node:locked', upstreamStatus: 404 });
    const read = await run('{ avalancheNode { networkName loggerLevels { name } } }');
    expect(read.data?.avalancheNode).toEqual({ networkName: 'mainnet', loggerLevels: null });
    expect(code(read)).toBe('NODE_METHOD_UNAVAILABLE');
    expect(hits).toBeGreaterThanOrEqual(3);
  });
});

/** Serves a simulator handler on an ephemeral port, as the devnet server does. */
async function serve(handler: DevnetHandler, onRequest: () => void): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      onRequest();
      const url = new URL(req.url ?? '/', 'http://node');
      void Promise.resolve(
        handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }),
      ).then((answer) => {
        res.statusCode = answer.status;
        res.setHeader('content-type', answer.contentType ?? 'application/json; charset=utf-8');
        for (const [k, v] of Object.entries(answer.headers ?? {})) res.setHeader(k, v);
        res.end(answer.body === undefined ? '' : answer.contentType === undefined ? JSON.stringify(answer.body) : String(answer.body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return server;
}
