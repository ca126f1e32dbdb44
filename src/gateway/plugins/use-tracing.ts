import {
  context as otelContext, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace,
  type Attributes, type Context as OtelContext, type Span, type TextMapGetter, type Tracer,
} from '@opentelemetry/api';
import { GraphQLError, isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import { operationOf } from './document-facts.ts';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

/** Options of {@link useTracing}. */
export interface TracingOptions {
  /** Where spans come from. Default: the global API's tracer `chaingraph` (a no-op until a provider is registered). */
  tracer?: Tracer;
  /**
   * Resolver spans one operation may open; the resolvers beyond it still run, within
   * the operation's span, and the operation reports how many went without one
   * (`chaingraph.resolver_spans.dropped`). A walk of 50 validators opens about 200.
   * Default 1000: a 50,000-object response must not become 50,000 spans.
   */
  maxResolverSpans?: number;
}

export const TRACING_DEFAULTS = { maxResolverSpans: 1000 } as const;

/** What the resolvers of one operation share, kept on its context under {@link TRACE}. */
interface OperationTrace {
  tracer: Tracer;
  /** The operation's span as the parent context of its resolvers' spans. */
  context: OtelContext;
  opened: number;
  dropped: number;
  max: number;
}

/** Key of the operation's trace on the GraphQL context (a symbol: never a field a resolver could read by name). */
const TRACE = Symbol.for('chaingraph.tracing.operation');
/** Marks a resolver this module wrapped, so a schema shared by several gateways is wrapped once. */
const WRAPPED = Symbol.for('chaingraph.tracing.wrapped');

const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * Traces with OpenTelemetry: one span per GraphQL operation, one per resolver that
 * waits on upstream data, the upstream HTTP attempts below them (`src/upstream/http.ts`).
 *
 * The operation span (kind SERVER, named `query ValidatorWalk`, with the GraphQL
 * semantic conventions' `graphql.operation.name` and `graphql.operation.type` and the
 * query's cost) continues the caller's `traceparent` when there is one. Execution runs
 * with it as the active context, so everything below inherits it through
 * AsyncLocalStorage.
 *
 * Resolver spans are opened only for the fields that declare an upstream cost
 * (`extensions.cost`, see `query-cost/costs.ts`): those are the ones that wait on an
 * upstream, the rest are property reads not worth a span. A resolver span is the
 * active context while its resolver runs, so the loader batch it starts, and the
 * HTTP attempts of that batch, become its children (a batch serves several resolvers;
 * its calls hang under the first one that asked).
 *
 * The resolvers are wrapped in place once per schema (the schema is built once per
 * process, like `@envelop/on-resolve` does) and stay inert, one property read, for
 * operations this plugin does not trace. Subscriptions are not traced: a span that
 * lives as long as a subscription would never be exported in time.
 */
export function useTracing(options: TracingOptions = {}): Plugin {
  const tracer = options.tracer ?? trace.getTracer('chaingraph');
  const max = options.maxResolverSpans ?? TRACING_DEFAULTS.maxResolverSpans;
  return {
    onSchemaChange({ schema }) {
      wrapUpstreamResolvers(schema);
    },
    onExecute({ args, executeFn, setExecuteFn, extendContext }) {
      const operation = operationOf(args.document, args.operationName);
      const type = operation?.operation ?? 'query';
      const name = operation?.name?.value;
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      const parent = request ? propagation.extract(ROOT_CONTEXT, request.headers, headerGetter) : ROOT_CONTEXT;
      const attributes: Attributes = { 'graphql.operation.type': type };
      if (name) attributes['graphql.operation.name'] = name;
      const span = tracer.startSpan(name ? `${type} ${name}` : type, { kind: SpanKind.SERVER, attributes }, parent);
      const active = trace.setSpan(parent, span);
      const operationTrace: OperationTrace = { tracer, context: active, opened: 0, dropped: 0, max };
      // Yoga's context type does not know the key; extendContext assigns onto this same object.
      extendContext({ [TRACE]: operationTrace } as object);
      const execute = executeFn;
      setExecuteFn((executeArgs) => otelContext.with(active, () => execute(executeArgs)));
      return {
        onExecuteDone({ result }) {
          if (isAsyncIterable(result)) return span.end();
          const cost = result.extensions?.['cost'] as { estimatedUpstreamCalls?: unknown; actualUpstreamCalls?: unknown; nodes?: unknown } | undefined;
          setNumber(span, 'chaingraph.cost.estimated_upstream_calls', cost?.estimatedUpstreamCalls);
          setNumber(span, 'chaingraph.cost.actual_upstream_calls', cost?.actualUpstreamCalls);
          setNumber(span, 'chaingraph.cost.nodes', cost?.nodes);
          if (operationTrace.dropped > 0) span.setAttribute('chaingraph.resolver_spans.dropped', operationTrace.dropped);
          if (result.errors?.length) {
            const codes = [...new Set(result.errors.map(errorType))];
            span.setAttribute('graphql.error.codes', codes);
            span.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(', ') });
          }
          span.end();
        },
      };
    },
  };
}

function setNumber(span: Span, key: string, value: unknown): void {
  if (typeof value === 'number') span.setAttribute(key, value);
}

/** Wraps the resolvers of the fields that declare an upstream cost, once. */
function wrapUpstreamResolvers(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!field.extensions.cost || !resolve || WRAPPED in resolve) continue;
      field.resolve = traced(resolve);
    }
  }
}

function traced(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  const wrapper: GraphQLFieldResolver<unknown, unknown> = (source, args, context, info) => {
    const operation = (context as { [TRACE]?: OperationTrace } | null | undefined)?.[TRACE];
    if (!operation) return resolve(source, args, context, info);
    if (operation.opened >= operation.max) {
      operation.dropped += 1;
      return resolve(source, args, context, info);
    }
    operation.opened += 1;
    const span = operation.tracer.startSpan(`${info.parentType.name}.${info.fieldName}`, { attributes: resolverAttributes(info) }, operation.context);
    let result: unknown;
    try {
      result = otelContext.with(trace.setSpan(operation.context, span), () => resolve(source, args, context, info));
    } catch (error) {
      endFailed(span, error);
      throw error;
    }
    if (!isPromiseLike(result)) {
      span.end();
      return result;
    }
    return Promise.resolve(result).then(
      (value) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endFailed(span, error);
        throw error;
      },
    );
  };
  Object.defineProperty(wrapper, WRAPPED, { value: true });
  return wrapper;
}

function resolverAttributes(info: GraphQLResolveInfo): Attributes {
  return {
    'graphql.field.name': info.fieldName,
    'graphql.field.parent_type': info.parentType.name,
    'graphql.field.type': String(info.returnType),
    // Response keys and list indexes only: aliases are the caller's, never argument values.
    'graphql.field.path': pathOf(info.path),
  };
}

function pathOf(path: GraphQLResolveInfo['path'] | undefined): string {
  const keys: (string | number)[] = [];
  for (let at = path; at; at = at.prev) keys.push(at.key);
  return keys.reverse().join('.');
}

/** The error's stable code: never its message, which may quote the caller's input. */
function errorType(error: unknown): string {
  if (error instanceof GraphQLError) {
    const code = error.extensions['code'];
    if (typeof code === 'string') return code;
    return error.originalError ? errorType(error.originalError) : 'GRAPHQL_ERROR';
  }
  const code = (error as { extensions?: { code?: unknown } } | null)?.extensions?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : 'Error';
}

function endFailed(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  span.end();
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
