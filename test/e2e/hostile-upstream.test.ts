import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../src/server/config.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { startCaptureServer, type CannedAnswer, type CaptureServer, type CapturedRequest } from '../upstream/capture-server.ts';

// Upstreams (or proxies in front of them) that echo the credentials they received, in every way an
// echo comes back: an error body, plain text, a JSON-RPC error, a field of an answer, encoded or not.
// Nothing the gateway answers, in any body or header, and nothing it logs may carry them. The logger
// here does no redaction of its own: the upstream layer must not keep the echo in the first place.

const SERVER_KEY = 'srvKey+9f8e7d6c/5b4a3210=';
const CALLER_KEY = 'callerKey_0123456789abcdef';
const NODE_USER = 'rpc-user';
const NODE_PASS = 'n0de-pa55word';
const BASIC = Buffer.from(`${NODE_USER}:${NODE_PASS}`).toString('base64');
/** Every form in which a secret could leak. */
const SECRETS = [SERVER_KEY, encodeURIComponent(SERVER_KEY), CALLER_KEY, NODE_PASS, BASIC];

type DataMode = 'json401' | 'text500' | 'field';
type NodeMode = 'rpc' | 'text401';
let dataMode: DataMode = 'json401';
let nodeMode: NodeMode = 'rpc';

let dataApi: CaptureServer;
let node: CaptureServer;
let running: RunningServer;
const lines: string[] = [];

function keyOf(request: CapturedRequest): string {
  const key = request.headers['x-service-api-key'];
  return typeof key === 'string' ? key : '';
}

/** The Data API (or its proxy) repeating the key it was sent. */
function dataAnswer(request: CapturedRequest): CannedAnswer {
  const key = keyOf(request);
  if (dataMode === 'json401') return { status: 401, body: { statusCode: 401, error: `Unauthorized ${key}`, message: `Invalid API key ${key}` } };
  if (dataMode === 'text500') {
    return { status: 500, raw: `proxy error\r\nrejected key=${key} (${encodeURIComponent(key)}) at http://proxy.internal/v1?api_key=${key}`, headers: { 'content-type': 'text/plain' } };
  }
  // A 200 whose chain list is the key: a protocol error whose reason names what was received.
  return { status: 200, body: { chains: key } };
}

/** A node repeating its basic auth: in a JSON-RPC error (HTTP 200), or in a plain-text 401. */
function nodeAnswer(request: CapturedRequest): CannedAnswer {
  const auth = String(request.headers.authorization ?? '');
  const decoded = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8');
  if (nodeMode === 'text401') return { status: 401, raw: `Unauthorized: ${auth} (${decoded})`, headers: { 'content-type': 'text/plain' } };
  const { id } = JSON.parse(request.body || '{}') as { id?: unknown };
  return { body: { jsonrpc: '2.0', id, error: { code: -32000, message: `credentials ${auth} for ${decoded} refused`, data: { auth } } } };
}

beforeAll(async () => {
  dataApi = await startCaptureServer();
  node = await startCaptureServer();
  dataApi.fallback = dataAnswer;
  node.fallback = nodeAnswer;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const nodeUrl = node.url.replace('://', `://${NODE_USER}:${NODE_PASS}@`);
  const config = configFromEnv({
    PORT: '0',
    CACHE: 'off',
    DATA_API_URL: dataApi.url,
    DATA_API_KEY: SERVER_KEY,
    NODE_URLS: `n1=${nodeUrl}`,
    // Every query here fails upstream: an open circuit would stop the calls these tests need.
    BREAKER_FAILURES: '100000',
  });
  running = await startServer(config, pino({ level: 'debug' }, sink));
});

afterAll(async () => {
  await running?.close({ graceMs: 500 });
  await dataApi?.close();
  await node?.close();
});

beforeEach(() => {
  dataApi.requests.length = 0;
  node.requests.length = 0;
});

interface Answer {
  status: number;
  text: string;
  headers: string;
  body: { errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

async function query(text: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(running.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers },
    body: JSON.stringify({ query: text }),
  });
  const body = await response.text();
  return { status: response.status, text: body, headers: JSON.stringify([...response.headers]), body: JSON.parse(body) as Answer['body'] };
}

function expectNoSecret(answer: Answer): void {
  for (const secret of SECRETS) {
    expect(answer.text, `body holds ${secret}`).not.toContain(secret);
    expect(answer.headers, `headers hold ${secret}`).not.toContain(secret);
  }
}

