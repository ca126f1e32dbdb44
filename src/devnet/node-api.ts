import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { DevnetHandler, DevnetRequest, DevnetResponse } from './http-types.ts';
import type { DevnetBlockchain, DevnetNetwork, NodeDataView } from './node-view.ts';
import { cb58, hashToUint32, Rng } from './rng.ts';

/**
 * A simulated AvalancheGo v1.14.2 node: the admin, info and health APIs under
 * `/ext`, with the wire behaviour of the real node (gorilla/rpc JSON-RPC quirks,
 * stringly numbers, exact path matching) as recorded in
 * `shared/reference/node-api-facts.md`. Everything it reports is derived from
 * the seed, the dataset view and the clock, so two runs with the same inputs
 * answer the same; the only mutable state is what the admin API changes.
 */
export interface NodeSimulatorOptions {
  /** The node's name; part of what its identity (BLS key, IP) is derived from. */
  name: string;
  network: DevnetNetwork;
  /** The dataset as the node sees it: validators are its peers, blockchains its chains. */
  view: NodeDataView;
  /** Seed of every derived value (node id pick, peer versions, health figures). */
  seed: number;
  /** Clock in ms since the epoch; health results and peer timestamps follow it. */
  now: () => number;
  /** Serve `/ext/admin` (the node's `--api-admin-enabled`). Default true. */
  adminEnabled?: boolean;
  /**
   * Accepted `Host` header names (the node's `--http-allowed-hosts`); `*` accepts any.
   * Hosts that are IP addresses are always accepted. Default `['*']`; the real node
   * defaults to `['localhost']`, which rejects DNS names with 403 `invalid host specified`.
   */
  allowedHosts?: readonly string[];
  /** How many subnets (among those with blockchains in the view) the node tracks. Default 3. */
  trackedSubnets?: number;
}

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

// ---------------------------------------------------------------- constants

const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
const HEALTH_PERIOD_MS = 30_000;
/** The flapping subnet chain fails on 2 of every 8 runs: one minute out of four. */
const FLAP_CYCLE = 8;
const FLAP_FAILING_RUNS = new Set([5, 6]);
const MAX_ALIAS_LENGTH = 512;
const NODE_VERSION = 'avalanchego/1.14.2';
const GIT_COMMIT = '6e5acf909c7a16b991142d6b3979bac5699bdb68';
const UNMARSHAL_ERROR =
  "couldn't unmarshal an argument. Ensure arguments are valid and properly formatted. See documentation for example calls";
const LOG_LEVELS = ['VERBO', 'DEBUG', 'TRACE', 'INFO', 'WARN', 'ERROR', 'FATAL', 'OFF'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];
/** Proposals peers vote on; the later ones get most of the votes. */
const ACP_NUMBERS = [23, 24, 25, 30, 31, 41, 62, 77, 103, 118, 125, 176, 181, 194, 204, 209, 224, 226];
const HOT_ACPS = [176, 181, 194, 204, 209, 224, 226];
const PEER_VERSIONS: ReadonlyArray<[string, number]> = [
  ['avalanchego/1.14.2', 0.7],
  ['avalanchego/1.14.1', 0.2],
  ['avalanchego/1.14.0', 0.07],
  ['avalanchego/1.13.5', 0.03],
];

/** VM and Fx ids are cb58 of the zero-padded ASCII name (`utils/constants/vm_ids.go`). */
export function idFromName(name: string): string {
  const bytes = Buffer.alloc(32);
  bytes.write(name, 'ascii');
  return cb58(bytes);
}

const VM_IDS = {
  platform: idFromName('platformvm'),
  avm: idFromName('avm'),
  evm: idFromName('evm'),
};
const FX_NAMES = ['secp256k1fx', 'nftfx', 'propertyfx'];
/** Plugin VMs `admin.loadVMs` finds on its first and second call. */
const PLUGIN_VMS = ['xsvm', 'timestampvm', 'spacesvm'];
const BROKEN_PLUGIN = 'brokenvm';

interface NetworkFacts {
  networkID: string;
  networkName: string;
  xChainId: string;
  cChainId: string;
  fees: Record<string, string>;
  upgrades: Record<string, string | number>;
  /** Chain genesis (ms) and mean block interval (ms), for plausible heights. */
  heights: Record<'P' | 'X' | 'C', { genesis: number; intervalMs: number }>;
}

const UPGRADE_TIME_FIELDS = [
  'apricotPhase1Time', 'apricotPhase2Time', 'apricotPhase3Time', 'apricotPhase4Time', 'apricotPhase5Time',
  'apricotPhasePre6Time', 'apricotPhase6Time', 'apricotPhasePost6Time', 'banffTime', 'cortinaTime',
  'durangoTime', 'etnaTime', 'fortunaTime', 'graniteTime',
] as const;

/** `upgrade.Config` in its JSON field order, from the activation times in `UPGRADE_TIME_FIELDS` order. */
function upgradeConfig(times: readonly string[], ap4MinPChainHeight: number, stopVertex: string): Record<string, string | number> {
  const at = Object.fromEntries(UPGRADE_TIME_FIELDS.map((field, i) => [field, times[i] ?? '9999-12-01T00:00:00Z'])) as Record<
    (typeof UPGRADE_TIME_FIELDS)[number],
    string
  >;
  const { apricotPhase1Time, apricotPhase2Time, apricotPhase3Time, apricotPhase4Time, ...later } = at;
  const { apricotPhase5Time, apricotPhasePre6Time, apricotPhase6Time, apricotPhasePost6Time, banffTime, cortinaTime, ...rest } = later;
  return {
    apricotPhase1Time, apricotPhase2Time, apricotPhase3Time, apricotPhase4Time,
    apricotPhase4MinPChainHeight: ap4MinPChainHeight,
    apricotPhase5Time, apricotPhasePre6Time, apricotPhase6Time, apricotPhasePost6Time, banffTime, cortinaTime,
    cortinaXChainStopVertexID: stopVertex,
    ...rest,
    graniteEpochDuration: 300_000_000_000,
    // Unscheduled (upgrade.UnscheduledActivationTime).
    heliconTime: '9999-12-01T00:00:00Z',
  };
}

