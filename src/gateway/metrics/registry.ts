/**
 * The gateway's Prometheus metrics: one prom-client registry per gateway (never the
 * global default one, so two gateways in one process do not clash), the metrics
 * themselves, and the bounds that keep their label sets finite.
 *
 * Every label value comes from a bounded set: operation names and error codes are
 * admitted by a grammar and first come, first served up to a count, anything else
 * is `other`; upstream names come from the configuration, routes are templates from
 * the clients (never a URL) and statuses are HTTP codes or error kinds.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AdmissionStats } from '../plugins/use-admission-control.ts';
import type { CacheStats } from '../../upstream/cache.ts';
import { isBilledStatus } from '../../lib/compute-units.ts';
import type { UpstreamAttempt, UpstreamObserver } from '../../upstream/client-types.ts';

/** Options of {@link createMetrics}. */
export interface MetricsOptions {
  /**
   * Most distinct operation names given their own label value (`METRICS_MAX_OPERATION_NAMES`);
   * names seen after that, and names outside the GraphQL name grammar or longer than 64
   * characters, count as `other`. Default 100.
   */
  maxOperationNames?: number;
  /** Most distinct `extensions.code` values given their own label value; the rest count as `OTHER`. Default 64. */
  maxErrorCodes?: number;
  /** Most clients given their own label value in the per-client compute units (the first seen); the rest count as `other`. Default 100. */
  maxClients?: number;
  /** Most distinct upstream route templates (a guard: the clients have about 30). Default 256. */
  maxRoutes?: number;
  /** Node's default metrics (heap, event-loop lag, GC, CPU, RSS), started by the first scrape. Default true. */
  defaultMetrics?: boolean;
}

export const METRICS_DEFAULTS = { maxOperationNames: 100, maxErrorCodes: 64, maxRoutes: 256, maxClients: 100, defaultMetrics: true } as const;

/** A breaker's state, as the breaker gauge reports it. */
export type BreakerState = 'closed' | 'open' | 'half-open';

/** What the scrape reads from the rest of the gateway (each optional: absent sources have no metric). */
export interface MetricsSources {
  admission?: () => AdmissionStats;
  cache?: () => CacheStats;
  /** Every breaker and its state now, e.g. one per upstream and per node (`HttpUpstream.breakers()`). */
  breakers?: () => Iterable<{ upstream: string; state: BreakerState; openings?: number }>;
  /** Compute units the upstream cache saved so far: answers it held (`stored`), identical calls joined in flight (`joined`). */
  computeUnitsSaved?: () => { stored: number; joined: number };
}

/** Label values of one GraphQL request. */
export interface OperationLabels {
  /** A bounded name (see {@link GatewayMetrics.operationName}). */
  operationName: string;
  /** `query`, `mutation`, `subscription`, or `unknown` when the request never reached a valid operation. */
  operationType: string;
}

export interface GatewayMetrics {
  readonly registry: Registry;
  /** Counts every upstream attempt: pass it as (or call it from) an upstream observer. */
  readonly upstreamObserver: UpstreamObserver;
  /** The label value for an operation name: the name itself while the bound allows, else `other`; `anonymous` for none. */
  operationName(name: string | undefined): string;
  /** One GraphQL request answered: its labels, duration, whether it carried errors. */
  observeRequest(labels: OperationLabels, seconds: number, failed: boolean): void;
  /** One error of a response, by its `extensions.code` (`NONE` when it has none). */
  countError(code: unknown): void;
  /** The estimated and actual upstream calls of one operation (`extensions.cost`), and its estimated and billed compute units. */
  observeCost(operationName: string, estimated: number, actual: number, computeUnits?: { estimated: number; actual: number }): void;
  /** Compute units the Data API billed for one operation (or subscription event) of `client` (a bounded label). */
  onComputeUnitsSpent(client: string, computeUnits: number): void;
  /** The text exposition of every metric (starts the default metrics on the first call). */
  scrape(): Promise<string>;
  readonly contentType: string;
}

