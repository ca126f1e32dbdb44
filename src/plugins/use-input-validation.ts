import {
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldExtensions,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';
import { createDocumentMemo } from './document-memo.ts';

/**
 * A field's argument check: throws (or returns) GraphQL errors for bad input.
 * Declared on a field as `extensions: { validateArgs }` (the grammars are in
 * `src/schema/input-checks.ts`). `context` is the request's; a check may read only what is
 * fixed for the gateway's lifetime (the configured nodes), since results are memoized
 * per document and variables.
 */
export type ArgsValidator = (args: Record<string, unknown>, context: Context) => void;

/**
 * A check that applies to fields by their shape rather than by declaration (every
 * connection's `after`, federation's `_entities`): called for every field that has
 * arguments, with their values; throws GraphQL errors like a validator.
 */
export type FieldCheck = (field: GraphQLField<unknown, unknown>, args: Record<string, unknown>) => void;

/** Options of {@link useInputValidation}. */
export interface InputValidationOptions {
  /** Checks run for every field with arguments, after its own `validateArgs`. Default none. */
  fieldChecks?: readonly FieldCheck[];
}

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    validateArgs?: ArgsValidator;
  }
}

/**
 * Checks every field's arguments against its declared bounds before execution
 * starts, so a bad page size or filter deep in a query fails the request with
 * BAD_USER_INPUT before a single upstream call is made. Fields without a
 * `validateArgs` extension cost nothing here.
 */
export function useInputValidation(options: InputValidationOptions = {}): Plugin<Context> {
  const fieldChecks = options.fieldChecks ?? [];
  // Error lists may quote a caller's argument: a long one is recomputed rather than kept.
  const memo = createDocumentMemo<GraphQLError[]>({ sizeOf: (errors) => errors.reduce((bytes, e) => bytes + 2 * e.message.length + 512, 0) });
  const check = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: Record<string, unknown> | null | undefined; operationName?: string | null | undefined; contextValue: Context }): GraphQLError[] => {
    const variables = args.variableValues ?? {};
    return memo(args.document, args.operationName, variables, () =>
      collectInputErrors(args.schema, args.document, variables, args.operationName ?? undefined, args.contextValue, fieldChecks));
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const errors = check(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
    // Subscriptions do not pass through execute: their arguments are checked before the first poll.
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors = check(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
  };
}

export function collectInputErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Record<string, unknown>,
  operationName?: string,
  context?: Context,
  fieldChecks: readonly FieldCheck[] = [],
): GraphQLError[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Variable coercion errors are reported by execution itself; nothing to add here.
  if (coerced.errors) return [];
  const variables = coerced.coerced;

  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  const errors: GraphQLError[] = [];
  const seen = new Set<string>();
  const visitNode = (root: ASTNode): void => {
    const typeInfo = new TypeInfo(schema);
    visit(
      root,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const fieldDef = typeInfo.getFieldDef();
          if (!fieldDef || fieldDef.args.length === 0) return;
          const validate = (fieldDef.extensions as GraphQLFieldExtensions<unknown, unknown> | undefined)?.validateArgs;
          if (!validate && fieldChecks.length === 0) return;
          let values: Record<string, unknown>;
          try {
            values = getArgumentValues(fieldDef, node, variables);
          } catch {
            return; // coercion problems are execution's to report, with their own code
          }
          const checks: (() => void)[] = fieldChecks.map((check) => () => check(fieldDef, values));
          if (validate) checks.unshift(() => validate(values, context as Context));
          for (const run of checks) {
            try {
              run();
            } catch (error) {
              const list = error instanceof AggregateError ? error.errors : [error];
              for (const e of list) {
                if (e instanceof GraphQLError) errors.push(new GraphQLError(e.message, { nodes: node, extensions: e.extensions }));
                else throw e;
              }
            }
          }
        },
        FragmentSpread(node) {
          const name = node.name.value;
          const fragment = fragments.get(name);
          if (fragment && !seen.has(name)) {
            seen.add(name);
            visitNode(fragment);
          }
        },
      }),
    );
  };
  visitNode(operation);
  return errors;
}
