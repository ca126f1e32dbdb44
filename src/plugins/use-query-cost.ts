import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isCompositeType,
  isListType,
  isObjectType,
  isUnionType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLFieldExtensions,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { createDocumentMemo } from './document-memo.ts';
import { ErrorCode } from '../errors.ts';
import { PAGES } from '../schema/pagination.ts';

/**
 * How a field spends upstream calls. Declared on a field as `extensions: { cost }`
 * to override what {@link inferFieldCost} would infer from the schema:
 * - `free`: resolved from its parent or the configuration (no call);
 * - `upstream`: one call per parent object (node methods: every configured node is asked);
 * - `batched`: one call per level however many parents (a loader reading one whole listing);
 * - `link`: a single object per parent through a batching loader: ceil(parents / 100) calls;
 * - `connection`: a page of a listing; see {@link estimateQueryCost} for the nested case.
 */
export interface FieldCost {
  kind: 'free' | 'upstream' | 'batched' | 'link' | 'connection';
  /** `connection` only: the page size when `first` is omitted (else the PAGES entry named like the field, else 10). */
  page?: { defaultSize: number };
}

declare module 'graphql' {
  interface GraphQLFieldExtensions<_TSource, _TContext, _TArgs> {
    cost?: FieldCost;
  }
}

export interface CostEstimate {
  /** Upstream calls the loaders are expected to make for this operation. */
  estimatedUpstreamCalls: number;
  /** Most objects the response can hold: connection items and list elements. */
  nodes: number;
}

export interface EstimateOptions {
  /** Elements assumed in a plain list (not a connection) whose size no argument tells. Default 10. */
  defaultListSize?: number;
  /** Known sizes of plain lists, by `Type.field` (the gateway passes `Query.avalancheNodes`). */
  listSizes?: Readonly<Record<string, number>>;
  /** Costs by `Type.field`, taking precedence over the schema's extensions and the inference. */
  fieldCosts?: Readonly<Record<string, FieldCost>>;
  /**
   * Share of parents assumed to need a listing of their own for a nested connection
   * (their list is longer than one upstream page, or the parent gives no count to
   * pack by), 0-1. 0 is the "everything packs" model. Default 0.1, which matches the
   * devnet's ValidatorWalk (18 calls measured, 19 estimated).
   */
  soloShare?: number;
}

/** Options of {@link useQueryCost}. */
export interface QueryCostOptions extends EstimateOptions {
  /** Most estimated upstream calls one operation may cost (`MAX_QUERY_COST`). Default 500. */
  maxCost?: number;
  /** Most objects one response may hold. Default 50000. */
  maxNodes?: number;
  /**
   * Reads the upstream calls the request made from its context, for
   * `extensions.cost.actualUpstreamCalls`. Default: `context.upstreamCalls.count` (see `src/context.ts`).
   */
  actualUpstreamCalls?: (context: unknown) => number | undefined;
}

export const QUERY_COST_DEFAULTS = { maxCost: 500, maxNodes: 50_000, defaultListSize: 10, soloShare: 0.1 } as const;

/** Calls one batched upstream listing serves: the loaders send up to 100 ids (or items) per call. */
const BATCH = 100;

/**
 * Types that are plain wrappers built from arguments or configuration: returning
 * one costs nothing, their fields do the work.
 */
const NAMESPACE_TYPES: ReadonlySet<string> = new Set(['Network', 'PrimaryBlockchain', 'Address', 'AvalancheNode']);

/**
 * Types whose fields (but these) each ask the upstream: every AvalancheNode field is
 * a node method, called once per node per request.
 */
const NODE_BACKED_TYPES: ReadonlySet<string> = new Set(['AvalancheNode']);
const LOCAL_FIELDS: ReadonlySet<string> = new Set(['id', 'name', 'url']);

/** Argument-less fields that follow a link to another resource (the contract's Links table). */
const LINK_FIELDS: ReadonlySet<string> = new Set([
  'subnet', 'peer', 'validator', 'proposer', 'evmChain', 'blockchain', 'transaction',
  'contractDeployment', 'nftToken', 'nativeBalance', 'chain',
]);

