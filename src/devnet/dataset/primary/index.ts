/**
 * The primary-network half of the devnet dataset: subnets and their blockchains,
 * validators, delegators, rewards, UTXOs, blocks and vertices of one network.
 *
 * Sizes scale with the validator count, so everything bulky is stored compactly
 * and turned into wire objects only when a page is served:
 * - validators are plain records (a few thousand to tens of thousands);
 * - delegators live in typed arrays, their ids are hashes of their index;
 * - rewards are codes pointing at validations/delegations;
 * - UTXOs are derived per address on request, blocks and vertices per height.
 * Sorted orders and per-key lists are built once, so a page costs little more
 * than the items it returns.
 *
 * This module holds `PrimaryData`, the one entry point: it generates the records
 * (generate.ts) and answers queries by delegating to the per-resource modules.
 */

import type {
  Block,
  CurrencyCode,
  Delegator,
  HistoricalReward,
  PendingReward,
  SortOrder,
  Subnet,
  Utxo,
  Validator,
  Vertex,
} from '../../../shapes/index.ts';
import type { DevnetBlockchain, DevnetNetwork } from '../../node-view.ts';
import { block, blockHeightOf, blockTime, heightAt, listBlocks, listBlocksByNode, listVertices, vertex, vertexIndexOf, type BlockProducers } from './chain-activity.ts';
import { VERTEX_COUNT, type PrimaryChain } from './constants.ts';
import type { NetworkContext } from './context.ts';
import { pickFixtures } from './fixtures.ts';
import { generatePrimaryRecords, type PrimaryRecords } from './generate.ts';
import { pageOf } from './paging.ts';
import { delegationTxHash, type ValidatorRecord } from './staking.ts';
import { toValidator } from './staking-wire.ts';
import { StakingQueries } from './staking-queries.ts';
import type {
  BlockQuery,
  DelegatorQuery,
  Page,
  PrimaryDataInput,
  PrimaryFixtures,
  RewardQuery,
  SubnetChain,
  UtxoQuery,
  ValidatorQuery,
} from './types.ts';
import { listUtxos } from './utxos.ts';
// L1 validators and address activity
import type { L1Validator, LastActivityTimestamp } from '../../../shapes/index.ts';
import { chainIdsOf, lastActivityOf } from './address-activity.ts';
import { l1Entries, listL1Validators, type L1ValidatorQuery } from './l1-validators.ts';
// Primary-network transactions, balances and assets
import { PrimaryTransactions } from './transactions.ts';
// What happens after generation: live transactions for the webhooks
import { LiveActivity, type LiveEvent } from './live.ts';
import { StakingTimeline } from './timeline.ts';
import { validatorRewardTx } from './staking.ts';
import { approximately, PRIMARY_NETWORK_ID } from '../../../shapes/index.ts';

export { AVAX_ASSET_IDS, BLOCK_INTERVAL_SECONDS, C_CHAIN_EVM_IDS, CHAIN_NAMES, VM_IDS } from './constants.ts';
export type { PrimaryChain } from './constants.ts';
export { avaxPrice } from './math.ts';
export type {
  BlockQuery,
  DelegatorQuery,
  Page,
  PrimaryDataInput,
  PrimaryFixtures,
  Range,
  RewardQuery,
  SubnetChain,
  UtxoQuery,
  ValidatorQuery,
} from './types.ts';

/** A validation starting (its staking tx) or ending (its reward tx) in a P-chain block. */
export interface ValidatorChainEvent {
  subEvent: 'validator_stake' | 'reward_distribution';
  nodeId: string;
  txHash: string;
  /** The block's time, seconds. */
  timestamp: number;
}

export class PrimaryData {
  readonly network: DevnetNetwork;
  readonly hrp: 'avax' | 'fuji';
  readonly avaxAssetId: string;
  readonly chainIds: { readonly p: string; readonly x: string; readonly c: string };
  /** Oldest first; the primary network itself is the first subnet. */
  readonly subnets: readonly Subnet[];
  readonly subnetChains: readonly SubnetChain[];
  /** Seconds; the dataset's statuses (active, pending ...) are relative to this instant. */
  readonly generatedAt: number;

  private readonly records: PrimaryRecords;
  private readonly ctx: NetworkContext;
  private readonly now: () => number;
  /** The clock of the staking records (`stakingNow`, default `now`). */
  private readonly stakingNow: () => number;
  private readonly subnetById = new Map<string, Subnet>();
  private readonly producers: BlockProducers;
  /** The staking records as the clock moves them (timeline.ts), and the queries over the current ones. */
  private readonly timeline: StakingTimeline;
  private queries: { version: number; queries: StakingQueries };
  /** Delegation index by tx hash, for `validationTxOfDelegation` (tests only; built on first use). */
  private delegationIndex: Map<string, number> | undefined;
  /** Transactions, balances and assets, derived from the rest (see transactions.ts). */
  readonly transactions: PrimaryTransactions;
  /** Activity after generation (live.ts): the activity address and node, and their transactions. */
  readonly live: LiveActivity;

