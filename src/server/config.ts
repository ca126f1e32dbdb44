import type { GatewayOptions } from '../gateway/gateway.ts';
import type { EdgePolicy, EdgePolicyOptions } from '../gateway/plugins/edge-policy.ts';
import { loadPersistedManifest } from '../gateway/plugins/use-persisted-documents.ts';
import { ConfigError, readSettings, secretsFromEnv } from './settings.ts';
import { telemetryFromEnv, type TelemetryConfig } from './telemetry.ts';

export { ConfigError, secretsFromEnv };

/** Everything the gateway reads from the environment (see README, "Configuration"). */
export interface GatewayConfig {
  port: number;
  host: string;
  /** Data API base URL; undefined means "run the built-in devnet". */
  dataApiUrl?: string;
  dataApiKey?: string;
  dataApiKeyHeader: string;
  nodes: { name: string; url: string }[];
  adminToken?: string;
  /** `CURSOR_SECRET`: cursor signing secrets, the first signs and all verify. Unset: a random one per process. */
  cursorSecrets?: string[];
  redisUrl?: string;
  /** `off` serves every read from the upstream (no response cache, no sharing of identical calls). */
  cache: 'memory' | 'redis' | 'off';
  /** `CACHE_MAX_BYTES`: byte budget of the in-memory response cache (counted V8 bytes). Default 16 MiB. */
  cacheMaxBytes: number;
  /**
   * `RESPONSE_CACHE_MAX_BYTES`: byte budget of the whole-response cache (identical queries answered
   * whole within the earliest expiry of what they read), 0 when off (`RESPONSE_CACHE=off`, or
   * `CACHE=off`, since it holds only responses built from cached answers). Default 8 MiB.
   */
  responseCacheMaxBytes: number;
  /** `COMPILED_EXECUTION` (`on`/`off`): query operations run as compiled code (graphql-jit) rather than interpreted. Default on. */
  compiledExecution: boolean;
  /** Upper bound of estimated upstream calls a query may cost (QUERY_TOO_COSTLY above). */
  maxQueryCost: number;
  /** The HTTP edge's limits: body, response, concurrency (README, "Limits and security"). */
  limits: EdgeLimits;
  /** Circuit breakers, the per-client rate limit and the upstream rate ceiling (README, "Upstream protection"). */
  protection: ProtectionConfig;
  logLevel: string;
  /** Tracing (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`...): off unless an OTLP endpoint is set. Absent: off. */
  telemetry?: TelemetryConfig;
  /**
   * `SHUTDOWN_GRACE_MS`: on SIGTERM/SIGINT, how long requests in flight get to finish before what is
   * left is aborted and the process exits 1. Default 10000 (under the 30 s Kubernetes and Docker give).
   */
  shutdownGraceMs: number;
  /** `READY_PROBE`: what `/ready` asks the Data API, its chain list or its live check. */
  readyProbe: 'chains' | 'live-check';
  /** Prometheus `/metrics` (README, "Metrics"). */
  metrics: MetricsConfig;
  /** Persisted operations: automatic persisted queries and trusted documents (README, "Persisted operations"). */
  persisted: PersistedConfig;
  /**
   * `CORS_ORIGINS` (`*` or comma-separated origins; default `*`: any origin, without credentials) and
   * `CORS_CREDENTIALS` (`true`/`false`, default false; `true` needs a list of origins).
   */
  cors: { origins: '*' | string[]; credentials: boolean };
  /** `ALLOW_FORM_POSTS` (`true`/`false`): also execute form-encoded and multipart POSTs, queries only. Default false. */
  allowFormPosts: boolean;
  /** Every secret among the settings ({@link secretsFromEnv}): hidden from every log line and error message. */
  secrets: string[];
}

