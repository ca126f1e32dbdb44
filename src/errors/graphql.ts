import { GraphQLError } from 'graphql';
import { errorBodyMessage, UpstreamError, type FailureCause, type UpstreamName } from '../upstream/errors.ts';
import { excerpt, URL_REDACTOR, type Redactor } from '../lib/redact.ts';
import { ErrorCode } from './codes.ts';

export { ErrorCode } from './codes.ts';


/**
 * The message of an upstream value a field's type cannot serve (a scalar's or an enum's serializer refused
 * it): names the type, never the value. Both executors keep only a serializer's message, so this text is
 * also how `useUnservableValues` recognizes the refusal and codes it ({@link UNSERVABLE_MESSAGE}).
 */
export const unservableMessage = (type: string): string => `The upstream sent a value for this field that is not a valid ${type}.`;
/** {@link unservableMessage}'s text, the type captured. */
export const UNSERVABLE_MESSAGE = /^The upstream sent a value for this field that is not a valid (\w+)\.$/;

/** A caller mistake found before any upstream call; names the argument at fault. */
export function badInput(argument: string, message: string): GraphQLError {
  return new GraphQLError(`Invalid argument "${argument}": ${message}`, {
    extensions: { code: ErrorCode.BAD_USER_INPUT, argumentName: argument },
  });
}

/**
 * A value read from an upstream answer (`field`, e.g. a delegation's `nodeId`) that cannot be used
 * for the next call, which is not sent: `parameter` of `operation` on `upstream`. Caller arguments
 * never get here (they are parsed before execution), so it is the answer's fault:
 * UPSTREAM_PROTOCOL_ERROR with `upstreamField`, never BAD_USER_INPUT. Loaders hand it back for the
 * keys it concerns; the client refuses such values the same way (src/upstream/data-api.ts).
 */
export function upstreamValueError(field: string, next: { upstream: UpstreamName; operation: string; parameter: string }, why: string): UpstreamError {
  return new UpstreamError(`${next.upstream} ${next.operation}: not sent: ${field} ${why}`, { kind: 'input', field, ...next });
}

/** The words of NODE_NOT_CONFIGURED when the gateway has no node at all. */
export const NO_NODE_CONFIGURED = 'This gateway has no node configured (its operator sets NODE_URLS), so node fields cannot answer here.';

/** What a caller may pass instead of an unknown node name: the configured names. */
export function configuredNames(configured: readonly string[]): string {
  if (configured.length === 0) return 'this gateway has none (its operator sets NODE_URLS).';
  return `use ${configured.length === 1 ? '' : 'one of '}${configured.map((name) => `"${name}"`).join(', ')}, or omit the name for the first (\`avalancheNodes\` lists them).`;
}

export function codedError(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...extra } });
}

/**
 * The one place upstream failures become GraphQL errors. `useUpstreamErrors` applies it after
 * execution and the graphql-ws adapter to what a subscription throws, both to the resolver's
 * original error; anything else stays masked by yoga.
 *
 * The message is the gateway's own words with the upstream's HTTP status or JSON-RPC code; the
 * upstream's text appears only as an excerpt (controls removed, at most 200 characters) with
 * `redactor`'s secrets hidden (the gateway's, and the request's own API key): an upstream, or a
 * proxy in front of it, that echoes the key it received never hands it to a caller.
 */
