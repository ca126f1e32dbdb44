/**
 * Every environment variable chaingraph reads, once: its type, default, bounds and what it does. The
 * parsing and validation of each follow from its row (a generic parser per type), the README's
 * configuration table is generated from the rows (`npm run config:docs`), and `configFromEnv` turns the
 * parsed values into a `GatewayConfig`. Adding a setting is one row here plus where it is used.
 */
import { MEMORY_CACHE_DEFAULTS } from '../upstream/cache-memory.ts';
import { RESPONSE_CACHE_DEFAULTS } from '../gateway/plugins/use-response-cache.ts';
import { parseCursorSecrets } from '../schema/pagination.ts';
import { parseDataApiUrl, parseHttpUrl, parseNodeUrls } from '../upstream/node-client.ts';
import { ADMISSION_DEFAULTS } from '../gateway/plugins/use-admission-control.ts';
import { EDGE_POLICY_DEFAULTS } from '../gateway/plugins/edge-policy.ts';
import { CONNECTION_DEFAULTS } from './drain.ts';
import { REQUEST_LIMITS_DEFAULTS } from '../gateway/plugins/use-request-limits.ts';
import { RESPONSE_LIMIT_DEFAULTS } from '../gateway/plugins/use-response-limit.ts';
import { VALIDATION_LIMIT_DEFAULTS } from '../gateway/plugins/use-validation-limit.ts';
import { BREAKER_DEFAULTS } from '../upstream/breaker.ts';
import { UPSTREAM_RATE_DEFAULTS } from '../upstream/upstream-rate.ts';
import { RATE_LIMIT_DEFAULTS } from '../gateway/plugins/use-rate-limit.ts';
import { QUERY_COST_DEFAULTS } from '../gateway/plugins/use-query-cost.ts';
import { CLIENT_IDENTITY_DEFAULTS } from '../gateway/plugins/client-identity.ts';
import { METRICS_DEFAULTS } from '../gateway/metrics/registry.ts';
import { APQ_DEFAULTS } from '../gateway/plugins/use-persisted-documents.ts';
import { GRAPHQL_WS_DEFAULTS } from './graphql-ws.ts';
import { TOPICS_DEFAULTS } from '../loaders/topics.ts';
import { parseCorsOrigins } from '../gateway/plugins/use-cors-policy.ts';
import { urlSecrets } from '../lib/redact.ts';

/** A setting the process cannot start with: the message names the variable, what is wrong and what it expects. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** One row of the table: how a variable is read, and how the README describes it. */
export interface Setting<T> {
  /** The kind of value, as the README shows it. */
  readonly type: string;
  /** The value when the variable is unset or empty. */
  readonly fallback: T;
  /** The default as an operator reads it (`unset: off`, `16777216 (16 MiB)`...). */
  readonly defaultText: string;
  /** What it does, for the person setting it. */
  readonly description: string;
  /** Its value (or its parts: {@link Setting.secretsOf}) is hidden from every log line and error message, its own errors included. */
  readonly secret: boolean;
  /** The value of a set, non-empty variable; throws a {@link ConfigError} naming the variable. */
  parse(raw: string, name: string): T;
  /** Who reads it when chaingraph's code does not (the start script, a library): it is documented and its secrets hidden all the same. */
  readonly readBy?: string;
  /** The secrets a raw value holds (a key, each entry of a list, the credentials in a URL): read unvalidated, before any logger exists. */
  secretsOf?(raw: string): string[];
}

const MIB = 1024 * 1024;

function shown(raw: string, secret: boolean): string {
  return secret ? 'a value (hidden: it is a secret)' : `"${raw.slice(0, 100)}"`;
}

function bytesText(value: number): string {
  const size = value >= MIB && value % MIB === 0 ? ` (${value / MIB} MiB)` : value >= 1024 && value % 1024 === 0 ? ` (${value / 1024} KiB)` : '';
  return `\`${value}\`${size}`;
}

interface IntBounds {
  /** Smallest accepted value. Default 1. */
  min?: number;
  max?: number;
  /** What the integer counts, shown in the README. */
  unit?: 'bytes' | 'ms';
  /** The README's default, when it is not the fallback itself. */
  defaultText?: string;
}

