/**
 * Primary-network transactions, balances and assets, derived from what the dataset
 * already serves, so every id resolves both ways:
 * - staking transactions are the validations and delegations (same tx hash, node id,
 *   times, stake and reward address), reward transactions their `rewardTxHash`;
 * - every UTXO's creating and spending transaction exists (UTXO outputs are read back
 *   from the owners' UTXO lists, so a transaction's outputs are the UTXOs served);
 * - every one of these lies in the block of its height, which lists it; the rest of
 *   a P- or X-chain block's transactions are plain ones whose id encodes the block
 *   height and position (and a keyed hash), so they too resolve without storage.
 *   C-chain blocks list EVM transactions; the C-chain's atomic transactions are the
 *   imports of the atomic UTXOs exported to it from the X-chain;
 * - balances are sums of the address's UTXOs, assets are AVAX and the X-chain assets.
 *
 * The hash index (staking, reward and UTXO transactions, a few per address) is
 * built on first use: about 10 entries per address.
 */

import { decodeCb58 } from '../../../lib/base58.ts';
import { formatCb58Id } from '../../../lib/ids.ts';
import {
  approximately, type AggregatedAssetAmount, type AssetAmount, type AssetDetails, type Block, type CChainAtomicTransaction, type PChainTransaction,
  type SharedAssetAmount, type SortOrder, type Utxo, type XChainTransaction,
} from '../../../shapes/index.ts';
import { heightAt, vertex, vertexHash, vertexTxOf } from './chain-activity.ts';
import { NANO, VERTEX_COUNT, type PrimaryChain } from './constants.ts';
import { avaxAmount } from './context.ts';
import type { PrimaryRecords } from './generate.ts';
import { hexOf, sha } from './ids.ts';
import {
  delegationFee, delegationGross, delegationRewardTx, delegationStatus, delegationTxHash, delegationTxOf, validatorRewardTx, type ValidatorRecord,
} from './staking.ts';
import type { Page } from './types.ts';
import { listUtxos } from './utxos.ts';
import type { LiveActivity } from './live.ts';

export type PrimaryTx = PChainTransaction | XChainTransaction | CChainAtomicTransaction;

/** What a transaction listing is narrowed to. */
export interface TxQuery {
  /** Address bodies (`avax1...`); C-chain listings take the bech32 bodies of the atomic UTXOs' owners. */
  addresses?: string[];
  txTypes?: string[];
  startTimestamp?: number;
  endTimestamp?: number;
  sortOrder: SortOrder;
  /** P-chain: only these transactions (an L1 validation's, resolved by the route). */
  txHashes?: string[];
}

type Ref =
  | { kind: 'validation' | 'validationReward'; index: number }
  | { kind: 'delegation' | 'delegationReward'; index: number }
  | { kind: 'utxo'; chain: PrimaryChain; address: number; ts: number };

/** One transaction of a listing: where it is and how it is built. */
interface Entry {
  hash: string;
  ts: number;
}

const MAGIC = 0xb7;
const CHAIN_CODE: Record<'p' | 'x', number> = { p: 1, x: 2 };
/** Blocks a latest-transactions page scans at most looking for matches (its token resumes from there). */
export const MAX_SCANNED_BLOCKS = 2_000;

export class PrimaryTransactions {
  private index: { byHash: Map<string, Ref>; byHeight: Map<string, string[]>; cImports: Entry[] } | undefined;
  private activeStaking: Entry[] | undefined;
  /** Per non-AVAX asset, the X-chain transactions that move it, oldest first (see `listByAsset`). */
  private assetEntries: Map<string, Entry[]> | undefined;

  constructor(
    private readonly data: PrimaryRecords,
    /** The block at a height as chain-activity makes it (without this module's transactions). */
    private readonly rawBlock: (chain: PrimaryChain, height: number) => Block,
    private readonly nowSec: () => number,
    /** What happens after generation (live.ts): one more transaction in some new blocks. */
    private readonly live: LiveActivity,
    /** The staking records as the clock has moved them (timeline.ts): statuses and what ended since generation. */
    private readonly current: () => PrimaryRecords = () => data,
  ) {}

  /** Reward txs of validations and delegations that ended after generation, per snapshot of the records (built on first use). */
  private later: { records: PrimaryRecords; byHash: Map<string, { kind: 'validationReward' | 'delegationReward'; index: number }> } | undefined;

