import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import type { LiveActivity, LiveActivityContext } from '../../loaders/live-activity.ts';
import { WEBHOOK_SIGNATURE_HEADER } from '../../lib/webhook-signature.ts';
import { edgeErrorResponse } from './edge-response.ts';

/** Options of {@link useWebhookDeliveries}. */
export interface WebhookDeliveriesOptions {
  /** Largest delivery body, bytes. Default 256 KiB (a transaction with its transfers and logs is a few KB). */
  maxBodyBytes?: number;
  /** Deliveries read at once; more wait for the sender's retry (503). Default 16, so bodies in memory stay under 16 x `maxBodyBytes`. */
  maxConcurrent?: number;
}

export const WEBHOOK_DELIVERIES_DEFAULTS = { maxBodyBytes: 256 * 1024, maxConcurrent: 16 } as const;

/**
 * The endpoint the Data API delivers webhook events to (the path of `WEBHOOK_PUBLIC_URL`), and
 * live activity in every operation's context. A delivery is answered in `onRequest`: it is not a
 * GraphQL request, takes no admission slot and no caller's rate share. Its body is bounded before
 * it is read; what it holds is judged by `LiveActivity.receive` (signature, message id, age).
 * The answer is a small JSON word (`accepted`, `duplicate`, `stale`, `forged`, `malformed`,
 * `unavailable`) with the status the sender acts on: 2xx stops its retries.
 */
export function useWebhookDeliveries(live: LiveActivity, options: WebhookDeliveriesOptions = {}): Plugin<LiveActivityContext> {
  const maxBodyBytes = options.maxBodyBytes ?? WEBHOOK_DELIVERIES_DEFAULTS.maxBodyBytes;
  const maxConcurrent = options.maxConcurrent ?? WEBHOOK_DELIVERIES_DEFAULTS.maxConcurrent;
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

  async function receive({ request, fetchAPI, endResponse }: OnRequestPayload): Promise<void> {
    if (request.method !== 'POST') {
      endResponse(edgeErrorResponse(fetchAPI, 405, ErrorCode.BAD_REQUEST, `${live.path} takes the Data API's webhook deliveries: POST only.`, { allow: 'POST' }));
      return;
    }
    if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
      endResponse(edgeErrorResponse(fetchAPI, 415, ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'A webhook delivery is application/json.'));
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
      taken = await live.receive(body, request.headers.get(WEBHOOK_SIGNATURE_HEADER) ?? undefined);
    } finally {
      reading -= 1;
    }
    endResponse(
      new fetchAPI.Response(JSON.stringify({ status: taken.outcome }), {
        status: taken.status,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      }),
    );
  }
}

type OnRequestPayload = Parameters<NonNullable<Plugin['onRequest']>>[0];

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
