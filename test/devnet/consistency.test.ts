import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';

/**
 * Cross-resource consistency of the devnet, read over HTTP only: delegations
 * point at validations, rewards at stakes, peers and block proposers are
 * validators, EVM chains and subnet blockchains describe each other, ICM
 * messages travel between chains that exist, and the dataset is a function of
 * its seed. Each test collects every inconsistency before failing.
 */

type Json = Record<string, unknown>;
type Network = 'mainnet' | 'fuji';
const NETWORKS: readonly Network[] = ['mainnet', 'fuji'];
const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

interface Validator {
  txHash: string;
  nodeId: string;
  subnetId: string;
  amountStaked: string;
  delegationFee?: string;
  startTimestamp: number;
  endTimestamp: number;
  delegatorCount?: number;
  rewards?: { rewardAddresses?: string[] };
  validationStatus: string;
}

interface Delegator {
  txHash: string;
  nodeId: string;
  rewardAddresses: string[];
  amountDelegated: string;
  delegationFee: string;
  startTimestamp: number;
  endTimestamp: number;
  delegationStatus: string;
}

interface Reward {
  addresses: string[];
  txHash: string;
  amountStaked: string;
  nodeId: string;
  startTimestamp: number;
  endTimestamp: number;
  rewardType: string;
}

interface NetworkFixtures {
  nodeId: string;
  busyNodeId: string;
  completedNodeId: string;
  revalidatedNodeId: string;
  pendingNodeId: string;
  icmAddress: string;
}

interface NetworkData {
  validators: Validator[];
  validatorByTx: Map<string, Validator>;
  /** Primary-network validations by node id, oldest first: a node may have validated several times. */
  primaryByNode: Map<string, Validator[]>;
  delegators: Delegator[];
  delegatorByTx: Map<string, Delegator>;
}

let devnet: Devnet;
let fixtures: Record<Network, NetworkFixtures>;
const data = {} as Record<Network, NetworkData>;

// ---------------------------------------------------------------- helpers

