import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { registerTracing, telemetryFromEnv, type Telemetry } from '../../src/server/telemetry.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

const WALK = `query Walk {
  network(name: MAINNET) {
    validators(first: 5, filter: { validationStatus: ACTIVE }) {
      edges { node { nodeId delegators(first: 2) { edges { node { txHash } } } peer { ip } } }
    }
  }
}`;

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let stack: TestStack;

beforeAll(async () => {
  telemetry = await registerTracing({ serviceName: 'chaingraph-test', spanProcessors: [new SimpleSpanProcessor(exporter)] });
  stack = await startStack({ gateway: { tracing: true } });
  await settle(stack);
});
afterAll(async () => {
  await stack?.close();
  await telemetry?.shutdown();
});
afterEach(() => exporter.reset());

/**
 * Lets a new gateway's start-up calls (it asks each node its network id, outside any
 * operation: root spans of their own) finish, then forgets them and the devnet's counters.
 */
async function settle(target: TestStack): Promise<void> {
  await target.query(WALK);
  target.devnet.resetStats();
  exporter.reset();
}

const spans = () => exporter.getFinishedSpans();
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const named = (name: string) => spans().filter((span) => span.name === name);
/** Resolver spans of one field (the walk's validators are ActiveValidator, Validator is their interface). */
const field = (name: string) => spans().filter((span) => span.attributes['graphql.field.name'] === name);
const only = (name: string): ReadableSpan => {
  const found = named(name);
  expect(found, name).toHaveLength(1);
  return found[0]!;
};

describe('useTracing through startStack', () => {
  it('makes one trace: operation -> upstream-backed resolvers -> upstream attempts, with their attributes', async () => {
    const result = await stack.query(WALK);
    expect(result.errors).toBeUndefined();

    const operation = only('query Walk');
    expect(operation.kind).toBe(SpanKind.SERVER);
    expect(parentOf(operation)).toBeUndefined();
    expect(operation.attributes).toMatchObject({
      'graphql.operation.name': 'Walk',
      'graphql.operation.type': 'query',
      'chaingraph.cost.estimated_upstream_calls': (result.extensions?.['cost'] as { estimatedUpstreamCalls: number }).estimatedUpstreamCalls,
      'chaingraph.cost.actual_upstream_calls': stack.upstreamRequests(),
    });
    expect(operation.resource.attributes['service.name']).toBe('chaingraph-test');
    const traceId = operation.spanContext().traceId;
    for (const span of spans()) expect(span.spanContext().traceId, span.name).toBe(traceId);

    // Resolver spans only for the fields that wait on upstream data, all children of the operation.
    const resolvers = spans().filter((span) => span.attributes['graphql.field.name'] !== undefined);
    expect(new Set(resolvers.map((span) => span.attributes['graphql.field.name']))).toEqual(new Set(['validators', 'delegators', 'peer']));
    expect(only('Network.validators').attributes['graphql.field.parent_type']).toBe('Network');
    expect(field('delegators')).toHaveLength(5);
    expect(field('peer')).toHaveLength(5);
    for (const span of [...field('delegators'), ...field('peer')]) expect(span.name).toBe(`ActiveValidator.${span.attributes['graphql.field.name']}`);
    for (const span of resolvers) expect(parentOf(span), span.name).toBe(operation.spanContext().spanId);
    expect(only('Network.validators').attributes['graphql.field.path']).toBe('network.validators');
    expect(field('delegators').map((span) => span.attributes['graphql.field.path']).sort()).toEqual(
      [0, 1, 2, 3, 4].map((i) => `network.validators.edges.${i}.node.delegators`),
    );

    // One CLIENT span per upstream attempt, under the resolver whose loader made the call.
    const upstream = spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(upstream).toHaveLength(stack.upstreamRequests());
    const validatorsCall = only('GET /v1/networks/{network}/validators');
    expect(parentOf(validatorsCall)).toBe(only('Network.validators').spanContext().spanId);
    expect(validatorsCall.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.template': '/v1/networks/{network}/validators',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(stack.devnet.url).port),
      'http.response.status_code': 200,
      'chaingraph.upstream': 'data-api',
      'chaingraph.upstream.attempt': 1,
    });
    const delegatorSpans = new Set(field('delegators').map((span) => span.spanContext().spanId));
    for (const call of named('GET /v1/networks/{network}/delegators')) expect(delegatorSpans.has(parentOf(call)!)).toBe(true);
    const peers = only('POST info.peers');
    expect(new Set(field('peer').map((span) => span.spanContext().spanId)).has(parentOf(peers)!)).toBe(true);
    expect(peers.attributes).toMatchObject({ 'rpc.system': 'jsonrpc', 'rpc.method': 'info.peers', 'http.request.method': 'POST' });
    expect(peers.attributes['url.template']).toBeUndefined();
    // Never a URL: the query string (filters, page tokens, a key in a URL) stays out of every span.
    for (const span of upstream) expect(JSON.stringify(span.attributes)).not.toMatch(/\?|pageSize|validationStatus/);
  });

  it('continues an incoming traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    await stack.query(WALK, undefined, { traceparent: `00-${traceId}-${callerSpan}-01`, tracestate: 'vendor=x' });
    const operation = only('query Walk');
    expect(operation.spanContext().traceId).toBe(traceId);
    expect(parentOf(operation)).toBe(callerSpan);
    expect(operation.spanContext().traceState?.get('vendor')).toBe('x');
    for (const span of spans()) expect(span.spanContext().traceId).toBe(traceId);
  });

  it('records nothing for a caller that says its trace is not sampled, and still answers', async () => {
    const result = await stack.query(WALK, undefined, { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4737-00f067aa0ba902b7-00' });
    expect(result.errors).toBeUndefined();
    expect(spans()).toHaveLength(0);
  });

  it('ignores a malformed traceparent (a new trace starts)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), async (header) => {
        exporter.reset();
        const result = await stack.query('query Small { network(name: MAINNET) { subnets(first: 1) { edges { node { subnetId } } } } }', undefined, { traceparent: header });
        expect(result.errors).toBeUndefined();
        const operation = only('query Small');
        if (!/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/.test(header)) expect(parentOf(operation)).toBeUndefined();
      }),
      { numRuns: 25 },
    );
  });

  it('names an anonymous operation by its type, marks errors by code (never by message) and spans refusals', async () => {
    await stack.query('{ network(name: MAINNET) { validator(nodeId: "NodeID-not-a-node") { nodeId } } }');
    const anonymous = only('query');
    expect(anonymous.attributes['graphql.operation.name']).toBeUndefined();

    exporter.reset();
    const refused = await stack.query('query Bad { network(name: MAINNET) { validators(first: 5000) { edges { node { nodeId } } } } }');
    expect(refused.errors?.[0]?.extensions?.['code']).toBeDefined();
    const bad = only('query Bad');
    expect(bad.status.code).toBe(SpanStatusCode.ERROR);
    expect(bad.attributes['graphql.error.codes']).toEqual([refused.errors?.[0]?.extensions?.['code']]);
    expect(spans().filter((span) => span.kind === SpanKind.CLIENT)).toHaveLength(0);
  });

  it('bounds the resolver spans of one operation and reports how many it left out', async () => {
    const bounded = await startStack({ gateway: { tracing: { maxResolverSpans: 3 } } });
    try {
      await settle(bounded);
      await bounded.query(WALK);
      const operation = only('query Walk');
      const resolvers = spans().filter((span) => span.attributes['graphql.field.name'] !== undefined);
      expect(resolvers).toHaveLength(3);
      expect(operation.attributes['chaingraph.resolver_spans.dropped']).toBe(11 - 3);
      // Calls made outside a resolver span hang under the operation, still in its trace.
      for (const span of spans()) expect(span.spanContext().traceId).toBe(operation.spanContext().traceId);
    } finally {
      await bounded.close();
    }
  });

  it('leaves a gateway without tracing untouched, even beside a traced one sharing the schema', async () => {
    const plain = await startStack();
    try {
      await settle(plain);
      const result = await plain.query(WALK);
      expect(result.errors).toBeUndefined();
      expect(spans().filter((span) => span.kind !== SpanKind.CLIENT)).toHaveLength(0);
    } finally {
      await plain.close();
    }
  });
});

