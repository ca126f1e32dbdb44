import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  isUnionType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ErrorCode } from '../../errors/graphql.ts';

/** Options of {@link useIntrospectionLimit}. */
export interface IntrospectionLimitOptions {
  /** Most `__schema` fields per operation, counted through aliases and fragments. Default 1. */
  maxSchemaFields?: number;
  /** Most `__type` fields per operation, counted through aliases and fragments. Default 10. */
  maxTypeFields?: number;
  /**
   * Most introspection lists (`types`, `fields`, `args`, `inputFields`, `interfaces`, `possibleTypes`,
   * `enumValues`, `directives`) nested along one path. The standard introspection query (GraphiQL's,
   * Apollo's) needs 3 (`types.fields.args`); each extra level multiplies the response by the number of
   * fields per type (`types.fields.type.fields.type.fields...`). Default 3.
   */
  maxListNesting?: number;
}

export const INTROSPECTION_LIMIT_DEFAULTS = { maxSchemaFields: 1, maxTypeFields: 10, maxListNesting: 3 } as const;

interface Summary {
  schemaFields: number;
  typeFields: number;
  /** Deepest nesting of introspection lists below this selection set. */
  lists: number;
}

/**
 * Introspection costs no upstream call, so the cost model gives it 0, yet its answer is the biggest a
 * small document can ask for: the schema's introspection is about 300 KB, and 30 aliases of it about
 * 9 MB. This validation rule bounds it instead of pricing it: at most one `__schema` and a few `__type`
 * per operation, counted through aliases and fragments (each fragment summarised once, so a fragment
 * spread twice counts twice without being walked twice), and a bounded nesting of introspection lists.
 * Over it: INTROSPECTION_LIMIT, 400, before execution. Ordinary introspection (GraphiQL, codegen,
 * federation composition through `_service`) is within the limits.
 */
export function useIntrospectionLimit(options: IntrospectionLimitOptions = {}): Plugin {
  const rule = introspectionLimitRule({ ...INTROSPECTION_LIMIT_DEFAULTS, ...options });
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
    },
  };
}

export function introspectionLimitRule(limits: Required<IntrospectionLimitOptions>): ValidationRule {
  return (context) => ({
    Document(document) {
      const schema = context.getSchema();
      const fragments = new Map<string, FragmentDefinitionNode>();
      for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
      const summarise = createSummariser(schema, fragments);
      for (const def of document.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        const root = schema.getRootType(def.operation);
        if (!root) continue;
        const summary = summarise(def.selectionSet, root);
        const over: string[] = [];
        if (summary.schemaFields > limits.maxSchemaFields) over.push(`${summary.schemaFields} __schema fields (limit ${limits.maxSchemaFields})`);
        if (summary.typeFields > limits.maxTypeFields) over.push(`${summary.typeFields} __type fields (limit ${limits.maxTypeFields})`);
        if (summary.lists > limits.maxListNesting) over.push(`introspection lists nested ${summary.lists} deep (limit ${limits.maxListNesting})`);
        if (over.length > 0) {
          context.reportError(
            new GraphQLError(`Introspection limit: the operation asks for ${over.join(' and ')}. Introspect once and reuse the result.`, {
              nodes: def,
              extensions: { code: ErrorCode.INTROSPECTION_LIMIT },
            }),
          );
        }
      }
    },
  });
}

function createSummariser(schema: GraphQLSchema, fragments: ReadonlyMap<string, FragmentDefinitionNode>) {
  const memo = new Map<string, Summary>();
  const visiting = new Set<string>();
  const empty: Summary = { schemaFields: 0, typeFields: 0, lists: 0 };

  const fragmentSummary = (name: string): Summary => {
    const known = memo.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    // Unknown fragments and cycles are reported by the standard rules; they add nothing here.
    if (!fragment || visiting.has(name)) return empty;
    const type = schema.getType(fragment.typeCondition.name.value);
    if (!type || !isCompositeType(type)) return empty;
    visiting.add(name);
    const summary = walk(fragment.selectionSet, type);
    visiting.delete(name);
    memo.set(name, summary);
    return summary;
  };

  const walk = (selectionSet: SelectionSetNode, parentType: GraphQLCompositeType): Summary => {
    const total: Summary = { schemaFields: 0, typeFields: 0, lists: 0 };
    const add = (child: Summary, listLevel: number) => {
      total.schemaFields += child.schemaFields;
      total.typeFields += child.typeFields;
      total.lists = Math.max(total.lists, child.lists + listLevel);
    };
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        add(fragmentSummary(selection.name.value), 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        if (condition && isCompositeType(condition)) add(walk(selection.selectionSet, condition), 0);
      } else {
        const name = selection.name.value;
        if (name === '__schema') total.schemaFields++;
        if (name === '__type') total.typeFields++;
        if (!selection.selectionSet) continue;
        const fieldType = name === '__schema' ? schema.getType('__Schema') : name === '__type' ? schema.getType('__Type') : fieldTypeOf(parentType, name);
        if (!fieldType) continue;
        const named = getNamedType(fieldType);
        if (!isCompositeType(named)) continue;
        const isIntrospectionList = parentType.name.startsWith('__') && isListType(getNullableType(fieldType));
        add(walk(selection.selectionSet, named), isIntrospectionList ? 1 : 0);
      }
    }
    return total;
  };

  return walk;
}

function fieldTypeOf(parentType: GraphQLCompositeType, name: string) {
  if (isUnionType(parentType)) return undefined;
  return parentType.getFields()[name]?.type;
}