export interface PersistedConfig {
  /** `APQ` (`on`/`off`): automatic persisted queries, in a store per replica. Default on; off with `ONLY_PERSISTED`. */
  apq: boolean;
  /** `APQ_MAX_BYTES`: byte budget of the automatic persisted queries kept. Default 4 MiB. */
  apqMaxBytes: number;
  /** `PERSISTED_OPERATIONS`: a manifest file of trusted documents, read at start (a bad file stops the start). Default none. */
  manifestPath?: string;
  /** The manifest's documents by id, read from `manifestPath`. */
  documents?: ReadonlyMap<string, string>;
  /** `ONLY_PERSISTED` (`true`/`false`): refuse every operation not in the manifest (PERSISTED_QUERY_ONLY). Needs `PERSISTED_OPERATIONS`. Default false. */
  onlyPersisted: boolean;
}

export interface MetricsConfig {
  /** `METRICS_TOKEN`: when set, `/metrics` needs `authorization: Bearer <token>`. Default unset (open). */
  token?: string;
  /** `METRICS_MAX_OPERATION_NAMES`: distinct operation names labelled; later ones count as `other`. Default 100. */
  maxOperationNames: number;
}

/**
 * The settings of `env` (each a row of src/server/settings.ts, parsed and validated there) as the
 * process uses them, with the rules between variables checked. A mistake throws a ConfigError naming it.
 */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const s = readSettings(env);
  const cache = s.CACHE ?? (s.REDIS_URL ? 'redis' : 'memory');
  if (cache === 'redis' && !s.REDIS_URL) throw new ConfigError('CACHE=redis needs REDIS_URL');
  if (s.ONLY_PERSISTED && !s.PERSISTED_OPERATIONS) throw new ConfigError('ONLY_PERSISTED=true needs PERSISTED_OPERATIONS (a manifest of the operations to allow)');
  // Credentials for any origin would let every site act as its visitors: only for origins named one by one.
  if (s.CORS_CREDENTIALS && s.CORS_ORIGINS === '*') throw new ConfigError('CORS_CREDENTIALS=true needs CORS_ORIGINS: a comma-separated list of origins (not *)');
  return {
    port: s.PORT,
    host: s.HOST,
    ...(s.DATA_API_URL ? { dataApiUrl: s.DATA_API_URL } : {}),
    ...(s.DATA_API_KEY ? { dataApiKey: s.DATA_API_KEY } : {}),
    dataApiKeyHeader: s.DATA_API_KEY_HEADER,
    nodes: s.NODE_URLS,
    ...(s.ADMIN_TOKEN ? { adminToken: s.ADMIN_TOKEN } : {}),
    ...(s.CURSOR_SECRET ? { cursorSecrets: s.CURSOR_SECRET } : {}),
    ...(s.REDIS_URL ? { redisUrl: s.REDIS_URL } : {}),
    cache,
    cacheMaxBytes: s.CACHE_MAX_BYTES,
    // It holds only responses built from cached answers: off with the cache.
    responseCacheMaxBytes: s.RESPONSE_CACHE && cache !== 'off' ? s.RESPONSE_CACHE_MAX_BYTES : 0,
    compiledExecution: s.COMPILED_EXECUTION,
    maxQueryCost: s.MAX_QUERY_COST,
    limits: {
      maxBodyBytes: s.MAX_BODY_BYTES,
      maxResponseBytes: s.MAX_RESPONSE_BYTES,
      maxValidationComplexity: s.MAX_VALIDATION_COMPLEXITY,
      maxConcurrentOperations: s.MAX_CONCURRENT_OPERATIONS,
      maxQueuedOperations: s.MAX_QUEUED_OPERATIONS,
      maxQueueWaitMs: s.MAX_QUEUE_WAIT_MS,
      maxSubscriptions: s.MAX_SUBSCRIPTIONS,
      wsMaxOperationsPerSocket: s.WS_MAX_OPERATIONS_PER_SOCKET,
      wsConnectionInitTimeoutMs: s.WS_CONNECTION_INIT_TIMEOUT_MS,
      maxTopics: s.MAX_TOPICS,
      topicLeaseTtlMs: s.TOPIC_LEASE_TTL_MS,
      ...(s.MAX_OPERATIONS_PER_CLIENT ? { maxOperationsPerClient: s.MAX_OPERATIONS_PER_CLIENT } : {}),
      ...(s.MAX_SUBSCRIPTIONS_PER_CLIENT ? { maxSubscriptionsPerClient: s.MAX_SUBSCRIPTIONS_PER_CLIENT } : {}),
      maxBodyBytesInFlight: s.MAX_BODY_BYTES_IN_FLIGHT,
      bodyTimeoutMs: s.BODY_TIMEOUT_MS,
      maxConnections: s.MAX_CONNECTIONS,
      maxConnectionsPerClient: s.MAX_CONNECTIONS_PER_CLIENT,
      wsMaxSockets: s.WS_MAX_SOCKETS,
      writeTimeoutMs: s.WRITE_TIMEOUT_MS,
      readyProbeIntervalMs: s.READY_PROBE_INTERVAL_MS,
    },
    protection: {
      breakerFailures: s.BREAKER_FAILURES,
      breakerHalfOpenMs: s.BREAKER_HALF_OPEN_MS,
      ...(s.RATE_LIMIT_RPS ? { rateLimitRps: s.RATE_LIMIT_RPS } : {}),
      ...(s.RATE_LIMIT_BURST ? { rateLimitBurst: s.RATE_LIMIT_BURST } : {}),
      rateLimitMaxClients: s.RATE_LIMIT_MAX_CLIENTS,
      trustProxy: s.TRUST_PROXY,
      ...(s.UPSTREAM_MAX_RPS > 0 ? { upstreamMaxRps: s.UPSTREAM_MAX_RPS } : {}),
      upstreamRateMaxWaitMs: s.UPSTREAM_RATE_MAX_WAIT_MS,
    },
    logLevel: s.LOG_LEVEL,
    telemetry: telemetryFromEnv(env),
    shutdownGraceMs: s.SHUTDOWN_GRACE_MS,
    readyProbe: s.READY_PROBE ?? 'chains',
    metrics: { ...(s.METRICS_TOKEN ? { token: s.METRICS_TOKEN } : {}), maxOperationNames: s.METRICS_MAX_OPERATION_NAMES },
    persisted: {
      apq: s.APQ && !s.ONLY_PERSISTED,
      apqMaxBytes: s.APQ_MAX_BYTES,
      ...(s.PERSISTED_OPERATIONS ? { manifestPath: s.PERSISTED_OPERATIONS, documents: loadPersistedManifest(s.PERSISTED_OPERATIONS) } : {}),
      onlyPersisted: s.ONLY_PERSISTED,
    },
    cors: { origins: s.CORS_ORIGINS, credentials: s.CORS_CREDENTIALS },
    allowFormPosts: s.ALLOW_FORM_POSTS,
    secrets: secretsFromEnv(env),
  };
}

