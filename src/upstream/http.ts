/**
 * The one HTTP policy both upstream clients use: a keep-alive undici pool per
 * origin with explicit connect/headers/body timeouts, a per-call deadline that
 * covers every attempt and backoff and is joined with the caller's signal, and
 * retries with capped, fully jittered exponential backoff for idempotent calls
 * only, honouring `Retry-After`.
 *
 * The loop is written here rather than with undici's retry interceptor because
 * the policy needs things the interceptor does not offer per call: one deadline
 * across attempts, failing fast when `Retry-After` exceeds what is left of it,
 * an idempotency decision made by the caller (a JSON-RPC read is a POST), and an
 * observer that sees every attempt.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { Pool, type Dispatcher } from 'undici';
import type { UpstreamAttempt, UpstreamObserver } from './client-types.ts';
import { breakerVerdict, createBreakers, type BreakerOptions, type Breakers, type BreakerStatus } from './breaker.ts';
import { throttledError, type UpstreamRate } from './upstream-rate.ts';
import type { Billing, ComputeUnitCeiling, Refusal } from './compute-unit-ceiling.ts';
import { parseRetryAfter } from './retry-after.ts';
import { classifyStatus, classifyTransport, errorBodyMessage, UpstreamError, type UpstreamErrorKind, type UpstreamName } from './errors.ts';
import { normalizeErrorBody, statusText } from './normalize.ts';
import type { ErrorBody } from '../shapes/index.ts';
import { whenAborted } from '../lib/abort.ts';
import { CallSignal, createDeadlines, DeadlineExceeded } from './call-signal.ts';
import { parseExactJson } from '../lib/exact-json.ts';
import { createRedactor, excerpt, urlSecrets, type Redactor } from '../lib/redact.ts';

export type { UpstreamAttempt, UpstreamObserver } from './client-types.ts';
export { parseRetryAfter } from './retry-after.ts';

/** Options of {@link createHttpUpstream}. Every timeout is in milliseconds. */
export interface HttpUpstreamOptions {
  /**
   * Used for every origin instead of the pool per origin this module builds
   * (tests inject a `MockAgent` or an `Agent`). Not closed by `close()`.
   */
  dispatcher?: Dispatcher;
  /** TCP (and TLS) connect timeout. Default 3000. */
  connectTimeoutMs?: number;
  /** Time allowed until the response headers arrive, per attempt. Default 10000 (undici's own is 300 s). */
  headersTimeoutMs?: number;
  /** Longest pause between two body chunks, per attempt. Default 10000 (undici's own is 300 s). */
  bodyTimeoutMs?: number;
  /** How long an idle keep-alive connection is kept (a server's keep-alive hint may lower it). Default 10000. */
  keepAliveTimeoutMs?: number;
  /** Connections per origin. Default 64. */
  connections?: number;
  /** Per-call deadline covering all attempts and backoff; a call may override it. Default 15000. */
  timeoutMs?: number;
  /** Retries after the first attempt, for idempotent calls only. Default 2. */
  retries?: number;
  /** Backoff base: the n-th retry waits a random time in [0, min(cap, base * 2^(n-1))). Default 100. */
  retryBaseDelayMs?: number;
  /** Backoff cap. Default 2000. */
  retryMaxDelayMs?: number;
  /** Largest response body accepted; a larger one is a protocol error. Default 32 MiB. */
  maxResponseBytes?: number;
  /** Told about every attempt of every call. */
  observer?: UpstreamObserver;
  /** Random source for the jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /**
   * A circuit breaker per upstream (see `breaker.ts`), checked before every attempt,
   * retries included: options for this policy's own breakers, or `false` for none.
   * Default on, `BREAKER_DEFAULTS` (5 consecutive failures, 10 s open).
   */
  breaker?: BreakerOptions | false;
  /** The gateway's own upstream request-rate ceiling (`UPSTREAM_MAX_RPS`, see `upstream-rate.ts`). Not closed by `close()`. Default none. */
  upstreamRate?: UpstreamRate;
  /**
   * The Data API's limits kept fleet-wide (`compute-unit-ceiling.ts`): the server key's compute-unit ceiling
   * (`UPSTREAM_COMPUTE_UNITS_PER_MINUTE`) and the pause of a key after a 429. Applies to calls with `billing`. Default none.
   */
  computeUnits?: ComputeUnitCeiling;
}

