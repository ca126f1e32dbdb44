import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';
import { serializeJson } from '../../lib/chunked-json.ts';
import type { LoopBudget } from '../../lib/loop-budget.ts';
import { jsonMediaType } from './json-media-type.ts';

/** Options of {@link useResponseLimit}. */
export interface ResponseLimitOptions {
  /**
   * Largest serialized response in bytes (`MAX_RESPONSE_BYTES`). Above it the data is dropped and the
   * response is one RESPONSE_TOO_LARGE error. Default 8 MiB: the largest responses the cost limit
   * allows measured about 3 MB (see the limits tests).
   */
  maxResponseBytes?: number;
  /** The event loop's budget (`useLoopBudget`): a large result is serialized in pieces, pausing between them when the slice is spent. Default none: in pieces, never pausing. */
  loopBudget?: LoopBudget;
}

export const RESPONSE_LIMIT_DEFAULTS = { maxResponseBytes: 8 * 1024 * 1024 } as const;

type Serializable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/** The UTF-8 body a measured result is sent as (not enumerable: spreads and JSON leave it out). */
const BODY = Symbol('chaingraph.responseBody');

/** The body `useResponseLimit` serialized for this result (what its response sends), if it did. */
export function serializedBody(result: object): Buffer<ArrayBuffer> | undefined {
  return (result as { [BODY]?: Buffer<ArrayBuffer> })[BODY];
}

/**
 * A hard stop behind the cost and introspection limits: whatever a document manages to ask for
 * (aliases of big lists, JSON scalars, repeated fields with different arguments), the client never
 * receives more than `maxResponseBytes`. The result is serialized once here, to its UTF-8 bytes, to
 * measure it, and those bytes are what is sent: a result without errors is answered with them directly
 * (as yoga's JSON processor answers it: status 200, its media type, the same bytes), so yoga neither
 * serializes it again nor encodes the text on its way to the socket; anything else reaches yoga's
 * processors with the text behind the result's `stringify` hook (yoga passes the result itself to the hook
 * only when it has no errors to sanitize; a sanitized copy is serialized by yoga).
 *
 * A large result is serialized in pieces (`serializeJson`), pausing between them when the event loop's
 * slice is spent (`loopBudget`), so a 3 MB answer never holds the loop for the whole of its
 * serialization; the bytes are those of `JSON.stringify`.
 *
 * Incremental delivery (`@defer`, `@stream`) is measured payload by payload against the same limit
 * for all of them together: a payload that would take the response over it is sent with its data
 * (or items) dropped and RESPONSE_TOO_LARGE in their place, so the stream still ends as the client
 * expects (every pending part answered, `hasNext` as it was).
 *
 * Subscription events are not measured: each is one block or one health report.
 */