describe('an upstream that echoes the key it received', () => {
  it('a 401 whose error body repeats the server key: the key is redacted from the message and extensions', async () => {
    dataMode = 'json401';
    const answer = await query('{ chains { chainId } }');
    expect(dataApi.requests.map(keyOf)).toContain(SERVER_KEY);
    expectNoSecret(answer);
    const error = answer.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'UPSTREAM_UNAUTHORIZED', upstreamStatus: 401, upstreamError: 'Unauthorized [redacted]' });
    expect(error?.message).toBe(
      `The Data API refused the API key (401 Unauthorized): check DATA_API_KEY (sent in the x-service-api-key header), or the key the request sent in that header. The upstream said: Invalid API key [redacted]`,
    );
    expect(error?.extensions).toMatchObject({ cause: 'unauthorized', variable: 'DATA_API_KEY' });
  });

  it('a 500 in plain text repeating the key raw, URL-encoded and in a URL: the message is the gateway\'s own', async () => {
    dataMode = 'text500';
    const answer = await query('{ chains { chainId } }');
    // Retried (a 5xx on a GET), every attempt echoing.
    expect(dataApi.requests.length).toBeGreaterThan(1);
    expectNoSecret(answer);
    const error = answer.body.errors?.[0];
    expect(error?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', upstreamStatus: 500 });
    expect(error?.message).toBe('The Data API failed on GET /v1/chains (HTTP 500)');
    expect(error?.extensions).toMatchObject({ cause: 'server_error' });
  });

  it('the caller\'s own key, echoed back, is redacted too', async () => {
    dataMode = 'json401';
    const answer = await query('{ chains { chainId } }', { 'x-service-api-key': CALLER_KEY });
    expect(dataApi.requests.map(keyOf)).toContain(CALLER_KEY);
    expectNoSecret(answer);
    expect(answer.body.errors?.[0]?.message).toContain('Invalid API key [redacted]');
  });

  it('a 200 whose content is the key: the protocol error names no value', async () => {
    dataMode = 'field';
    const answer = await query('{ chains { chainId } }');
    expectNoSecret(answer);
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR' });
  });

  it('a node that repeats its basic auth in a JSON-RPC error or a 401: the credentials are redacted', async () => {
    nodeMode = 'rpc';
    const rpc = await query('{ avalancheNode(name: "n1") { networkName } }');
    expect(node.requests.some((request) => request.headers.authorization === `Basic ${BASIC}`)).toBe(true);
    expectNoSecret(rpc);
    expect(rpc.body.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_RPC_ERROR', rpcCode: -32000 });
    expect(rpc.body.errors?.[0]?.message).toBe('Node "n1" failed on info.getNetworkName (JSON-RPC error -32000): credentials Basic [redacted] for [redacted]:[redacted] refused');

    nodeMode = 'text401';
    const http = await query('{ avalancheNode(name: "n1") { networkName } }');
    expectNoSecret(http);
    expect(http.body.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAUTHORIZED', upstreamStatus: 401 });
  });

  it('logs every failure, and no log line holds a secret', () => {
    const log = lines.join('');
    expect(log).toContain('upstream failure');
    expect(log).toContain('[redacted]');
    for (const secret of SECRETS) expect(log, `the log holds ${secret}`).not.toContain(secret);
  });
});

describe('the upstream errors themselves', () => {
  /** The error as any log would show it: message, stack and every property (pino's `err` serializer). */
  const failure = (promise: Promise<unknown>): Promise<string> =>
    promise.then(
      () => 'no error',
      (error: unknown) => JSON.stringify(pino.stdSerializers.err(error as Error)),
    );

  it('keep no echo of what was sent, in the message, the stack or any property', async () => {
    const http = createHttpUpstream({ retries: 0, breaker: false });
    const data = createDataApiClient({ baseUrl: dataApi.url, apiKey: SERVER_KEY, http });
    const rpc = createNodeClient({ name: 'n1', url: node.url.replace('://', `://${NODE_USER}:${NODE_PASS}@`), http });
    const seen: string[] = [];
    for (const mode of ['json401', 'text500', 'field'] as const) {
      dataMode = mode;
      seen.push(await failure(data.listChains({})), await failure(data.listChains({}, { apiKey: CALLER_KEY })));
    }
    for (const mode of ['rpc', 'text401'] as const) {
      nodeMode = mode;
      seen.push(await failure(rpc.call('info.getNetworkName')));
    }
    await http.close();
    expect(seen.every((text) => text.includes('UpstreamError'))).toBe(true);
    // The upstream's words are kept, as a redacted excerpt, where they help (logs of unmapped errors).
    expect(seen.join('\n')).toContain('rejected key=[redacted]');
    for (const secret of SECRETS) expect(seen.join('\n'), secret).not.toContain(secret);
  });
});
