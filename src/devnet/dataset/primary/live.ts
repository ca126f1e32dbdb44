/**
 * Live primary-network activity: what happens on the P- and X-chain after the dataset was generated,
 * so that primary-network and validator webhooks have something to tell. The seeded past (everything
 * up to `generatedAt`) is left as it is; from the first block after it, every LIVE_EVERY_BLOCKS-th
 * block of the P-chain and of the X-chain carries one more transaction:
 * - X-chain: a transfer (BaseTx) paying the network's activity address (`X-` + {@link LiveActivity.address});
 * - P-chain: in turn, a transfer (BaseTx) paying the activity address (`P-`), and a delegation
 *   (AddPermissionlessDelegatorTx) to the activity node (the fixtures' `nodeId`, an active
 *   validator), its reward address the activity address.
 *
 * - P-chain, in the blocks between (one in VALIDATION_EVERY_BLOCKS): a new validation
 *   (AddPermissionlessValidatorTx) on the primary network, pending for PENDING_SECONDS, then active for
 *   an hour to six (much shorter than the real network's two weeks, so a running devnet shows
 *   validations ending), then completed with its rewards. Every other one is a new node; the others
 *   re-validate a node whose last validation has ended; and when the activity node has no validation
 *   left, the next one is its own re-validation. A delegation slot whose block finds the activity node
 *   without a validation lasting another hour carries a transfer instead.
 *
 * Each is a function of (seed, network, height): its id carries the chain and height (and a keyed
 * hash), so getTxByHash finds it, the block at that height lists it, and the latest-transactions
 * listing (read from the blocks) shows it. Validations are chosen in block order (each depends on the
 * nodes' earlier validations), computed once and kept (LiveActivity.validationsThrough); timeline.ts
 * turns them and the delegations into the staking listings at a given instant. The activity address is outside the address book: its
 * UTXO listing and balances are not fed by these transfers.
 */

import { bech32 } from 'bech32';
import { decodeCb58 } from '../../../lib/base58.ts';
import { formatCb58Id } from '../../../lib/ids.ts';
import type { PChainTransaction, Utxo, XChainTransaction } from '../../../shapes/index.ts';
import { heightAt } from './chain-activity.ts';
import { BLOCK_INTERVAL_SECONDS, DAY, NANO, type PrimaryChain } from './constants.ts';
import { avaxAmount, type NetworkContext } from './context.ts';
import { hexOf, id32, nodeIdOf, sha } from './ids.ts';
import { validatorRewardTx, type ValidatorRecord } from './staking.ts';

/** One block in this many, from the first after generation, carries a live transaction (per chain). */
export const LIVE_EVERY_BLOCKS = 3;
const MAGIC = 0xb8;
const CHAIN_CODE: Record<'p' | 'x', number> = { p: 1, x: 2 };
/** Where in its cycle a chain's live blocks fall, so the P- and X-chain take turns. */
const PHASE: Record<'p' | 'x', number> = { p: 0, x: 1 };
/** One P-chain block in this many (at VALIDATION_PHASE, a block no other live transaction uses) adds a validation. */
export const VALIDATION_EVERY_BLOCKS = 300;
const VALIDATION_PHASE = 2;
/** A live validation is pending this long after its transaction's block. */
export const PENDING_SECONDS = 300;
const HOUR = 3600;
/** A delegation lasts two weeks, or until its validation ends if that is sooner. */
const DELEGATION_SECONDS = 14 * DAY;

/** A validation added after generation (in the P-chain block `height`). */
export interface LiveValidation {
  height: number;
  txHash: string;
  nodeId: string;
  /** Its block's time, seconds. */
  blockTimestamp: number;
  start: number;
  end: number;
  /** nAVAX. */
  stake: number;
  /** Hundredths of a percent. */
  feeBps: number;
  /** Index of its reward address in the address book. */
  rewardAddr: number;
}

/** A delegation added after generation, to the activity node's validation of its time. */
export interface LiveDelegation {
  /** Its block (its tx is `LiveActivity.delegationTx(height)`, made when asked for). */
  height: number;
  /** The add-validator tx of the validation delegated to. */
  validationTx: string;
  /** nAVAX. */
  amount: number;
  start: number;
  end: number;
}

/** What live.ts reads of the seeded records. */
export interface LiveSeed {
  readonly validators: readonly ValidatorRecord[];
  /** Addresses in the book, and how many of the first are "hot". */
  readonly addressCount: number;
  readonly hotAddresses: number;
  readonly minStakeAvax: number;
  /** The body of the address book's address at an index. */
  readonly rewardAddress: (index: number) => string;
  /** A P-chain block's time, seconds. */
  readonly blockTime: (height: number) => number;
}

