import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { GraphQLError, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { newBudgetWindow, type UpstreamBudget } from '../../loaders/budget.ts';
import { defineFact, operationFact, type OperationArgs } from './document-facts.ts';
import { ErrorCode } from '../../errors/graphql.ts';
import { EstimateTooComplex, estimateQueryCost, type CostEstimate, type EstimateOptions } from './query-cost/estimate.ts';
import { isRefusal, type ClientComputeUnits, type ComputeUnitRefusal, type Reservation } from './client-compute-units.ts';

export { costs, type FieldCost } from '../../lib/cost.ts';
export { estimateQueryCost, EstimateTooComplex, type CostEstimate, type EstimateOptions } from './query-cost/estimate.ts';

/** Options of {@link useQueryCost}. */
export interface QueryCostOptions extends EstimateOptions {
  /** Most estimated upstream calls one operation (or one subscription event) may cost (`MAX_QUERY_COST`). Default 500. */
  maxCost?: number;
  /** Most objects one response may hold. Default 50000. */
  maxNodes?: number;
  /**
   * Most compute units (the Data API's weights of its calls) one operation, or one subscription event, is
   * estimated to spend (`MAX_OPERATION_COMPUTE_UNITS`); QUERY_TOO_COSTLY above, before any call. Also the cap
   * of its run-time budget in compute units. Default 20000, the per-minute limit of the Data API's largest
   * public plan: no one operation may spend more than any key may in a minute.
   */
  maxComputeUnits?: number;
  /**
   * Each client's compute units per minute (`CLIENT_COMPUTE_UNITS_PER_MINUTE`): an operation reserves its
   * estimate before it runs and gets back what it did not spend; RATE_LIMITED (429, `Retry-After`) when it
   * does not fit what is left. Default none.
   */
  clientComputeUnits?: ClientComputeUnits;
  /** The client an operation counts against. Default: `context.client` (see `src/gateway/context.ts`), else `anonymous`. */
  clientOf?: (context: unknown) => string;
  /** Told what each operation (and subscription event) spent, in compute units the Data API billed (the metrics). Default none. */
  onSpent?: (client: string, actualComputeUnits: number) => void;
  /**
   * The request's upstream-call budget, from its context: the plugin sets its
   * `limit` and reports its `count`. Default: `context.upstreamCalls` (see `src/gateway/context.ts`).
   */
  budgetOf?: (context: unknown) => UpstreamBudget | undefined;
}

export const QUERY_COST_DEFAULTS = { maxCost: 500, maxNodes: 50_000, maxComputeUnits: 20_000 } as const;

/**
 * The response header that repeats `extensions.cost`, for whoever cannot read chaingraph's extensions: a
 * federation router drops a subgraph's extensions and may own `extensions.cost` itself (Hive Gateway's and
 * Apollo Router's demand control). Its value is a structured-field list (RFC 8941) of three members per
 * operation, `calls;actual=2;estimated=3, compute-units;actual=20;estimated=20, nodes;estimated=13`, so
 * copies a router appends from several subgraph requests still add up (sum each member's parameters).
 * Numbers only; absent on incremental responses and subscriptions, whose figures come after the headers.
 */
export const COST_HEADER = 'chaingraph-cost';

/** The cost plugin, and what it is told of responses that were not executed. */
export type QueryCostPlugin = Plugin & {
  /** A held response (the response cache's) answers `request`: the header repeats its figures, as its `extensions.cost` does. */
  noteHeld(request: Request, result: ExecutionResult): void;
};

type OnExecuteHooks = ReturnType<NonNullable<Plugin['onExecute']>> extends infer R ? Exclude<Awaited<R>, void> : never;

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
 * `extensions.cost = { estimatedUpstreamCalls, actualUpstreamCalls, nodes }`, and its HTTP response repeats
 * the figures in the {@link COST_HEADER} header, noted where they are reported; an incremental
 * response (`@defer`, `@stream`) reports it on its last payload. Deferred and streamed fields
 * are estimated as if they were inline: the same calls are made, only sent later.
 *
 * The rejection replaces the execute function rather than stopping the hook chain,
 * so a plugin registered after this one (input validation) still reports its own,
 * more precise error when both apply.
 */
export function useQueryCost(options: QueryCostOptions = {}): QueryCostPlugin {
  const maxCost = options.maxCost ?? QUERY_COST_DEFAULTS.maxCost;
  const maxNodes = options.maxNodes ?? QUERY_COST_DEFAULTS.maxNodes;
  const maxComputeUnits = options.maxComputeUnits ?? QUERY_COST_DEFAULTS.maxComputeUnits;
  const limits: Limits = { maxCost, maxNodes, maxComputeUnits, ...(options.clientComputeUnits ? { clientPerMinute: options.clientComputeUnits.perMinute } : {}) };
  const budgetOf = options.budgetOf ?? defaultBudget;
  const clientOf = options.clientOf ?? defaultClient;
  const clients = options.clientComputeUnits;
  // Kept on the document with its other facts, per operation name and values of the variables it declares.
  const estimated = defineFact<Estimated>('cost');

  const estimateFor = (args: OperationArgs & { schema: GraphQLSchema }): Estimated => {
    return operationFact(args, estimated, () => {
      try {
        const estimate = estimateQueryCost(args.schema, args.document, args.variableValues ?? {}, args.operationName, options);
        if (!estimate) return undefined;
        return overLimits(estimate, limits) ? { error: tooCostly(estimate, limits) } : { estimate };
      } catch (error) {
        if (error instanceof EstimateTooComplex) return { error: tooComplex(error) };
        throw error;
      }
    });
  };

  const report = (estimate: CostEstimate, budget: UpstreamBudget | undefined) => ({
    estimatedUpstreamCalls: estimate.estimatedUpstreamCalls,
    actualUpstreamCalls: budget?.count ?? 0,
    estimatedComputeUnits: estimate.estimatedComputeUnits,
    actualComputeUnits: budget?.actualComputeUnits ?? 0,
    nodes: estimate.nodes,
  });
  /** The budget's limits from the estimate (each at most its cap). */
  const limitBudget = (budget: UpstreamBudget | undefined, estimate: CostEstimate): void => {
    if (!budget) return;
    budget.limit = Math.min(estimate.estimatedUpstreamCalls, maxCost);
    budget.computeUnitLimit = Math.min(estimate.estimatedComputeUnits, maxComputeUnits);
  };
  /** The operation's end: its unspent reservation given back, what it spent told. */
  const settle = (client: string, reservation: Reservation | undefined, budget: UpstreamBudget | undefined): void => {
    const actual = budget?.actualComputeUnits ?? 0;
    reservation?.settle(actual);
    options.onSpent?.(client, actual);
  };

  // The figures of each request's operations (a batched request runs several), for its header: noted where
  // they are reported (an operation's end, a held response served), written once on the response.
  const figures = new WeakMap<Request, string[]>();
  const noteFigures = (context: unknown, cost: unknown): void => {
    const request = (context as { request?: Request } | undefined)?.request;
    const value = request ? costHeaderValue(cost) : undefined;
    if (!request || !value) return;
    const noted = figures.get(request);
    if (noted) noted.push(value);
    else figures.set(request, [value]);
  };

  /** The hooks of an admitted operation: its budget limited by the estimate, its cost reported, its reservation settled. */
  const run = (estimate: CostEstimate, budget: UpstreamBudget | undefined, client: string, held: Reservation | undefined): OnExecuteHooks => {
    limitBudget(budget, estimate);
    return {
      onExecuteDone({ args, result, setResult }) {
        if (!isAsyncIterable(result)) {
          const cost = report(estimate, budget);
          setResult({ ...result, extensions: { ...result.extensions, cost } });
          noteFigures(args.contextValue, cost);
          settle(client, held, budget);
          return undefined;
        }
        // Incremental delivery (@defer, @stream): the last payload reports the calls of the whole response.
        return {
          onNext({ result: payload, setResult: setPayload }) {
            if ((payload as { hasNext?: boolean }).hasNext !== false) return;
            setPayload({ ...payload, extensions: { ...payload.extensions, cost: report(estimate, budget) } });
          },
          onEnd: () => settle(client, held, budget),
        };
      },
    };
  };

  return {
    noteHeld: (request, result) => noteFigures({ request }, result.extensions?.['cost']),
    onResponse({ request, response }) {
      const values = figures.get(request);
      if (!values) return;
      try {
        response.headers.set(COST_HEADER, values.join(', '));
      } catch {
        // A response with immutable headers (a Response.error()) is left as it is.
      }
    },
    onExecute({ args, setExecuteFn }) {
      const estimated = estimateFor(args);
      if (!estimated) return undefined;
      const budget = budgetOf(args.contextValue);
      const client = clientOf(args.contextValue);
      if ('error' in estimated) {
        const error = estimated.error;
        setExecuteFn(() => ({ errors: [error] }) satisfies ExecutionResult);
        const cost = error.extensions['cost'] as CostEstimate | undefined;
        if (!cost) return undefined;
        return {
          onExecuteDone({ result, setResult }) {
            if (isAsyncIterable(result)) return;
            const figures = report(cost, budget);
            setResult({ ...result, extensions: { ...result.extensions, cost: figures } });
            noteFigures(args.contextValue, figures);
          },
        };
      }
      const { estimate } = estimated;
      // The client's compute units, reserved before any upstream call: refused whole, or held until the end.
      // Without a client budget no promise is made: every operation passes here.
      if (!clients) return run(estimate, budget, client, undefined);
      return clients.reserve(client, estimate.estimatedComputeUnits).then((held) => {
        if (!isRefusal(held)) return run(estimate, budget, client, held);
        const error = overClientBudget(held);
        setExecuteFn(() => ({ errors: [error] }) satisfies ExecutionResult);
        return undefined;
      });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const estimated = estimateFor(args);
      if (!estimated) return undefined;
      if ('error' in estimated) {
        setResultAndStopExecution({ errors: [estimated.error] });
        return undefined;
      }
      const { estimate } = estimated;
      const budget = budgetOf(args.contextValue);
      const client = clientOf(args.contextValue);
      // A subscription pays one event's estimate when it opens (what opening it may call: registrations, the first
      // poll), kept whole; then each event's own calls as they are made.
      const held = clients ? await clients.reserve(client, estimate.estimatedComputeUnits) : undefined;
      if (held && isRefusal(held)) {
        setResultAndStopExecution({ errors: [overClientBudget(held)] });
        return undefined;
      }
      limitBudget(budget, estimate);
      let opened = true;
      return {
        onSubscribeResult() {
          return {
            onNext({ result, setResult }) {
              setResult({ ...result, extensions: { ...result.extensions, cost: report(estimate, budget) } });
              const spent = budget?.actualComputeUnits ?? 0;
              // The first event's window holds what opening spent, already paid by the reservation.
              if (!opened) clients?.charge(client, spent);
              opened = false;
              options.onSpent?.(client, spent);
              // The next event (its poll and its selection) gets the whole per-event budget again.
              newBudgetWindow(budget);
            },
          };
        },
      };
    },
  };
}

/** One operation's `extensions.cost` as members of the {@link COST_HEADER} list; undefined when it has none. */
export function costHeaderValue(cost: unknown): string | undefined {
  if (typeof cost !== 'object' || cost === null) return undefined;
  const read = (name: string): number | undefined => {
    const value = (cost as Record<string, unknown>)[name];
    // Structured-field integers: at most 15 digits.
    return typeof value === 'number' && Number.isSafeInteger(value) && Math.abs(value) < 1e15 ? value : undefined;
  };
  const member = (name: string, params: [string, number | undefined][]): string | undefined => {
    const known = params.filter((param): param is [string, number] => param[1] !== undefined);
    return known.length ? [name, ...known.map(([key, value]) => `${key}=${value}`)].join(';') : undefined;
  };
  const members = [
    member('calls', [['actual', read('actualUpstreamCalls')], ['estimated', read('estimatedUpstreamCalls')]]),
    member('compute-units', [['actual', read('actualComputeUnits')], ['estimated', read('estimatedComputeUnits')]]),
    member('nodes', [['estimated', read('nodes')]]),
  ].filter((m): m is string => m !== undefined);
  return members.length ? members.join(', ') : undefined;
}

function defaultClient(context: unknown): string {
  const client = (context as { client?: unknown } | undefined)?.client;
  return typeof client === 'string' ? client : 'anonymous';
}

function defaultBudget(context: unknown): UpstreamBudget | undefined {
  const budget = (context as { upstreamCalls?: Partial<UpstreamBudget> } | undefined)?.upstreamCalls;
  return typeof budget?.count === 'number' && typeof budget.limit === 'number' ? (budget as UpstreamBudget) : undefined;
}

/** The caps one operation is held to. */
interface Limits {
  maxCost: number;
  maxNodes: number;
  maxComputeUnits: number;
  /** A client's whole budget per minute: an operation estimated above it could never run. */
  clientPerMinute?: number;
}

function overLimits(estimate: CostEstimate, limits: Limits): boolean {
  return (
    estimate.estimatedUpstreamCalls > limits.maxCost ||
    estimate.nodes > limits.maxNodes ||
    estimate.estimatedComputeUnits > limits.maxComputeUnits ||
    estimate.estimatedComputeUnits > (limits.clientPerMinute ?? Infinity)
  );
}

function tooCostly(estimate: CostEstimate, limits: Limits): GraphQLError {
  const { maxCost, maxNodes, maxComputeUnits, clientPerMinute } = limits;
  const over: string[] = [];
  if (estimate.estimatedUpstreamCalls > maxCost) over.push(`an estimated ${estimate.estimatedUpstreamCalls} upstream calls (limit ${maxCost})`);
  if (estimate.estimatedComputeUnits > maxComputeUnits) over.push(`an estimated ${estimate.estimatedComputeUnits} compute units (limit ${maxComputeUnits} per operation)`);
  else if (clientPerMinute !== undefined && estimate.estimatedComputeUnits > clientPerMinute) {
    over.push(`an estimated ${estimate.estimatedComputeUnits} compute units, more than a client may spend in a minute (${clientPerMinute})`);
  }
  if (estimate.nodes > maxNodes) over.push(`up to ${estimate.nodes} nodes (limit ${maxNodes})`);
  return new GraphQLError(
    `Query too costly: ${over.join(' and ')}. Ask for smaller pages (\`first\`), fewer nested connections, or paginate.`,
    {
      extensions: {
        code: ErrorCode.QUERY_TOO_COSTLY,
        cost: estimate,
        limits: { maxUpstreamCalls: maxCost, maxNodes, maxComputeUnits, ...(clientPerMinute !== undefined ? { clientComputeUnitsPerMinute: clientPerMinute } : {}) },
        // Refused before execution: a request error, 400 over HTTP (GraphQL over HTTP), as the armor limits answer.
        http: { status: 400 },
      },
    },
  );
}

/** The client's compute units for this minute do not cover the operation's estimate: what it needs, what is left, when it resets. */
function overClientBudget(refusal: ComputeUnitRefusal): GraphQLError {
  const { needed, remaining, limit, resetSeconds } = refusal;
  return new GraphQLError(
    `Too many compute units for this client: this operation needs up to ${needed}, ${remaining} of ${limit} are left this minute. Retry after ${resetSeconds} s, or ask for less (smaller pages, fewer nested connections).`,
    {
      extensions: {
        code: ErrorCode.RATE_LIMITED,
        limit: 'CLIENT_COMPUTE_UNITS_PER_MINUTE',
        computeUnits: { needed, remaining, limit, resetSeconds },
        retryAfter: resetSeconds,
        http: { status: 429, headers: { 'retry-after': String(resetSeconds) } },
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
