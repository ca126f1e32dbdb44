/**
 * The Data API's own status and its bill: the health and live checks (HealthCheckResultDto)
 * and the usage reports of the calling key (Data API usage metrics, request logs, Subnet and
 * primary-network RPC usage).
 *
 * Counts, rates and durations are JSON numbers in the spec (`type: number`), read as finite
 * numbers; a log's `eventTimestamp` (unix seconds) as a wide integer.
 */
import * as v from 'valibot';
import { pageOf } from './common.ts';
import { perKit, type Kit } from './kit.ts';

/** HealthCheckResultDto's `status`. */
export const DATA_API_HEALTH_STATUSES = ['ok', 'error', 'shutting_down'] as const;
/** HealthIndicatorResultDto's `status`. */
export const HEALTH_INDICATOR_STATUSES = ['up', 'down'] as const;
/** TimeIntervalGranularityExtended: the granularities of getApiUsageMetrics. */
export const USAGE_TIME_INTERVALS = ['minute', 'hourly', 'daily', 'weekly', 'monthly'] as const;
/** SubnetRpcTimeIntervalGranularity and PrimaryNetworkRpcTimeIntervalGranularity (the same values). */
export const RPC_TIME_INTERVALS = ['hourly', 'daily', 'weekly', 'monthly'] as const;
/** UsageMetricsGroupByEnum. */
export const USAGE_GROUP_BY = ['requestPath', 'responseCode', 'chainId', 'apiKeyId', 'requestType'] as const;
/** RpcUsageMetricsGroupByEnum (Subnet RPC usage). */
export const SUBNET_RPC_GROUP_BY = ['rpcMethod', 'responseCode', 'rlBypassToken'] as const;
/** PrimaryNetworkRpcMetricsGroupByEnum. */
export const PRIMARY_RPC_GROUP_BY = ['rpcMethod', 'requestPath', 'responseCode', 'country', 'continent', 'userAgent'] as const;
/** RequestType: a Data API call or an RPC call. */
export const REQUEST_TYPES = ['data', 'rpc'] as const;

export const describeUsage = perKit((k: Kit) => {
  const HealthIndicator = v.object({ status: v.optional(k.openEnum(HEALTH_INDICATOR_STATUSES)) });
  const indicators = v.record(v.string(), HealthIndicator);

  /** HealthCheckResultDto: every member optional in the spec; `info` and `error` may be null. */
  const DataApiHealth = v.object({
    status: v.optional(k.openEnum(DATA_API_HEALTH_STATUSES)),
    info: v.optional(v.nullable(indicators)),
    error: v.optional(v.nullable(indicators)),
    details: v.optional(indicators),
  });

  /** `groupValue` is a string or a number in the spec (a path, a chain id, a status code). */
  const groupValue = v.optional(v.union([k.string, k.number]));

  /** What every usage bucket counts, whatever it is grouped by. */
  const metricValues = {
    groupValue,
    totalRequests: k.number,
    requestsPerSecond: k.number,
    successRatePercent: k.number,
    medianResponseTimeMsecs: k.number,
    invalidRequests: k.number,
    apiCreditsUsed: k.number,
    apiCreditsWasted: k.number,
  };

  /** UsageMetricsValueDTO. */
  const UsageMetricsValue = v.object({ groupedBy: k.openEnum([...USAGE_GROUP_BY, 'None']), ...metricValues });

  /** RpcUsageMetricsValueAggregated. */
  const RpcUsageMetricsValue = v.object({
    groupedBy: k.openEnum([...SUBNET_RPC_GROUP_BY, ...PRIMARY_RPC_GROUP_BY.filter((g) => g !== 'rpcMethod' && g !== 'responseCode'), 'None']),
    ...metricValues,
  });

  const UsageMetric = v.object({ timestamp: k.wideInteger, values: v.array(UsageMetricsValue) });
  const RpcMetric = v.object({ timestamp: k.wideInteger, values: v.array(RpcUsageMetricsValue) });

  /** LogsFormat: one request the key made. */
  const ApiLog = v.object({
    orgId: k.string,
    logId: k.string,
    eventTimestamp: k.wideInteger,
    apiKeyId: k.string,
    apiKeyAlias: k.string,
    hostRegion: k.string,
    requestType: k.openEnum(REQUEST_TYPES),
    requestPath: k.string,
    apiCreditsConsumed: k.number,
    requestDurationMsecs: k.number,
    responseCode: k.number,
    chainId: v.optional(k.string),
    rpcMethod: v.optional(k.string),
    metadata: v.object({ ipAddress: k.string, host: k.string, userAgent: k.string }),
  });

  return {
    DataApiHealth,
    UsageMetricsValue,
    RpcUsageMetricsValue,
    ApiLog,
    UsageMetricsResponse: v.object({ aggregateDuration: k.string, orgId: k.string, metrics: v.array(UsageMetric) }),
    ApiLogsResponse: pageOf(k, { orgId: k.string, logs: v.array(ApiLog) }),
    SubnetRpcUsageMetricsResponse: v.object({ aggregateDuration: k.string, metrics: v.array(RpcMetric), chainId: k.string }),
    PrimaryNetworkRpcUsageMetricsResponse: v.object({ aggregateDuration: k.string, metrics: v.array(RpcMetric), network: k.openEnum(['mainnet', 'testnet']) }),
  };
});