/** What one live transaction does, as the webhooks tell it. */
export interface LiveEvent {
  chain: 'p' | 'x';
  height: number;
  txHash: string;
  txType: 'BaseTx' | 'AddPermissionlessDelegatorTx' | 'AddPermissionlessValidatorTx';
  /** Block time, seconds. */
  timestamp: number;
  /** The address body it pays (or names as reward address). */
  address: string;
  /** The node delegated to or validating (delegations and validations only). */
  nodeId?: string;
}

/** The network's activity address (a body, `avax1...` / `fuji1...`): outside the address book. */
export function liveAddress(ctx: NetworkContext): string {
  return bech32.encode(ctx.profile.hrp, bech32.toWords(sha(`${ctx.tag}:live-address`).subarray(0, 20)));
}

export class LiveActivity {
  /** The activity address's body (`avax1...` / `fuji1...`), outside the address book. */
  readonly address: string;

  /** Live validations in block order, through `computedThrough` (a P-chain height). */
  private readonly validations: LiveValidation[] = [];
  private readonly validationByHeight = new Map<number, LiveValidation>();
  private computedThrough: number;
  /** Each node's latest validation end (seeded and live), for re-validations. */
  private readonly lastEnd = new Map<string, number>();
  /** Seeded primary nodes, sorted: re-validation candidates. */
  private readonly seededNodes: string[];
  /** The activity node's validation periods (seeded and live), in block order. */
  private readonly nodePeriods: { txHash: string; start: number; end: number }[] = [];
  private readonly delegations: LiveDelegation[] = [];
  private delegationsThroughHeight: number;

  constructor(
    private readonly ctx: NetworkContext,
    /** The node the live delegations go to. */
    readonly nodeId: string,
    /** Its primary network (subnet) id. */
    private readonly subnetId: string,
    private readonly seed: LiveSeed,
  ) {
    this.address = liveAddress(ctx);
    for (const v of seed.validators) {
      if (!v.primary) continue;
      this.lastEnd.set(v.nodeId, Math.max(this.lastEnd.get(v.nodeId) ?? 0, v.end));
      if (v.nodeId === nodeId) this.nodePeriods.push({ txHash: v.txHash, start: v.start, end: v.end });
    }
    this.seededNodes = [...this.lastEnd.keys()].sort();
    this.computedThrough = this.firstHeight('p') - 1;
    this.delegationsThroughHeight = this.computedThrough;
  }

  /** The live validations whose block is at or before `height` (a P-chain height), in block order. */
  validationsThrough(height: number): readonly LiveValidation[] {
    this.computeValidations(height);
    let n = this.validations.length;
    while (n > 0 && (this.validations[n - 1] as LiveValidation).height > height) n--;
    return n === this.validations.length ? this.validations : this.validations.slice(0, n);
  }

  /** The live delegations whose block is at or before `height`, in block order. */
  delegationsThrough(height: number): readonly LiveDelegation[] {
    // Delegation slots are one P-chain block in 2 * LIVE_EVERY_BLOCKS.
    const cycle = 2 * LIVE_EVERY_BLOCKS;
    const from = this.delegationsThroughHeight + 1;
    for (let h = from + ((((LIVE_EVERY_BLOCKS + PHASE.p - from) % cycle) + cycle) % cycle); h <= height; h += cycle) {
      const d = this.delegation(h);
      if (d) this.delegations.push(d);
    }
    this.delegationsThroughHeight = Math.max(this.delegationsThroughHeight, height);
    let n = this.delegations.length;
    while (n > 0 && (this.delegations[n - 1] as LiveDelegation).height > height) n--;
    return n === this.delegations.length ? this.delegations : this.delegations.slice(0, n);
  }

  /** Chooses the live validations through `height`, once (each depends on the ones before). */
  private computeValidations(height: number): void {
    for (let h = this.nextValidationHeight(this.computedThrough + 1); h <= height; h += VALIDATION_EVERY_BLOCKS) this.addValidation(h);
    this.computedThrough = Math.max(this.computedThrough, height);
  }

  private nextValidationHeight(from: number): number {
    const r = ((VALIDATION_PHASE - from) % VALIDATION_EVERY_BLOCKS + VALIDATION_EVERY_BLOCKS) % VALIDATION_EVERY_BLOCKS;
    return from + r;
  }

  private isValidationSlot(height: number): boolean {
    return height >= this.firstHeight('p') && height % VALIDATION_EVERY_BLOCKS === VALIDATION_PHASE;
  }

  /** The live validation added in block `height`, if that is a validation slot (computing those before it). */
  validationAt(height: number): LiveValidation | undefined {
    if (!this.isValidationSlot(height)) return undefined;
    this.computeValidations(height);
    return this.validationByHeight.get(height);
  }

