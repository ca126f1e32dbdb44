// The info API (`/ext/info`): what the node says about itself and its network
// (ids, versions, fees, upgrades, VMs), its peers and their ACP votes, and its
// uptime. Read-only: every answer derives from the facts, the seed, the view
// and the clock.
import { hashToUint32 } from '../rng.ts';
import { FX_NAMES, GIT_COMMIT, NODE_VERSION, PRIMARY_NETWORK_ID } from './facts.ts';
import { cmp } from './go.ts';
import { idFromName } from './ids.ts';
import type { PeerProfile, Peers } from './peers.ts';
import { method, RpcError, str, type RpcService } from './rpc.ts';
import { mix, type NodeState } from './state.ts';

export function createInfoService(node: NodeState, peers: Peers): RpcService {
  const { network, view, facts, label, now, blsPublicKey, blsProof, nodeIp, vms, nodeId, chains, lookupChain, trackedSubnetIds } = node;
  const { connected: connectedPeers, connectedById, wire: peerWire } = peers;
  return {
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
      let selected: readonly PeerProfile[];
      if (!wanted || wanted.length === 0) selected = connectedPeers();
      else {
        const byId = connectedById();
        // The node looks each requested id up in turn, so order and repeats follow the request.
        selected = wanted.flatMap((id) => byId.get(id) ?? []);
      }
      return { numPeers: String(selected.length), peers: selected.map((p) => peerWire(p, t)) };
    }),
    Uptime: method({ subnetID: 'id' }, (args) => {
      const subnetId = (args.subnetID as string | undefined) ?? PRIMARY_NETWORK_ID;
      chains();
      if (subnetId !== PRIMARY_NETWORK_ID && !trackedSubnetIds().includes(subnetId)) {
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
  };
}
