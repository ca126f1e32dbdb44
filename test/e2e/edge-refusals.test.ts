import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient as createSseClient, NetworkError, type Client as SseClient } from 'graphql-sse';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';
import { meros } from 'meros/browser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { configFromEnv } from '../../src/server/config.ts';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startServer, type RunningServer } from '../../src/server/server.ts';

// One table of refusals, run over every transport and mode the gateway serves: each edge rule
// (request limits, armor limits, cost, response size, persisted documents, rate limit, the edge
// policy's per-client shares) must answer the same code whichever way the operation arrived. Real
// servers (`startServer`), real clients (graphql-sse in both modes, graphql-ws, meros for
// multipart/mixed), one server per distinct configuration. Nothing here depends on time: a held
// operation is held by an upstream far slower than the test, and the rate limit refills too slowly
// to matter; what is checked is which operation is refused, with which code.

/** An operation as every transport sends it. */
interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  extensions?: Record<string, unknown>;
}

interface FormattedError {
  message: string;
  extensions?: Record<string, unknown>;
}

/** One result, or one payload of an incremental response. */
interface Payload {
  data?: unknown;
  errors?: readonly FormattedError[];
  hasNext?: boolean;
  incremental?: readonly { errors?: readonly FormattedError[] }[];
}

/** What came back for one operation. */
interface Outcome {
  /** `extensions.code` of the first error (of the first payload that has one); undefined when the operation passed. */
  code: string | undefined;
  /** The HTTP status, when the answer (or the refusal) was one whole HTTP response. */
  status?: number;
  /** Whether that response's body had a `data` entry. */
  hasData?: boolean;
  /** How the answer came: a result, an HTTP response, a graphql-ws `error` message, a closed socket. */
  via: 'result' | 'http' | 'ws error' | 'ws close' | 'stopped' | 'ended';
}

/** An operation in progress: its outcome (resolved at the first error, the first complete result, or the end) and a way to stop it. */
interface Running {
  outcome: Promise<Outcome>;
  stop(): Promise<void>;
}

/** One client of one transport, named by its address (the client the edge policy and the rate limit count) and sending its own API key. */
interface Channel {
  run(operation: Operation): Running;
  close(): Promise<void>;
}

type TransportName = 'POST' | 'GET' | 'multipart' | 'sse distinct' | 'sse single' | 'graphql-ws';

interface Transport {
  name: TransportName;
  /** Requests to /graphql the client makes before its first operation (each takes a rate-limit token). */
  setupRequests: number;
  /** Whether the operation's `@defer` variant is the one to send. */
  incremental: boolean;
  open(server: RunningServer, key: string): Channel;
}

const API_KEY_HEADER = 'x-service-api-key';

const firstCode = (payload: Payload): string | undefined => {
  const errors = [...(payload.errors ?? []), ...(payload.incremental ?? []).flatMap((part) => part.errors ?? [])];
  const code = errors[0]?.extensions?.['code'];
  return errors.length === 0 ? undefined : typeof code === 'string' ? code : `(no code: ${errors[0]?.message})`;
};

/** The `data:` payloads of a whole server-sent event stream. */
function sseEvents(text: string): Payload[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) => event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join(''))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Payload);
}

/**
 * One HTTP response as GraphQL: a JSON body, a refused (whole) event stream's first event, or the
 * parts of a multipart/mixed response read until the first error or complete result (an open stream
 * is not waited for).
 */
