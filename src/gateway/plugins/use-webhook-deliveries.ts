import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { ErrorCode } from '../../errors/codes.ts';
import type { DeliveryOutcome, LiveActivity, LiveActivityContext } from '../../loaders/live-activity.ts';
import { WEBHOOK_SIGNATURE_HEADER } from '../../lib/webhook-signature.ts';
import { edgeErrorResponse } from './edge-response.ts';
import { addressClient, createRateLimiter } from './use-rate-limit.ts';

/** Options of {@link useWebhookDeliveries}. */
export interface WebhookDeliveriesOptions {
  /**
   * Largest delivery body, bytes. Default 256 KiB: a transaction with its transfers and logs is a few KB,
   * but one with hundreds of transfers (an airdrop) is hundreds, and a body refused for its size is refused
   * at every retry; the CPU a large body costs is bounded by the verification slots instead.
   */
  maxBodyBytes?: number;
  /** Deliveries read at once (verified or waiting for it included); more wait for the sender's retry (503). Default 16, so bodies in memory stay under 16 x `maxBodyBytes`. */
  maxConcurrent?: number;
  /**
   * Refused deliveries (forged, malformed, duplicate, stale: all but accepted ones) a source address may
   * cost per second once its burst is spent; past it, its deliveries are answered 429 before they are read.
   * Default 5. A source is a client as `sourceOf` names it: an address (an IPv6 /64), the socket's peer or,
   * behind `TRUST_PROXY` proxies, the address the outermost one wrote in `x-forwarded-for`.
   */
  refusalsPerSecond?: number;
  /** Who a source is: the gateway's client identity (`TRUST_PROXY` applied). Default: the socket's peer address. */
  sourceOf?: (request: Request, socketAddress: string | undefined) => string;
  /** Refused deliveries a source may send at once after a quiet period. Default 50. */
  refusalBurst?: number;
  /** Sources tracked at once; the least recently seen is forgotten first. Default 10,000. */
  maxSources?: number;
  /** Clock, ms (monotonic). Default `performance.now`. */
  now?: () => number;
}

export const WEBHOOK_DELIVERIES_DEFAULTS = { maxBodyBytes: 256 * 1024, maxConcurrent: 16, refusalsPerSecond: 5, refusalBurst: 50, maxSources: 10_000 } as const;

/** The outcomes a source is charged for: everything but an accepted delivery and the gateway's own trouble. */
const CHARGED: ReadonlySet<DeliveryOutcome['outcome']> = new Set(['forged', 'malformed', 'duplicate', 'stale']);

/**
 * The endpoint the Data API delivers webhook events to (the path of `WEBHOOK_PUBLIC_URL`), and
 * live activity in every operation's context. A delivery is answered in `onRequest`: it is not a
 * GraphQL request, takes no GraphQL admission slot and no caller's rate share; it has its own, as the
 * endpoint is open to anyone and verifying a body is CPU. In order, cheapest first: the method, the
 * content type, the source's rate of refused deliveries (429), the signature header's form (401, unread),
 * the bodies read at once (503), the body's size (413); then `LiveActivity.receive` judges what it holds
 * (envelope, age, signature, message id), a few at once. Refusals before the body is read close the
 * connection. The answer is a small JSON word (`accepted`, `duplicate`, `stale`, `forged`, `malformed`,
 * `unavailable`, `busy`) with the status the sender acts on: 2xx stops its retries, 429 and 503 carry
 * `retry-after`.
 */