  constructor(input: PrimaryDataInput) {
    this.now = input.now;
    this.stakingNow = input.stakingNow ?? input.now;
    this.records = generatePrimaryRecords(input);
    const { ctx, subnets, staking } = this.records;
    this.ctx = ctx;
    this.network = ctx.network;
    this.hrp = ctx.profile.hrp;
    this.avaxAssetId = ctx.avaxAssetId;
    this.chainIds = ctx.chainIds;
    this.generatedAt = ctx.generatedAt;
    this.subnets = subnets;
    this.subnetChains = this.records.subnetChains;
    for (const s of subnets) this.subnetById.set(s.subnetId, s);
    this.queries = { version: 0, queries: new StakingQueries(this.records, this.subnetById, () => this.nowSec()) };
    const validators = staking.validators;
    this.producers = {
      activeNodeIds: validators.filter((v) => v.primary && v.status === 'active').map((v) => v.nodeId),
      activeL1Validators: validators.filter((v) => !v.primary && v.status === 'active' && this.subnetById.get(v.subnetId)?.isL1).length,
    };
    const { addresses } = this.records;
    this.live = new LiveActivity(ctx, pickFixtures(this.records).nodeId, PRIMARY_NETWORK_ID, {
      validators, addressCount: addresses.list.length, hotAddresses: addresses.hot, minStakeAvax: ctx.profile.minStakeAvax,
      blockTime: (height) => blockTime(this.ctx, 'p', height),
      rewardAddress: (index) => addresses.list[index] as string,
    });
    this.timeline = new StakingTimeline(this.records, this.live, (nowSec) => heightAt(this.ctx, 'p', nowSec));
    this.transactions = new PrimaryTransactions(
      this.records, (chain, height) => block(this.ctx, this.producers, chain, height), () => this.nowSec(), this.live, () => this.stakingRecords(),
    );
  }

  private nowSec(): number {
    return Math.floor(this.now() / 1000);
  }

  private stakingSec(): number {
    return Math.floor(this.stakingNow() / 1000);
  }

  /**
   * How many staking transitions (starts, ends, live validations and delegations) the clock has passed
   * since generation: the listings of validators, delegators and rewards are the same while it is.
   */
  stakingVersion(): number {
    return this.timeline.version(this.stakingSec());
  }

  /** The staking records as of now (the seeded ones until the clock passes a transition). */
  private stakingRecords(): PrimaryRecords {
    return this.timeline.at(this.stakingSec()).records;
  }

  private get staking(): StakingQueries {
    const { version, records } = this.timeline.at(this.stakingSec());
    if (this.queries.version !== version) this.queries = { version, queries: new StakingQueries(records, this.subnetById, () => this.nowSec(), version === 0) };
    return this.queries.queries;
  }

  // ---------------------------------------------------------------- subnets

  listSubnets(order: SortOrder, offset: number, limit: number): Page<Subnet> {
    return pageOf(this.subnets.length, order, () => true, offset, limit, (i) => this.subnets[i] as Subnet);
  }

  subnet(subnetId: string): Subnet | undefined {
    return this.subnetById.get(subnetId);
  }

  /** Non-primary subnet ids. */
  subnetIds(): string[] {
    return this.subnets.slice(1).map((s) => s.subnetId);
  }

  // ---------------------------------------------------------------- validators, delegators, rewards

  get validatorCount(): number {
    return this.stakingRecords().staking.validators.length;
  }

  /** Every validation of this node as of now, oldest first (block order); a node may have validated several times. */
  validationsOf(nodeId: string): Validator[] {
    const records = this.stakingRecords();
    return (records.staking.validationsByNodeId.get(nodeId) ?? []).map((i) => toValidator(records, i));
  }

  /**
   * The add-validator tx of the validation a delegation was made to, straight from the
   * generated records (not from any rule about periods): what tests check links against.
   * The index is built on first use.
   */
  validationTxOfDelegation(delegationTx: string): string | undefined {
    if (!this.delegationIndex) {
      const { ctx, staking } = this.records;
      this.delegationIndex = new Map(Array.from(staking.delegations.validator, (_, d) => [delegationTxHash(ctx, d), d] as const));
    }
    const d = this.delegationIndex.get(delegationTx);
    if (d === undefined) return undefined;
    const { staking } = this.records;
    return (staking.validators[staking.delegations.validator[d] as number] as ValidatorRecord).txHash;
  }

  /** Tx hashes of every validation (add-validator txs), in block order; cheap. */
  validationTxHashes(): string[] {
    return this.records.staking.validators.map((v) => v.txHash);
  }