/** One logical call; the policy may make several attempts. */
export interface HttpCall {
  upstream: UpstreamName;
  /** Route template or JSON-RPC method, for errors and observers. Never a URL (it may carry secrets). */
  operation: string;
  /** A DELETE may carry a JSON body (`json`), as the Data API's address removal does. */
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** `scheme://host[:port]`, without user info (credentials go in `headers`). */
  origin: string;
  /** The path and query, already encoded: what goes on the request line. */
  path: string;
  headers?: Record<string, string>;
  /**
   * `headers` are the whole request headers, `accept` (and `content-type` with `json`) included: sent as
   * they are, never copied (a client builds them once per row and key). Default false: `accept` and
   * `content-type` are added to a copy.
   */
  completeHeaders?: boolean;
  /**
   * Secrets this call sends (an API key, basic auth). An upstream, or a proxy, that echoes what it
   * received ("Invalid API key <key>") never gets them into an error: every upstream text an error
   * keeps is redacted of them and of the credentials in `url`. Default none.
   */
  credentials?: readonly string[];
  /** Serialized as the JSON request body, with `content-type: application/json`. */
  json?: unknown;
  /**
   * Who the call is billed to upstream (the key's holder, never the key) and its weight in compute units:
   * Data API calls. Observers see `computeUnits` on every attempt. Default none (node calls bill nothing).
   */
  billing?: Billing;
  /** Whether the call may be repeated safely (GETs, read-only RPC methods). Only these are retried. */
  idempotent: boolean;
  /** The caller's signal (the GraphQL request's). */
  signal?: AbortSignal | undefined;
  /** Overrides the per-call deadline. */
  timeoutMs?: number | undefined;
  /** Told about each attempt of this call, after the upstream's own observer. */
  observer?: UpstreamObserver | undefined;
  /**
   * Whether a non-2xx answer is nevertheless the answer (the node's health GETs
   * answer 503 with a report). Such answers are returned, never retried.
   */
  isAnswer?: (status: number, body: unknown) => boolean;
  /** A 2xx with an empty body is the whole answer (an operation that answers 201 without content): its body is undefined. */
  emptyAnswer?: boolean;
  /**
   * The answer carries a secret (the webhook shared secret): a 2xx body that is not JSON is reported
   * without the parser's error as cause, since its message quotes the body. Default false.
   */
  secretAnswer?: boolean;
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  /**
   * The parsed JSON body (`JSON.parse`: an integer literal beyond 2^53 is rounded; the shapes notice
   * and ask for {@link HttpResult.exactBody}).
   */
  body: unknown;
  /** The body parsed again with every integer exact (`parseExactJson`): for `ReadOptions.exact`. */
  exactBody: () => unknown;
}

export interface HttpUpstream {
  request(call: HttpCall): Promise<HttpResult>;
  /** Every upstream's circuit breaker that has been used, and its state (empty with `breaker: false`). */
  breakers(): BreakerStatus[];
  /** Closes the pools this upstream created. */
  close(): Promise<void>;
}

export const HTTP_DEFAULTS = {
  connectTimeoutMs: 3_000,
  headersTimeoutMs: 10_000,
  bodyTimeoutMs: 10_000,
  keepAliveTimeoutMs: 10_000,
  connections: 64,
  timeoutMs: 15_000,
  retries: 2,
  retryBaseDelayMs: 100,
  retryMaxDelayMs: 2_000,
  maxResponseBytes: 32 * 1024 * 1024,
} as const;

const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Connection failures worth another attempt of an idempotent call. */
const RETRY_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET', 'ECONNREFUSED', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EAI_AGAIN',
  'ENETDOWN', 'ENETUNREACH', 'EHOSTDOWN', 'EHOSTUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED',
]);
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
]);
const PROTOCOL_CODES: ReadonlySet<string> = new Set([
  'HPE_INVALID_CONSTANT', 'HPE_INVALID_CHUNK_SIZE', 'HPE_INVALID_STATUS', 'HPE_INVALID_HEADER_TOKEN',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', 'UND_ERR_HEADERS_OVERFLOW', 'UND_ERR_RES_EXCEEDED_MAX_SIZE',
]);

