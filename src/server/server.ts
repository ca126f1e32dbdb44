import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import pino, { type Logger } from 'pino';
import { edgePolicyOptionsFrom, gatewayOptionsFrom, type GatewayConfig } from './config.ts';
import { createGateway, type Gateway } from '../gateway/gateway.ts';
import { attachGraphQLWs } from './graphql-ws.ts';
import { createEdgePolicy, type EdgePolicyStats } from '../gateway/plugins/edge-policy.ts';
import { createRedisConnections } from './redis.ts';
import { createRedisTopics } from './redis-topics.ts';
import { createTopics } from '../loaders/topics.ts';
import { createRedisActivityStore } from './redis-activity.ts';
import { createRedisKeyVerdicts } from './redis-key-verdicts.ts';
import { trackConnections, type ConnectionStats, type DrainResult } from './drain.ts';
import { edgeErrorBody } from '../gateway/plugins/edge-response.ts';
import { exampleQueries } from '../gateway/graphiql-examples.ts';
import { heapBudget, redisLocalBytes } from './heap-budget.ts';
import { type ResponseCache } from '../upstream/cache.ts';
import { createMemoryCache } from '../upstream/cache-memory.ts';
import { createRedisCache } from '../upstream/cache-redis.ts';
import { upstreamScope, withDataApiCache, withNodeCache } from '../upstream/cached-clients.ts';
import { createDataApiClient } from '../upstream/data-api.ts';
import { createNodeClient } from '../upstream/node-client.ts';
import { createHttpUpstream } from '../upstream/http.ts';
import { createUpstreamRate } from '../upstream/upstream-rate.ts';
import { createComputeUnitCeiling } from '../upstream/compute-unit-ceiling.ts';
import { startTelemetry } from './telemetry.ts';
import { probeUpstreams, type ProbeFailure } from './startup-probe.ts';
import { warmUp } from './warm-up.ts';
import { createRedactor, redactingLogOptions } from '../lib/redact.ts';

/**
 * The built-in devnet's handle. A type only (erased from the build): the devnet module itself is
 * loaded with a dynamic import, and only when no upstream is configured, so a gateway with upstreams
 * never loads it and the production entry does not contain it (the build puts it in a chunk of its own).
 */
type Devnet = import('../devnet/server.ts').Devnet;

/** node:http's own refusals, by error code: status and GraphQL error code. */
/** Where the gateway takes webhook deliveries on the built-in devnet. */
export const DEVNET_WEBHOOK_PATH = '/webhooks/data-api';
/**
 * The cursor secret on the built-in devnet when CURSOR_SECRET is not set: a fixed, public development
 * secret, so a page's cursor still works after `npm start` is restarted. It protects nothing (anyone can
 * read it here) and is never used with real upstreams, where an unset CURSOR_SECRET means a random one.
 */
export const DEVNET_CURSOR_SECRET = 'chaingraph-devnet-development-cursor-secret-not-for-production';

const CLIENT_ERRORS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'BAD_REQUEST'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'BAD_REQUEST'],
};

export interface RunningServer {
  url: string;
  gateway: Gateway;
  /** Present when no upstream was configured and the built-in devnet serves both APIs. */
  devnet?: Devnet;
  /** The upstreams that did not answer the start-up probe (empty when all did), each with its cause and the setting to check. */
  notAnswering: ProbeFailure[];
  /**
   * Shuts down gracefully: `/ready` answers 503 at once, subscriptions end (graphql-ws sockets are
   * closed with 1001 Going Away), the listener stops accepting,
   * requests in flight (and any still sent on an open keep-alive connection) are answered with
   * `Connection: close` for up to `graceMs` (default `SHUTDOWN_GRACE_MS`), then whatever is left is
   * aborted; the gateway, cache, clients and devnet close last. Resolves `drained` when nothing had to
   * be aborted, else `forced`. Idempotent: later calls return the first call's promise.
   */
  close(options?: { graceMs?: number }): Promise<DrainResult>;
  /** Aborts what the drain is waiting for now (a second signal); a `close()` in progress resolves `forced`. */
  forceClose(): void;
  /** What the edge holds now: connections (and those cut or evicted), WebSockets, admission slots, bodies in flight. */
  edgeStats(): EdgeStats;
}

export interface EdgeStats {
  connections: ConnectionStats;
  webSockets: number;
  admission: EdgePolicyStats;
}