const NETWORKS: Record<DevnetNetwork, NetworkFacts> = {
  mainnet: {
    networkID: '1',
    networkName: 'mainnet',
    xChainId: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    fees: {
      txFee: '1000000',
      createAssetTxFee: '10000000',
      createSubnetTxFee: '1000000000',
      transformSubnetTxFee: '10000000000',
      createBlockchainTxFee: '1000000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    },
    upgrades: upgradeConfig(
      [
        '2021-03-31T14:00:00Z', '2021-05-10T11:00:00Z', '2021-08-24T14:00:00Z', '2021-09-22T21:00:00Z',
        '2021-12-02T18:00:00Z', '2022-09-05T01:30:00Z', '2022-09-06T20:00:00Z', '2022-09-07T03:00:00Z',
        '2022-10-18T16:00:00Z', '2023-04-25T15:00:00Z', '2024-03-06T16:00:00Z', '2024-12-16T17:00:00Z',
        '2025-04-08T15:00:00Z', '2025-11-19T16:00:00Z',
      ],
      793005,
      'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
    ),
    heights: {
      P: { genesis: Date.UTC(2020, 8, 21), intervalMs: 8_000 },
      X: { genesis: Date.UTC(2023, 3, 25, 15), intervalMs: 45_000 },
      C: { genesis: Date.UTC(2020, 8, 23), intervalMs: 2_500 },
    },
  },
  fuji: {
    networkID: '5',
    networkName: 'fuji',
    xChainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    fees: {
      txFee: '1000000',
      createAssetTxFee: '10000000',
      createSubnetTxFee: '100000000',
      transformSubnetTxFee: '1000000000',
      createBlockchainTxFee: '100000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    },
    upgrades: upgradeConfig(
      [
        '2021-03-26T14:00:00Z', '2021-05-05T14:00:00Z', '2021-08-16T19:00:00Z', '2021-09-16T21:00:00Z',
        '2021-11-24T15:00:00Z', '2022-09-06T20:00:00Z', '2022-09-06T20:00:00Z', '2022-09-07T06:00:00Z',
        '2022-10-03T14:00:00Z', '2023-04-06T15:00:00Z', '2024-02-13T16:00:00Z', '2024-11-25T16:00:00Z',
        '2025-03-13T15:00:00Z', '2025-10-29T15:00:00Z',
      ],
      47437,
      '2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ',
    ),
    heights: {
      P: { genesis: Date.UTC(2020, 8, 1), intervalMs: 6_000 },
      X: { genesis: Date.UTC(2023, 3, 6, 15), intervalMs: 60_000 },
      C: { genesis: Date.UTC(2020, 8, 3), intervalMs: 3_000 },
    },
  },
};

// ---------------------------------------------------------------- errors

/** A JSON-RPC error as gorilla/json2 writes it. */
class RpcError extends Error {
  constructor(
    message: string,
    readonly code: number = -32000,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

// ---------------------------------------------------------------- the simulator

interface PeerProfile {
  nodeId: string;
  ip: string;
  publicIP: string;
  version: string;
  observedUptime: string;
  trackedSubnets: string[];
  supportedACPs: number[];
  objectedACPs: number[];
  benched: string[];
  weight: bigint;
  connected: boolean;
  hash: number;
}

interface ChainState {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  primaryAlias: string;
  aliases: string[];
  /** Which consensus figures the chain reports. */
  kind: 'P' | 'X' | 'C' | 'subnet';
}

type RouteKind = 'info' | 'admin' | 'health' | 'health/health' | 'health/readiness' | 'health/liveness' | 'chain';

interface HealthCheck {
  name: string;
  tags: readonly string[];
  phase: number;
  evaluate(run: number, runMs: number): { message?: unknown; error?: string };
  durationNs(run: number): number;
}

export function createNodeSimulator(opts: NodeSimulatorOptions): NodeSimulator {
  const { network, view, seed, now } = opts;
  const facts = NETWORKS[network];
  const label = `${seed}/${network}/${opts.name}`;
  const adminEnabled = opts.adminEnabled ?? true;
  const allowedHosts = new Set((opts.allowedHosts ?? ['*']).map((h) => h.toLowerCase()));
  const trackedLimit = opts.trackedSubnets ?? 3;

  // ------------------------------------------------------------ identity
  const idRng = new Rng(`node/${label}`);
  const blsPublicKey = `0x${blsBytes(idRng, 48)}`;
  const blsProof = `0x${blsBytes(idRng, 96)}`;
  const nodeIp = `${idRng.int(3, 223)}.${idRng.int(0, 255)}.${idRng.int(0, 255)}.${idRng.int(1, 254)}:9651`;
  const fallbackNodeId = idRng.nodeId();
  let ownNodeId: string | undefined;
  const nodeId = (): string => {
    if (ownNodeId === undefined) {
      // The node is one of the network's validators, so the Data API knows it
      // and info.uptime has something to report.
      const validators = view.activeValidatorNodeIds(network);
      ownNodeId = validators.length > 0 ? (validators[hashToUint32(`self/${label}`) % validators.length] as string) : fallbackNodeId;
    }
    return ownNodeId;
  };

  // ------------------------------------------------------------ HTTP routes and aliases
  const http = createRouteTable();
  http.addRoute('/ext/info', '', 'info');
  if (adminEnabled) http.addRoute('/ext/admin', '', 'admin');
  http.addRoute('/ext/health', '', 'health');
  http.addRoute('/ext/health', '/readiness', 'health/readiness');
  http.addRoute('/ext/health', '/health', 'health/health');
  http.addRoute('/ext/health', '/liveness', 'health/liveness');

  // ------------------------------------------------------------ chains, aliases, loggers, VMs
  let chainsCache: ChainState[] | undefined;
  const dealias = new Map<string, string>();
  const chainsById = new Map<string, ChainState>();
  const loggers = new Map<string, { logLevel: LogLevel; displayLevel: LogLevel }>();
  const vms = new Map<string, string[]>([
    [VM_IDS.platform, ['platform']],
    [VM_IDS.avm, ['avm']],
    [VM_IDS.evm, ['evm']],
  ]);
  let trackedSubnetIds: string[] = [];

  const chains = (): ChainState[] => {
    if (chainsCache) return chainsCache;
    const all = view.blockchains(network);
    const primary = (alias: 'P' | 'X' | 'C', id: string, vmId: string, defaults: string[]): ChainState => {
      const found = all.find((b) => b.subnetId === PRIMARY_NETWORK_ID && (b.blockchainId === id || b.aliases.includes(alias)));
      return chainFrom(found ?? { blockchainId: id, subnetId: PRIMARY_NETWORK_ID, vmId, name: alias, aliases: defaults }, alias);
    };
    const result = [
      primary('P', PRIMARY_NETWORK_ID, VM_IDS.platform, ['P', 'platform']),
      primary('X', facts.xChainId, VM_IDS.avm, ['X', 'avm']),
      primary('C', facts.cChainId, VM_IDS.evm, ['C', 'evm']),
    ];
    const candidates = [...new Set(all.filter((b) => b.subnetId !== PRIMARY_NETWORK_ID).map((b) => b.subnetId))];
    trackedSubnetIds = candidates
      .sort((a, b) => hashToUint32(`track/${label}/${a}`) - hashToUint32(`track/${label}/${b}`) || cmp(a, b))
      .slice(0, trackedLimit)
      .sort(cmp);
    const tracked = new Set(trackedSubnetIds);
    const subnetChains = all.filter((b) => tracked.has(b.subnetId)).sort((a, b) => cmp(a.blockchainId, b.blockchainId));
    for (const b of subnetChains) result.push(chainFrom(b, 'subnet'));

    for (const chain of result) if (!vms.has(chain.vmId)) vms.set(chain.vmId, []);
    for (const name of ['main', 'vm-factory', ...result.map((c) => c.primaryAlias)]) {
      loggers.set(name, { logLevel: 'INFO', displayLevel: 'INFO' });
    }
    // The node serves each chain under /ext/bc/<id> and aliases it by every chain alias.
    for (const chain of result) {
      const base = `/ext/bc/${chain.blockchainId}`;
      for (const endpoint of chain.kind === 'C' || chain.kind === 'subnet' ? ['/rpc', '/ws'] : ['']) http.addRoute(base, endpoint, 'chain');
      for (const alias of chain.aliases) if (alias !== chain.blockchainId) http.addAlias(base, `/ext/bc/${alias}`);
    }
    chainsCache = result;
    return result;
  };

  /** Builds a chain and registers its aliases; an alias another chain already holds is dropped. */
  function chainFrom(b: DevnetBlockchain, kind: ChainState['kind']): ChainState {
    const aliases = [...new Set(b.aliases.filter((a) => a !== b.blockchainId && !dealias.has(a)))];
    const chain: ChainState = {
      blockchainId: b.blockchainId,
      subnetId: b.subnetId,
      vmId: b.vmId,
      primaryAlias: aliases[0] ?? b.blockchainId,
      aliases: [...aliases, b.blockchainId],
      kind,
    };
    chainsById.set(chain.blockchainId, chain);
    for (const alias of chain.aliases) dealias.set(alias, chain.blockchainId);
    return chain;
  }

  const lookupChain = (alias: string): ChainState | undefined => {
    chains();
    const id = dealias.get(alias);
    return id === undefined ? undefined : chainsById.get(id);
  };

  // ------------------------------------------------------------ peers
  const profiles = new Map<string, PeerProfile>();
  const profileOf = (id: string): PeerProfile => {
    let profile = profiles.get(id);
    if (!profile) {
      profile = makePeerProfile(id, `${seed}/${network}`, view.subnetIds(network).filter((s) => s !== PRIMARY_NETWORK_ID));
      profiles.set(id, profile);
    }
    return profile;
  };
  const connectedPeers = (): PeerProfile[] => {
    const self = nodeId();
    const out: PeerProfile[] = [];
    for (const id of view.activeValidatorNodeIds(network)) {
      if (id === self) continue;
      const profile = profileOf(id);
      if (profile.connected) out.push(profile);
    }
    return out;
  };
  const peerWire = (p: PeerProfile, t: number): Record<string, unknown> => {
    const second = Math.floor(t / 1000);
    const sentAgo = mix(p.hash, second) % 2_500;
    const receivedAgo = mix(p.hash ^ 0x5bd1e995, second) % 2_500;
    return {
      ip: p.ip,
      publicIP: p.publicIP,
      nodeID: p.nodeId,
      version: p.version,
      upgradeTime: Math.floor(Date.parse(String(facts.upgrades.graniteTime)) / 1000),
      lastSent: rfc3339Nano(Math.floor(t) - sentAgo, mix(p.hash, second + 1) % 1_000_000),
      lastReceived: rfc3339Nano(Math.floor(t) - receivedAgo, mix(p.hash, second + 2) % 1_000_000),
      observedUptime: p.observedUptime,
      trackedSubnets: p.trackedSubnets,
      supportedACPs: p.supportedACPs,
      objectedACPs: p.objectedACPs,
      benched: p.benched,
    };
  };

  /** Share of primary-network stake this node is connected to (itself included), cached per validator list. */
  let stakeCache: { list: readonly string[]; fraction: number } | undefined;
  const connectedStake = (): number => {
    const list = view.activeValidatorNodeIds(network);
    if (stakeCache?.list !== list) {
      let total = 0n;
      let connected = 0n;
      for (const id of list) {
        const p = profileOf(id);
        total += p.weight;
        if (p.connected || id === nodeId()) connected += p.weight;
      }
      stakeCache = { list, fraction: total === 0n ? 1 : Number((connected * 1_000_000_000n) / total) / 1e9 };
    }
    return stakeCache.fraction;
  };

  // ------------------------------------------------------------ admin state
  let cpuProfilerRunning = false;
  let loadVMsCalls = 0;

  // ------------------------------------------------------------ health
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
          connectedPeers: connectedPeers().length,
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

    const all = chains();
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
        let percent = chain.kind === 'subnet' ? (900_000 + (h % 100_000)) / 1_000_000 : connectedStake();
        const down = isFlapping && failing(run);
        if (down) percent = (550_000 + (h % 200_000)) / 1_000_000;
        const message = {
          engine: {
            consensus: {
              lastAcceptedHeight: height,
              lastAcceptedID: cb58(createHash('sha256').update(`${chain.blockchainId}/${height}`).digest()),
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
    const out: Record<string, number> = { 'primary-percentConnected': connectedStake() };
    for (const subnet of trackedSubnetIds) out[`${subnet}-percentConnected`] = (900_000 + (mix(hashToUint32(subnet), run) % 100_000)) / 1_000_000;
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

  const healthReport = (kind: 'health' | 'readiness' | 'liveness', tags: readonly string[] | undefined, t: number) => {
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

  // ------------------------------------------------------------ JSON-RPC services
  const services: Record<'info' | 'admin' | 'health', Record<string, RpcMethod>> = {
    info: {
      Acps: method({}, () => {
        const acps = new Map<number, { supporters: string[]; objectors: string[]; support: bigint; object: bigint }>();
        const entry = (n: number) => {
          let e = acps.get(n);
          if (!e) acps.set(n, (e = { supporters: [], objectors: [], support: 0n, object: 0n }));
          return e;
        };
        for (const p of connectedPeers()) {
          for (const n of p.supportedACPs) {
            const e = entry(n);
            e.supporters.push(p.nodeId);
            e.support += p.weight;
          }
          for (const n of p.objectedACPs) {
            const e = entry(n);
            e.objectors.push(p.nodeId);
            e.object += p.weight;
          }
        }
        const out: Record<string, unknown> = {};
        for (const n of [...acps.keys()].sort((a, b) => cmp(String(a), String(b)))) {
          const e = acps.get(n);
          if (!e) continue;
          out[String(n)] = {
            supportWeight: e.support.toString(),
            supporters: e.supporters.sort(cmp),
            objectWeight: e.object.toString(),
            objectors: e.objectors.sort(cmp),
            abstainWeight: '0',
          };
        }
        return { acps: out };
      }),
      IsBootstrapped: method({ chain: 'string' }, (args) => {
        const chain = str(args.chain);
        if (chain === '') throw new RpcError("argument 'chain' not given");
        if (!lookupChain(chain)) throw new RpcError(`there is no chain with alias/ID '${chain}'`);
        return { isBootstrapped: true };
      }),
      GetBlockchainID: method({ alias: 'string' }, (args) => {
        const alias = str(args.alias);
        const chain = lookupChain(alias);
        if (!chain) throw new RpcError(`there is no ID with alias: ${alias}`);
        return { blockchainID: chain.blockchainId };
      }),
      GetNetworkID: method({}, () => ({ networkID: facts.networkID })),
      GetNetworkName: method({}, () => ({ networkName: facts.networkName })),
      GetNodeID: method({}, () => ({ nodeID: nodeId(), nodePOP: { publicKey: blsPublicKey, proofOfPossession: blsProof } })),
      GetNodeIP: method({}, () => ({ ip: nodeIp })),
      GetNodeVersion: method({}, () => ({
        version: NODE_VERSION,
        databaseVersion: 'v1.4.5',
        rpcProtocolVersion: '45',
        gitCommit: GIT_COMMIT,
        vmVersions: { avm: 'v1.14.2', evm: 'v1.14.2', platform: 'v1.14.2' },
      })),
      GetTxFee: method({}, () => ({ ...facts.fees })),
      GetVMs: method({}, () => {
        chains();
        const sortedVms = [...vms.entries()].sort(([a], [b]) => cmp(a, b));
        return {
          vms: Object.fromEntries(sortedVms.map(([id, aliases]) => [id, [...aliases]])),
          fxs: Object.fromEntries(FX_NAMES.map((name) => [idFromName(name), name] as const).sort(([a], [b]) => cmp(a, b))),
        };
      }),
      Peers: method({ nodeIDs: 'nodeIDs' }, (args) => {
        const t = now();
        const wanted = args.nodeIDs as string[] | undefined;
        let peers: PeerProfile[];
        if (!wanted || wanted.length === 0) peers = connectedPeers();
        else {
          const byId = new Map(connectedPeers().map((p) => [p.nodeId, p] as const));
          // The node looks each requested id up in turn, so order and repeats follow the request.
          peers = wanted.flatMap((id) => byId.get(id) ?? []);
        }
        return { numPeers: String(peers.length), peers: peers.map((p) => peerWire(p, t)) };
      }),
      Uptime: method({ subnetID: 'id' }, (args) => {
        const subnetId = (args.subnetID as string | undefined) ?? PRIMARY_NETWORK_ID;
        chains();
        if (subnetId !== PRIMARY_NETWORK_ID && !trackedSubnetIds.includes(subnetId)) {
          throw new RpcError('couldn\'t get node uptime: subnet is not tracked');
        }
        if (!view.activeValidatorNodeIds(network).includes(nodeId())) {
          throw new RpcError("couldn't get node uptime: node is not a validator");
        }
        const hour = Math.floor(now() / 3_600_000);
        const h = mix(hashToUint32(`uptime/${label}/${subnetId}`), hour);
        return {
          rewardingStakePercentage: (96 + (h % 39_000) / 10_000).toFixed(4),
          weightedAveragePercentage: (97 + (mix(h, 1) % 29_000) / 10_000).toFixed(4),
        };
      }),
      Upgrades: method({}, () => ({ ...facts.upgrades })),
    },
    admin: {
      Alias: method({ endpoint: 'string', alias: 'string' }, (args) => {
        const alias = str(args.alias);
        if (Buffer.byteLength(alias) > MAX_ALIAS_LENGTH) throw new RpcError('alias length is too long');
        chains();
        const error = http.addAlias(`/ext/${str(args.endpoint)}`, `/ext/${alias}`);
        if (error) throw new RpcError(error);
        return {};
      }),
      AliasChain: method({ chain: 'string', alias: 'string' }, (args) => {
        const alias = str(args.alias);
        if (Buffer.byteLength(alias) > MAX_ALIAS_LENGTH) throw new RpcError('alias length is too long');
        const chain = lookupChain(str(args.chain));
        if (!chain) throw new RpcError(`there is no ID with alias: ${str(args.chain)}`);
        if (dealias.has(alias)) throw new RpcError(`alias already mapped to an ID: ${alias}`);
        dealias.set(alias, chain.blockchainId);
        chain.aliases.push(alias);
        // The chain alias stays even if its HTTP alias fails, as on the node.
        const error = http.addAlias(`/ext/${goPathJoin('bc', chain.blockchainId)}`, `/ext/${goPathJoin('bc', alias)}`);
        if (error) throw new RpcError(error);
        return {};
      }),
      GetChainAliases: method({ chain: 'string' }, (args) => {
        const id = idFromString(str(args.chain));
        chains();
        const chain = chainsById.get(id);
        return { aliases: chain ? [...chain.aliases] : null };
      }),
      GetLoggerLevel: method({ loggerName: 'string' }, (args) => {
        chains();
        const name = str(args.loggerName);
        return { loggerLevels: loggerLevels(name === '' ? [...loggers.keys()] : [name]) };
      }),
      SetLoggerLevel: method({ loggerName: 'string', logLevel: 'level', displayLevel: 'level' }, (args) => {
        const logLevel = args.logLevel as LogLevel | undefined;
        const displayLevel = args.displayLevel as LogLevel | undefined;
        if (logLevel === undefined && displayLevel === undefined) throw new RpcError('need to specify either displayLevel or logLevel');
        chains();
        const name = str(args.loggerName);
        const names = name === '' ? [...loggers.keys()] : [name];
        for (const n of names) {
          const levels = loggers.get(n);
          if (!levels) throw new RpcError(`logger with name ${goQuote(n)} not found`);
          if (logLevel !== undefined) levels.logLevel = logLevel;
          if (displayLevel !== undefined) levels.displayLevel = displayLevel;
        }
        return { loggerLevels: loggerLevels(names) };
      }),
      LoadVMs: method({}, () => {
        chains();
        loadVMsCalls += 1;
        // Deterministic plugin directory: the first reload finds one new VM,
        // the second a plugin that cannot start, later ones nothing new.
        if (loadVMsCalls === 1) {
          const name = PLUGIN_VMS.find((n) => !vms.has(idFromName(n))) ?? 'pluginvm';
          vms.set(idFromName(name), []);
          return { newVMs: { [idFromName(name)]: [] } };
        }
        if (loadVMsCalls === 2) {
          return { newVMs: {}, failedVMs: { [idFromName(BROKEN_PLUGIN)]: 'plugin exited before we could connect' } };
        }
        return { newVMs: {} };
      }),
      LockProfile: method({}, () => ({})),
      MemoryProfile: method({}, () => ({})),
      StartCPUProfiler: method({}, () => {
        if (cpuProfilerRunning) throw new RpcError('cpu profiler already running');
        cpuProfilerRunning = true;
        return {};
      }),
      StopCPUProfiler: method({}, () => {
        if (!cpuProfilerRunning) throw new RpcError("cpu profiler doesn't exist");
        cpuProfilerRunning = false;
        return {};
      }),
      Stacktrace: method({}, () => ({})),
      GetConfig: method({}, () => {
        chains();
        // A small part of the node's configuration: enough to identify it.
        return {
          networkID: Number(facts.networkID),
          httpHost: '127.0.0.1',
          httpPort: 9650,
          apiAdminEnabled: adminEnabled,
          healthCheckFrequency: HEALTH_PERIOD_MS * 1_000_000,
          trackedSubnets: [...trackedSubnetIds],
        };
      }),
      DbGet: method({ key: 'string' }, (args) => {
        decodeHex(str(args.key));
        // The simulated database is empty: not-found is a success with errorCode 2.
        return { value: '', errorCode: 2 };
      }),
    },
    health: {
      Health: method({ tags: 'strings' }, (args) => healthReport('health', args.tags as string[] | undefined, now())),
      Readiness: method({ tags: 'strings' }, (args) => healthReport('readiness', args.tags as string[] | undefined, now())),
      Liveness: method({ tags: 'strings' }, () => healthReport('liveness', undefined, now())),
    },
  };

  const loggerLevels = (names: readonly string[]): Record<string, { logLevel: string; displayLevel: string }> => {
    const out: Record<string, { logLevel: string; displayLevel: string }> = {};
    for (const name of [...names].sort(cmp)) {
      const levels = loggers.get(name);
      if (!levels) throw new RpcError(`logger with name ${goQuote(name)} not found`);
      out[name] = { logLevel: levels.logLevel, displayLevel: levels.displayLevel };
    }
    return out;
  };

  // ------------------------------------------------------------ HTTP entry point
  const handle: DevnetHandler = (req) => {
    const headers = { 'node-id': nodeId() };
    if (!hostAllowed(req.headers.host, allowedHosts)) {
      return text(403, 'invalid host specified\n', `${req.method} /ext (invalid host)`, { ...headers, 'x-content-type-options': 'nosniff' });
    }
    chains();
    // Header routing exists only for chain VMs, so it hides every /ext/... path.
    const kind = req.headers['avalanche-api-route'] === undefined ? http.lookup(safeDecode(req.path)) : undefined;
    const stamp = (r: DevnetResponse): DevnetResponse => ({ ...r, headers: { ...headers, ...r.headers } });
    switch (kind) {
      case 'info':
      case 'admin':
        return stamp(serveRpc(req, kind, `/ext/${kind}`, services[kind]));
      case 'health':
        if (req.method === 'GET') return stamp(healthGet(req, 'health', `GET /ext/health`));
        return stamp(serveRpc(req, 'health', '/ext/health', services.health));
      case 'health/health':
      case 'health/readiness':
      case 'health/liveness': {
        const which = kind.slice('health/'.length) as 'health' | 'readiness' | 'liveness';
        return stamp(healthGet(req, which, `${req.method} /ext/${kind}`));
      }
      default:
        return stamp(text(404, '404 page not found\n', `${req.method} (unmatched)`, { 'x-content-type-options': 'nosniff' }));
    }
  };

  const healthGet = (req: DevnetRequest, which: 'health' | 'readiness' | 'liveness', route: string): DevnetResponse => {
    const tags = req.query.getAll('tag');
    const report = healthReport(which, tags, now());
    return { status: report.healthy ? 200 : 503, body: `${JSON.stringify(report)}\n`, contentType: 'application/json', route };
  };

  return {
    handle,
    healthyAt: (t) => healthReport('health', undefined, t).healthy,
    state: () => {
      const all = chains();
      checks();
      return {
        nodeId: nodeId(),
        trackedSubnetIds: [...trackedSubnetIds],
        chains: all.map((c) => ({ blockchainId: c.blockchainId, subnetId: c.subnetId, vmId: c.vmId, primaryAlias: c.primaryAlias, aliases: [...c.aliases] })),
        httpAliases: http.aliases(),
        loggerLevels: Object.fromEntries([...loggers.entries()].map(([n, l]) => [n, { ...l }])),
        cpuProfilerRunning,
        loadVMsCalls,
        flappingCheck,
      };
    },
  };
}

// ---------------------------------------------------------------- routes (api/server/router.go)

/**
 * The node's route table: bases (`/ext/info`) with endpoints (``, `/readiness`)
 * and aliases. Aliases reserve their path; routes themselves are not reserved,
 * so aliasing onto an existing route fails while adding its endpoints.
 */
function createRouteTable() {
  const bases = new Map<string, Map<string, RouteKind>>();
  const flat = new Map<string, RouteKind>();
  const aliasesOf = new Map<string, string[]>();
  const reserved = new Map<string, string>();

  const forceAdd = (base: string, endpoint: string, kind: RouteKind): string | undefined => {
    let endpoints = bases.get(base);
    if (!endpoints) bases.set(base, (endpoints = new Map()));
    if (endpoints.has(endpoint)) return `failed to create endpoint as ${base}${endpoint} already exists`;
    endpoints.set(endpoint, kind);
    flat.set(base + endpoint, kind);
    let error: string | undefined;
    for (const alias of aliasesOf.get(base) ?? []) error ??= forceAdd(alias, endpoint, kind);
    return error;
  };

  return {
    addRoute(base: string, endpoint: string, kind: RouteKind): string | undefined {
      if (reserved.has(base)) return `route is either already aliased or already maps to a handle: ${base}`;
      return forceAdd(base, endpoint, kind);
    },
    addAlias(base: string, alias: string): string | undefined {
      if (reserved.has(alias)) return `route is either already aliased or already maps to a handle: ${alias}`;
      reserved.set(alias, base);
      aliasesOf.set(base, [...(aliasesOf.get(base) ?? []), alias]);
      const errors: string[] = [];
      for (const [endpoint, kind] of bases.get(base) ?? []) {
        const error = forceAdd(alias, endpoint, kind);
        if (error) errors.push(error);
      }
      // errors.Join: one message per line.
      return errors.length > 0 ? errors.join('\n') : undefined;
    },
    lookup: (path: string): RouteKind | undefined => flat.get(path),
    aliases: (): Record<string, string> => Object.fromEntries(reserved),
  };
}

// ---------------------------------------------------------------- JSON-RPC (gorilla/rpc v2 + json2, avalanchego codec)

type ParamKind = 'string' | 'strings' | 'nodeIDs' | 'level' | 'id';
type Args = Record<string, unknown>;
interface RpcMethod {
  params: Record<string, ParamKind>;
  call(args: Args): unknown;
}
const method = (params: Record<string, ParamKind>, call: (args: Args) => unknown): RpcMethod => ({ params, call });

interface Envelope {
  jsonrpc: string;
  method: string;
  /** Raw params; undefined when absent or null (a nil pointer in Go). */
  params: unknown;
  /** Raw id; undefined when absent or null, which makes the request a notification. */
  id: unknown;
}

function serveRpc(req: DevnetRequest, serviceName: 'info' | 'admin' | 'health', base: string, service: Record<string, RpcMethod>): DevnetResponse {
  const invalid = `${req.method} ${base} (invalid)`;
  if (req.method !== 'POST') return text(405, `rpc: POST method required, received ${req.method}`, invalid);
  const header = req.headers['content-type'] ?? '';
  const semicolon = header.indexOf(';');
  const contentType = semicolon === -1 ? header : header.slice(0, semicolon);
  if (contentType.toLowerCase() !== 'application/json') return text(415, `rpc: unrecognized Content-Type: ${contentType}`, invalid);

  const { envelope, parseError } = decodeEnvelope(req.body);
  const requestData = {
    jsonrpc: envelope.jsonrpc,
    method: envelope.method,
    params: envelope.params ?? null,
    id: envelope.id ?? null,
  };
  // A parse error is answered even without an id: the server cannot tell it was a notification.
  if (parseError !== undefined) return rpcAnswer(envelope.id ?? null, { error: new RpcError(parseError, -32700, requestData) }, invalid);
  if (envelope.jsonrpc !== '2.0') return rpcAnswer(envelope.id, { error: new RpcError('jsonrpc must be 2.0', -32600, requestData) }, invalid);

  const resolved = resolveMethod(envelope.method, serviceName, service);
  if (resolved instanceof RpcError) return rpcAnswer(envelope.id, { error: resolved }, invalid);
  const route = `POST ${serviceName}.${lowerFirst(resolved.goName)}`;

  let args: Args;
  try {
    args = decodeArgs(envelope.params, resolved.spec.params);
  } catch {
    return rpcAnswer(envelope.id, { error: new RpcError(UNMARSHAL_ERROR) }, route);
  }
  const headers = { 'x-content-type-options': 'nosniff' };
  try {
    return rpcAnswer(envelope.id, { result: resolved.spec.call(args) }, route, headers);
  } catch (error) {
    const rpcError = error instanceof RpcError ? error : new RpcError(error instanceof Error ? error.message : String(error));
    return rpcAnswer(envelope.id, { error: rpcError }, route, headers);
  }
}

function rpcAnswer(
  id: unknown,
  outcome: { result: unknown } | { error: RpcError },
  route: string,
  headers?: Record<string, string>,
): DevnetResponse {
  // JSON-RPC errors are HTTP 200 (json2's WriteError ignores the status), and a notification gets no body.
  if (id === undefined) return { status: 200, route, headers, contentType: 'application/json; charset=utf-8', body: '' };
  const payload =
    'result' in outcome
      ? { jsonrpc: '2.0', result: outcome.result, id }
      : { jsonrpc: '2.0', error: { code: outcome.error.code, message: outcome.error.message, data: outcome.error.data }, id };
  return { status: 200, route, headers, contentType: 'application/json; charset=utf-8', body: `${JSON.stringify(payload)}\n` };
}

/** Decodes the body as Go's `json.Decoder` decodes it into json2's serverRequest. */
function decodeEnvelope(body: string): { envelope: Envelope; parseError?: string } {
  const envelope: Envelope = { jsonrpc: '', method: '', params: undefined, id: undefined };
  const parsed = parseGoJson(body);
  if (!parsed.ok) return { envelope, parseError: parsed.message };
  const value = parsed.value;
  if (value === null) return { envelope };
  if (typeof value !== 'object' || Array.isArray(value)) {
    return { envelope, parseError: `json: cannot unmarshal ${goKind(value)} into Go value of type json2.serverRequest` };
  }
  let parseError: string | undefined;
  for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
    const field = key.toLowerCase();
    if (field === 'jsonrpc' || field === 'method') {
      if (raw === null) continue;
      if (typeof raw !== 'string') {
        parseError ??= `json: cannot unmarshal ${goKind(raw)} into Go struct field serverRequest.${field} of type string`;
        continue;
      }
      envelope[field] = raw;
    } else if (field === 'params') envelope.params = raw === null ? undefined : raw;
    else if (field === 'id') envelope.id = raw === null ? undefined : raw;
  }
  return { envelope, parseError };
}

/**
 * avalanchego's codec upper-cases the first letter of the method part (and
 * rejects one that is already upper case); gorilla then splits on dots and
 * looks the Go method up by exact name.
 */
function resolveMethod(
  name: string,
  serviceName: string,
  service: Record<string, RpcMethod>,
): { goName: string; spec: RpcMethod } | RpcError {
  let method = name;
  const dot = name.indexOf('.');
  if (dot !== -1) {
    const fn = name.slice(dot + 1);
    const first = String.fromCodePoint(fn.codePointAt(0) ?? 0);
    if (fn !== '') {
      if (first !== first.toLowerCase() && first === first.toUpperCase()) return new RpcError('method must start with a non-uppercase letter');
      const upper = first.toUpperCase();
      method = `${name.slice(0, dot)}.${upper.length === first.length ? upper : first}${fn.slice(first.length)}`;
    }
  }
  const parts = method.split('.');
  if (parts.length !== 2) return new RpcError(`rpc: service/method request ill-formed: ${goQuote(method)}`);
  const [svc, goName] = parts as [string, string];
  if (svc !== serviceName) return new RpcError(`rpc: can't find service ${goQuote(method)}`);
  const spec = Object.hasOwn(service, goName) ? service[goName] : undefined;
  if (!spec) return new RpcError(`rpc: can't find method ${goQuote(method)}`);
  return { goName, spec };
}

/**
 * Params as json2 reads them: an object by name, else a one-element array
 * (`[ {...} ]`); absent or null is fine. Field names match case-insensitively
 * and unknown fields are ignored, as in encoding/json. Any failure throws.
 */
function decodeArgs(raw: unknown, schema: Record<string, ParamKind>): Args {
  if (raw === undefined || raw === null) return {};
  if (Array.isArray(raw)) {
    const first: unknown = raw[0];
    if (first === undefined || first === null) return {};
    if (typeof first !== 'object' || Array.isArray(first)) throw new Error('unmarshal');
    return decodeObject(first as Record<string, unknown>, schema);
  }
  if (typeof raw !== 'object') throw new Error('unmarshal');
  return decodeObject(raw as Record<string, unknown>, schema);
}

function decodeObject(obj: Record<string, unknown>, schema: Record<string, ParamKind>): Args {
  const args: Args = {};
  const fields = Object.keys(schema);
  for (const [key, value] of Object.entries(obj)) {
    const field = fields.find((f) => f === key) ?? fields.find((f) => f.toLowerCase() === key.toLowerCase());
    if (field === undefined || value === null) continue;
    args[field] = decodeParam(schema[field] as ParamKind, value);
  }
  return args;
}

function decodeParam(kind: ParamKind, value: unknown): unknown {
  switch (kind) {
    case 'string':
      if (typeof value !== 'string') throw new Error('unmarshal');
      return value;
    case 'strings':
      if (!Array.isArray(value)) throw new Error('unmarshal');
      return value.map((v: unknown) => {
        if (v === null) return '';
        if (typeof v !== 'string') throw new Error('unmarshal');
        return v;
      });
    case 'nodeIDs':
      if (!Array.isArray(value)) throw new Error('unmarshal');
      return value.map((v: unknown) => {
        // A null element is the empty NodeID, which is never a peer.
        if (v === null) return '';
        if (typeof v !== 'string') throw new Error('unmarshal');
        nodeIdFromString(v);
        return v;
      });
    case 'level': {
      if (typeof value !== 'string') throw new Error('unmarshal');
      const level = value.toUpperCase();
      if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new Error(`unknown log level: ${value}`);
      return level;
    }
    case 'id':
      if (typeof value !== 'string') throw new Error('unmarshal');
      idFromString(value);
      return value;
  }
}

/** JSON.parse with Go's `json.Decoder` behaviour for trailing data and its error wording for the common cases. */
function parseGoJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  if (text.trim() === '') return { ok: false, message: 'EOF' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The decoder reads one value and leaves the rest of the stream alone.
    const trailing = /non-whitespace character after JSON at position (\d+)/.exec(message);
    if (trailing) {
      try {
        return { ok: true, value: JSON.parse(text.slice(0, Number(trailing[1]))) as unknown };
      } catch {
        // fall through to the generic message
      }
    }
    const position = /position (\d+)/.exec(message);
    const at = position ? Number(position[1]) : undefined;
    if (/end of JSON input|Unterminated string/i.test(message) || (at !== undefined && at >= text.trimEnd().length)) {
      return { ok: false, message: 'unexpected EOF' };
    }
    const token = /Unexpected token '?(.)/.exec(message)?.[1];
    const ch = token ?? (at !== undefined ? text[at] : undefined) ?? text.trimStart()[0] ?? '';
    return { ok: false, message: `invalid character ${goQuoteRune(ch)} looking for beginning of value` };
  }
}

// ---------------------------------------------------------------- ids (cb58, as ids/*.go and utils/cb58 decode them)

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58Decode(s: string): Buffer {
  if (s.length === 0) throw new Error('zero length string');
  let n = 0n;
  for (const ch of s) {
    const digit = BASE58_ALPHABET.indexOf(ch);
    if (digit < 0) throw new Error(`invalid base58 digit (${goQuoteRune(ch)})`);
    n = n * 58n + BigInt(digit);
  }
  let zeros = 0;
  while (s[zeros] === '1') zeros += 1;
  let hex = n === 0n ? '' : n.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex, 'hex')]);
}

function cb58Decode(s: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = base58Decode(s);
  } catch (error) {
    throw new RpcError(`base58 decoding error: ${(error as Error).message}`);
  }
  if (bytes.length < 4) throw new RpcError('input string is smaller than the checksum size');
  const raw = bytes.subarray(0, -4);
  const checksum = createHash('sha256').update(raw).digest().subarray(-4);
  if (!checksum.equals(bytes.subarray(-4))) throw new RpcError('invalid input checksum');
  return raw;
}

/** Validates a cb58 32-byte id (`ids.FromString`); throws the node's error message. */
function idFromString(s: string): string {
  const raw = cb58Decode(s);
  if (raw.length !== 32) throw new RpcError(`invalid hash length: expected 32 bytes but got ${raw.length}`);
  return s;
}

function nodeIdFromString(s: string): string {
  if (!s.startsWith('NodeID-')) throw new RpcError('missing the prefix: NodeID-');
  const raw = cb58Decode(s.slice('NodeID-'.length));
  if (raw.length !== 20) throw new RpcError(`expected 20 bytes but got ${raw.length}`);
  return s;
}

function decodeHex(s: string): Buffer {
  if (!s.startsWith('0x')) throw new RpcError('missing 0x prefix to hex encoding');
  const body = s.slice(2);
  const bad = /[^0-9a-fA-F]/.exec(body);
  if (bad) {
    const cp = bad[0].codePointAt(0) ?? 0;
    throw new RpcError(`encoding/hex: invalid byte: U+${cp.toString(16).toUpperCase().padStart(4, '0')} ${goQuoteRune(bad[0])}`);
  }
  if (body.length % 2 === 1) throw new RpcError('encoding/hex: odd length hex string');
  return Buffer.from(body, 'hex');
}

// ---------------------------------------------------------------- peers

function makePeerProfile(nodeId: string, networkLabel: string, subnetIds: readonly string[]): PeerProfile {
  const rng = new Rng(`peer/${networkLabel}/${nodeId}`);
  const hash = hashToUint32(`peer/${networkLabel}/${nodeId}`);
  const host = `${rng.int(3, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
  const publicIP = `${host}:9651`;
  // Inbound connections show the peer's ephemeral source port.
  const ip = rng.bool(0.4) ? `${host}:${rng.int(32_768, 60_999)}` : publicIP;
  let roll = rng.next();
  let version = PEER_VERSIONS[0]?.[0] ?? NODE_VERSION;
  for (const [v, share] of PEER_VERSIONS) {
    if (roll < share) {
      version = v;
      break;
    }
    roll -= share;
  }
  const observedUptime = rng.bool(0.8) ? '100' : String(rng.int(88, 99));
  const tracked = new Set<string>();
  if (subnetIds.length > 0 && rng.bool(0.25)) {
    const count = rng.int(1, Math.min(3, subnetIds.length));
    for (let i = 0; i < count; i++) tracked.add(rng.pick(subnetIds));
  }
  const supported = new Set<number>();
  if (rng.bool(0.35)) {
    const count = rng.int(1, 3);
    for (let i = 0; i < count; i++) supported.add(rng.bool(0.8) ? rng.pick(HOT_ACPS) : rng.pick(ACP_NUMBERS));
  }
  const objected = new Set<number>();
  if (rng.bool(0.06)) {
    const n = rng.pick(ACP_NUMBERS);
    if (!supported.has(n)) objected.add(n);
  }
  const benched = rng.bool(0.02) ? [rng.pick(['C', 'X', 'P'])] : [];
  // Stake: 2,000 AVAX minimum, a long tail up to about 2.2M AVAX (in nAVAX).
  const weight = BigInt(Math.floor(2_000 * Math.exp(rng.next() * 7))) * 1_000_000_000n;
  return {
    nodeId,
    ip,
    publicIP,
    version,
    observedUptime,
    trackedSubnets: [...tracked].sort(cmp),
    // Sets marshal sorted by their JSON bytes, so numbers sort as strings.
    supportedACPs: [...supported].sort((a, b) => cmp(String(a), String(b))),
    objectedACPs: [...objected].sort((a, b) => cmp(String(a), String(b))),
    benched,
    weight,
    connected: hash % 1000 >= 30,
    hash,
  };
}

// ---------------------------------------------------------------- small helpers

function text(status: number, body: string, route: string, headers?: Record<string, string>): DevnetResponse {
  return { status, body, route, contentType: 'text/plain; charset=utf-8', headers };
}

function hostAllowed(hostHeader: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (allowed.has('*')) return true;
  const raw = hostHeader ?? '';
  let host = raw;
  const bracket = /^\[([^\]]*)\](?::\d*)?$/.exec(raw);
  if (bracket) host = bracket[1] ?? '';
  else if (/^[^:]*:\d*$/.test(raw)) host = raw.slice(0, raw.lastIndexOf(':'));
  if (host === '' || isIp(host)) return true;
  return allowed.has(host.toLowerCase());
}

function isIp(host: string): boolean {
  return /^(\d{1,3})(\.\d{1,3}){3}$/.test(host) || (host.includes(':') && /^[0-9a-fA-F:.]+$/.test(host));
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Go's path.Join: joined, cleaned, no trailing slash. */
function goPathJoin(...parts: string[]): string {
  const joined = posix.normalize(parts.filter((p) => p !== '').join('/'));
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Go's %q for strings (close enough: JSON escaping). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Go's %q for a rune. */
function goQuoteRune(ch: string): string {
  if (ch === "'") return "'\\''";
  if (ch === '\\') return "'\\\\'";
  const json = JSON.stringify(ch).slice(1, -1);
  return `'${json.replace(/\\"/g, '"')}'`;
}

function goKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value; // number, string, object
}

/** A cheap deterministic 32-bit mix of two integers. */
function mix(a: number, b: number): number {
  let h = (Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b | 0, 0xc2b2ae35)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d) >>> 0;
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

/** Compressed BLS point bytes: the compression flag set, the infinity flag clear. */
function blsBytes(rng: Rng, length: number): string {
  const hex = rng.hex(length);
  const first = (0x80 | (parseInt(hex.slice(0, 2), 16) & 0x3f)).toString(16).padStart(2, '0');
  return first + hex.slice(2);
}

/** RFC 3339 with nanoseconds, trailing zeros trimmed (Go's time.RFC3339Nano), in UTC. */
export function rfc3339Nano(ms: number, extraNs = 0): string {
  const whole = Math.floor(ms);
  const base = new Date(whole).toISOString().slice(0, 19);
  const nanos = (((whole % 1000) + 1000) % 1000) * 1_000_000 + Math.floor(extraNs);
  const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${base}${fraction}Z`;
}

/** Go's time.Duration.String(). */
export function goDuration(ns: number): string {
  const n = Math.floor(ns);
  if (n === 0) return '0s';
  if (n < 1_000) return `${n}ns`;
  const decimal = (value: number, unit: number): string => {
    const whole = Math.floor(value / unit);
    const rest = value % unit;
    if (rest === 0) return String(whole);
    const digits = String(unit).length - 1;
    return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
  };
  if (n < 1_000_000) return `${decimal(n, 1_000)}µs`;
  if (n < 1_000_000_000) return `${decimal(n, 1_000_000)}ms`;
  const hours = Math.floor(n / 3_600_000_000_000);
  const minutes = Math.floor((n % 3_600_000_000_000) / 60_000_000_000);
  const seconds = decimal(n % 60_000_000_000, 1_000_000_000);
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
