import type { ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import { handleStreamOrSingleExecutionResult, type Plugin } from 'graphql-yoga';

type IncrementalPayload = ExecutionResult & { incremental?: readonly { errors?: readonly GraphQLError[] }[] };

/** Maps a list of errors; undefined when it leaves every one as it is. */
export type ErrorsMapper = (errors: readonly GraphQLError[]) => GraphQLError[] | undefined;

/**
 * `result` with `mapErrors` applied to its errors and to those of each part of a later payload of an
 * incremental response (`@defer`, `@stream`, which carry their errors per part); undefined when nothing changed.
 */
export function mapResultErrors(result: ExecutionResult, mapErrors: ErrorsMapper): ExecutionResult | undefined {
  const errors = result.errors ? mapErrors(result.errors) : undefined;
  let partsChanged = false;
  const parts = (result as IncrementalPayload).incremental?.map((part) => {
    const partErrors = part.errors ? mapErrors(part.errors) : undefined;
    if (!partErrors) return part;
    partsChanged = true;
    return { ...part, errors: partErrors };
  });
  if (!errors && !partsChanged) return undefined;
  return { ...result, ...(errors ? { errors } : {}), ...(partsChanged ? { incremental: parts } : {}) } as ExecutionResult;
}

/**
 * A plugin that maps the errors of every result of an operation: a query's or a mutation's, each payload
 * of an incremental response, each subscription event. `mapperFor` is asked once per operation, with its
 * schema and context. Registered before yoga's masking, like every user plugin, so it sees the errors as
 * the executor made them.
 */
export function useResultErrors(mapperFor: (schema: GraphQLSchema, context: unknown) => ErrorsMapper): Plugin {
  const onDone = (mapErrors: ErrorsMapper) => (payload: Parameters<typeof handleStreamOrSingleExecutionResult>[0]) =>
    handleStreamOrSingleExecutionResult(payload, ({ result, setResult }) => {
      if (!result.errors && !(result as IncrementalPayload).incremental) return;
      const mapped = mapResultErrors(result, mapErrors);
      if (mapped) setResult(mapped);
    });
  return {
    onExecute: ({ args }) => ({ onExecuteDone: onDone(mapperFor(args.schema, args.contextValue)) }),
    onSubscribe: ({ args }) => ({ onSubscribeResult: onDone(mapperFor(args.schema, args.contextValue)) }),
  };
}