/** How {@link startServer} starts. */
export interface StartOptions {
  /**
   * Warms the gateway before `/ready` says ready, within `config.warmUpMs` (src/server/warm-up.ts), and
   * builds GraphiQL's assets before it listens, also with `WARM_UP_MS=0` (so the first page load is served
   * as fast as the second): the CLI does; tests and embedders that start many servers need not. Default false.
   */
  warmUp?: boolean;
  /** Aborted when the process is told to stop while it starts (cli.ts): the warm-up ends after the request in flight. */
  signal?: AbortSignal;
  /** The clock of the subscriptions' registration grace (`REGISTRATION_GRACE_MS`): tests move it rather than wait. Default `Date.now`. */
  now?: () => number;
  /**
   * The key the gateway's own webhooks belong to on the built-in devnet without DATA_API_KEY (the devnet
   * keeps webhooks per key, as the Data API does). Default: a random one made at start, never logged nor
   * answered, so no caller can send it to read the shared secret deliveries are checked with, or to
   * deactivate the gateway's webhooks. A test that must sign deliveries as the devnet does gives its own.
   */
  devnetWebhookKey?: string;
}

/**
 * Starts the gateway on a socket. With no DATA_API_URL and no NODE_URLS it first
 * starts the devnet in-process and points both clients at it, so `npm start`
 * works on a machine with no network and no keys.
 */
