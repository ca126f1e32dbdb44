import { setTimeout as delay } from 'node:timers/promises';
import { builder } from '../builder.ts';
import { newBudgetWindow, type Context } from '../context.ts';
import { nodeRpc } from '../loaders/nodes.ts';
import type { NodeClient } from '../upstream/client-types.ts';
import type { HealthCheckResult, HealthPath, HealthReport } from '../shapes/index.ts';
import { checkHealthTags, checkNodeName, INPUT_LIMITS } from './input-checks.ts';
import { AvalancheNodeRef, NODE_METHOD, requireNode } from './node.ts';

/**
 * How often `Subscription.nodeHealth` polls `health.health`. A mutable setting (not
 * a constant) so tests can shorten it.
 */
export const nodeHealthPolling = {
  /** Milliseconds between two polls. Default 2000. */
  intervalMs: 2000,
};

type HealthCheckShape = HealthCheckResult & { name: string };

const HealthCheckRef = builder.objectRef<HealthCheckShape>('HealthCheck').implement({
  description: 'The last result of one periodic health check of a node.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Check name: `network`, `router`, `database`, `diskspace`, `bootstrapped`, ... or a chain alias (`P`, `X`, `C`).' }),
    passing: t.boolean({ nullable: false, description: 'True when the check passed (it has no error).', resolve: (c) => c.error === undefined || c.error === null }),
    message: t.field({ type: 'JSON', nullable: true, description: 'Free-form details of the check (e.g. `connectedPeers` for `network`).', resolve: (c) => c.message ?? null }),
    error: t.field({ type: 'JSON', nullable: true, description: 'Why the check failed; null when it passes.', resolve: (c) => c.error ?? null }),
    timestamp: t.exposeString('timestamp', { nullable: false, description: 'When the check last ran (RFC 3339; `0001-01-01T00:00:00Z` before its first run).' }),
    duration: t.field({ type: 'UInt256', nullable: false, description: 'How long the last run took, nanoseconds.', resolve: (c) => Math.max(0, Math.round(c.duration ?? 0)) }),
    contiguousFailures: t.int({ nullable: false, description: 'Consecutive failures (0 when passing).', resolve: (c) => c.contiguousFailures ?? 0 }),
    timeOfFirstFailure: t.string({ nullable: true, description: 'When the current run of failures began (RFC 3339); null when passing.', resolve: (c) => c.timeOfFirstFailure ?? null }),
  }),
});

