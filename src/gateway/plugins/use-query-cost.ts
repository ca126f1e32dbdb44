import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { UpstreamBudget } from '../../loaders/budget.ts';
import { createDocumentMemo } from './document-memo.ts';
import { ErrorCode } from '../../errors/graphql.ts';
import { EstimateTooComplex, estimateQueryCost, type CostEstimate, type EstimateOptions } from './query-cost/estimate.ts';

export { costs, type FieldCost } from '../../lib/cost.ts';
export { estimateQueryCost, EstimateTooComplex, type CostEstimate, type EstimateOptions } from './query-cost/estimate.ts';

/** Options of {@link useQueryCost}. */
export interface QueryCostOptions extends EstimateOptions {
  /** Most estimated upstream calls one operation (or one subscription event) may cost (`MAX_QUERY_COST`). Default 500. */
  maxCost?: number;
  /** Most objects one response may hold. Default 50000. */
  maxNodes?: number;
  /**
   * The request's upstream-call budget, from its context: the plugin sets its
   * `limit` and reports its `count`. Default: `context.upstreamCalls` (see `src/gateway/context.ts`).
   */
  budgetOf?: (context: unknown) => UpstreamBudget | undefined;
}

export const QUERY_COST_DEFAULTS = { maxCost: 500, maxNodes: 50_000 } as const;

type Estimated = { estimate: CostEstimate } | { error: GraphQLError } | undefined;

/**
 * The cost limit, before and during execution.
 *
 * Before: the operation's upstream calls are estimated from the document and the
 * costs its fields declare (`query-cost/estimate.ts`); an operation estimated over
 * `maxCost` calls or `maxNodes` objects, or too complex to estimate, is refused
 * with QUERY_TOO_COSTLY before any resolver runs.
 *
 * During: the estimate (at most `maxCost`) becomes the request's budget. Each
 * upstream attempt is admitted against it before it is sent (`src/gateway/context.ts`,
 * `src/upstream/http.ts`); once it is spent, further calls are refused unsent and
 * their fields fail with QUERY_TOO_COSTLY while the rest of the data comes back.
 * So a model that underestimates some data can fail a field, never overspend.
 *
 * Subscriptions are estimated per event (the source's poll plus the selection
 * for one event) and refused up front when one event is over budget; the budget
 * then holds per event: the window restarts at each event and each poll.
 *
 * Every executed response, and every subscription event, reports
 * `extensions.cost = { estimatedUpstreamCalls, actualUpstreamCalls, nodes }`; an incremental
 * response (`@defer`, `@stream`) reports it on its last payload. Deferred and streamed fields
 * are estimated as if they were inline: the same calls are made, only sent later.
 *
 * The rejection replaces the execute function rather than stopping the hook chain,
 * so a plugin registered after this one (input validation) still reports its own,
 * more precise error when both apply.
 */