/** What {@link gatewayOptionsFrom} cannot read from the configuration: what the process made for the gateway. */
export interface GatewayWiring {
  /** The edge policy every transport shares. Default: one made by the gateway from {@link edgePolicyOptionsFrom}. */
  admission?: EdgePolicy;
  /** Aborted when shutdown begins. Default none. */
  shutdownSignal?: AbortSignal;
  /** A tracer provider is registered (the OTLP endpoint is set and tracing started). Default false. */
  tracing?: boolean;
  /** The operations GraphiQL opens with (the devnet's have data behind their ids). Default the gateway's. */
  exampleQueries?: string;
  /** Told about each upstream failure that reached a response (the server logs it). Default none. */
  onUpstreamError?: GatewayOptions['onUpstreamError'];
}

/** The edge policy's options: slots, queue, per-client shares and bodies in flight, with clients named as the rate limit names them. */
export function edgePolicyOptionsFrom(config: GatewayConfig): EdgePolicyOptions {
  const { limits } = config;
  return {
    maxConcurrent: limits.maxConcurrentOperations,
    maxQueued: limits.maxQueuedOperations,
    maxWaitMs: limits.maxQueueWaitMs,
    maxSubscriptions: limits.maxSubscriptions,
    ...(limits.maxOperationsPerClient ? { maxOperationsPerClient: limits.maxOperationsPerClient } : {}),
    ...(limits.maxSubscriptionsPerClient ? { maxSubscriptionsPerClient: limits.maxSubscriptionsPerClient } : {}),
    maxBodyBytesInFlight: limits.maxBodyBytesInFlight,
    clients: { apiKeyHeader: config.dataApiKeyHeader, trustProxy: config.protection.trustProxy },
  };
}