  /**
   * The RewardValidatorTx of a validation or delegation that ended after generation (not in the seeded
   * index): in the first P-chain block at or after its end, paying its reward (the UTXO listings are not fed).
   */
  private laterRewardTx(hash: string): PChainTransaction | undefined {
    const records = this.current();
    if (records === this.data) return undefined;
    if (this.later?.records !== records) {
      const { ctx, staking } = records;
      const byHash = new Map<string, { kind: 'validationReward' | 'delegationReward'; index: number }>();
      staking.validators.forEach((v, i) => {
        if (v.primary && v.status === 'completed' && v.end > ctx.generatedAt) byHash.set(validatorRewardTx(ctx, i), { kind: 'validationReward', index: i });
      });
      const t = staking.delegations;
      for (let d = 0; d < t.status.length; d++) {
        if (delegationStatus(t, d) === 'completed' && (t.end[d] as number) > ctx.generatedAt) byHash.set(delegationRewardTx(ctx, d), { kind: 'delegationReward', index: d });
      }
      this.later = { records, byHash };
    }
    const ref = this.later.byHash.get(hash);
    if (!ref) return undefined;
    const { ctx, addresses, staking } = records;
    const t = staking.delegations;
    const v = staking.validators[ref.kind === 'validationReward' ? ref.index : (t.validator[ref.index] as number)] as ValidatorRecord;
    const end = ref.kind === 'validationReward' ? v.end : (t.end[ref.index] as number);
    const atOrBefore = heightAt(ctx, 'p', end);
    const height = Number(this.rawBlock('p', atOrBefore).blockTimestamp) === end ? atOrBefore : atOrBefore + 1;
    const block = this.rawBlock('p', height);
    const amount = ref.kind === 'validationReward' ? v.validationReward : delegationGross(t, ref.index) - delegationFee(staking, ref.index);
    const reward = [avaxAmount(ctx, amount)];
    return {
      txHash: hash, txType: 'RewardValidatorTx', blockTimestamp: Number(block.blockTimestamp), blockNumber: String(height), blockHash: block.blockHash,
      consumedUtxos: [], emittedUtxos: [], value: reward, amountBurned: [], amountStaked: [], amountL1ValidatorBalanceBurned: [], memo: '0x',
      nodeId: v.nodeId, subnetId: v.subnetId,
      startTimestamp: ref.kind === 'validationReward' ? v.start : (t.start[ref.index] as number), endTimestamp: end,
      rewardAddresses: [`P-${addresses.list[ref.kind === 'validationReward' ? v.rewardAddr : (t.addr[ref.index] as number)] as string}`],
      stakingTxHash: ref.kind === 'validationReward' ? v.txHash : delegationTxOf(ctx, staking, ref.index),
    };
  }

  // ---------------------------------------------------------------- block transactions

  /** The id of the `k`th plain transaction of a P- or X-chain block: height, position and a keyed hash. */
  blockTxId(chain: 'p' | 'x', height: number, k: number): string {
    const bytes = Buffer.alloc(32);
    bytes[0] = MAGIC;
    bytes[1] = CHAIN_CODE[chain];
    bytes.writeUIntBE(height, 2, 6);
    bytes.writeUInt16BE(k, 8);
    sha(`${this.data.ctx.tag}:btx:${chain}:${height}:${k}`).copy(bytes, 10, 0, 22);
    return formatCb58Id(bytes);
  }

  private decodeBlockTxId(chain: PrimaryChain, id: string): { height: number; k: number } | undefined {
    if (chain === 'c') return undefined;
    const bytes = decodeCb58(id, 32);
    if (!bytes || bytes[0] !== MAGIC || bytes[1] !== CHAIN_CODE[chain]) return undefined;
    const height = bytes.readUIntBE(2, 6);
    const k = bytes.readUInt16BE(8);
    return this.blockTxId(chain, height, k) === id ? { height, k } : undefined;
  }

  /** The block with its transactions: those of the index at its height, then its plain ones. */
  decorate(chain: PrimaryChain, b: Block): Block {
    if (chain === 'c') return b;
    const height = Number(b.blockNumber);
    const indexed = this.built().byHeight.get(`${chain}:${height}`) ?? [];
    const plain = Array.from({ length: b.txCount }, (_, k) => this.blockTxId(chain, height, k));
    const transactions = [...indexed, ...this.live.txIds(chain, height), ...plain];
    return { ...b, txCount: transactions.length, transactions };
  }

  // ---------------------------------------------------------------- lookups