async function getOk(base: string, path: string): Promise<Json> {
  const res = await fetch(`${base}${path}`);
  const body = (await res.json()) as Json;
  expect(res.status, `GET ${path}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  return body;
}

/** Every item of a list endpoint, following nextPageToken. */
async function all<T>(path: string, key: string, base = devnet.url): Promise<T[]> {
  const out: T[] = [];
  const sep = path.includes('?') ? '&' : '?';
  let token: string | undefined;
  for (let pages = 0; ; pages++) {
    expect(pages, `${path} pages`).toBeLessThan(500);
    const body = await getOk(base, `${path}${sep}pageSize=100${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    out.push(...((body[key] ?? []) as T[]));
    token = body.nextPageToken as string | undefined;
    if (!token) return out;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Validators with exactly these node ids, through E8's (substring-matching) `nodeIds` filter. */
async function validatorsByNodeIds(network: Network, nodeIds: readonly string[]): Promise<Validator[]> {
  const wanted = new Set(nodeIds);
  const out: Validator[] = [];
  for (const part of chunks(nodeIds, 40)) {
    const found = await all<Validator>(`/v1/networks/${network}/validators?nodeIds=${encodeURIComponent(part.join(','))}`, 'validators');
    out.push(...found.filter((v) => wanted.has(v.nodeId)));
  }
  return out;
}

/** The node's validation whose period holds `at`: one at most, since a node's validations never overlap. */
function validationAt(own: readonly Validator[] | undefined, at: number): Validator | undefined {
  return own?.find((v) => v.startTimestamp <= at && at <= v.endTimestamp);
}

async function delegatorsOf(network: Network, nodeId: string): Promise<Delegator[]> {
  const found = await all<Delegator>(`/v1/networks/${network}/delegators?nodeIds=${encodeURIComponent(nodeId)}`, 'delegators');
  return found.filter((d) => d.nodeId === nodeId);
}

async function rpc(url: string, method: string, params: Json = {}): Promise<Json> {
  const res = await fetch(`${url}/ext/${method.slice(0, method.indexOf('.'))}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as Json;
  expect(body.error, method).toBeUndefined();
  return body.result as Json;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Collects inconsistencies; fails once with all of them (the first 40, and how many more). */
class Problems {
  readonly lines: string[] = [];
  add(line: string): void {
    this.lines.push(line);
  }
  expectNone(): void {
    const shown = this.lines.slice(0, 40);
    if (this.lines.length > shown.length) shown.push(`... and ${this.lines.length - shown.length} more`);
    expect(shown).toEqual([]);
  }
}

beforeAll(async () => {
  // Staking held still at the start, so listings read over many pages see the same records (a live
  // delegation joining between two pages would be listed twice, and counted where it is not yet).
  const start = Date.now();
  devnet = await startDevnet({ validators: 400, stakingNow: () => start });
  fixtures = (await getOk(devnet.url, '/__devnet/fixtures')) as unknown as Record<Network, NetworkFixtures>;
  await Promise.all(
    NETWORKS.map(async (network) => {
      const [validators, delegators] = await Promise.all([
        all<Validator>(`/v1/networks/${network}/validators`, 'validators'),
        all<Delegator>(`/v1/networks/${network}/delegators`, 'delegators'),
      ]);
      const primaryByNode = new Map<string, Validator[]>();
      for (const v of validators) {
        if (v.subnetId === PRIMARY_NETWORK_ID) primaryByNode.set(v.nodeId, [...(primaryByNode.get(v.nodeId) ?? []), v]);
      }
      for (const own of primaryByNode.values()) own.sort((a, b) => a.startTimestamp - b.startTimestamp);
      data[network] = {
        validators,
        validatorByTx: new Map(validators.map((v) => [v.txHash, v])),
        primaryByNode,
        delegators,
        delegatorByTx: new Map(delegators.map((d) => [d.txHash, d])),
      };
    }),
  );
});

afterAll(async () => {
  await devnet?.close();
});

// ---------------------------------------------------------------- staking

describe('staking', () => {
  it('lists every validation and delegation once (no duplicate tx hashes across pages)', () => {
    for (const network of NETWORKS) {
      const d = data[network];
      expect(d.validators.length, `${network} validators`).toBe(400);
      expect(d.validatorByTx.size, `${network} distinct validation txs`).toBe(d.validators.length);
      expect(d.delegators.length, `${network} delegators`).toBeGreaterThan(100);
      expect(d.delegatorByTx.size, `${network} distinct delegation txs`).toBe(d.delegators.length);
    }
  });

  it('about a third of the primary-network nodes validated several times, and no node\'s validations overlap', () => {
    for (const network of NETWORKS) {
      const nodes = [...data[network].primaryByNode.values()];
      const several = nodes.filter((own) => own.length > 1);
      expect(several.length / nodes.length, `${network} share of re-validating nodes`).toBeGreaterThan(0.25);
      expect(several.length / nodes.length, `${network} share of re-validating nodes`).toBeLessThan(0.5);
      for (const own of several) {
        own.slice(1).forEach((v, k) => expect(v.startTimestamp, `${network} ${v.nodeId}`).toBeGreaterThan((own[k] as Validator).endTimestamp));
        // Only the latest can still be running: the earlier ones completed.
        for (const v of own.slice(0, -1)) expect(v.validationStatus).toBe('completed');
      }
      // Delegations in an earlier validation too, not only in the current ones.
      const earlierWithDelegators = several.filter((own) => own.slice(0, -1).some((v) => (v.delegatorCount ?? 0) > 0));
      expect(earlierWithDelegators.length, network).toBeGreaterThan(5);
    }
  });

  it("every delegator's nodeId has a primary-network validation (E13 all pages vs E8 nodeIds) whose period holds it and whose status fits", async () => {
    const p = new Problems();
    // Which validator states allow a delegation in each state.
    const allowed: Record<string, readonly string[]> = {
      active: ['active'],
      pending: ['active', 'pending'],
      completed: ['active', 'completed'],
    };
    for (const network of NETWORKS) {
      const nodeIds = [...new Set(data[network].delegators.map((d) => d.nodeId))];
      const found = new Map<string, Validator[]>();
      for (const v of await validatorsByNodeIds(network, nodeIds)) {
        if (v.subnetId === PRIMARY_NETWORK_ID) found.set(v.nodeId, [...(found.get(v.nodeId) ?? []), v]);
      }
      for (const d of data[network].delegators) {
        const label = `${network} delegation ${d.txHash} (${d.delegationStatus}) to ${d.nodeId}`;
        if (!found.has(d.nodeId)) {
          p.add(`${label}: no primary-network validator with that node id`);
          continue;
        }
        const v = validationAt(found.get(d.nodeId), d.startTimestamp);
        if (!v) {
          p.add(`${label}: starts at ${d.startTimestamp}, in none of the node's validations`);
          continue;
        }
        if (d.startTimestamp < v.startTimestamp || d.endTimestamp > v.endTimestamp) {
          p.add(`${label}: [${d.startTimestamp}, ${d.endTimestamp}] outside the validation [${v.startTimestamp}, ${v.endTimestamp}]`);
        }
        if (v.delegationFee !== undefined && d.delegationFee !== v.delegationFee) {
          p.add(`${label}: delegationFee ${d.delegationFee} != the validator's ${v.delegationFee}`);
        }
        if (!(allowed[d.delegationStatus] ?? []).includes(v.validationStatus)) {
          p.add(`${label}: the validator is ${v.validationStatus}`);
        }
      }
    }
    p.expectNone();
  });

  it("a node's delegatorCounts add up to its delegators by E13 nodeIds (sample of 30 per network, with the busiest), and each validation's to the delegations in its period", async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const primary = data[network].validators.filter((v) => v.subnetId === PRIMARY_NETWORK_ID);
      const named = [fx.busyNodeId, fx.nodeId, fx.completedNodeId, fx.pendingNodeId, fx.revalidatedNodeId];
      const step = Math.max(1, Math.floor(primary.length / 26));
      const sample = [...new Set([...named, ...primary.filter((_, i) => i % step === 0).map((v) => v.nodeId)])].slice(0, 30);
      expect(sample.length).toBe(30);
      const byNode = data[network].primaryByNode;
      const counts = await Promise.all(sample.map(async (nodeId) => [nodeId, (await delegatorsOf(network, nodeId)).length] as const));
      for (const [nodeId, listed] of counts) {
        const own = byNode.get(nodeId);
        // The listing by node holds the delegations of every time the node validated.
        const total = own?.reduce((n, v) => n + (v.delegatorCount ?? 0), 0);
        if (!own) p.add(`${network} ${nodeId}: sampled node id is not a primary validator`);
        else if (total !== listed) p.add(`${network} ${nodeId} (${own.length} validations): delegatorCounts add up to ${String(total)}, E13 lists ${listed}`);
      }
      if (network === 'mainnet') {
        const busy = counts.find(([id]) => id === fx.busyNodeId)?.[1] ?? 0;
        expect(busy, `mainnet busyNodeId ${fx.busyNodeId} delegators`).toBeGreaterThan(300);
      }
      const tally = new Map<string, number>();
      for (const d of data[network].delegators) {
        const v = validationAt(byNode.get(d.nodeId), d.startTimestamp);
        if (v) tally.set(v.txHash, (tally.get(v.txHash) ?? 0) + 1);
      }
      for (const v of data[network].validators) {
        const listed = tally.get(v.txHash) ?? 0;
        if (v.delegatorCount !== undefined && v.delegatorCount !== listed) {
          p.add(`${network} ${v.nodeId} (${v.validationStatus}, ${v.subnetId === PRIMARY_NETWORK_ID ? 'primary' : 'subnet'}): delegatorCount ${v.delegatorCount}, all E13 pages hold ${listed}`);
        }
      }
    }
    p.expectNone();
  });

  it('every historical and pending reward ties to an existing delegation or validation (txHash, nodeId, amount, period, reward addresses)', async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      const d = data[network];
      const nodeIds = [...d.primaryByNode.keys()];
      const historical: Reward[] = [];
      const pending: Reward[] = [];
      for (const part of chunks(nodeIds, 40)) {
        const ids = encodeURIComponent(part.join(','));
        historical.push(...(await all<Reward>(`/v1/networks/${network}/rewards?nodeIds=${ids}`, 'historicalRewards')));
        pending.push(...(await all<Reward>(`/v1/networks/${network}/rewards:listPending?nodeIds=${ids}`, 'pendingRewards')));
      }
      expect(historical.length, `${network} historical rewards`).toBeGreaterThan(0);
      expect(pending.length, `${network} pending rewards`).toBeGreaterThan(0);

      const tie = (r: Reward, kind: 'historical' | 'pending'): void => {
        const label = `${network} ${kind} ${r.rewardType} reward ${r.txHash}`;
        const validation = d.validatorByTx.get(r.txHash);
        const delegation = d.delegatorByTx.get(r.txHash);
        if (!validation && !delegation) {
          p.add(`${label}: no validation or delegation has this txHash`);
          return;
        }
        const stake = validation
          ? { nodeId: validation.nodeId, amount: validation.amountStaked, start: validation.startTimestamp, end: validation.endTimestamp, status: validation.validationStatus }
          : { nodeId: delegation!.nodeId, amount: delegation!.amountDelegated, start: delegation!.startTimestamp, end: delegation!.endTimestamp, status: delegation!.delegationStatus };
        if (r.rewardType === 'VALIDATOR' && !validation) p.add(`${label}: a VALIDATOR reward for a delegation`);
        if (r.rewardType !== 'VALIDATOR' && !delegation) p.add(`${label}: a ${r.rewardType} reward for a validation`);
        if (r.nodeId !== stake.nodeId) p.add(`${label}: nodeId ${r.nodeId} != the stake's ${stake.nodeId}`);
        if (r.amountStaked !== stake.amount) p.add(`${label}: amountStaked ${r.amountStaked} != the stake's ${stake.amount}`);
        if (r.startTimestamp !== stake.start || r.endTimestamp !== stake.end) {
          p.add(`${label}: period [${r.startTimestamp}, ${r.endTimestamp}] != the stake's [${stake.start}, ${stake.end}]`);
        }
        const okStatus = kind === 'historical' ? ['completed'] : ['active', 'pending'];
        if (!okStatus.includes(stake.status)) p.add(`${label}: the stake is ${stake.status}`);
        // Delegators are paid to their own addresses; the validator and its fee to the validation's.
        const paidValidation = validation ?? validationAt(d.primaryByNode.get(stake.nodeId), stake.start);
        const owner = r.rewardType === 'DELEGATOR' ? delegation?.rewardAddresses : paidValidation?.rewards?.rewardAddresses;
        if (owner && [...r.addresses].sort().join() !== [...owner].sort().join()) {
          p.add(`${label}: addresses ${r.addresses.join()} != ${owner.join()}`);
        }
      };
      for (const r of historical) tie(r, 'historical');
      for (const r of pending) tie(r, 'pending');
    }
    p.expectNone();
  });

  it('mainnet active primary validators: delegator counts have median >= 5 and max > 300', () => {
    const counts = data.mainnet.validators
      .filter((v) => v.subnetId === PRIMARY_NETWORK_ID && v.validationStatus === 'active')
      .map((v) => v.delegatorCount ?? 0);
    expect(counts.length).toBeGreaterThan(50);
    expect(median(counts)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...counts)).toBeGreaterThan(300);
  });
});