function intType(bounds: IntBounds): string {
  const { min = 1, max, unit } = bounds;
  return `${unit ?? 'integer'}, ${max === undefined ? `≥ ${min}` : `${min}–${max}`}`;
}

function readInt(raw: string, name: string, bounds: IntBounds): number {
  const { min = 1, max } = bounds;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || (max !== undefined && value > max)) {
    throw new ConfigError(`${name} must be an integer ${max === undefined ? `of at least ${min}` : `from ${min} to ${max}`}, got ${shown(raw, false)}`);
  }
  return value;
}

/** An integer within bounds (Number's syntax: `1e3` and `0x10` read as numbers). */
function int(description: string, fallback: number, bounds: IntBounds = {}): Setting<number> {
  const defaultText = bounds.defaultText ?? (bounds.unit === 'bytes' ? bytesText(fallback) : `\`${fallback}\``);
  return { type: intType(bounds), fallback, defaultText, description, secret: false, parse: (raw, name) => readInt(raw, name, bounds) };
}

/** An integer within bounds whose default is derived elsewhere: undefined when unset. */
function optionalInt(description: string, defaultText: string, bounds: IntBounds = {}): Setting<number | undefined> {
  return { type: intType(bounds), fallback: undefined, defaultText, description, secret: false, parse: (raw, name) => readInt(raw, name, bounds) };
}

function port(description: string, fallback: number): Setting<number> {
  return {
    type: 'port, 0–65535',
    fallback,
    defaultText: `\`${fallback}\``,
    description,
    secret: false,
    parse: (raw, name) => {
      const value = Number(raw);
      if (!Number.isInteger(value) || value < 0 || value > 65535) throw new ConfigError(`${name} must be a port number (0 to 65535), got ${shown(raw, false)}`);
      return value;
    },
  };
}

/** A number above 0, fractions allowed. */
function positiveNumber(description: string, fallback: number): Setting<number> {
  return {
    type: 'number, > 0',
    fallback,
    defaultText: `\`${fallback}\``,
    description,
    secret: false,
    parse: (raw, name) => {
      const value = Number(raw);
      if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a number above 0, got ${shown(raw, false)}`);
      return value;
    },
  };
}

/** A rate above 0, fractions allowed; `0` (or unset) is off. */
function rate(description: string, defaultText: string): Setting<number | undefined> {
  return {
    type: 'number, > 0 (0: off)',
    fallback: undefined,
    defaultText,
    description,
    secret: false,
    parse: (raw, name) => {
      if (raw === '0') return undefined;
      const value = Number(raw);
      if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${name} must be a number above 0 (or 0 for off), got ${shown(raw, false)}`);
      return value;
    },
  };
}

