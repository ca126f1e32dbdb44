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
    onExecutionResult({ result, setResult }) {
      if (!result || isAsyncIterable(result)) return;
      if (Array.isArray(result)) setResult(result.map(bound) as never);
      else setResult(bound(result));
    },
  };
}

function tooLarge(bytes: number, limit: number, result: ExecutionResult): Serializable {
  return {
    errors: [
      new GraphQLError(`The response would be ${bytes} bytes, above the limit of ${limit}: ask for fewer fields, smaller pages or fewer aliases.`, {
        extensions: { code: ErrorCode.RESPONSE_TOO_LARGE, responseBytes: bytes, maxResponseBytes: limit },
      }),
    ],
    ...(result.extensions ? { extensions: result.extensions } : {}),
  };
}