// ---------------------------------------------------------------- node, chains, blocks, ICM

describe('node, chains, blocks and ICM', () => {
  it('every info.peers nodeID (both nodes) is an active primary validator of that network', async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      const url = devnet.nodeUrls[network] as string;
      const result = await rpc(url, 'info.peers');
      const peers = (result.peers ?? []) as { nodeID: string }[];
      expect(peers.length, `${network} peers`).toBeGreaterThan(10);
      for (const peer of peers) {
        const own = data[network].primaryByNode.get(peer.nodeID);
        if (!own) p.add(`${network} peer ${peer.nodeID}: not a primary validator of ${network}`);
        else if (!own.some((v) => v.validationStatus === 'active')) p.add(`${network} peer ${peer.nodeID}: no active validation (${own.map((v) => v.validationStatus).join()})`);
      }
    }
    p.expectNone();
  });

  it('E17 EVM chains and E7 subnet blockchains describe each other (platformChainId, evmChainId, subnetId, vmId)', async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      const chains = ((await getOk(devnet.url, `/v1/chains?network=${network}`)).chains ?? []) as Json[];
      const subnets = await all<Json>(`/v1/networks/${network}/subnets`, 'subnets');
      const blockchains: Json[] = subnets.flatMap((s) => ((s.blockchains ?? []) as Json[]).map((b): Json => ({ ...b, parentSubnet: s.subnetId })));
      for (const c of chains) {
        if (c.subnetId === undefined) continue;
        const b = blockchains.find((x) => x.blockchainId === c.platformChainId);
        const label = `${network} E17 chain ${String(c.chainId)} (${String(c.chainName)})`;
        if (!b) {
          p.add(`${label}: platformChainId ${String(c.platformChainId)} is no blockchain of E7`);
          continue;
        }
        if (b.parentSubnet !== c.subnetId) p.add(`${label}: subnetId ${String(c.subnetId)}, but E7 lists its blockchain under ${String(b.parentSubnet)}`);
        if (b.subnetId !== c.subnetId) p.add(`${label}: subnetId ${String(c.subnetId)} != blockchain.subnetId ${String(b.subnetId)}`);
        if (String(b.evmChainId) !== c.chainId) p.add(`${label}: E7 evmChainId ${String(b.evmChainId)} != chainId ${String(c.chainId)}`);
        if (c.vmId !== undefined && b.vmId !== c.vmId) p.add(`${label}: vmId ${String(c.vmId)} != E7 ${String(b.vmId)}`);
      }
      for (const b of blockchains) {
        if (b.evmChainId === undefined) continue;
        const c = chains.find((x) => x.chainId === String(b.evmChainId));
        const label = `${network} E7 blockchain ${String(b.blockchainId)} (${String(b.blockchainName)}, evm ${String(b.evmChainId)})`;
        if (!c) p.add(`${label}: no E17 chain with that chainId`);
        else if (c.platformChainId !== b.blockchainId || c.subnetId !== b.parentSubnet) {
          p.add(`${label}: E17 says platformChainId ${String(c.platformChainId)}, subnetId ${String(c.subnetId)}`);
        }
      }
    }
    p.expectNone();
  });

  it("P-, X- and C-chain blocks' proposerNodeId are active primary validators", async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      for (const chain of ['p-chain', 'x-chain', 'c-chain']) {
        const body = await getOk(devnet.url, `/v1/networks/${network}/blockchains/${chain}/blocks?pageSize=100`);
        const blocks = (body.blocks ?? []) as { blockNumber: string; proposerDetails?: { proposerNodeId?: string } }[];
        expect(blocks.length).toBe(100);
        for (const b of blocks) {
          const nodeId = b.proposerDetails?.proposerNodeId;
          if (nodeId === undefined) {
            if (chain === 'p-chain') p.add(`${network} ${chain} block ${b.blockNumber}: no proposerNodeId`);
            continue;
          }
          const own = data[network].primaryByNode.get(nodeId);
          if (!own) p.add(`${network} ${chain} block ${b.blockNumber}: proposer ${nodeId} is no primary validator of ${network}`);
          else if (!own.some((v) => v.validationStatus === 'active')) p.add(`${network} ${chain} block ${b.blockNumber}: proposer ${nodeId} has no active validation`);
        }
      }
    }
    p.expectNone();
  });

  it("ICM messages' source and destination blockchains are chains of the dataset, with matching EVM chain ids", async () => {
    const p = new Problems();
    for (const network of NETWORKS) {
      const chains = ((await getOk(devnet.url, `/v1/chains?network=${network}`)).chains ?? []) as Json[];
      const evmIdOf = new Map(chains.map((c) => [String(c.platformChainId), String(c.chainId)]));
      const subnets = await all<Json>(`/v1/networks/${network}/subnets`, 'subnets');
      const blockchains = new Set(subnets.flatMap((s) => ((s.blockchains ?? []) as Json[]).map((b) => String(b.blockchainId))));
      const messages = await all<Json>(`/v1/icm/addresses/${fixtures[network].icmAddress}/messages?network=${network}`, 'messages');
      expect(messages.length, `${network} ICM messages`).toBeGreaterThan(0);
      for (const m of messages) {
        const label = `${network} ICM ${String(m.messageId).slice(0, 16)}`;
        for (const side of ['source', 'destination'] as const) {
          const id = String(m[`${side}BlockchainId`]);
          const evm = String(m[`${side}EvmChainId`]);
          if (!blockchains.has(id)) p.add(`${label}: ${side}BlockchainId ${id} is no blockchain of ${network} (E7)`);
          const listed = evmIdOf.get(id);
          if (listed === undefined) p.add(`${label}: ${side}BlockchainId ${id} is no E17 chain of ${network}`);
          else if (listed !== evm) p.add(`${label}: ${side}EvmChainId ${evm} != E17 chainId ${listed} of ${id}`);
        }
        if (m.sourceBlockchainId === m.destinationBlockchainId) p.add(`${label}: source and destination are the same chain`);
      }
    }
    p.expectNone();
  });
});