export function upstreamToGraphQLError(error: UpstreamError, redactor: Redactor = URL_REDACTOR): GraphQLError {
  const detail = excerpt(errorBodyMessage(error.body) ?? error.rpcError?.message, redactor);
  const isNode = error.upstream.startsWith('node:');
  const extensions: Record<string, unknown> = {
    code: codeFor(error, isNode),
    upstream: error.upstream,
    operation: error.operation,
  };
  // Refused before sending: the message names the parameter, never the value.
  if (error.kind === 'input') {
    const parameter = error.parameter ? { parameter: error.parameter } : {};
    // Read from an earlier answer (`field`): that answer's fault, not the caller's (see `upstreamValueError`).
    if (error.field !== undefined) {
      const field = excerpt(error.field, redactor) ?? '(answer)';
      return new GraphQLError(`Unusable upstream value (${field}): ${error.message}`, {
        extensions: { ...extensions, upstreamField: field, ...parameter },
      });
    }
    return new GraphQLError(`Invalid input: ${error.message}`, { extensions: { ...extensions, ...parameter } });
  }
  // Refused before sending: the operation spent the upstream calls its estimate allowed.
  if (error.kind === 'budget') {
    return new GraphQLError(
      `Query too costly: ${error.operation} was not called, this operation has made all the upstream calls its budget allows. Ask for smaller pages or fewer nested fields.`,
      { extensions },
    );
  }
  // Refused before sending: the breaker is open (or probing), or the gateway's own upstream rate ceiling is full.
  if (error.kind === 'circuit' || error.kind === 'throttled') {
    // The failure that keeps the circuit open, in the same words as when it happened, so the refusal still says what to check.
    const opened = error.openedBy ? diagnose(error.openedBy, redactor) : undefined;
    const why = opened ? ` (${opened.short}${opened.check ? `: ${opened.check}` : ''})` : '';
    const what = error.kind === 'circuit'
      ? `${upstreamWords(error)} is failing${why}; this call (${error.operation}) was not made while its circuit breaker is open.`
      : throttledWords(error);
    return new GraphQLError(`${what} Retry after ${error.retryAfter ?? 1} s.`, {
      extensions: {
        ...extensions,
        ...(error.kind === 'throttled' ? { limit: error.throttledBy ?? 'UPSTREAM_MAX_RPS' } : {}),
        ...(error.kind === 'circuit' ? { circuit: 'open' } : {}),
        ...(opened ? { cause: opened.cause, ...(opened.variable ? { variable: opened.variable } : {}) } : {}),
        retryAfter: error.retryAfter ?? 1,
      },
    });
  }
  if (error.status !== undefined) extensions['upstreamStatus'] = error.status;
  // The Data API's error body names its status in words (`error`: "Bad Request", "Too Many Requests").
  const statusWords = excerpt(error.body?.error, redactor, 100);
  if (statusWords) extensions['upstreamError'] = statusWords;
  if (error.retryAfter !== undefined) extensions['retryAfter'] = error.retryAfter;
  if (error.rpcError) extensions['rpcCode'] = error.rpcError.code;
  const where = upstreamWords(error);
  // A protocol error of one field of an answer (the rest of the answer was usable): where it is.
  if (error.field !== undefined) {
    const field = excerpt(error.field, redactor) ?? '(answer)';
    extensions['upstreamField'] = field;
    return new GraphQLError(`${where} answered ${error.operation} without a usable ${field}`, { extensions });
  }
  const what = error.rpcError
    ? `JSON-RPC error ${error.rpcError.code}`
    : error.kind === 'http' && error.status !== undefined ? `HTTP ${error.status}` : `${error.kind}${error.status ? ` ${error.status}` : ''}`;
  const diagnosis = diagnose(error, redactor);
  if (diagnosis) {
    extensions['cause'] = diagnosis.cause;
    if (diagnosis.variable) extensions['variable'] = diagnosis.variable;
  }
  if (diagnosis?.sentence) {
    return new GraphQLError(detail ? `${diagnosis.sentence} The upstream said: ${detail}` : diagnosis.sentence, { extensions });
  }
  const message = detail ? `${where} failed on ${error.operation} (${what}): ${detail}` : `${where} failed on ${error.operation} (${what})`;
  return new GraphQLError(diagnosis?.check ? `${message}: ${diagnosis.check}.` : message, { extensions });
}

/**
 * `The Data API` / `Node "fuji"`, and with `withOrigin` (the operator's log and start-up lines) `at https://host`:
 * the origin only, never a path or credentials. A client's error never gets the address: the variable to check
 * is enough to fix it, and a public gateway does not tell its callers where its upstreams live.
 */
