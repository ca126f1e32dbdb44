import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { boundedLabel, createMetrics } from '../../src/gateway/metrics/registry.ts';
import { createAdmissionGate } from '../../src/gateway/plugins/use-admission-control.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { withDataApiCache } from '../../src/upstream/cached-clients.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sum of the samples of `name` whose labels include `labels`. */
function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

function has(samples: Sample[], name: string, labels: Record<string, string> = {}): boolean {
  return samples.some((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

async function scrape(gateway: Gateway, headers: Record<string, string> = {}): Promise<{ status: number; text: string; samples: Sample[] }> {
  const response = await gateway.fetch('http://chaingraph.test/metrics', { headers });
  const text = await response.text();
  return { status: response.status, text, samples: response.status === 200 ? parseExposition(text) : [] };
}

const VALIDATORS = 'query Validators { network(name: MAINNET) { validators(first: 2) { edges { node { nodeId } } } } }';
const NODE_VERSION = 'query NodeVersion { avalancheNode(name: "fuji") { version { version } } }';

describe('GET /metrics after GraphQL traffic', () => {
  let stack: TestStack;
  let samples: Sample[];
  let text: string;

  beforeAll(async () => {
    stack = await startStack({ gateway: { requestLimits: { maxBodyBytes: 2048 } } });
    expect((await stack.query(VALIDATORS)).errors).toBeUndefined();
    expect((await stack.query(VALIDATORS)).errors).toBeUndefined();
    expect((await stack.query(NODE_VERSION)).errors).toBeUndefined();
    // Errors: a resolver's coded error (anonymous operation), a validation failure, an upstream failure after retries.
    expect((await stack.query('{ avalancheNode(name: "nope") { name } }')).errors?.[0]?.extensions?.['code']).toBe('NODE_NOT_CONFIGURED');
    expect((await stack.query('query Broken { noSuchField }')).errors?.[0]?.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    stack.devnet.setChaos({ failNext: 3, faultStatus: 503 });
    const failed = await stack.query('query Subnets { network(name: FUJI) { subnets(first: 1) { edges { node { subnetId } } } } }');
    expect(failed.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNAVAILABLE');
    // An edge refusal that never becomes a GraphQL result: 413 from the Content-Length.
    const big = await stack.gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __typename } # ${'x'.repeat(4096)}` }),
    });
    expect(big.status).toBe(413);
    await big.text();
    ({ samples, text } = await scrape(stack.gateway));
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('counts requests and latency by operation name, type and outcome', () => {
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'Validators', operation_type: 'query', outcome: 'success' })).toBe(2);
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'NodeVersion', operation_type: 'query', outcome: 'success' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'anonymous', operation_type: 'query', outcome: 'error' })).toBe(1);
    // Validation failed: the operation is named from the parsed document.
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'Broken', outcome: 'error' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'Subnets', outcome: 'error' })).toBe(1);
    // Refused before parsing: no operation known.
    expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'unknown', operation_type: 'unknown', outcome: 'error' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_request_duration_seconds_count', { operation_name: 'Validators', operation_type: 'query' })).toBe(2);
    expect(has(samples, 'chaingraph_graphql_request_duration_seconds_bucket', { operation_name: 'Validators', le: '+Inf' })).toBe(true);
  });

  it('counts errors by extensions.code, edge refusals included', () => {
    expect(total(samples, 'chaingraph_graphql_errors_total', { code: 'NODE_NOT_CONFIGURED' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_errors_total', { code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_errors_total', { code: 'UPSTREAM_UNAVAILABLE' })).toBe(1);
    expect(total(samples, 'chaingraph_graphql_errors_total', { code: 'PAYLOAD_TOO_LARGE' })).toBe(1);
  });

  it('counts upstream attempts by upstream, route template and status, and retries', () => {
    expect(total(samples, 'chaingraph_upstream_requests_total', { upstream: 'data-api', route: 'GET /v1/networks/{network}/validators', status: '200' })).toBe(2);
    expect(total(samples, 'chaingraph_upstream_requests_total', { upstream: 'node:fuji', route: 'info.getNodeVersion', status: '200' })).toBe(1);
    // The failing call: three attempts answered 503, two of them retries.
    expect(total(samples, 'chaingraph_upstream_requests_total', { upstream: 'data-api', route: 'GET /v1/networks/{network}/subnets', status: '503' })).toBe(3);
    expect(total(samples, 'chaingraph_upstream_retries_total', { upstream: 'data-api', route: 'GET /v1/networks/{network}/subnets' })).toBe(2);
    expect(total(samples, 'chaingraph_upstream_request_duration_seconds_count', { upstream: 'data-api' })).toBe(5);
    // Routes are templates: no URL, host or port ever becomes a label.
    const devnetHost = new URL(stack.devnet.url).host;
    expect(text).not.toContain(devnetHost);
    for (const s of samples.filter((x) => x.labels['route'] !== undefined)) expect(s.labels['route']).not.toMatch(/^https?:|\?/);
  });

  it('reports estimated and actual upstream calls per operation', () => {
    expect(total(samples, 'chaingraph_operation_estimated_upstream_calls_total', { operation_name: 'Validators' })).toBeGreaterThanOrEqual(2);
    expect(total(samples, 'chaingraph_operation_upstream_calls_total', { operation_name: 'Validators' })).toBe(2);
    expect(total(samples, 'chaingraph_operation_upstream_calls_count')).toBeGreaterThanOrEqual(3);
  });

  it('reports admission control and the default process metrics (event-loop lag, heap, GC)', () => {
    expect(total(samples, 'chaingraph_admission_running_operations')).toBe(0);
    expect(total(samples, 'chaingraph_admission_queued_operations')).toBe(0);
    expect(has(samples, 'chaingraph_admission_rejected_total')).toBe(true);
    expect(has(samples, 'chaingraph_nodejs_eventloop_lag_seconds')).toBe(true);
    expect(total(samples, 'chaingraph_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(total(samples, 'chaingraph_process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('# TYPE chaingraph_nodejs_gc_duration_seconds histogram');
  });

  it('is not itself a GraphQL request', async () => {
    const again = await scrape(stack.gateway);
    expect(total(again.samples, 'chaingraph_graphql_requests_total')).toBe(total(samples, 'chaingraph_graphql_requests_total'));
    const post = await stack.gateway.fetch('http://chaingraph.test/metrics', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('/metrics and admission control', () => {
  it('answers while every slot is taken and the queue is full, and counts the refusal', async () => {
    const gate = createAdmissionGate({ maxConcurrent: 1, maxQueued: 0 });
    const stack = await startStack({ gateway: { admission: gate } });
    try {
      const held = await gate.acquire();
      const refused = await stack.gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query Busy { avalancheNodes { name } }' }),
      });
      expect(refused.status).toBe(503);
      await refused.text();
      const { status, samples } = await scrape(stack.gateway);
      expect(status).toBe(200);
      expect(total(samples, 'chaingraph_admission_running_operations')).toBe(1);
      expect(total(samples, 'chaingraph_admission_rejected_total')).toBe(1);
      expect(total(samples, 'chaingraph_graphql_errors_total', { code: 'SERVER_BUSY' })).toBe(1);
      held?.();
    } finally {
      await stack.close();
    }
  });
});

describe('METRICS_TOKEN', () => {
  it('refuses a scrape without the bearer token (401) and serves it with', async () => {
    const stack = await startStack({ gateway: { metrics: { token: 'scrape-secret' } } });
    try {
      expect((await scrape(stack.gateway)).status).toBe(401);
      expect((await scrape(stack.gateway, { authorization: 'Bearer wrong' })).status).toBe(401);
      const ok = await scrape(stack.gateway, { authorization: 'Bearer scrape-secret' });
      expect(ok.status).toBe(200);
      expect(ok.text).toContain('chaingraph_graphql_requests_total');
    } finally {
      await stack.close();
    }
  });

  it('metrics: false serves no endpoint', async () => {
    const stack = await startStack({ gateway: { metrics: false } });
    try {
      expect(stack.gateway.metrics).toBeUndefined();
      expect((await scrape(stack.gateway)).status).toBe(404);
    } finally {
      await stack.close();
    }
  });
});

describe('metrics per gateway', () => {
  it('two gateways in one process keep separate registries', async () => {
    const [a, b] = await Promise.all([startStack(), startStack()]);
    try {
      await a.query('query OnlyOnA { avalancheNodes { name } }');
      const onA = await scrape(a.gateway);
      const onB = await scrape(b.gateway);
      expect(onA.status).toBe(200);
      expect(onB.status).toBe(200);
      expect(total(onA.samples, 'chaingraph_graphql_requests_total', { operation_name: 'OnlyOnA' })).toBe(1);
      expect(has(onB.samples, 'chaingraph_graphql_requests_total', { operation_name: 'OnlyOnA' })).toBe(false);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('response cache metrics', () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50 });
  });
  afterAll(async () => {
    await devnet?.close();
  });

  it('reads the cache counters on each scrape', async () => {
    const cache = createMemoryCache({ maxBytes: 1024 * 1024 });
    const dataApi = createDataApiClient({ baseUrl: devnet.url });
    const gateway = createGateway({ graphiql: false }, { dataApi: withDataApiCache(dataApi, cache), nodes: [], cache });
    try {
      for (let i = 0; i < 3; i++) {
        const response = await gateway.fetch('http://chaingraph.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'query Chains { chains { chainId } }' }),
        });
        expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      }
      const { samples } = await scrape(gateway);
      expect(total(samples, 'chaingraph_response_cache_misses_total')).toBe(1);
      expect(total(samples, 'chaingraph_response_cache_hits_total')).toBe(2);
      expect(total(samples, 'chaingraph_response_cache_sets_total')).toBe(1);
      expect(total(samples, 'chaingraph_response_cache_bytes')).toBeGreaterThan(0);
      expect(total(samples, 'chaingraph_upstream_requests_total', { route: 'GET /v1/chains' })).toBe(1);
    } finally {
      await gateway.dispose();
      await dataApi.close();
      await cache.close();
    }
  });
});

describe('breaker state gauge', () => {
  it('reports each breaker state as 1 for the current state and 0 for the others', async () => {
    const states = [{ upstream: 'data-api', state: 'open' as const, openings: 3 }, { upstream: 'node:fuji', state: 'closed' as const, openings: 0 }];
    const metrics = createMetrics({ defaultMetrics: false }, { breakers: () => states });
    const samples = parseExposition(await metrics.scrape());
    expect(total(samples, 'chaingraph_upstream_breaker_state', { upstream: 'data-api', state: 'open' })).toBe(1);
    expect(total(samples, 'chaingraph_upstream_breaker_state', { upstream: 'data-api', state: 'closed' })).toBe(0);
    expect(total(samples, 'chaingraph_upstream_breaker_state', { upstream: 'node:fuji', state: 'closed' })).toBe(1);
    expect(total(samples, 'chaingraph_upstream_breaker_state', { upstream: 'node:fuji', state: 'half-open' })).toBe(0);
    expect(total(samples, 'chaingraph_upstream_breaker_openings_total', { upstream: 'data-api' })).toBe(3);
    expect(has(samples, 'chaingraph_upstream_breaker_openings_total', { upstream: 'node:fuji' })).toBe(true);
  });
});

describe('label cardinality', () => {
  it('1,000 distinct operation names make at most maxOperationNames label values, the rest count as other', async () => {
    const stack = await startStack({ gateway: { metrics: { maxOperationNames: 50 } } });
    try {
      for (let i = 0; i < 1000; i++) {
        const result = await stack.query(`query Op${i} { avalancheNodes { name } }`);
        expect(result.errors).toBeUndefined();
      }
      const { samples } = await scrape(stack.gateway);
      const names = new Set(samples.filter((s) => s.name === 'chaingraph_graphql_requests_total').map((s) => s.labels['operation_name']));
      expect(names.size).toBe(51);
      expect(names.has('Op0') && names.has('Op49') && !names.has('Op50')).toBe(true);
      expect(total(samples, 'chaingraph_graphql_requests_total', { operation_name: 'other' })).toBe(950);
      const histogramNames = new Set(samples.filter((s) => s.name === 'chaingraph_graphql_request_duration_seconds_bucket').map((s) => s.labels['operation_name']));
      expect(histogramNames.size).toBe(51);
    } finally {
      await stack.close();
    }
  });

  it('boundedLabel keeps at most max grammatical values plus the overflow value, whatever it is fed', () => {
    const grammar = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20 }), fc.array(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/)), { maxLength: 200 }), (max, values) => {
        const label = boundedLabel(max, grammar, 'other');
        const out = values.map(label);
        const kept = new Set(out.filter((v) => v !== 'other'));
        expect(kept.size).toBeLessThanOrEqual(max);
        for (const v of kept) expect(v).toMatch(grammar);
        // Stable: a value once kept keeps its own label; one refused is never kept later.
        values.forEach((value, i) => expect(label(value)).toBe(out[i]));
      }),
    );
  });

  it('error codes outside the code grammar or beyond the bound count as OTHER', async () => {
    const metrics = createMetrics({ defaultMetrics: false, maxErrorCodes: 2 });
    for (const code of ['A_CODE', 'B_CODE', 'C_CODE', 'lower', 'WITH SPACE', 42, undefined]) metrics.countError(code);
    const samples = parseExposition(await metrics.scrape());
    const codes = Object.fromEntries(samples.filter((s) => s.name === 'chaingraph_graphql_errors_total').map((s) => [s.labels['code'], s.value]));
    expect(codes).toEqual({ A_CODE: 1, B_CODE: 1, OTHER: 3, NONE: 2 });
  });
});