/** Thrown inside one attempt; carries the retry decision with the error. */
interface AttemptFailure {
  error: UpstreamError;
  retryable: boolean;
  /** Wait asked for by `Retry-After`, ms. */
  retryAfterMs?: number;
}

export function createHttpUpstream(options: HttpUpstreamOptions = {}): HttpUpstream {
  const settings = { ...HTTP_DEFAULTS, ...definedOnly(options) };
  const random = options.random ?? Math.random;
  const pools = new Map<string, Pool>();
  const breakers: Breakers | undefined = options.breaker === false ? undefined : createBreakers(options.breaker);
  const errorOf = (thrown: unknown): UpstreamError | undefined => (isAttemptFailure(thrown) ? thrown.error : undefined);
  // Per upstream, the last attempt that failed in a way that moves the breaker: what an open circuit's refusal names as its cause.
  const lastFailures = new Map<UpstreamName, UpstreamError>();
  // Every call's deadline, on one timer per distinct timeout (see call-signal.ts).
  const deadlines = createDeadlines();

  const dispatcherFor = (origin: string): Dispatcher => {
    if (options.dispatcher) return options.dispatcher;
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: settings.connections,
        connectTimeout: settings.connectTimeoutMs,
        headersTimeout: settings.headersTimeoutMs,
        bodyTimeout: settings.bodyTimeoutMs,
        keepAliveTimeout: settings.keepAliveTimeoutMs,
      });
      pools.set(origin, pool);
    }
    return pool;
  };

  const notify = (call: HttpCall, info: UpstreamAttempt): void => {
    tell(options.observer, info);
    tell(call.observer, info);
  };

  /** Asks the observers whether this attempt may be sent; only an explicit `false` refuses. */
  const admitted = (call: HttpCall, attempt: number): boolean => {
    const own = options.observer?.admit;
    const caller = call.observer?.admit;
    if (!own && !caller) return true;
    const request = { upstream: call.upstream, operation: call.operation, attempt, ...(call.billing ? { computeUnits: call.billing.computeUnits } : {}) };
    if (own && options.observer?.admit?.(request) === false) return false;
    return !(caller && call.observer?.admit?.(request) === false);
  };

  async function attemptOnce(call: HttpCall, signal: CallSignal, attempt: number): Promise<HttpResult> {
    const dispatcher = dispatcherFor(call.origin);
    const body = call.json === undefined ? null : JSON.stringify(call.json);
    const headers = headersOf(call);
    const span = startAttemptSpan(call, attempt, headers);
    const started = performance.now();
    let status: number | undefined;
    try {
      const res = await dispatcher.request({
        origin: call.origin,
        path: call.path,
        method: call.method,
        headers: span.headers,
        body,
        // An EventEmitter-like signal (undici takes either): no EventTarget listener per attempt.
        signal,
        idempotent: call.idempotent,
        headersTimeout: settings.headersTimeoutMs,
        bodyTimeout: settings.bodyTimeoutMs,
      });
      status = res.statusCode;
      if (call.billing) options.computeUnits?.observe(call.billing, res.statusCode, res.headers);
      const text = await readText(res.body, settings.maxResponseBytes);
      const result = interpret(call, res.statusCode, res.headers, text, attempt);
      notify(call, { upstream: call.upstream, operation: call.operation, attempt, status, durationMs: performance.now() - started, ...billed(call) });
      endAttemptSpan(span.span, status);
      lastFailures.delete(call.upstream);
      return result;
    } catch (thrown) {
      const failure = isAttemptFailure(thrown) ? thrown : { error: transportError(call, thrown, signal, attempt, settings), retryable: isRetryableTransport(thrown, signal) };
      if (breakerVerdict(failure.error) === 'failure') lastFailures.set(call.upstream, failure.error);
      else if (breakerVerdict(failure.error) === 'answer') lastFailures.delete(call.upstream);
      const info: UpstreamAttempt = {
        upstream: call.upstream,
        operation: call.operation,
        attempt,
        error: failure.error.kind,
        durationMs: performance.now() - started,
        ...billed(call),
      };
      if (status !== undefined) info.status = status;
      notify(call, info);
      endAttemptSpan(span.span, status, failure.error.kind);
      throw failure;
    }
  }

  async function request(call: HttpCall): Promise<HttpResult> {
    const timeoutMs = call.timeoutMs ?? settings.timeoutMs;
    const started = performance.now();
    // One signal for the call: the shared deadline's, or the caller's abort passed on (no AbortController,
    // timer or EventTarget listener of its own).
    const signal = deadlines.start(timeoutMs);
    const caller = call.signal;
    let unfollow: (() => void) | undefined;
    if (caller?.aborted) signal.abort(caller.reason);
    else if (caller) unfollow = whenAborted(caller, () => signal.abort(caller.reason));
    const maxAttempts = call.idempotent ? settings.retries + 1 : 1;
    let attempt = 0;
    let previous: UpstreamError | undefined;
    try {
      for (;;) {
        if (signal.aborted) throw abortError(call, signal, attempt);
        attempt += 1;
        // Refused at once, unsent, while the upstream's circuit is open: a retry never goes to a sick upstream.
        // A call whose own attempt failed reports that failure (it was made); one never sent names what opened the circuit.
        try {
          breakers?.guard(call.upstream, call.operation, attempt - 1);
        } catch (refusal) {
          throw previous ?? withOpenedBy(refusal, lastFailures.get(call.upstream));
        }
        // Refused before it is sent: the request's upstream-call budget is spent (the observer decides about retries).
        if (!admitted(call, attempt)) throw budgetError(call, attempt, previous);
        if (options.upstreamRate) {
          // A turn under the gateway's own rate ceiling, waited for within what is left of the deadline.
          const wait = await options.upstreamRate
            .acquire(call.upstream, signal.asAbortSignal(), timeoutMs - (performance.now() - started))
            .catch(() => {
              throw abortError(call, signal, attempt - 1);
            });
          if (wait !== undefined) throw throttledError(call.upstream, call.operation, attempt - 1, wait, previous);
        }
        if (options.computeUnits && call.billing) {
          // Sent only while the key is not paused by the upstream and, for the server's key, within its compute-unit ceiling.
          const refusal = await options.computeUnits
            .acquire(call.billing, signal.asAbortSignal(), timeoutMs - (performance.now() - started))
            .catch(() => {
              throw abortError(call, signal, attempt - 1);
            });
          if (refusal) throw computeUnitsRefusal(call, attempt - 1, refusal, previous);
        }
        let failure: AttemptFailure;
        try {
          return breakers
            ? await breakers.run(call.upstream, call.operation, attempt - 1, attemptOnce, errorOf, call, signal, attempt)
            : await attemptOnce(call, signal, attempt);
        } catch (thrown) {
          if (!isAttemptFailure(thrown)) throw isRefusal(thrown) ? previous ?? withOpenedBy(thrown, lastFailures.get(call.upstream)) : thrown;
          failure = thrown;
          previous = failure.error;
        }
        if (!failure.retryable || attempt >= maxAttempts) throw failure.error;
        const backoff = random() * Math.min(settings.retryMaxDelayMs, settings.retryBaseDelayMs * 2 ** (attempt - 1));
        const delay = failure.retryAfterMs ?? backoff;
        const remaining = timeoutMs - (performance.now() - started);
        // Waiting past the deadline only to time out would hide the upstream's own answer.
        if (delay >= remaining) throw failure.error;
        await signal.sleep(delay).catch(() => {
          throw abortError(call, signal, attempt);
        });
      }
    } finally {
      deadlines.end(signal);
      unfollow?.();
    }
  }

  return {
    request,
    breakers: () => breakers?.states() ?? [],
    close: async () => {
      const closing = [...pools.values()].map((pool) => pool.close());
      pools.clear();
      await Promise.all(closing);
    },
  };
}

