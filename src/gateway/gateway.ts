import { createYoga, useReadinessCheck, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import pino, { type Logger } from 'pino';
import type { Context } from '../schema/context.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createContext } from './context.ts';
import { WARM_UP_UPSTREAM } from './plugins/warm-up-requests.ts';
import { createNodeDirectory, warmNodeDirectory } from '../loaders/registry.ts';
import { useGraphiQLAssets, type GraphiQLAssetsPlugin } from './plugins/use-graphiql-assets.ts';
import { createClientRateLimit, useRateLimit, type ClientRateLimit, type RateLimitOptions } from './plugins/use-rate-limit.ts';
import { useGracefulShutdown } from './plugins/use-graceful-shutdown.ts';
import { createMetrics, type GatewayMetrics, type MetricsOptions, type MetricsSources } from './metrics/registry.ts';
import { useMetrics, type MetricsEndpointOptions } from './metrics/use-metrics.ts';
import { createRequestIds, currentRequestId, useRequestId } from './plugins/use-request-id.ts';
import { useUnexpectedErrors } from './plugins/use-unexpected-errors.ts';
import { useInputValidation } from './plugins/use-input-validation.ts';
import { useProjection } from './plugins/use-projection.ts';
import { useCompiledExecution, type CompiledExecutionOptions } from './plugins/use-compiled-execution.ts';
import { useParseCache, type ParseCacheOptions } from './plugins/use-parse-cache.ts';
import { useValidationLimit } from './plugins/use-validation-limit.ts';
import { opaqueInputChecks } from './plugins/opaque-inputs.ts';
import { useUpstreamErrors, type UpstreamErrorsOptions } from './plugins/use-upstream-errors.ts';
import { useOperationLimits, useQueryCost, type OperationLimitsOptions, type QueryCostOptions } from './plugins/use-query-cost.ts';
import { createClientComputeUnits, type ClientComputeUnitsOptions } from './plugins/client-compute-units.ts';
import type { AdmissionGate } from './plugins/use-admission-control.ts';
import { createEdgePolicy, useEdgePolicy, type EdgePolicy, type EdgePolicyOptions } from './plugins/edge-policy.ts';
import type { ClientIdentity } from './plugins/client-identity.ts';
import { REQUEST_LIMITS_DEFAULTS } from './plugins/use-request-limits.ts';
import { createSharedProbe } from '../lib/shared-probe.ts';
import { useIntrospectionLimit, type IntrospectionLimitOptions } from './plugins/use-introspection-limit.ts';
import { useRequestLimits, type RequestLimitsOptions } from './plugins/use-request-limits.ts';
import { useResponseLimit } from './plugins/use-response-limit.ts';
import { useLoopBudget } from './plugins/use-loop-budget.ts';
import { createLoopBudget } from '../lib/loop-budget.ts';
import { useResponseCache, type ResponseCacheOptions } from './plugins/use-response-cache.ts';
import { useCacheControl, type CacheControlOptions } from './plugins/use-cache-control.ts';
import { createPersistedDocuments, usePersistedDocuments, type PersistedDocuments, type PersistedDocumentsOptions } from './plugins/use-persisted-documents.ts';
import { useVariableErrors } from './plugins/use-variable-errors.ts';
import { useStrictParams } from './plugins/use-strict-params.ts';
import { useUnservableValues } from './plugins/use-unservable-values.ts';
import { useTracing, type TracingOptions } from './plugins/use-tracing.ts';
import { useTopics } from './plugins/use-topics.ts';
import { useWebhookDeliveries } from './plugins/use-webhook-deliveries.ts';
import { useGraphQLSSESingleConnection, type GraphQLSSEOptions } from './plugins/use-graphql-sse.ts';
import { createTopics, type Topics } from '../loaders/topics.ts';
import { createLiveActivity, type ActivityStore, type LiveActivity } from '../loaders/live-activity.ts';
import { getSchema } from '../schema/index.ts';
import { checkRepresentations } from '../schema/federation.ts';
import { createCursorCodec, randomCursorSecret } from '../schema/pagination.ts';
import { projectionOf } from '../schema/projection.ts';
import type { ResponseCache } from '../upstream/cache.ts';
import type { DataApi, NodeClient } from '../upstream/client-types.ts';
import { exampleQueries } from './graphiql-examples.ts';
import { corsOptions, useCorsPolicy, type CorsPolicyOptions } from './plugins/use-cors-policy.ts';
import { useContentTypePolicy } from './plugins/use-content-type-policy.ts';
import { createRedactor, type Redactor } from '../lib/redact.ts';
import { isUpstreamError, upstreamToGraphQLError } from '../errors/graphql.ts';

export interface GatewayOptions {
  /**
   * Secrets that sign cursors (`CURSOR_SECRET`, comma-separated): the first signs, all
   * verify. Replicas behind one load balancer must share them. Default: a random secret
   * made here, so cursors do not survive a restart or cross replicas.
   */
  cursorSecrets?: readonly string[];
  /** Header carrying a caller's own Data API key (default `x-service-api-key`). */
  apiKeyHeader?: string;
  /** Enables admin mutations for callers sending `authorization: Bearer <token>`. */
  adminToken?: string;
  /**
   * Other secrets no error message may repeat (`server.ts` passes every secret setting: `DATA_API_KEY`...);
   * `adminToken`, `cursorSecrets` and the metrics token are added here, and each request adds its own API key.
   * Default none.
   */
  secrets?: readonly string[];
  /** Which origins' pages may read responses (`CORS_ORIGINS`, `CORS_CREDENTIALS`). Default any origin, without credentials. */
  cors?: CorsPolicyOptions;
  /** `ALLOW_FORM_POSTS`: also execute form-encoded and multipart POSTs, queries only. Default false: JSON POSTs and GET only. */
  allowFormPosts?: boolean;
  /** Serve GraphiQL at /graphql (default true). */
  graphiql?: boolean;
  /** Told about each upstream failure that reached a response (the server logs them at warn level). */
  onUpstreamError?: UpstreamErrorsOptions['onUpstreamError'];
  /** The operations GraphiQL opens with (default: `exampleQueries()` with placeholder ids). */
  exampleQueries?: string;
  /** Most estimated upstream calls per operation (`MAX_QUERY_COST`); QUERY_TOO_COSTLY above. Default 500. */
  maxQueryCost?: number;
  /** Most estimated Data API compute units per operation (`MAX_OPERATION_COMPUTE_UNITS`); QUERY_TOO_COSTLY above. Default 20000. */
  maxOperationComputeUnits?: number;
  /**
   * Each client's compute units per minute (`CLIENT_COMPUTE_UNITS_PER_MINUTE`), fleet-wide with its `redis`
   * (see `client-compute-units.ts`); RATE_LIMITED beyond. Default none.
   */
  clientComputeUnits?: ClientComputeUnitsOptions;
  /** Most objects (connection items, list elements) one response may hold. Default 50000. */
  maxQueryNodes?: number;
  /** Most estimated field comparisons validating a document may take (`MAX_VALIDATION_COMPLEXITY`); QUERY_TOO_COMPLEX above, before any rule runs. Default 2000. */
  maxValidationComplexity?: number;
  /** Overrides of the fields' declared upstream costs, by `Type.field` (tests of the run-time budget). Default none. */
  fieldCosts?: QueryCostOptions['fieldCosts'];
  /** Depth, alias, token and directive limits (graphql-armor). Defaults in `OPERATION_LIMITS_DEFAULTS`. */
  operationLimits?: OperationLimitsOptions;
  /** Byte budget of the parse/validation cache (keyed by a hash of the query text). Defaults in `PARSE_CACHE_DEFAULTS` (8 MiB). */
  parseCache?: ParseCacheOptions;
  /** Body, URL, document-shape and variables limits of the HTTP edge. Defaults in `REQUEST_LIMITS_DEFAULTS` (body 1 MiB). */
  requestLimits?: RequestLimitsOptions;
  /**
   * The whole-response cache (`RESPONSE_CACHE`, `RESPONSE_CACHE_MAX_BYTES`): identical queries answered
   * with the response already made, within the earliest expiry of what it read. Needs the upstream
   * cache (a request that reads anything uncached is never held). Default off here; `server.ts` turns
   * it on with the upstream cache.
   */
  responseCache?: false | Pick<ResponseCacheOptions, 'maxBytes' | 'maxEntries' | 'maxTtlMs'>;
  /**
   * Query operations run as code compiled for them (graphql-jit, `useCompiledExecution`; its compiled-query
   * cache is byte-budgeted), or `false` for graphql-js's interpreter (`COMPILED_EXECUTION=off`).
   * Default on, with `COMPILED_EXECUTION_DEFAULTS`.
   */
  compiledExecution?: false | CompiledExecutionOptions;
  /** Largest serialized response (`MAX_RESPONSE_BYTES`); RESPONSE_TOO_LARGE above. Default 8 MiB. */
  maxResponseBytes?: number;
  /** `__schema`/`__type` counts and introspection list nesting per operation. Defaults in `INTROSPECTION_LIMIT_DEFAULTS`. */
  introspectionLimits?: IntrospectionLimitOptions;
  /**
   * Concurrency, queue, per-client and subscription limits (`MAX_CONCURRENT_OPERATIONS`...), or a policy
   * (or bare gate) shared with the other transports. Defaults in `ADMISSION_DEFAULTS` and `createEdgePolicy`.
   */
  admission?: EdgePolicyOptions | AdmissionGate | EdgePolicy;
  /**
   * Per-client rate limit on the GraphQL endpoint (`RATE_LIMIT_RPS`, `RATE_LIMIT_BURST`, `TRUST_PROXY`):
   * 429 RATE_LIMITED with `Retry-After` beyond it. Default off. The caller's API key header is this
   * gateway's `apiKeyHeader` unless set here.
   */
  rateLimit?: RateLimitOptions;
  /**
   * OpenTelemetry spans per operation, upstream-backed resolver and upstream attempt
   * (`useTracing`), sent wherever the registered provider sends them (src/server/telemetry.ts).
   * Default off: `server.ts` turns it on when `OTEL_EXPORTER_OTLP_ENDPOINT` is set.
   */
  tracing?: boolean | TracingOptions;
  /**
   * Aborted when shutdown begins: `/ready` answers 503 from then on and live subscriptions end
   * (`useGracefulShutdown`; `server.ts` aborts it on close). Default none.
   */
  shutdownSignal?: AbortSignal;
  /**
   * Prometheus metrics at `/metrics` (label bounds, `METRICS_TOKEN`), or `false` for none.
   * Defaults in `METRICS_DEFAULTS`; open to any caller unless a token is set.
   */
  metrics?: false | (MetricsOptions & MetricsEndpointOptions);
  /** graphql-sse's single-connection mode on the GraphQL endpoint (reservation limits), or `false` for none. Defaults in `GRAPHQL_SSE_DEFAULTS`. */
  graphqlSse?: false | Omit<GraphQLSSEOptions, 'requestLimits'>;
  /**
   * Persisted operations: automatic persisted queries (`APQ`, `APQ_MAX_BYTES`; on by default, a
   * bounded store per replica), trusted documents from a manifest (`PERSISTED_OPERATIONS`) and
   * `ONLY_PERSISTED`. Default: APQ on with `APQ_DEFAULTS`, no manifest.
   */
  persistedDocuments?: PersistedDocumentsOptions;
  /** How long `/ready` reuses its last look at the Data API (`READY_PROBE_INTERVAL_MS`), so probes cost at most one upstream call per interval. Default 5000. */
  readyProbeIntervalMs?: number;
  /** `Cache-Control` of GET responses (`useCacheControl`): the longest `max-age` sent, or `false` to send none. Default 300 s. */
  cacheControl?: false | Pick<CacheControlOptions, 'maxAgeSeconds'>;
  /**
   * Live activity from the Data API's webhooks (`WEBHOOK_PUBLIC_URL`): where the Data API delivers (a
   * path of this gateway, which then takes deliveries), and the key its webhooks belong to when it is
   * not the client's own. Absent: the activity subscriptions answer LIVE_ACTIVITY_NOT_CONFIGURED.
   */
  liveActivity?: { publicUrl: string | (() => string); path?: string; apiKey?: string };
  /**
   * Starts warming: `/ready` answers 503 "warming up" until `gateway.warmUp.finish()` (`server.ts` runs
   * the example and persisted operations through `gateway.warmUp.listener` first). Default false: ready at once.
   */
  warmUp?: boolean;
}

export interface GatewayDeps {
  dataApi: DataApi;
  nodes: readonly NodeClient[];
  /** The response cache in front of the clients, if any: its counters are reported on `/ready`. */
  cache?: Pick<ResponseCache, 'stats'>;
  /** What `/ready` asks; it must reach the Data API itself, not a cache. Default: `dataApi.listChains`. */
  readinessProbe?: () => Promise<unknown>;
  /** Logger of per-request lines (each request logs through a child bound to its request id). Default: silent. */
  logger?: Logger;
  /** Every circuit breaker and its state, for `chaingraph_upstream_breaker_state`. Default: no breaker gauge. */
  breakerStates?: MetricsSources['breakers'];
  /** Compute units the upstream cache saved (the server's tally of `CachedClientOptions.onSaved`), for the metrics. Default none. */
  computeUnitsSaved?: MetricsSources['computeUnitsSaved'];
  /**
   * The subscriptions' shared pollers, one per topic (src/loaders/topics.ts): `server.ts` passes
   * Redis-backed ones with REDIS_URL, so one replica of the fleet polls each topic. Default: in-process
   * topics made here and closed with the gateway.
   */
  topics?: Topics;
  /** Live activity's shared state (Redis with REDIS_URL, so replicas agree on webhooks and seen deliveries). Default: in-process. */
  activityStore?: ActivityStore;
}

export type Gateway = YogaServerInstance<Record<string, unknown>, Context> & {
  /** The gateway's metrics (its own prom-client registry), absent when `metrics: false`. */
  readonly metrics?: GatewayMetrics;
  /** Its persisted documents, for the transports that do not pass yoga's request stage (graphql-ws). */
  readonly persisted: PersistedDocuments;
  /** Its per-client rate limit (`RATE_LIMIT_RPS`), for the same transports; absent when off. */
  readonly rateLimit?: ClientRateLimit;
  /** Who a client is for every per-client rule (its edge policy's: verified keys, else addresses), for the same transports and tests. */
  readonly identity: ClientIdentity;
  /** Its live activity (webhook deliveries and the activity subscriptions), when configured. */
  readonly liveActivity?: LiveActivity;
  /** Its warm-up (see `GatewayOptions.warmUp` and src/server/warm-up.ts). */
  readonly warmUp: GatewayWarmUp;
  /** GraphiQL's page and assets, when served: `prepare()` builds them before the first load (the server does at start). */
  readonly graphiql?: Pick<GraphiQLAssetsPlugin, 'prepare' | 'builds' | 'waits'>;
};

/** How the server warms a gateway before it says ready. */
export interface GatewayWarmUp {
  /**
   * A request listener serving this gateway over `upstream` instead of its own: the same plugins,
   * caches of documents and compiled operations, over other answers. Its upstream calls are not counted
   * by the upstream metrics; its responses must not be held by the response cache (send `authorization`).
   */
  listener(upstream: { dataApi: DataApi; nodes: readonly NodeClient[] }): (req: IncomingMessage, res: ServerResponse) => void;
  /** Ends the warming: `/ready` answers as it usually does from then on. */
  finish(): void;
  /** Whether `/ready` still answers "warming up". */
  readonly warming: boolean;
}

/**
 * The gateway as a yoga instance: listens on nothing, so tests call `gateway.fetch`
 * and `server.ts` mounts it on a socket.
 */
export function createGateway(options: GatewayOptions, deps: GatewayDeps): Gateway {
  const nodes = createNodeDirectory(deps.nodes);
  const clients = { apiKeyHeader: options.apiKeyHeader ?? 'x-service-api-key', trustProxy: options.rateLimit?.trustProxy ?? 0 };
  const given = options.admission;
  const policy = !given ? createEdgePolicy({ clients }) : 'admitOperation' in given ? given : 'acquire' in given ? createEdgePolicy({ clients }, given) : createEdgePolicy({ clients, ...given });
  const admission = policy.gate;
  warmNodeDirectory(nodes);
  const cursors = createCursorCodec(options.cursorSecrets?.length ? options.cursorSecrets : [randomCursorSecret()]);
  const schema = getSchema();
  const requestIds = createRequestIds();
  // One budget of the event loop for execution and serialization: operations take turns, so a probe or a small query never waits behind seconds of it.
  const loopBudget = createLoopBudget();
  const topics = deps.topics ?? createTopics();
  const liveActivity = options.liveActivity
    ? createLiveActivity({
        ...options.liveActivity,
        dataApi: deps.dataApi,
        topics,
        ...(deps.activityStore ? { store: deps.activityStore } : {}),
        onError: (err, what) => deps.logger?.warn({ err }, `live activity: ${what} failed`),
        // Made below; read at each attempt, never before the gateway exists.
        observer: { onAttempt: (info) => metrics?.upstreamObserver.onAttempt(info) },
      })
    : undefined;
  const persisted = createPersistedDocuments(options.persistedDocuments);
  const rateLimitOptions = options.rateLimit ? { apiKeyHeader: options.apiKeyHeader ?? 'x-service-api-key', ...options.rateLimit } : undefined;
  // One identity for every per-client rule: the edge policy's, which the Data API's answers (the context's `keys`) feed.
  const rateLimit = rateLimitOptions ? createClientRateLimit(rateLimitOptions, policy.identity) : undefined;
  const cache = deps.cache;
  const metrics =
    options.metrics === false
      ? undefined
      : createMetrics(options.metrics, {
          admission: () => admission.stats(),
          ...(cache ? { cache: () => cache.stats() } : {}),
          ...(deps.breakerStates ? { breakers: deps.breakerStates } : {}),
          ...(deps.computeUnitsSaved ? { computeUnitsSaved: deps.computeUnitsSaved } : {}),
        });
  const redactor = createRedactor([...(options.secrets ?? []), options.adminToken, ...(options.cursorSecrets ?? []), options.metrics ? options.metrics.token : undefined]);
  const contextDeps = {
    redactor,
    requestId: (request: Request) => requestIds.of(request),
    logger: deps.logger ?? pino({ level: 'silent' }),
    ...(metrics ? { observer: metrics.upstreamObserver } : {}),
    dataApi: deps.dataApi,
    nodes,
    cursors,
    apiKeyHeader: options.apiKeyHeader ?? 'x-service-api-key',
    clientOf: (request: Request, socketAddress: string | undefined) => policy.clientOf(request, socketAddress),
    keys: policy.identity,
    ...(options.adminToken ? { adminToken: options.adminToken } : {}),
  };
  const readinessProbe = deps.readinessProbe ?? (() => deps.dataApi.listChains({}, { timeoutMs: 3000 }));
  // The last probe's failure, so a 503 from /ready says which upstream does not answer, why, and what to check.
  let notReadyBecause: unknown;
  const ready = createSharedProbe(async () => {
    try {
      await readinessProbe();
      notReadyBecause = undefined;
    } catch (error) {
      notReadyBecause = error;
      throw error;
    }
  }, options.readyProbeIntervalMs ?? 5000);
  const freshUntil = (context: unknown) => (context as Partial<Context>).freshUntil?.at;
  let warming = options.warmUp === true;
  const graphiql = options.graphiql === false ? undefined : useGraphiQLAssets({ title: 'chaingraph', defaultQuery: options.exampleQueries ?? exampleQueries() });
  const queryCost = useQueryCost({
    ...(options.maxQueryCost !== undefined ? { maxCost: options.maxQueryCost } : {}),
    ...(options.maxOperationComputeUnits !== undefined ? { maxComputeUnits: options.maxOperationComputeUnits } : {}),
    ...(options.clientComputeUnits ? { clientComputeUnits: createClientComputeUnits(options.clientComputeUnits) } : {}),
    ...(metrics ? { onSpent: (client: string, units: number) => metrics.onComputeUnitsSpent(client, units) } : {}),
    ...(options.maxQueryNodes !== undefined ? { maxNodes: options.maxQueryNodes } : {}),
    ...(options.fieldCosts ? { fieldCosts: options.fieldCosts } : {}),
    listSizes: { 'Query.avalancheNodes': deps.nodes.length },
    nodeCount: deps.nodes.length,
  });
  const responseCache = options.responseCache
    ? useResponseCache({ ...options.responseCache, apiKeyHeader: contextDeps.apiKeyHeader, freshUntil, onServe: (request, result) => queryCost.noteHeld(request, result) })
    : undefined;
  const yoga = createYoga<Record<string, unknown>, Context>({
    schema,
    // Trusted documents may be named by `documentId` (GraphQL over HTTP), besides `extensions.persistedQuery`.
    extraParamNames: ['documentId'],
    graphqlEndpoint: '/graphql',
    context: (initial) => createContext(contextDeps, initial),
    // GraphiQL is served by useGraphiQLAssets (built once, compressed, cached), not yoga's renderer.
    graphiql: false,
    // Replaced by useParseCache: yoga's keys documents by their raw text (V8 hashes a string over 16K characters by
    // its length alone, so long documents of one length share a bucket) and knows no copy that differs only by comments.
    parserAndValidationCache: false,
    landingPage: false,
    // Upstream failures are mapped by useUpstreamErrors; what reaches masking is unexpected.
    maskedErrors: true,
    // Yoga's own body limit (25 MB, REQUEST_ENTITY_TOO_LARGE, connection kept) is replaced by useRequestLimits (1 MiB,
    // PAYLOAD_TOO_LARGE, connection closed, and no counting stream for a body node already bounds by its Content-Length).
    maxRequestBodySize: false,
    // Yoga's default echoes any Origin with credentials; only the configured ones are named (useCorsPolicy adds Vary).
    cors: corsOptions(options.cors),
    // Yoga's own lines (debug lines, errors outside an operation) go to the gateway's logger, redacted as every other line, not to the console.
    ...(deps.logger ? { logging: yogaLogging(deps.logger) } : {}),
    // Cost before input validation: its execute replacement yields to a BAD_USER_INPUT stop (see useQueryCost).
    plugins: [
      // Before anything that may refuse a request, so every response carries its id.
      // Each request in its id's async scope only where yoga logs lines about every request (debug).
      useRequestId(requestIds, { scoped: deps.logger?.isLevelEnabled('debug') === true }),
      // The Data API's webhook deliveries: answered here, never queued behind GraphQL requests nor counted against a caller.
      ...(liveActivity ? [useWebhookDeliveries(liveActivity, { sourceOf: (request, socketAddress) => policy.clientOf(request, socketAddress) })] : []),
      // Ahead of useReadinessCheck, whose /ready it answers 503 once shutdown has begun.
      ...(options.shutdownSignal ? [useGracefulShutdown({ signal: options.shutdownSignal })] : []),
      // Answers /metrics itself (never queued, never counted) and measures what follows from the request's start.
      ...(metrics ? [useMetrics(metrics, options.metrics || {})] : []),
      // GraphiQL's page and assets, served by the gateway itself (offline, no CDN) from buffers built once;
      // first, so admission control never queues a page load.
      ...(graphiql ? [graphiql] : []),
      // One client over its rate is refused before anything else is spent on it, its body not even read.
      ...(rateLimitOptions && rateLimit ? [useRateLimit(rateLimitOptions, rateLimit)] : []),
      // A persisted document's text in place of its id, before anything reads the text (the request limits scan it as any other).
      ...usePersistedDocuments(persisted),
      // With a list of CORS origins, every response varies by Origin (yoga's `cors` option above decides the headers).
      useCorsPolicy(options.cors),
      // Only JSON bodies execute (a cross-site form cannot start a mutation), refused before the body is read.
      useContentTypePolicy({ allowFormPosts: options.allowFormPosts === true }),
      // The edge first: refuse what is too big or too deep before a slot, a parse or any work is spent on it.
      // GET and form parameters read strictly (a repeated or malformed one is a 400); before the request
      // limits, which wrap the parser set here so a form body is still counted.
      useStrictParams({ graphiql: options.graphiql !== false }),
      useRequestLimits(options.requestLimits),
      // graphql-sse's single-connection mode (its requests only); the distinct-connections mode is yoga's own SSE.
      ...(options.graphqlSse === false
        ? []
        : [
            useGraphQLSSESingleConnection({
              maxReservations: admission.options.maxSubscriptions,
              ...options.graphqlSse,
              persisted,
              ...(options.requestLimits ? { requestLimits: options.requestLimits } : {}),
              ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
            }),
          ]),
      // Every operation's context reaches the subscriptions' shared pollers.
      useTopics(topics, { closeOnDispose: !deps.topics }),
      useIntrospectionLimit(options.introspectionLimits),
      useVariableErrors(),
      useOperationLimits(options.operationLimits),
      // @defer and @stream (their directives and validation rules); before the parse cache, which keys validation by its rules.
      useDeferStream(),
      // Keeps useDeferStream's overlap rule in place of graphql-js's, and refuses what that rule would take too long on; before the parse cache, which caches its refusals.
      useValidationLimit(options.maxValidationComplexity !== undefined ? { maxComplexity: options.maxValidationComplexity } : {}),
      // After the armor limits, whose token-limited parser it caches.
      useParseCache(options.parseCache),
      // Before the cost plugin, whose refusal replaces the execute function this sets (tracing, later, wraps it).
      ...(options.compiledExecution === false ? [] : [useCompiledExecution(options.compiledExecution)]),
      queryCost,
      // After the cost plugin, so the operation span sees the cost it reports; before input validation, so refusals are traced too.
      ...(options.tracing ? [useTracing(options.tracing === true ? {} : options.tracing)] : []),
      // Declared argument checks, plus cursors (signed per gateway) and federation representations, before any resolver runs.
      useProjection(projectionOf),
      useInputValidation({ fieldChecks: [opaqueInputChecks(schema, { verifyCursor: (cursor) => void cursors.verify(cursor), checkRepresentations })] }),
      useUpstreamErrors(options.onUpstreamError ? { onUpstreamError: options.onUpstreamError } : {}),
      // A value a field's type cannot serve (an Int beyond 32 bits...) is the upstream's: UPSTREAM_PROTOCOL_ERROR, before masking.
      useUnservableValues(),
      // An operation's unexpected errors (bugs), logged with the request's id and masked as yoga masks them.
      useUnexpectedErrors(),
      // Admission when an operation is about to execute (its body read, its document valid and within its
      // cost), held until its last byte is written; the same hooks serve HTTP, both SSE modes and graphql-ws.
      useEdgePolicy(policy, { maxBodyBytes: options.requestLimits?.maxBodyBytes ?? REQUEST_LIMITS_DEFAULTS.maxBodyBytes }),
      // After the edge policy (a body's reservation is released before waiting); parsing, validation and
      // cost-free subtrees of execution wait their turn when the loop's slice is spent.
      useLoopBudget(loopBudget),
      // Last of the result hooks: measures the response as it will be sent.
      useResponseLimit({ ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}), loopBudget }),
      // After every plugin that refuses a request (an identical request passes them again) and after the
      // response limit (what it holds was measured); a hit skips parsing, validation and execution.
      ...(responseCache ? [responseCache] : []),
      // GET responses say how long they may be kept: the shortest expiry of what they read (or of the held response).
      ...(options.cacheControl === false
        ? []
        : [
            useCacheControl({
              ...options.cacheControl,
              apiKeyHeader: contextDeps.apiKeyHeader,
              freshUntil,
              ...(responseCache ? { heldUntil: (request: Request) => responseCache.heldUntil(request) } : {}),
            }),
          ]),
      // GET /health says the process is up (yoga's own); GET /ready says it can serve: the Data API
      // answers (its cheapest call, the chain list, asked at most once per READY_PROBE_INTERVAL_MS and
      // shared by every probe meanwhile). Nodes are optional parts: a node that is down fails its own
      // fields, not the replica.
      onlyOnPath('/ready', useReadinessCheck({
        endpoint: '/ready',
        check: async ({ fetchAPI }) => {
          if (warming) {
            return new fetchAPI.Response(JSON.stringify({ ready: false, reason: 'warming up: running the example operations against recorded answers', warmingUp: true }), {
              status: 503,
              headers: { 'content-type': 'application/json' },
            });
          }
          if (await ready()) {
            const body = { ready: true, admission: policy.stats(), ...(deps.cache ? { cache: deps.cache.stats() } : {}) };
            return new fetchAPI.Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
          }
          return new fetchAPI.Response(JSON.stringify({ ready: false, ...notReadyReason(notReadyBecause, redactor) }), {
            status: 503,
            headers: { 'content-type': 'application/json' },
          });
        },
      })),
    ],
  });
  const warmUp: GatewayWarmUp = {
    listener(upstream) {
      const serverContext = { [WARM_UP_UPSTREAM]: { dataApi: upstream.dataApi, nodes: createNodeDirectory(upstream.nodes) } };
      return (req, res) => {
        void yoga.handle(req, res, serverContext);
      };
    },
    finish() {
      warming = false;
    },
    get warming() {
      return warming;
    },
  };
  return Object.assign(yoga, { persisted, warmUp, identity: policy.identity, ...(graphiql ? { graphiql } : {}), ...(metrics ? { metrics } : {}), ...(rateLimit ? { rateLimit } : {}), ...(liveActivity ? { liveActivity } : {}) });
}

