// The node's shared state, derived from the options: its identity, and the
// chains it runs with everything keyed by them (chain aliases, HTTP routes,
// loggers, VMs). The chain list is built from the dataset view on first use
// and seeds all of those at once, so they live together here; the API modules
// read and change them through NodeState rather than owning copies.
import type { DevnetBlockchain, DevnetNetwork, NodeDataView } from '../node-view.ts';
import { hashToUint32, Rng } from '../rng.ts';
import { NETWORKS, PRIMARY_NETWORK_ID, VM_IDS, type NetworkFacts } from './facts.ts';
import { cmp } from './go.ts';
import type { LogLevel } from './rpc.ts';
import { createNodeRoutes, type RouteTable } from './transport.ts';

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

/** A chain the node runs. */
export interface ChainState {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  /** Logger and health-check name: the first alias, or the id when the chain has none. */
  primaryAlias: string;
  /** What `admin.getChainAliases` answers, in order; `admin.aliasChain` appends to it. */
  aliases: string[];
  /** Which consensus figures the chain reports. */
  kind: 'P' | 'X' | 'C' | 'subnet';
}

export interface LoggerLevels {
  logLevel: LogLevel;
  displayLevel: LogLevel;
}

export interface NodeState {
  readonly network: DevnetNetwork;
  readonly view: NodeDataView;
  readonly seed: number;
  readonly now: () => number;
  readonly facts: NetworkFacts;
  /** Seed, network and node name: the prefix of every value derived for this node. */
  readonly label: string;
  readonly adminEnabled: boolean;
  readonly blsPublicKey: string;
  readonly blsProof: string;
  readonly nodeIp: string;
  readonly routes: RouteTable;
  /** Chain alias (the id included) -> blockchain id. */
  readonly dealias: Map<string, string>;
  readonly chainsById: ReadonlyMap<string, ChainState>;
  readonly loggers: Map<string, LoggerLevels>;
  /** VM id -> its aliases. */
  readonly vms: Map<string, string[]>;
  /** One of the network's validators, picked on first use. */
  nodeId(): string;
  /** The chains, built (with their aliases, routes, loggers and VMs) on first use. */
  chains(): ChainState[];
  lookupChain(alias: string): ChainState | undefined;
  /** Set when the chains are built; empty before. */
  trackedSubnetIds(): readonly string[];
}

export function createNodeState(opts: NodeSimulatorOptions): NodeState {
  const { network, view, seed, now } = opts;
  const facts = NETWORKS[network];
  const label = `${seed}/${network}/${opts.name}`;
  const adminEnabled = opts.adminEnabled ?? true;
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

  const routes = createNodeRoutes(adminEnabled);

  // ------------------------------------------------------------ chains, aliases, loggers, VMs
  let chainsCache: ChainState[] | undefined;
  const dealias = new Map<string, string>();
  const chainsById = new Map<string, ChainState>();
  const loggers = new Map<string, LoggerLevels>();
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
      for (const endpoint of chain.kind === 'C' || chain.kind === 'subnet' ? ['/rpc', '/ws'] : ['']) routes.addRoute(base, endpoint, 'chain');
      for (const alias of chain.aliases) if (alias !== chain.blockchainId) routes.addAlias(base, `/ext/bc/${alias}`);
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

  return {
    network,
    view,
    seed,
    now,
    facts,
    label,
    adminEnabled,
    blsPublicKey,
    blsProof,
    nodeIp,
    routes,
    dealias,
    chainsById,
    loggers,
    vms,
    nodeId,
    chains,
    lookupChain,
    trackedSubnetIds: () => trackedSubnetIds,
  };
}

/**
 * A cheap deterministic 32-bit mix of two integers: figures that change over
 * time (per second, health run or hour) stay a function of the seed with it.
 */
export function mix(a: number, b: number): number {
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