/** Turns one complete response into a result, or throws an {@link AttemptFailure}. */
function interpret(call: HttpCall, status: number, headers: IncomingHttpHeaders, text: string, attempt: number): HttpResult {
  let parsed: unknown;
  let parseError: unknown;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text) as unknown;
    } catch (error) {
      parseError = error;
    }
  }
  const ok = status >= 200 && status < 300;
  if (ok && call.emptyAnswer && text.trim() === '') return { status, headers, body: undefined, exactBody: () => undefined };
  if (ok || (parseError === undefined && call.isAnswer?.(status, parsed))) {
    if (parseError !== undefined || text.trim() === '') {
      const what = parseError !== undefined ? 'a body that is not JSON' : 'an empty body';
      throw {
        error: new UpstreamError(`${call.upstream} ${call.operation}: HTTP ${status} with ${what}`, {
          upstream: call.upstream, kind: 'protocol', operation: call.operation, status, attempts: attempt, ...(call.secretAnswer ? {} : { cause: parseError }),
          failure: 'bad_answer', origin: call.origin,
        }),
        retryable: false,
      } satisfies AttemptFailure;
    }
    return { status, headers, body: parsed, exactBody: () => parseExactJson(text) };
  }

  // Made only here, on a failure: the upstream's text is kept as a redacted, bounded excerpt, never as sent.
  const redactor = redactorOf(call);
  const body: ErrorBody | undefined = normalizeErrorBody(parsed, status, redactor);
  const retryAfter = parseRetryAfter(headers['retry-after']);
  const detail = errorBodyMessage(body) ?? excerpt(text, redactor);
  const message = `${call.upstream} ${call.operation}: HTTP ${status} ${statusText(status)}${detail ? `: ${detail}` : ''}`;
  const failure: AttemptFailure = {
    error: new UpstreamError(message, {
      upstream: call.upstream,
      kind: 'http',
      operation: call.operation,
      status,
      ...(body ? { body } : {}),
      ...(retryAfter !== undefined ? { retryAfter: retryAfter / 1000 } : {}),
      attempts: attempt,
      ...diagnosis(call, classifyStatus(status)),
    }),
    retryable: RETRY_STATUSES.has(status),
  };
  if (retryAfter !== undefined) failure.retryAfterMs = retryAfter;
  throw failure;
}

