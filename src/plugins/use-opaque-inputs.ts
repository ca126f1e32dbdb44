import {
  getArgumentValues,
  getNamedType,
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
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { createDocumentMemo } from './document-memo.ts';

/** Options of {@link useOpaqueInputs}. */
export interface OpaqueInputsOptions {
  /** Authenticates one cursor; throws a GraphQL error (BAD_USER_INPUT naming `after`) when it is not one of ours. */
  verifyCursor: (cursor: string) => void;
  /**
   * Checks the representations of federation's `_entities` (grammar of every global
   * id and natural key); throws a GraphQL error naming `representations`.
   */
  checkRepresentations?: (schema: GraphQLSchema, representations: unknown) => void;
}

/**
 * Checks the opaque values a client hands back, before execution starts, so a
 * forged or damaged one fails the request with BAD_USER_INPUT before any upstream
 * call, wherever it sits in the document:
 *
 * - every `after` of a connection field (a field returning a `...Connection` type)
 *   must be a cursor this gateway signed (HMAC, see `src/schema/pagination.ts`).
 *   Field argument checks (`validateArgs`) cannot do it: they run without the
 *   request context, and the secret is per gateway;
 * - `_entities(representations:)`, which federation builds outside our schema
 *   modules, gets the same id grammar as `node(id:)`.
 *
 * Results are memoised per document and the declared variables' values (the checks
 * depend only on them and on this gateway's secrets); error lists are small, since
 * messages never quote the value.
 */
export function useOpaqueInputs(options: OpaqueInputsOptions): Plugin {
  const memo = createDocumentMemo<GraphQLError[]>({ sizeOf: (errors) => errors.reduce((bytes, e) => bytes + 2 * e.message.length + 512, 0) });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = args.variableValues ?? {};
      const errors = memo(args.document, args.operationName, variables, () =>
        collectOpaqueInputErrors(args.schema, args.document, variables, options, args.operationName ?? undefined));
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
  };
}

export function collectOpaqueInputErrors(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Record<string, unknown>,
  options: OpaqueInputsOptions,
  operationName?: string,
): GraphQLError[] {
  const operation = getOperationAST(document, operationName);
  if (!operation) return [];
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Variable coercion errors are reported by execution itself.
  if (coerced.errors) return [];
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  const errors: GraphQLError[] = [];
  const seen = new Set<string>();
  const check = (node: ASTNode, run: () => void): void => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      errors.push(new GraphQLError(error.message, { nodes: node, extensions: error.extensions }));
    }
  };
  const visitNode = (root: ASTNode): void => {
    const typeInfo = new TypeInfo(schema);
    visit(
      root,
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const fieldDef = typeInfo.getFieldDef();
          if (!fieldDef || !node.arguments?.length) return;
          const isConnection = getNamedType(fieldDef.type).name.endsWith('Connection') && fieldDef.args.some((a) => a.name === 'after');
          const isEntities = fieldDef.name === '_entities' && options.checkRepresentations !== undefined;
          if (!isConnection && !isEntities) return;
          let values: Record<string, unknown>;
          try {
            values = getArgumentValues(fieldDef, node, variables);
          } catch {
            return; // coercion problems are execution's to report
          }
          // An empty `after` means "from the start", as in the resolvers.
          if (isConnection && typeof values['after'] === 'string' && values['after'] !== '') {
            const after = values['after'];
            check(node, () => options.verifyCursor(after));
          }
          if (isEntities) check(node, () => options.checkRepresentations?.(schema, values['representations']));
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