export const HealthReportRef = builder.objectRef<HealthReport>('HealthReport').implement({
  description: 'A health report of a node: the included checks and whether all of them pass.',
  fields: (t) => ({
    healthy: t.exposeBoolean('healthy', { nullable: false, description: 'True when every included check passes.' }),
    checks: t.field({
      type: [HealthCheckRef],
      nullable: false,
      description: 'The included checks, sorted by name.',
      resolve: (r) => Object.entries(r.checks ?? {}).map(([name, check]) => ({ ...check, name })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    }),
  }),
});

const HealthPathEnum = builder.enumType('HealthPath', {
  description: 'A health GET endpoint of a node.',
  values: {
    HEALTH: { value: 'health', description: '`/ext/health`: the holistic report.' },
    READINESS: { value: 'readiness', description: '`/ext/health/readiness`: healthy once the node finished initialising.' },
    LIVENESS: { value: 'liveness', description: '`/ext/health/liveness`: healthy once the endpoint is up.' },
  } as const,
});

const HealthStatusRef = builder.objectRef<{ httpStatus: number; report: HealthReport }>('HealthStatus').implement({
  description: 'What a health GET endpoint answered: its HTTP status (200 healthy, 503 unhealthy) and the report.',
  fields: (t) => ({
    httpStatus: t.exposeInt('httpStatus', { nullable: false, description: '200 when healthy, 503 when not.' }),
    report: t.field({ type: HealthReportRef, nullable: false, description: 'The report in the body.', resolve: (s) => s.report }),
  }),
});

const TAGS = `Only checks with these tags (e.g. a subnet id; at most ${INPUT_LIMITS.healthTags} tags of 1 to ${INPUT_LIMITS.nameLength} letters, digits, '.', '_', ':', '/' or '-'), plus the global checks. All checks when omitted.`;

const checkTags = (args: Record<string, unknown>): void => checkHealthTags('tags', args['tags']);

const tagParams = (tags: readonly string[] | null | undefined) => (tags && tags.length > 0 ? { tags: [...tags] } : {});

builder.objectFields(AvalancheNodeRef, (t) => ({
  health: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'The latest results of the health checks (health.health).',
    args: { tags: t.arg.stringList({ description: TAGS }) },
    extensions: { validateArgs: checkTags, cost: NODE_METHOD },
    resolve: (n, args, ctx) => nodeRpc(ctx, requireNode(ctx, n.name), 'health.health', tagParams(args.tags)),
  }),
  readiness: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'The startup checks (`bootstrapped`): healthy once the node finished initialising (health.readiness).',
    args: { tags: t.arg.stringList({ description: TAGS }) },
    extensions: { validateArgs: checkTags, cost: NODE_METHOD },
    resolve: (n, args, ctx) => nodeRpc(ctx, requireNode(ctx, n.name), 'health.readiness', tagParams(args.tags)),
  }),
  liveness: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'Healthy once the node answers (health.liveness).',
    extensions: { cost: NODE_METHOD },
    resolve: (n, _args, ctx) => nodeRpc(ctx, requireNode(ctx, n.name), 'health.liveness'),
  }),
  healthStatus: t.field({
    type: HealthStatusRef,
    nullable: true,
    description: 'A health GET endpoint (`/ext/health[/readiness|/liveness]?tag=...`) with its HTTP status, as a load balancer sees it.',
    args: {
      path: t.arg({ type: HealthPathEnum, defaultValue: 'health', required: true, description: 'Which endpoint (default HEALTH).' }),
      tags: t.arg.stringList({ description: TAGS }),
    },
    extensions: { validateArgs: checkTags, cost: NODE_METHOD },
    resolve: async (n, args, ctx) => {
      const { status, report } = await requireNode(ctx, n.name).healthGet(args.path as HealthPath, args.tags ?? undefined, ctx.call);
      return { httpStatus: status, report };
    },
  }),
}));

/** What counts as a change: `healthy` and the set of failing checks. */
function fingerprint(report: HealthReport): string {
  const failing = Object.entries(report.checks ?? {})
    .filter(([, check]) => check.error !== undefined && check.error !== null)
    .map(([name]) => name)
    .sort();
  return JSON.stringify([report.healthy, failing]);
}

/**
 * Polls `health.health` (never through the per-request cache) and yields a report
 * first at once, then whenever `healthy` or the set of failing checks changes.
 * Ends when the request's signal aborts.
 */
export async function* watchNodeHealth(ctx: Context, node: NodeClient): AsyncGenerator<HealthReport> {
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

builder.subscriptionField('nodeHealth', (t) =>
  t.field({
    type: HealthReportRef,
    nullable: false,
    description: `Health of a configured node (default: the first): the current report at once, then each time \`healthy\` or the set of failing checks changes. Polls health.health every ${nodeHealthPolling.intervalMs / 1000} s.`,
    args: { node: t.arg.string({ description: "A configured node's name (NODE_NOT_CONFIGURED for another); the first node when omitted." }) },
    // Per event: one health.health poll.
    extensions: { validateArgs: (args, ctx) => checkNodeName('node', args['node'], ctx.nodes), cost: NODE_METHOD },
    subscribe: (_root, args, ctx) => watchNodeHealth(ctx, requireNode(ctx, args.node)),
    resolve: (report) => report,
  }),
);
