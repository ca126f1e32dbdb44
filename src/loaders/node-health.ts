import { setTimeout as delay } from 'node:timers/promises';
import { newBudgetWindow, type UpstreamBudget } from '../context.ts';
import type { FieldCost } from '../lib/cost.ts';
import type { HealthPath, HealthReport } from '../shapes/index.ts';
import { clientOf, NODE_METHOD_COST, nodeRpc } from './nodes.ts';
import type { LoaderContext } from './registry.ts';

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

/** A health GET endpoint (`/ext/health[/readiness|/liveness]?tag=...`) of the node `name`: its HTTP status and report. */
export async function healthEndpoint(
  ctx: LoaderContext,
  name: string,
  path: HealthPath,
  tags?: readonly string[] | null,
): Promise<{ httpStatus: number; report: HealthReport }> {
  const { status, report } = await clientOf(ctx, name).healthGet(path, tags ? [...tags] : undefined, ctx.call);
  return { httpStatus: status, report };
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
 * Polls `health.health` of the node `name` (never through the per-request cache) and
 * yields a report first at once, then whenever `healthy` or the set of failing checks
 * changes. Each poll starts a new window of the request's budget (`upstreamCalls`): a
 * subscription's budget is per event. Ends when the request's signal aborts.
 */
export async function* watchNodeHealth(
  ctx: LoaderContext & { readonly upstreamCalls?: UpstreamBudget },
  name: string,
): AsyncGenerator<HealthReport> {
  const node = clientOf(ctx, name);
  const signal = ctx.call.signal;
  let last: string | undefined;
  while (!signal?.aborted) {
    let report: HealthReport;
    // Each poll gets the subscription's per-event budget (useQueryCost); a spent one ends the subscription.
    newBudgetWindow(ctx.upstreamCalls);
    try {
      report = await node.call('health.health', {}, ctx.call);
    } catch (error) {
      if (signal?.aborted) return;
      throw error;
    }
    const key = fingerprint(report);
    if (key !== last) {
      last = key;
      yield report;
    }
    try {
      await delay(nodeHealthPolling.intervalMs, undefined, signal ? { signal } : {});
    } catch {
      return;
    }
  }
}

/** Per event of `nodeHealth`: one health.health poll. */
export const HEALTH_POLL_COST: FieldCost = NODE_METHOD_COST;
