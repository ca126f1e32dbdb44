import type { DevnetRequest, DevnetResponse } from '../http-types.ts';
import type { Route } from '../router.ts';
import { enumParam, param } from './evm-params.ts';
import {
  DATA_API_HEALTH_STATUSES, PRIMARY_RPC_GROUP_BY, REQUEST_TYPES, RPC_TIME_INTERVALS, SUBNET_RPC_GROUP_BY, USAGE_GROUP_BY, USAGE_TIME_INTERVALS,
} from '../../shapes/index.ts';
import { bad, fail, get, ok } from './http-error.ts';

/** The header the Data API reads the caller's key from (the gateway's default `apiKeyHeader`). */
const API_KEY_HEADER = 'x-service-api-key';
/** Requests the ledger keeps, oldest dropped first: the usage of a test or a local session, within about 2 MB. */
const LEDGER_SIZE = 10_000;
/** The devnet's one organisation: every key belongs to it. */
const ORG_ID = 'devnet-org';
const HOST_REGION = 'local';
const INTERVAL_SECONDS: Readonly<Record<(typeof USAGE_TIME_INTERVALS)[number], number>> = {
  minute: 60, hourly: 3_600, daily: 86_400, weekly: 604_800, monthly: 2_592_000,
};

/** One Data API request the devnet answered, as its usage reports count it. */
export interface UsageEntry {
  seq: number;
  key: string;
  /** When it was answered, unix ms. */
  at: number;
  /** The route template (`/v1/chains/{chainId}`) or the path when no route matched. */
  requestPath: string;
  status: number;
  durationMs: number;
  chainId?: string;
  userAgent: string;
}

/**
 * What the devnet's Data API saw, per caller key: every answered request with its key,
 * route, status and duration. The usage routes report from it, so the metrics and logs of
 * a key count exactly the requests the devnet served with that key.
 */
export interface UsageLedger {
  /** Counts one answered request; `durationMs` is how long answering it took. */
  record(req: DevnetRequest, answer: DevnetResponse, durationMs: number): void;
  entries(key: string): UsageEntry[];
}

export function createUsageLedger(now: () => number): UsageLedger {
  const entries: UsageEntry[] = [];
  let seq = 0;
  return {
    record(req, answer, durationMs) {
      const key = req.headers[API_KEY_HEADER];
      if (typeof key !== 'string' || key === '') return;
      const at = now();
      const template = answer.route.slice(answer.route.indexOf(' ') + 1) || req.path;
      const chainId = /^\/v1\/chains\/([^/]+)/.exec(req.path)?.[1];
      const userAgent = req.headers['user-agent'];
      seq += 1;
      entries.push({
        seq, key, at, requestPath: template, status: answer.status, durationMs: Math.round(durationMs * 1000) / 1000,
        ...(chainId ? { chainId } : {}), userAgent: typeof userAgent === 'string' ? userAgent : '',
      });
      if (entries.length > LEDGER_SIZE) entries.shift();
    },
    entries: (key) => entries.filter((e) => e.key === key),
  };
}

const median = (values: number[]): number => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function timestampParam(q: URLSearchParams, name: string): number | undefined {
  const raw = param(q, name);
  if (raw === undefined) return undefined;
  if (!/^\d{1,12}$/.test(raw)) bad(`${name} must be a non-negative integer`);
  return Number(raw);
}

/** A request's credits: one per answered request; refused ones (4xx) are wasted. */
const isInvalid = (e: UsageEntry): boolean => e.status >= 400 && e.status < 500;
const isSuccess = (e: UsageEntry): boolean => e.status >= 200 && e.status < 300;

type GroupField = 'requestPath' | 'responseCode' | 'chainId' | 'apiKeyId' | 'requestType';

function groupValueOf(e: UsageEntry, field: GroupField): string | number {
  switch (field) {
    case 'requestPath': return e.requestPath;
    case 'responseCode': return e.status;
    case 'chainId': return e.chainId ?? '';
    case 'apiKeyId': return keyIdOf(e.key);
    case 'requestType': return 'data';
  }
}

/** A key's id as the reports name it: never the key itself. */
function keyIdOf(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i += 1) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return `key-${h.toString(16).padStart(8, '0')}`;
}

/** Metrics values of a bucket's entries, one per group (or one `None` group). */
function valuesOf(entries: UsageEntry[], seconds: number, groupBy: GroupField | undefined) {
  const groups = new Map<string | number, UsageEntry[]>();
  for (const e of entries) {
    const g = groupBy ? groupValueOf(e, groupBy) : '';
    groups.set(g, [...(groups.get(g) ?? []), e]);
  }
  return [...groups].map(([group, list]) => {
    const invalid = list.filter(isInvalid).length;
    return {
      groupedBy: groupBy ?? 'None',
      ...(groupBy ? { groupValue: group } : {}),
      totalRequests: list.length,
      requestsPerSecond: list.length / seconds,
      successRatePercent: (100 * list.filter(isSuccess).length) / list.length,
      medianResponseTimeMsecs: median(list.map((e) => e.durationMs)),
      invalidRequests: invalid,
      apiCreditsUsed: list.length,
      apiCreditsWasted: invalid,
    };
  });
}