/**
 * The gateway's options from the configuration and what the process built for it: a pure mapping (no
 * I/O, no environment), so tests build their gateways exactly as the server does.
 */
export function gatewayOptionsFrom(config: GatewayConfig, wiring: GatewayWiring = {}): GatewayOptions {
  const { limits, protection, persisted } = config;
  return {
    apiKeyHeader: config.dataApiKeyHeader,
    // Never repeated by an error message (each request adds its own key).
    secrets: config.secrets,
    cors: config.cors,
    allowFormPosts: config.allowFormPosts,
    maxQueryCost: config.maxQueryCost,
    maxValidationComplexity: limits.maxValidationComplexity,
    ...(wiring.onUpstreamError ? { onUpstreamError: wiring.onUpstreamError } : {}),
    metrics: { maxOperationNames: config.metrics.maxOperationNames, ...(config.metrics.token ? { token: config.metrics.token } : {}) },
    ...(wiring.exampleQueries ? { exampleQueries: wiring.exampleQueries } : {}),
    ...(config.adminToken ? { adminToken: config.adminToken } : {}),
    ...(config.cursorSecrets ? { cursorSecrets: config.cursorSecrets } : {}),
    requestLimits: { maxBodyBytes: limits.maxBodyBytes },
    // Automatic persisted queries (per replica) and the trusted documents read at start.
    persistedDocuments: {
      apq: persisted.apq ? { maxBytes: persisted.apqMaxBytes } : false,
      ...(persisted.documents ? { documents: persisted.documents } : {}),
      onlyPersisted: persisted.onlyPersisted,
    },
    // Never without the cache of upstream answers: it holds only responses built from them.
    ...(config.cache !== 'off' && config.responseCacheMaxBytes > 0 ? { responseCache: { maxBytes: config.responseCacheMaxBytes } } : {}),
    ...(protection.rateLimitRps
      ? {
          rateLimit: {
            rps: protection.rateLimitRps,
            ...(protection.rateLimitBurst ? { burst: protection.rateLimitBurst } : {}),
            maxClients: protection.rateLimitMaxClients,
            trustProxy: protection.trustProxy,
          },
        }
      : {}),
    maxResponseBytes: limits.maxResponseBytes,
    ...(config.compiledExecution ? {} : { compiledExecution: false }),
    ...(wiring.tracing ? { tracing: true } : {}),
    ...(wiring.shutdownSignal ? { shutdownSignal: wiring.shutdownSignal } : {}),
    admission: wiring.admission ?? edgePolicyOptionsFrom(config),
    readyProbeIntervalMs: limits.readyProbeIntervalMs,
  };
}