  /** Every validation as of now as wire objects, in block order (for tests and fixtures; costly at large sizes). */
  allValidators(): Validator[] {
    const records = this.stakingRecords();
    return records.staking.validators.map((_, i) => toValidator(records, i));
  }

  /** See `StakingQueries.listValidators` for how the filters apply. */
  listValidators(q: ValidatorQuery, offset: number, limit: number): Page<Validator> {
    return this.staking.listValidators(q, offset, limit);
  }

  get delegatorCount(): number {
    return this.stakingRecords().staking.delegations.status.length;
  }

  listDelegators(q: DelegatorQuery, offset: number, limit: number): Page<Delegator> {
    return this.staking.listDelegators(q, offset, limit);
  }

  /** Both `addresses` and `nodeIds` narrow the result when both are given. Newest `endTimestamp` first by default. */
  listHistoricalRewards(q: RewardQuery, currency: CurrencyCode, offset: number, limit: number): Page<HistoricalReward> {
    return this.staking.listHistoricalRewards(q, currency, offset, limit);
  }

  /** Ordered by `startTimestamp`. */
  listPendingRewards(q: RewardQuery, offset: number, limit: number): Page<PendingReward> {
    return this.staking.listPendingRewards(q, offset, limit);
  }

  // ---------------------------------------------------------------- UTXOs

  /** Whether `address` (a body like `avax1...`) is one of this network's known addresses. */
  isKnownAddress(address: string): boolean {
    return this.records.addresses.indexOf.has(address);
  }

  /** Sorted by `sortBy` then utxo id; addresses are bodies without chain prefix. */
  listUtxos(chain: PrimaryChain, q: UtxoQuery, offset: number, limit: number): Page<Utxo> {
    return listUtxos(this.records, chain, q, offset, limit);
  }

  // ---------------------------------------------------------------- L1 validators and address activity

  /** The L1 validations, newest first, built on first use (see l1-validators.ts). */
  private l1: ReturnType<typeof l1Entries> | undefined;

  listL1Validators(q: L1ValidatorQuery, offset: number, limit: number): Page<L1Validator> {
    this.l1 ??= l1Entries(this.records, this.subnetById);
    return listL1Validators(this.records, this.l1, q, offset, limit);
  }

  /**
   * The transactions of an L1 validation (none for an unknown id). The devnet's L1
   * validations come from its subnet validator records and change neither balance
   * nor weight, so each has one: the transaction that added it.
   */
  l1ValidationTxHashes(validationId: string): string[] {
    this.l1 ??= l1Entries(this.records, this.subnetById);
    const entry = this.l1.find((e) => e.validationId === validationId);
    return entry ? [entry.record.txHash] : [];
  }

  /** The network's blockchain ids of the primary chains an address body is active on. */
  chainIdsOf(body: string): string[] {
    return chainIdsOf(this.records, body);
  }

  /** The latest UTXO creation or consumption of some address bodies on a chain, up to now. */
  lastActivity(chain: PrimaryChain, bodies: string[]): LastActivityTimestamp | undefined {
    return lastActivityOf(this.records, chain, bodies, this.nowSec());
  }

  // ---------------------------------------------------------------- blocks and vertices

  /** Height of the last block at or before `timestamp` (0 before the chain started). */
  heightAt(chain: PrimaryChain, timestamp: number): number {
    return heightAt(this.ctx, chain, timestamp);
  }

  latestHeight(chain: PrimaryChain): number {
    return this.heightAt(chain, this.nowSec());
  }

  block(chain: PrimaryChain, height: number): Block {
    return this.transactions.decorate(chain, block(this.ctx, this.producers, chain, height));
  }

  /**
   * Newest first. `cursor` is the height to continue from (it pins the listing,
   * so blocks produced between pages do not shift it).
   */
  listBlocks(chain: PrimaryChain, q: BlockQuery, cursor: number | undefined, limit: number): { items: Block[]; next?: number } {
    const page = listBlocks(this.ctx, this.producers, chain, q, this.latestHeight(chain), cursor, limit);
    return { ...page, items: page.items.map((b) => this.transactions.decorate(chain, b)) };
  }

  /** The block with this id (a decimal height or its hash) as the listing serves it, or undefined (unknown, or not produced yet). */
  blockById(chain: PrimaryChain, blockId: string): Block | undefined {
    const height = /^\d{1,15}$/.test(blockId) ? Number(blockId) : blockHeightOf(this.ctx, chain, blockId);
    return height === undefined || height > this.latestHeight(chain) ? undefined : this.block(chain, height);
  }

