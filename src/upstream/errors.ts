import type { ErrorBody } from '../shapes/index.ts';

/** Which upstream failed: the Data API, or a configured node by name. */
export type UpstreamName = 'data-api' | `node:${string}`;

/**
 * What went wrong, from the caller's point of view:
 * - `http`: the upstream answered with a non-2xx status (`status`, and `body` when it sent the seed's error body);
 * - `rpc`: a node answered a JSON-RPC error object (`rpcError`), usually with HTTP 200 and code -32000;
 * - `timeout`: the per-call deadline or one of the undici timeouts elapsed;
 * - `aborted`: the caller's signal aborted the call (the GraphQL request went away);
 * - `network`: the connection failed (refused, reset, DNS);
 * - `protocol`: the upstream answered something that is not the expected JSON: for the whole call,
 *   or, thrown when a field of a read answer is read, for that field only (`field` names it; see
 *   `src/shapes/read.ts`);
 * - `input`: nothing was sent: a path or query parameter is outside its grammar (a dot
 *   segment, a separator, a control character, too long), so the URL could reach
 *   another route (`parameter` names it; the value is never put in the message). Caller
 *   arguments are checked before execution, so such a value came from an upstream answer
 *   (`field` names the answer's field it was read from) and is served as UPSTREAM_PROTOCOL_ERROR;
 * - `budget`: nothing was sent: the request's upstream-call budget is spent (an
 *   observer's `admit` refused the attempt; see `src/gateway/context.ts`);
 * - `circuit`: nothing sent: the upstream's circuit breaker is open after repeated
 *   failures, or testing it with one probe (`retryAfter`; see `breaker.ts`);
 * - `throttled`: nothing sent: the gateway's own ceiling on its upstream request
 *   rate (`UPSTREAM_MAX_RPS`, see `upstream-rate.ts`) or on the server key's compute units had no
 *   room before the deadline, or the Data API's 429 paused the key (`throttledBy`; see `compute-unit-ceiling.ts`).
 */
export type UpstreamErrorKind = 'http' | 'rpc' | 'timeout' | 'aborted' | 'network' | 'protocol' | 'input' | 'budget' | 'circuit' | 'throttled';

/**
 * Why an upstream did not serve a call, in one word a caller (and an operator reading the log) can act on:
 * read from the transport's error code (`classifyTransport`) or the HTTP status (`classifyStatus`).
 * GraphQL errors carry it as `extensions.cause`.
 */
export type FailureCause =
  | 'connection_refused' | 'connection_reset' | 'timeout' | 'dns' | 'tls' | 'unreachable'
  | 'unauthorized' | 'forbidden' | 'not_found' | 'rate_limited' | 'server_error' | 'bad_answer';

/** Node and undici error codes, by the cause they show. */
const TRANSPORT_CAUSES: Readonly<Record<string, FailureCause>> = {
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset', EPIPE: 'connection_reset', ECONNABORTED: 'connection_reset', UND_ERR_SOCKET: 'connection_reset', UND_ERR_CLOSED: 'connection_reset',
  ENOTFOUND: 'dns', EAI_AGAIN: 'dns', EAI_NONAME: 'dns', EAI_FAIL: 'dns', EAI_NODATA: 'dns',
  ETIMEDOUT: 'timeout', UND_ERR_CONNECT_TIMEOUT: 'timeout', UND_ERR_HEADERS_TIMEOUT: 'timeout', UND_ERR_BODY_TIMEOUT: 'timeout',
  ENETUNREACH: 'unreachable', EHOSTUNREACH: 'unreachable', ENETDOWN: 'unreachable', EHOSTDOWN: 'unreachable',
  EPROTO: 'tls',
};

/** The cause a transport error code shows, if it is one we can name: certificate and TLS codes included. */
export function classifyTransport(code: string | undefined): FailureCause | undefined {
  if (code === undefined) return undefined;
  const known = TRANSPORT_CAUSES[code];
  if (known) return known;
  // OpenSSL's verification codes (DEPTH_ZERO_SELF_SIGNED_CERT, CERT_HAS_EXPIRED, UNABLE_TO_VERIFY_LEAF_SIGNATURE...) and node's TLS codes.
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/.test(code)) return 'tls';
  if (code.startsWith('HPE_')) return 'bad_answer';
  return undefined;
}

