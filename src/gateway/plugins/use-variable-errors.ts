import {
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  visit,
  type DirectiveNode,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/codes.ts';

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

/** A directive argument's rule beyond its type: what the executor assumes of the value and would assert at run time. */
interface DirectiveArgumentRule {
  test: (value: unknown) => boolean;
  /** What the value must be, for the message. */
  expected: string;
}

/**
 * Directive arguments whose type lets through values the executor cannot use, by directive and argument.
 * `@stream(initialCount:)` is a nullable Int: -1 or null reach graphql-tools' executor, whose assertion
 * (`initialCount must be a positive integer`) answered a masked INTERNAL_SERVER_ERROR.
 */
const DIRECTIVE_ARGUMENT_RULES: Readonly<Record<string, Readonly<Record<string, DirectiveArgumentRule>>>> = {
  stream: { initialCount: { test: (value) => Number.isInteger(value) && (value as number) >= 0, expected: 'an integer from 0 up' } },
};

/**
 * Variables that do not coerce to their declared type (`UInt256 "-1"`, `Int 1e10`, an unknown enum
 * value, a missing input field, a list where a scalar belongs, whatever the type) fail the request with
 * BAD_USER_INPUT and `extensions.variableName`, like every other caller mistake. graphql-js reports
 * them without a code; this coerces first, with the same function execution uses, and stops there.
 * Registered before the cost and input-validation plugins, which have nothing to say about a request
 * whose variables do not coerce.
 */
export function useVariableErrors(): Plugin {
  const check = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: unknown; operationName?: string | null | undefined }) =>
    variableErrors(args.schema, args.document, args.variableValues, args.operationName)
    ?? directiveErrors(args.schema, args.document, args.variableValues, args.operationName);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const errors = check(args);
      if (errors) setResultAndStopExecution({ errors });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = check(args);
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
  // graphql-js ends with an error of no location once MAX_ERRORS are reached: it stopped inside the variable
  // the errors before it name, so it names that one too.
  let last: string | undefined;
  return coerced.errors.map((error) => {
    const node = error.nodes?.[0];
    const variableName = node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : error.nodes ? undefined : last;
    last = variableName;
    // The original error (a scalar's parseValue throwing) is left out: its message is already in this one,
    // and yoga masks errors that carry a non-GraphQL original as unexpected.
    return new GraphQLError(shortMessage(error.message), {
      ...(error.nodes ? { nodes: error.nodes } : {}),
      // `http.spec`: 400 for application/graphql-response+json, 200 for application/json (GraphQL over HTTP), as before.
      extensions: { ...error.extensions, code: ErrorCode.BAD_USER_INPUT, ...(variableName ? { variableName } : {}), http: { status: 400, spec: true } },
    });
  });
}

/** The directives with arguments of each document's operations and fragments, found once per parsed document. */
const directivesOf = new WeakMap<DocumentNode, ReadonlyMap<OperationDefinitionNode | null, readonly DirectiveNode[]>>();

function argumentedDirectives(document: DocumentNode, operation: OperationDefinitionNode): readonly DirectiveNode[] {
  let known = directivesOf.get(document);
  if (!known) {
    const byOperation = new Map<OperationDefinitionNode | null, DirectiveNode[]>();
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
      // Fragments count for every operation: validation refuses a fragment no operation uses.
      const key = definition.kind === Kind.OPERATION_DEFINITION ? definition : null;
      const found = byOperation.get(key) ?? [];
      visit(definition, { Directive: (node) => void (node.arguments?.length ? found.push(node) : undefined) });
      byOperation.set(key, found);
    }
    directivesOf.set(document, (known = byOperation));
  }
  return [...(known.get(operation) ?? []), ...(known.get(null) ?? [])];
}

/**
 * Directive arguments the executor cannot use, found before execution: a value that does not coerce
 * once variables are in (`@defer(if: $flag)` with `$flag: Boolean` null: the argument has a default,
 * so validation lets a nullable variable through, and the executor throws), or one a rule of
 * {@link DIRECTIVE_ARGUMENT_RULES} refuses (`@stream(initialCount: -1)`). BAD_USER_INPUT with
 * `directiveName` and `argumentName`, like any other caller mistake.
 */
export function directiveErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: unknown,
  operationName: string | null | undefined,
): GraphQLError[] | undefined {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return undefined;
  const nodes = argumentedDirectives(document, operation);
  if (nodes.length === 0) return undefined;
  // Variables coerced as execution will coerce them (variableErrors has already refused those that do not).
  const definitions = operation.variableDefinitions ?? [];
  const inputs = rawVariables && typeof rawVariables === 'object' ? (rawVariables as Record<string, unknown>) : {};
  const coerced = definitions.length === 0 ? {} : getVariableValues(schema, definitions, inputs).coerced ?? {};
  const errors: GraphQLError[] = [];
  for (const node of nodes) {
    const name = node.name.value;
    const definition = schema.getDirective(name);
    if (!definition) continue;
    const refuse = (argumentName: string | undefined, message: string) =>
      errors.push(new GraphQLError(shortMessage(message), {
        nodes: node,
        extensions: { code: ErrorCode.BAD_USER_INPUT, directiveName: name, ...(argumentName ? { argumentName } : {}), http: { status: 400, spec: true } },
      }));
    let values: Record<string, unknown> | undefined;
    try {
      values = getDirectiveValues(definition, { directives: [node] }, coerced);
    } catch (error) {
      refuse(undefined, error instanceof GraphQLError ? error.message : `@${name} has an argument that does not coerce.`);
      continue;
    }
    for (const [argumentName, rule] of Object.entries(DIRECTIVE_ARGUMENT_RULES[name] ?? {})) {
      const value = values?.[argumentName];
      if (!rule.test(value)) refuse(argumentName, `@${name}(${argumentName}:) must be ${rule.expected}, got ${JSON.stringify(value) ?? 'nothing'}.`);
    }
    if (errors.length >= MAX_ERRORS) break;
  }
  return errors.length > 0 ? errors : undefined;
}