/** One of a few words. */
function oneOf<const V extends string>(values: readonly V[], description: string, defaultText: string): Setting<V | undefined> {
  const expected = values.length > 1 ? `${values.slice(0, -1).join(', ')} or ${values.at(-1)}` : String(values[0]);
  return {
    type: values.join(' | '),
    fallback: undefined,
    defaultText,
    description,
    secret: false,
    parse: (raw, name) => {
      if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be ${expected}, got ${shown(raw, false)}`);
      return raw as V;
    },
  };
}

function flag(yes: string, no: string, description: string, fallback: boolean): Setting<boolean> {
  const word = oneOf([yes, no], description, `\`${fallback ? yes : no}\``);
  return { ...word, fallback, parse: (raw, name) => word.parse(raw, name) === yes };
}

const onOff = (description: string, fallback: boolean) => flag('on', 'off', description, fallback);
const trueFalse = (description: string, fallback: boolean) => flag('true', 'false', description, fallback);

/** Free text, used as given. */
function text(description: string, fallback: string, type = 'string'): Setting<string> {
  return { type, fallback, defaultText: `\`${fallback}\``, description, secret: false, parse: (raw) => raw };
}

/** Free text without a default, used as given. */
function optionalText(description: string, defaultText: string, type = 'string'): Setting<string | undefined> {
  return { type, fallback: undefined, defaultText, description, secret: false, parse: (raw) => raw };
}

/** A key or token: never logged, never repeated by an error. */
function secret(description: string, defaultText: string, secretsOf: (raw: string) => string[] = (raw) => [raw], type = 'string'): Setting<string | undefined> {
  return { type, fallback: undefined, defaultText, description, secret: true, parse: (raw) => raw, secretsOf };
}

/**
 * A value with a grammar of its own (a URL, a list): `parse` throws an Error whose message names the
 * variable already (the parsers are shared with code that reports the same mistakes); it becomes a ConfigError.
 */
function parsed<T>(type: string, description: string, defaultText: string, fallback: T, parse: (raw: string, name: string) => T, secretsOf?: (raw: string) => string[]): Setting<T> {
  return {
    type,
    fallback,
    defaultText,
    description,
    secret: false,
    parse: (raw, name) => {
      try {
        return parse(raw, name);
      } catch (error) {
        if (error instanceof ConfigError) throw error;
        throw new ConfigError(error instanceof Error ? error.message : String(error));
      }
    },
    ...(secretsOf ? { secretsOf } : {}),
  };
}

/** An http(s) URL, trimmed; blank is unset. */
function httpUrl(raw: string, name: string): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`${name} must be an http(s) URL, got "${value}"`);
  return value;
}

const list = (raw: string) => raw.split(',').map((entry) => entry.trim());

/** A percent-encoded value decoded (the redactor then finds it in either form); as is when malformed. */
function decoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The values of `key=value,...` headers, as the OTLP exporter reads them. */
const headerValues = (raw: string) => list(raw).map((entry) => decoded(entry.slice(entry.indexOf('=') + 1).trim()));
const inUrls = (raw: string) => urlSecrets(raw);

export const DEFAULT_SERVICE_NAME = 'chaingraph';
/** Default of `SHUTDOWN_GRACE_MS`. */
export const SHUTDOWN_GRACE_MS_DEFAULT = 10_000;

/** `WEBHOOK_PUBLIC_URL`: an http(s) URL with a path of its own (not `/graphql`, `/ready`...), no query. */
function parseWebhookUrl(raw: string): string {
  const url = parseHttpUrl(raw.trim(), 'WEBHOOK_PUBLIC_URL');
  if (url.search || url.hash) throw new ConfigError('WEBHOOK_PUBLIC_URL must have no query or fragment: the path alone names the delivery endpoint');
  if (['/', '/graphql', '/ready', '/health', '/metrics'].includes(url.pathname.replace(/\/+$/, '') || '/')) {
    throw new ConfigError(`WEBHOOK_PUBLIC_URL needs a path of its own (for example ${url.origin}/webhooks/data-api), not ${url.pathname}`);
  }
  return url.href;
}

