// The node's peers: the network's active validators, each with a profile
// (address, version, ACP votes, stake, connected or not) derived from its node
// id and the network alone, so every simulated node on a network describes a
// given peer the same way. info.peers, info.acps and the health checks read it.
import { hashToUint32, Rng } from '../rng.ts';
import { NODE_VERSION, PRIMARY_NETWORK_ID } from './facts.ts';
import { cmp, rfc3339Nano } from './go.ts';
import { mix, type NodeState } from './state.ts';

/** Proposals peers vote on; the later ones get most of the votes. */
const ACP_NUMBERS = [23, 24, 25, 30, 31, 41, 62, 77, 103, 118, 125, 176, 181, 194, 204, 209, 224, 226];
const HOT_ACPS = [176, 181, 194, 204, 209, 224, 226];
const PEER_VERSIONS: ReadonlyArray<[string, number]> = [
  ['avalanchego/1.14.2', 0.7],
  ['avalanchego/1.14.1', 0.2],
  ['avalanchego/1.14.0', 0.07],
  ['avalanchego/1.13.5', 0.03],
];

export interface PeerProfile {
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

export interface Peers {
  /** Validators other than the node itself that it is connected to, in the view's order. */
  connected(): readonly PeerProfile[];
  /** The same peers by node id. */
  connectedById(): ReadonlyMap<string, PeerProfile>;
  /** A peer as `info.peers` reports it at time `t` (ms). */
  wire(p: PeerProfile, t: number): Record<string, unknown>;
  /** Share of primary-network stake this node is connected to (itself included). */
  connectedStake(): number;
}

export function createPeers(node: NodeState): Peers {
  const { network, view, seed, facts, nodeId } = node;
  const profiles = new Map<string, PeerProfile>();
  const profileOf = (id: string): PeerProfile => {
    let profile = profiles.get(id);
    if (!profile) {
      profile = makePeerProfile(id, `${seed}/${network}`, view.subnetIds(network).filter((s) => s !== PRIMARY_NETWORK_ID));
      profiles.set(id, profile);
    }
    return profile;
  };
  // Rebuilt only when the view hands out a different validator list or the node's id changes.
  let connectedCache: { list: readonly string[]; self: string; peers: readonly PeerProfile[]; byId: ReadonlyMap<string, PeerProfile> } | undefined;
  const connectedOnce = (): NonNullable<typeof connectedCache> => {
    const list = view.activeValidatorNodeIds(network);
    const self = nodeId();
    if (connectedCache?.list !== list || connectedCache.self !== self) {
      const peers: PeerProfile[] = [];
      for (const id of list) {
        if (id === self) continue;
        const profile = profileOf(id);
        if (profile.connected) peers.push(profile);
      }
      connectedCache = { list, self, peers, byId: new Map(peers.map((p) => [p.nodeId, p] as const)) };
    }
    return connectedCache;
  };
  const upgradeTime = Math.floor(Date.parse(String(facts.upgrades.graniteTime)) / 1000);
  const peerWire = (p: PeerProfile, t: number): Record<string, unknown> => {
    const second = Math.floor(t / 1000);
    const sentAgo = mix(p.hash, second) % 2_500;
    const receivedAgo = mix(p.hash ^ 0x5bd1e995, second) % 2_500;
    return {
      ip: p.ip,
      publicIP: p.publicIP,
      nodeID: p.nodeId,
      version: p.version,
      upgradeTime,
      lastSent: rfc3339Nano(Math.floor(t) - sentAgo, mix(p.hash, second + 1) % 1_000_000),
      lastReceived: rfc3339Nano(Math.floor(t) - receivedAgo, mix(p.hash, second + 2) % 1_000_000),
      observedUptime: p.observedUptime,
      trackedSubnets: p.trackedSubnets,
      supportedACPs: p.supportedACPs,
      objectedACPs: p.objectedACPs,
      benched: p.benched,
    };
  };

  // Recomputed only when the view hands out a different validator list.
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

  return { connected: () => connectedOnce().peers, connectedById: () => connectedOnce().byId, wire: peerWire, connectedStake };
}

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