function upstreamWords(error: UpstreamError, withOrigin = false): string {
  const name = error.upstream.startsWith('node:') ? `Node "${error.upstream.slice(5)}"` : 'The Data API';
  return withOrigin && error.origin ? `${name} at ${error.origin}` : name;
}

/** What an upstream failure says to the person who can fix it: see {@link diagnose}. */
export interface UpstreamDiagnosis {
  cause: FailureCause;
  /** The setting to check: `DATA_API_URL`, `DATA_API_KEY` or `NODE_URLS`; none when it is the upstream's own trouble. */
  variable?: string;
  /** A few words for the cause: `connection refused at http://127.0.0.1:1`. */
  short: string;
  /** What to check, when a setting may be at fault: `check DATA_API_URL`, `check the NODE_URLS entry "fuji"`. */
  check?: string;
  /** The whole message, when the cause has words of its own (else the generic one is used, with the variable). */
  sentence?: string;
}

/**
 * The cause of a failed call in plain words, with the setting to check. Shared by the GraphQL errors,
 * the log lines of upstream failures, `/ready` and the start-up probe, so all say the same thing.
 */
export function diagnose(error: UpstreamError, redactor: Redactor = URL_REDACTOR, withOrigin = false): UpstreamDiagnosis | undefined {
  const cause = error.failure;
  if (!cause) return undefined;
  const isNode = error.upstream.startsWith('node:');
  const where = upstreamWords(error, withOrigin);
  const at = withOrigin && error.origin ? ` at ${error.origin}` : '';
  const key = cause === 'unauthorized' || cause === 'forbidden';
  const variable = isNode ? 'NODE_URLS' : key ? 'DATA_API_KEY' : cause === 'rate_limited' || cause === 'server_error' ? undefined : 'DATA_API_URL';
  const check = isNode ? `check the NODE_URLS entry "${error.upstream.slice(5)}"` : `check ${variable ?? 'DATA_API_URL'}`;
  const seconds = error.waitedMs !== undefined ? ` within ${formatSeconds(error.waitedMs)}` : ' in time';
  const nativeCause: unknown = error.cause;
  const words = diagnoseWords(error, cause, { isNode, where, at, check, seconds, redactor, nativeCause });
  return variable ? { cause, variable, check, ...words } : { cause, ...words };
}