/** Reserved operation-name label values; a client naming its operation `other` is counted with them. */
export const OperationLabel = { ANONYMOUS: 'anonymous', OTHER: 'other', UNKNOWN: 'unknown' } as const;

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,63}$/;
const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,63}$/;
// A client identity: `key:<digest>` or `addr:<IPv4, or IPv6 /64>` (src/gateway/plugins/use-rate-limit.ts).
const CLIENT = /^(?:key:[A-Za-z0-9_-]{1,64}|addr:[0-9A-Fa-f.:/]{1,64})$/;
// Route templates: `GET /v1/chains/{chainId}` or a JSON-RPC method `platform.getCurrentValidators`.
const ROUTE = /^(?:(?:GET|POST) \/[A-Za-z0-9/{}:._-]{0,200}|[A-Za-z][A-Za-z0-9._]{0,100})$/;

/**
 * A label value set bounded by construction: a value matching `grammar` is kept as is
 * while fewer than `max` distinct values have been kept, then only those already
 * kept are; everything else is `overflow`. So the label has at most `max + 1` values
 * whatever the callers send.
 */
export function boundedLabel(max: number, grammar: RegExp, overflow: string): (value: string) => string {
  const kept = new Set<string>();
  return (value) => {
    if (kept.has(value)) return value;
    if (kept.size >= max || !grammar.test(value)) return overflow;
    kept.add(value);
    return value;
  };
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const CALL_BUCKETS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];