export interface EdgeLimits {
  /** `MAX_BODY_BYTES`: largest request body, counted while it streams (413 PAYLOAD_TOO_LARGE). Default 1 MiB. */
  maxBodyBytes: number;
  /** `MAX_RESPONSE_BYTES`: largest serialized response (RESPONSE_TOO_LARGE). Default 8 MiB. */
  maxResponseBytes: number;
  /** `MAX_VALIDATION_COMPLEXITY`: most estimated field comparisons validating a document may take (400 QUERY_TOO_COMPLEX, before validation). Default 2000. */
  maxValidationComplexity: number;
  /** `MAX_CONCURRENT_OPERATIONS`: GraphQL requests in progress at once. Default 32. */
  maxConcurrentOperations: number;
  /** `MAX_QUEUED_OPERATIONS`: requests waiting for a slot; beyond, 503 SERVER_BUSY. Default 64. */
  maxQueuedOperations: number;
  /** `MAX_QUEUE_WAIT_MS`: longest wait for a slot. Default 2000. */
  maxQueueWaitMs: number;
  /** `MAX_SUBSCRIPTIONS`: live subscriptions. Default 100. */
  maxSubscriptions: number;
  /** `WS_MAX_OPERATIONS_PER_SOCKET`: operations in progress on one graphql-ws socket. Default 25. */
  wsMaxOperationsPerSocket: number;
  /** `WS_CONNECTION_INIT_TIMEOUT_MS`: how long a graphql-ws socket may wait before `connection_init`. Default 3000. */
  wsConnectionInitTimeoutMs: number;
  /** `MAX_TOPICS`: distinct subscription topics (one shared poller each) at once per replica. Default 1000. */
  maxTopics: number;
  /** `TOPIC_LEASE_TTL_MS`: with REDIS_URL, how long a replica's lease on a topic's poller lasts unrenewed (takeover time). Default 10000. */
  topicLeaseTtlMs: number;
  /** `MAX_OPERATIONS_PER_CLIENT`: operations one client may have executing at once. Default half of MAX_CONCURRENT_OPERATIONS. */
  maxOperationsPerClient?: number;
  /** `MAX_SUBSCRIPTIONS_PER_CLIENT`: live subscriptions of one client. Default half of MAX_SUBSCRIPTIONS. */
  maxSubscriptionsPerClient?: number;
  /** `MAX_BODY_BYTES_IN_FLIGHT`: request bodies being read at once, in bytes. Default 32 MiB. */
  maxBodyBytesInFlight: number;
  /** `BODY_TIMEOUT_MS`: longest a request may take to arrive whole, body included (408). Default 10000. */
  bodyTimeoutMs: number;
  /** `MAX_CONNECTIONS`: open connections, WebSockets included. Default 4096. */
  maxConnections: number;
  /** `MAX_CONNECTIONS_PER_CLIENT`: open connections from one address. Default 1024. */
  maxConnectionsPerClient: number;
  /** `WS_MAX_SOCKETS`: open graphql-ws sockets. Default 2048. */
  wsMaxSockets: number;
  /** `WRITE_TIMEOUT_MS`: longest a connection may hold unsent bytes with none leaving before it is cut. Default 10000. */
  writeTimeoutMs: number;
  /** `READY_PROBE_INTERVAL_MS`: how long `/ready` reuses its last look at the Data API. Default 5000. */
  readyProbeIntervalMs: number;
}

export interface ProtectionConfig {
  /** `BREAKER_FAILURES`: consecutive failed attempts that open an upstream's circuit. Default 5. */
  breakerFailures: number;
  /** `BREAKER_HALF_OPEN_MS`: how long a circuit stays open before one probe. Default 10000. */
  breakerHalfOpenMs: number;
  /**
   * `RATE_LIMIT_RPS`: requests per second per client (API key, else address). Unset or 0: off.
   * Off by default: behind a proxy without `TRUST_PROXY`, every caller shares the proxy's address
   * and a default limit would throttle the whole fleet as one client.
   */
  rateLimitRps?: number;
  /** `RATE_LIMIT_BURST`: requests a client may send at once. Default 2 × RATE_LIMIT_RPS. */
  rateLimitBurst?: number;
  /** `RATE_LIMIT_MAX_CLIENTS`: clients tracked at once (least recently seen forgotten first). Default 10000. */
  rateLimitMaxClients: number;
  /** `TRUST_PROXY`: proxies in front whose `x-forwarded-for` entry names the client. Default 0 (the socket's address). */
  trustProxy: number;
  /** `UPSTREAM_MAX_RPS`: ceiling on attempts per second to each upstream, fleet-wide with REDIS_URL. Unset or 0: none. */
  upstreamMaxRps?: number;
  /** `UPSTREAM_RATE_MAX_WAIT_MS`: longest wait for a turn under the ceiling. Default 1000. */
  upstreamRateMaxWaitMs: number;
}