/**
 * Estimates what an operation will cost before it runs, from the document alone
 * (fragments and variables included, `@skip`/`@include` honoured).
 *
 * The model follows the loaders:
 * - A field's calls depend on how many parent objects it is resolved for
 *   (`parents`, the product of the page sizes and list sizes above it).
 * - Root fields cost 1 call each (wrappers such as `network` cost 0).
 * - A connection costs 1 call under a single parent. Under `parents` parents the
 *   per-parent loaders (`src/loaders/per-parent.ts`) pack the parents whose whole
 *   list fits one upstream page into shared listings of 100 items, about
 *   ceil(parents * first / 100) calls, and give every other parent a listing of its
 *   own; how many those are depends on the data, so a share `soloShare` is assumed:
 *   min(parents, ceil(parents * first / 100) + ceil(parents * soloShare)). With `after`
 *   every parent reads its own page: `parents` calls. It holds parents * first nodes.
 * - A link (an object through a batching loader) costs ceil(parents / 100).
 * - A node method costs 1 call per node.
 * - Branches on different types (`... on A`, `... on B`) are added up, as if every
 *   parent matched each of them (an overestimate).
 * The walk is a plain recursion over selection sets with the parent type in hand
 * (what TypeInfo tracks), because the multiplier of every field depends on its path.
 * `first` defaults to the connection's default page size (PAGES), else 10.
 */
export function estimateQueryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  rawVariables: Record<string, unknown>,
  operationName?: string | null,
  options: EstimateOptions = {},
): CostEstimate | undefined {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return undefined;
  const rootType = schema.getRootType(operation.operation);
  if (!rootType) return undefined;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables);
  // Bad variables fail execution with their own error; there is nothing to estimate.
  if (coerced.errors) return undefined;
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of document.definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  const defaultListSize = options.defaultListSize ?? QUERY_COST_DEFAULTS.defaultListSize;
  const soloShare = Math.min(1, Math.max(0, options.soloShare ?? QUERY_COST_DEFAULTS.soloShare));
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean).map((t) => t?.name));

  const total: CostEstimate = { estimatedUpstreamCalls: 0, nodes: 0 };
  const spreading = new Set<string>();

  const included = (node: FieldNode | SelectionSetNode['selections'][number]): boolean => {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true) return false;
    if (getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] === false) return false;
    return true;
  };

  /** `pageSize` is set while walking a connection object: its `edges`/`nodes` lists hold that many. */
  const walk = (selectionSet: SelectionSetNode, parentType: GraphQLCompositeType, parents: number, pageSize?: number): void => {
    for (const selection of selectionSet.selections) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parentType;
        if (condition && isCompositeType(condition)) walk(selection.selectionSet, condition, parents, pageSize);
        continue;
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || spreading.has(name)) continue;
        const condition = schema.getType(fragment.typeCondition.name.value);
        if (!condition || !isCompositeType(condition)) continue;
        spreading.add(name);
        walk(fragment.selectionSet, condition, parents, pageSize);
        spreading.delete(name);
        continue;
      }
      visitField(selection, parentType, parents, pageSize);
    }
  };

  const visitField = (node: FieldNode, parentType: GraphQLCompositeType, parents: number, connectionPage?: number): void => {
    const name = node.name.value;
    if (name.startsWith('__')) return; // __typename and introspection ask no upstream
    if (isUnionType(parentType)) return; // a union has no fields of its own
    const field = parentType.getFields()[name] as GraphQLField<unknown, unknown> | undefined;
    if (!field) return;
    let args: Record<string, unknown> = {};
    try {
      args = getArgumentValues(field, node, variables);
    } catch {
      // Invalid arguments are reported by validation or execution; estimate with defaults.
    }
    const coordinate = `${parentType.name}.${name}`;
    const isRoot = roots.has(parentType.name);
    const cost = options.fieldCosts?.[coordinate] ?? (field.extensions as GraphQLFieldExtensions<unknown, unknown> | undefined)?.cost ?? inferFieldCost(parentType.name, field, isRoot);
    const returned = getNamedType(field.type);
    const nullable = getNullableType(field.type);

    if (cost.kind === 'connection') {
      const first = pageSizeOf(args, cost, name);
      total.estimatedUpstreamCalls += nestedConnectionCalls(parents, first, Boolean(args['after']), soloShare);
      total.nodes += parents * first;
      if (node.selectionSet && isCompositeType(returned)) walk(node.selectionSet, returned, parents, first);
      return;
    }

    let items = parents;
    if (isListType(nullable) && isCompositeType(returned)) {
      // edges/nodes of a connection hold its page; already counted as the connection's nodes.
      const size = connectionPage ?? listSizeOf(args, coordinate, options.listSizes, defaultListSize);
      items = parents * size;
      if (connectionPage === undefined) total.nodes += items;
    }
    const sizedByArgument = isRoot && isListType(nullable) && listArgumentLength(args) !== undefined;
    total.estimatedUpstreamCalls += sizedByArgument && cost.kind !== 'free' ? items : callsOf(cost, parents);
    if (node.selectionSet && isCompositeType(returned)) walk(node.selectionSet, returned, items);
  };

  walk(operation.selectionSet, rootType, 1);
  return total;
}