type UsageShapes = ReturnType<typeof describeUsage>;
export type DataApiHealth = v.InferOutput<UsageShapes['DataApiHealth']>;
export type UsageMetricsResponse = v.InferOutput<UsageShapes['UsageMetricsResponse']>;
export type UsageMetricsValue = v.InferOutput<UsageShapes['UsageMetricsValue']>;
export type RpcUsageMetricsValue = v.InferOutput<UsageShapes['RpcUsageMetricsValue']>;
export type ApiLog = v.InferOutput<UsageShapes['ApiLog']>;
export type ApiLogsResponse = v.InferOutput<UsageShapes['ApiLogsResponse']>;
export type SubnetRpcUsageMetricsResponse = v.InferOutput<UsageShapes['SubnetRpcUsageMetricsResponse']>;
export type PrimaryNetworkRpcUsageMetricsResponse = v.InferOutput<UsageShapes['PrimaryNetworkRpcUsageMetricsResponse']>;

/** Query parameters of getApiUsageMetrics. */
export interface UsageMetricsParams {
  startTimestamp?: number;
  endTimestamp?: number;
  timeInterval?: (typeof USAGE_TIME_INTERVALS)[number];
  groupBy?: (typeof USAGE_GROUP_BY)[number];
  chainId?: string;
  responseCode?: string;
  requestType?: (typeof REQUEST_TYPES)[number];
  requestPath?: string;
}

/** Query parameters of getApiLogs. */
export interface ApiLogsParams {
  startTimestamp?: number;
  endTimestamp?: number;
  chainId?: string;
  responseCode?: string;
  requestType?: (typeof REQUEST_TYPES)[number];
  requestPath?: string;
  pageToken?: string;
  pageSize?: number;
}

/** Query parameters of getSubnetRpcUsageMetrics. */
export interface SubnetRpcUsageParams {
  startTimestamp?: number;
  endTimestamp?: number;
  timeInterval?: (typeof RPC_TIME_INTERVALS)[number];
  groupBy?: (typeof SUBNET_RPC_GROUP_BY)[number];
  chainId?: string;
  responseCode?: string;
  rpcMethod?: string;
}

/** Query parameters of getPrimaryNetworkRpcUsageMetrics (`network` is its own required query parameter). */
export interface PrimaryRpcUsageParams {
  network: 'mainnet' | 'fuji' | 'testnet';
  startTimestamp?: number;
  endTimestamp?: number;
  timeInterval?: (typeof RPC_TIME_INTERVALS)[number];
  groupBy?: (typeof PRIMARY_RPC_GROUP_BY)[number];
  responseCode?: string;
  requestPath?: string;
  /** ISO 3166-1 alpha-2; `XX` for clients whose country is unknown. */
  country?: string;
  continent?: string;
  userAgent?: string;
  rpcMethod?: string;
}