/** Entries within [start, end] (unix seconds, the spec's range) matching the common filters. */
function filtered(ledger: UsageLedger, key: string, q: URLSearchParams): UsageEntry[] {
  const start = timestampParam(q, 'startTimestamp');
  const end = timestampParam(q, 'endTimestamp');
  if (start !== undefined && end !== undefined && start > end) bad('startTimestamp must not be after endTimestamp');
  const chainId = param(q, 'chainId');
  const responseCode = param(q, 'responseCode');
  const requestPath = param(q, 'requestPath');
  const requestType = enumParam(q, 'requestType', REQUEST_TYPES);
  return ledger.entries(key).filter((e) => {
    const seconds = Math.floor(e.at / 1000);
    return (start === undefined || seconds >= start) && (end === undefined || seconds <= end)
      && (chainId === undefined || e.chainId === chainId)
      && (responseCode === undefined || String(e.status) === responseCode)
      && (requestPath === undefined || e.requestPath === requestPath)
      && (requestType === undefined || requestType === 'data');
  });
}

/** Buckets of `seconds`, oldest first, each with its values (empty buckets left out). */
function bucketed<V>(entries: UsageEntry[], seconds: number, values: (list: UsageEntry[]) => V[]): { timestamp: number; values: V[] }[] {
  const buckets = new Map<number, UsageEntry[]>();
  for (const e of entries) {
    const at = Math.floor(e.at / 1000 / seconds) * seconds;
    buckets.set(at, [...(buckets.get(at) ?? []), e]);
  }
  return [...buckets].sort((a, b) => a[0] - b[0]).map(([timestamp, list]) => ({ timestamp, values: values(list) }));
}

const callerKey = (req: DevnetRequest): string => {
  const key = req.headers[API_KEY_HEADER];
  if (typeof key !== 'string' || key === '') fail(401, 'An API key is required to read usage');
  return key;
};

const rpcGroupOf = <T extends string>(q: URLSearchParams, values: readonly T[]): T | undefined => enumParam(q, 'groupBy', values);

/**
 * The Data API's health checks and the calling key's usage reports, from the devnet's
 * own ledger: the metrics and logs of a key count the Data API requests the devnet
 * answered with that key. The devnet serves no Data API RPC (the gateway sends node
 * calls to the nodes, without the key), so the RPC usage reports count nothing: their
 * buckets are empty, with their filters still checked.
 */
export function usageRoutes(ledger: UsageLedger): Route[] {
  const health = () => ok({ status: DATA_API_HEALTH_STATUSES[0], info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } });
  const rpcReport = (req: DevnetRequest) => {
    callerKey(req);
    timestampParam(req.query, 'startTimestamp');
    timestampParam(req.query, 'endTimestamp');
    const interval = enumParam(req.query, 'timeInterval', RPC_TIME_INTERVALS) ?? 'daily';
    return { aggregateDuration: `${INTERVAL_SECONDS[interval] / 3_600}h`, metrics: [] };
  };
  return [
    get('/v1/health-check', health),
    get('/v1/live-check', () => ok({ status: DATA_API_HEALTH_STATUSES[0], info: {}, error: {}, details: {} })),
    get('/v1/apiUsageMetrics', (_p, req) => {
      const key = callerKey(req);
      const interval = enumParam(req.query, 'timeInterval', USAGE_TIME_INTERVALS) ?? 'daily';
      const groupBy = enumParam(req.query, 'groupBy', USAGE_GROUP_BY);
      const seconds = INTERVAL_SECONDS[interval];
      const metrics = bucketed(filtered(ledger, key, req.query), seconds, (list) => valuesOf(list, seconds, groupBy));
      return ok({ aggregateDuration: `${seconds / 3_600}h`, orgId: ORG_ID, metrics });
    }),
    get('/v1/apiLogs', (_p, req) => {
      const key = callerKey(req);
      const rawSize = param(req.query, 'pageSize');
      if (rawSize !== undefined && (!/^\d{1,3}$/.test(rawSize) || Number(rawSize) < 1 || Number(rawSize) > 100)) bad('pageSize must be an integer between 1 and 100');
      const size = rawSize === undefined ? 10 : Number(rawSize);
      // The token is the sequence number of the last log served: stable while new requests arrive.
      const token = param(req.query, 'pageToken');
      if (token !== undefined && !/^\d{1,15}$/.test(token)) bad('Invalid pageToken');
      const before = token === undefined ? Infinity : Number(token);
      const newestFirst = filtered(ledger, key, req.query).filter((e) => e.seq < before).reverse();
      const page = newestFirst.slice(0, size);
      const last = page.at(-1);
      const logs = page.map((e) => ({
        orgId: ORG_ID,
        logId: `log-${e.seq}`,
        eventTimestamp: Math.floor(e.at / 1000),
        apiKeyId: keyIdOf(e.key),
        apiKeyAlias: 'devnet',
        hostRegion: HOST_REGION,
        requestType: 'data',
        requestPath: e.requestPath,
        apiCreditsConsumed: 1,
        requestDurationMsecs: e.durationMs,
        responseCode: e.status,
        ...(e.chainId ? { chainId: e.chainId } : {}),
        metadata: { ipAddress: '127.0.0.1', host: 'devnet', userAgent: e.userAgent },
      }));
      return ok({ orgId: ORG_ID, logs, ...(last && newestFirst.length > size ? { nextPageToken: String(last.seq) } : {}) });
    }),
    get('/v1/subnetRpcUsageMetrics', (_p, req) => {
      rpcGroupOf(req.query, SUBNET_RPC_GROUP_BY);
      const chainId = param(req.query, 'chainId') ?? '';
      return ok({ ...rpcReport(req), chainId });
    }),
    get('/v1/primaryNetworkRpcUsageMetrics', (_p, req) => {
      const network = enumParam(req.query, 'network', ['mainnet', 'fuji', 'testnet'] as const);
      if (network === undefined) bad('network is required');
      rpcGroupOf(req.query, PRIMARY_RPC_GROUP_BY);
      return ok({ ...rpcReport(req), network: network === 'mainnet' ? 'mainnet' : 'testnet' });
    }),
  ];
}