/** The cause an HTTP status shows (undefined for the statuses that are the caller's own mistake, 400 and 422). */
export function classifyStatus(status: number): FailureCause | undefined {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return undefined;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface UpstreamErrorOptions {
  upstream: UpstreamName;
  kind: UpstreamErrorKind;
  /** `GET /v1/networks/{network}/validators`, `info.peers`, ... (never carries secrets). */
  operation: string;
  status?: number;
  body?: ErrorBody;
  rpcError?: JsonRpcErrorObject;
  /** Seconds the upstream asked us to wait (from `Retry-After`). */
  retryAfter?: number;
  attempts?: number;
  /** For `input` errors: the path or query parameter that was refused. */
  parameter?: string;
  /** For `protocol` errors of one field of an answer, where it is (`validators[3].nodeId`); for `input` errors, the answer's field the refused value was read from. */
  field?: string;
  cause?: unknown;
  /** Why the upstream did not serve the call, when it is known (see {@link FailureCause}). */
  failure?: FailureCause;
  /** The origin of the URL called (`https://host:port`: never a path, user info or query, which may carry credentials). */
  origin?: string;
  /** For `timeout`: the time waited, ms. */
  waitedMs?: number;
  /** For an `unauthorized`/`forbidden` answer: the header the API key was sent in (never its value). */
  keyHeader?: string;
  /** For `circuit`: the last failure that kept the circuit open (its cause, origin...), so the refusal can say why. */
  openedBy?: UpstreamError;
  /**
   * For `throttled`: which limit held the call back: the request-rate ceiling (`UPSTREAM_MAX_RPS`, the default), the server
   * key's compute-unit ceiling (`UPSTREAM_COMPUTE_UNITS_PER_MINUTE`), or the pause after the Data API's own 429 (`upstream-429`).
   */
  throttledBy?: 'UPSTREAM_MAX_RPS' | 'UPSTREAM_COMPUTE_UNITS_PER_MINUTE' | 'upstream-429';
}

/** The one error type the upstream layer throws. The schema layer maps it to a coded GraphQL error. */
export class UpstreamError extends Error {
  readonly upstream: UpstreamName;
  readonly kind: UpstreamErrorKind;
  readonly operation: string;
  readonly status: number | undefined;
  readonly body: ErrorBody | undefined;
  readonly rpcError: JsonRpcErrorObject | undefined;
  readonly retryAfter: number | undefined;
  readonly attempts: number;
  readonly parameter: string | undefined;
  readonly field: string | undefined;
  readonly failure: FailureCause | undefined;
  declare readonly origin: string | undefined;
  readonly waitedMs: number | undefined;
  readonly keyHeader: string | undefined;
  readonly openedBy: UpstreamError | undefined;
  readonly throttledBy: UpstreamErrorOptions['throttledBy'];

  constructor(message: string, options: UpstreamErrorOptions) {
    super(message, { cause: options.cause });
    this.name = 'UpstreamError';
    this.upstream = options.upstream;
    this.kind = options.kind;
    this.operation = options.operation;
    this.status = options.status;
    this.body = options.body;
    this.rpcError = options.rpcError;
    this.retryAfter = options.retryAfter;
    this.attempts = options.attempts ?? 1;
    this.parameter = options.parameter;
    this.field = options.field;
    this.failure = options.failure;
    // Not enumerable: it stays out of a serialized error (a client never learns where the upstreams live); the operator's lines read it.
    Object.defineProperty(this, 'origin', { value: options.origin, enumerable: false });
    this.waitedMs = options.waitedMs;
    this.keyHeader = options.keyHeader;
    this.openedBy = options.openedBy;
    this.throttledBy = options.throttledBy;
  }

  /** True for a 404 from the Data API: a single lookup of something that does not exist. */
  get isNotFound(): boolean {
    return this.kind === 'http' && this.status === 404;
  }
}

/** Joins the spec's `message: string | string[]` into one line. */
export function errorBodyMessage(body: ErrorBody | undefined): string | undefined {
  if (!body) return undefined;
  return Array.isArray(body.message) ? body.message.join('; ') : body.message;
}
