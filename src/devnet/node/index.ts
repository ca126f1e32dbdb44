// A simulated AvalancheGo v1.14.2 node: the admin, info and health APIs under
// `/ext`, with the wire behaviour of the real node (gorilla/rpc JSON-RPC quirks,
// stringly numbers, exact path matching) as recorded in
// `shared/reference/node-api-facts.md`. Everything it reports is derived from
// the seed, the dataset view and the clock, so two runs with the same inputs
// answer the same; the only mutable state is what the admin API changes.
//
// This module wires the parts together: state.ts (identity, chains, aliases),
// peers.ts, the three services (info.ts, admin.ts, health.ts) and transport.ts,
// which turns HTTP requests into service calls.
import type { DevnetHandler } from '../http-types.ts';
import { createAdmin } from './admin.ts';
import { createHealth } from './health.ts';
import { createInfoService } from './info.ts';
import { createPeers } from './peers.ts';
import { createNodeState, type NodeSimulatorOptions } from './state.ts';
import { createHttpHandler } from './transport.ts';

export { goDuration, rfc3339Nano } from './go.ts';
export { idFromName } from './ids.ts';
export type { NodeSimulatorOptions } from './state.ts';

/** A chain the simulated node runs. */
export interface SimulatedChain {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  /** Logger and health-check name: the first alias, or the id when the chain has none. */
  primaryAlias: string;
  /** What `admin.getChainAliases` answers, in order (the id itself last among the built-in ones). */
  aliases: readonly string[];
}

/** A snapshot of the simulator's state, for tests. */
export interface NodeSimulatorState {
  nodeId: string;
  trackedSubnetIds: readonly string[];
  chains: readonly SimulatedChain[];
  /** `/ext/<alias>` -> `/ext/<endpoint>` for every HTTP alias (chain `bc/...` aliases included). */
  httpAliases: Record<string, string>;
  loggerLevels: Record<string, { logLevel: string; displayLevel: string }>;
  cpuProfilerRunning: boolean;
  loadVMsCalls: number;
  /** Name of the health check that fails periodically, if the node tracks a subnet chain. */
  flappingCheck: string | undefined;
}

export interface NodeSimulator {
  handle: DevnetHandler;
  state(): NodeSimulatorState;
  /** Whether the unfiltered `health.health` report is healthy at time `t` (ms). */
  healthyAt(t: number): boolean;
}

export function createNodeSimulator(opts: NodeSimulatorOptions): NodeSimulator {
  const node = createNodeState(opts);
  const peers = createPeers(node);
  const admin = createAdmin(node);
  const health = createHealth(node, peers);

  const handle = createHttpHandler({
    allowedHosts: new Set((opts.allowedHosts ?? ['*']).map((h) => h.toLowerCase())),
    routes: node.routes,
    nodeId: node.nodeId,
    chains: node.chains,
    services: { info: createInfoService(node, peers), admin: admin.service, health: health.service },
    healthGet: health.get,
  });

  return {
    handle,
    healthyAt: (t) => health.report('health', undefined, t).healthy,
    state: () => {
      const all = node.chains();
      const flappingCheck = health.flappingCheck();
      return {
        nodeId: node.nodeId(),
        trackedSubnetIds: [...node.trackedSubnetIds()],
        chains: all.map((c) => ({ blockchainId: c.blockchainId, subnetId: c.subnetId, vmId: c.vmId, primaryAlias: c.primaryAlias, aliases: [...c.aliases] })),
        httpAliases: node.routes.aliases(),
        loggerLevels: Object.fromEntries([...node.loggers.entries()].map(([n, l]) => [n, { ...l }])),
        cpuProfilerRunning: admin.cpuProfilerRunning(),
        loadVMsCalls: admin.loadVMsCalls(),
        flappingCheck,
      };
    },
  };
}
