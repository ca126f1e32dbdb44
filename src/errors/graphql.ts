import { GraphQLError } from 'graphql';
import { errorBodyMessage, UpstreamError, type UpstreamName } from '../upstream/errors.ts';
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
    const what = error.kind === 'circuit'
      ? `${isNode ? `Node "${error.upstream.slice(5)}"` : 'The Data API'} is failing: ${error.operation} was not called while its circuit breaker is open.`
      : `${error.operation} was not called: the gateway is at its own upstream request rate limit (UPSTREAM_MAX_RPS).`;
    return new GraphQLError(`${what} Retry after ${error.retryAfter ?? 1} s.`, {
      extensions: { ...extensions, ...(error.kind === 'circuit' ? { circuit: 'open' } : {}), retryAfter: error.retryAfter ?? 1 },
    });
  }
  if (error.status !== undefined) extensions['upstreamStatus'] = error.status;
  // The Data API's error body names its status in words (`error`: "Bad Request", "Too Many Requests").
  const statusWords = excerpt(error.body?.error, redactor, 100);
  if (statusWords) extensions['upstreamError'] = statusWords;
  if (error.retryAfter !== undefined) extensions['retryAfter'] = error.retryAfter;
  if (error.rpcError) extensions['rpcCode'] = error.rpcError.code;
  const where = isNode ? `Node "${error.upstream.slice(5)}"` : 'The Data API';
  // A protocol error of one field of an answer (the rest of the answer was usable): where it is.
  if (error.field !== undefined) {
    const field = excerpt(error.field, redactor) ?? '(answer)';
    extensions['upstreamField'] = field;
    return new GraphQLError(`${where} answered ${error.operation} without a usable ${field}`, { extensions });
  }
  const what = error.rpcError
    ? `JSON-RPC error ${error.rpcError.code}`
    : error.kind === 'http' && error.status !== undefined ? `HTTP ${error.status}` : `${error.kind}${error.status ? ` ${error.status}` : ''}`;
  const message = detail ? `${where} failed on ${error.operation} (${what}): ${detail}` : `${where} failed on ${error.operation} (${what})`;
  return new GraphQLError(message, { extensions });
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
