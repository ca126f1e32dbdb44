/**
 * A per-client rate limit at the HTTP edge (`RATE_LIMIT_RPS`, `RATE_LIMIT_BURST`): a
 * token bucket per client, refilled at `rps` tokens a second up to `burst`. A request
 * to the GraphQL endpoint without a token is answered 429 RATE_LIMITED with
 * `Retry-After`, before its body is read and before it waits for an admission slot,
 * so one caller cannot spend the upstream key's quota (or the gateway's slots) for
 * every other team. Other paths (GraphiQL assets, /health, /ready, /metrics) are
 * never limited.
 *
 * A client is named by the gateway's client identity (`client-identity.ts`): the caller's API key
 * once the Data API accepted it (teams behind one proxy or NAT keep separate budgets), else its
 * address (the socket's peer, or behind `trustProxy` proxies the address the outermost trusted proxy
 * saw; IPv6 per /64). A key nobody verified is no identity: a caller who makes up a new key per
 * request is still one client, its address. The lookup is the identity's local view, synchronous, so
 * the limit stays ahead of the body and every transport asks the same function.
 *
 * The buckets live in an LRU of at most `maxClients` entries, each dropped once it
 * would have refilled completely (a full bucket is what a new client gets), so the
 * state is bounded by entries whatever the callers send. rate-limiter-flexible's
 * memory store has no entry bound, hence this small bucket on lru-cache.
 */
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { ErrorCode } from '../../errors/graphql.ts';
import { edgeErrorBody } from './edge-response.ts';
import { createClientIdentity, type ClientIdentity } from './client-identity.ts';

export { addressBlock, addressClient } from './client-identity.ts';

/** Options of {@link useRateLimit} and {@link createRateLimiter}. */
export interface RateLimitOptions {
  /** Requests per second each client may sustain (`RATE_LIMIT_RPS`). */
  rps: number;
  /** Requests a client may send at once after a quiet period (`RATE_LIMIT_BURST`). Default `2 × rps`, at least 1. */
  burst?: number;
  /** Most clients tracked at once (`RATE_LIMIT_MAX_CLIENTS`); the least recently seen is forgotten first. Default 10000. */
  maxClients?: number;
  /**
   * Proxies in front of the gateway whose `x-forwarded-for` entries are believed (`TRUST_PROXY`):
   * 0 uses the socket's peer address; n uses the n-th entry from the right. Default 0.
   */
  trustProxy?: number;
  /** Header carrying a caller's own API key (the gateway's `apiKeyHeader`). Default `x-service-api-key`. */
  apiKeyHeader?: string;
  /** The GraphQL endpoint, the only path limited. Default `/graphql`. */
  endpoint?: string;
  /** Clock, ms. Default `performance.now`-based monotonic time. */
  now?: () => number;
}

export const RATE_LIMIT_DEFAULTS = { maxClients: 10_000, trustProxy: 0, apiKeyHeader: 'x-service-api-key', endpoint: '/graphql' } as const;

interface Bucket {
  tokens: number;
  at: number;
}

export interface RateLimiter {
  /** Takes one token for `client`: 0 when granted, else the ms until one is due. */
  take(client: string): number;
  /** Clients tracked now (at most `maxClients`). */
  size(): number;
}

/** The token buckets, keyed by client. */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { rps } = options;
  if (!Number.isFinite(rps) || rps <= 0) throw new Error(`RATE_LIMIT_RPS must be a positive number, got ${rps}`);
  const burst = options.burst ?? Math.max(1, Math.ceil(2 * rps));
  if (!Number.isSafeInteger(burst) || burst < 1) throw new Error(`RATE_LIMIT_BURST must be a positive integer, got ${burst}`);
  const now = options.now ?? (() => performance.now());
  // After this long untouched a bucket is full again: the same as no entry at all.
  const refillMs = Math.ceil((burst / rps) * 1000);
  const buckets = new LRUCache<string, Bucket>({ max: options.maxClients ?? RATE_LIMIT_DEFAULTS.maxClients, ttl: refillMs, perf: { now } });
  return {
    take(client) {
      const t = now();
      const bucket = buckets.get(client);
      const tokens = bucket ? Math.min(burst, bucket.tokens + ((t - bucket.at) / 1000) * rps) : burst;
      if (tokens >= 1) {
        buckets.set(client, { tokens: tokens - 1, at: t });
        return 0;
      }
      buckets.set(client, { tokens, at: t });
      return Math.ceil(((1 - tokens) / rps) * 1000);
    },
    size: () => buckets.size,
  };
}

/**
 * One gateway's rate limit, for every transport: each HTTP request, each WebSocket upgrade and
 * each operation sent over a socket takes a token from its client's bucket.
 */
export interface ClientRateLimit {
  /** Takes a token for the client of this request (its verified API key, else its address): 0 when granted, else the ms until one is due. */
  take(request: Request, socketAddress: string | undefined): number;
  /** The refusal's message and `Retry-After` seconds for a wait of `waitMs`. */
  refusal(waitMs: number): { message: string; retryAfter: number };
}

/**
 * The rate limit over `identity`, the gateway's one (which the Data API's answers feed). Default: an
 * identity of its own that nothing feeds, so every request counts against its address.
 */
export function createClientRateLimit(
  options: RateLimitOptions,
  identity: Pick<ClientIdentity, 'clientOf'> = createClientIdentity({ apiKeyHeader: options.apiKeyHeader, trustProxy: options.trustProxy }),
): ClientRateLimit {
  const limiter = createRateLimiter(options);
  return {
    take: (request, socketAddress) => limiter.take(identity.clientOf(request, socketAddress)),
    refusal(waitMs) {
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      return { retryAfter, message: `Too many requests from this client: at most ${options.rps} per second. Retry after ${retryAfter} s.` };
    },
  };
}

/**
 * Refuses requests over a client's rate with 429 RATE_LIMITED and `Retry-After`. Put it
 * after the plugins that answer other paths themselves (metrics, GraphiQL assets) and
 * before the request limits and admission control.
 */
export function useRateLimit(options: RateLimitOptions, limit: ClientRateLimit = createClientRateLimit(options)): Plugin {
  const endpoint = options.endpoint ?? RATE_LIMIT_DEFAULTS.endpoint;
  return {
    onRequest({ request, url, serverContext, fetchAPI, endResponse }) {
      if (url.pathname !== endpoint && url.pathname !== `${endpoint}/`) return;
      const waitMs = limit.take(request, socketAddressOf(serverContext));
      if (waitMs === 0) return;
      const { retryAfter, message } = limit.refusal(waitMs);
      endResponse(
        new fetchAPI.Response(edgeErrorBody(ErrorCode.RATE_LIMITED, message, { retryAfter }), {
          status: 429,
          headers: { 'content-type': 'application/json; charset=utf-8', 'retry-after': String(retryAfter) },
        }),
      );
    },
  };
}

/** The peer address of node:http's socket, from the server adapter's context (`{ req, res }`). */
function socketAddressOf(serverContext: unknown): string | undefined {
  if (typeof serverContext !== 'object' || serverContext === null) return undefined;
  const req = (serverContext as { req?: { socket?: { remoteAddress?: unknown } } }).req;
  const address = req?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}