function diagnoseWords(
  error: UpstreamError,
  cause: FailureCause,
  { isNode, where, at, check, seconds, redactor, nativeCause }: { isNode: boolean; where: string; at: string; check: string; seconds: string; redactor: Redactor; nativeCause: unknown },
): { short: string; sentence?: string } {
  const tlsWords = excerpt(nativeCause instanceof Error ? nativeCause.message : undefined, redactor, 120) ?? 'the certificate was refused';
  const status = error.status ?? 0;
  switch (cause) {
    case 'connection_refused':
      return { short: `connection refused${at}`, sentence: `${where} refused the connection (nothing listens there): ${check}.` };
    case 'connection_reset':
      return { short: `connection closed${at}`, sentence: `${where} closed the connection without answering: ${check} (is it the right address and protocol?).` };
    case 'timeout':
      return { short: `no answer${seconds}${at}`, sentence: `${where} did not answer${seconds}: ${check}, and that the gateway can reach it.` };
    case 'dns':
      return { short: `DNS: host not found${at}`, sentence: `${where} cannot be reached (DNS: host not found): ${check} (its host name).` };
    case 'tls':
      return { short: `TLS: ${tlsWords}${at}`, sentence: `${where} failed the secure connection (TLS: ${tlsWords}): ${check} (http or https, and a certificate the gateway trusts).` };
    case 'unreachable':
      return { short: `host unreachable${at}`, sentence: `${where} is unreachable (no route to the host): ${check} and the network.` };
    case 'unauthorized':
    case 'forbidden': {
      const what = cause === 'unauthorized' ? `${status} Unauthorized` : `${status} Forbidden: not allowed for this call`;
      if (isNode) return { short: `credentials refused (${status})${at}`, sentence: `${where} refused the call (${what}): ${check} (its user and password).` };
      const sent = error.keyHeader
        ? `refused the API key (${what}): check DATA_API_KEY (sent in the ${error.keyHeader} header), or the key the request sent in that header.`
        : `refused the call without an API key (${what}): set DATA_API_KEY.`;
      return { short: `API key refused (${status})${at}`, sentence: `${where} ${sent}` };
    }
    case 'not_found':
      // A node's 404 is most often a method switched off on that node (NODE_METHOD_UNAVAILABLE); a wrong path answers it for every method.
      if (isNode) return { short: `404 for ${error.operation}${at}`, sentence: `${where} answered 404 for ${error.operation}: the method is switched off on that node, or ${check} (its path).` };
      return { short: `404 for ${error.operation}${at}`, sentence: `${where} answered 404 for ${error.operation}: if it should exist, check DATA_API_URL's path (the base URL, without /v1).` };
    case 'rate_limited':
      return { short: `429 Too Many Requests${at}` };
    case 'server_error':
      return { short: `HTTP ${status}${at}` };
    case 'bad_answer':
      return { short: `not the expected answer${at}` };
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function codeFor(error: UpstreamError, isNode: boolean): ErrorCode {
  switch (error.kind) {
    case 'timeout':
      return ErrorCode.UPSTREAM_TIMEOUT;
    case 'aborted':
      return ErrorCode.REQUEST_ABORTED;
    case 'network':
      return ErrorCode.UPSTREAM_UNAVAILABLE;
    case 'protocol':
      return ErrorCode.UPSTREAM_PROTOCOL_ERROR;
    case 'rpc':
      return ErrorCode.NODE_RPC_ERROR;
    case 'input':
      // Nothing was sent: the caller's value, or (with `field`) one an upstream answer held.
      return error.field !== undefined ? ErrorCode.UPSTREAM_PROTOCOL_ERROR : ErrorCode.BAD_USER_INPUT;
    case 'budget':
      return ErrorCode.QUERY_TOO_COSTLY;
    case 'circuit':
      return ErrorCode.UPSTREAM_UNAVAILABLE;
    case 'throttled':
      return ErrorCode.UPSTREAM_RATE_LIMITED;
    case 'http':
      break;
  }
  const status = error.status ?? 0;
  // A node answers 404 for an API that is switched off (admin, by default) and for the public server's
  // node-specific methods: the method is unavailable on that node, not a missing resource.
  if (isNode && (status === 404 || status === 405)) return ErrorCode.NODE_METHOD_UNAVAILABLE;
  if (status === 400 || status === 422) return ErrorCode.UPSTREAM_BAD_REQUEST;
  if (status === 401) return ErrorCode.UPSTREAM_UNAUTHORIZED;
  if (status === 403) return ErrorCode.UPSTREAM_FORBIDDEN;
  if (status === 404) return ErrorCode.UPSTREAM_NOT_FOUND;
  if (status === 429) return ErrorCode.UPSTREAM_RATE_LIMITED;
  return ErrorCode.UPSTREAM_UNAVAILABLE;
}

export function isUpstreamError(error: unknown): error is UpstreamError {
  return error instanceof UpstreamError;
}

/** Why a throttled call was not made, by the limit that held it back. */
function throttledWords(error: UpstreamError): string {
  switch (error.throttledBy) {
    case 'upstream-429':
      return `${error.operation} was not called: the Data API answered that the API key used is over its rate limit, and no call is sent with that key until the time it gave has passed.`;
    case 'UPSTREAM_COMPUTE_UNITS_PER_MINUTE':
      return `${error.operation} was not called: the gateway has spent the compute units its server key may use this minute (UPSTREAM_COMPUTE_UNITS_PER_MINUTE).`;
    default:
      return `${error.operation} was not called: the gateway is at its own upstream request rate limit (UPSTREAM_MAX_RPS).`;
  }
}
