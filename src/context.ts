import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { codedError, ErrorCode } from './errors.ts';
import { loaderContext, type LoaderContext, type NodeDirectory } from './loaders/registry.ts';
import type { CursorCodec } from './schema/pagination.ts';
import { isApiKey, MAX_API_KEY_LENGTH } from './upstream/data-api.ts';
import type { CallOptions, DataApi, UpstreamObserver } from './upstream/client-types.ts';
import { URL_REDACTOR, type Redactor } from './lib/redact.ts';
import { bearer, sameSecret } from './lib/secrets.ts';

/** Per-request context: loaders, the request's signal, the caller's key and admin rights. */
export interface Context extends LoaderContext {
  /** True when ADMIN_TOKEN is configured: admin mutations exist for this deployment. */
  readonly adminConfigured: boolean;
  /** True when the caller presented `authorization: Bearer <ADMIN_TOKEN>`. */
  readonly isAdmin: boolean;
  /** Upstream calls this request made, and how many it may make (see {@link UpstreamBudget}). */
  readonly upstreamCalls: UpstreamBudget;
  /** The gateway's cursor codec (one per gateway: its secret signs every cursor). */
  readonly cursors: CursorCodec;
  /** This request's id (`x-request-id`: the caller's when well-formed, else generated); sent upstream on every call. */
  readonly requestId: string;
  /** The gateway's logger bound to `{ requestId }`: what logs anything about this request logs through it. */
  readonly log: Logger;
  /**
   * Until when everything this request read from the upstreams may be reused (ms since the epoch):
   * the earliest expiry of its answers, 0 once it read anything uncached, Infinity while it read
   * nothing. The whole-response cache keeps the response no longer (`useResponseCache`).
   */
  readonly freshUntil: { at: number };
  /** Hides the gateway's secrets and this request's own API key from any text about this request (upstream errors). */
  readonly redactor: Redactor;
}

/**
 * The upstream calls of one operation, or of one event of a subscription (its
 * window). Calls are counted when they are admitted, before they are sent, so
 * calls started together cannot overshoot the limit together; a call past the
 * limit is refused unsent and its field fails with QUERY_TOO_COSTLY. The budget
 * counts calls, not attempts: a retry of an admitted call (429, 5xx, a dropped
 * connection) is let through and tallied in `retries`, since refusing it would turn
 * a passing upstream hiccup into a cost error; the retry policy bounds them (2 per
 * call by default). Cache hits and shared in-flight calls this request joined never
 * reach the HTTP layer and cost nothing.
 */
export interface UpstreamBudget {
  /** Calls admitted in the current window (first attempts; see `retries`). */
  count: number;
  /** Most calls admitted per window. Infinity until `useQueryCost` sets it from the estimate. */
  limit: number;
  /** Calls refused because the window's budget was spent. */
  refused: number;
  /** Retries made (attempts after the first of a call): admitted outside the budget, bounded by the retry policy. */
  retries: number;
}

/** Starts a new window: a subscription's next poll or event gets its whole budget again. */
export function newBudgetWindow(budget: UpstreamBudget | undefined): void {
  if (budget) budget.count = 0;
}

export interface ContextDeps {
  dataApi: DataApi;
  nodes: NodeDirectory;
  adminToken?: string;
  /** Header a caller may use to send their own Data API key (default `x-service-api-key`). */
  apiKeyHeader: string;
  cursors: CursorCodec;
  /** The request's id (see `createRequestIds`). Default: none, and upstream calls carry no id. */
  requestId?: (request: Request) => string;
  /** The gateway's logger; each request gets a child bound to its id. */
  logger: Logger;
  /** Told about every upstream attempt of every request, after the budget (the gateway's metrics). */
  observer?: UpstreamObserver;
  /** The gateway's secrets (`DATA_API_KEY`, `ADMIN_TOKEN`...), hidden from errors. Default: URL credentials only. */
  redactor?: Redactor;
}

export function createContext(deps: ContextDeps, initial: YogaInitialContext): Context {
  const request = initial.request;
  const callerKey = request.headers.get(deps.apiKeyHeader) ?? undefined;
  // Parsed before it becomes an upstream header or part of a cache key; never echoed or logged.
  if (callerKey && !isApiKey(callerKey)) {
    throw codedError(
      ErrorCode.UNAUTHENTICATED,
      `The ${deps.apiKeyHeader} header is not a well-formed API key (1-${MAX_API_KEY_LENGTH} characters among letters, digits and - _ . ~ + / =)`,
      { header: deps.apiKeyHeader, http: { status: 401 } },
    );
  }
  const upstreamCalls: UpstreamBudget = { count: 0, limit: Infinity, refused: 0, retries: 0 };
  const requestId = deps.requestId?.(request);
  const observer = deps.observer;
  const freshUntil = { at: Infinity };
  let log: Logger | undefined;
  let redactor: Redactor | undefined;
  const call: CallOptions = {
    signal: request.signal,
    ...(callerKey ? { apiKey: callerKey } : {}),
    ...(requestId !== undefined ? { requestId } : {}),
    onExpiry: (at) => {
      if (at < freshUntil.at) freshUntil.at = at;
    },
    // Every call that reaches the HTTP layer is admitted (counted) or refused here, before it is sent.
    observer: {
      admit: ({ attempt }) => {
        if (attempt > 1) {
          upstreamCalls.retries += 1;
          return true;
        }
        if (upstreamCalls.count >= upstreamCalls.limit) {
          upstreamCalls.refused += 1;
          return false;
        }
        upstreamCalls.count += 1;
        return true;
      },
      onAttempt: (info) => observer?.onAttempt(info),
    },
  };
  return {
    ...loaderContext({ dataApi: deps.dataApi, nodes: deps.nodes }, call),
    adminConfigured: Boolean(deps.adminToken),
    isAdmin: sameSecret(bearer(request.headers.get('authorization')), deps.adminToken),
    upstreamCalls,
    cursors: deps.cursors,
    requestId: requestId ?? '',
    // Made on first use: most requests log nothing, and a child logger costs a few microseconds.
    get log(): Logger {
      return (log ??= requestId !== undefined ? deps.logger.child({ requestId }) : deps.logger);
    },
    freshUntil,
    // Made on first use too: only a request whose upstream failed needs its own key in a pattern.
    get redactor(): Redactor {
      return (redactor ??= (deps.redactor ?? URL_REDACTOR).with([callerKey]));
    },
  };
}