/** The table: one row per variable, in the order the README lists them. */
export const SETTINGS = {
  PORT: port('where the gateway listens (0: any free port); GraphiQL and the endpoint are at `/graphql`', 4000),
  HOST: text('address the gateway listens on', '127.0.0.1', 'host'),
  DATA_API_URL: parsed('http(s) URL', 'base URL of the Chain Data REST API (a trailing `/v1` is dropped: chaingraph adds it)', 'unset: built-in devnet', undefined as string | undefined, (raw) => parseDataApiUrl(raw), inUrls),
  DATA_API_KEY: secret("the server's Data API key, sent on every upstream call; never logged or returned", 'unset'),
  DATA_API_KEY_HEADER: text("header carrying the key, upstream and from callers (a caller's own key replaces the server's for their calls)", 'x-service-api-key', 'header name'),
  NODE_URLS: parsed('list of `name=url`', '`name=url` pairs, comma separated (a bare URL is named `default`)', "unset: no nodes (node fields answer `NODE_NOT_CONFIGURED`); with `DATA_API_URL` unset too, the devnet's `mainnet` and `fuji`", [] as { name: string; url: string }[], (raw) => parseNodeUrls(raw), inUrls),
  DEVNET_COMPUTE_UNITS_PER_MINUTE: optionalInt(
    "on the built-in devnet (and `npm run devnet`): compute units each Data API key, else each client address, may spend a minute, each call weighing its operation's tier in the spec; beyond, 429 with `Retry-After`, as the real Data API limits a plan",
    'unset: no limit (calls billed, headers announce `20000`, the Pro tier)',
  ),
  ADMIN_TOKEN: secret('callers sending `authorization: Bearer <token>` may call the admin mutations and the admin reads (`loggerLevels`, `chainAliases`)', 'unset: admin calls answer `ADMIN_DISABLED`'),
  REDIS_URL: parsed(
    'redis URL',
    "shared by several replicas: the cache of upstream answers (each replica keeps the hot ones parsed in front of it), the upstream rate ceiling, and the subscriptions' pollers (one replica polls each topic; events over Redis pub/sub)",
    'unset: in-memory LRU',
    undefined as string | undefined,
    (raw) => raw,
    inUrls,
  ),
  CACHE: oneOf(['memory', 'redis', 'off'], '`off` disables the cache of upstream answers (and with it the whole-response cache); `redis` needs `REDIS_URL`', '`memory` (`redis` when `REDIS_URL` is set)'),
  CACHE_MAX_BYTES: int('byte budget of the in-memory cache of upstream answers (held parsed and frozen; counted as their estimated heap, plus 256 B per entry); with Redis, a quarter of it is each replica\'s local parsed store', MEMORY_CACHE_DEFAULTS.maxBytes, { min: 1024, unit: 'bytes' }),
  RESPONSE_CACHE: onOff(
    "`off` disables the whole-response cache: an identical query (text, operation name, variables, caller's key) is answered with the response already made, until the earliest expiry of the upstream answers it read; never errors, mutations, uncached reads (admin, export status) or callers with an `authorization` header. Always off with `CACHE=off`",
    true,
  ),
  RESPONSE_CACHE_MAX_BYTES: int('byte budget of the whole-response cache (per replica)', RESPONSE_CACHE_DEFAULTS.maxBytes, { min: 0, unit: 'bytes' }),
  COMPILED_EXECUTION: onOff(
    "queries run as code compiled for them (graphql-jit) from their second execution, within an 8 MiB budget of compiled queries; `off` runs everything in graphql-js's interpreter. Mutations, subscriptions, introspection and very wide documents (over 300 compiled fields) are always interpreted",
    true,
  ),
  CURSOR_SECRET: {
    ...parsed(
      'list',
      'secrets that sign cursors, comma separated, each at least 32 characters; the first signs, all verify (rotate by prepending). Replicas behind one load balancer must share it',
      'unset: a random secret per process (on the built-in devnet, a fixed development secret, so cursors survive a restart)',
      undefined as string[] | undefined,
      (raw) => parseCursorSecrets(raw),
      list,
    ),
    secret: true,
  },
  MAX_QUERY_COST: positiveNumber('estimated upstream calls above which a query is refused with `QUERY_TOO_COSTLY`; also the cap of its run-time budget', 500),
  MAX_OPERATION_COMPUTE_UNITS: int(
    "estimated Data API compute units (the spec's weights: free 1, small 10, medium 20, large 50, xl 100, xxl 200 per call) above which an operation, or one subscription event, is refused with `QUERY_TOO_COSTLY` before any call; also the cap of its run-time budget",
    QUERY_COST_DEFAULTS.maxComputeUnits,
  ),
  CLIENT_COMPUTE_UNITS_PER_MINUTE: optionalInt(
    'compute units one client (a key the Data API accepted, else its address) may spend per minute, all replicas together with `REDIS_URL`: each operation reserves its estimate before any call and gets back what it did not spend; 429 `RATE_LIMITED` with `Retry-After` when it does not fit',
    'unset: off',
  ),
  UPSTREAM_COMPUTE_UNITS_PER_MINUTE: optionalInt(
    "ceiling on the compute units the server's key (`DATA_API_KEY`) spends per minute, all replicas together with `REDIS_URL`, kept in step with the Data API's `ratelimit-remaining`; a call over it waits up to `UPSTREAM_RATE_MAX_WAIT_MS`, else `UPSTREAM_RATE_LIMITED` unsent. Set it below the key's plan limit. After a 429 every replica holds its calls with that key for its `retry-after`, set or not",
    'unset: off',
  ),
  MAX_BODY_BYTES: int('largest request body, counted while it streams (413 `PAYLOAD_TOO_LARGE`)', REQUEST_LIMITS_DEFAULTS.maxBodyBytes, { unit: 'bytes' }),
  MAX_RESPONSE_BYTES: int('largest serialized response (`RESPONSE_TOO_LARGE` instead of the data)', RESPONSE_LIMIT_DEFAULTS.maxResponseBytes, { unit: 'bytes' }),
  MAX_CONCURRENT_OPERATIONS: int('queries and mutations executing at once, each from execution to the last byte of its answer written', ADMISSION_DEFAULTS.maxConcurrent),
  MAX_QUEUED_OPERATIONS: int('requests waiting for a slot; beyond, 503 `SERVER_BUSY` with `Retry-After`', ADMISSION_DEFAULTS.maxQueued, { min: 0 }),
  MAX_QUEUE_WAIT_MS: int('longest wait for a slot; beyond, 503 `SERVER_BUSY` with `Retry-After`', ADMISSION_DEFAULTS.maxWaitMs, { min: 0, unit: 'ms' }),
  MAX_SUBSCRIPTIONS: int('live subscriptions (`SERVER_BUSY` beyond)', ADMISSION_DEFAULTS.maxSubscriptions, { min: 0 }),
  MAX_OPERATIONS_PER_CLIENT: optionalInt('operations one client (its API key once the Data API accepted it, else its address) may have executing at once', 'half of `MAX_CONCURRENT_OPERATIONS`'),
  MAX_SUBSCRIPTIONS_PER_CLIENT: optionalInt('live subscriptions of one client (its API key once the Data API accepted it, else its address)', 'half of `MAX_SUBSCRIPTIONS`'),
  MAX_BODY_BYTES_IN_FLIGHT: int('request bodies being read at once (503 `SERVER_BUSY` beyond)', EDGE_POLICY_DEFAULTS.maxBodyBytesInFlight, { min: 1024, unit: 'bytes' }),
  BODY_TIMEOUT_MS: int('how long a whole request, body included, may take to arrive (408)', 10_000, { min: 100, unit: 'ms' }),
  WRITE_TIMEOUT_MS: int('a connection whose unsent response bytes stop leaving for this long is closed (a client that does not read)', CONNECTION_DEFAULTS.writeTimeoutMs, { min: 100, unit: 'ms' }),
  MAX_CONNECTIONS: int('open connections, WebSockets included; at the cap the longest idle one makes room', CONNECTION_DEFAULTS.maxConnections),
  MAX_CONNECTIONS_PER_CLIENT: int('open connections from one address; at the cap its longest idle one makes room', CONNECTION_DEFAULTS.maxConnectionsPerClient),
  WS_MAX_SOCKETS: int('open graphql-ws sockets; at the cap the longest idle one makes room', GRAPHQL_WS_DEFAULTS.maxSockets),
  WS_MAX_OPERATIONS_PER_SOCKET: int('graphql-ws: operations at once on one socket (`SERVER_BUSY` beyond)', GRAPHQL_WS_DEFAULTS.maxOperationsPerSocket),
  WS_CONNECTION_INIT_TIMEOUT_MS: int('graphql-ws: how long a socket may wait before `connection_init`', GRAPHQL_WS_DEFAULTS.connectionInitTimeoutMs, { unit: 'ms' }),
  MAX_VALIDATION_COMPLEXITY: int('field comparisons validation may take (400 `QUERY_TOO_COMPLEX` beyond)', VALIDATION_LIMIT_DEFAULTS.maxComplexity),
  MAX_TOPICS: int('subscription topics (one shared poller each) per replica', TOPICS_DEFAULTS.maxTopics),
  MAX_TOPICS_PER_CLIENT: optionalInt(
    "distinct subscription topics one client (its API key once the Data API accepted it, else its address) may hold per replica: each chain's `blocks`, each node's health, each address or node a live-activity subscription watches (a topic held twice counts once); beyond, `SERVER_BUSY` before any upstream call",
    'a quarter of `MAX_TOPICS`',
  ),
  MAX_WATCHED_KEYS_PER_CLIENT: optionalInt(
    "topics one client's live subscriptions watch per replica, counted per subscription (a live-activity subscription of 100 addresses watches 100, the same address in two subscriptions counts twice); beyond, `SERVER_BUSY` before any upstream call",
    'twice `MAX_TOPICS_PER_CLIENT`',
  ),
  REGISTRATION_GRACE_MS: int(
    "how long a live-activity key (its webhook registration) stays registered after its last subscriber left, so a subscription closed and opened again reuses it with no upstream call; lingering keys hold no client's share and make room for new topics at `MAX_TOPICS`. 0: given back at once",
    TOPICS_DEFAULTS.lingerMs,
    { min: 0, unit: 'ms' },
  ),
  TOPIC_LEASE_TTL_MS: int("with `REDIS_URL`, how long a replica's lease on a topic's poller lasts without renewal (the takeover time)", TOPICS_DEFAULTS.leaseTtlMs, { min: 300, unit: 'ms' }),
  READY_PROBE_INTERVAL_MS: int('how long `/ready` reuses its last look at the Data API', 5000, { min: 0, unit: 'ms' }),
  WARM_UP_MS: int('at start, the longest the gateway runs its example and persisted operations over recorded answers (no upstream call) before `/ready` says ready; it stops sooner once they stop getting faster. 0: ready at once, serving cold', 3000, { min: 0, unit: 'ms' }),
  CORS_ORIGINS: parsed('`*` or list of origins', 'origins allowed to call from a browser (comma separated `scheme://host[:port]`, or `*` for any, never with credentials)', '`*`', '*' as '*' | string[], (raw) => parseCorsOrigins(raw)),
  CORS_CREDENTIALS: trueFalse('`true` sends credentials to the origins of `CORS_ORIGINS` (which must then list them)', false),
  ALLOW_FORM_POSTS: trueFalse('`true` also runs form-encoded and multipart POSTs (queries only); otherwise only JSON bodies run', false),
  GATEWAY_HEAP_MB: {
    ...optionalText(
      'V8 old-space limit `npm start` gives the gateway; `npm run heap:explain` prints the arithmetic (docs/operations.md, "Memory, by construction")',
      'computed from the limits above (2624 with the defaults and the in-process devnet)',
      'MiB',
    ),
    readBy: 'the `npm start` script',
  },
  WEBHOOK_PUBLIC_URL: parsed(
    'http(s) URL',
    "where the Data API delivers webhook events for the live-activity subscriptions (`addressActivity`, `primaryNetworkActivity`, `validatorActivity`): this gateway's address as the Data API reaches it, with the path it takes deliveries on; its webhooks belong to `DATA_API_KEY`",
    "unset: live activity off (on the built-in devnet: this gateway's own `/webhooks/data-api`)",
    undefined as string | undefined,
    (raw) => parseWebhookUrl(raw),
    inUrls,
  ),
  READY_PROBE: oneOf(['chains', 'live-check'], 'what `/ready` asks the Data API: `chains` (its chain list, the cheapest data call) or `live-check` (its own liveness operation)', '`chains`'),
  SHUTDOWN_GRACE_MS: int('on SIGTERM/SIGINT, how long in-flight requests may take to finish before they are aborted (exit 1)', SHUTDOWN_GRACE_MS_DEFAULT, { min: 0, unit: 'ms' }),
  BREAKER_FAILURES: int("consecutive failed attempts (timeouts, network errors, 5xx) that open an upstream's or a node's circuit", BREAKER_DEFAULTS.failures),
  BREAKER_HALF_OPEN_MS: int('how long an open circuit stays open before one probe', BREAKER_DEFAULTS.halfOpenAfterMs, { min: 0, unit: 'ms' }),
  RATE_LIMIT_RPS: rate(
    "per-client request rate (keyed by a digest of the caller's API key once the Data API accepted it, else the client address): 429 `RATE_LIMITED` + `Retry-After` beyond it. Off by default: behind a proxy without `TRUST_PROXY` every caller would share one limit",
    'unset: off',
  ),
  RATE_LIMIT_BURST: optionalInt('requests a client may send at once under `RATE_LIMIT_RPS`', '2 × `RATE_LIMIT_RPS`'),
  RATE_LIMIT_MAX_CLIENTS: int('clients tracked by the rate limit (least recently seen forgotten first)', RATE_LIMIT_DEFAULTS.maxClients),
  TRUST_PROXY: int("number of proxies in front: the client address is then the n-th `x-forwarded-for` entry from the right, else the socket's peer", RATE_LIMIT_DEFAULTS.trustProxy, { min: 0 }),
  VERIFIED_KEYS_MAX: int(
    "caller API keys remembered as accepted (a digest each; the least recently used forgotten first): a key is a client of its own for the per-client limits only after the Data API answered a call carrying it with a 2xx, until then it counts against its address",
    CLIENT_IDENTITY_DEFAULTS.maxVerifiedKeys,
  ),
  VERIFIED_KEY_TTL_MS: int('how long an accepted key stays a client of its own after its last use (shared by the replicas with `REDIS_URL`)', CLIENT_IDENTITY_DEFAULTS.verifiedKeyTtlMs, { unit: 'ms' }),
  REFUSED_KEY_TTL_MS: int(
    'how long a key the Data API refused (401, 403) is answered 401 `UNAUTHENTICATED` with `Retry-After`, without asking the Data API again (shared by the replicas with `REDIS_URL`)',
    CLIENT_IDENTITY_DEFAULTS.refusedKeyTtlMs,
    { unit: 'ms' },
  ),
  UPSTREAM_MAX_RPS: int("ceiling on the gateway's own requests per second to each upstream, shared by every replica through Redis when `REDIS_URL` is set", 0, { min: 0, defaultText: 'unset (0): off' }),
  UPSTREAM_RATE_MAX_WAIT_MS: int('how long a call waits for its turn under `UPSTREAM_MAX_RPS`, else `UPSTREAM_RATE_LIMITED` unsent', UPSTREAM_RATE_DEFAULTS.maxWaitMs, { min: 0, unit: 'ms' }),
  METRICS_TOKEN: secret('when set, `/metrics` needs `authorization: Bearer <token>`', 'unset: `/metrics` open'),
  METRICS_MAX_OPERATION_NAMES: int('distinct operation names used as metric labels (the rest are `other`)', METRICS_DEFAULTS.maxOperationNames, { min: 0 }),
  OTEL_EXPORTER_OTLP_ENDPOINT: parsed('http(s) URL', 'OpenTelemetry traces over OTLP/HTTP, POSTed to its `/v1/traces`', 'unset: tracing off', undefined as string | undefined, httpUrl),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: parsed('http(s) URL', 'where traces are POSTed, used as is (in place of `OTEL_EXPORTER_OTLP_ENDPOINT`)', 'unset', undefined as string | undefined, httpUrl),
  OTEL_EXPORTER_OTLP_HEADERS: { ...secret('headers sent with every export, `key=value` comma separated', 'unset', headerValues, 'list'), readBy: 'the OTLP exporter' },
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: { ...secret('headers sent with trace exports, as `OTEL_EXPORTER_OTLP_HEADERS`', 'unset', headerValues, 'list'), readBy: 'the OTLP exporter' },
  OTEL_SERVICE_NAME: parsed('string', 'the `service.name` of the traces', `\`${DEFAULT_SERVICE_NAME}\``, DEFAULT_SERVICE_NAME, (raw) => raw.trim() || DEFAULT_SERVICE_NAME),
  OTEL_SDK_DISABLED: parsed('true | false', '`true` turns tracing off even with an endpoint (any other value: on, as the SDK reads it)', '`false`', false, (raw) => raw.trim().toLowerCase() === 'true'),
  OTEL_TRACES_EXPORTER: parsed('string', '`none` turns tracing off even with an endpoint; the SDK\'s other `OTEL_*` variables (sampler, batch sizes, resource attributes) apply as it reads them', '`otlp`', '', (raw) => raw.trim().toLowerCase()),
  APQ: onOff('automatic persisted queries (a store per replica, LRU by bytes, 128 KiB per query at most; off when `ONLY_PERSISTED=true`)', true),
  APQ_MAX_BYTES: int('byte budget of the automatic persisted queries kept', APQ_DEFAULTS.maxBytes, { min: 1024, unit: 'bytes' }),
  PERSISTED_OPERATIONS: optionalText(
    "path of a trusted-documents manifest, read at start (`{ \"<id>\": \"<query>\" }` as codegen's client preset writes it, or Apollo's `apollo-persisted-query-manifest`); a bad file stops the start",
    'unset',
    'file path',
  ),
  ONLY_PERSISTED: trueFalse("`true`: only the manifest's operations run (needs `PERSISTED_OPERATIONS`); any query text is refused with `PERSISTED_QUERY_ONLY` before it is parsed", false),
  LOG_LEVEL: text('pino log level', 'info', 'pino level'),
  LOG_FORMAT: optionalText('`pretty` (pino-pretty, for people) or `json` (one JSON object per line, for log shippers)', '`pretty` on a terminal, else `json`', 'pretty | json'),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
/** Each variable's parsed value. */
export type Settings = { -readonly [K in SettingName]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never };

type Env = Readonly<Record<string, string | undefined>>;

/** One variable's value: its row's fallback when unset or empty, else its parsed value. */
export function readSetting<K extends SettingName>(env: Env, name: K): Settings[K] {
  const row: Setting<unknown> = SETTINGS[name];
  const raw = env[name];
  return (raw === undefined || raw === '' ? row.fallback : row.parse(raw, name)) as Settings[K];
}

/** Every variable's value; the first bad one throws its {@link ConfigError}. */
export function readSettings(env: Env): Settings {
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) values[name] = readSetting(env, name);
  return values as Settings;
}