async function fromResponse(response: Response): Promise<Outcome> {
  const type = response.headers.get('content-type') ?? '';
  const status = response.status;
  if (type.startsWith('multipart/mixed')) {
    // meros reads only 2xx responses; a refusal's parts are read the same way.
    const parts = await meros<Payload>(response.ok ? response : new Response(response.body, { headers: response.headers }));
    if (parts instanceof Response) return { code: `(unreadable multipart: ${await parts.text()})`, status, via: 'http' };
    const payloads = (async function* () {
      for await (const part of parts) yield part.json ? part.body : ({ errors: [{ message: `a part that is not JSON: ${String(part.body)}` }] } satisfies Payload);
    })();
    return { ...(await fromResults(payloads)), status, via: 'http' };
  }
  const text = await response.text();
  if (type.startsWith('text/event-stream')) {
    const [first] = sseEvents(text);
    return { code: first ? firstCode(first) : '(an empty event stream)', status, via: 'http' };
  }
  let body: Payload;
  try {
    body = JSON.parse(text) as Payload;
  } catch {
    return { code: `(not JSON: ${text.slice(0, 80)})`, status, via: 'http' };
  }
  return { code: firstCode(body), status, hasData: 'data' in body, via: 'http' };
}

/**
 * fetch for the graphql-sse clients: a refused request's body read at once, since the client aborts
 * the request (and with it its body) when it throws the NetworkError that carries the response.
 */