  private addValidation(height: number): void {
    const ts = this.seed.blockTime(height);
    const r = sha(`${this.ctx.tag}:live-validation:${height}`);
    const slot = Math.floor(height / VALIDATION_EVERY_BLOCKS);
    let nodeId: string | undefined;
    if ((this.lastEnd.get(this.nodeId) ?? 0) <= ts) nodeId = this.nodeId;
    else if (slot % 2 === 1) {
      // A node whose last validation ended at least an hour ago validates again.
      const n = this.seededNodes.length;
      const from = r.readUInt32BE(0) % Math.max(1, n);
      for (let k = 0; k < Math.min(64, n) && nodeId === undefined; k++) {
        const candidate = this.seededNodes[(from + k) % n] as string;
        if (candidate !== this.nodeId && (this.lastEnd.get(candidate) ?? 0) <= ts - HOUR) nodeId = candidate;
      }
    }
    nodeId ??= nodeIdOf(`${this.ctx.tag}:live-node:${height}`);
    const start = ts + PENDING_SECONDS;
    const end = start + HOUR * (1 + (r.readUInt32BE(4) % 6));
    const v: LiveValidation = {
      height, txHash: this.txId('p', height), nodeId, blockTimestamp: ts, start, end,
      stake: this.seed.minStakeAvax * NANO * (1 + (r.readUInt32BE(8) % 20)),
      feeBps: 200 + (r.readUInt32BE(12) % 800),
      rewardAddr: r.readUInt32BE(16) % Math.max(1, this.seed.hotAddresses),
    };
    this.validations.push(v);
    this.validationByHeight.set(height, v);
    this.lastEnd.set(nodeId, end);
    if (nodeId === this.nodeId) this.nodePeriods.push({ txHash: v.txHash, start, end });
  }

  /** The activity node's validation a delegation made at `ts` goes to: active then, for at least another hour. */
  private periodAt(ts: number): { txHash: string; start: number; end: number } | undefined {
    const start = ts + BLOCK_INTERVAL_SECONDS;
    // Periods are in block order and never overlap: the latest that started is the only candidate.
    for (let k = this.nodePeriods.length - 1; k >= 0; k--) {
      const p = this.nodePeriods[k] as { txHash: string; start: number; end: number };
      if (p.start <= start) return p.end >= start + HOUR ? p : undefined;
    }
    return undefined;
  }

  private isDelegationSlot(height: number): boolean {
    return height % LIVE_EVERY_BLOCKS === PHASE.p && Math.floor(height / LIVE_EVERY_BLOCKS) % 2 === 1 && height >= this.firstHeight('p');
  }

  /** The live delegation of P-chain block `height`, if it carries one. */
  delegation(height: number): LiveDelegation | undefined {
    if (!this.isDelegationSlot(height)) return undefined;
    const ts = this.seed.blockTime(height);
    this.computeValidations(height);
    const period = this.periodAt(ts);
    if (!period) return undefined;
    const start = ts + BLOCK_INTERVAL_SECONDS;
    return {
      height, validationTx: period.txHash, amount: this.amount('p', height),
      start, end: Math.min(start + DELEGATION_SECONDS, period.end),
    };
  }

  private amount(chain: 'p' | 'x', height: number): number {
    const r = sha(`${this.ctx.tag}:live-amount:${chain}:${height}`);
    return (1 + (r.readUInt32BE(0) % 5_000)) * (NANO / 100);
  }

  /** The first height of `chain` that may carry live activity (the first block after generation). */
  firstHeight(chain: 'p' | 'x'): number {
    return heightAt(this.ctx, chain, this.ctx.generatedAt) + 1;
  }

  private isLive(chain: 'p' | 'x', height: number): boolean {
    return height >= this.firstHeight(chain) && (height % LIVE_EVERY_BLOCKS === PHASE[chain] || (chain === 'p' && this.isValidationSlot(height)));
  }

  /** The live transaction ids of block `height` (none or one). */
  txIds(chain: PrimaryChain, height: number): string[] {
    return chain !== 'c' && this.isLive(chain, height) ? [this.txId(chain, height)] : [];
  }

  /** The tx of the live delegation in P-chain block `height`. */
  delegationTx(height: number): string {
    return this.txId('p', height);
  }

  private txId(chain: 'p' | 'x', height: number): string {
    const bytes = Buffer.alloc(32);
    bytes[0] = MAGIC;
    bytes[1] = CHAIN_CODE[chain];
    bytes.writeUIntBE(height, 2, 6);
    sha(`${this.ctx.tag}:live-tx:${chain}:${height}`).copy(bytes, 8, 0, 24);
    return formatCb58Id(bytes);
  }