describe('traceparent on the wire', () => {
  let devnet: Devnet;
  let proxy: RecordingProxy;
  let gateway: Gateway;

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 100 });
    proxy = await startRecordingProxy(devnet.url);
    gateway = createGateway(
      { graphiql: false, tracing: true },
      {
        dataApi: createDataApiClient({ baseUrl: proxy.url }),
        nodes: [createNodeClient({ name: 'mainnet', url: proxy.url })],
      },
    );
    // The start-up call (the node's network id) is not part of the operation below.
    await gateway.fetch('http://chaingraph.test/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: WALK }) });
    proxy.received.length = 0;
    exporter.reset();
  });
  afterAll(async () => {
    await gateway?.dispose();
    await proxy?.close();
    await devnet?.close();
  });

  it('sends every upstream attempt its own span as traceparent, in the operation trace', async () => {
    const response = await gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', tracestate: 'vendor=x', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      body: JSON.stringify({ query: WALK }),
    });
    expect(response.status).toBe(200);
    const calls = spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(proxy.received.length).toBeGreaterThan(0);
    expect(proxy.received).toHaveLength(calls.length);
    const bySpan = new Map(calls.map((span) => [span.spanContext().spanId, span]));
    for (const headers of proxy.received) {
      const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(headers.traceparent));
      expect(match, String(headers.traceparent)).not.toBeNull();
      expect(match![1]).toBe('0af7651916cd43dd8448eb211c80319c');
      expect(bySpan.has(match![2]!)).toBe(true);
      expect(headers.tracestate).toBe('vendor=x');
    }
  });
});

describe('telemetryFromEnv', () => {
  it.each([
    [{}, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, 'http://collector:4318/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }, 'http://collector:4318/v1/traces'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom' }, 'http://b:4318/custom'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_SDK_DISABLED: 'true' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_TRACES_EXPORTER: 'none' }, undefined],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, undefined],
  ])('%o -> %s', (env, url) => {
    expect(telemetryFromEnv(env).tracesUrl).toBe(url);
  });

  it('names the service from OTEL_SERVICE_NAME, default chaingraph', () => {
    expect(telemetryFromEnv({}).serviceName).toBe('chaingraph');
    expect(telemetryFromEnv({ OTEL_SERVICE_NAME: 'gw-eu' }).serviceName).toBe('gw-eu');
  });

  it('refuses an endpoint that is not an http(s) URL at startup', () => {
    expect(() => telemetryFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT/);
    expect(() => telemetryFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'file:///tmp/x' })).toThrow(/OTEL_EXPORTER_OTLP_TRACES_ENDPOINT/);
  });
});

interface RecordingProxy {
  url: string;
  /** Headers of every request that reached the devnet through the proxy. */
  received: IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** Forwards to the devnet, recording what arrived (the devnet does not expose request headers). */
async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const received: IncomingHttpHeaders[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    if (!req.url?.startsWith('/__devnet')) received.push(req.headers);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
