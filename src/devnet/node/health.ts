// The health API (`/ext/health`): named checks with tags, each re-run every
// HEALTH_PERIOD_MS at its own phase. A result is a function of the run number,
// so any moment can be answered (and replayed) without a background loop. One
// tracked subnet chain flaps, failing a quarter of the time, so clients meet
// unhealthy reports. Served as JSON-RPC and as GET paths filtered by `?tag=`.
import { createHash } from 'node:crypto';
import type { DevnetRequest, DevnetResponse } from '../http-types.ts';
import { encodeCb58 } from '../../lib/base58.ts';
import { hashToUint32 } from '../rng.ts';
import { HEALTH_PERIOD_MS } from './facts.ts';
import { cmp, goDuration, rfc3339Nano } from './go.ts';
import type { Peers } from './peers.ts';
import { method, type RpcService } from './rpc.ts';
import { mix, type ChainState, type NodeState } from './state.ts';
import type { HealthView } from './transport.ts';

/** The flapping subnet chain fails on 2 of every 8 runs: one minute out of four. */
const FLAP_CYCLE = 8;
const FLAP_FAILING_RUNS = new Set([5, 6]);

interface HealthCheck {
  name: string;
  tags: readonly string[];
  phase: number;
  evaluate(run: number, runMs: number): { message?: unknown; error?: string };
  durationNs(run: number): number;
}

export interface HealthReport {
  checks: Record<string, Record<string, unknown>>;
  healthy: boolean;
}

export interface Health {
  service: RpcService;
  /** The report as the GET paths answer it: JSON, 503 when unhealthy. */
  get(req: DevnetRequest, view: HealthView, route: string): DevnetResponse;
  report(view: HealthView, tags: readonly string[] | undefined, t: number): HealthReport;
  /** Name of the check that fails periodically (builds the checks first). */
  flappingCheck(): string | undefined;
}