/** What a field costs when neither an override nor its `extensions.cost` says (see the constants above). */
export function inferFieldCost(parentTypeName: string, field: GraphQLField<unknown, unknown>, isRoot: boolean): FieldCost {
  const returned = getNamedType(field.type);
  if (isObjectType(returned) && returned.name.endsWith('Connection')) return { kind: 'connection' };
  if (NAMESPACE_TYPES.has(returned.name)) return { kind: 'free' };
  if (NODE_BACKED_TYPES.has(parentTypeName)) return LOCAL_FIELDS.has(field.name) ? { kind: 'free' } : { kind: 'upstream' };
  if (isRoot) return field.name === '_service' ? { kind: 'free' } : { kind: 'upstream' };
  if (isCompositeType(returned) && (field.args.length > 0 || LINK_FIELDS.has(field.name))) return { kind: 'link' };
  return { kind: 'free' };
}

function nestedConnectionCalls(parents: number, first: number, after: boolean, soloShare: number): number {
  if (parents <= 1) return parents > 0 ? 1 : 0;
  if (after) return parents;
  return Math.min(parents, Math.ceil((parents * first) / BATCH) + Math.ceil(parents * soloShare));
}

function callsOf(cost: FieldCost, parents: number): number {
  if (parents <= 0) return 0;
  switch (cost.kind) {
    case 'free':
      return 0;
    case 'upstream':
      return parents;
    case 'batched':
      return 1;
    case 'link':
    case 'connection':
      return Math.ceil(parents / BATCH);
  }
}

function pageSizeOf(args: Record<string, unknown>, cost: FieldCost, fieldName: string): number {
  const first = args['first'];
  if (typeof first === 'number' && Number.isFinite(first)) return Math.max(0, Math.floor(first));
  if (cost.page) return cost.page.defaultSize;
  const page = (PAGES as Record<string, { defaultSize: number } | undefined>)[fieldName];
  return page?.defaultSize ?? 10;
}

function listArgumentLength(args: Record<string, unknown>): number | undefined {
  for (const value of Object.values(args)) if (Array.isArray(value)) return value.length;
  return undefined;
}

function listSizeOf(args: Record<string, unknown>, coordinate: string, sizes: EstimateOptions['listSizes'], fallback: number): number {
  const known = sizes?.[coordinate];
  if (known !== undefined) return known;
  const first = args['first'];
  if (typeof first === 'number' && Number.isFinite(first)) return Math.max(0, Math.floor(first));
  return listArgumentLength(args) ?? fallback;
}

/**
 * Rejects an operation whose estimated cost is over budget with QUERY_TOO_COSTLY
 * before any resolver runs (so before any upstream call), and reports
 * `extensions.cost = { estimatedUpstreamCalls, actualUpstreamCalls, nodes }` on
 * every executed response, rejected or not (GitHub/Shopify style).
 *
 * The rejection replaces the execute function rather than stopping the hook chain,
 * so a plugin registered after this one (input validation) still reports its own,
 * more precise error when both apply.
 */
export function useQueryCost(options: QueryCostOptions = {}): Plugin {
  const maxCost = options.maxCost ?? QUERY_COST_DEFAULTS.maxCost;
  const maxNodes = options.maxNodes ?? QUERY_COST_DEFAULTS.maxNodes;
  const actual = options.actualUpstreamCalls ?? defaultActualCalls;
  const memo = createDocumentMemo<CostEstimate | undefined>();
  return {
    onExecute({ args, setExecuteFn }) {
      const variables = args.variableValues ?? {};
      const estimate = memo(args.document, args.operationName, variables, () =>
        estimateQueryCost(args.schema, args.document, variables, args.operationName, options));
      if (!estimate) return undefined;
      if (estimate.estimatedUpstreamCalls > maxCost || estimate.nodes > maxNodes) {
        const error = tooCostly(estimate, maxCost, maxNodes);
        setExecuteFn(() => ({ errors: [error] }) satisfies ExecutionResult);
      }
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) return;
          const cost = {
            estimatedUpstreamCalls: estimate.estimatedUpstreamCalls,
            actualUpstreamCalls: actual(args.contextValue) ?? 0,
            nodes: estimate.nodes,
          };
          setResult({ ...result, extensions: { ...result.extensions, cost } });
        },
      };
    },
  };
}