/** Tells one observer about an attempt: a failing counter must not fail the call it counts. */
function tell(observer: UpstreamObserver | undefined, info: UpstreamAttempt): void {
  if (!observer) return;
  try {
    observer.onAttempt(info);
  } catch {
    /* ignored on purpose */
  }
}

/** What observers are told of a billed call's weight. */
function billed(call: HttpCall): { computeUnits?: number } {
  return call.billing ? { computeUnits: call.billing.computeUnits } : {};
}

/** The attempt was refused by the compute-unit ceiling or a pause after the upstream's 429: nothing was sent. */
function computeUnitsRefusal(call: HttpCall, attempts: number, refusal: Refusal, previous: UpstreamError | undefined): UpstreamError {
  const limit = refusal.reason === 'paused' ? 'upstream-429' : 'UPSTREAM_COMPUTE_UNITS_PER_MINUTE';
  const why = refusal.reason === 'paused'
    ? 'the Data API refused this key for being over its rate limit, and no call goes with it until that has passed'
    : "the server key's compute-unit ceiling for this minute is spent (UPSTREAM_COMPUTE_UNITS_PER_MINUTE)";
  return new UpstreamError(`${call.upstream} ${call.operation}: not sent, ${why}`, {
    upstream: call.upstream, kind: 'throttled', operation: call.operation, attempts, retryAfter: Math.max(1, Math.ceil(refusal.waitMs / 1000)), cause: previous, throttledBy: limit,
  });
}

/** The attempt was refused by an observer's `admit` (the request's budget); `previous` is the failure a retry would have followed. */
function budgetError(call: HttpCall, attempt: number, previous: UpstreamError | undefined): UpstreamError {
  return new UpstreamError(`${call.upstream} ${call.operation}: not sent, the request's upstream-call budget is spent`, {
    upstream: call.upstream, kind: 'budget', operation: call.operation, attempts: attempt - 1, cause: previous,
  });
}