  /** The transaction with this hash on this chain, or undefined. */
  transaction(chain: PrimaryChain, hash: string): PrimaryTx | undefined {
    const ref = this.built().byHash.get(hash);
    if (ref) return this.chainOf(ref) === chain ? this.build(ref, hash) : undefined;
    const later = chain === 'p' ? this.laterRewardTx(hash) : undefined;
    if (later) return later;
    const inVertex = chain === 'x' ? vertexTxOf(this.data.ctx, hash) : undefined;
    if (inVertex) return this.vertexTx(inVertex.index, inVertex.k, hash);
    const liveHeight = this.live.heightOf(chain, hash);
    if (liveHeight !== undefined) {
      if (liveHeight > heightAt(this.data.ctx, chain, this.nowSec())) return undefined;
      const b = this.rawBlock(chain, liveHeight);
      return this.live.transaction(chain as 'p' | 'x', liveHeight, { blockHash: b.blockHash, blockTimestamp: approximately(b.blockTimestamp) }, this.nowSec());
    }
    const plain = this.decodeBlockTxId(chain, hash);
    if (!plain || plain.height > heightAt(this.data.ctx, chain, this.nowSec())) return undefined;
    return this.plainTx(chain as 'p' | 'x', plain.height, plain.k, hash);
  }

  /** listLatestPrimaryNetworkTransactions. `cursor` is an offset (with addresses, and on the C-chain) or a block position (see `scanBlocks`). */
  list(chain: PrimaryChain, q: TxQuery, cursor: number, limit: number): Page<PrimaryTx> & { next?: number } {
    if (q.txHashes) {
      const only = new Set(q.txHashes);
      const entries = q.addresses ? this.addressEntries(chain, q.addresses).filter((e) => only.has(e.hash)) : this.entriesOf(chain, q.txHashes);
      return this.pageEntries(entries, q, cursor, limit);
    }
    if (q.addresses || chain === 'c') {
      const entries = q.addresses ? this.addressEntries(chain, q.addresses) : this.built().cImports;
      return this.pageEntries(entries, q, cursor, limit);
    }
    return this.scanBlocks(chain as 'p' | 'x', q, cursor, limit);
  }

  /** listActivePrimaryNetworkStakingTransactions: active validations and delegations. */
  listStaking(q: TxQuery, offset: number, limit: number): Page<PrimaryTx> {
    const { staking } = this.data;
    this.activeStaking ??= [
      ...staking.validators.flatMap((v) => (v.status === 'active' ? [{ hash: v.txHash, ts: v.start - 600 }] : [])),
      ...Array.from(staking.delegations.status, (_, d) => d)
        .filter((d) => delegationStatus(staking.delegations, d) === 'active')
        .map((d) => ({ hash: delegationTxHash(this.data.ctx, d), ts: (staking.delegations.start[d] as number) - 600 })),
    ].sort((a, b) => a.ts - b.ts || (a.hash < b.hash ? -1 : 1));
    let entries = this.activeStaking;
    if (q.addresses) {
      const wanted = new Set(this.addressEntries('p', q.addresses).map((e) => e.hash));
      entries = entries.filter((e) => wanted.has(e.hash));
    }
    return this.pageEntries(entries, q, offset, limit);
  }

  // ---------------------------------------------------------------- balances and assets