export function useWebhookDeliveries(live: LiveActivity, options: WebhookDeliveriesOptions = {}): Plugin<LiveActivityContext> {
  const maxBodyBytes = options.maxBodyBytes ?? WEBHOOK_DELIVERIES_DEFAULTS.maxBodyBytes;
  const maxConcurrent = options.maxConcurrent ?? WEBHOOK_DELIVERIES_DEFAULTS.maxConcurrent;
  const refusals = createRefusalRate(options);
  let reading = 0;
  return {
    onContextBuilding({ extendContext }) {
      extendContext({ liveActivity: live });
    },
    // Not async: every request passes here, and only deliveries should pay for a promise.
    onRequest(payload) {
      if (payload.url.pathname !== live.path) return undefined;
      return receive(payload);
    },
  };

  async function receive({ request, serverContext, fetchAPI, endResponse }: OnRequestPayload): Promise<void> {
    if (request.method !== 'POST') {
      endResponse(edgeErrorResponse(fetchAPI, 405, ErrorCode.BAD_REQUEST, `${live.path} takes the Data API's webhook deliveries: POST only.`, { allow: 'POST' }));
      return;
    }
    if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
      endResponse(edgeErrorResponse(fetchAPI, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'A webhook delivery is application/json.'));
      return;
    }
    // Named as every client is (behind `TRUST_PROXY` proxies, the address the outermost one saw): else one forger
    // behind the proxy would spend every sender's share.
    const source = (options.sourceOf ?? ((r: Request, address: string | undefined) => addressClient(r, address)))(request, socketAddressOf(serverContext));
    const waitMs = refusals.limited(source);
    if (waitMs > 0) {
      const retryAfter = String(Math.max(1, Math.ceil(waitMs / 1000)));
      endResponse(edgeErrorResponse(fetchAPI, 429, ErrorCode.RATE_LIMITED, 'Too many refused webhook deliveries from this address: retry later.', { 'retry-after': retryAfter, connection: 'close' }));
      return;
    }
    const signature = request.headers.get(WEBHOOK_SIGNATURE_HEADER) ?? undefined;
    const screened = live.screen(signature);
    if (screened) {
      refusals.charge(source);
      endResponse(outcomeResponse(fetchAPI, screened, { connection: 'close' }));
      return;
    }
    // The endpoint is open to anyone: bodies read at once are bounded (the Data API retries a 503).
    if (reading >= maxConcurrent) {
      endResponse(edgeErrorResponse(fetchAPI, 503, ErrorCode.SERVER_BUSY, 'Too many webhook deliveries at once: retry shortly.', { 'retry-after': '1', connection: 'close' }));
      return;
    }
    reading += 1;
    let taken;
    try {
      const body = await boundedText(request, maxBodyBytes);
      if (body === undefined) {
        endResponse(edgeErrorResponse(fetchAPI, 413, ErrorCode.PAYLOAD_TOO_LARGE, `A webhook delivery is at most ${maxBodyBytes} bytes.`, { connection: 'close' }));
        return;
      }
      taken = await live.receive(body, signature);
    } finally {
      reading -= 1;
    }
    if (CHARGED.has(taken.outcome)) refusals.charge(source);
    endResponse(outcomeResponse(fetchAPI, taken));
  }
}

type OnRequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

/** The answer to a judged delivery: its word, its status, and `retry-after` on a 503. */
function outcomeResponse(fetchAPI: OnRequestPayload['fetchAPI'], taken: DeliveryOutcome, headers: Record<string, string> = {}): Response {
  return new fetchAPI.Response(JSON.stringify({ status: taken.outcome }), {
    status: taken.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...(taken.status === 503 ? { 'retry-after': '1' } : {}), ...headers },
  });
}

/**
 * Each source's refused deliveries, as a token bucket (`createRateLimiter`): a refusal takes a token, and
 * a source whose bucket is empty is refused unread until its next token is due. Accepted deliveries take
 * none, so the Data API's own rate is never limited here, however busy its webhooks.
 */
function createRefusalRate(options: WebhookDeliveriesOptions): { limited(source: string): number; charge(source: string): void } {
  const now = options.now ?? (() => performance.now());
  const maxClients = options.maxSources ?? WEBHOOK_DELIVERIES_DEFAULTS.maxSources;
  const buckets = createRateLimiter({
    rps: options.refusalsPerSecond ?? WEBHOOK_DELIVERIES_DEFAULTS.refusalsPerSecond,
    burst: options.refusalBurst ?? WEBHOOK_DELIVERIES_DEFAULTS.refusalBurst,
    maxClients,
    now,
  });
  const blockedUntil = new LRUCache<string, number>({ max: maxClients });
  return {
    limited(source) {
      const until = blockedUntil.get(source);
      if (until === undefined) return 0;
      const left = until - now();
      if (left > 0) return left;
      blockedUntil.delete(source);
      return 0;
    },
    charge(source) {
      const waitMs = buckets.take(source);
      if (waitMs > 0) blockedUntil.set(source, now() + waitMs);
    },
  };
}

/** The peer address of node:http's socket, from the server adapter's context (`{ req, res }`). */
function socketAddressOf(serverContext: unknown): string | undefined {
  if (typeof serverContext !== 'object' || serverContext === null) return undefined;
  const address = (serverContext as { req?: { socket?: { remoteAddress?: unknown } } }).req?.socket?.remoteAddress;
  return typeof address === 'string' ? address : undefined;
}

/** The body as text, or undefined past `limit` bytes (declared or counted: the rest is never read). */
async function boundedText(request: Request, limit: number): Promise<string | undefined> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) return undefined;
  const reader = request.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