export async function startServer(
  config: GatewayConfig,
  // Every line written with the settings' secrets hidden (cli.ts makes its own logger the same way).
  logger: Logger = pino({ level: config.logLevel, ...redactingLogOptions(createRedactor(config.secrets)) }),
  options: StartOptions = {},
): Promise<RunningServer> {
  const warming = options.warmUp === true && config.warmUpMs > 0;
  let devnet: Devnet | undefined;
  let dataApiUrl = config.dataApiUrl;
  let nodes = config.nodes;
  if (!dataApiUrl && nodes.length === 0) {
    // eslint-disable-next-line import-x/no-restricted-paths -- the one way the gateway reaches the devnet: on demand, never statically
    const { startDevnet } = await import('../devnet/server.ts');
    devnet = await startDevnet(config.devnetComputeUnitsPerMinute ? { computeUnitsPerMinute: config.devnetComputeUnitsPerMinute } : {});
    dataApiUrl = devnet.url;
    nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => ({ name, url }));
    logger.info({ devnet: devnet.url }, 'no DATA_API_URL or NODE_URLS configured: serving the built-in devnet (simulated data)');
  } else if (!dataApiUrl) {
    throw new Error('NODE_URLS is set but DATA_API_URL is not: set both, or neither to use the built-in devnet');
  }

  if (!config.cursorSecrets && !devnet) {
    logger.warn('CURSOR_SECRET is not set: cursors are signed with a random secret, so they will not survive a restart or work across replicas');
  }
  if (!devnet && nodes.length === 0) logger.info('no NODE_URLS: node fields answer NODE_NOT_CONFIGURED');
  const { protection } = config;
  // The replica's two Redis connections, shared by the cache, the upstream rate and the topics below.
  const redis = config.redisUrl ? createRedisConnections({ url: config.redisUrl, logger }) : undefined;
  // The gateway's own ceiling on its upstream rate, one budget for the fleet when replicas share Redis.
  const upstreamRate = protection.upstreamMaxRps
    ? createUpstreamRate({
        maxRps: protection.upstreamMaxRps,
        maxWaitMs: protection.upstreamRateMaxWaitMs,
        ...(redis ? { redis: redis.commands } : {}),
      })
    : undefined;
  // One HTTP policy for every upstream: a pool per origin, a circuit breaker per upstream and per node.
  const http = createHttpUpstream({
    breaker: {
      failures: protection.breakerFailures,
      halfOpenAfterMs: protection.breakerHalfOpenMs,
      onStateChange: (change) => (change.state === 'open' ? logger.warn(change, 'circuit breaker opened: calls to this upstream fail fast') : logger.info(change, 'circuit breaker state')),
    },
    ...(upstreamRate ? { upstreamRate } : {}),
    // The Data API's own limits, kept by the fleet: the server key's compute-unit ceiling, and no call with a key it paused (429).
    computeUnits: createComputeUnitCeiling({
      ...(protection.upstreamComputeUnitsPerMinute ? { maxPerMinute: protection.upstreamComputeUnitsPerMinute } : {}),
      maxWaitMs: protection.upstreamRateMaxWaitMs,
      ...(redis ? { redis: redis.commands, keyPrefix: `chaingraph:compute-units:${upstreamScope(dataApiUrl)}:` } : {}),
    }),
  });
  const dataApi = createDataApiClient({
    baseUrl: dataApiUrl,
    ...(config.dataApiKey ? { apiKey: config.dataApiKey } : {}),
    apiKeyHeader: config.dataApiKeyHeader,
    http,
  });
  const nodeClients = nodes.map((n) => createNodeClient({ ...n, http }));
  const breakerStates = () => http.breakers();
  // Readiness asks the Data API itself (its cheapest call, or its live check), never the cache.
  const readinessProbe = config.readyProbe === 'live-check'
    ? () => dataApi.liveCheck({ timeoutMs: 3000 })
    : () => dataApi.listChains({}, { timeoutMs: 3000 });
  // One cache for every client: shared by replicas through Redis, else this process's LRU.
  const cache: ResponseCache | undefined =
    config.cache === 'off'
      ? undefined
      : config.cache === 'redis' && redis
        ? createRedisCache({ redis: redis.commands, localMaxBytes: redisLocalBytes(config), onError: (err) => logger.warn({ err }, 'Redis cache commands failing: serving without it until they succeed again') })
        : createMemoryCache({ maxBytes: config.cacheMaxBytes });
  warnIfHeapTooSmall(config, logger);
  // Before the gateway, which traces only when a provider is registered (OTEL_EXPORTER_OTLP_ENDPOINT).
  const telemetry = await startTelemetry(config.telemetry);
  if (telemetry) logger.info({ traces: new URL(config.telemetry?.tracesUrl ?? '').host, service: config.telemetry?.serviceName }, 'exporting traces over OTLP/HTTP');
  const shutdown = new AbortController();
  // One edge policy for every transport: slots, per-client shares, bodies in flight, and who a client is: the
  // keys the Data API accepted or refused are known to the whole fleet through Redis (per upstream, as the cache).
  const edgeOptions = edgePolicyOptionsFrom(config);
  const keyVerdicts = redis ? createRedisKeyVerdicts({ redis: redis.commands, keyPrefix: `chaingraph:identity:${upstreamScope(dataApiUrl)}:` }) : undefined;
  const admission = createEdgePolicy(keyVerdicts ? { ...edgeOptions, clients: { ...edgeOptions.clients, store: keyVerdicts } } : edgeOptions);
  // The subscriptions' pollers: one per topic in the fleet through Redis, else one per topic in this process;
  // either way within MAX_TOPICS and each client's shares, with the registration grace.
  const topicLimits = {
    maxTopics: config.limits.maxTopics,
    ...(config.limits.maxTopicsPerClient ? { maxTopicsPerClient: config.limits.maxTopicsPerClient } : {}),
    ...(config.limits.maxWatchedKeysPerClient ? { maxWatchedKeysPerClient: config.limits.maxWatchedKeysPerClient } : {}),
    lingerMs: config.limits.registrationGraceMs,
    ...(options.now ? { now: options.now } : {}),
  };
  const topics = redis
    ? createRedisTopics({
        publisher: redis.commands,
        subscriber: redis.subscriber,
        replicaId: redis.replicaId,
        // Replicas share topics only when they poll the same upstreams: a fleet in front of others keeps apart.
        keyPrefix: `chaingraph:topic:${upstreamScope([dataApiUrl, ...nodeClients.map((client) => client.url)].join(' '))}:`,
        ...topicLimits,
        leaseTtlMs: config.limits.topicLeaseTtlMs,
        onError: (err, topic) => logger.warn({ err, topic }, 'Redis unavailable for subscriptions: their events wait until it answers again'),
      })
    : createTopics(topicLimits);
  // Live activity's delivery endpoint: WEBHOOK_PUBLIC_URL, or on the built-in devnet this gateway's own (known once it listens).
  const listening: { origin?: string } = {};
  const devnetWebhookKey = devnet && !config.dataApiKey ? (options.devnetWebhookKey ?? randomBytes(32).toString('hex')) : undefined;
  const liveActivity = config.webhookPublicUrl
    ? undefined
    : devnet
      ? {
          publicUrl: () => `${listening.origin ?? `http://127.0.0.1:${config.port}`}${DEVNET_WEBHOOK_PATH}`,
          path: DEVNET_WEBHOOK_PATH,
          // The devnet keeps webhooks per key, as the Data API does; without DATA_API_KEY the gateway's own are under a secret one.
          ...(devnetWebhookKey ? { apiKey: devnetWebhookKey } : {}),
        }
      : undefined;
  const gatewayOptions = gatewayOptionsFrom(config, {
    // A caller that went away is routine; real upstream failures are worth a warning. Logged through
    // the request's logger, so the line carries its request id.
    onUpstreamError: (info, log = logger) => (info.code === 'REQUEST_ABORTED' ? log.debug(info, 'upstream call abandoned') : log.warn(info, 'upstream failure')),
    // On the devnet, the examples use ids that have data behind them.
    ...(devnet ? { exampleQueries: exampleQueries(devnet.dataset.fixtures().mainnet) } : {}),
    tracing: Boolean(telemetry),
    shutdownSignal: shutdown.signal,
    admission,
    ...(redis ? { redis: redis.commands } : {}),
  });
  if (liveActivity) gatewayOptions.liveActivity = liveActivity;
  // Redacted like every other secret, should an upstream's error text ever quote it.
  if (devnetWebhookKey) gatewayOptions.secrets = [...(gatewayOptions.secrets ?? []), devnetWebhookKey];
  if (warming) gatewayOptions.warmUp = true;
  // On the devnet, the fixed development secret (see DEVNET_CURSOR_SECRET), so cursors survive a restart.
  if (devnet && !config.cursorSecrets) gatewayOptions.cursorSecrets = [DEVNET_CURSOR_SECRET];
  // Compute units the upstream cache saved, by how (its metric).
  const saved = { stored: 0, joined: 0 };
  const gateway = createGateway(
    gatewayOptions,
    {
      ...(cache ? { dataApi: withDataApiCache(dataApi, cache, { scope: upstreamScope(dataApiUrl), onSaved: (source, units) => void (saved[source] += units) }), computeUnitsSaved: () => ({ ...saved }), nodes: nodeClients.map((client) => withNodeCache(client, cache)), cache } : { dataApi, nodes: nodeClients }),
      readinessProbe,
      logger,
      breakerStates,
      ...(topics ? { topics } : {}),
      ...(redis ? { activityStore: createRedisActivityStore({ redis: redis.commands, keyPrefix: `chaingraph:activity:${upstreamScope(dataApiUrl)}:` }) } : {}),
    },
  );

  // The headers and body deadlines are checked this often (node's default, 30 s, would let a trickled
  // body live up to twice BODY_TIMEOUT_MS past 30 s).
  const server: Server = createServer({ connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.limits.bodyTimeoutMs / 4))) });
  const connections = trackConnections(server, {
    maxConnections: config.limits.maxConnections,
    maxConnectionsPerClient: config.limits.maxConnectionsPerClient,
    writeTimeoutMs: config.limits.writeTimeoutMs,
    maxUnsentBytes: config.limits.maxResponseBytes + 64 * 1024,
  });
  server.on('request', connections.handler(gateway));
  // graphql-ws on the same path: an upgrade of /graphql.
  const ws = attachGraphQLWs(server, gateway, {
    path: gateway.graphqlEndpoint,
    // The gateway's own request limits, so every transport refuses the same requests.
    ...(gatewayOptions.requestLimits ? { requestLimits: gatewayOptions.requestLimits } : {}),
    connectionInitTimeoutMs: config.limits.wsConnectionInitTimeoutMs,
    maxOperationsPerSocket: config.limits.wsMaxOperationsPerSocket,
    maxResponseBytes: config.limits.maxResponseBytes,
    apiKeyHeader: config.dataApiKeyHeader,
    maxSockets: config.limits.wsMaxSockets,
    // graphql-ws's own failures as JSON lines with the connection's request id, not stack traces on stdout.
    logger,
  });
  // A WebSocket with operations in progress is never evicted to make room for a new connection.
  connections.setBusy((socket) => ws.busy(socket));
  // Slow clients: headers within 10 s, the whole request within BODY_TIMEOUT_MS (a trickled body holds a
  // socket and its share of MAX_BODY_BYTES_IN_FLIGHT, never an admission slot, which comes after the
  // body). Responses are bounded by the write deadline instead (WRITE_TIMEOUT_MS, src/server/drain.ts).
  server.headersTimeout = Math.min(10_000, config.limits.bodyTimeoutMs);
  server.requestTimeout = config.limits.bodyTimeoutMs;
  // What node:http refuses itself (oversized headers, malformed requests, timeouts) gets a coded body too.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const [status, code] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'BAD_REQUEST'];
    const body = edgeErrorBody(code, `${STATUS_CODES[status] ?? 'Bad Request'}: the request was refused before it reached the gateway.`);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${randomUUID()}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  // Each upstream asked once while the socket opens, so the banner below can say which does not answer.
  const probing = probeUpstreams({ dataApi: { url: dataApiUrl, probe: readinessProbe }, nodes: nodeClients }, logger);
  // GraphiQL's assets, built in a worker thread (no query warm-up: also with WARM_UP_MS=0) before the socket opens,
  // so the first page load is served from buffers as every later one. Before listening, not before the banner: once
  // the socket opens and /ready answers, the process counts as started (a signal then drains it at once).
  if (options.warmUp === true) await prepareGraphiQL(gateway, logger);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const notAnswering = await probing;
  if (warming) {
    const stop = options.signal ? AbortSignal.any([shutdown.signal, options.signal]) : shutdown.signal;
    const report = await warmUp({ gateway, budgetMs: config.warmUpMs, logger, signal: stop, ...(devnet ? { dataset: devnet.dataset } : {}) });
    logger.info(report, `warmed up in ${report.ms} ms: ${report.rounds} rounds of ${report.operations} operations over recorded answers, no upstream call`);
  }
  const { port } = server.address() as AddressInfo;
  listening.origin = `http://${config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host}:${port}`;
  const url = `http://${config.host}:${port}/graphql`;
  const banner = { url, nodes: nodeClients.map((n) => n.name), admin: Boolean(config.adminToken), cache: config.cache };
  if (notAnswering.length === 0) logger.info(banner, `chaingraph ready: GraphiQL at ${url}`);
  else {
    logger.warn(
      { ...banner, notAnswering: notAnswering.map((failure) => failure.upstream) },
      `chaingraph running, but: ${notAnswering.map((failure) => failure.message).join(' ')} GraphiQL at ${url}`,
    );
  }

  let closing: Promise<DrainResult> | undefined;
  return {
    url,
    gateway,
    ...(devnet ? { devnet } : {}),
    notAnswering,
    close: (options = {}) =>
      (closing ??= (async () => {
        shutdown.abort();
        const graceMs = options.graceMs ?? config.shutdownGraceMs;
        const [result] = await Promise.all([connections.drain(graceMs), ws.close(Math.min(graceMs, 1000))]);
        connections.close();
        await gateway.dispose();
        await topics?.close();
        await cache?.close();
        await Promise.all([dataApi.close(), ...nodeClients.map((client) => client.close())]);
        // The clients share one HTTP policy they do not own.
        await Promise.all([http.close(), upstreamRate?.close()]);
        // After every user of the connections above.
        await redis?.close();
        await devnet?.close();
        // Last: flushes the spans of everything above.
        await telemetry?.shutdown();
        return result;
      })()),
    forceClose: () => connections.force(),
    edgeStats: () => ({ connections: connections.stats(), webSockets: ws.sockets(), admission: admission.stats() }),
  };
}

