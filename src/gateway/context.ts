import type { YogaInitialContext } from 'graphql-yoga';
import type { Logger } from 'pino';
import { codedError, ErrorCode } from '../errors/graphql.ts';
import { budgetObserver, createBudget } from '../loaders/budget.ts';
import { loaderContext, type NodeDirectory } from '../loaders/registry.ts';
import type { Context } from '../schema/context.ts';
import type { CursorCodec } from '../schema/pagination.ts';
import { isApiKey, MAX_API_KEY_LENGTH } from '../lib/secrets.ts';
import type { CallOptions, DataApi, UpstreamObserver } from '../upstream/client-types.ts';
import { URL_REDACTOR, type Redactor } from '../lib/redact.ts';
import { bearer, sameSecret } from '../lib/secrets.ts';
import { WARM_UP_UPSTREAM } from './plugins/warm-up-requests.ts';
import type { ClientIdentity } from './plugins/client-identity.ts';

/** What a warm-up request reads instead of the gateway's own upstream. */
export interface WarmUpUpstream {
  dataApi: DataApi;
  nodes: NodeDirectory;
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
  /** Who the caller is for the per-client rules (the edge policy's `clientOf`). Default: `addr:unknown` for everyone. */
  clientOf?: (request: Request, socketAddress: string | undefined) => string;
  /** The gateway's secrets (`DATA_API_KEY`, `ADMIN_TOKEN`...), hidden from errors. Default: URL credentials only. */
  redactor?: Redactor;
  /**
   * What the Data API said of callers' keys (the gateway's client identity): each answer to a call carrying the
   * caller's key is reported, and a key it refused lately is answered UNAUTHENTICATED, unsent. Default: none.
   */
  keys?: Pick<ClientIdentity, 'refusedFor' | 'answered'>;
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
  // A key the Data API refused lately is not sent again until the refusal expires (fleet-wide with Redis).
  const refusedMs = callerKey ? deps.keys?.refusedFor(callerKey) : undefined;
  if (refusedMs !== undefined) {
    const retryAfter = Math.max(1, Math.ceil(refusedMs / 1000));
    throw codedError(
      ErrorCode.UNAUTHENTICATED,
      `The Data API refused this ${deps.apiKeyHeader} key recently (HTTP 401 or 403), so it is not sent again for now: check the key, or retry after ${retryAfter} s.`,
      { header: deps.apiKeyHeader, retryAfter, http: { status: 401, headers: { 'retry-after': String(retryAfter) } } },
    );
  }
  const upstreamCalls = createBudget();
  const requestId = deps.requestId?.(request);
  const warmUp = (initial as { [WARM_UP_UPSTREAM]?: WarmUpUpstream })[WARM_UP_UPSTREAM];
  // A warm-up request's calls are not the upstream's: the metrics of upstream calls never count them.
  const observer = warmUp ? undefined : deps.observer;
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
    // Every call that reaches the HTTP layer is admitted (counted in calls and compute units) or refused here, before it is sent.
    observer: budgetObserver(upstreamCalls, {
      onAttempt: (info) => {
        // The caller's key is judged by what its own calls got (warm-up answers are recordings, not the Data API's).
        if (callerKey && !warmUp) deps.keys?.answered(callerKey, info);
        observer?.onAttempt(info);
      },
    }),
  };
  return {
    ...loaderContext(warmUp ?? { dataApi: deps.dataApi, nodes: deps.nodes }, call),
    adminConfigured: Boolean(deps.adminToken),
    isAdmin: sameSecret(bearer(request.headers.get('authorization')), deps.adminToken),
    upstreamCalls,
    client: deps.clientOf?.(request, socketAddressOf(initial)) ?? 'addr:unknown',
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

/** The caller's peer address: node:http's socket, or what a transport without one put in the context (graphql-ws). */
function socketAddressOf(initial: YogaInitialContext): string | undefined {
  const edge = initial as { req?: { socket?: { remoteAddress?: unknown } }; socketAddress?: unknown };
  const address = edge.req?.socket?.remoteAddress ?? edge.socketAddress;
  return typeof address === 'string' ? address : undefined;
}