export function createHealth(node: NodeState, peers: Peers): Health {
  const { label, facts, now } = node;
  let healthChecks: HealthCheck[] | undefined;
  let flappingCheck: string | undefined;
  const checks = (): HealthCheck[] => {
    if (healthChecks) return healthChecks;
    const list: HealthCheck[] = [];
    const add = (name: string, tags: string[], evaluate: HealthCheck['evaluate'], baseNs: number): void => {
      const h = hashToUint32(`check/${label}/${name}`);
      list.push({
        name,
        tags: ['all', ...tags],
        phase: h % HEALTH_PERIOD_MS,
        evaluate,
        durationNs: (run) => baseNs + (mix(h, run) % baseNs),
      });
    };
    const app = ['application'];
    add('network', app, (run, runMs) => {
      const h = mix(hashToUint32('network'), run);
      return {
        message: {
          connectedPeers: peers.connected().length,
          sendFailRate: (h % 500) / 100_000,
          timeSinceLastMsgReceived: goDuration(50_000 + (h % 9_000_000)),
          timeSinceLastMsgSent: goDuration(40_000 + (mix(h, runMs) % 9_000_000)),
        },
      };
    }, 8_000);
    add('router', app, (run) => {
      const h = mix(hashToUint32('router'), run);
      return { message: { longestRunningRequest: goDuration(h % 2_000_000_000), outstandingRequests: h % 40 } };
    }, 3_000);
    add('database', app, () => ({}), 2_000);
    add('diskspace', app, (run) => ({
      message: { availableDiskBytes: 812_345_678_912 - (((run % 100_000) + 100_000) % 100_000) * 1_048_576 + (mix(run, 7) % 65_536) },
    }), 4_000);
    add('bls', app, () => ({}), 1_500);
    add('futureupgrade', app, () => ({}), 1_000);
    add('bootstrapped', app, () => ({ message: [] }), 1_000);

    const all = node.chains();
    const subnetChains = all.filter((c) => c.kind === 'subnet');
    const flapping = subnetChains[0];
    flappingCheck = flapping?.primaryAlias;
    const flapOffset = hashToUint32(`flap/${label}`) % FLAP_CYCLE;
    const failing = (run: number): boolean => FLAP_FAILING_RUNS.has((((run + flapOffset) % FLAP_CYCLE) + FLAP_CYCLE) % FLAP_CYCLE);
    for (const chain of all) {
      const isFlapping = chain === flapping;
      add(chain.primaryAlias, [chain.subnetId], (run, runMs) => {
        const h = mix(hashToUint32(chain.blockchainId), run);
        const height = chainHeight(chain, runMs);
        const processing = h % 4;
        let percent = chain.kind === 'subnet' ? (900_000 + (h % 100_000)) / 1_000_000 : peers.connectedStake();
        const down = isFlapping && failing(run);
        if (down) percent = (550_000 + (h % 200_000)) / 1_000_000;
        const message = {
          engine: {
            consensus: {
              lastAcceptedHeight: height,
              lastAcceptedID: encodeCb58(createHash('sha256').update(`${chain.blockchainId}/${height}`).digest()),
              longestProcessingBlock: processing === 0 ? '0s' : goDuration(50_000_000 + (h % 900_000_000)),
              processingBlocks: processing,
            },
            vm: chain.kind === 'P' ? platformVmHealth(run) : null,
          },
          networking: { percentConnected: percent },
        };
        if (!down) return { message };
        return {
          message,
          error: `networking layer is unhealthy reason: not connected to enough stake: connected to ${(percent * 100).toFixed(6)}%; required at least 80.000000%`,
        };
      }, 20_000);
    }
    list.sort((a, b) => cmp(a.name, b.name));
    healthChecks = list;
    return list;
  };

  const platformVmHealth = (run: number): Record<string, number> => {
    const out: Record<string, number> = { 'primary-percentConnected': peers.connectedStake() };
    for (const subnet of node.trackedSubnetIds()) out[`${subnet}-percentConnected`] = (900_000 + (mix(hashToUint32(subnet), run) % 100_000)) / 1_000_000;
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => cmp(a, b)));
  };

  const chainHeight = (chain: ChainState, t: number): number => {
    const spec =
      chain.kind === 'subnet'
        ? { genesis: Date.UTC(2024, 0, 1) + (hashToUint32(chain.blockchainId) % 400) * 86_400_000, intervalMs: 2_000 }
        : facts.heights[chain.kind];
    return Math.max(0, Math.floor((t - spec.genesis) / spec.intervalMs));
  };

  const checkResult = (check: HealthCheck, t: number): Record<string, unknown> => {
    const run = Math.floor((t - check.phase) / HEALTH_PERIOD_MS);
    const runMs = (run: number): number => run * HEALTH_PERIOD_MS + check.phase;
    const stamp = (run: number): string => rfc3339Nano(runMs(run), mix(hashToUint32(check.name), run) % 1_000_000);
    const r = check.evaluate(run, runMs(run));
    const out: Record<string, unknown> = {};
    if (r.message !== undefined) out.message = r.message;
    if (r.error !== undefined) out.error = r.error;
    out.timestamp = stamp(run);
    out.duration = check.durationNs(run);
    if (r.error !== undefined) {
      let first = run;
      while (first > run - 1000 && check.evaluate(first - 1, runMs(first - 1)).error !== undefined) first -= 1;
      out.contiguousFailures = run - first + 1;
      out.timeOfFirstFailure = stamp(first);
    }
    return out;
  };

  const healthReport = (kind: HealthView, tags: readonly string[] | undefined, t: number): HealthReport => {
    if (kind === 'liveness') return { checks: {}, healthy: true };
    const pool = kind === 'readiness' ? checks().filter((c) => c.name === 'bootstrapped') : checks();
    const wanted = new Set(tags && tags.length > 0 ? [...tags, 'application'] : ['all']);
    const results: Record<string, Record<string, unknown>> = {};
    let healthy = true;
    for (const check of pool) {
      if (!check.tags.some((tag) => wanted.has(tag))) continue;
      const result = checkResult(check, t);
      results[check.name] = result;
      if (result.error !== undefined) healthy = false;
    }
    return { checks: results, healthy };
  };

  const healthGet = (req: DevnetRequest, which: HealthView, route: string): DevnetResponse => {
    const tags = req.query.getAll('tag');
    const report = healthReport(which, tags, now());
    return { status: report.healthy ? 200 : 503, body: `${JSON.stringify(report)}\n`, contentType: 'application/json', route };
  };

  return {
    service: {
      Health: method({ tags: 'strings' }, (args) => healthReport('health', args.tags as string[] | undefined, now())),
      Readiness: method({ tags: 'strings' }, (args) => healthReport('readiness', args.tags as string[] | undefined, now())),
      Liveness: method({ tags: 'strings' }, () => healthReport('liveness', undefined, now())),
    },
    get: healthGet,
    report: healthReport,
    flappingCheck: () => {
      checks();
      return flappingCheck;
    },
  };
}
