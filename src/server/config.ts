import { MEMORY_CACHE_DEFAULTS } from '../upstream/cache-memory.ts';
import { RESPONSE_CACHE_DEFAULTS } from '../gateway/plugins/use-response-cache.ts';
import { parseCursorSecrets } from '../schema/pagination.ts';
import { parseDataApiUrl, parseNodeUrls } from '../upstream/node-client.ts';
import { telemetryFromEnv, type TelemetryConfig } from './telemetry.ts';
import { ADMISSION_DEFAULTS } from '../gateway/plugins/use-admission-control.ts';
import { EDGE_POLICY_DEFAULTS } from '../gateway/plugins/edge-policy.ts';
import { CONNECTION_DEFAULTS } from './drain.ts';
import { REQUEST_LIMITS_DEFAULTS } from '../gateway/plugins/use-request-limits.ts';
import { RESPONSE_LIMIT_DEFAULTS } from '../gateway/plugins/use-response-limit.ts';
import { VALIDATION_LIMIT_DEFAULTS } from '../gateway/plugins/use-validation-limit.ts';
import { BREAKER_DEFAULTS } from '../upstream/breaker.ts';
import { UPSTREAM_RATE_DEFAULTS } from '../upstream/upstream-rate.ts';
import { RATE_LIMIT_DEFAULTS } from '../gateway/plugins/use-rate-limit.ts';
import { METRICS_DEFAULTS } from '../gateway/metrics/registry.ts';
import { APQ_DEFAULTS, loadPersistedManifest } from '../gateway/plugins/use-persisted-documents.ts';
import { GRAPHQL_WS_DEFAULTS } from './graphql-ws.ts';
import { TOPICS_DEFAULTS } from '../loaders/topics.ts';
import { parseCorsOrigins } from '../gateway/plugins/use-cors-policy.ts';
import { urlSecrets } from '../lib/redact.ts';

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

/** Default of `SHUTDOWN_GRACE_MS`. */
export const SHUTDOWN_GRACE_MS_DEFAULT = 10_000;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = Number(env['PORT'] ?? 4000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env['PORT']}"`);
  const maxQueryCost = Number(env['MAX_QUERY_COST'] ?? 500);
  if (!Number.isFinite(maxQueryCost) || maxQueryCost <= 0) throw new Error('MAX_QUERY_COST must be a positive number');
  return {
    port,
    host: env['HOST'] ?? '127.0.0.1',
    ...(env['DATA_API_URL'] ? { dataApiUrl: parseDataApiUrl(env['DATA_API_URL']) } : {}),
    ...(env['DATA_API_KEY'] ? { dataApiKey: env['DATA_API_KEY'] } : {}),
    dataApiKeyHeader: env['DATA_API_KEY_HEADER'] || 'x-service-api-key',
    nodes: env['NODE_URLS'] ? parseNodeUrls(env['NODE_URLS']) : [],
    ...(env['ADMIN_TOKEN'] ? { adminToken: env['ADMIN_TOKEN'] } : {}),
    ...cursorSecretsFrom(env['CURSOR_SECRET']),
    ...(env['REDIS_URL'] ? { redisUrl: env['REDIS_URL'] } : {}),
    cache: cacheMode(env['CACHE'], Boolean(env['REDIS_URL'])),
    cacheMaxBytes: positiveInteger(env, 'CACHE_MAX_BYTES', MEMORY_CACHE_DEFAULTS.maxBytes, 1024),
    responseCacheMaxBytes: responseCacheBytes(env),
    compiledExecution: onOff(env, 'COMPILED_EXECUTION', true),
    maxQueryCost,
    limits: edgeLimitsFromEnv(env),
    protection: protectionFromEnv(env),
    logLevel: env['LOG_LEVEL'] ?? 'info',
    telemetry: telemetryFromEnv(env),
    shutdownGraceMs: positiveInteger(env, 'SHUTDOWN_GRACE_MS', SHUTDOWN_GRACE_MS_DEFAULT, 0),
    metrics: {
      ...(env['METRICS_TOKEN'] ? { token: env['METRICS_TOKEN'] } : {}),
      maxOperationNames: positiveInteger(env, 'METRICS_MAX_OPERATION_NAMES', METRICS_DEFAULTS.maxOperationNames, 0),
    },
    persisted: persistedFromEnv(env),
    cors: corsFromEnv(env),
    allowFormPosts: trueFalse(env, 'ALLOW_FORM_POSTS', false),
    secrets: secretsFromEnv(env),
  };
}

