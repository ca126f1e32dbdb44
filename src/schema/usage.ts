import type { InputShapeFromFields } from '@pothos/core';
import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import {
  API_LOGS_COST, apiLogPages, apiUsageMetrics, checkUsageCaller, DATA_API_HEALTH_COST, dataApiHealth, dataApiLiveness,
  primaryNetworkRpcUsageMetrics, subnetRpcUsageMetrics, USAGE_REPORT_COST, type ApiLogFilters,
} from '../loaders/usage.ts';
import { costs } from '../lib/cost.ts';
import {
  DATA_API_HEALTH_STATUSES, PAGES, REQUEST_TYPES, type ApiLog, type DataApiHealth, type RpcUsageMetricsValue, type UsageMetricsValue,
} from '../shapes/index.ts';
import { grammar } from './bounds.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { openEnumField, upstreamEnum } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum } from './network.ts';

// ---------------------------------------------------------------- health

const DataApiHealthStatus = upstreamEnum('DataApiHealthStatus', 'The Data API\'s overall status.', {
  OK: { value: DATA_API_HEALTH_STATUSES[0], description: 'It serves.' },
  ERROR: { value: DATA_API_HEALTH_STATUSES[1], description: 'A dependency is down (see `indicators`).' },
  SHUTTING_DOWN: { value: DATA_API_HEALTH_STATUSES[2], description: 'It is shutting down.' },
});

interface Indicator { name: string; status: string | undefined; healthy: boolean }

const HealthIndicatorRef = builder.objectRef<Indicator>('DataApiHealthIndicator').implement({
  description: 'One dependency the Data API checks (e.g. `database`).',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'The dependency.' }),
    status: t.string({ nullable: true, description: 'Its status as the Data API gives it (`up` or `down`); null when it gave none.', resolve: (i) => i.status ?? null }),
    healthy: t.exposeBoolean('healthy', { nullable: false, description: 'True when the Data API listed it among the healthy ones (`info`) and not among the failing ones (`error`).' }),
  }),
});

