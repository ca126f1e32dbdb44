import type { Redis } from 'ioredis';
import type { GatewayOptions } from '../gateway/gateway.ts';
import type { EdgePolicy, EdgePolicyOptions } from '../gateway/plugins/edge-policy.ts';
import { loadPersistedManifest } from '../gateway/plugins/use-persisted-documents.ts';
import { ConfigError, readSettings, secretsFromEnv } from './settings.ts';
import { telemetryFromEnv, type TelemetryConfig } from './telemetry.ts';

export { ConfigError, secretsFromEnv };

/**
 * Everything the gateway reads from the environment, as the process uses it. Each field names the
 * variable it comes from; what the variable means, its default and its bounds are its row in
 * `src/server/settings.ts` (and the README's configuration table generated from it).
 */
export interface GatewayConfig {
  /** `PORT`. */
  port: number;
  /** `HOST`. */
  host: string;
  /** `DATA_API_URL`; undefined runs the built-in devnet. */
  dataApiUrl?: string;
  /** `DATA_API_KEY`. */
  dataApiKey?: string;
  /** `DATA_API_KEY_HEADER`. */
  dataApiKeyHeader: string;
  /** `NODE_URLS`. */
  nodes: { name: string; url: string }[];
  /** `DEVNET_COMPUTE_UNITS_PER_MINUTE`: the built-in devnet's limit; undefined for none. */
  devnetComputeUnitsPerMinute?: number;
  /** `ADMIN_TOKEN`. */
  adminToken?: string;
  /** `CURSOR_SECRET`: the first signs, all verify. */
  cursorSecrets?: string[];
  /** `REDIS_URL`. */
  redisUrl?: string;
  /** `CACHE`, `redis` by default when `REDIS_URL` is set. */
  cache: 'memory' | 'redis' | 'off';
  /** `CACHE_MAX_BYTES`. */
  cacheMaxBytes: number;
  /** `RESPONSE_CACHE_MAX_BYTES`, 0 when `RESPONSE_CACHE=off` or `CACHE=off` (it holds only responses built from cached answers). */
  responseCacheMaxBytes: number;
  /** `COMPILED_EXECUTION`. */
  compiledExecution: boolean;
  /** `MAX_QUERY_COST`. */
  maxQueryCost: number;
  /** `MAX_OPERATION_COMPUTE_UNITS`. */
  maxOperationComputeUnits: number;
  /** `CLIENT_COMPUTE_UNITS_PER_MINUTE`; absent: no per-client budget. */
  clientComputeUnitsPerMinute?: number;
  /** The HTTP edge's limits: body, response, concurrency. */
  limits: EdgeLimits;
  /** Circuit breakers, the per-client rate limit and the upstream rate ceiling. */
  protection: ProtectionConfig;
  /** `LOG_LEVEL`. */
  logLevel: string;
  /** `WARM_UP_MS`: the warm-up's budget before ready (src/server/warm-up.ts); 0 for none. */
  warmUpMs: number;
  /** The `OTEL_*` variables; absent: tracing off. */
  telemetry?: TelemetryConfig;
  /** `SHUTDOWN_GRACE_MS`. */
  shutdownGraceMs: number;
  /** `READY_PROBE`. */
  readyProbe: 'chains' | 'live-check';
  /** `WEBHOOK_PUBLIC_URL`: live activity's delivery endpoint as the Data API reaches it. */
  webhookPublicUrl?: string;
  /** Prometheus `/metrics`. */
  metrics: MetricsConfig;
  /** Persisted operations: automatic persisted queries and trusted documents. */
  persisted: PersistedConfig;
  /** `CORS_ORIGINS` and `CORS_CREDENTIALS`. */
  cors: { origins: '*' | string[]; credentials: boolean };
  /** `ALLOW_FORM_POSTS`. */
  allowFormPosts: boolean;
  /** Every secret among the settings ({@link secretsFromEnv}): hidden from every log line and error message. */
  secrets: string[];
}

export interface PersistedConfig {
  /** `APQ`, off with `ONLY_PERSISTED`. */
  apq: boolean;
  /** `APQ_MAX_BYTES`. */
  apqMaxBytes: number;
  /** `PERSISTED_OPERATIONS`. */
  manifestPath?: string;
  /** The manifest's documents by id, read from `manifestPath` at start. */
  documents?: ReadonlyMap<string, string>;
  /** `ONLY_PERSISTED`. */
  onlyPersisted: boolean;
}

