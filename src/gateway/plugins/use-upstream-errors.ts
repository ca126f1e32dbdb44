import { GraphQLError, type ExecutionResult } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { isUpstreamError, upstreamToGraphQLError } from '../../errors/graphql.ts';
import type { Redactor } from '../../lib/redact.ts';

export interface UpstreamErrorsOptions {
  /**
   * Called once per upstream failure that reached a response (default: nothing), with the
   * request's logger (`context.log`, bound to its request id) when the context has one.
   * Never receives secrets: `message` is the mapped one, redacted by the context's `redactor`.
   */
  onUpstreamError?: (
    info: { code: unknown; upstream: string; operation: string; message: string; path: readonly (string | number)[] | undefined; cause?: unknown; variable?: unknown; origin?: string },
    log: Logger | undefined,
  ) => void;
}

/** What the mapping reads from the request's context (both made on first use, so read only when an error is mapped). */
type RequestScope = { readonly log?: Logger; readonly redactor?: Redactor } | undefined;

type IncrementalPayload = ExecutionResult & { incremental?: readonly { errors?: readonly GraphQLError[] }[] };

/**
 * The one place upstream failures become coded GraphQL errors: after execution
 * (and for each subscription event), every error whose original error is an
 * `UpstreamError` is replaced by a GraphQL error with a stable `extensions.code`,
 * keeping its path, so only the failed field is affected. Expected upstream
 * failures are then reported to `onUpstreamError` instead of being logged as
 * unexpected errors; anything else still goes through yoga's masking. Errors
 * of deferred and streamed parts (`@defer`, `@stream`) are mapped the same way. The upstream's
 * text is hidden of the request's secrets (`context.redactor`: the gateway's and the caller's key).
 */
export function useUpstreamErrors(options: UpstreamErrorsOptions = {}): Plugin {
  const mapErrors = (errors: readonly GraphQLError[], scope: RequestScope): GraphQLError[] =>
    errors.map((error) => {
      const original = error.originalError;
      if (!isUpstreamError(original)) return error;
      const mapped = upstreamToGraphQLError(original, scope?.redactor);
      options.onUpstreamError?.({
        code: mapped.extensions['code'],
        upstream: original.upstream,
        operation: original.operation,
        message: mapped.message,
        path: error.path,
        // What failed and which setting to check, as the response's extensions say it.
        ...(mapped.extensions['cause'] !== undefined ? { cause: mapped.extensions['cause'], variable: mapped.extensions['variable'] } : {}),
        // The operator's log line says where (the client's error does not).
        ...(original.origin ? { origin: original.origin } : {}),
      }, scope?.log);
      return new GraphQLError(mapped.message, { nodes: error.nodes, path: error.path, extensions: mapped.extensions });
    });
  const hasUpstreamError = (errors: readonly GraphQLError[] | undefined): errors is readonly GraphQLError[] =>
    errors?.some((e) => isUpstreamError(e.originalError)) === true;
  const map = (result: IncrementalPayload, scope: RequestScope): ExecutionResult | undefined => {
    // A later payload of an incremental response (@defer, @stream) carries its errors per deferred or streamed part.
    const parts = result.incremental;
    const partsFailed = parts?.some((part) => hasUpstreamError(part.errors)) === true;
    if (!hasUpstreamError(result.errors) && !partsFailed) return undefined;
    return {
      ...result,
      ...(result.errors ? { errors: mapErrors(result.errors, scope) } : {}),
      ...(parts && partsFailed ? { incremental: parts.map((part) => (part.errors ? { ...part, errors: mapErrors(part.errors, scope) } : part)) } : {}),
    } as ExecutionResult;
  };
  const onDone = (scope: RequestScope) => (payload: Parameters<typeof handleStreamOrSingleExecutionResult>[0]) =>
    handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
      const mapped = map(result, scope);
      if (mapped) setResult(mapped);
    });
  return {
    onExecute: ({ args }) => ({ onExecuteDone: onDone(args.contextValue as RequestScope) }),
    onSubscribe: ({ args }) => ({ onSubscribeResult: onDone(args.contextValue as RequestScope) }),
  };
}