  /** The UTXOs of some addresses at an instant (created by then, not spent by then). */
  private utxosAt(chain: PrimaryChain, addresses: string[], at: number): Utxo[] {
    const page = listUtxos(this.data, chain, { addresses, includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER);
    return page.items.filter((u) => approximately(u.blockTimestamp) <= at && !(u.consumingBlockTimestamp !== undefined && approximately(u.consumingBlockTimestamp) <= at));
  }

  /** getBalancesByAddresses: sums of the addresses' UTXOs (at `blockTimestamp`, default now), by the chain's categories. */
  balances(chain: PrimaryChain, addresses: string[], blockTimestamp?: number): Record<string, AggregatedAssetAmount[] | SharedAssetAmount[]> {
    // Now: exactly the unspent UTXOs served (pending stake outputs included, as pending); at an instant: those alive then.
    const at = blockTimestamp ?? this.nowSec();
    const utxos = blockTimestamp === undefined
      ? listUtxos(this.data, chain, { addresses, includeSpent: false, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items
      : this.utxosAt(chain, addresses, blockTimestamp);
    if (chain === 'c') {
      return { atomicMemoryUnlocked: shared(utxos, (u) => u.createdOnChainId), atomicMemoryLocked: [] };
    }
    if (chain === 'x') return { locked: [], unlocked: aggregate(utxos), atomicMemoryUnlocked: [], atomicMemoryLocked: [] };
    const by = (pred: (u: Utxo) => boolean): AggregatedAssetAmount[] => aggregate(utxos.filter(pred));
    const staked = (u: Utxo): boolean => u.utxoType === 'STAKE';
    const after = (time: Utxo['platformLocktime']): boolean => approximately(time ?? 0) > at;
    return {
      unlockedUnstaked: by((u) => !staked(u) && !after(u.platformLocktime) && !after(u.stakeableLocktime)),
      unlockedStaked: by((u) => staked(u) && !after(u.utxoStartTimestamp)),
      lockedPlatform: by((u) => !staked(u) && after(u.platformLocktime)),
      lockedStakeable: by((u) => !staked(u) && !after(u.platformLocktime) && after(u.stakeableLocktime)),
      lockedStaked: [],
      pendingStaked: by((u) => staked(u) && after(u.utxoStartTimestamp)),
      atomicMemoryUnlocked: [],
      atomicMemoryLocked: [],
    };
  }

  /** getAssetDetails: AVAX and the X-chain assets. */
  asset(assetId: string): AssetDetails | undefined {
    const { ctx } = this.data;
    if (assetId === ctx.avaxAssetId) {
      return { assetId, name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', createdAtTimestamp: ctx.profile.genesis, cap: 'fixed' };
    }
    const k = ctx.xAssets.findIndex((a) => a.assetId === assetId);
    const a = ctx.xAssets[k];
    if (!a) return undefined;
    return { ...a, type: 'secp256k1', createdAtTimestamp: ctx.profile.genesis + (k + 1) * 3600, cap: k % 2 === 0 ? 'variable' : 'fixed' };
  }

  /**
   * listAssetTransactions: the X-chain transactions that move `assetId` (in their UTXOs or
   * amounts). AVAX moves in every block, so its listing reads the blocks as the latest
   * listing does (the cursor is a block position); another asset moves only in the
   * transactions of its holders' UTXOs (the cursor is an offset).
   */
  listByAsset(assetId: string, q: TxQuery, cursor: number, limit: number): Page<PrimaryTx> & { next?: number } {
    if (assetId === this.data.ctx.avaxAssetId) return this.scanBlocks('x', q, cursor, limit, (tx) => movesAsset(tx, assetId));
    this.assetEntries ??= new Map();
    let entries = this.assetEntries.get(assetId);
    if (!entries) {
      const { byHash } = this.built();
      const hashes = new Set<string>();
      for (const body of this.data.addresses.list) {
        for (const chain of ['x', 'c'] as const) {
          for (const u of listUtxos(this.data, chain, { addresses: [body], assetId, includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items) {
            if (u.asset.assetId !== assetId) continue;
            hashes.add(u.txHash);
            if (u.consumingTxHash !== undefined) hashes.add(u.consumingTxHash);
          }
        }
      }
      entries = [];
      for (const hash of hashes) {
        const ref = byHash.get(hash);
        if (ref && this.chainOf(ref) === 'x') entries.push({ hash, ts: this.timeOf(ref) });
      }
      entries.sort((a, b) => a.ts - b.ts || (a.hash < b.hash ? -1 : 1));
      this.assetEntries.set(assetId, entries);
    }
    return this.pageEntries(entries, q, cursor, limit);
  }

  /** Every asset id the dataset serves. */
  assetIds(): string[] {
    return [this.data.ctx.avaxAssetId, ...this.data.ctx.xAssets.map((a) => a.assetId)];
  }

  // ---------------------------------------------------------------- the index

  private built(): NonNullable<PrimaryTransactions['index']> {
    if (this.index) return this.index;
    const { ctx, addresses, staking } = this.data;
    const byHash = new Map<string, Ref>();
    const put = (hash: string | undefined, ref: Ref): void => {
      if (hash !== undefined && !byHash.has(hash)) byHash.set(hash, ref);
    };
    // Staking and reward transactions first: their refs win over the UTXOs that point at them.
    staking.validators.forEach((v, i) => {
      put(v.txHash, { kind: 'validation', index: i });
      if (v.status === 'completed') put(validatorRewardTx(ctx, i), { kind: 'validationReward', index: i });
    });
    for (let d = 0; d < staking.delegations.status.length; d++) {
      put(delegationTxHash(ctx, d), { kind: 'delegation', index: d });
      if (delegationStatus(staking.delegations, d) === 'completed') put(delegationRewardTx(ctx, d), { kind: 'delegationReward', index: d });
    }
    for (let a = 0; a < addresses.list.length; a++) {
      const address = [addresses.list[a] as string];
      for (const chain of ['p', 'x', 'c'] as const) {
        for (const u of listUtxos(this.data, chain, { addresses: address, includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items) {
          // Atomic UTXOs of the C-chain were exported by an X-chain transaction and are imported by a C-chain one.
          put(u.txHash, { kind: 'utxo', chain: chain === 'c' ? 'x' : chain, address: a, ts: approximately(u.blockTimestamp) });
          if (u.consumingTxHash !== undefined) put(u.consumingTxHash, { kind: 'utxo', chain, address: a, ts: approximately(u.consumingBlockTimestamp ?? u.blockTimestamp) });
        }
      }
    }
    const byHeight = new Map<string, string[]>();
    const cImports: Entry[] = [];
    for (const [hash, ref] of byHash) {
      const chain = this.chainOf(ref);
      const ts = this.timeOf(ref);
      if (chain === 'c') {
        cImports.push({ hash, ts });
        continue;
      }
      // X-chain transactions before Cortina lie in vertices, not blocks.
      if (chain === 'x' && ts < ctx.profile.cortina) continue;
      const key = `${chain}:${heightAt(ctx, chain, ts)}`;
      const list = byHeight.get(key);
      if (list) list.push(hash);
      else byHeight.set(key, [hash]);
    }
    cImports.sort((a, b) => a.ts - b.ts || (a.hash < b.hash ? -1 : 1));
    this.index = { byHash, byHeight, cImports };
    return this.index;
  }

  private chainOf(ref: Ref): PrimaryChain {
    return ref.kind === 'utxo' ? ref.chain : 'p';
  }

  private timeOf(ref: Ref): number {
    const { staking } = this.data;
    switch (ref.kind) {
      case 'validation':
        return (staking.validators[ref.index] as ValidatorRecord).start - 600;
      case 'validationReward':
        return (staking.validators[ref.index] as ValidatorRecord).end;
      case 'delegation':
        return (staking.delegations.start[ref.index] as number) - 600;
      case 'delegationReward':
        return staking.delegations.end[ref.index] as number;
      case 'utxo':
        return ref.ts;
    }
  }

  /** Address indexes whose UTXOs a transaction touches. */
  private ownersOf(ref: Ref): number[] {
    const { staking } = this.data;
    switch (ref.kind) {
      case 'validation':
      case 'validationReward':
        return [(staking.validators[ref.index] as ValidatorRecord).rewardAddr];
      case 'delegation':
      case 'delegationReward': {
        const validator = staking.validators[staking.delegations.validator[ref.index] as number] as ValidatorRecord;
        return [...new Set([staking.delegations.addr[ref.index] as number, validator.rewardAddr])];
      }
      case 'utxo':
        return [ref.address];
    }
  }

  // ---------------------------------------------------------------- building transactions

  private build(ref: Ref, hash: string): PrimaryTx {
    const { ctx, addresses, staking } = this.data;
    const chain = this.chainOf(ref);
    const ts = this.timeOf(ref);
    const owners = this.ownersOf(ref).map((a) => addresses.list[a] as string);
    const consumed: Utxo[] = [];
    const emitted: Utxo[] = [];
    for (const c of chain === 'x' ? (['x', 'c'] as const) : ([chain] as const)) {
      for (const u of listUtxos(this.data, c, { addresses: owners, includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items) {
        if (u.txHash === hash) emitted.push(u);
        if (u.consumingTxHash === hash) consumed.push(u);
      }
    }
    const height = chain === 'x' && ts < ctx.profile.cortina ? 0 : heightAt(ctx, chain, ts);
    const block = this.rawBlock(chain, height);
    const fee = [avaxAmount(ctx, 1_000_000)];
    if (chain === 'c') {
      const amounts = sumAssets(consumed);
      return {
        txHash: hash, blockHeight: height, blockHash: block.blockHash, timestamp: ts, memo: '0x', amountUnlocked: amounts, amountCreated: amounts,
        sourceChain: ctx.chainIds.x, destinationChain: ctx.chainIds.c, txType: 'ImportTx',
        evmOutputs: consumed.map((u) => ({ toAddress: `0x${hexOf(`${ctx.tag}:evm-owner:${u.addresses[0] ?? ''}`, 20)}`, asset: u.asset })),
        consumedUtxos: consumed,
      };
    }
    if (chain === 'x') {
      const exported = emitted.some((u) => u.consumedOnChainId !== ctx.chainIds.x);
      const base = {
        txHash: hash, timestamp: ts, txType: exported ? 'ExportTx' : consumed.length > 0 ? 'BaseTx' : 'ImportTx', memo: '0x',
        consumedUtxos: consumed, emittedUtxos: emitted, amountUnlocked: sumAssets(consumed), amountCreated: sumAssets(emitted),
        ...(exported ? { sourceChain: ctx.chainIds.x, destinationChain: ctx.chainIds.c } : {}),
      };
      return ts < ctx.profile.cortina
        ? { ...base, chainFormat: 'non-linear', vertices: this.verticesAt(ts) }
        : { ...base, chainFormat: 'linear', blockHeight: height, blockHash: block.blockHash };
    }
    const tx: PChainTransaction = {
      txHash: hash, txType: 'BaseTx', blockTimestamp: ts, blockNumber: String(height), blockHash: block.blockHash,
      consumedUtxos: consumed, emittedUtxos: emitted, value: sumAssets(emitted), amountBurned: fee, amountStaked: [], amountL1ValidatorBalanceBurned: [], memo: '0x',
    };
    if (ref.kind === 'utxo') {
      if (consumed.length === 0) Object.assign(tx, { txType: 'ImportTx', sourceChain: ctx.chainIds.x, destinationChain: ctx.chainIds.p });
      return tx;
    }
    const rewardAddresses = owners.map((a) => `P-${a}`);
    // Statuses (and what follows from them) as the clock has moved them; seeded indices are the same there.
    const now = this.current().staking;
    if (ref.kind === 'validation' || ref.kind === 'validationReward') {
      const v = now.validators[ref.index] as ValidatorRecord;
      const staking_ = { nodeId: v.nodeId, subnetId: v.subnetId, startTimestamp: v.start, endTimestamp: v.end, rewardAddresses };
      if (ref.kind === 'validationReward') return { ...tx, ...staking_, txType: 'RewardValidatorTx', amountBurned: [], stakingTxHash: v.txHash };
      return {
        ...tx, ...staking_, txType: v.primary ? 'AddPermissionlessValidatorTx' : 'AddSubnetValidatorTx',
        amountStaked: v.primary ? [avaxAmount(ctx, v.stake)] : [],
        ...(v.primary ? { delegationFeePercent: (v.feeBps / 100).toFixed(4), blsCredentials: blsOf(ctx.tag, v.nodeId) } : {}),
        ...(v.status === 'completed' && v.primary ? { rewardTxHash: validatorRewardTx(ctx, ref.index) } : {}),
        ...(v.status === 'active' && v.primary ? { estimatedReward: String(Math.floor(v.validationReward)) } : {}),
      };
    }
    const t = staking.delegations;
    const v = staking.validators[t.validator[ref.index] as number] as ValidatorRecord;
    const facts = {
      nodeId: v.nodeId, subnetId: v.subnetId, startTimestamp: t.start[ref.index] as number, endTimestamp: t.end[ref.index] as number,
      rewardAddresses: [`P-${addresses.list[t.addr[ref.index] as number] as string}`],
    };
    if (ref.kind === 'delegationReward') return { ...tx, ...facts, txType: 'RewardValidatorTx', amountBurned: [], stakingTxHash: delegationTxHash(ctx, ref.index) };
    const completed = delegationStatus(now.delegations, ref.index) === 'completed';
    return {
      ...tx, ...facts, txType: 'AddPermissionlessDelegatorTx', amountStaked: [avaxAmount(ctx, t.amount[ref.index] as number)],
      ...(completed ? { rewardTxHash: delegationRewardTx(ctx, ref.index) } : {}),
    };
  }

  /** A transaction of an X-chain vertex (before Cortina): a transfer outside the address book, in that vertex. */
  private vertexTx(index: number, k: number, hash: string): PrimaryTx {
    const { ctx } = this.data;
    const v = vertex(ctx, index);
    const r = sha(`${ctx.tag}:vtx-kind:${index}:${k}`);
    const amount = avaxAmount(ctx, (1 + (r.readUInt32BE(0) % 50_000)) * (NANO / 1000));
    return {
      txHash: hash, chainFormat: 'non-linear', timestamp: v.vertexTimestamp, txType: 'BaseTx', memo: '0x', consumedUtxos: [], emittedUtxos: [],
      amountUnlocked: [amount], amountCreated: [amount], vertices: [{ hash: v.vertexHash, height: v.vertexHeight, timestamp: v.vertexTimestamp }],
    };
  }

  /** A plain transaction of a block: a transfer between addresses outside the address book, its fee burned. */
  private plainTx(chain: 'p' | 'x', height: number, k: number, hash: string): PrimaryTx {
    const { ctx } = this.data;
    const b = this.rawBlock(chain, height);
    const r = sha(`${ctx.tag}:btx-kind:${chain}:${height}:${k}`);
    const amount = avaxAmount(ctx, (1 + (r.readUInt32BE(0) % 50_000)) * (NANO / 1000));
    const fee = [avaxAmount(ctx, 1_000_000)];
    if (chain === 'x') {
      return {
        txHash: hash, chainFormat: 'linear', timestamp: b.blockTimestamp, txType: 'BaseTx', memo: '0x', consumedUtxos: [], emittedUtxos: [],
        amountUnlocked: [amount], amountCreated: [amount], blockHeight: height, blockHash: b.blockHash,
      };
    }
    return {
      txHash: hash, txType: (r[4] as number) % 4 === 0 ? 'AdvanceTimeTx' : 'BaseTx', blockTimestamp: b.blockTimestamp, blockNumber: String(height), blockHash: b.blockHash,
      consumedUtxos: [], emittedUtxos: [], value: [amount], amountBurned: fee, amountStaked: [], amountL1ValidatorBalanceBurned: [], memo: '0x',
    };
  }

  /** The vertex accepted at `ts`, when it is one of the served vertices (the last ones before Cortina). */
  private verticesAt(ts: number): { hash: string; height: number; timestamp: number }[] {
    const index = VERTEX_COUNT - 1 - Math.ceil((this.data.ctx.profile.cortina - ts) / 3);
    if (index < 0) return [];
    return [{ hash: vertexHash(this.data.ctx, index), height: index, timestamp: this.data.ctx.profile.cortina - (VERTEX_COUNT - 1 - index) * 3 }];
  }

  // ---------------------------------------------------------------- listings

  /** The transactions of some addresses on a chain, oldest first. */
  private addressEntries(chain: PrimaryChain, bodies: string[]): Entry[] {
    const { byHash } = this.built();
    const { addresses, staking, ctx } = this.data;
    const hashes = new Set<string>();
    for (const body of bodies) {
      const a = addresses.indexOf.get(body);
      if (a === undefined) continue;
      const lists = chain === 'x' ? (['x', 'c'] as const) : ([chain] as const);
      for (const c of lists) {
        for (const u of listUtxos(this.data, c, { addresses: [body], includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items) {
          hashes.add(u.txHash);
          if (u.consumingTxHash !== undefined) hashes.add(u.consumingTxHash);
        }
      }
      if (chain === 'p') {
        for (const i of staking.validationsByAddr[a] ?? []) hashes.add((staking.validators[i] as ValidatorRecord).txHash);
        for (const d of staking.delegationsByAddr[a] ?? []) hashes.add(delegationTxHash(ctx, d));
      }
    }
    const out: Entry[] = [];
    for (const hash of hashes) {
      const ref = byHash.get(hash);
      if (ref && this.chainOf(ref) === chain) out.push({ hash, ts: this.timeOf(ref) });
    }
    return out.sort((a, b) => a.ts - b.ts || (a.hash < b.hash ? -1 : 1));
  }

  /** Some transactions of a chain by hash (unknown ones left out), oldest first. */
  private entriesOf(chain: PrimaryChain, hashes: readonly string[]): Entry[] {
    const { byHash } = this.built();
    const out: Entry[] = [];
    for (const hash of new Set(hashes)) {
      const ref = byHash.get(hash);
      if (ref && this.chainOf(ref) === chain) out.push({ hash, ts: this.timeOf(ref) });
    }
    return out.sort((a, b) => a.ts - b.ts || (a.hash < b.hash ? -1 : 1));
  }

  /** A staking or reward transaction's type without building it; undefined for the others. */
  private typeOf(ref: Ref): string | undefined {
    switch (ref.kind) {
      case 'validation':
        return (this.data.staking.validators[ref.index] as ValidatorRecord).primary ? 'AddPermissionlessValidatorTx' : 'AddSubnetValidatorTx';
      case 'delegation':
        return 'AddPermissionlessDelegatorTx';
      case 'validationReward':
      case 'delegationReward':
        return 'RewardValidatorTx';
      case 'utxo':
        return undefined;
    }
  }

  private pageEntries(entries: readonly Entry[], q: TxQuery, offset: number, limit: number): Page<PrimaryTx> {
    const { byHash } = this.built();
    const inTime = entries.filter((e) => (q.startTimestamp === undefined || e.ts >= q.startTimestamp) && (q.endTimestamp === undefined || e.ts <= q.endTimestamp));
    const ordered = q.sortOrder === 'desc' ? [...inTime].reverse() : inTime;
    const types = q.txTypes ? new Set(q.txTypes) : undefined;
    const items: PrimaryTx[] = [];
    let seen = 0;
    for (const e of ordered) {
      const ref = byHash.get(e.hash);
      if (!ref) continue;
      const known = this.typeOf(ref);
      if (types && known !== undefined && !types.has(known)) continue;
      const tx = types && known === undefined ? this.build(ref, e.hash) : undefined;
      if (tx && types && !types.has(tx.txType)) continue;
      if (seen++ < offset) continue;
      if (items.length === limit) return { items, hasMore: true };
      items.push(tx ?? this.build(ref, e.hash));
    }
    return { items, hasMore: false };
  }

  /**
   * Latest transactions of a P- or X-chain read from its blocks, newest first (or oldest
   * first with `asc`). The cursor packs a height and a position in that block
   * (`height * 65536 + position + 1`; 0: none). A page scans at most
   * {@link MAX_SCANNED_BLOCKS} blocks, and its token resumes where it stopped.
   */
  private scanBlocks(chain: 'p' | 'x', q: TxQuery, cursor: number, limit: number, keep: (tx: PrimaryTx) => boolean = () => true): Page<PrimaryTx> & { next?: number } {
    const ctx = this.data.ctx;
    const latest = heightAt(ctx, chain, this.nowSec());
    const top = q.endTimestamp === undefined ? latest : Math.min(latest, heightAt(ctx, chain, q.endTimestamp));
    const bottom = q.startTimestamp === undefined ? 0 : heightAt(ctx, chain, q.startTimestamp);
    const step = q.sortOrder === 'asc' ? 1 : -1;
    let h = step < 0 ? top : bottom;
    let skip = 0;
    if (cursor > 0) {
      h = Math.floor((cursor - 1) / 65536);
      skip = (cursor - 1) % 65536;
    }
    const types = q.txTypes ? new Set(q.txTypes) : undefined;
    const items: PrimaryTx[] = [];
    for (let scanned = 0; h >= bottom && h <= top; h += step, scanned++, skip = 0) {
      if (scanned === MAX_SCANNED_BLOCKS) return { items, hasMore: true, next: h * 65536 + 1 };
      const block = this.decorate(chain, this.rawBlock(chain, h));
      for (let k = skip; k < block.transactions.length; k++) {
        const tx = this.transaction(chain, block.transactions[k] as string);
        if (!tx) continue;
        const ts = approximately('blockTimestamp' in tx ? tx.blockTimestamp : tx.timestamp);
        if ((q.startTimestamp !== undefined && ts < q.startTimestamp) || (q.endTimestamp !== undefined && ts > q.endTimestamp)) continue;
        if (types && !types.has(tx.txType)) continue;
        if (!keep(tx)) continue;
        if (items.length === limit) return { items, hasMore: true, next: h * 65536 + k + 1 };
        items.push(tx);
      }
    }
    return { items, hasMore: false };
  }
}


/** Whether an X-chain transaction moves the asset: in a UTXO it consumes or emits, or in its amounts. */
function movesAsset(tx: PrimaryTx, assetId: string): boolean {
  const amounts = 'amountCreated' in tx ? [tx.amountCreated, tx.amountUnlocked] : [];
  const lists: (readonly AssetAmount[] | undefined)[] = [tx.consumedUtxos?.map((u) => u.asset), tx.emittedUtxos?.map((u) => u.asset), ...amounts];
  return lists.some((list) => list?.some((a) => a.assetId === assetId) ?? false);
}

function blsOf(tag: string, nodeId: string): { publicKey: string; proofOfPossession: string } {
  return { publicKey: `0x${hexOf(`${tag}:bls-pk:${nodeId}`, 48)}`, proofOfPossession: `0x${hexOf(`${tag}:bls-pop:${nodeId}`, 96)}` };
}

/** Totals per asset, in first-seen order. */
function sumAssets(utxos: readonly Utxo[]): AssetAmount[] {
  const totals = new Map<string, AssetAmount>();
  for (const u of utxos) {
    const known = totals.get(u.asset.assetId);
    totals.set(u.asset.assetId, { ...u.asset, amount: (BigInt(known?.amount ?? '0') + BigInt(u.asset.amount)).toString() });
  }
  return [...totals.values()];
}

function aggregate(utxos: readonly Utxo[]): AggregatedAssetAmount[] {
  const counts = new Map<string, number>();
  for (const u of utxos) counts.set(u.asset.assetId, (counts.get(u.asset.assetId) ?? 0) + 1);
  return sumAssets(utxos).map((a) => ({ ...a, utxoCount: counts.get(a.assetId) ?? 0 }));
}

function shared(utxos: readonly Utxo[], withChain: (u: Utxo) => string): SharedAssetAmount[] {
  const groups = new Map<string, Utxo[]>();
  for (const u of utxos) {
    const key = withChain(u);
    const list = groups.get(key);
    if (list) list.push(u);
    else groups.set(key, [u]);
  }
  return [...groups].flatMap(([chainId, list]) => aggregate(list).map((a) => ({ ...a, sharedWithChainId: chainId })));
}