export interface MetricsConfig {
  /** `METRICS_TOKEN`. */
  token?: string;
  /** `METRICS_MAX_OPERATION_NAMES`. */
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
    ...(s.DEVNET_COMPUTE_UNITS_PER_MINUTE ? { devnetComputeUnitsPerMinute: s.DEVNET_COMPUTE_UNITS_PER_MINUTE } : {}),
    ...(s.ADMIN_TOKEN ? { adminToken: s.ADMIN_TOKEN } : {}),
    ...(s.CURSOR_SECRET ? { cursorSecrets: s.CURSOR_SECRET } : {}),
    ...(s.REDIS_URL ? { redisUrl: s.REDIS_URL } : {}),
    cache,
    cacheMaxBytes: s.CACHE_MAX_BYTES,
    // It holds only responses built from cached answers: off with the cache.
    responseCacheMaxBytes: s.RESPONSE_CACHE && cache !== 'off' ? s.RESPONSE_CACHE_MAX_BYTES : 0,
    compiledExecution: s.COMPILED_EXECUTION,
    maxQueryCost: s.MAX_QUERY_COST,
    maxOperationComputeUnits: s.MAX_OPERATION_COMPUTE_UNITS,
    ...(s.CLIENT_COMPUTE_UNITS_PER_MINUTE ? { clientComputeUnitsPerMinute: s.CLIENT_COMPUTE_UNITS_PER_MINUTE } : {}),
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
      ...(s.MAX_TOPICS_PER_CLIENT ? { maxTopicsPerClient: s.MAX_TOPICS_PER_CLIENT } : {}),
      ...(s.MAX_WATCHED_KEYS_PER_CLIENT ? { maxWatchedKeysPerClient: s.MAX_WATCHED_KEYS_PER_CLIENT } : {}),
      registrationGraceMs: s.REGISTRATION_GRACE_MS,
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
      maxVerifiedKeys: s.VERIFIED_KEYS_MAX,
      verifiedKeyTtlMs: s.VERIFIED_KEY_TTL_MS,
      refusedKeyTtlMs: s.REFUSED_KEY_TTL_MS,
      ...(s.UPSTREAM_MAX_RPS > 0 ? { upstreamMaxRps: s.UPSTREAM_MAX_RPS } : {}),
      upstreamRateMaxWaitMs: s.UPSTREAM_RATE_MAX_WAIT_MS,
      ...(s.UPSTREAM_COMPUTE_UNITS_PER_MINUTE ? { upstreamComputeUnitsPerMinute: s.UPSTREAM_COMPUTE_UNITS_PER_MINUTE } : {}),
    },
    logLevel: s.LOG_LEVEL,
    warmUpMs: s.WARM_UP_MS,
    telemetry: telemetryFromEnv(env),
    shutdownGraceMs: s.SHUTDOWN_GRACE_MS,
    readyProbe: s.READY_PROBE ?? 'chains',
    ...(s.WEBHOOK_PUBLIC_URL ? { webhookPublicUrl: s.WEBHOOK_PUBLIC_URL } : {}),
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
  /** The Redis commands connection of `REDIS_URL`: the per-client compute units are then the fleet's. Default none. */
  redis?: Redis;
}

/** The edge policy's options: slots, queue, per-client shares and bodies in flight, and who a client is (the identity the rate limit shares). */
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
    clients: {
      apiKeyHeader: config.dataApiKeyHeader,
      trustProxy: config.protection.trustProxy,
      maxVerifiedKeys: config.protection.maxVerifiedKeys,
      verifiedKeyTtlMs: config.protection.verifiedKeyTtlMs,
      refusedKeyTtlMs: config.protection.refusedKeyTtlMs,
    },
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
    maxOperationComputeUnits: config.maxOperationComputeUnits,
    ...(config.clientComputeUnitsPerMinute !== undefined ? { clientComputeUnits: { perMinute: config.clientComputeUnitsPerMinute, ...(wiring.redis ? { redis: wiring.redis } : {}) } } : {}),
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
    ...(config.webhookPublicUrl ? { liveActivity: { publicUrl: config.webhookPublicUrl } } : {}),
  };
}