function defaultActualCalls(context: unknown): number | undefined {
  const counter = (context as { upstreamCalls?: { count?: unknown } } | undefined)?.upstreamCalls;
  return typeof counter?.count === 'number' ? counter.count : undefined;
}

function tooCostly(estimate: CostEstimate, maxCost: number, maxNodes: number): GraphQLError {
  const over: string[] = [];
  if (estimate.estimatedUpstreamCalls > maxCost) over.push(`an estimated ${estimate.estimatedUpstreamCalls} upstream calls (limit ${maxCost})`);
  if (estimate.nodes > maxNodes) over.push(`up to ${estimate.nodes} nodes (limit ${maxNodes})`);
  return new GraphQLError(
    `Query too costly: ${over.join(' and ')}. Ask for smaller pages (\`first\`), fewer nested connections, or paginate.`,
    {
      extensions: {
        code: ErrorCode.QUERY_TOO_COSTLY,
        cost: estimate,
        limits: { maxUpstreamCalls: maxCost, maxNodes },
      },
    },
  );
}

/** Options of {@link useOperationLimits}. */
export interface OperationLimitsOptions {
  /** Deepest field nesting, fragments flattened. Default 15. */
  maxDepth?: number;
  /** Most aliases per operation. Default 30. */
  maxAliases?: number;
  /** Most lexical tokens in a document. Default 5000 (the GraphiQL examples take about 400). */
  maxTokens?: number;
  /** Most directives per operation. Default 50. */
  maxDirectives?: number;
}

type ArmorConfig = NonNullable<Parameters<typeof EnvelopArmorPlugin>[0]>;
type ArmorRejectCallback = NonNullable<NonNullable<ArmorConfig['maxDepth']>['onReject']>[number];

export const OPERATION_LIMITS_DEFAULTS = { maxDepth: 15, maxAliases: 30, maxTokens: 5_000, maxDirectives: 50 } as const;

/** Codes of the graphql-armor rejections (armor's own errors carry none and say "Syntax Error"). */
export const LimitCode = {
  QUERY_TOO_DEEP: 'QUERY_TOO_DEEP',
  TOO_MANY_ALIASES: 'TOO_MANY_ALIASES',
  TOO_MANY_TOKENS: 'TOO_MANY_TOKENS',
  TOO_MANY_DIRECTIVES: 'TOO_MANY_DIRECTIVES',
} as const;

/**
 * Static limits from graphql-armor, checked at parse and validation time, with
 * coded errors. Armor's cost limit stays off ({@link useQueryCost} replaces it),
 * and so does its field-suggestion masking: the schema is public (GraphiQL,
 * introspection), so "Did you mean" hides nothing and helps.
 */
export function useOperationLimits(options: OperationLimitsOptions = {}): Plugin {
  const limits = { ...OPERATION_LIMITS_DEFAULTS, ...options };
  const recode = (code: string): ArmorRejectCallback[] => [
    (context, error) => {
      const coded = new GraphQLError(error.message.replace(/^Syntax Error: /, ''), { extensions: { code } });
      // Validation rules report to their context; the token limit runs in the parser, which has none.
      if (context) context.reportError(coded);
      else throw coded;
    },
  ];
  return EnvelopArmorPlugin({
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: false },
    maxDepth: { n: limits.maxDepth, flattenFragments: true, propagateOnRejection: false, onReject: recode(LimitCode.QUERY_TOO_DEEP) },
    maxAliases: { n: limits.maxAliases, propagateOnRejection: false, onReject: recode(LimitCode.TOO_MANY_ALIASES) },
    maxTokens: { n: limits.maxTokens, propagateOnRejection: false, onReject: recode(LimitCode.TOO_MANY_TOKENS) },
    maxDirectives: { n: limits.maxDirectives, propagateOnRejection: false, onReject: recode(LimitCode.TOO_MANY_DIRECTIVES) },
  }) as Plugin;
}