export function useResponseLimit(options: ResponseLimitOptions = {}): Plugin {
  const limit = options.maxResponseBytes ?? RESPONSE_LIMIT_DEFAULTS.maxResponseBytes;
  const budget = options.loopBudget;
  const pause = budget ? () => budget.pause() : () => undefined;
  const measured = (result: Serializable, body: Buffer<ArrayBuffer>): Serializable => {
    if (body.byteLength > limit) return tooLarge(body.byteLength, limit, result);
    const bounded: Serializable = { ...result };
    Object.defineProperty(bounded, BODY, { value: body });
    // Yoga strips its internal error extensions before serializing and then passes a copy: only the
    // untouched result can reuse the bytes.
    bounded.stringify = (sanitized) => (sanitized === bounded ? body.toString('utf8') : JSON.stringify(sanitized));
    return bounded;
  };
  const bound = (result: Serializable): Serializable | Promise<Serializable> => {
    // Already text (a held response, measured when it was made).
    if (result.stringify) return result;
    const body = serializeJson(result, pause);
    return body instanceof Promise ? body.then((bytes) => measured(result, bytes)) : measured(result, body);
  };
  return {
    onExecute() {
      return {
        onExecuteDone({ result }) {
          // Queries and mutations only: subscriptions are not executed through this hook.
          if (!isAsyncIterable(result)) return undefined;
          const measure = createResponseBudget(limit);
          return {
            onNext({ result: payload, setResult }) {
              const bounded = measure(payload);
              if (bounded !== payload) setResult(bounded);
            },
          };
        },
      };
    },
    onExecutionResult({ result, setResult }) {
      if (!result || isAsyncIterable(result)) return undefined;
      if (Array.isArray(result)) return Promise.all(result.map(bound)).then((all) => setResult(all as never));
      const single = bound(result);
      return single instanceof Promise ? single.then(setResult) : setResult(single);
    },
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (Array.isArray(result) || isAsyncIterable(result) || !resultProcessor) return;
      const body = serializedBody(result);
      // With errors (or a status of its own), yoga's processor decides the status and sanitizes the errors.
      if (!body || result.errors?.length || result.extensions?.['http']) return;
      const mediaType = jsonMediaType(request.headers.get('accept'));
      if (!mediaType) return;
      // The header as yoga's JSON processor writes it (`processRegularResult`), name case included.
      setResultProcessor((_result, fetchAPI) => new fetchAPI.Response(body, { status: 200, headers: { 'Content-Type': `${mediaType}; charset=utf-8` } }), mediaType);
    },
  };
}

function tooLargeError(bytes: number, limit: number): GraphQLError {
  return new GraphQLError(`The response would be ${bytes} bytes, above the limit of ${limit}: ask for fewer fields, smaller pages or fewer aliases.`, {
    extensions: { code: ErrorCode.RESPONSE_TOO_LARGE, responseBytes: bytes, maxResponseBytes: limit },
  });
}

function tooLarge(bytes: number, limit: number, result: ExecutionResult): Serializable {
  // Executed, then its data withheld: `data: null` keeps it an execution result (200 over HTTP, and what
  // graphql-sse and other clients require of a result).
  return { data: null, errors: [tooLargeError(bytes, limit)], ...(result.extensions ? { extensions: result.extensions } : {}) };
}

/**
 * One operation's response budget, for the transports that write results themselves (graphql-sse's
 * reserved streams) and for incremental payloads: each result or payload is measured, all of them
 * together against `limit`, and one that would pass it comes back with its data dropped and
 * RESPONSE_TOO_LARGE in its place (an incremental payload keeps its paths and `hasNext`).
 */
export function createResponseBudget(limit: number): (payload: ExecutionResult) => ExecutionResult {
  let sent = 0;
  return (payload) => {
    const bytes = Buffer.byteLength(JSON.stringify(payload));
    if (sent + bytes <= limit) {
      sent += bytes;
      return payload;
    }
    return payloadTooLarge(payload as IncrementalPayload, sent + bytes, limit);
  };
}

/** One payload of an incremental response: the initial one (`data`) or a later one (`incremental`). */
type IncrementalPayload = ExecutionResult & {
  hasNext?: boolean;
  incremental?: readonly { path?: readonly (string | number)[]; label?: string; data?: unknown; items?: unknown }[];
};

/**
 * The payload with its data dropped: the initial payload becomes the error (its `hasNext` kept), and
 * each deferred or streamed part keeps its path and label with the error instead of its data or items.
 */
function payloadTooLarge(payload: IncrementalPayload, bytes: number, limit: number): IncrementalPayload {
  const error = tooLargeError(bytes, limit);
  const hasNext = payload.hasNext !== undefined ? { hasNext: payload.hasNext } : {};
  if (!payload.incremental) return { data: null, errors: [error], ...hasNext, ...(payload.extensions ? { extensions: payload.extensions } : {}) };
  const incremental = payload.incremental.map((part) => ({
    ...(part.path ? { path: part.path } : {}),
    ...(part.label !== undefined ? { label: part.label } : {}),
    ...('items' in part ? { items: null } : { data: null }),
    errors: [error],
  }));
  return { incremental, ...hasNext, ...(payload.extensions ? { extensions: payload.extensions } : {}) };
}