function abortError(call: HttpCall, signal: CallSignal, attempts: number): UpstreamError {
  const reason: unknown = signal.reason;
  // Only our own deadline aborts with DeadlineExceeded. Anything else came from the caller's
  // signal; checking `call.signal.aborted` is not enough, since server adapters hand out
  // signal-like objects whose `aborted` flag lags the 'abort' event.
  if (!(reason instanceof DeadlineExceeded)) {
    return new UpstreamError(`${call.upstream} ${call.operation}: aborted by the caller`, {
      upstream: call.upstream, kind: 'aborted', operation: call.operation, attempts, cause: reason,
    });
  }
  return new UpstreamError(`${call.upstream} ${call.operation}: no answer within ${reason.timeoutMs} ms`, {
    upstream: call.upstream, kind: 'timeout', operation: call.operation, attempts, cause: reason, waitedMs: reason.timeoutMs, ...diagnosis(call, 'timeout'),
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node's happy-eyeballs connect reports an AggregateError whose parts carry the code.
  const parts = (error as { errors?: unknown }).errors;
  if (Array.isArray(parts)) return errorCode(parts[0]);
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error ? errorCode(cause) : undefined;
}

function transportError(call: HttpCall, error: unknown, signal: CallSignal, attempts: number, timeouts: TimeoutSettings): UpstreamError {
  if (signal.aborted) return abortError(call, signal, attempts);
  const code = errorCode(error);
  let kind: UpstreamErrorKind = 'network';
  if (code !== undefined && TIMEOUT_CODES.has(code)) kind = 'timeout';
  else if (code !== undefined && (PROTOCOL_CODES.has(code) || code.startsWith('HPE_'))) kind = 'protocol';
  const what = excerpt(error instanceof Error ? error.message : String(error), redactorOf(call)) ?? 'no detail';
  const waitedMs = code === 'UND_ERR_CONNECT_TIMEOUT' ? timeouts.connectTimeoutMs
    : code === 'UND_ERR_HEADERS_TIMEOUT' ? timeouts.headersTimeoutMs
      : code === 'UND_ERR_BODY_TIMEOUT' ? timeouts.bodyTimeoutMs : undefined;
  return new UpstreamError(`${call.upstream} ${call.operation}: ${kind} error${code ? ` ${code}` : ''}: ${what}`, {
    upstream: call.upstream, kind, operation: call.operation, attempts, cause: error,
    ...diagnosis(call, classifyTransport(code) ?? (kind === 'protocol' ? 'bad_answer' : undefined)),
    ...(waitedMs !== undefined ? { waitedMs } : {}),
  });
}

type TimeoutSettings = Record<'connectTimeoutMs' | 'headersTimeoutMs' | 'bodyTimeoutMs', number>;

/**
 * What a failure's message needs to tell the operator what to check: its cause, the origin called (never
 * the path, user info or query, which may carry credentials), and for a refused key the header it went in
 * (the one whose value is among the call's credentials; never the value).
 */
function diagnosis(call: HttpCall, failure: ReturnType<typeof classifyTransport>): { failure?: NonNullable<typeof failure>; origin: string; keyHeader?: string } {
  const keyHeader = failure === 'unauthorized' || failure === 'forbidden'
    ? Object.entries(call.headers ?? {}).find(([name, value]) => name !== 'authorization' && call.credentials?.includes(value))?.[0]
    : undefined;
  return { ...(failure ? { failure } : {}), origin: call.origin, ...(keyHeader ? { keyHeader } : {}) };
}

function isRefusal(thrown: unknown): thrown is UpstreamError {
  return thrown instanceof UpstreamError && thrown.kind === 'circuit';
}

/** A circuit refusal, with the failure that keeps the circuit open attached (anything else as it is). */
function withOpenedBy(refusal: unknown, openedBy: UpstreamError | undefined): unknown {
  if (!(refusal instanceof UpstreamError) || refusal.kind !== 'circuit' || !openedBy) return refusal;
  return new UpstreamError(refusal.message, {
    upstream: refusal.upstream, kind: 'circuit', operation: refusal.operation, attempts: refusal.attempts,
    ...(refusal.retryAfter !== undefined ? { retryAfter: refusal.retryAfter } : {}),
    openedBy,
    ...(openedBy.origin ? { origin: openedBy.origin } : {}),
  });
}

function isRetryableTransport(error: unknown, signal: CallSignal): boolean {
  if (signal.aborted) return false;
  const code = errorCode(error);
  return code !== undefined && (RETRY_NETWORK_CODES.has(code) || TIMEOUT_CODES.has(code));
}

function isAttemptFailure(value: unknown): value is AttemptFailure {
  return typeof value === 'object' && value !== null && (value as { error?: unknown }).error instanceof UpstreamError
    && typeof (value as { retryable?: unknown }).retryable === 'boolean';
}

/**
 * The body as text, refused past `maxBytes` (the body destroyed, unread). Read by its 'data' events
 * rather than its async iterator, which makes a promise per chunk.
 */
function readText(body: Readable, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer | Uint8Array) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buffer.length;
      if (size > maxBytes) {
        const error = Object.assign(new Error(`response body larger than ${maxBytes} bytes`), { code: 'UND_ERR_RES_EXCEEDED_MAX_SIZE' });
        body.destroy(error);
        reject(error);
        return;
      }
      chunks.push(buffer);
    });
    body.once('error', reject);
    // Destroyed without an error (no 'end'): what the async iterator would have thrown. After 'end' or 'error', a no-op.
    body.once('close', () => reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' })));
    body.once('end', () => resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString('utf8')));
  });
}