// ---------------------------------------------------------------- determinism

describe('determinism', () => {
  it('two devnets with the same seed serve identical first pages; another seed serves different data', async () => {
    const now = Date.UTC(2026, 1, 1, 12);
    const [a, b, c] = await Promise.all([
      startDevnet({ seed: 42, validators: 400, now: () => now }),
      startDevnet({ seed: 42, validators: 400, now: () => now }),
      startDevnet({ seed: 43, validators: 400, now: () => now }),
    ]);
    try {
      const snapshot = async (d: Devnet): Promise<Record<string, unknown>> => {
        const fx = (await getOk(d.url, '/__devnet/fixtures')) as unknown as Record<Network, { address: string; evmChainId: string; icmAddress: string }>;
        const paths = [
          '/v1/networks/mainnet/subnets',
          '/v1/networks/mainnet/validators?pageSize=50',
          '/v1/networks/fuji/validators?pageSize=50&validationStatus=active',
          '/v1/networks/mainnet/delegators?pageSize=50',
          '/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=20',
          '/v1/networks/fuji/blockchains/x-chain/vertices?pageSize=20',
          '/v1/chains',
          `/v1/chains/${fx.mainnet.evmChainId}/addresses/${fx.mainnet.address}/transactions?pageSize=20`,
          `/v1/icm/addresses/${fx.mainnet.icmAddress}/messages?pageSize=20`,
        ];
        const out: Record<string, unknown> = { fixtures: fx };
        for (const path of paths) out[path] = await getOk(d.url, path);
        out.peers = await rpc(d.nodeUrls.mainnet as string, 'info.peers');
        return out;
      };
      const [sa, sb, sc] = await Promise.all([snapshot(a), snapshot(b), snapshot(c)]);
      expect(sb).toEqual(sa);
      const differing = Object.keys(sa).filter((k) => JSON.stringify(sa[k]) !== JSON.stringify(sc[k]));
      // Everything generated differs with the seed; only constant listings may coincide.
      for (const k of ['fixtures', '/v1/networks/mainnet/subnets', '/v1/networks/mainnet/validators?pageSize=50', '/v1/networks/mainnet/delegators?pageSize=50', '/v1/chains', 'peers']) {
        expect(differing, `seed 43 changes ${k}`).toContain(k);
      }
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
