import { describe, expect, it } from 'vitest';
import { createDataset, type Dataset } from '../../src/devnet/dataset/index.ts';
import type { PrimaryData } from '../../src/devnet/dataset/primary/index.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID, type Delegator, type Validator } from '../../src/shapes/index.ts';

const START = Date.UTC(2025, 5, 1);
let clock = START;
const now = (): number => clock;

const started = performance.now();
const dataset: Dataset = createDataset({ seed: 7, validatorsPerNetwork: 1200, now });
const generationMs = performance.now() - started;
const mainnet = dataset.primary.mainnet;
const fuji = dataset.primary.fuji;
const nowSec = Math.floor(START / 1000);

function allDelegators(data: PrimaryData, nodeIds: string[]): Delegator[] {
  const out: Delegator[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = data.listDelegators({ nodeIds, sortOrder: 'asc' }, offset, 100);
    out.push(...page.items);
    if (!page.hasMore) return out;
  }
}

describe('primary dataset', () => {
  it('is generated quickly and deterministically from the seed', () => {
    console.log(`primary dataset at 1200 validators/network: ${generationMs.toFixed(0)} ms`, mainnet.stats(), fuji.stats());
    expect(generationMs).toBeLessThan(10_000);
    const again = createDataset({ seed: 7, validatorsPerNetwork: 1200, now });
    expect(again.primary.mainnet.allValidators()).toEqual(mainnet.allValidators());
    expect(again.primary.fuji.fixtures()).toEqual(fuji.fixtures());
    const other = createDataset({ seed: 8, validatorsPerNetwork: 1200, now });
    expect(other.primary.mainnet.fixtures().nodeId).not.toBe(mainnet.fixtures().nodeId);
  });

  it('has validators of all four statuses on the primary network and on subnets, with the seed fields', () => {
    for (const data of [mainnet, fuji]) {
      const validators = data.allValidators();
      expect(validators).toHaveLength(1200);
      const statuses = new Set(validators.map((v) => v.validationStatus));
      expect([...statuses].sort()).toEqual(['active', 'completed', 'pending', 'removed']);
      const primary = validators.filter((v) => v.subnetId === PRIMARY_NETWORK_ID);
      const subnet = validators.filter((v) => v.subnetId !== PRIMARY_NETWORK_ID);
      expect(primary.length).toBeGreaterThan(0);
      expect(subnet.length).toBeGreaterThan(0);
      expect(new Set(subnet.map((v) => v.validationStatus)).size).toBe(4);
      const subnetIds = new Set(data.subnets.map((s) => s.subnetId));
      for (const v of validators) {
        expect(subnetIds.has(v.subnetId)).toBe(true);
        expect(v.nodeId).toMatch(/^NodeID-[1-9A-HJ-NP-Za-km-z]+$/);
        expect(v.amountStaked).toMatch(/^\d+$/);
        expect(v.amountDelegated).toMatch(/^\d+$/);
        expect(Number.isInteger(v.startTimestamp) && Number.isInteger(v.endTimestamp)).toBe(true);
        expect(Number(v.endTimestamp)).toBeGreaterThan(Number(v.startTimestamp));
        expect(v.blsCredentials?.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
        expect(v.blsCredentials?.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
        expect(Number.isInteger(v.delegatorCount)).toBe(true);
        expect(v.rewards?.validationRewardAmount).toMatch(/^\d+$/);
        // A subnet validation's fee is null (omitted); primary validators have one of at least 2%.
        if (v.subnetId === PRIMARY_NETWORK_ID) expect(Number(v.delegationFee)).toBeGreaterThanOrEqual(2);
        else expect(v.delegationFee).toBeUndefined();
        // Statuses agree with the clock the data was generated at.
        if (v.validationStatus === 'active') {
          expect(v.startTimestamp).toBeLessThanOrEqual(nowSec);
          expect(v.endTimestamp).toBeGreaterThan(nowSec);
          expect(v.uptimePerformance).toBeGreaterThanOrEqual(0);
          expect(v.uptimePerformance).toBeLessThanOrEqual(100);
          expect(v.stakePercentage).toBeGreaterThan(0);
          expect(v.potentialRewards).toBeDefined();
          expect(v.validatorHealth?.reachabilityPercent).toBeGreaterThan(0);
          expect(v).toHaveProperty('geolocation');
          expect(v.avalancheGoVersion).toMatch(/^avalanchego\//);
          if (v.subnetId === PRIMARY_NETWORK_ID) expect(v.delegationCapacity).toMatch(/^\d+$/);
        } else {
          expect(v.uptimePerformance).toBeUndefined();
          expect(v.delegationCapacity).toBeUndefined();
        }
        if (v.validationStatus === 'completed') {
          expect(v.endTimestamp).toBeLessThan(nowSec);
          if (v.subnetId === PRIMARY_NETWORK_ID) expect(v.rewards?.rewardTxHash).toBeDefined();
        }
        if (v.validationStatus === 'pending') expect(v.startTimestamp).toBeGreaterThan(nowSec);
        if (v.validationStatus === 'removed') {
          expect(v.removeTxHash).toBeDefined();
          expect(v.removeTimestamp).toBeLessThan(nowSec);
        } else expect(v.removeTxHash).toBeUndefined();
      }
      // A validation is identified by its tx; a node may have validated several times, never overlapping.
      expect(new Set(validators.map((v) => v.txHash)).size).toBe(validators.length);
      const nodes = new Set(validators.map((v) => v.nodeId));
      expect(nodes.size).toBeLessThan(validators.length);
      for (const nodeId of nodes) {
        const own = data.validationsOf(nodeId);
        own.slice(1).forEach((v, k) => {
          expect(Number(v.startTimestamp)).toBeGreaterThan(Number((own[k] as Validator).endTimestamp));
          expect((own[k] as Validator).validationStatus).toBe('completed');
        });
      }
    }
  });

  it('spreads delegator counts of active mainnet validators like the real network', () => {
    const counts = mainnet
      .allValidators()
      .filter((v) => v.validationStatus === 'active' && v.subnetId === PRIMARY_NETWORK_ID)
      .map((v) => v.delegatorCount ?? 0)
      .sort((a, b) => a - b);
    const median = counts[Math.floor(counts.length / 2)] as number;
    expect(median).toBeGreaterThanOrEqual(5);
    expect(counts.filter((c) => c > 300).length).toBeGreaterThanOrEqual(2);
    expect(counts[0]).toBeGreaterThanOrEqual(0);
  });

  it('ties delegators to existing primary validations, inside their validation period, with delegatorCount equal to their number', () => {
    const f = mainnet.fixtures();
    /** The node's validation whose period holds `at` (a node's validations never overlap). */
    const validationAt = (nodeId: string, at: number): Validator | undefined =>
      mainnet.validationsOf(nodeId).find((v) => Number(v.startTimestamp) <= at && at <= Number(v.endTimestamp));
    const sample = [f.nodeId, f.busyNodeId, f.completedNodeId, f.pendingNodeId, f.subnetValidatorNodeId, f.revalidatedNodeId];
    for (const nodeId of sample) {
      const own = mainnet.validationsOf(nodeId);
      const delegators = allDelegators(mainnet, [nodeId]);
      // The listing by node holds the delegations of every time it validated.
      expect(delegators).toHaveLength(own.reduce((n, v) => n + (v.delegatorCount ?? 0), 0));
      const activeSum = new Map<string, bigint>();
      const counted = new Map<string, number>();
      for (const d of delegators) {
        expect(d.nodeId).toBe(nodeId);
        const v = validationAt(nodeId, Number(d.startTimestamp)) as Validator;
        expect(v).toBeDefined();
        counted.set(v.txHash, (counted.get(v.txHash) ?? 0) + 1);
        expect(v.subnetId).toBe(PRIMARY_NETWORK_ID);
        expect(Number(d.startTimestamp)).toBeGreaterThanOrEqual(Number(v.startTimestamp));
        expect(Number(d.endTimestamp)).toBeLessThanOrEqual(Number(v.endTimestamp));
        expect(d.delegationFee).toBe(v.delegationFee);
        expect(BigInt(d.netReward ?? '0')).toBeLessThanOrEqual(BigInt(d.grossReward ?? '0'));
        if (d.delegationStatus === 'completed') expect(d.endTimestamp).toBeLessThan(nowSec);
        if (d.delegationStatus === 'pending') expect(d.startTimestamp).toBeGreaterThan(nowSec);
        if (d.delegationStatus === 'active') {
          expect(d.startTimestamp).toBeLessThanOrEqual(nowSec);
          expect(d.endTimestamp).toBeGreaterThan(nowSec);
          activeSum.set(v.txHash, (activeSum.get(v.txHash) ?? 0n) + BigInt(d.amountDelegated));
        }
      }
      for (const v of own) {
        expect(counted.get(v.txHash) ?? 0).toBe(v.delegatorCount);
        if (v.validationStatus === 'active') expect(BigInt(v.amountDelegated ?? '')).toBe(activeSum.get(v.txHash) ?? 0n);
      }
    }
    expect(mainnet.validationsOf(f.revalidatedNodeId).length).toBeGreaterThan(1);
    // Subnet validators take no delegations.
    expect(allDelegators(mainnet, [f.subnetValidatorNodeId])).toHaveLength(0);
    const busy = mainnet.validationsOf(f.busyNodeId).at(-1) as Validator;
    expect(busy.delegatorCount).toBeGreaterThan(300);
    // All three delegation statuses exist.
    const statuses = new Set(allDelegators(mainnet, [f.nodeId, f.busyNodeId]).map((d) => d.delegationStatus));
    expect([...statuses].sort()).toEqual(['active', 'completed', 'pending']);
  });

  it('pays historical rewards for completed staking to the reward addresses, and pending rewards for active staking', () => {
    const f = mainnet.fixtures();
    const byTx = new Map(mainnet.allValidators().map((v) => [v.txHash, v] as const));
    const address = f.rewardAddress;
    const historical = mainnet.listHistoricalRewards({ addresses: [address], sortOrder: 'desc' }, 'usd', 0, 100).items;
    expect(historical.length).toBeGreaterThan(0);
    const delegations = new Map(
      mainnet.listDelegators({ rewardAddresses: [address], sortOrder: 'asc' }, 0, 10_000).items.map((d) => [d.txHash, d] as const),
    );
    for (const r of historical) {
      expect(r.addresses).toEqual([address]);
      // The validation paid for: its own tx, or the one of its node whose period holds the delegation.
      const v = (byTx.get(r.txHash) ??
        mainnet.validationsOf(r.nodeId).find((o) => Number(o.startTimestamp) <= Number(r.startTimestamp) && Number(r.endTimestamp) <= Number(o.endTimestamp))) as Validator;
      expect(v).toBeDefined();
      expect(v.nodeId).toBe(r.nodeId);
      if (r.rewardType === 'DELEGATOR') {
        const d = delegations.get(r.txHash) as Delegator;
        expect(d.delegationStatus).toBe('completed');
        expect(d.nodeId).toBe(r.nodeId);
        expect(r.reward.amount).toBe(d.netReward);
      } else {
        expect(v.rewards?.rewardAddresses).toEqual([address]);
      }
      if (r.rewardType === 'VALIDATOR') {
        expect(r.txHash).toBe(v.txHash);
        expect(v.validationStatus).toBe('completed');
      }
      expect(r.reward.historicalPrice?.currencyCode).toBe('usd');
      expect(r.reward.assetId).toBe(mainnet.avaxAssetId);
    }
    // Newest first.
    const ends = historical.map((r) => Number(r.endTimestamp));
    expect(ends).toEqual([...ends].sort((a, b) => b - a));

    const pending = mainnet.listPendingRewards({ nodeIds: [f.nodeId], sortOrder: 'desc' }, 0, 100).items;
    expect(pending.length).toBeGreaterThan(0);
    for (const r of pending) {
      expect(r.nodeId).toBe(f.nodeId);
      expect(r.progress).toBeGreaterThanOrEqual(0);
      expect(r.progress).toBeLessThanOrEqual(100);
      expect(r.startTimestamp).toBeLessThanOrEqual(nowSec);
      expect(r.endTimestamp).toBeGreaterThan(nowSec);
    }
    // The active validator collects fees from its completed delegations.
    const fees = mainnet.listHistoricalRewards({ nodeIds: [f.nodeId], sortOrder: 'desc' }, 'jpy', 0, 100).items;
    expect(fees.some((r) => r.rewardType === 'VALIDATOR_FEE')).toBe(true);
    expect(fees.every((r) => r.reward.historicalPrice?.currencyCode === 'jpy')).toBe(true);
  });

  it('owns blockchains by subnets, with full EVM genesis data and some L1s', () => {
    const genesisKeys = [
      'airdropAmount', 'airdropHash', 'alloc', 'baseFeePerGas', 'blobGasUsed', 'coinbase', 'config', 'difficulty',
      'excessBlobGas', 'extraData', 'gasLimit', 'gasUsed', 'mixHash', 'nonce', 'number', 'parentHash', 'timestamp',
    ];
    const configKeys = [
      'berlinBlock', 'byzantiumBlock', 'chainId', 'constantinopleBlock', 'eip150Block', 'eip150Hash', 'eip155Block',
      'eip158Block', 'homesteadBlock', 'istanbulBlock', 'londonBlock', 'muirGlacierBlock', 'petersburgBlock',
      'subnetEVMTimestamp', 'allowFeeRecipients', 'feeConfig', 'warpConfig', 'txAllowListConfig',
      'contractDeployerAllowListConfig', 'contractNativeMinterConfig', 'feeManagerConfig', 'rewardManagerConfig',
    ];
    const evmIds: number[] = [];
    for (const data of [mainnet, fuji]) {
      expect(data.subnets[0]?.subnetId).toBe(PRIMARY_NETWORK_ID);
      expect(data.subnets[0]?.blockchains.map((b) => b.blockchainId)).toEqual([
        PRIMARY_CHAIN_IDS[data.network].p, PRIMARY_CHAIN_IDS[data.network].x, PRIMARY_CHAIN_IDS[data.network].c,
      ]);
      const l1s = data.subnets.filter((s) => s.isL1);
      expect(l1s.length).toBeGreaterThan(0);
      for (const s of data.subnets) {
        for (const b of s.blockchains) {
          expect(b.subnetId).toBe(s.subnetId);
          if (b.evmChainId !== undefined) {
            evmIds.push(Number(b.evmChainId));
            const g = b.genesisData as unknown as Record<string, unknown>;
            expect(Object.keys(g).sort()).toEqual([...genesisKeys].sort());
            expect(Object.keys(g.config as object).sort()).toEqual([...configKeys].sort());
            expect((g.config as { chainId: number }).chainId).toBe(b.evmChainId);
          }
        }
        if (s.isL1) {
          expect(s.l1ConversionTransactionHash).toBeDefined();
          expect(s.blockchains.map((b) => b.blockchainId)).toContain(s.l1ValidatorManagerDetails?.blockchainId);
          expect(s.l1ValidatorManagerDetails?.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
        } else expect(s.l1ConversionTransactionHash).toBeUndefined();
      }
    }
    expect(new Set(evmIds).size).toBe(evmIds.length);
    expect(evmIds).toContain(43114);
    expect(evmIds).toContain(43113);
  });

  it('produces a block every 2 seconds per chain, proposed by active validators', () => {
    clock = START;
    const first = mainnet.listBlocks('p', {}, undefined, 5).items;
    expect(first).toHaveLength(5);
    const active = new Set(mainnet.activeValidatorNodeIds());
    for (let k = 0; k < first.length; k++) {
      const b = first[k];
      expect(active.has(b?.proposerDetails?.proposerNodeId ?? '')).toBe(true);
      if (k > 0) {
        expect(Number(first[k - 1]?.blockNumber)).toBe(Number(b?.blockNumber) + 1);
        expect(first[k - 1]?.parentHash).toBe(b?.blockHash);
        expect(Number(first[k - 1]?.blockTimestamp ?? 0) - Number(b?.blockTimestamp ?? 0)).toBe(2);
      }
    }
    clock = START + 10_000;
    const later = mainnet.listBlocks('p', {}, undefined, 1).items[0];
    expect(Number(later?.blockNumber)).toBe(Number(first[0]?.blockNumber) + 5);
    clock = START;
    // The X-chain has blocks since Cortina and vertices before.
    const vertex = mainnet.listVertices(0, 1).items[0];
    expect(mainnet.listBlocks('x', { endTimestamp: 0 }, undefined, 1).items).toEqual([]);
    const oldest = mainnet.listBlocks('x', { endTimestamp: Number(vertex?.vertexTimestamp ?? 0) + 1 }, undefined, 5).items;
    expect(oldest.map((b) => b.blockNumber)).toEqual(['0']);
    expect(oldest[0]?.blockTimestamp).toBe(vertex?.vertexTimestamp);
  });

  it('derives UTXOs per address: staked and unstaked, spent and unspent, several X-chain assets', () => {
    const f = mainnet.fixtures();
    const p = mainnet.listUtxos('p', { addresses: [f.rewardAddress], includeSpent: true, sortBy: 'timestamp', sortOrder: 'desc' }, 0, 1024).items;
    expect(p.some((u) => u.staked)).toBe(true);
    expect(p.some((u) => !u.staked)).toBe(true);
    expect(p.some((u) => u.consumingTxHash)).toBe(true);
    expect(p.some((u) => !u.consumingTxHash)).toBe(true);
    // Reward outputs are the ones the historical rewards name.
    const rewardUtxos = new Set(mainnet.listHistoricalRewards({ addresses: [f.rewardAddress], sortOrder: 'desc' }, 'usd', 0, 1000).items.map((r) => r.utxoId));
    expect(rewardUtxos.size).toBeGreaterThan(0);
    expect(p.filter((u) => rewardUtxos.has(u.utxoId))).toHaveLength(rewardUtxos.size);
    const unspent = mainnet.listUtxos('p', { addresses: [f.rewardAddress], includeSpent: false, sortBy: 'timestamp', sortOrder: 'desc' }, 0, 1024).items;
    expect(unspent.length).toBeLessThan(p.length);
    const x = mainnet.listUtxos('x', { addresses: [f.rewardAddress], includeSpent: true, sortBy: 'amount', sortOrder: 'asc' }, 0, 1024).items;
    expect(new Set(x.map((u) => u.assetId)).size).toBeGreaterThan(1);
    expect(x.map((u) => u.assetId)).toContain(f.xAssetId);
    expect(x.every((u) => u.createdOnChainId === PRIMARY_CHAIN_IDS.mainnet.x)).toBe(true);
    for (const u of [...p, ...x]) {
      expect(u.amount).toMatch(/^\d+$/);
      expect(u.asset.amount).toBe(u.amount);
      expect(u.addresses).toEqual([f.rewardAddress]);
    }
  });

  it('gives the node simulator the active validators and the chains', () => {
    const view = dataset.nodeView;
    const active = mainnet.allValidators().filter((v) => v.validationStatus === 'active' && v.subnetId === PRIMARY_NETWORK_ID);
    expect([...view.activeValidatorNodeIds('mainnet')].sort()).toEqual(active.map((v) => v.nodeId).sort());
    const chains = view.blockchains('fuji');
    expect(chains.find((c) => c.blockchainId === PRIMARY_CHAIN_IDS.fuji.x)?.aliases).toEqual(['X', 'avm']);
    expect(chains.length).toBe(fuji.subnets.reduce((n, s) => n + s.blockchains.length, 0));
    expect(view.subnetIds('fuji')).not.toContain(PRIMARY_NETWORK_ID);
    expect(view.subnetIds('fuji').length).toBe(fuji.subnets.length - 1);
  });

  it('publishes fixtures with data behind them for both networks', () => {
    const fixtures = dataset.fixtures();
    for (const network of ['mainnet', 'fuji'] as const) {
      const f = fixtures[network];
      const data = dataset.primary[network];
      for (const key of ['evmChainId', 'address', 'contractAddress', 'nftContract', 'nftTokenId', 'txHash', 'pChainAddress',
        'xChainAddress', 'icmAddress', 'nodeId', 'subnetId', 'operationId'] as const) {
        expect(typeof f[key], key).toBe('string');
      }
      expect(f.pChainAddress).toMatch(new RegExp(`^P-${data.hrp}1`));
      expect(f.xChainAddress).toMatch(new RegExp(`^X-${data.hrp}1`));
      // A node may have validated several times: each status fixture is about its latest validation.
      const latest = (nodeId: string) => data.validationsOf(nodeId).at(-1);
      expect(latest(f.nodeId)?.validationStatus).toBe('active');
      expect(latest(f.busyNodeId)?.delegatorCount).toBeGreaterThan(300);
      expect(latest(f.completedNodeId)?.validationStatus).toBe('completed');
      expect(latest(f.pendingNodeId)?.validationStatus).toBe('pending');
      expect(latest(f.removedNodeId)?.validationStatus).toBe('removed');
      expect(latest(f.subnetValidatorNodeId)?.subnetId).not.toBe(PRIMARY_NETWORK_ID);
      const history = data.validationsOf(f.revalidatedNodeId);
      expect(history.at(-1)?.validationStatus).toBe('active');
      expect(history.some((v) => v.validationStatus === 'completed' && (v.delegatorCount ?? 0) > 0)).toBe(true);
      expect(data.subnet(f.subnetId)?.blockchains.length).toBeGreaterThan(0);
      expect(data.subnet(f.l1SubnetId)?.isL1).toBe(true);
      expect(latest(f.nodeId)?.txHash).toBe(f.pChainTxHash);
    }
  });
});