/**
 * Why `/ready` answers 503: the upstream, the cause in words and the setting to check, as the
 * GraphQL error of the same failure says it (secrets redacted). Without the upstream's address:
 * anyone who finds `/ready` may poll it, and the start-up log names the address for the operator.
 */
function notReadyReason(error: unknown, redactor: Redactor): { reason: string; upstream: string; cause?: unknown; variable?: unknown } {
  if (!isUpstreamError(error)) return { reason: 'the Data API does not answer', upstream: 'data-api' };
  const mapped = upstreamToGraphQLError(error, redactor);
  const { cause, variable } = mapped.extensions;
  const origins = [error.origin, error.openedBy?.origin].filter((origin): origin is string => origin !== undefined);
  const reason = origins.reduce((text, origin) => text.replaceAll(` at ${origin}`, ''), mapped.message);
  return { reason, upstream: error.upstream, ...(cause !== undefined ? { cause } : {}), ...(variable !== undefined ? { variable } : {}) };
}

/**
 * A plugin whose `onRequest` is asked only about requests whose URL contains `path` (every URL whose path
 * is `path` does; the plugin still decides). Yoga's readiness check tests every request's URL against a
 * URLPattern (the polyfill) once its cheaper checks fail: a few percent of a single list's CPU.
 */
function onlyOnPath(path: string, plugin: Plugin): Plugin {
  const { onRequest } = plugin;
  if (!onRequest) return plugin;
  return { ...plugin, onRequest: (payload) => (payload.request.url.includes(path) ? onRequest(payload) : undefined) };
}

/** Yoga's logger interface over pino: an error logged alone keeps its stack (`err`), anything else is joined into the message. */
function yogaLogging(logger: Logger): Record<'debug' | 'info' | 'warn' | 'error', (...args: unknown[]) => void> {
  const at = (level: 'debug' | 'info' | 'warn' | 'error') => (...args: unknown[]): void => {
    if (!logger.isLevelEnabled(level)) return;
    // Yoga logs without the request: at debug level the line is about the one being handled, if any (use-request-id.ts).
    const requestId = currentRequestId();
    const bound = requestId === undefined ? {} : { requestId };
    const [first, ...rest] = args;
    if (first instanceof Error) logger[level]({ ...bound, err: first }, rest.map(String).join(' ') || first.message);
    else logger[level](bound, args.map(String).join(' '));
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
