import { builder } from './builder.ts';
import {
  HEALTH_COST, HEALTH_POLL_COST, healthEndpoint, healthReport, livenessReport, nodeHealthPolling, subscribeNodeHealth,
} from '../loaders/node-health.ts';
import { nodeName } from '../loaders/nodes.ts';
import type { HealthCheckResult, HealthReport } from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { NODE_BOUNDS } from './input-checks.ts';
import { AvalancheNodeRef, checkNodeArg } from './node.ts';

type HealthCheckShape = HealthCheckResult & { name: string };

const HealthCheckRef = builder.objectRef<HealthCheckShape>('HealthCheck').implement({
  description: 'The last result of one periodic health check of a node.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Check name: `network`, `router`, `database`, `diskspace`, `bootstrapped`, ... or a chain alias (`P`, `X`, `C`).' }),
    passing: t.boolean({ nullable: false, description: 'True when the check passed (it has no error).', resolve: (c) => c.error === undefined || c.error === null }),
    message: t.field({ type: 'JSON', nullable: true, description: 'Free-form details of the check (e.g. `connectedPeers` for `network`).', resolve: (c) => c.message ?? null }),
    error: t.field({ type: 'JSON', nullable: true, description: 'Why the check failed; null when it passes.', resolve: (c) => c.error ?? null }),
    timestamp: t.exposeString('timestamp', { description: 'When the check last ran (RFC 3339; `0001-01-01T00:00:00Z` before its first run).' }),
    duration: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'How long the last run took, nanoseconds; null when the node did not say.',
      resolve: (c) => (c.duration == null ? null : Math.max(0, Math.round(c.duration))),
    }),
    // The node leaves the count out when it is 0 (Go `omitempty`), so an absent count is the node's 0, not a default.
    contiguousFailures: t.int({ description: 'Consecutive failures (0 when passing).', resolve: (c) => c.contiguousFailures ?? 0 }),
    timeOfFirstFailure: t.string({ nullable: true, description: 'When the current run of failures began (RFC 3339); null when passing.', resolve: (c) => c.timeOfFirstFailure ?? null }),
  }),
});

export const HealthReportRef = builder.objectRef<HealthReport>('HealthReport').implement({
  description: 'A health report of a node: the included checks and whether all of them pass.',
  fields: (t) => ({
    healthy: t.exposeBoolean('healthy', { description: 'True when every included check passes.' }),
    checks: t.field({
      type: [HealthCheckRef],
      description: 'The included checks, sorted by name.',
      resolve: (r) => Object.entries(r.checks ?? {}).map(([name, check]) => withFields(check, { name })).sort((a, b) => (a.name < b.name ? -1 : 1)),
    }),
  }),
});

const HealthPathEnum = builder.enumType('HealthPath', {
  description: 'A health GET endpoint of a node.',
  values: {
    HEALTH: { value: 'health', description: '`/ext/health`: the holistic report.' },
    HEALTH_HEALTH: { value: 'health/health', description: '`/ext/health/health`: the same report as `/ext/health`, on its own path.' },
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

const TAGS = 'Only checks with these tags (e.g. a subnet id), plus the global checks. All checks when omitted.';

builder.objectFields(AvalancheNodeRef, (t) => ({
  health: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'The latest results of the health checks (health.health).',
    args: { tags: t.arg.stringList({ description: TAGS, bound: NODE_BOUNDS.healthTags }) },
    upstreamCost: HEALTH_COST,
    resolve: (n, args, ctx) => healthReport(ctx, n.name, 'health.health', args.tags),
  }),
  readiness: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'The startup checks (`bootstrapped`): healthy once the node finished initialising (health.readiness).',
    args: { tags: t.arg.stringList({ description: TAGS, bound: NODE_BOUNDS.healthTags }) },
    upstreamCost: HEALTH_COST,
    resolve: (n, args, ctx) => healthReport(ctx, n.name, 'health.readiness', args.tags),
  }),
  liveness: t.field({
    type: HealthReportRef,
    nullable: true,
    description: 'Healthy once the node answers (health.liveness).',
    upstreamCost: HEALTH_COST,
    resolve: (n, _args, ctx) => livenessReport(ctx, n.name),
  }),
  healthStatus: t.field({
    type: HealthStatusRef,
    nullable: true,
    description: 'A health GET endpoint (`/ext/health`, `/ext/health/health`, `/ext/health/readiness` or `/ext/health/liveness`, with `?tag=...`) and its HTTP status, as a load balancer sees it: 200 when the report is healthy, 503 with the same kind of report when it is not.',
    args: {
      path: t.arg({ type: HealthPathEnum, defaultValue: 'health', required: true, description: 'Which endpoint (default HEALTH).' }),
      tags: t.arg.stringList({ description: TAGS, bound: NODE_BOUNDS.healthTags }),
    },
    upstreamCost: HEALTH_COST,
    resolve: (n, args, ctx) => healthEndpoint(ctx, n.name, args.path, args.tags),
  }),
}));

builder.subscriptionField('nodeHealth', (t) =>
  t.field({
    type: HealthReportRef,
    nullable: false,
    description: `Health of a configured node (default: the first): the current report at once, then each time \`healthy\` or the set of failing checks changes. Polls health.health every ${nodeHealthPolling.intervalMs / 1000} s.`,
    args: { node: t.arg.string({ description: "A configured node's name (NODE_NOT_CONFIGURED for another); the first node when omitted." }) },
    checkArgs: (args, ctx) => checkNodeArg('node', args.node, ctx),
    upstreamCost: HEALTH_POLL_COST,
    subscribe: (_root, args, ctx) => subscribeNodeHealth(ctx, nodeName(ctx, args.node)),
    resolve: (report) => report,
  }),
);
