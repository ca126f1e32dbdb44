/**
 * A per-client rate limit at the HTTP edge (`RATE_LIMIT_RPS`, `RATE_LIMIT_BURST`): a
 * token bucket per client, refilled at `rps` tokens a second up to `burst`. A request
 * to the GraphQL endpoint without a token is answered 429 RATE_LIMITED with
 * `Retry-After`, before its body is read and before it waits for an admission slot,
 * so one caller cannot spend the upstream key's quota (or the gateway's slots) for
 * every other team. Other paths (GraphiQL assets, /health, /ready, /metrics) are
 * never limited.
 *
 * A client is the caller's own API key when it sends a well-formed one (teams behind
 * one proxy or NAT keep separate budgets), else its address: the socket's peer, or,
 * behind `trustProxy` proxies, the address the outermost trusted proxy saw in
 * `x-forwarded-for` (the entries left of it are the caller's to write). IPv6 clients
 * are counted per /64, the block one host usually holds, so rotating addresses
 * within it does not buy new buckets. Keys are hashed, never stored. A caller who
 * makes up a new key per request gets a new bucket each time, but spends nothing of
 * the server's key: the Data API client sends the caller's key in place of it, and the
 * upstream refuses a made-up one (admission control still bounds what it costs here).
 *
 * The buckets live in an LRU of at most `maxClients` entries, each dropped once it
 * would have refilled completely (a full bucket is what a new client gets), so the
 * state is bounded by entries whatever the callers send. rate-limiter-flexible's
 * memory store has no entry bound, hence this small bucket on lru-cache.
 */
import { isIP } from 'node:net';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { ErrorCode } from '../../errors/graphql.ts';
import { shortDigest } from '../../lib/text.ts';
import { isApiKey } from '../../lib/secrets.ts';
import { edgeErrorBody } from './edge-response.ts';

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

/** The client a request counts against: `key:<hash>` for a caller's API key, else `addr:<address or /64>`. */
export function clientKey(request: Request, socketAddress: string | undefined, options: Pick<RateLimitOptions, 'trustProxy' | 'apiKeyHeader'> = {}): string {
  const key = request.headers.get(options.apiKeyHeader ?? RATE_LIMIT_DEFAULTS.apiKeyHeader);
  // A malformed key is not an identity (the request fails UNAUTHENTICATED later): it is counted by address.
  if (key !== null && isApiKey(key)) return `key:${shortDigest(key, 22)}`;
  return `addr:${addressBlock(clientAddress(request, socketAddress, options.trustProxy ?? 0))}`;
}

function clientAddress(request: Request, socketAddress: string | undefined, trustProxy: number): string {
  if (trustProxy > 0) {
    const forwarded = request.headers.get('x-forwarded-for');
    if (forwarded !== null) {
      const hops = forwarded.split(',').map((hop) => hop.trim()).filter((hop) => hop !== '');
      // Each trusted proxy appended the address it saw; the one `trustProxy` from the right was written by the outermost.
      const entry = hops[hops.length - trustProxy] ?? hops[0];
      if (entry !== undefined && isIP(stripPort(entry)) !== 0) return stripPort(entry);
    }
  }
  return socketAddress ?? 'unknown';
}

/** `1.2.3.4:5678` and `[::1]:5678` as some proxies write them, without the port. */
function stripPort(entry: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  if (bracketed?.[1]) return bracketed[1];
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(entry);
  return v4?.[1] ?? entry;
}

/** IPv4 as is (IPv4-mapped IPv6 included); IPv6 as its /64. */
export function addressBlock(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = address.includes('::') ? (tail === '' ? [] : tail.split(':')) : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * One gateway's rate limit, for every transport: each HTTP request, each WebSocket upgrade and
 * each operation sent over a socket takes a token from its client's bucket.
 */
export interface ClientRateLimit {
  /** Takes a token for the client of this request (its API key, else its address): 0 when granted, else the ms until one is due. */
  take(request: Request, socketAddress: string | undefined): number;
  /** The refusal's message and `Retry-After` seconds for a wait of `waitMs`. */
  refusal(waitMs: number): { message: string; retryAfter: number };
}

export function createClientRateLimit(options: RateLimitOptions): ClientRateLimit {
  const limiter = createRateLimiter(options);
  return {
    take: (request, socketAddress) => limiter.take(clientKey(request, socketAddress, options)),
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