/** What an error about this call must not repeat: the secrets it sent and the credentials of its URL. */
function redactorOf(call: HttpCall): Redactor {
  return createRedactor([...(call.credentials ?? []), ...urlSecrets(`${call.origin}${call.path}`)]);
}


function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const tracer = trace.getTracer('chaingraph/upstream');

/**
 * One CLIENT span per attempt, a child of the active context (the resolver whose loader
 * made the call), named by the route template or JSON-RPC method, never by the URL (it
 * may carry keys). Its context goes upstream as `traceparent`/`tracestate`. With tracing
 * off (no provider or propagator registered, src/server/telemetry.ts) both are the API's no-ops.
 */
function startAttemptSpan(call: HttpCall, attempt: number, headers: Record<string, string>): { span: Span; headers: Record<string, string> } {
  const routed = call.operation.startsWith(`${call.method} `);
  const span = tracer.startSpan(routed ? call.operation : `${call.method} ${call.operation}`, { kind: SpanKind.CLIENT });
  if (span.isRecording()) {
    const url = new URL(call.origin);
    span.setAttributes({
      'http.request.method': call.method,
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      'chaingraph.upstream': call.upstream,
      'chaingraph.upstream.attempt': attempt,
      ...(routed ? { 'url.template': call.operation.slice(call.method.length + 1) } : { 'rpc.system': 'jsonrpc', 'rpc.method': call.operation }),
      ...(attempt > 1 ? { 'http.request.resend_count': attempt - 1 } : {}),
    });
  }
  // Without a propagator (tracing off) nothing is written: a client's headers are sent as they are.
  if (propagation.fields().length === 0) return { span, headers };
  const carrier = { ...headers };
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return { span, headers: carrier };
}

/** The headers an attempt sends (before trace propagation): the call's own when complete, else with `accept` and `content-type` added. */
function headersOf(call: HttpCall): Record<string, string> {
  if (call.completeHeaders && call.headers) return call.headers;
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  if (call.json !== undefined) headers['content-type'] = 'application/json';
  return headers;
}

/** Ends an attempt's span with its status, or its error kind (the status code for HTTP errors, as the conventions say). */
function endAttemptSpan(span: Span, status: number | undefined, error?: UpstreamErrorKind): void {
  if (status !== undefined) span.setAttribute('http.response.status_code', status);
  if (error !== undefined) {
    const type = error === 'http' && status !== undefined ? String(status) : error;
    span.setAttribute('error.type', type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
  span.end();
}
