/**
 * Who a client is, for every per-client rule (the rate limit, the edge policy's operation and
 * subscription shares, `ctx.client` for the shares and budgets below the edge): one answer, which a
 * caller cannot invent.
 *
 * A caller's API key is an identity (`key:<digest>`) only once the Data API accepted it: a 2xx answer
 * to a call that carried it. Until then, and while the Data API refuses it (401, 403), the request
 * counts against its address (`addr:<address or IPv6 /64>`, the socket's peer or, behind `trustProxy`
 * proxies, what the outermost trusted proxy saw), so a thousand made-up keys from one address are one
 * client. A refused key is remembered for `refusedKeyTtlMs`: a request carrying it is answered
 * UNAUTHENTICATED without any upstream call meanwhile (src/gateway/context.ts).
 *
 * Answers are judged per key and only on what that key's own calls got: the cache of upstream answers
 * and its shared in-flight calls are keyed by the caller's key (src/upstream/cached-clients.ts), so a
 * key is never accepted because of another key's answer. The Data API's health checks prove nothing (a
 * service may answer them whatever the key): their 2xx are not counted.
 *
 * Keys are held only as digests (a labelled SHA-256, 132 bits), in two bounded LRUs: accepted keys
 * (`maxVerifiedKeys`, forgotten `verifiedKeyTtlMs` after their last use) and refused keys
 * (`maxRefusedKeys`, `refusedKeyTtlMs` after the refusal, not extended by use).
 *
 * Fleet-wide with a {@link KeyVerdictStore} (Redis with `REDIS_URL`, src/server/redis-key-verdicts.ts):
 * each verdict is written there, and a key this replica has no verdict for is looked up there in the
 * background. The lookup never sits on a request's path: the hot path is the local LRU, synchronous, so
 * every transport (HTTP's `onRequest`, graphql-ws, SSE) asks the same function. A replica's first
 * request with a key another replica verified counts against its address; once the lookup lands (one
 * Redis round trip) the key is an identity here too. Lookups are bounded: one per key per
 * {@link LOOKUP_INTERVAL_MS}, at most {@link MAX_LOOKUPS_IN_FLIGHT} at once, so a flood of made-up
 * keys costs Redis a bounded trickle of GETs.
 */
import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import { isApiKey } from '../../lib/secrets.ts';
import { shortDigest } from '../../lib/text.ts';

/** What the Data API said of a key. */
export type KeyVerdict = 'accepted' | 'refused';

/**
 * Verdicts shared by the replicas (Redis with `REDIS_URL`). Best effort: a failure reads as no verdict,
 * and the replica keeps its own view.
 */
export interface KeyVerdictStore {
  /** The verdict on `digest`, with the ms it has left; undefined when none is recorded. */
  get(digest: string): Promise<{ verdict: KeyVerdict; ttlMs: number } | undefined>;
  /** Records a verdict for `ttlMs`, replacing any other. */
  set(digest: string, verdict: KeyVerdict, ttlMs: number): Promise<void>;
}

/** Options of {@link createClientIdentity}. */
export interface ClientIdentityOptions {
  /** Header carrying a caller's own API key (the gateway's `apiKeyHeader`). Default `x-service-api-key`. */
  apiKeyHeader?: string;
  /**
   * Proxies in front of the gateway whose `x-forwarded-for` entries are believed (`TRUST_PROXY`):
   * 0 uses the socket's peer address; n uses the n-th entry from the right. Default 0.
   */
  trustProxy?: number;
  /** Most accepted keys remembered (`VERIFIED_KEYS_MAX`); the least recently used is forgotten first. Default 100000. */
  maxVerifiedKeys?: number;
  /** How long an accepted key stays an identity after its last use, ms (`VERIFIED_KEY_TTL_MS`). Default 600000 (10 min). */
  verifiedKeyTtlMs?: number;
  /** How long a refused key is answered UNAUTHENTICATED without asking the Data API again, ms (`REFUSED_KEY_TTL_MS`). Default 60000. */
  refusedKeyTtlMs?: number;
  /** Most refused keys remembered; the oldest is forgotten first. Default 10000. */
  maxRefusedKeys?: number;
  /** Where the replicas share verdicts. Default none: this process's view only. */
  store?: KeyVerdictStore;
  /** Clock, ms (monotonic). Default `performance.now`. */
  now?: () => number;
}

