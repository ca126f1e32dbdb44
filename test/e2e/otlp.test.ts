import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { propagation, trace } from '@opentelemetry/api';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { VALIDATOR_WALK } from '../../src/gateway/graphiql-examples.ts';
import { startServer } from '../../src/server/server.ts';
import { startTelemetry, telemetryFromEnv } from '../../src/server/telemetry.ts';

/** The parts of an OTLP/HTTP JSON export this test reads. */
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[] }[] }[];
  }[];
}

const SPAN_KIND_SERVER = 2;
const SPAN_KIND_CLIENT = 3;

/** A local OTLP/HTTP receiver: accepts POST /v1/traces and records what it was sent. */
async function startReceiver(): Promise<{ url: string; exports: OtlpExport[]; contentTypes: string[]; close(): Promise<void> }> {
  const exports: OtlpExport[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers['content-type']));
      exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exports,
    contentTypes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('traces exported over OTLP/HTTP by the real server', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('sends the operation, resolver and upstream spans of a query to OTEL_EXPORTER_OTLP_ENDPOINT, flushed on close', async () => {
    const config = configFromEnv({ PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'chaingraph-e2e' });
    const running = await startServer(config, pino({ level: 'silent' }));
    const traceId = '5b8efff798038103d269b633813fc60c';
    try {
      const res = await fetch(running.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-eee19b7ec3c1b174-01` },
        body: JSON.stringify({ query: VALIDATOR_WALK }),
      });
      const body = (await res.json()) as { errors?: unknown[] };
      expect(body.errors).toBeUndefined();
    } finally {
      // The batch processor's next scheduled export is seconds away: only the flush on close sends it now.
      await running.close();
    }

    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/json']));
    const resources = receiver.exports.flatMap((e) => e.resourceSpans);
    for (const resource of resources) {
      expect(resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue).toBe('chaingraph-e2e');
    }
    const spans = resources.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)).filter((span) => span.traceId === traceId);
    const operation = spans.find((span) => span.name === 'query ValidatorWalk');
    expect(operation?.kind).toBe(SPAN_KIND_SERVER);
    expect(operation?.parentSpanId).toBe('eee19b7ec3c1b174');
    const resolvers = spans.filter((span) => span.parentSpanId === operation?.spanId);
    expect(resolvers.map((span) => span.name)).toContain('Network.validators');
    const resolverIds = new Set(resolvers.map((span) => span.spanId));
    const upstream = spans.filter((span) => span.kind === SPAN_KIND_CLIENT);
    // The walk's 15-17 upstream requests, each under one of the resolvers.
    expect(upstream.length).toBeGreaterThanOrEqual(10);
    for (const span of upstream) expect(resolverIds.has(span.parentSpanId ?? '')).toBe(true);
    expect(upstream.map((span) => span.name)).toContain('GET /v1/networks/{network}/validators');
  });

  it('registers nothing without an endpoint, and a shut-down server leaves nothing registered', async () => {
    // The server above has shut its provider down: the API is back to its no-ops.
    expect(trace.getTracer('check').startSpan('x').isRecording()).toBe(false);
    expect(propagation.fields()).toEqual([]);
    expect(await startTelemetry(telemetryFromEnv({ OTEL_SERVICE_NAME: 'no-endpoint' }))).toBeUndefined();
    const running = await startServer(configFromEnv({ PORT: '0' }), pino({ level: 'silent' }));
    try {
      expect(trace.getTracer('check').startSpan('x').isRecording()).toBe(false);
      expect(propagation.fields()).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