export function createMetrics(options: MetricsOptions = {}, sources: MetricsSources = {}): GatewayMetrics {
  const settings = { ...METRICS_DEFAULTS, ...options };
  const registry = new Registry();
  const registers = [registry];
  const boundedName = boundedLabel(settings.maxOperationNames, GRAPHQL_NAME, OperationLabel.OTHER);
  const boundedCode = boundedLabel(settings.maxErrorCodes, ERROR_CODE, 'OTHER');
  const boundedRoute = boundedLabel(settings.maxRoutes, ROUTE, 'other');
  const boundedClient = boundedLabel(settings.maxClients, CLIENT, 'other');

  const requests = new Counter({
    name: 'chaingraph_graphql_requests_total',
    help: 'GraphQL requests answered, by operation name and type, and outcome (success, or error when the response carries any error).',
    labelNames: ['operation_name', 'operation_type', 'outcome'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'chaingraph_graphql_request_duration_seconds',
    help: 'Time from the request reaching the gateway (before the admission queue) to its response, by operation name and type.',
    labelNames: ['operation_name', 'operation_type'] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const errors = new Counter({
    name: 'chaingraph_graphql_errors_total',
    help: 'Errors in GraphQL responses (edge refusals included), by extensions.code.',
    labelNames: ['code'] as const,
    registers,
  });
  const estimatedCalls = new Counter({
    name: 'chaingraph_operation_estimated_upstream_calls_total',
    help: 'Upstream calls estimated by the cost analysis, summed by operation name.',
    labelNames: ['operation_name'] as const,
    registers,
  });
  const actualCalls = new Counter({
    name: 'chaingraph_operation_upstream_calls_total',
    help: 'Upstream calls operations made (admitted first attempts; cache hits and retries excluded), summed by operation name.',
    labelNames: ['operation_name'] as const,
    registers,
  });
  const estimatedHistogram = new Histogram({
    name: 'chaingraph_operation_estimated_upstream_calls',
    help: 'Upstream calls estimated per operation.',
    buckets: CALL_BUCKETS,
    registers,
  });
  const actualHistogram = new Histogram({
    name: 'chaingraph_operation_upstream_calls',
    help: 'Upstream calls made per operation.',
    buckets: CALL_BUCKETS,
    registers,
  });
  const computeUnitsLabels = ['operation_name'] as const;
  const estimatedComputeUnits = new Counter({
    name: 'chaingraph_operation_estimated_compute_units_total',
    help: 'Data API compute units estimated by the cost analysis, summed by operation name.',
    labelNames: computeUnitsLabels,
    registers: [registry],
  });
  const actualComputeUnits = new Counter({
    name: 'chaingraph_operation_compute_units_total',
    help: 'Data API compute units operations spent (the weights of their billed calls; cache hits cost none), summed by operation name.',
    labelNames: computeUnitsLabels,
    registers: [registry],
  });
  const clientComputeUnits = new Counter({
    name: 'chaingraph_client_compute_units_total',
    help: 'Data API compute units spent for each client (a key the Data API accepted, or an address), the first clients seen by name and the rest as other.',
    labelNames: ['client'] as const,
    registers: [registry],
  });
  const upstreamComputeUnits = new Counter({
    name: 'chaingraph_upstream_compute_units_total',
    help: 'Data API compute units billed (attempts answered 2xx or refused 4xx for what they asked, at their endpoint\'s weight), by route template.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const upstreamRequests = new Counter({
    name: 'chaingraph_upstream_requests_total',
    help: 'Upstream attempts (retries included), by upstream, route template or JSON-RPC method, and status: the HTTP status, or the error kind when there was no answer (timeout, network, aborted, protocol).',
    labelNames: ['upstream', 'route', 'status'] as const,
    registers,
  });
  const upstreamDuration = new Histogram({
    name: 'chaingraph_upstream_request_duration_seconds',
    help: 'Duration of upstream attempts, by upstream and route template.',
    labelNames: ['upstream', 'route'] as const,
    buckets: SECONDS_BUCKETS,
    registers,
  });
  const retries = new Counter({
    name: 'chaingraph_upstream_retries_total',
    help: 'Upstream attempts after the first of a call (retries), by upstream and route template.',
    labelNames: ['upstream', 'route'] as const,
    registers,
  });

  if (sources.admission) {
    const admission = sources.admission;
    new Gauge({
      name: 'chaingraph_admission_running_operations',
      help: 'GraphQL requests holding an admission slot now.',
      registers,
      collect() {
        this.set(admission().running);
      },
    });
    new Gauge({
      name: 'chaingraph_admission_queued_operations',
      help: 'GraphQL requests waiting for an admission slot now.',
      registers,
      collect() {
        this.set(admission().queued);
      },
    });
    new Gauge({
      name: 'chaingraph_admission_subscriptions',
      help: 'Live subscriptions now.',
      registers,
      collect() {
        this.set(admission().subscriptions);
      },
    });
    counterFrom(registry, 'chaingraph_admission_rejected_total', 'Requests and subscriptions refused with SERVER_BUSY since start.', () => admission().rejected);
  }

  if (sources.computeUnitsSaved) {
    const saved = sources.computeUnitsSaved;
    new Counter({
      name: 'chaingraph_cache_compute_units_saved_total',
      help: 'Data API compute units not spent because the upstream cache answered: held answers (stored) and identical calls joined in flight (joined), at their endpoint\'s weight.',
      labelNames: ['source'] as const,
      registers: [registry],
      collect() {
        this.reset();
        const now = saved();
        this.inc({ source: 'stored' }, now.stored);
        this.inc({ source: 'joined' }, now.joined);
      },
    });
  }
  if (sources.cache) {
    const cache = sources.cache;
    counterFrom(registry, 'chaingraph_response_cache_hits_total', 'Response cache reads that found a live entry.', () => cache().hits);
    counterFrom(registry, 'chaingraph_response_cache_misses_total', 'Response cache reads that found nothing (or failed).', () => cache().misses);
    counterFrom(registry, 'chaingraph_response_cache_sets_total', 'Response cache entries written.', () => cache().sets);
    new Gauge({
      name: 'chaingraph_response_cache_bytes',
      help: 'Bytes the in-process response cache holds, as counted against its budget (absent for Redis).',
      registers,
      collect() {
        const bytes = cache().bytes;
        if (bytes !== undefined) this.set(bytes);
      },
    });
    new Gauge({
      name: 'chaingraph_response_cache_entries',
      help: 'Entries the in-process response cache holds (absent for Redis).',
      registers,
      collect() {
        const entries = cache().entries;
        if (entries !== undefined) this.set(entries);
      },
    });
  }

  if (sources.breakers) {
    const breakers = sources.breakers;
    const states: readonly BreakerState[] = ['closed', 'open', 'half-open'];
    new Gauge({
      name: 'chaingraph_upstream_breaker_state',
      help: 'Circuit breaker state per upstream: 1 for the current state (closed, open, half-open), 0 for the others.',
      labelNames: ['upstream', 'state'] as const,
      registers,
      collect() {
        this.reset();
        for (const breaker of breakers()) {
          for (const state of states) this.set({ upstream: breaker.upstream, state }, breaker.state === state ? 1 : 0);
        }
      },
    });
    new Counter({
      name: 'chaingraph_upstream_breaker_openings_total',
      help: 'Times each upstream circuit has opened since start (failed probes included).',
      labelNames: ['upstream'] as const,
      registers,
      collect() {
        this.reset();
        for (const breaker of breakers()) {
          if (breaker.openings !== undefined) this.inc({ upstream: breaker.upstream }, breaker.openings);
        }
      },
    });
  }

  const upstreamObserver: UpstreamObserver = {
    onAttempt(info: UpstreamAttempt) {
      const route = boundedRoute(info.operation);
      const status = info.status !== undefined ? String(info.status) : (info.error ?? 'unknown');
      upstreamRequests.inc({ upstream: info.upstream, route, status });
      upstreamDuration.observe({ upstream: info.upstream, route }, info.durationMs / 1000);
      if (info.attempt > 1) retries.inc({ upstream: info.upstream, route });
      if (info.computeUnits && info.status !== undefined && isBilledStatus(info.status)) upstreamComputeUnits.inc({ route }, info.computeUnits);
    },
  };

  let defaultsStarted = !settings.defaultMetrics;
  return {
    registry,
    upstreamObserver,
    operationName: (name) => (name === undefined || name === '' ? OperationLabel.ANONYMOUS : boundedName(name)),
    observeRequest(labels, seconds, failed) {
      const values = { operation_name: labels.operationName, operation_type: labels.operationType };
      requests.inc({ ...values, outcome: failed ? 'error' : 'success' });
      duration.observe(values, seconds);
    },
    countError(code) {
      errors.inc({ code: typeof code === 'string' ? boundedCode(code) : 'NONE' });
    },
    observeCost(operationName, estimated, actual, computeUnits) {
      estimatedCalls.inc({ operation_name: operationName }, estimated);
      actualCalls.inc({ operation_name: operationName }, actual);
      if (computeUnits) {
        estimatedComputeUnits.inc({ operation_name: operationName }, computeUnits.estimated);
        actualComputeUnits.inc({ operation_name: operationName }, computeUnits.actual);
      }
      estimatedHistogram.observe(estimated);
      actualHistogram.observe(actual);
    },
    onComputeUnitsSpent(client, units) {
      if (units > 0) clientComputeUnits.inc({ client: boundedClient(client) }, units);
    },
    async scrape() {
      // Started lazily: the event-loop monitor and the GC observer cannot be stopped once started,
      // so a gateway that is never scraped (most test gateways) never starts them.
      if (!defaultsStarted) {
        defaultsStarted = true;
        collectDefaultMetrics({ register: registry, prefix: 'chaingraph_' });
      }
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}

/** A counter whose value is read from a running total on each scrape (cache and admission counters). */
function counterFrom(registry: Registry, name: string, help: string, read: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(Math.max(0, read()));
    },
  });
}
