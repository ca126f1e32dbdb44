import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isCompositeType,
  isListType,
  isUnionType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { FieldCost } from '../../../lib/cost.ts';
import { WEIGHT_TIERS } from '../../../lib/compute-units.ts';

/** What a call of a field that declares no weight is assumed to weigh: the heaviest tier, never an underestimate. */
const UNDECLARED_COMPUTE_UNITS = Math.max(...Object.values(WEIGHT_TIERS));

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    /** What the field spends upstream (see `src/lib/cost.ts`). */
    cost?: FieldCost;
  }
}

export interface CostEstimate {
  /** Upstream calls the operation makes at most, by the fields' declared costs. */
  estimatedUpstreamCalls: number;
  /** What those calls weigh at most in the Data API's compute units: each field's calls times its heaviest call. */
  estimatedComputeUnits: number;
  /** Most objects the response can hold: connection items and list elements. */
  nodes: number;
}

export interface EstimateOptions {
  /** Elements assumed in a plain list whose size neither its declaration nor an argument tells. Default 10. */
  defaultListSize?: number;
  /** Known sizes of plain lists, by `Type.field` (the gateway passes its number of configured nodes). */
  listSizes?: Readonly<Record<string, number>>;
  /** Configured nodes, for node methods (`CostInput.nodeCount`). Default: unknown, so one call per parent. */
  nodeCount?: number;
  /** Costs by `Type.field`, taking precedence over the schema's `extensions.cost` (tests, overrides). */
  fieldCosts?: Readonly<Record<string, FieldCost>>;
  /**
   * Most field evaluations the estimate may take before it gives up with
   * {@link EstimateTooComplex}. Memoisation makes a document cost one evaluation
   * per field per distinct (selection set, parent type, parent count); the limit
   * stops documents whose nesting multiplies distinct counts. Default 20000 (an
   * estimate of that size takes a few milliseconds).
   */
  maxWork?: number;
}

export const ESTIMATE_DEFAULTS = { defaultListSize: 10, maxWork: 20_000 } as const;

/** Thrown when a document needs more than `maxWork` field evaluations to estimate. */
export class EstimateTooComplex extends Error {
  constructor(readonly maxWork: number) {
    super(`more than ${maxWork} field evaluations`);
    this.name = 'EstimateTooComplex';
  }
}

// Products of page sizes are clamped: anything near this is far over any budget anyway.
const CLAMP = Number.MAX_SAFE_INTEGER;
const clamp = (n: number): number => (Number.isFinite(n) ? Math.min(Math.max(n, 0), CLAMP) : CLAMP);

/**
 * Estimates the upstream calls and response objects of an operation before it
 * runs, from the document alone (fragments and variables included, `@skip` and
 * `@include` honoured), by the costs the fields declare (`extensions.cost`, see
 * `costs.ts`).
 *
 * A field's cost depends on how many parent objects it is resolved for: the
 * walk carries that count down (connection pages and list sizes multiply it).
 * Branches on different types (`... on A`, `... on B`) and aliases are added up
 * as if every parent took each of them: an overestimate, never an under.
 *
 * Linear in the document: the result of a selection set under a given parent
 * type, parent count and page size is computed once and reused, so a fragment
 * spread a thousand times (or a chain of fragments each spreading the next
 * twice) is walked once per distinct context. The remaining blow-up, nesting that
 * makes many distinct parent counts, is cut by a work budget (`maxWork`).
 *
 * Returns undefined when there is nothing to estimate (no such operation, or
 * variables that do not coerce: execution reports those).
 */