export function useQueryCost(options: QueryCostOptions = {}): Plugin {
  const maxCost = options.maxCost ?? QUERY_COST_DEFAULTS.maxCost;
  const maxNodes = options.maxNodes ?? QUERY_COST_DEFAULTS.maxNodes;
  const budgetOf = options.budgetOf ?? defaultBudget;
  // Keyed by a digest of the variables the operation declares: never by a caller's raw variables.
  const memo = createDocumentMemo<Estimated>();

  const estimateFor = (schema: GraphQLSchema, document: DocumentNode, variables: Readonly<Record<string, unknown>>, operationName: string | null | undefined): Estimated => {
    return memo(document, operationName, variables, () => {
      try {
        const estimate = estimateQueryCost(schema, document, variables, operationName, options);
        if (!estimate) return undefined;
        const over = estimate.estimatedUpstreamCalls > maxCost || estimate.nodes > maxNodes;
        return over ? { error: tooCostly(estimate, maxCost, maxNodes) } : { estimate };
      } catch (error) {
        if (error instanceof EstimateTooComplex) return { error: tooComplex(error) };
        throw error;
      }
    });
  };

  const report = (estimate: CostEstimate, budget: UpstreamBudget | undefined) => ({
    estimatedUpstreamCalls: estimate.estimatedUpstreamCalls,
    actualUpstreamCalls: budget?.count ?? 0,
    nodes: estimate.nodes,
  });

  return {
    onExecute({ args, setExecuteFn }) {
      const estimated = estimateFor(args.schema, args.document, args.variableValues ?? {}, args.operationName);
      if (!estimated) return undefined;
      const budget = budgetOf(args.contextValue);
      if ('error' in estimated) {
        const error = estimated.error;
        setExecuteFn(() => ({ errors: [error] }) satisfies ExecutionResult);
        const cost = error.extensions['cost'] as CostEstimate | undefined;
        if (!cost) return undefined;
        return {
          onExecuteDone({ result, setResult }) {
            if (!isAsyncIterable(result)) setResult({ ...result, extensions: { ...result.extensions, cost: report(cost, budget) } });
          },
        };
      }
      const { estimate } = estimated;
      if (budget) budget.limit = Math.min(estimate.estimatedUpstreamCalls, maxCost);
      return {
        onExecuteDone({ result, setResult }) {
          if (!isAsyncIterable(result)) {
            setResult({ ...result, extensions: { ...result.extensions, cost: report(estimate, budget) } });
            return undefined;
          }
          // Incremental delivery (@defer, @stream): the last payload reports the calls of the whole response.
          return {
            onNext({ result: payload, setResult: setPayload }) {
              if ((payload as { hasNext?: boolean }).hasNext !== false) return;
              setPayload({ ...payload, extensions: { ...payload.extensions, cost: report(estimate, budget) } });
            },
          };
        },
      };
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const estimated = estimateFor(args.schema, args.document, args.variableValues ?? {}, args.operationName);
      if (!estimated) return undefined;
      if ('error' in estimated) {
        setResultAndStopExecution({ errors: [estimated.error] });
        return undefined;
      }
      const { estimate } = estimated;
      const budget = budgetOf(args.contextValue);
      if (budget) budget.limit = Math.min(estimate.estimatedUpstreamCalls, maxCost);
      return {
        onSubscribeResult() {
          return {
            onNext({ result, setResult }) {
              setResult({ ...result, extensions: { ...result.extensions, cost: report(estimate, budget) } });
              // The next event (its poll and its selection) gets the whole per-event budget again.
              if (budget) budget.count = 0;
            },
          };
        },
      };
    },
  };
}

function defaultBudget(context: unknown): UpstreamBudget | undefined {
  const budget = (context as { upstreamCalls?: Partial<UpstreamBudget> } | undefined)?.upstreamCalls;
  return typeof budget?.count === 'number' && typeof budget.limit === 'number' ? (budget as UpstreamBudget) : undefined;
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
        // Refused before execution: a request error, 400 over HTTP (GraphQL over HTTP), as the armor limits answer.
        http: { status: 400 },
      },
    },
  );
}

function tooComplex(error: EstimateTooComplex): GraphQLError {
  return new GraphQLError(
    `Query too costly: its cost cannot be estimated within ${error.maxWork} field evaluations (fragments and nested lists multiply). Simplify it or split it.`,
    { extensions: { code: ErrorCode.QUERY_TOO_COSTLY, limits: { maxEstimateWork: error.maxWork }, http: { status: 400 } } },
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
    maxDepth: { n: limits.maxDepth, flattenFragments: true, propagateOnRejection: false, onReject: recode(ErrorCode.QUERY_TOO_DEEP) },
    maxAliases: { n: limits.maxAliases, propagateOnRejection: false, onReject: recode(ErrorCode.TOO_MANY_ALIASES) },
    maxTokens: { n: limits.maxTokens, propagateOnRejection: false, onReject: recode(ErrorCode.TOO_MANY_TOKENS) },
    maxDirectives: { n: limits.maxDirectives, propagateOnRejection: false, onReject: recode(ErrorCode.TOO_MANY_DIRECTIVES) },
  }) as Plugin;
}
