import { GraphQLError } from 'graphql';
import { maskError, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { useResultErrors } from './result-errors.ts';

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
  return useResultErrors((_schema, context) => (errors) => maskAll(errors, (context as { log?: Logger } | undefined)?.log));
}