export const CLIENT_IDENTITY_DEFAULTS = {
  apiKeyHeader: 'x-service-api-key',
  trustProxy: 0,
  maxVerifiedKeys: 100_000,
  verifiedKeyTtlMs: 10 * 60_000,
  refusedKeyTtlMs: 60_000,
  maxRefusedKeys: 10_000,
} as const;

/** A key without a local verdict is looked up in the store at most once per this long. */
export const LOOKUP_INTERVAL_MS = 1_000;
/** Store lookups at once; a miss beyond it is not looked up (the next request may). */
export const MAX_LOOKUPS_IN_FLIGHT = 64;

/** An upstream attempt as the request's call observer reports it (structurally `UpstreamAttempt`). */
export interface AnsweredAttempt {
  upstream: string;
  /** The route template (`GET /v1/chains`). */
  operation: string;
  /** The HTTP status, when the upstream answered. */
  status?: number;
}

/** Data API operations whose 2xx says nothing about the key that was sent. */
const UNPROVEN_OPERATIONS: ReadonlySet<string> = new Set(['GET /v1/health-check', 'GET /v1/live-check']);

export interface ClientIdentityStats {
  /** Accepted keys remembered here. */
  verified: number;
  /** Refused keys remembered here. */
  refused: number;
  /** Store lookups in flight. */
  lookups: number;
}

/** One gateway's client identity: the rate limit, the edge policy and the request context all ask it. */
export interface ClientIdentity {
  /** The client a request counts against: `key:<digest>` for a key the Data API accepted, else `addr:<address or /64>`. Synchronous. */
  clientOf(request: Request, socketAddress: string | undefined): string;
  /** Ms until a key the Data API refused may be sent again; undefined when it is not refused. */
  refusedFor(key: string): number | undefined;
  /** An upstream answered an attempt that carried `key`: a Data API 2xx accepts it, a 401 or 403 refuses it; anything else says nothing. */
  answered(key: string, attempt: AnsweredAttempt): void;
  stats(): ClientIdentityStats;
}

/** What stands for a key everywhere it is remembered (never the key): SHA-256 under a fixed label, shared by replicas. */
export function keyDigest(key: string): string {
  return shortDigest(`chaingraph-client-key\n${key}`, 22);
}