/** Builds GraphiQL's assets now; a failed build is logged, and the first page load tries again. */
async function prepareGraphiQL(gateway: Gateway, logger: Logger): Promise<void> {
  try {
    await gateway.graphiql?.prepare();
  } catch (error) {
    logger.warn({ err: error }, "GraphiQL's assets could not be built at start: the first page load builds them");
  }
}

/**
 * `npm start` sizes the heap from the limits (src/server/heap-budget.ts); a process started
 * another way, or with a smaller GATEWAY_HEAP_MB, is told when its heap is below what
 * the limits allow, since pressure would then end in a crash rather than a 503.
 */
function warnIfHeapTooSmall(config: GatewayConfig, logger: Logger): void {
  const budget = heapBudget(config);
  const limitMb = Math.floor(getHeapStatistics().heap_size_limit / 1024 / 1024);
  if (limitMb < budget.heapMb) {
    logger.warn(
      { heapLimitMb: limitMb, heapBudgetMb: budget.heapMb },
      'the V8 heap limit is below what the configured limits may use: start with --max-old-space-size (GATEWAY_HEAP_MB) of at least the budget, or lower MAX_CONCURRENT_OPERATIONS, MAX_RESPONSE_BYTES or CACHE_MAX_BYTES',
    );
  }
}