/**
 * Every secret value among the settings, read raw (no validation, so the logger made before the
 * configuration is parsed can hide them from the very error that reports a bad setting): the secret
 * rows' values (each entry of a list, each header's value) and the credentials inside URL settings.
 */
export function secretsFromEnv(env: Env = process.env): string[] {
  const rows = Object.entries(SETTINGS) as [SettingName, Setting<unknown>][];
  return rows.flatMap(([name, row]) => {
    const raw = env[name];
    return raw && row.secretsOf ? row.secretsOf(raw).filter(Boolean) : [];
  });
}

/** The README's configuration table: one line per variable. */
export function settingsMarkdown(): string {
  const cell = (text: string) => text.replaceAll('\n', ' ').replaceAll('|', '\\|');
  const rows = (Object.entries(SETTINGS) as [SettingName, Setting<unknown>][]).map(
    ([name, row]) => `| \`${name}\` | ${cell(row.type)}${row.secret ? ' (secret)' : ''} | ${cell(row.defaultText)} | ${cell(row.description)}${row.readBy ? ` (read by ${row.readBy})` : ''} |`,
  );
  return ['| Variable | Type | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export const CONFIG_DOCS_START = '<!-- config:start -->';
export const CONFIG_DOCS_END = '<!-- config:end -->';

/** `readme` with the block between the config markers replaced by {@link settingsMarkdown}; throws when a marker is missing. */
export function withSettingsTable(readme: string): string {
  const start = readme.indexOf(CONFIG_DOCS_START);
  const end = readme.indexOf(CONFIG_DOCS_END);
  if (start === -1 || end < start) throw new Error(`the README has no ${CONFIG_DOCS_START} … ${CONFIG_DOCS_END} block`);
  return `${readme.slice(0, start + CONFIG_DOCS_START.length)}\n${settingsMarkdown()}\n${readme.slice(end)}`;
}