/** The HTTP edge's limits (each field names its variable: see `src/server/settings.ts`). */
export interface EdgeLimits {
  /** `MAX_BODY_BYTES`. */
  maxBodyBytes: number;
  /** `MAX_RESPONSE_BYTES`. */
  maxResponseBytes: number;
  /** `MAX_VALIDATION_COMPLEXITY`. */
  maxValidationComplexity: number;
  /** `MAX_CONCURRENT_OPERATIONS`. */
  maxConcurrentOperations: number;
  /** `MAX_QUEUED_OPERATIONS`. */
  maxQueuedOperations: number;
  /** `MAX_QUEUE_WAIT_MS`. */
  maxQueueWaitMs: number;
  /** `MAX_SUBSCRIPTIONS`. */
  maxSubscriptions: number;
  /** `WS_MAX_OPERATIONS_PER_SOCKET`. */
  wsMaxOperationsPerSocket: number;
  /** `WS_CONNECTION_INIT_TIMEOUT_MS`. */
  wsConnectionInitTimeoutMs: number;
  /** `MAX_TOPICS`. */
  maxTopics: number;
  /** `MAX_TOPICS_PER_CLIENT`: undefined for a quarter of `maxTopics`. */
  maxTopicsPerClient?: number;
  /** `MAX_WATCHED_KEYS_PER_CLIENT`: undefined for twice the client's share of topics. */
  maxWatchedKeysPerClient?: number;
  /** `REGISTRATION_GRACE_MS`. */
  registrationGraceMs: number;
  /** `TOPIC_LEASE_TTL_MS`. */
  topicLeaseTtlMs: number;
  /** `MAX_OPERATIONS_PER_CLIENT`. */
  maxOperationsPerClient?: number;
  /** `MAX_SUBSCRIPTIONS_PER_CLIENT`. */
  maxSubscriptionsPerClient?: number;
  /** `MAX_BODY_BYTES_IN_FLIGHT`. */
  maxBodyBytesInFlight: number;
  /** `BODY_TIMEOUT_MS`. */
  bodyTimeoutMs: number;
  /** `MAX_CONNECTIONS`. */
  maxConnections: number;
  /** `MAX_CONNECTIONS_PER_CLIENT`. */
  maxConnectionsPerClient: number;
  /** `WS_MAX_SOCKETS`. */
  wsMaxSockets: number;
  /** `WRITE_TIMEOUT_MS`. */
  writeTimeoutMs: number;
  /** `READY_PROBE_INTERVAL_MS`. */
  readyProbeIntervalMs: number;
}

export interface ProtectionConfig {
  /** `BREAKER_FAILURES`. */
  breakerFailures: number;
  /** `BREAKER_HALF_OPEN_MS`. */
  breakerHalfOpenMs: number;
  /**
   * `RATE_LIMIT_RPS`: requests per second per client (an API key the Data API accepted, else the address). Unset or 0: off.
   * Off by default: behind a proxy without `TRUST_PROXY`, every caller shares the proxy's address
   * and a default limit would throttle the whole fleet as one client.
   */
  rateLimitRps?: number;
  /** `RATE_LIMIT_BURST`. */
  rateLimitBurst?: number;
  /** `RATE_LIMIT_MAX_CLIENTS`. */
  rateLimitMaxClients: number;
  /** `TRUST_PROXY`. */
  trustProxy: number;
  /** `VERIFIED_KEYS_MAX`. */
  maxVerifiedKeys: number;
  /** `VERIFIED_KEY_TTL_MS`. */
  verifiedKeyTtlMs: number;
  /** `REFUSED_KEY_TTL_MS`. */
  refusedKeyTtlMs: number;
  /** `UPSTREAM_MAX_RPS`. */
  upstreamMaxRps?: number;
  /** `UPSTREAM_RATE_MAX_WAIT_MS`. */
  upstreamRateMaxWaitMs: number;
  /** `UPSTREAM_COMPUTE_UNITS_PER_MINUTE`. */
  upstreamComputeUnitsPerMinute?: number;
}

