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
 * Each is a function of (seed, network, height): its id carries the chain and height (and a keyed
 * hash), so getTxByHash finds it, the block at that height lists it, and the latest-transactions
 * listing (read from the blocks) shows it. The activity address is outside the address book: its
 * UTXO listing and balances are not fed by these transfers.
 */

import { bech32 } from 'bech32';
import { decodeCb58 } from '../../../lib/base58.ts';
import { formatCb58Id } from '../../../lib/ids.ts';
import type { PChainTransaction, Utxo, XChainTransaction } from '../../../shapes/index.ts';
import { heightAt } from './chain-activity.ts';
import { BLOCK_INTERVAL_SECONDS, DAY, NANO, type PrimaryChain } from './constants.ts';
import { avaxAmount, type NetworkContext } from './context.ts';
import { hexOf, id32, sha } from './ids.ts';

/** One block in this many, from the first after generation, carries a live transaction (per chain). */
export const LIVE_EVERY_BLOCKS = 3;
const MAGIC = 0xb8;
const CHAIN_CODE: Record<'p' | 'x', number> = { p: 1, x: 2 };
/** Where in its cycle a chain's live blocks fall, so the P- and X-chain take turns. */
const PHASE: Record<'p' | 'x', number> = { p: 0, x: 1 };

/** What one live transaction does, as the webhooks tell it. */
export interface LiveEvent {
  chain: 'p' | 'x';
  height: number;
  txHash: string;
  txType: 'BaseTx' | 'AddPermissionlessDelegatorTx';
  /** Block time, seconds. */
  timestamp: number;
  /** The address body it pays (or names as reward address). */
  address: string;
  /** The node delegated to (delegations only). */
  nodeId?: string;
}

/** The network's activity address (a body, `avax1...` / `fuji1...`): outside the address book. */
export function liveAddress(ctx: NetworkContext): string {
  return bech32.encode(ctx.profile.hrp, bech32.toWords(sha(`${ctx.tag}:live-address`).subarray(0, 20)));
}

export class LiveActivity {
  /** The activity address's body (`avax1...` / `fuji1...`), outside the address book. */
  readonly address: string;

  constructor(
    private readonly ctx: NetworkContext,
    /** The node the live delegations go to. */
    readonly nodeId: string,
    /** Its primary network (subnet) id. */
    private readonly subnetId: string,
  ) {
    this.address = liveAddress(ctx);
  }

  /** The first height of `chain` that may carry live activity (the first block after generation). */
  firstHeight(chain: 'p' | 'x'): number {
    return heightAt(this.ctx, chain, this.ctx.generatedAt) + 1;
  }

  private isLive(chain: 'p' | 'x', height: number): boolean {
    return height >= this.firstHeight(chain) && height % LIVE_EVERY_BLOCKS === PHASE[chain];
  }

  /** The live transaction ids of block `height` (none or one). */
  txIds(chain: PrimaryChain, height: number): string[] {
    return chain !== 'c' && this.isLive(chain, height) ? [this.txId(chain, height)] : [];
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
    const delegation = chain === 'p' && Math.floor(height / LIVE_EVERY_BLOCKS) % 2 === 1;
    return {
      chain, height, txHash: this.txId(chain, height), timestamp: blockTimestamp, address: this.address,
      txType: delegation ? 'AddPermissionlessDelegatorTx' : 'BaseTx',
      ...(delegation ? { nodeId: this.nodeId } : {}),
    };
  }

  /** The live transaction of block `height` as getTxByHash serves it. */
  transaction(chain: 'p' | 'x', height: number, block: { blockHash: string; blockTimestamp: number }): PChainTransaction | XChainTransaction | undefined {
    const live = this.event(chain, height, block.blockTimestamp);
    if (!live) return undefined;
    const { ctx } = this;
    const r = sha(`${ctx.tag}:live-amount:${chain}:${height}`);
    const amount = (1 + (r.readUInt32BE(0) % 5_000)) * (NANO / 100);
    const ts = block.blockTimestamp;
    const utxo: Utxo = {
      addresses: [this.address],
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
    if (!live.nodeId) return tx;
    // A two-week delegation starting a block after its transaction.
    const start = ts + BLOCK_INTERVAL_SECONDS;
    return {
      ...tx, amountStaked: [avaxAmount(ctx, amount)], nodeId: live.nodeId, subnetId: this.subnetId, startTimestamp: start, endTimestamp: start + 14 * DAY,
      rewardAddresses: [`P-${this.address}`],
    };
  }
}
