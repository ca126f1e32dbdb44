import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';

/** Options of {@link useResponseLimit}. */
export interface ResponseLimitOptions {
  /**
   * Largest serialized response in bytes (`MAX_RESPONSE_BYTES`). Above it the data is dropped and the
   * response is one RESPONSE_TOO_LARGE error. Default 8 MiB: the largest responses the cost limit
   * allows measured about 3 MB (see the limits tests).
   */
  maxResponseBytes?: number;
}

export const RESPONSE_LIMIT_DEFAULTS = { maxResponseBytes: 8 * 1024 * 1024 } as const;

type Serializable = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * A hard stop behind the cost and introspection limits: whatever a document manages to ask for
 * (aliases of big lists, JSON scalars, repeated fields with different arguments), the client never
 * receives more than `maxResponseBytes`. The result is serialized once here to measure it, and the
 * string is handed to yoga's result processor (through the result's `stringify` hook) so an allowed
 * response is not serialized twice.
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
  const bound = (result: Serializable): Serializable => {
    // Already text (a held response, measured when it was made).
    if (result.stringify) return result;
    const text = JSON.stringify(result);
    // A UTF-16 length is at most the UTF-8 byte length's third; count bytes only when it matters.
    const bytes = text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
    if (bytes > limit) return tooLarge(bytes, limit, result);
    // Yoga strips its internal error extensions before serializing and then passes a copy: only the
    // untouched result can reuse the string.
    const bounded: Serializable = { ...result };
    bounded.stringify = (sanitized) => (sanitized === bounded ? text : JSON.stringify(sanitized));
    return bounded;
  };
  return {
    onExecute() {
      return {
        onExecuteDone({ result }) {
          // Queries and mutations only: subscriptions are not executed through this hook.
          if (!isAsyncIterable(result)) return undefined;
          let sent = 0;
          return {
            onNext({ result: payload, setResult }) {
              const bytes = Buffer.byteLength(JSON.stringify(payload));
              if (sent + bytes <= limit) sent += bytes;
              else setResult(payloadTooLarge(payload as IncrementalPayload, sent + bytes, limit));
            },
          };
        },
      };
    },
    onExecutionResult({ result, setResult }) {
      if (!result || isAsyncIterable(result)) return;
      if (Array.isArray(result)) setResult(result.map(bound) as never);
      else setResult(bound(result));
    },
  };
}

function tooLargeError(bytes: number, limit: number): GraphQLError {
  return new GraphQLError(`The response would be ${bytes} bytes, above the limit of ${limit}: ask for fewer fields, smaller pages or fewer aliases.`, {
    extensions: { code: ErrorCode.RESPONSE_TOO_LARGE, responseBytes: bytes, maxResponseBytes: limit },
  });
}

function tooLarge(bytes: number, limit: number, result: ExecutionResult): Serializable {
  return { errors: [tooLargeError(bytes, limit)], ...(result.extensions ? { extensions: result.extensions } : {}) };
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
  if (!payload.incremental) return { errors: [error], ...hasNext, ...(payload.extensions ? { extensions: payload.extensions } : {}) };
  const incremental = payload.incremental.map((part) => ({
    ...(part.path ? { path: part.path } : {}),
    ...(part.label !== undefined ? { label: part.label } : {}),
    ...('items' in part ? { items: null } : { data: null }),
    errors: [error],
  }));
  return { incremental, ...hasNext, ...(payload.extensions ? { extensions: payload.extensions } : {}) };
}
