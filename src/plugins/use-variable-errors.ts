import { getOperationAST, getVariableValues, GraphQLError, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../errors.ts';

/** Coercion errors reported per request: enough to fix a request, few enough to stay small. */
const MAX_ERRORS = 10;
/** Longest string value quoted whole in a message; longer ones are cut, with their length. */
const MAX_QUOTED = 64;
/** Longest message: graphql-js quotes a refused value in full, and variables may hold a megabyte. */
const MAX_MESSAGE = 1024;

/** A coercion message with long quoted values cut, so an error never echoes a caller's whole payload. */
export function shortMessage(message: string): string {
  const cut = message.replace(/"((?:[^"\\]|\\.)*)"/g, (quoted, inner: string) =>
    inner.length > MAX_QUOTED ? `"${inner.slice(0, MAX_QUOTED)}…" (${inner.length} characters)` : quoted,
  );
  return cut.length > MAX_MESSAGE ? `${cut.slice(0, MAX_MESSAGE)}…` : cut;
}

/**
 * Variables that do not coerce to their declared type (`UInt256 "-1"`, `Int 1e10`, an unknown enum
 * value, a missing input field, a list where a scalar belongs, whatever the type) fail the request with
 * BAD_USER_INPUT and `extensions.variableName`, like every other caller mistake. graphql-js reports
 * them without a code; this coerces first, with the same function execution uses, and stops there.
 * Registered before the cost and input-validation plugins, which have nothing to say about a request
 * whose variables do not coerce.
 */
export function useVariableErrors(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const errors = variableErrors(args.schema, args.document, args.variableValues, args.operationName);
      if (errors) setResultAndStopExecution({ errors });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = variableErrors(args.schema, args.document, args.variableValues, args.operationName);
      if (errors) setResultAndStopExecution({ errors });
    },
  };
}

export function variableErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: unknown,
  operationName: string | null | undefined,
): GraphQLError[] | undefined {
  const operation = getOperationAST(document, operationName ?? undefined);
  const definitions = operation?.variableDefinitions ?? [];
  if (definitions.length === 0) return undefined;
  const inputs = rawVariables && typeof rawVariables === 'object' ? (rawVariables as Record<string, unknown>) : {};
  const coerced = getVariableValues(schema, definitions, inputs, { maxErrors: MAX_ERRORS });
  if (!coerced.errors) return undefined;
  return coerced.errors.map((error) => {
    const node = error.nodes?.[0];
    const variableName = node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : undefined;
    // The original error (a scalar's parseValue throwing) is left out: its message is already in this one,
    // and yoga masks errors that carry a non-GraphQL original as unexpected.
    return new GraphQLError(shortMessage(error.message), {
      ...(error.nodes ? { nodes: error.nodes } : {}),
      // `http.spec`: 400 for application/graphql-response+json, 200 for application/json (GraphQL over HTTP), as before.
      extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT, ...(variableName ? { variableName } : {}), http: { status: 400, spec: true } },
    });
  });
}
