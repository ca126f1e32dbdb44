import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { strictShapes } from '../../src/shapes/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// The Data API's health checks and the calling key's usage reports through GraphQL, judged
// by the requests the devnet saw: the reports count exactly the requests made with the key,
// a caller without a key of their own (and not an admin) is refused before any call.

const TOKEN = 'admin-secret';
const ADMIN = { authorization: `Bearer ${TOKEN}` };
const ALICE = { 'x-service-api-key': 'alice-key' };
const BOB = { 'x-service-api-key': 'bob-key' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;

let stack: TestStack;
const routes = () => stack.devnet.stats().byRoute;
const code = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['code'];

beforeAll(async () => {
  stack = await startStack({ gateway: { adminToken: TOKEN } });
});
afterAll(async () => {
  await stack.close();
});
beforeEach(() => stack.devnet.resetStats());

async function ok(query: string, headers?: Record<string, string>, variables?: Record<string, unknown>): Promise<Data> {
  const result = await stack.query<Data>(query, variables, headers);
  expect(result.errors).toBeUndefined();
  return result.data as Data;
}

const HEALTH = '{ dataApiHealth { status statusRaw healthy indicators { name status healthy } } dataApiLiveness { status healthy } }';

describe('health and live checks', () => {
  it('reads each check once per request, however often it is selected', async () => {
    const data = await ok(`{ a: dataApiHealth { healthy } ${HEALTH.slice(1)}`);
    expect(data.dataApiHealth).toEqual({ status: 'OK', statusRaw: 'ok', healthy: true, indicators: [{ name: 'database', status: 'up', healthy: true }] });
    expect(data.a).toEqual({ healthy: true });
    expect(data.dataApiLiveness).toEqual({ status: 'OK', healthy: true });
    expect(routes()).toEqual({ 'GET /v1/health-check': 1, 'GET /v1/live-check': 1 });
  });
});

const METRICS = `{ apiUsage { metrics(groupBy: REQUEST_PATH, timeInterval: DAILY) { scope aggregateDuration buckets { timestamp values { groupedBy groupValue totalRequests successRatePercent invalidRequests apiCreditsUsed } } } } }`;

/** Requests per path of every bucket of a report. */
function perPath(report: Data): Record<string, number> {
  const out: Record<string, number> = {};
  for (const bucket of report.buckets) for (const value of bucket.values) out[value.groupValue] = (out[value.groupValue] ?? 0) + value.totalRequests;
  return out;
}

describe('usage of the calling key', () => {
  it('refuses a caller without a key of their own before any call; admins read with the gateway key', async () => {
    for (const headers of [undefined, { authorization: 'Bearer wrong' }]) {
      const result = await stack.query(METRICS, {}, headers);
      expect(code(result)).toBe('UNAUTHENTICATED');
      expect(result.data).toEqual({ apiUsage: null });
    }
    expect(stack.upstreamRequests()).toBe(0);
    // The gateway's key made the admin's health read: its report counts it.
    await ok('{ dataApiHealth { healthy } }', ADMIN);
    const admin = await ok(METRICS, ADMIN);
    expect(perPath(admin.apiUsage.metrics)['/v1/health-check']).toBeGreaterThanOrEqual(1);
  });

  it('counts exactly the requests the devnet saw with the key, and none of another key', async () => {
    const bobBefore = perPath((await ok(METRICS, BOB)).apiUsage.metrics);
    for (let i = 0; i < 3; i += 1) await ok('{ dataApiHealth { healthy } }', ALICE);
    await ok('{ dataApiLiveness { healthy } }', ALICE);
    stack.devnet.resetStats();
    const report = (await ok(METRICS, ALICE)).apiUsage.metrics;
    expect(routes()).toEqual({ 'GET /v1/apiUsageMetrics': 1 });
    expect(report.scope).toBe('devnet-org');
    expect(perPath(report)).toEqual({ '/v1/health-check': 3, '/v1/live-check': 1 });
    for (const value of report.buckets.flatMap((b: Data) => b.values)) {
      expect(value).toMatchObject({ groupedBy: 'requestPath', successRatePercent: 100, invalidRequests: 0, apiCreditsUsed: value.totalRequests });
    }
    // Bob's report saw none of Alice's requests, only his own earlier report.
    const bob = perPath((await ok(METRICS, BOB)).apiUsage.metrics);
    expect(bob).toEqual({ ...bobBefore, '/v1/apiUsageMetrics': (bobBefore['/v1/apiUsageMetrics'] ?? 0) + 1 });
    // Alice's next report counts her first one too.
    expect(perPath((await ok(METRICS, ALICE)).apiUsage.metrics)['/v1/apiUsageMetrics']).toBe(1);
  });

  it('pages the key\'s logs newest first over pageToken, one call per page', async () => {
    const carol = { 'x-service-api-key': 'carol-key' };
    for (let i = 0; i < 3; i += 1) await ok('{ dataApiHealth { healthy } }', carol);
    await ok('{ dataApiLiveness { healthy } }', carol);
    stack.devnet.resetStats();
    const LOGS = 'query ($after: String) { apiUsage { logs(first: 3, after: $after) { edges { node { logId requestPath responseCode requestType requestTypeRaw apiKeyId eventTimestamp } } pageInfo { hasNextPage endCursor } } } }';
    const first = (await ok(LOGS, carol)).apiUsage.logs;
    expect(first.edges.map((e: Data) => e.node.requestPath)).toEqual(['/v1/live-check', '/v1/health-check', '/v1/health-check']);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await ok(LOGS, carol, { after: first.pageInfo.endCursor })).apiUsage.logs;
    // The first logs call is newer than the cursor: the second page goes on where the first stopped.
    expect(second.edges.map((e: Data) => e.node.requestPath)).toEqual(['/v1/health-check']);
    expect(second.pageInfo.hasNextPage).toBe(false);
    expect(new Set([...first.edges, ...second.edges].map((e: Data) => e.node.logId)).size).toBe(4);
    expect(first.edges[0].node).toMatchObject({ responseCode: 200, requestType: 'DATA', requestTypeRaw: 'data' });
    expect(first.edges[0].node.apiKeyId).not.toContain('carol');
    expect(routes()).toEqual({ 'GET /v1/apiLogs': 2 });
  });

  it('reads the RPC usage reports: the devnet serves no RPC through the Data API, so they are empty', async () => {
    const data = await ok(`{ apiUsage {
      subnetRpcMetrics(chainId: "43114", groupBy: RPC_METHOD, timeInterval: HOURLY) { scope buckets { timestamp } }
      primaryNetworkRpcMetrics(network: FUJI, groupBy: COUNTRY, country: "XX") { scope aggregateDuration buckets { timestamp } } } }`, ALICE);
    expect(data.apiUsage.subnetRpcMetrics).toEqual({ scope: '43114', buckets: [] });
    expect(data.apiUsage.primaryNetworkRpcMetrics).toMatchObject({ scope: 'testnet', buckets: [] });
    expect(routes()).toEqual({ 'GET /v1/subnetRpcUsageMetrics': 1, 'GET /v1/primaryNetworkRpcUsageMetrics': 1 });
  });

  it('checks the spec\'s bounds before any call', async () => {
    for (const query of [
      '{ apiUsage { metrics(startTimestamp: 10, endTimestamp: 5) { scope } } }',
      '{ apiUsage { metrics(startTimestamp: -1) { scope } } }',
      '{ apiUsage { logs(first: 101) { edges { cursor } } } }',
      '{ apiUsage { metrics(responseCode: "2000") { scope } } }',
      '{ apiUsage { primaryNetworkRpcMetrics(network: MAINNET, country: "france") { scope } } }',
      '{ apiUsage { logs(first: 3, requestType: UNKNOWN) { edges { cursor } } } }',
      '{ apiUsage { metrics(requestType: UNKNOWN) { scope } } }',
    ]) {
      expect(code(await stack.query(query, {}, ALICE)), query).toBe('BAD_USER_INPUT');
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('serves answers the strict shapes accept', async () => {
    const { shapes } = strictShapes();
    const get = async (path: string) => (await fetch(`${stack.devnet.url}${path}`, { headers: ALICE })).json();
    for (const [path, shape] of [
      ['/v1/health-check', shapes.DataApiHealth],
      ['/v1/live-check', shapes.DataApiHealth],
      ['/v1/apiUsageMetrics?groupBy=responseCode&timeInterval=minute', shapes.UsageMetricsResponse],
      ['/v1/apiUsageMetrics', shapes.UsageMetricsResponse],
      ['/v1/apiLogs?pageSize=2', shapes.ApiLogsResponse],
      ['/v1/subnetRpcUsageMetrics?chainId=43114', shapes.SubnetRpcUsageMetricsResponse],
      ['/v1/primaryNetworkRpcUsageMetrics?network=mainnet', shapes.PrimaryNetworkRpcUsageMetricsResponse],
    ] as const) {
      const result = v.safeParse(shape as v.GenericSchema, await get(path));
      expect(result.issues?.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`), path).toBeUndefined();
    }
  });
});