/** Every indicator of a report: `details` holds them all, `error` the failing ones. */
function indicatorsOf(report: DataApiHealth): Indicator[] {
  const all = { ...(report.info ?? {}), ...(report.details ?? {}), ...(report.error ?? {}) };
  const failing = new Set(Object.keys(report.error ?? {}));
  return Object.entries(all)
    .map(([name, value]) => ({ name, status: value.status, healthy: !failing.has(name) && value.status !== 'down' }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

const DataApiHealthRef = builder.objectRef<DataApiHealth>('DataApiHealth').implement({
  description: 'What the Data API says about itself (data-health-check or live-check). Cached 2 s.',
  fields: (t) => ({
    ...openEnumField(t, 'status', DataApiHealthStatus, { description: 'Overall status.', value: (h) => h.status }),
    healthy: t.boolean({ nullable: false, description: 'True when the status is `ok`.', resolve: (h) => h.status === 'ok' }),
    indicators: t.field({ type: [HealthIndicatorRef], nullable: false, description: 'The dependencies it checks, sorted by name (empty for the live check).', resolve: indicatorsOf }),
  }),
});

builder.queryFields((t) => ({
  dataApiHealth: t.field({
    type: DataApiHealthRef,
    nullable: true,
    description: 'The Data API\'s health: whether it and its dependencies (database...) serve (data-health-check `GET /v1/health-check`). Cached 2 s.',
    upstreamCost: DATA_API_HEALTH_COST,
    resolve: (_root, _args, ctx) => dataApiHealth(ctx),
  }),
  dataApiLiveness: t.field({
    type: DataApiHealthRef,
    nullable: true,
    description: 'Whether the Data API process answers at all (live-check `GET /v1/live-check`); `/ready` can ask the same. Cached 2 s.',
    upstreamCost: DATA_API_HEALTH_COST,
    resolve: (_root, _args, ctx) => dataApiLiveness(ctx),
  }),
}));

// ---------------------------------------------------------------- usage: arguments

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const FILTER_TEXT = grammar('1 to 256 printable characters.', 'a filter value', (v) => v.length >= 1 && v.length <= 256 && !CONTROL.test(v));
const RESPONSE_CODE = grammar('An HTTP status code (100-599).', 'an HTTP status code', (v) => /^[1-5]\d\d$/.test(v));

const enumOf = <const V extends string>(name: string, description: string, values: readonly V[], describe: (v: V) => string) =>
  builder.enumType(name, {
    description,
    values: Object.fromEntries(values.map((v) => [v.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase(), { value: v, description: describe(v) }])) as Record<string, { value: V; description: string }>,
  });

const UsageIntervalEnum = enumOf('UsageTimeInterval', 'How usage is bucketed over time (the Data API rounds the range to whole buckets).', ['minute', 'hourly', 'daily', 'weekly', 'monthly'] as const, (v) => `One bucket per ${v === 'daily' ? 'day' : v === 'hourly' ? 'hour' : v.replace(/ly$/, '')}.`);
const RpcIntervalEnum = enumOf('RpcUsageTimeInterval', 'How RPC usage is bucketed over time.', ['hourly', 'daily', 'weekly', 'monthly'] as const, (v) => `One bucket per ${v === 'daily' ? 'day' : v === 'hourly' ? 'hour' : v.replace(/ly$/, '')}.`);
const UsageGroupByEnum = enumOf('UsageGroupBy', 'What Data API usage values are grouped by.', ['requestPath', 'responseCode', 'chainId', 'apiKeyId', 'requestType'] as const, (v) => `One value per ${v}.`);
const SubnetRpcGroupByEnum = enumOf('SubnetRpcUsageGroupBy', 'What Subnet RPC usage values are grouped by.', ['rpcMethod', 'responseCode', 'rlBypassToken'] as const, (v) => `One value per ${v}.`);
const PrimaryRpcGroupByEnum = enumOf('PrimaryNetworkRpcUsageGroupBy', 'What primary-network RPC usage values are grouped by.', ['rpcMethod', 'requestPath', 'responseCode', 'country', 'continent', 'userAgent'] as const, (v) => `One value per ${v}.`);
/** An argument and `ApiLog.requestType` alike, so a caller filtering on `DATA` reads `DATA` back. */
const RequestTypeEnum = upstreamEnum('UsageRequestType', 'A Data API call or an RPC call.', {
  DATA: { value: 'data', description: 'Data API (REST) requests.' },
  RPC: { value: 'rpc', description: 'RPC requests.' },
});
/** A `UsageRequestType` argument as the upstream type (its bound has refused UNKNOWN); undefined when omitted. */
const requestTypeOf = (value: string | null | undefined) => REQUEST_TYPES.find((type) => type === value);

const rangeArgs = builder.args((t) => ({
  startTimestamp: t.field({ type: 'UInt64', description: 'Start of the range (the Data API rounds it down to a whole day).', bound: BOUNDS.unixSeconds }),
  endTimestamp: t.field({ type: 'UInt64', description: 'End of the range (the Data API rounds it down to a whole day).', bound: BOUNDS.unixSeconds }),
  responseCode: t.string({ description: 'Only requests answered with this HTTP status.', bound: RESPONSE_CODE }),
}));

type Range = { startTimestamp?: string | null; endTimestamp?: string | null };

const checkRange = (args: Range): void => {
  if (args.startTimestamp != null && args.endTimestamp != null && BigInt(args.startTimestamp) > BigInt(args.endTimestamp)) {
    throw badInput('startTimestamp', 'must not be after endTimestamp');
  }
};

/** The arguments given, without nulls, the range as numbers (bounded to 2^53 - 1 above): the upstream query. */
function defined<T extends Range>(args: T): { [K in Exclude<keyof T, keyof Range>]?: Exclude<T[K], null> } & { startTimestamp?: number; endTimestamp?: number } {
  const entries = Object.entries(args).filter(([, v]) => v != null);
  return Object.fromEntries(entries.map(([k, v]) => [k, k === 'startTimestamp' || k === 'endTimestamp' ? Number(v) : v])) as never;
}

// ---------------------------------------------------------------- usage: output

const UsageValueRef = builder.objectRef<UsageMetricsValue | RpcUsageMetricsValue>('UsageMetricValue').implement({
  description: 'Usage within one bucket, for one group (or for all requests when not grouped).',
  fields: (t) => ({
    groupedBy: t.string({ nullable: true, description: 'What the values are grouped by (`None` when not grouped), as the Data API names it.', resolve: (v) => v.groupedBy }),
    groupValue: t.string({ nullable: true, description: 'The group: a path, a status code, a chain id, a method...; null when not grouped.', resolve: (v) => (v.groupValue == null ? null : String(v.groupValue)) }),
    totalRequests: t.float({ nullable: true, description: 'Requests made.', resolve: (v) => v.totalRequests }),
    requestsPerSecond: t.float({ nullable: true, description: 'Requests per second over the bucket.', resolve: (v) => v.requestsPerSecond }),
    successRatePercent: t.float({ nullable: true, description: 'Share of successful requests, percent.', resolve: (v) => v.successRatePercent }),
    medianResponseTimeMsecs: t.float({ nullable: true, description: 'Median response time, milliseconds.', resolve: (v) => v.medianResponseTimeMsecs }),
    invalidRequests: t.float({ nullable: true, description: 'Requests refused as invalid.', resolve: (v) => v.invalidRequests }),
    apiCreditsUsed: t.float({ nullable: true, description: 'API credits spent.', resolve: (v) => v.apiCreditsUsed }),
    apiCreditsWasted: t.float({ nullable: true, description: 'API credits spent on invalid requests.', resolve: (v) => v.apiCreditsWasted }),
  }),
});

interface Bucket { timestamp: number | string; values: readonly (UsageMetricsValue | RpcUsageMetricsValue)[] }

const UsageBucketRef = builder.objectRef<Bucket>('UsageMetricBucket').implement({
  description: 'One time bucket of usage.',
  fields: (t) => ({
    timestamp: t.field({ type: 'UInt64', nullable: true, description: 'Start of the bucket, unix seconds.', resolve: (b) => String(b.timestamp) }),
    values: t.field({ type: [UsageValueRef], nullable: true, description: 'The bucket\'s values, one per group.', resolve: (b) => [...b.values] }),
  }),
});

interface Report { aggregateDuration: string; metrics: readonly Bucket[]; scope: string | null }

const UsageReportRef = builder.objectRef<Report>('UsageReport').implement({
  description: 'Usage of the calling key over a range, bucketed over time.',
  fields: (t) => ({
    aggregateDuration: t.exposeString('aggregateDuration', { nullable: true, description: 'The length of each bucket, as the Data API gives it.' }),
    scope: t.string({ nullable: true, description: 'What the report covers: the organisation id (Data API usage), the chain id (Subnet RPC) or the network (primary-network RPC).', resolve: (r) => r.scope }),
    buckets: t.field({ type: [UsageBucketRef], nullable: true, description: 'Buckets with any usage, oldest first.', resolve: (r) => [...r.metrics] }),
  }),
});

const ApiLogRef = builder.objectRef<ApiLog>('ApiLog').implement({
  description: 'One request made with the calling key (getApiLogs).',
  fields: (t) => ({
    logId: t.exposeString('logId', { nullable: true, description: 'The log entry\'s id.' }),
    eventTimestamp: t.field({ type: 'UInt64', nullable: true, description: 'When the request was made, unix seconds.', resolve: (l) => String(l.eventTimestamp) }),
    apiKeyId: t.exposeString('apiKeyId', { nullable: true, description: 'The id of the key used (never the key).' }),
    apiKeyAlias: t.exposeString('apiKeyAlias', { nullable: true, description: 'The key\'s alias.' }),
    ...openEnumField(t, 'requestType', RequestTypeEnum, { description: 'A Data API or an RPC request.', value: (l) => l.requestType }),
    requestPath: t.exposeString('requestPath', { nullable: true, description: 'The path requested.' }),
    responseCode: t.exposeFloat('responseCode', { nullable: true, description: 'The HTTP status it was answered with.' }),
    requestDurationMsecs: t.exposeFloat('requestDurationMsecs', { nullable: true, description: 'How long answering took, milliseconds.' }),
    apiCreditsConsumed: t.exposeFloat('apiCreditsConsumed', { nullable: true, description: 'API credits the request spent.' }),
    chainId: t.string({ nullable: true, description: 'The chain asked about, when there was one.', resolve: (l) => l.chainId ?? null }),
    rpcMethod: t.string({ nullable: true, description: 'The RPC method, for RPC requests.', resolve: (l) => l.rpcMethod ?? null }),
    hostRegion: t.exposeString('hostRegion', { nullable: true, description: 'The region that served it.' }),
    userAgent: t.string({ nullable: true, description: 'The client\'s user agent.', resolve: (l) => l.metadata.userAgent }),
  }),
});

const ApiLogConnection = builder.connectionObject(
  { type: ApiLogRef, name: 'ApiLogConnection', description: 'A page of the calling key\'s requests, newest first.' },
  { name: 'ApiLogEdge', description: 'A request and its cursor.' },
);

const logArgs = builder.args((t) => ({
  ...rangeArgs,
  ...pageArgs(t, PAGES.apiLogs),
  chainId: t.string({ description: 'Only requests about this chain: its EVM chain id or blockchain id.', bound: BOUNDS.chainId }),
  requestType: t.field({ type: RequestTypeEnum.ref, description: 'Only Data API or only RPC requests.', bound: RequestTypeEnum.bound }),
  requestPath: t.string({ description: 'Only requests to this path.', bound: FILTER_TEXT }),
}));
type LogArgs = InputShapeFromFields<typeof logArgs>;

const logFilters = (args: LogArgs): ApiLogFilters =>
  defined({ startTimestamp: args.startTimestamp, endTimestamp: args.endTimestamp, responseCode: args.responseCode, chainId: args.chainId, requestType: requestTypeOf(args.requestType), requestPath: args.requestPath });

/** The usage of the calling key; the object itself costs nothing, each report one call. */
const ApiUsageRef = builder.objectRef<Record<string, never>>('ApiUsage').implement({
  description: 'The usage reports of the Data API key the request is made with: yours (the API key header), or the gateway\'s for an admin.',
  fields: (t) => ({
    metrics: t.field({
      type: UsageReportRef,
      nullable: true,
      description: 'Data API usage over time (getApiUsageMetrics).',
      args: {
        ...rangeArgs,
        timeInterval: t.arg({ type: UsageIntervalEnum, description: 'Bucket length (the Data API\'s default when omitted).' }),
        groupBy: t.arg({ type: UsageGroupByEnum, description: 'Split each bucket by this (not split when omitted).' }),
        chainId: t.arg.string({ description: 'Only requests about this chain: its EVM chain id or blockchain id.', bound: BOUNDS.chainId }),
        requestType: t.arg({ type: RequestTypeEnum.ref, description: 'Only Data API or only RPC requests.', bound: RequestTypeEnum.bound }),
        requestPath: t.arg.string({ description: 'Only requests to this path.', bound: FILTER_TEXT }),
      },
      checkArgs: checkRange,
      upstreamCost: USAGE_REPORT_COST,
      resolve: async (_u, args, ctx) => {
        const r = await apiUsageMetrics(ctx, defined({ ...args, requestType: requestTypeOf(args.requestType) }));
        return { aggregateDuration: r.aggregateDuration, metrics: r.metrics, scope: r.orgId };
      },
    }),
    logs: t.field({
      type: ApiLogConnection,
      nullable: false,
      description: 'The requests made with the key, newest first (getApiLogs).',
      args: logArgs,
      checkArgs: (args) => {
        checkRange(args);
        checkAfter(args, PAGES.apiLogs);
      },
      upstreamCost: API_LOGS_COST,
      resolve: (_u, args, ctx) => resolvePageConnection({ ctx, page: PAGES.apiLogs, args, fetchPage: apiLogPages(ctx, logFilters(args)) }),
    }),
    subnetRpcMetrics: t.field({
      type: UsageReportRef,
      nullable: true,
      description: 'RPC usage of Subnet (L1) chains over time (getSubnetRpcUsageMetrics).',
      args: {
        ...rangeArgs,
        timeInterval: t.arg({ type: RpcIntervalEnum, description: 'Bucket length (the Data API\'s default when omitted).' }),
        groupBy: t.arg({ type: SubnetRpcGroupByEnum, description: 'Split each bucket by this (not split when omitted).' }),
        chainId: t.arg.string({ description: 'Only calls to this chain: its EVM chain id or blockchain id.', bound: BOUNDS.chainId }),
        rpcMethod: t.arg.string({ description: 'Only calls of this RPC method.', bound: FILTER_TEXT }),
      },
      checkArgs: checkRange,
      upstreamCost: USAGE_REPORT_COST,
      resolve: async (_u, args, ctx) => {
        const r = await subnetRpcUsageMetrics(ctx, defined(args));
        return { aggregateDuration: r.aggregateDuration, metrics: r.metrics, scope: r.chainId };
      },
    }),
    primaryNetworkRpcMetrics: t.field({
      type: UsageReportRef,
      nullable: true,
      description: 'RPC usage of the primary network\'s chains over time (getPrimaryNetworkRpcUsageMetrics).',
      args: {
        network: t.arg({ type: NetworkNameEnum, required: true, description: 'The network.' }),
        ...rangeArgs,
        timeInterval: t.arg({ type: RpcIntervalEnum, description: 'Bucket length (the Data API\'s default when omitted).' }),
        groupBy: t.arg({ type: PrimaryRpcGroupByEnum, description: 'Split each bucket by this (not split when omitted).' }),
        requestPath: t.arg.string({ description: 'Only calls to this path.', bound: FILTER_TEXT }),
        rpcMethod: t.arg.string({ description: 'Only calls of this RPC method.', bound: FILTER_TEXT }),
        country: t.arg.string({ description: 'Only calls from this country (ISO 3166-1 alpha-2; `XX` for unknown).', bound: grammar('Two capital letters (ISO 3166-1 alpha-2).', 'a country code', (v) => /^[A-Z]{2}$/.test(v)) }),
        continent: t.arg.string({ description: 'Only calls from this continent (two-letter code, e.g. `EU`).', bound: grammar('Two capital letters.', 'a continent code', (v) => /^[A-Z]{2}$/.test(v)) }),
        userAgent: t.arg.string({ description: 'Only calls with this user agent.', bound: FILTER_TEXT }),
      },
      checkArgs: checkRange,
      upstreamCost: USAGE_REPORT_COST,
      resolve: async (_u, args, ctx) => {
        const r = await primaryNetworkRpcUsageMetrics(ctx, { ...defined(args), network: args.network });
        return { aggregateDuration: r.aggregateDuration, metrics: r.metrics, scope: r.network };
      },
    }),
  }),
});

builder.queryFields((t) => ({
  apiUsage: t.field({
    type: ApiUsageRef,
    description:
      'Usage of your Data API key: send it in the API key header. Admins without one read the gateway\'s key. UNAUTHENTICATED for anyone else, before any call. Never cached.',
    extensions: { cacheControl: 'no-store' },
    upstreamCost: costs.free,
    // Refused here, before any report below runs (argument checks are memoised per document, so they cannot see the caller).
    resolve: (_root, _args, ctx) => {
      checkUsageCaller(ctx);
      return {};
    },
  }),
}));
