import {
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ASTNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLFieldExtensions,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../schema/context.ts';
import { defineFact, operationFact } from './document-facts.ts';

/**
 * A field's argument check: throws (or returns) GraphQL errors for bad input.
 * Declared on a field as `checkArgs` (the schema's checks plugin puts it in
 * `extensions.validateArgs`; the grammars are in `src/schema/input-checks.ts` and `bounds.ts`). `context` is the request's; a check may read only what is
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

/**
 * One value's bound (an argument's or an input field's), declared as
 * `extensions: { checkValue }` (the schema's `bound` option puts it there): throws GraphQL
 * errors naming `path`; called only for non-null values.
 */
export type ValueCheck = (value: unknown, path: string, index?: number) => void;

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    validateArgs?: ArgsValidator;
  }
  interface GraphQLArgumentExtensions {
    checkValue?: ValueCheck;
  }
  interface GraphQLInputFieldExtensions {
    checkValue?: ValueCheck;
  }
}

/**
 * Applies the bounds declared on a value's argument or input field, then on the
 * fields of the input objects it holds, at any depth (paths like `input.options.includeChains`).
 */
function checkValues(type: GraphQLInputType, value: unknown, path: string, check: ValueCheck | undefined): void {
  if (value == null) return;
  check?.(value, path);
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (Array.isArray(value) && hasBounds(inner.ofType)) value.forEach((item, i) => checkValues(inner.ofType, item, `${path}[${i}]`, undefined));
    return;
  }
  if (!isInputObjectType(inner) || typeof value !== 'object') return;
  for (const field of Object.values(inner.getFields())) {
    checkValues(field.type, (value as Record<string, unknown>)[field.name], `${path}.${field.name}`, field.extensions.checkValue);
  }
}

/** True when an input type holds a bound somewhere (cached per input object type). */
const boundsIn = new WeakMap<object, boolean>();
function hasBounds(type: GraphQLInputType): boolean {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return false;
  let known = boundsIn.get(named);
  if (known === undefined) {
    boundsIn.set(named, false); // recursive input types terminate here
    known = Object.values(named.getFields()).some((f) => Boolean(f.extensions.checkValue) || hasBounds(f.type));
    boundsIn.set(named, known);
  }
  return known;
}

/**
 * Checks every field's arguments against its declared bounds before execution
 * starts, so a bad page size or filter deep in a query fails the request with
 * BAD_USER_INPUT before a single upstream call is made: first each argument's
 * bounds (`extensions.checkValue` on arguments and input fields, at any depth), then
 * the field's rules between arguments (`extensions.validateArgs`). Fields with neither
 * cost nothing here.
 */
export function useInputValidation(options: InputValidationOptions = {}): Plugin<Context> {
  const fieldChecks = options.fieldChecks ?? [];
  // Error lists may quote a caller's argument: a long one is recomputed rather than kept.
  const inputErrors = defineFact<GraphQLError[]>('input errors', { sizeOf: (errors) => errors.reduce((bytes, e) => bytes + 2 * e.message.length + 512, 0) });
  const check = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: Record<string, unknown> | null | undefined; operationName?: string | null | undefined; contextValue: Context }): GraphQLError[] =>
    operationFact(args, inputErrors, () =>
      collectInputErrors(args.schema, args.document, args.variableValues ?? {}, args.operationName ?? undefined, args.contextValue, fieldChecks));
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
  const collect = (run: () => void, node: ASTNode): void => {
    try {
      run();
    } catch (error) {
      const list = error instanceof AggregateError ? error.errors : [error];
      for (const e of list) {
        if (e instanceof GraphQLError) errors.push(new GraphQLError(e.message, { nodes: node, extensions: e.extensions }));
        else throw e;
      }
    }
  };
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
          const bounded = fieldDef.args.filter((a) => a.extensions.checkValue || hasBounds(a.type));
          if (!validate && bounded.length === 0 && fieldChecks.length === 0) return;
          let values: Record<string, unknown>;
          try {
            values = getArgumentValues(fieldDef, node, variables);
          } catch {
            return; // coercion problems are execution's to report, with their own code
          }
          // Each argument's bounds first; the rules between arguments only once every value is within its own.
          const boundChecks = bounded.map((a) => () => checkValues(a.type, values[a.name], a.name, a.extensions.checkValue));
          const before = errors.length;
          for (const run of boundChecks) collect(run, node);
          const checks: (() => void)[] = fieldChecks.map((check) => () => check(fieldDef, values));
          if (validate && errors.length === before) checks.unshift(() => validate(values, context as Context));
          for (const run of checks) collect(run, node);
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