export function estimateQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Readonly<Record<string, unknown>>,
  operationName?: string | null,
  options: EstimateOptions = {},
): CostEstimate | undefined {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return undefined;
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], { ...rawVariables });
  if (coerced.errors) return undefined;
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const defaultListSize = options.defaultListSize ?? ESTIMATE_DEFAULTS.defaultListSize;
  const maxWork = options.maxWork ?? ESTIMATE_DEFAULTS.maxWork;
  const nodeCount = options.nodeCount ?? Infinity;

  let work = 0;
  const memo = new Map<SelectionSetNode, Map<string, CostEstimate>>();
  /** Fragments being walked on the current path: a cycle (invalid anyway) adds nothing. */
  const spreading = new Set<string>();

  const included = (node: SelectionNode): boolean => {
    if (!node.directives?.length) return true;
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] === false) return false;
    return true;
  };

  /** `page` is set while walking a connection object: its list fields hold that many per connection. */
  const walk = (selectionSet: SelectionSetNode, parentType: GraphQLCompositeType, parents: number, page: number | undefined): CostEstimate => {
    const key = `${parentType.name}|${parents}|${page ?? ''}`;
    let byContext = memo.get(selectionSet);
    const known = byContext?.get(key);
    if (known) {
      work += 1;
      return known;
    }
    const total: CostEstimate = { estimatedUpstreamCalls: 0, estimatedComputeUnits: 0, nodes: 0 };
    const add = (part: CostEstimate): void => {
      total.estimatedUpstreamCalls = clamp(total.estimatedUpstreamCalls + part.estimatedUpstreamCalls);
      total.estimatedComputeUnits = clamp(total.estimatedComputeUnits + part.estimatedComputeUnits);
      total.nodes = clamp(total.nodes + part.nodes);
    };
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        add(visitField(selection, parentType, parents, page));
        continue;
      }
      let condition: GraphQLCompositeType = parentType;
      let inner: SelectionSetNode;
      let fragmentName: string | undefined;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        inner = selection.selectionSet;
        const named = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        if (!named || !isCompositeType(named)) continue;
        condition = named;
      } else {
        fragmentName = selection.name.value;
        const fragment = fragments.get(fragmentName);
        if (!fragment || spreading.has(fragmentName)) continue;
        const named = schema.getType(fragment.typeCondition.name.value);
        if (!named || !isCompositeType(named)) continue;
        condition = named;
        inner = fragment.selectionSet;
      }
      if (fragmentName) spreading.add(fragmentName);
      try {
        add(walk(inner, condition, parents, page));
      } finally {
        if (fragmentName) spreading.delete(fragmentName);
      }
    }
    if (!byContext) memo.set(selectionSet, (byContext = new Map()));
    byContext.set(key, total);
    return total;
  };

  const visitField = (node: FieldNode, parentType: GraphQLCompositeType, parents: number, page: number | undefined): CostEstimate => {
    work += 1;
    if (work > maxWork) throw new EstimateTooComplex(maxWork);
    const name = node.name.value;
    const none: CostEstimate = { estimatedUpstreamCalls: 0, estimatedComputeUnits: 0, nodes: 0 };
    // __typename and introspection ask no upstream; a union has no fields of its own.
    if (name.startsWith('__') || isUnionType(parentType)) return none;
    const field = parentType.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
    if (!field) return none;
    let args: Record<string, unknown> = {};
    try {
      args = getArgumentValues(field, node, variables);
    } catch {
      // Invalid arguments are reported by validation or execution; estimate with none.
    }
    const coordinate = `${parentType.name}.${name}`;
    const cost = options.fieldCosts?.[coordinate] ?? field.extensions.cost;
    const calls = parents > 0 && cost ? clamp(cost.calls({ parents, args, nodeCount })) : 0;
    const computeUnits = calls > 0 ? clamp(cost?.weigh ? cost.weigh({ parents, args, nodeCount }) : calls * (cost?.computeUnits ?? UNDECLARED_COMPUTE_UNITS)) : 0;
    const returned = getNamedType(field.type);
    if (!isCompositeType(returned)) return { estimatedUpstreamCalls: calls, estimatedComputeUnits: computeUnits, nodes: 0 };

    let objects = parents;
    let nodes = 0;
    let innerPage: number | undefined;
    if (cost?.connection) {
      innerPage = clamp(cost.size?.(args) ?? defaultListSize);
      nodes = clamp(parents * innerPage);
    } else if (isListType(getNullableType(field.type))) {
      // A connection's edges/nodes hold its page, already counted as the connection's nodes.
      const size = page ?? cost?.size?.(args) ?? options.listSizes?.[coordinate] ?? defaultListSize;
      objects = clamp(parents * size);
      if (page === undefined) nodes = objects;
    }
    const below = node.selectionSet ? walk(node.selectionSet, returned, objects, innerPage) : none;
    return {
      estimatedUpstreamCalls: clamp(calls + below.estimatedUpstreamCalls),
      estimatedComputeUnits: clamp(computeUnits + below.estimatedComputeUnits),
      nodes: clamp(nodes + below.nodes),
    };
  };

  return walk(operation.selectionSet, rootType, 1, undefined);
}