async function keepingRefusals(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok) return response;
  return new Response(await response.arrayBuffer(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/** Reads results until one has an error, one is complete (no `hasNext`: a query's result, a subscription's first event) or the stream ends. */
async function fromResults(results: AsyncIterator<Payload>): Promise<Outcome> {
  for (;;) {
    const step = await results.next();
    if (step.done) return { code: '(ended without a result)', via: 'ended' };
    const code = firstCode(step.value);
    if (code !== undefined || !step.value.hasNext) return { code, via: 'result' };
  }
}

/** What a client threw: graphql-sse's refused request (its response read), graphql-ws's `error` message or close, or an abort. */
async function fromThrown(error: unknown, stopped: AbortSignal): Promise<Outcome> {
  if (stopped.aborted) return { code: undefined, via: 'stopped' };
  if (error instanceof NetworkError && error.response instanceof Response) return fromResponse(error.response);
  if (Array.isArray(error)) return { code: firstCode({ errors: error as FormattedError[] }), via: 'ws error' };
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'number') return { code: `(closed ${error.code})`, via: 'ws close' };
  throw error;
}

/** An operation through a client's `iterate` (graphql-sse and graphql-ws alike). */
function iterated(iterate: () => AsyncIterableIterator<Payload>): Running {
  const stopped = new AbortController();
  const iterator = iterate();
  const outcome = fromResults(iterator).catch((error: unknown) => fromThrown(error, stopped.signal));
  return {
    outcome,
    async stop() {
      stopped.abort();
      await iterator.return?.();
    },
  };
}

/** An operation over one fetch. */
function fetched(url: string, init: RequestInit): Running {
  const stopped = new AbortController();
  const outcome = fetch(url, { ...init, signal: stopped.signal })
    .then(fromResponse)
    .catch((error: unknown) => (stopped.signal.aborted ? ({ code: undefined, via: 'stopped' } as const) : Promise.reject(error)));
  return {
    outcome,
    async stop() {
      stopped.abort();
      await outcome;
    },
  };
}

/**
 * A client of its own per key: its own address, as the proxy in front says it (`TRUST_PROXY=1`). Its key alone
 * would not do: a key is a client of its own only once the Data API accepted it, and these operations never ask it.
 */
const addresses = new Map<string, string>();
const addressOf = (key: string): string => {
  let address = addresses.get(key);
  if (address === undefined) addresses.set(key, (address = `10.0.${Math.floor(addresses.size / 250)}.${(addresses.size % 250) + 1}`));
  return address;
};
const clientHeaders = (key: string): Record<string, string> => ({ [API_KEY_HEADER]: key, 'x-forwarded-for': addressOf(key) });
const jsonHeaders = (key: string): Record<string, string> => ({ 'content-type': 'application/json', accept: 'application/graphql-response+json', ...clientHeaders(key) });

/** A client of one of the stateful transports, closed with it. */
function clientChannel(client: SseClient<boolean> | WsClient, close: () => Promise<void> | void): Channel {
  return {
    run: (operation) => iterated(() => client.iterate(operation) as AsyncIterableIterator<Payload>),
    close: async () => void (await close()),
  };
}

const TRANSPORTS: readonly Transport[] = [
  {
    name: 'POST',
    setupRequests: 0,
    incremental: false,
    open: (server, key) => ({
      run: (operation) => fetched(server.url, { method: 'POST', headers: jsonHeaders(key), body: JSON.stringify(operation) }),
      close: async () => undefined,
    }),
  },
  {
    name: 'GET',
    setupRequests: 0,
    incremental: false,
    open: (server, key) => ({
      run: (operation) => {
        const params = new URLSearchParams({ query: operation.query });
        if (operation.variables) params.set('variables', JSON.stringify(operation.variables));
        if (operation.extensions) params.set('extensions', JSON.stringify(operation.extensions));
        const { 'content-type': _, ...headers } = jsonHeaders(key);
        return fetched(`${server.url}?${params}`, { headers });
      },
      close: async () => undefined,
    }),
  },
  {
    name: 'multipart',
    setupRequests: 0,
    incremental: true,
    open: (server, key) => ({
      run: (operation) => fetched(server.url, { method: 'POST', headers: { ...jsonHeaders(key), accept: 'multipart/mixed' }, body: JSON.stringify(operation) }),
      close: async () => undefined,
    }),
  },
  {
    name: 'sse distinct',
    setupRequests: 0,
    incremental: false,
    open: (server, key) => {
      const client = createSseClient({ url: server.url, singleConnection: false, retryAttempts: 0, fetchFn: keepingRefusals, headers: clientHeaders(key) });
      return clientChannel(client, () => client.dispose());
    },
  },
  {
    name: 'sse single',
    // The reservation (PUT) and its stream (GET).
    setupRequests: 2,
    incremental: false,
    open: (server, key) => {
      // Not lazy: one reservation and one stream for the channel's whole life, whatever runs on it.
      const client = createSseClient({
        url: server.url,
        singleConnection: true,
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => undefined,
        fetchFn: keepingRefusals,
        headers: clientHeaders(key),
      });
      return clientChannel(client, () => client.dispose());
    },
  },
  {
    name: 'graphql-ws',
    // The upgrade.
    setupRequests: 1,
    incremental: false,
    open: (server, key) => {
      // The client's headers on the upgrade request, so the upgrade and the operations count against one client.
      class KeyedWebSocket extends WebSocket {
        constructor(url: string, protocols?: string | string[]) {
          super(url, protocols, { headers: clientHeaders(key) });
        }
      }
      const client = createWsClient({
        url: server.url.replace(/^http/, 'ws'),
        webSocketImpl: KeyedWebSocket,
        lazy: false,
        retryAttempts: 0,
        onNonLazyError: () => undefined,
        connectionParams: { [API_KEY_HEADER]: key },
      });
      return clientChannel(client, () => client.dispose());
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The table.

/** What must happen before the refused operation, on the same channel (the same client). */
type Prelude =
  /** `burst - setupRequests` operations pass (the client's setup took the rest of the burst), then the case's operation is the one over. */
  | { kind: 'burst'; burst: number; passing: Operation }
  /** An operation whose upstream call (`route`) the devnet holds far longer than the test runs, admitted before the case's operation. */
  | { kind: 'hold operation'; held: Operation; heldIncremental: Operation; route: string }
  /** A live subscription (its first event received) before the case's operation. */
  | { kind: 'hold subscription'; held: Operation };

interface RefusalCase {
  name: string;
  /** Settings beyond `BASE_ENV` (configFromEnv); cases with the same settings share one server. */
  env: Record<string, string>;
  operation: Operation;
  /** The operation with an `@defer` fragment, sent over multipart. Default `operation`. */
  incremental?: Operation;
  /** The refusal's `extensions.code`. */
  code: string;
  /** The HTTP status of the refusal over POST and GET (the gateway's choice within what the GraphQL-over-HTTP spec allows). */
  status?: number;
  prelude?: Prelude;
  /** Transports that cannot express the case, with the reason. */
  skip?: Partial<Record<TransportName, string>>;
}

const BASE_ENV = { PORT: '0', CACHE: 'off', TRUST_PROXY: '1' } as const;
/** The trusted documents of ONLY_PERSISTED, written before any server starts. */
const MANIFEST_DIR = join(tmpdir(), `chaingraph-refusals-${process.pid}`);
const MANIFEST = join(MANIFEST_DIR, 'manifest.json');

/** Limits refused before execution, a cost limit of 2 upstream calls and a response limit of 2000 bytes. */
const TIGHT = { MAX_QUERY_COST: '2', MAX_RESPONSE_BYTES: '2000' };
const PERSISTED_ONLY = { PERSISTED_OPERATIONS: MANIFEST, ONLY_PERSISTED: 'true' };
/** A burst of 3, refilled once in 1000 s: no token comes back while the test runs. */
const RATE = { RATE_LIMIT_RPS: '0.001', RATE_LIMIT_BURST: '3' };
/**
 * Two slots (a share of 1 per client), a short queue wait; two subscriptions (a share of 1 per client),
 * which also allows two graphql-sse reservations: one per single-connection channel of this group.
 */
const BUSY = { MAX_CONCURRENT_OPERATIONS: '2', MAX_QUEUE_WAIT_MS: '50', MAX_SUBSCRIPTIONS: '2' };

const NODES = '{ avalancheNodes { name } }';
/** A Data API call the devnet can hold (`exportOperation` is read fresh every time, and nothing else calls that route). */
const SLOW_FIELD = 'exportOperation(operationId: "3fa85f64-5717-4562-b3fc-2c963f66afa6") { operationId }';
const SLOW_ROUTE = 'GET /v1/operations/{operationId}';
/** Longer than anything the test waits for, shorter than the upstream deadline (15 s), so the hold ends only when the test stops it. */
const HOLD_MS = 12_000;
const deferred = (fields: string) => ({ query: `{ avalancheNodes { name } ... @defer { ${fields} } }` });
/** 31 aliases (armor does not count `__typename`'s). */
const ALIASES = Array.from({ length: 31 }, (_, i) => `a${i}: avalancheNodes { name }`).join(' ');
const nested = (depth: number): unknown => (depth === 0 ? 1 : [nested(depth - 1)]);
const NO_SUBSCRIPTIONS = {
  POST: 'a subscription needs a streaming response (yoga answers 406 to application/json)',
  GET: 'a subscription needs a streaming response (yoga answers 406 to application/json)',
  multipart: 'yoga streams subscriptions over SSE only (multipart/mixed answers 406)',
} as const;

const CASES: readonly RefusalCase[] = [
  {
    name: 'document nested too deep (scan before parse)',
    env: TIGHT,
    operation: { query: `{ avalancheNodes ${'{ name '.repeat(70)}${'}'.repeat(70)} }` },
    code: 'QUERY_TOO_DEEP',
    status: 400,
  },
  {
    name: 'fields nested too deep (armor, 15)',
    env: TIGHT,
    operation: { query: `{ chain(chainId: "43114") { ${'blockchain { evmChain { '.repeat(8)}chainId ${'} } '.repeat(8)}} }` },
    incremental: deferred(`chain(chainId: "43114") { ${'blockchain { evmChain { '.repeat(8)}chainId ${'} } '.repeat(8)}}`),
    code: 'QUERY_TOO_DEEP',
    status: 400,
  },
  {
    name: 'too many aliases (armor, 30)',
    env: TIGHT,
    operation: { query: `{ ${ALIASES} }` },
    incremental: deferred(ALIASES),
    code: 'TOO_MANY_ALIASES',
    status: 400,
  },
  {
    name: 'too many tokens (armor, 5000)',
    env: TIGHT,
    // Values, not fields (so validation's own complexity limit is not what refuses it), about 10 KB:
    // within the GET URL limit (16 KiB), so GET is refused for its tokens, not its length.
    operation: { query: `{ nodes(ids: [${'1 '.repeat(5000)}]) { id } }` },
    code: 'TOO_MANY_TOKENS',
    status: 400,
  },
  {
    name: 'too many definitions (scan, 100)',
    env: TIGHT,
    operation: { query: '{ __typename } '.repeat(101) },
    code: 'DOCUMENT_TOO_LARGE',
    status: 400,
  },
  {
    name: 'variables nested too deep (32)',
    env: TIGHT,
    operation: { query: NODES, variables: { v: nested(40) } },
    code: 'VARIABLES_TOO_LARGE',
    status: 400,
  },
  {
    name: 'extensions hold too many values (10000)',
    env: TIGHT,
    // Depth 1, 10001 values: short enough for a POST body, too long for a URL (GET).
    operation: { query: NODES, extensions: { v: Array.from({ length: 10_001 }, () => 0) } },
    code: 'VARIABLES_TOO_LARGE',
    status: 400,
    skip: { GET: 'the values take 20 KB: the URL limit (16 KiB, URI_TOO_LONG) refuses it first; depth is checked over GET above' },
  },
  {
    name: 'query too costly (MAX_QUERY_COST=2)',
    env: TIGHT,
    operation: { query: `{ a: ${SLOW_FIELD} b: ${SLOW_FIELD} c: ${SLOW_FIELD} }` },
    incremental: deferred(`a: ${SLOW_FIELD} b: ${SLOW_FIELD} c: ${SLOW_FIELD}`),
    code: 'QUERY_TOO_COSTLY',
  },
  {
    name: 'response too large (MAX_RESPONSE_BYTES=2000)',
    env: TIGHT,
    operation: { query: '{ __schema { types { name } } }' },
    incremental: deferred('__schema { types { name } }'),
    code: 'RESPONSE_TOO_LARGE',
  },
  {
    name: 'query text with ONLY_PERSISTED',
    env: PERSISTED_ONLY,
    operation: { query: NODES },
    code: 'PERSISTED_QUERY_ONLY',
    status: 400,
  },
  {
    name: 'rate limited (burst 3, no refill)',
    env: RATE,
    operation: { query: NODES },
    code: 'RATE_LIMITED',
    status: 429,
    prelude: { kind: 'burst', burst: 3, passing: { query: NODES } },
  },
  {
    name: "operation beyond the client's share (MAX_CONCURRENT_OPERATIONS=2: 1 each)",
    env: BUSY,
    operation: { query: NODES },
    code: 'SERVER_BUSY',
    status: 503,
    prelude: { kind: 'hold operation', held: { query: `{ ${SLOW_FIELD} }` }, heldIncremental: deferred(SLOW_FIELD), route: SLOW_ROUTE },
  },
  {
    name: "subscription beyond the client's share (MAX_SUBSCRIPTIONS=2: 1 each)",
    env: BUSY,
    operation: { query: 'subscription { nodeHealth(node: "fuji") { healthy } }' },
    code: 'SERVER_BUSY',
    prelude: { kind: 'hold subscription', held: { query: 'subscription { nodeHealth(node: "mainnet") { healthy } }' } },
    skip: NO_SUBSCRIPTIONS,
  },
];

// ---------------------------------------------------------------------------------------------

/** The cases by their settings: one server for each. */
const groups = new Map<string, RefusalCase[]>();
for (const refusal of CASES) groups.set(JSON.stringify(refusal.env), [...(groups.get(JSON.stringify(refusal.env)) ?? []), refusal]);
const checks = CASES.reduce((count, refusal) => count + TRANSPORTS.filter((transport) => !refusal.skip?.[transport.name]).length, 0);
const savedHealthInterval = nodeHealthPolling.intervalMs;
const openChannels = new Set<Channel>();

beforeAll(() => {
  nodeHealthPolling.intervalMs = 100;
  mkdirSync(MANIFEST_DIR, { recursive: true });
  writeFileSync(MANIFEST, JSON.stringify({ 'avalanche-nodes-1': NODES }));
});

afterAll(async () => {
  await Promise.all([...openChannels].map((channel) => channel.close()));
  nodeHealthPolling.intervalMs = savedHealthInterval;
  rmSync(MANIFEST_DIR, { recursive: true, force: true });
  console.log(`refusal table: ${CASES.length} cases x ${TRANSPORTS.length} transports = ${checks} checks`);
});

const admission = async (server: RunningServer): Promise<{ running: number; subscriptions: number }> =>
  ((await (await fetch(server.url.replace('/graphql', '/ready'))).json()) as { admission: { running: number; subscriptions: number } }).admission;

describe.each([...groups.values()].map((cases) => [Object.entries(cases[0]?.env ?? {}).map(([k, v]) => `${k}=${v}`).join(' '), cases] as const))('refusals with %s', (_settings, cases) => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(configFromEnv({ ...BASE_ENV, ...cases[0]?.env }), pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await server?.close({ graceMs: 500 });
  });

  const table = cases.flatMap((refusal) => TRANSPORTS.map((transport) => ({ refusal, transport, skipped: refusal.skip?.[transport.name] })));

  for (const { refusal, transport, skipped } of table) {
    const title = `${refusal.name} over ${transport.name}`;
    if (skipped) {
      it.skip(`${title} (cannot be expressed: ${skipped})`, () => undefined);
      continue;
    }
    it(`${title}: ${refusal.code}`, async () => {
      // One client per check: its own address (and key), so shares and rate buckets never mix between checks.
      const key = `refusals-${CASES.indexOf(refusal)}-${transport.name.replace(/\W/g, '-')}`;
      const channel = transport.open(server, key);
      openChannels.add(channel);
      let held: Running | undefined;
      let refused: Running | undefined;
      try {
        const prelude = refusal.prelude;
        if (prelude?.kind === 'burst') {
          const passing = prelude.burst - transport.setupRequests;
          for (let i = 0; i < passing; i++) expect(await channel.run(prelude.passing).outcome, `operation ${i + 1} of ${passing} within the burst`).toMatchObject({ code: undefined });
        } else if (prelude?.kind === 'hold operation') {
          await expect.poll(() => admission(server), { timeout: 10_000 }).toMatchObject({ running: 0 });
          server.devnet?.setChaos({ latencyMs: HOLD_MS, routeFilter: prelude.route });
          const before = server.devnet?.stats().byRoute[prelude.route] ?? 0;
          held = channel.run(transport.incremental ? prelude.heldIncremental : prelude.held);
          // Its upstream call arrived: it was admitted (admission comes before execution) and holds its slot.
          await expect.poll(() => server.devnet?.stats().byRoute[prelude.route] ?? 0, { timeout: 10_000 }).toBeGreaterThan(before);
        } else if (prelude?.kind === 'hold subscription') {
          await expect.poll(() => admission(server), { timeout: 10_000 }).toMatchObject({ subscriptions: 0 });
          held = channel.run(prelude.held);
          expect(await held.outcome, 'the first subscription streams').toMatchObject({ code: undefined });
        }

        refused = channel.run(transport.incremental ? (refusal.incremental ?? refusal.operation) : refusal.operation);
        const outcome = await refused.outcome;
        expect(outcome.code, JSON.stringify(outcome)).toBe(refusal.code);
        if (transport.name === 'POST' || transport.name === 'GET') {
          // GraphQL over HTTP, application/graphql-response+json: a response without `data` MUST be 4xx or 5xx.
          if (outcome.hasData === false) expect(outcome.status, `a response without data: ${JSON.stringify(outcome)}`).toBeGreaterThanOrEqual(400);
          if (refusal.status !== undefined) expect(outcome.status).toBe(refusal.status);
        }

        if (prelude?.kind === 'hold operation') {
          // The share, not the gateway's capacity, refused it: another client is admitted meanwhile.
          const other = await fetch(server.url, { method: 'POST', headers: jsonHeaders(`${key}-other`), body: JSON.stringify({ query: NODES }) }).then(fromResponse);
          expect(other).toMatchObject({ code: undefined, status: 200 });
        }
      } finally {
        await refused?.stop();
        await held?.stop();
        server.devnet?.resetChaos();
        await channel.close();
        openChannels.delete(channel);
      }
    });
  }
});
