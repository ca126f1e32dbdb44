import { GraphQLError, type ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, maskError, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';

type IncrementalPayload = ExecutionResult & { incremental?: readonly { errors?: readonly GraphQLError[] }[] };

/** What yoga's masking says in place of an unexpected error (`maskedErrors: true`). */
const MASKED_MESSAGE = 'Unexpected error.';

/** A GraphQL error made on purpose (ours, an upstream's mapped, graphql-js's own), not one wrapping a thrown bug. */
function isDeliberate(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError == null || isDeliberate(error.originalError);
}

/**
 * An unexpected error of an operation (a bug: a resolver threw something that is not a GraphQL error) is
 * logged once, with its stack, through the request's logger (so the line carries the request id), and
 * masked as yoga masks it: INTERNAL_SERVER_ERROR, "Unexpected error.", the original only in development.
 * Yoga's masking, which runs after every user plugin, then finds nothing left to mask or log.
 *
 * Why not yoga's own line: yoga logs a masked error without its request, so the gateway would need an
 * AsyncLocalStorage around each request to find the id, and on Node 20 that installs promise hooks that
 * run for every promise of every request (about a tenth of the walk's CPU). Errors outside an operation
 * (a request yoga cannot parse into one) are still yoga's to log; they carry no request id.
 *
 * The same for subscription events and the later payloads of `@defer`/`@stream`. Registered after
 * `useUnservableValues`, whose serializer refusals are coded rather than masked.
 */
export function useUnexpectedErrors(): Plugin {
  const maskAll = (errors: readonly GraphQLError[], log: Logger | undefined): GraphQLError[] | undefined => {
    let masked: GraphQLError[] | undefined;
    errors.forEach((error, i) => {
      if (isDeliberate(error)) return;
      log?.error({ err: error }, error.message);
      masked ??= [...errors];
      masked[i] = maskError(error, MASKED_MESSAGE) as GraphQLError;
    });
    return masked;
  };
  const map = (result: IncrementalPayload, log: Logger | undefined): ExecutionResult | undefined => {
    const errors = result.errors ? maskAll(result.errors, log) : undefined;
    let partsChanged = false;
    const parts = result.incremental?.map((part) => {
      const partErrors = part.errors ? maskAll(part.errors, log) : undefined;
      if (!partErrors) return part;
      partsChanged = true;
      return { ...part, errors: partErrors };
    });
    if (!errors && !partsChanged) return undefined;
    return { ...result, ...(errors ? { errors } : {}), ...(partsChanged ? { incremental: parts } : {}) } as ExecutionResult;
  };
  const onDone = (context: unknown) => (payload: Parameters<typeof handleStreamOrSingleExecutionResult>[0]) =>
    handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
      if (!result.errors && !(result as IncrementalPayload).incremental) return;
      const mapped = map(result, (context as { log?: Logger } | undefined)?.log);
      if (mapped) setResult(mapped);
    });
  return {
    onExecute: ({ args }) => ({ onExecuteDone: onDone(args.contextValue) }),
    onSubscribe: ({ args }) => ({ onSubscribeResult: onDone(args.contextValue) }),
  };
}
