import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { canonicalJson } from '../lib/canonical-json.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import {
  PAGES, type ApiLog, type ApiLogsParams, type DataApiHealth, type PrimaryNetworkRpcUsageMetricsResponse, type PrimaryRpcUsageParams,
  type SubnetRpcUsageMetricsResponse, type SubnetRpcUsageParams, type UsageMetricsParams, type UsageMetricsResponse,
} from '../shapes/index.ts';
import { requireOwnKey, type KeyOwner } from './own-key.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';

/**
 * The Data API's own status (its health and live checks) and the usage reports of the
 * calling key. Usage is billing data: it is read only with the caller's own key (the
 * `x-service-api-key` header the gateway forwards), or with the gateway's key by an
 * admin; anyone else is refused before any call, so one caller never reads what the
 * gateway's key (shared by every caller) spent.
 */

/** Who may read usage: a caller with their own key, or an admin (then with the gateway's key). */
export type UsageCaller = KeyOwner;

/** UNAUTHENTICATED unless the caller sent their own key or is an admin; checked before any call. */
export function checkUsageCaller(ctx: LoaderContext & UsageCaller): void {
  requireOwnKey(ctx, 'Reading usage');
}

/** One read per request: the same health check asked twice in a query is sent once. */
function once<V>(ctx: LoaderContext, name: string, read: () => Promise<V>): Promise<V> {
  return memoLoader(ctx, name, () => new DataLoader<'once', V>((keys) => read().then((value) => keys.map(() => value)))).load('once');
}

/** data-health-check: the Data API and its dependencies (cached 2 s, the `health` class). */
export function dataApiHealth(ctx: LoaderContext): Promise<DataApiHealth> {
  return once(ctx, 'dataApiHealth', () => upstreamOf(ctx).dataApi.dataHealthCheck(ctx.call));
}

/** live-check: the Data API process answers (cached 2 s, the `health` class). */
export function dataApiLiveness(ctx: LoaderContext): Promise<DataApiHealth> {
  return once(ctx, 'dataApiLiveness', () => upstreamOf(ctx).dataApi.liveCheck(ctx.call));
}

/** Each health field: one call per request however often it is selected. */
export const DATA_API_HEALTH_COST: FieldCost = weighing(costs.oncePerScope(1), ENDPOINTS.dataHealthCheck, ENDPOINTS.liveCheck);

/** A report per distinct set of parameters, once per request (the same report selected twice is one call). */
function report<P, V>(ctx: LoaderContext, name: string, read: (params: P) => Promise<V>): DataLoader<P, V, string> {
  return memoLoader(ctx, name, () => new DataLoader<P, V, string>((keys) => Promise.all(keys.map((k) => read(k).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))), { cacheKeyFn: canonicalJson }));
}

/** getApiUsageMetrics: the calling key's Data API usage, bucketed over time. Never cached (it counts the calls themselves). */
export function apiUsageMetrics(ctx: LoaderContext & UsageCaller, params: UsageMetricsParams): Promise<UsageMetricsResponse> {
  checkUsageCaller(ctx);
  return report(ctx, 'apiUsageMetrics', (p: UsageMetricsParams) => upstreamOf(ctx).dataApi.getApiUsageMetrics(p, ctx.call)).load(params);
}

/** getSubnetRpcUsageMetrics: the calling key's Subnet RPC usage. */
export function subnetRpcUsageMetrics(ctx: LoaderContext & UsageCaller, params: SubnetRpcUsageParams): Promise<SubnetRpcUsageMetricsResponse> {
  checkUsageCaller(ctx);
  return report(ctx, 'subnetRpcUsageMetrics', (p: SubnetRpcUsageParams) => upstreamOf(ctx).dataApi.getSubnetRpcUsageMetrics(p, ctx.call)).load(params);
}

/** getPrimaryNetworkRpcUsageMetrics: the calling key's primary-network RPC usage on one network. */
export function primaryNetworkRpcUsageMetrics(ctx: LoaderContext & UsageCaller, params: PrimaryRpcUsageParams): Promise<PrimaryNetworkRpcUsageMetricsResponse> {
  checkUsageCaller(ctx);
  return report(ctx, 'primaryNetworkRpcUsageMetrics', (p: PrimaryRpcUsageParams) => upstreamOf(ctx).dataApi.getPrimaryNetworkRpcUsageMetrics(p, ctx.call)).load(params);
}

/** Each usage report: one call per distinct set of arguments (a report selected once is one call). */
export const USAGE_REPORT_COST: FieldCost = weighing(costs.perParent(1), ENDPOINTS.getApiUsageMetrics, ENDPOINTS.getSubnetRpcUsageMetrics, ENDPOINTS.getPrimaryNetworkRpcUsageMetrics);

/** The filters of getApiLogs (its paging aside). */
export type ApiLogFilters = Omit<ApiLogsParams, 'pageToken' | 'pageSize'>;

/** getApiLogs as pages, newest first: the calling key's requests. */
export function apiLogPages(ctx: LoaderContext & UsageCaller, filters: ApiLogFilters): FetchPage<ApiLog> {
  checkUsageCaller(ctx);
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.getApiLogs({ ...filters, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
    return { items: page.logs, nextPageToken: page.nextPageToken };
  };
}

/** `ApiUsage.logs`: a page, or two with `after`. */
export const API_LOGS_COST: FieldCost = weighing(costs.listing(PAGES.apiLogs), ENDPOINTS.getApiLogs);