  /** The blocks `nodeId` proposed, newest first: those of `listBlocks` whose proposer it is. `cursor` as in `listBlocks`. */
  listBlocksByNode(chain: PrimaryChain, nodeId: string, q: BlockQuery, cursor: number | undefined, limit: number): { items: Block[]; next?: number } {
    const { heights, next } = listBlocksByNode(this.ctx, this.producers, chain, nodeId, q, this.latestHeight(chain), cursor, limit);
    const items = heights.map((h) => this.block(chain, h));
    return next === undefined ? { items } : { items, next };
  }

  /** The served vertex with this hash, or undefined. */
  vertexByHash(hash: string): Vertex | undefined {
    const index = vertexIndexOf(this.ctx, hash);
    return index === undefined ? undefined : vertex(this.ctx, index);
  }

  /** The vertices at one DAG height (one per height here, as the listing serves them). */
  verticesAtHeight(height: number): Vertex[] {
    return Number.isSafeInteger(height) && height >= 0 && height < VERTEX_COUNT ? [vertex(this.ctx, height)] : [];
  }

  get vertexCount(): number {
    return VERTEX_COUNT;
  }

  vertex(index: number): Vertex {
    return vertex(this.ctx, index);
  }

  /** Newest first. */
  listVertices(offset: number, limit: number): Page<Vertex> {
    return listVertices(this.ctx, offset, limit);
  }

  /** The live transaction of block `height` (see live.ts), if it has one and the block was produced. */
  liveEvent(chain: 'p' | 'x', height: number): LiveEvent | undefined {
    if (height > this.latestHeight(chain)) return undefined;
    return this.live.event(chain, height, approximately(block(this.ctx, this.producers, chain, height).blockTimestamp));
  }

  /**
   * The validator events of P-chain block `height` (none before it is produced): the live validation its
   * transaction adds (`validator_stake`), and the primary-network validations whose end falls after the
   * previous block and at or before this one (`reward_distribution`, their RewardValidatorTx).
   */
  validatorEvents(height: number): ValidatorChainEvent[] {
    if (height > this.latestHeight('p') || height < this.live.firstHeight('p')) return [];
    const ts = blockTime(this.ctx, 'p', height);
    const prev = blockTime(this.ctx, 'p', height - 1);
    const out: ValidatorChainEvent[] = [];
    const live = this.live.validationAt(height);
    if (live) out.push({ subEvent: 'validator_stake', nodeId: live.nodeId, txHash: live.txHash, timestamp: ts });
    const { staking } = this.stakingRecords();
    staking.validators.forEach((v, i) => {
      if (v.primary && v.status === 'completed' && v.end > prev && v.end <= ts && v.end > this.generatedAt) {
        out.push({ subEvent: 'reward_distribution', nodeId: v.nodeId, txHash: validatorRewardTx(this.ctx, i), timestamp: ts });
      }
    });
    return out;
  }

  // ---------------------------------------------------------------- node view, fixtures, stats

  activeValidatorNodeIds(): readonly string[] {
    return this.producers.activeNodeIds;
  }

  devnetBlockchains(): DevnetBlockchain[] {
    const aliases: Record<string, string[]> = {
      [this.chainIds.p]: ['P', 'platform'],
      [this.chainIds.x]: ['X', 'avm'],
      [this.chainIds.c]: ['C', 'evm'],
    };
    return this.subnets.flatMap((s) =>
      s.blockchains.map((b) => ({
        blockchainId: b.blockchainId,
        subnetId: b.subnetId,
        vmId: b.vmId,
        name: b.blockchainName,
        aliases: aliases[b.blockchainId] ?? [],
      })),
    );
  }

  fixtures(): PrimaryFixtures {
    return pickFixtures(this.records);
  }

  /** Sizes, for logs and tests. */
  stats(): Record<string, number> {
    const { validators, delegations, historical, pending } = this.records.staking;
    const count = (pred: (v: ValidatorRecord) => boolean): number => validators.filter(pred).length;
    return {
      subnets: this.subnets.length,
      blockchains: this.subnets.reduce((n, s) => n + s.blockchains.length, 0),
      validators: validators.length,
      nodes: this.records.staking.validationsByNodeId.size,
      revalidatedNodes: [...this.records.staking.validationsByNodeId.values()].filter((own) => own.length > 1).length,
      primaryValidators: count((v) => v.primary),
      subnetValidators: count((v) => !v.primary),
      activeValidators: count((v) => v.status === 'active'),
      completedValidators: count((v) => v.status === 'completed'),
      pendingValidators: count((v) => v.status === 'pending'),
      removedValidators: count((v) => v.status === 'removed'),
      delegators: delegations.status.length,
      historicalRewards: historical.codes.length,
      pendingRewards: pending.codes.length,
      addresses: this.records.addresses.list.length,
    };
  }
}

export function createPrimaryData(input: PrimaryDataInput): PrimaryData {
  return new PrimaryData(input);
}
