import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';

interface Result {
  data?: { network?: { validator: unknown } | null; avalancheNodes?: { name: string; networkName: string }[] } | null;
  errors?: { message: string; path?: (string | number)[]; extensions: Record<string, unknown> }[];
}

/**
 * Upstream failures through GraphQL: each becomes a stable code on the failed
 * field only, and the data from upstreams that answered comes back intact.
 */
describe('upstream failures as coded errors on the failed field', () => {
  let devnet: Devnet;
  let gateway: Gateway;
  let query = '';

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 200 });
    // A short deadline so the timeout case is quick; retries stay on (2).
    const dataApi = createDataApiClient({ baseUrl: devnet.url, apiKey: 'server-secret-key', timeoutMs: 800 });
    const nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => createNodeClient({ name, url }));
    gateway = createGateway({ graphiql: false }, { dataApi, nodes });
    const { nodeId } = devnet.dataset.fixtures().mainnet;
    query = `{ network(name: MAINNET) { validator(nodeId: "${nodeId}") { nodeId } } avalancheNodes { name networkName } }`;
  });
  afterEach(() => devnet.resetChaos());
  afterAll(async () => {
    await gateway.dispose();
    await devnet.close();
  });

  const run = async (q = query): Promise<Result> => {
    const res = await gateway.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: q }) });
    return (await res.json()) as Result;
  };

  const expectFieldError = (result: Result, code: string) => {
    expect(result.errors).toHaveLength(1);
    const [error] = result.errors ?? [];
    expect(error?.extensions['code']).toBe(code);
    expect(error?.path).toEqual(['network', 'validator']);
    expect(error?.extensions['upstream']).toBe('data-api');
    // A lone validator is read directly (getSingleValidatorDetails).
    expect(error?.extensions['operation']).toBe('GET /v1/networks/{network}/validators/{nodeId}');
    // The node answered: its part of the data is intact.
    expect(result.data?.avalancheNodes?.map((n) => n.networkName)).toEqual(['mainnet', 'fuji']);
    // Never the server's key or the upstream's address.
    expect(JSON.stringify(result)).not.toContain('server-secret-key');
    expect(JSON.stringify(result)).not.toContain(devnet.url);
    return error;
  };

  it('UPSTREAM_UNAVAILABLE when the Data API keeps answering 503', async () => {
    devnet.setChaos({ faultRate: 1, routeFilter: 'validators' });
    expectFieldError(await run(), 'UPSTREAM_UNAVAILABLE');
  });

  it('UPSTREAM_RATE_LIMITED with retryAfter when the wait would pass the deadline', async () => {
    devnet.setChaos({ faultRate: 1, faultStatus: 429, retryAfterSeconds: 30, routeFilter: 'validators' });
    const error = expectFieldError(await run(), 'UPSTREAM_RATE_LIMITED');
    expect(error?.extensions['retryAfter']).toBe(30);
  });

  it('UPSTREAM_UNAUTHORIZED for a 401, not retried', async () => {
    devnet.setChaos({ faultRate: 1, faultStatus: 401, routeFilter: 'validators' });
    devnet.resetStats();
    const error = expectFieldError(await run(), 'UPSTREAM_UNAUTHORIZED');
    // The seed's error body: its status text is kept beside the status.
    expect(error?.extensions).toMatchObject({ upstreamStatus: 401, upstreamError: 'Unauthorized' });
    expect(devnet.stats().byRoute['GET /v1/networks/{network}/validators/{nodeId}']).toBe(1);
  });

  it('UPSTREAM_TIMEOUT when no answer comes within the deadline', async () => {
    devnet.setChaos({ latencyMs: 2000, routeFilter: 'validators' });
    expectFieldError(await run(), 'UPSTREAM_TIMEOUT');
  });

  it('recovers from a passing 503 by retrying: no error at all', async () => {
    devnet.setChaos({ failNext: 1, routeFilter: 'validators' });
    const result = await run();
    expect(result.errors).toBeUndefined();
    expect(result.data?.network?.validator).toBeTruthy();
  });

  it('a failed link fails on each parent alone: the walk keeps its validators', async () => {
    devnet.setChaos({ faultRate: 1, routeFilter: 'delegators' });
    const result = (await run(
      '{ network(name: MAINNET) { validators(first: 5, filter: { subnetId: "11111111111111111111111111111111LpoYY" }) { edges { node { nodeId subnet { subnetId } delegators(first: 2) { edges { node { txHash } } } } } } } }',
    )) as unknown as { data: { network: { validators: { edges: { node: { nodeId: string; subnet: unknown; delegators: unknown } }[] } } }; errors: Result['errors'] };
    const nodes = result.data.network.validators.edges.map((e) => e.node);
    expect(nodes).toHaveLength(5);
    expect(nodes.every((n) => n.nodeId && n.subnet && n.delegators === null)).toBe(true);
    expect(result.errors?.every((e) => e.extensions['code'] === 'UPSTREAM_UNAVAILABLE' && e.path?.at(-1) === 'delegators')).toBe(true);
  });
});