function persistedFromEnv(env: NodeJS.ProcessEnv): PersistedConfig {
  const only = env['ONLY_PERSISTED'] ?? '';
  if (only !== '' && only !== 'true' && only !== 'false') throw new Error(`ONLY_PERSISTED must be true or false, got "${only}"`);
  const manifestPath = env['PERSISTED_OPERATIONS'] || undefined;
  if (only === 'true' && !manifestPath) throw new Error('ONLY_PERSISTED=true needs PERSISTED_OPERATIONS (a manifest of the operations to allow)');
  return {
    apq: onOff(env, 'APQ', true) && only !== 'true',
    apqMaxBytes: positiveInteger(env, 'APQ_MAX_BYTES', APQ_DEFAULTS.maxBytes, 1024),
    ...(manifestPath ? { manifestPath, documents: loadPersistedManifest(manifestPath) } : {}),
    onlyPersisted: only === 'true',
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

function edgeLimitsFromEnv(env: NodeJS.ProcessEnv): EdgeLimits {
  return {
    maxBodyBytes: positiveInteger(env, 'MAX_BODY_BYTES', REQUEST_LIMITS_DEFAULTS.maxBodyBytes),
    maxResponseBytes: positiveInteger(env, 'MAX_RESPONSE_BYTES', RESPONSE_LIMIT_DEFAULTS.maxResponseBytes),
    maxValidationComplexity: positiveInteger(env, 'MAX_VALIDATION_COMPLEXITY', VALIDATION_LIMIT_DEFAULTS.maxComplexity),
    maxConcurrentOperations: positiveInteger(env, 'MAX_CONCURRENT_OPERATIONS', ADMISSION_DEFAULTS.maxConcurrent),
    maxQueuedOperations: positiveInteger(env, 'MAX_QUEUED_OPERATIONS', ADMISSION_DEFAULTS.maxQueued, 0),
    maxQueueWaitMs: positiveInteger(env, 'MAX_QUEUE_WAIT_MS', ADMISSION_DEFAULTS.maxWaitMs, 0),
    maxSubscriptions: positiveInteger(env, 'MAX_SUBSCRIPTIONS', ADMISSION_DEFAULTS.maxSubscriptions, 0),
    wsMaxOperationsPerSocket: positiveInteger(env, 'WS_MAX_OPERATIONS_PER_SOCKET', GRAPHQL_WS_DEFAULTS.maxOperationsPerSocket),
    wsConnectionInitTimeoutMs: positiveInteger(env, 'WS_CONNECTION_INIT_TIMEOUT_MS', GRAPHQL_WS_DEFAULTS.connectionInitTimeoutMs),
    maxTopics: positiveInteger(env, 'MAX_TOPICS', TOPICS_DEFAULTS.maxTopics),
    topicLeaseTtlMs: positiveInteger(env, 'TOPIC_LEASE_TTL_MS', TOPICS_DEFAULTS.leaseTtlMs, 300),
    ...optionalInteger(env, 'MAX_OPERATIONS_PER_CLIENT', 'maxOperationsPerClient'),
    ...optionalInteger(env, 'MAX_SUBSCRIPTIONS_PER_CLIENT', 'maxSubscriptionsPerClient'),
    maxBodyBytesInFlight: positiveInteger(env, 'MAX_BODY_BYTES_IN_FLIGHT', EDGE_POLICY_DEFAULTS.maxBodyBytesInFlight, 1024),
    bodyTimeoutMs: positiveInteger(env, 'BODY_TIMEOUT_MS', 10_000, 100),
    maxConnections: positiveInteger(env, 'MAX_CONNECTIONS', CONNECTION_DEFAULTS.maxConnections),
    maxConnectionsPerClient: positiveInteger(env, 'MAX_CONNECTIONS_PER_CLIENT', CONNECTION_DEFAULTS.maxConnectionsPerClient),
    wsMaxSockets: positiveInteger(env, 'WS_MAX_SOCKETS', GRAPHQL_WS_DEFAULTS.maxSockets),
    writeTimeoutMs: positiveInteger(env, 'WRITE_TIMEOUT_MS', CONNECTION_DEFAULTS.writeTimeoutMs, 100),
    readyProbeIntervalMs: positiveInteger(env, 'READY_PROBE_INTERVAL_MS', 5000, 0),
  };
}

/** `{ [key]: value }` when the variable is set to an integer of at least 1, else nothing (the default is derived elsewhere). */
function optionalInteger<K extends string>(env: NodeJS.ProcessEnv, name: string, key: K): Partial<Record<K, number>> {
  const raw = env[name];
  if (raw === undefined || raw === '') return {};
  return { [key]: positiveInteger(env, name, 1) } as Partial<Record<K, number>>;
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

function protectionFromEnv(env: NodeJS.ProcessEnv): ProtectionConfig {
  const rateLimitRps = positiveNumber(env, 'RATE_LIMIT_RPS');
  const upstreamMaxRps = positiveInteger(env, 'UPSTREAM_MAX_RPS', 0, 0);
  const burst = env['RATE_LIMIT_BURST'];
  return {
    breakerFailures: positiveInteger(env, 'BREAKER_FAILURES', BREAKER_DEFAULTS.failures),
    breakerHalfOpenMs: positiveInteger(env, 'BREAKER_HALF_OPEN_MS', BREAKER_DEFAULTS.halfOpenAfterMs, 0),
    ...(rateLimitRps ? { rateLimitRps } : {}),
    ...(burst !== undefined && burst !== '' ? { rateLimitBurst: positiveInteger(env, 'RATE_LIMIT_BURST', 1) } : {}),
    rateLimitMaxClients: positiveInteger(env, 'RATE_LIMIT_MAX_CLIENTS', RATE_LIMIT_DEFAULTS.maxClients),
    trustProxy: positiveInteger(env, 'TRUST_PROXY', RATE_LIMIT_DEFAULTS.trustProxy, 0),
    ...(upstreamMaxRps > 0 ? { upstreamMaxRps } : {}),
    upstreamRateMaxWaitMs: positiveInteger(env, 'UPSTREAM_RATE_MAX_WAIT_MS', UPSTREAM_RATE_DEFAULTS.maxWaitMs, 0),
  };
}

/** A number above 0, or undefined when unset, empty or 0 (off). */
function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === '0') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a number above 0 (or 0 for off), got "${raw}"`);
  return value;
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) throw new Error(`${name} must be an integer of at least ${min}, got "${raw}"`);
  return value;
}

function cursorSecretsFrom(value: string | undefined): { cursorSecrets?: string[] } {
  const secrets = parseCursorSecrets(value);
  return secrets ? { cursorSecrets: secrets } : {};
}

function responseCacheBytes(env: NodeJS.ProcessEnv): number {
  const mode = env['RESPONSE_CACHE'] ?? '';
  if (mode !== '' && mode !== 'on' && mode !== 'off') throw new Error(`RESPONSE_CACHE must be on or off, got "${mode}"`);
  const bytes = positiveInteger(env, 'RESPONSE_CACHE_MAX_BYTES', RESPONSE_CACHE_DEFAULTS.maxBytes, 0);
  return mode === 'off' || env['CACHE'] === 'off' ? 0 : bytes;
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name] ?? '';
  if (value === '') return fallback;
  if (value !== 'on' && value !== 'off') throw new Error(`${name} must be on or off, got "${value}"`);
  return value === 'on';
}

function cacheMode(value: string | undefined, hasRedis: boolean): GatewayConfig['cache'] {
  if (value === undefined || value === '') return hasRedis ? 'redis' : 'memory';
  if (value === 'off' || value === 'memory' || value === 'redis') {
    if (value === 'redis' && !hasRedis) throw new Error('CACHE=redis needs REDIS_URL');
    return value;
  }
  throw new Error(`CACHE must be memory, redis or off, got "${value}"`);
}

function corsFromEnv(env: NodeJS.ProcessEnv): GatewayConfig['cors'] {
  const origins = parseCorsOrigins(env['CORS_ORIGINS']);
  const credentials = trueFalse(env, 'CORS_CREDENTIALS', false);
  // Credentials for any origin would let every site act as its visitors: only for origins named one by one.
  if (credentials && origins === '*') throw new Error('CORS_CREDENTIALS=true needs CORS_ORIGINS: a comma-separated list of origins (not *)');
  return { origins, credentials };
}

function trueFalse(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const value = env[name] ?? '';
  if (value === '') return fallback;
  if (value !== 'true' && value !== 'false') throw new Error(`${name} must be true or false, got "${value.slice(0, 100)}"`);
  return value === 'true';
}

/**
 * Every secret value among the settings, read raw (no validation, so the logger made before the
 * configuration is parsed can hide them from the very error that reports a bad setting): the keys and
 * tokens (`DATA_API_KEY`, `ADMIN_TOKEN`, each `CURSOR_SECRET` entry, `METRICS_TOKEN`), the header values
 * of `OTEL_EXPORTER_OTLP_(TRACES_)HEADERS`, and the credentials inside `DATA_API_URL`, `NODE_URLS` and `REDIS_URL`.
 */
export function secretsFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const list = (name: string) => (env[name] ?? '').split(',').map((entry) => entry.trim());
  const headerValues = [...list('OTEL_EXPORTER_OTLP_HEADERS'), ...list('OTEL_EXPORTER_OTLP_TRACES_HEADERS')].map((entry) => decoded(entry.slice(entry.indexOf('=') + 1).trim()));
  const values = [env['DATA_API_KEY'], env['ADMIN_TOKEN'], ...list('CURSOR_SECRET'), env['METRICS_TOKEN'], ...headerValues];
  return [...values.filter((value): value is string => Boolean(value)), ...urlSecrets(env['DATA_API_URL'], env['NODE_URLS'], env['REDIS_URL'])];
}

/** A percent-encoded value decoded (the redactor then finds it in either form); as is when malformed. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