export function createClientIdentity(options: ClientIdentityOptions = {}): ClientIdentity {
  const apiKeyHeader = options.apiKeyHeader ?? CLIENT_IDENTITY_DEFAULTS.apiKeyHeader;
  const trustProxy = options.trustProxy ?? CLIENT_IDENTITY_DEFAULTS.trustProxy;
  const verifiedTtl = positive('VERIFIED_KEY_TTL_MS', options.verifiedKeyTtlMs ?? CLIENT_IDENTITY_DEFAULTS.verifiedKeyTtlMs);
  const refusedTtl = positive('REFUSED_KEY_TTL_MS', options.refusedKeyTtlMs ?? CLIENT_IDENTITY_DEFAULTS.refusedKeyTtlMs);
  const now = options.now ?? (() => performance.now());
  // An injected clock is read at every look (lru-cache otherwise reuses a reading for 1 ms of real time).
  const clock = { perf: { now }, ttlResolution: options.now ? 0 : 1 };
  const { store } = options;
  // Value: when the verdict was last written to the store (so use refreshes the shared entry about twice per TTL).
  const verified = new LRUCache<string, number>({
    max: positive('VERIFIED_KEYS_MAX', options.maxVerifiedKeys ?? CLIENT_IDENTITY_DEFAULTS.maxVerifiedKeys),
    ttl: verifiedTtl,
    updateAgeOnGet: true,
    ...clock,
  });
  const refused = new LRUCache<string, true>({ max: positive('maxRefusedKeys', options.maxRefusedKeys ?? CLIENT_IDENTITY_DEFAULTS.maxRefusedKeys), ttl: refusedTtl, ...clock });
  const lookedUp = new LRUCache<string, true>({ max: 10_000, ttl: LOOKUP_INTERVAL_MS, ...clock });
  let lookups = 0;

  const share = (digest: string, verdict: KeyVerdict, ttlMs: number): void => {
    store?.set(digest, verdict, ttlMs).catch(() => undefined);
  };

  /** Asks the store about a key with no verdict here; what it says lands for the next request. */
  const lookUp = (digest: string): void => {
    if (!store || lookups >= MAX_LOOKUPS_IN_FLIGHT || lookedUp.has(digest)) return;
    lookedUp.set(digest, true);
    lookups += 1;
    store
      .get(digest)
      .then(
        (found) => {
          // A verdict reached here meanwhile is newer than the store's.
          if (!found || verified.has(digest) || refused.has(digest)) return;
          // Written by another replica just now or earlier: refreshed on this replica's first use.
          if (found.verdict === 'accepted') verified.set(digest, -Infinity);
          else if (found.ttlMs > 0) refused.set(digest, true, { ttl: Math.min(found.ttlMs, refusedTtl) });
        },
        () => undefined,
      )
      .finally(() => {
        lookups -= 1;
      });
  };

  /** The key's digest when it is an identity (verified), refreshing its age here and, now and then, in the store. */
  const verifiedDigest = (key: string): string | undefined => {
    const digest = keyDigest(key);
    const storedAt = verified.get(digest);
    if (storedAt === undefined) {
      if (!refused.has(digest)) lookUp(digest);
      return undefined;
    }
    const t = now();
    if (store && t - storedAt > verifiedTtl / 2) {
      verified.set(digest, t);
      share(digest, 'accepted', verifiedTtl);
    }
    return digest;
  };

  return {
    clientOf(request, socketAddress) {
      const key = request.headers.get(apiKeyHeader);
      // A malformed key is no identity (the request fails UNAUTHENTICATED later): counted by address, as an unverified one.
      const digest = key !== null && isApiKey(key) ? verifiedDigest(key) : undefined;
      return digest !== undefined ? `key:${digest}` : addressClient(request, socketAddress, trustProxy);
    },
    refusedFor(key) {
      const digest = keyDigest(key);
      const left = refused.getRemainingTTL(digest);
      if (left > 0) return left;
      if (!verified.has(digest)) lookUp(digest);
      return undefined;
    },
    answered(key, attempt) {
      const { status } = attempt;
      if (attempt.upstream !== 'data-api' || status === undefined) return;
      if (status >= 200 && status < 300) {
        if (UNPROVEN_OPERATIONS.has(attempt.operation)) return;
        const digest = keyDigest(key);
        // Known already: its age is refreshed (a use), nothing is written.
        if (verified.get(digest) !== undefined) return;
        refused.delete(digest);
        verified.set(digest, now());
        share(digest, 'accepted', verifiedTtl);
      } else if (status === 401 || status === 403) {
        const digest = keyDigest(key);
        verified.delete(digest);
        // A refusal runs its course: later refusals (calls already in flight) do not extend it.
        if (refused.has(digest)) return;
        refused.set(digest, true);
        share(digest, 'refused', refusedTtl);
      }
    },
    stats: () => ({ verified: verified.size, refused: refused.size, lookups }),
  };
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}

/** The client a request counts against when it has no verified key: `addr:<address or /64>`. */
export function addressClient(request: Request, socketAddress: string | undefined, trustProxy = 0): string {
  return `addr:${addressBlock(clientAddress(request, socketAddress, trustProxy))}`;
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