  /** The height of the live transaction `id` of `chain`, or undefined when it is none (whatever the clock says). */
  heightOf(chain: PrimaryChain, id: string): number | undefined {
    if (chain === 'c') return undefined;
    const bytes = decodeCb58(id, 32);
    if (!bytes || bytes[0] !== MAGIC || bytes[1] !== CHAIN_CODE[chain]) return undefined;
    const height = bytes.readUIntBE(2, 6);
    return this.isLive(chain, height) && this.txId(chain, height) === id ? height : undefined;
  }

  /** What the live transaction of block `height` does, or undefined when the block has none. */
  event(chain: 'p' | 'x', height: number, blockTimestamp: number): LiveEvent | undefined {
    if (!this.isLive(chain, height)) return undefined;
    if (chain === 'p' && this.isValidationSlot(height)) {
      const v = this.validationAt(height) as LiveValidation;
      return {
        chain, height, txHash: v.txHash, timestamp: blockTimestamp, txType: 'AddPermissionlessValidatorTx', nodeId: v.nodeId,
        address: this.seed.rewardAddress(v.rewardAddr),
      };
    }
    const delegation = chain === 'p' && this.delegation(height) !== undefined;
    return {
      chain, height, txHash: this.txId(chain, height), timestamp: blockTimestamp, address: this.address,
      txType: delegation ? 'AddPermissionlessDelegatorTx' : 'BaseTx',
      ...(delegation ? { nodeId: this.nodeId } : {}),
    };
  }

  /** The live transaction of block `height` as getTxByHash serves it at `nowSec` (a validation's reward tx once it has ended). */
  transaction(chain: 'p' | 'x', height: number, block: { blockHash: string; blockTimestamp: number }, nowSec = 0): PChainTransaction | XChainTransaction | undefined {
    const live = this.event(chain, height, block.blockTimestamp);
    if (!live) return undefined;
    const { ctx } = this;
    const validation = chain === 'p' ? this.validationAt(height) : undefined;
    const amount = validation ? validation.stake : this.amount(chain, height);
    const ts = block.blockTimestamp;
    const utxo: Utxo = {
      addresses: [live.address],
      asset: avaxAmount(ctx, amount),
      utxoId: id32(`${ctx.tag}:live-utxo:${chain}:${height}`),
      utxoBytes: `0x${hexOf(`${ctx.tag}:live-utxo-bytes:${chain}:${height}`, 60)}`,
      createdOnChainId: ctx.chainIds[chain],
      consumedOnChainId: ctx.chainIds[chain],
      txHash: live.txHash,
      amount: String(amount),
      assetId: ctx.avaxAssetId,
      blockNumber: String(height),
      blockTimestamp: ts,
      outputIndex: 0,
      threshold: 1,
      utxoType: live.nodeId ? 'STAKE' : 'TRANSFER',
      ...(chain === 'p' ? { platformLocktime: 0, stakeableLocktime: 0, staked: live.nodeId !== undefined } : {}),
    };
    if (chain === 'x') {
      return {
        txHash: live.txHash, chainFormat: 'linear', timestamp: ts, txType: 'BaseTx', memo: '0x', consumedUtxos: [], emittedUtxos: [utxo],
        amountUnlocked: [avaxAmount(ctx, amount)], amountCreated: [avaxAmount(ctx, amount)], blockHeight: height, blockHash: block.blockHash,
      };
    }
    const tx: PChainTransaction = {
      txHash: live.txHash, txType: live.txType, blockTimestamp: ts, blockNumber: String(height), blockHash: block.blockHash,
      consumedUtxos: [], emittedUtxos: [utxo], value: [avaxAmount(ctx, amount)], amountBurned: [avaxAmount(ctx, 1_000_000)], amountStaked: [],
      amountL1ValidatorBalanceBurned: [], memo: '0x',
    };
    if (validation) {
      return {
        ...tx, amountStaked: [avaxAmount(ctx, amount)], nodeId: validation.nodeId, subnetId: this.subnetId,
        startTimestamp: validation.start, endTimestamp: validation.end, delegationFeePercent: (validation.feeBps / 100).toFixed(4),
        rewardAddresses: [`P-${live.address}`],
        // Its index in the records is after every seeded validation (timeline.ts).
        ...(validation.end <= nowSec ? { rewardTxHash: validatorRewardTx(ctx, this.seed.validators.length + this.validations.indexOf(validation)) } : {}),
      };
    }
    const delegation = this.delegation(height);
    if (!delegation) return tx;
    return {
      ...tx, amountStaked: [avaxAmount(ctx, amount)], nodeId: this.nodeId, subnetId: this.subnetId, startTimestamp: delegation.start, endTimestamp: delegation.end,
      rewardAddresses: [`P-${this.address}`],
    };
  }
}
