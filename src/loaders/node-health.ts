import { setTimeout as delay } from 'node:timers/promises';
import DataLoader from 'dataloader';
import { newBudgetWindow, type UpstreamBudget } from './budget.ts';
import type { FieldCost } from '../lib/cost.ts';
import type { HealthPath, HealthReport } from '../shapes/index.ts';
import { clientOf, NODE_METHOD_COST, nodeRpc } from './nodes.ts';
import { memoLoader, type LoaderContext } from './registry.ts';
import { callerScope, delivered, pollerContext, topicsOf, type TopicSource } from './topics.ts';

/**
 * The node's health API: its JSON-RPC reports (through the per-request cache of
 * `nodeRpc`), its GET endpoints as a load balancer sees them, and the poller behind
 * `Subscription.nodeHealth`.
 */

const tagParams = (tags: readonly string[] | null | undefined) => (tags && tags.length > 0 ? { tags: [...tags] } : {});

/** health.health or health.readiness of the node `name`, only the checks with `tags` (plus the global ones) when given. */
export function healthReport(ctx: LoaderContext, name: string, method: 'health.health' | 'health.readiness', tags?: readonly string[] | null): Promise<HealthReport> {
  return nodeRpc(ctx, name, method, tagParams(tags));
}

/** health.liveness of the node `name`. */
export function livenessReport(ctx: LoaderContext, name: string): Promise<HealthReport> {
  return nodeRpc(ctx, name, 'health.liveness');
}

/**
 * A health GET endpoint (`/ext/health[/readiness|/liveness]?tag=...`) of the node `name`: its HTTP status
 * and report, read at most once per request for the same path and tags (the peers of a page all name
 * the node they were read from: their `node.healthStatus` is one read, as {@link HEALTH_COST} declares).
 */
export function healthEndpoint(
  ctx: LoaderContext,
  name: string,
  path: HealthPath,
  tags?: readonly string[] | null,
): Promise<{ httpStatus: number; report: HealthReport }> {
  const node = clientOf(ctx, name);
  const loader = memoLoader(ctx, `healthGet:${node.name}`, () =>
    new DataLoader<string, { httpStatus: number; report: HealthReport }>((keys) =>
      Promise.all(
        keys.map((key) => {
          const [read, ...tagList] = JSON.parse(key) as [HealthPath, ...string[]];
          return node
            .healthGet(read, tagList.length > 0 ? tagList : undefined, ctx.call)
            .then(({ status, report }) => ({ httpStatus: status, report }))
            .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        }),
      ),
    ),
  );
  return loader.load(JSON.stringify([path, ...(tags ?? [])]));
}

/** Each health read is one call to its node (the GET endpoints are not cached either). */
export const HEALTH_COST: FieldCost = NODE_METHOD_COST;

/**
 * How often `Subscription.nodeHealth` polls `health.health`. A mutable setting (not
 * a constant) so tests can shorten it.
 */
export const nodeHealthPolling = {
  /** Milliseconds between two polls. Default 2000. */
  intervalMs: 2000,
};

/** What counts as a change: `healthy` and the set of failing checks. */
function fingerprint(report: HealthReport): string {
  const failing = Object.entries(report.checks ?? {})
    .filter(([, check]) => check.error !== undefined && check.error !== null)
    .map(([name]) => name)
    .sort();
  return JSON.stringify([report.healthy, failing]);
}

/**
 * Polls `health.health` of the node `name` (never through the per-request cache) until `signal`
 * aborts, yielding every report: the first at once, then one per interval. Each poll starts a new
 * window of the budget (`upstreamCalls`): a subscription's budget is per event.
 */
async function* pollNodeHealth(
  ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget },
  name: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<HealthReport> {
  const node = clientOf(ctx, name);
  const call = signal ? { ...ctx.call, signal } : ctx.call;
  while (!signal?.aborted) {
    let report: HealthReport;
    // Each poll gets the subscription's per-event budget (useQueryCost); a spent one ends the subscription.
    newBudgetWindow(ctx.upstreamCalls);
    try {
      report = await node.call('health.health', {}, call);
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    }
    yield report;
    try {
      await delay(nodeHealthPolling.intervalMs, undefined, signal ? { signal } : {});
    } catch {
      return;
    }
  }
}

/** Keeps a report when it differs from the last one kept (see {@link fingerprint}). */
function changes(): (report: HealthReport) => boolean {
  let last: string | undefined;
  return (report) => {
    const key = fingerprint(report);
    if (key === last) return false;
    last = key;
    return true;
  };
}

/**
 * Polls `health.health` of the node `name` (never through the per-request cache) and
 * yields a report first at once, then whenever `healthy` or the set of failing checks
 * changes. Each poll starts a new window of the request's budget (`upstreamCalls`): a
 * subscription's budget is per event. Ends when the request's signal aborts.
 */
export async function* watchNodeHealth(
  ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget },
  name: string,
): AsyncGenerator<HealthReport> {
  const changed = changes();
  for await (const report of pollNodeHealth(ctx, name, ctx.call.signal)) {
    if (changed(report)) yield report;
  }
}

/**
 * `Subscription.nodeHealth`: the node's report at once, then each change, through the gateway's
 * shared poller of the node (one per topic in the process, or in the fleet with Redis). The poller
 * publishes every report; each subscriber keeps the changes it has not seen, and one joining a
 * running topic gets the last report at once. Without the gateway's topics, a poller of its own.
 */
export function subscribeNodeHealth(ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget }, name: string): AsyncIterableIterator<HealthReport> {
  const topics = topicsOf(ctx);
  if (!topics) return watchNodeHealth(ctx, name);
  clientOf(ctx, name);
  const source: TopicSource<HealthReport> = {
    key: `nodeHealth:${name}${callerScope(ctx.call)}`,
    replayLast: true,
    async poll(signal, publish) {
      const poller = pollerContext(ctx, signal, HEALTH_POLL_COST.calls({ parents: 1, args: {}, nodeCount: 1 }));
      for await (const report of pollNodeHealth(poller, name, signal)) publish([report], poller.upstreamCalls.count, poller.upstreamCalls.actualComputeUnits);
    },
  };
  return delivered(ctx, topics.subscribe(source, ctx.call.signal), changes());
}

/** Per event of `nodeHealth`: one health.health poll. */
export const HEALTH_POLL_COST: FieldCost = NODE_METHOD_COST;
