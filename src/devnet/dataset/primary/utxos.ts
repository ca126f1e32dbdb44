/**
 * UTXOs of the P-, X- and C-chain (atomic). Nothing is stored: an address's
 * outputs are derived from its staking records and hashed labels when asked
 * for, so the same address always has the same outputs, spent or not.
 */

import { approximately, type AssetAmount, type Utxo } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { heightAt } from './chain-activity.ts';
import { DAY, type PrimaryChain } from './constants.ts';
import { avaxAmount, type NetworkContext } from './context.ts';
import type { PrimaryRecords } from './generate.ts';
import { hexOf, id32, unit } from './ids.ts';
import { delegationRewardTx, delegationStatus, delegationTxHash, validatorRewardTx, type ValidatorRecord } from './staking.ts';
import { toHistoricalReward } from './staking-wire.ts';
import type { Page, UtxoQuery } from './types.ts';

/** A UTXO with the values it is filtered and sorted by. */
export interface UtxoItem {
  utxo: Utxo;
  amount: number;
  timestamp: number;
  spent: boolean;
}

function utxoBase(ctx: NetworkContext, chainId: string, label: string): Pick<Utxo, 'utxoId' | 'utxoBytes' | 'consumedOnChainId' | 'createdOnChainId'> {
  return {
    utxoId: id32(`${ctx.tag}:utxo:${label}`),
    utxoBytes: `0x${hexOf(`${ctx.tag}:utxo-bytes:${label}`, 60)}`,
    createdOnChainId: chainId,
    consumedOnChainId: chainId,
  };
}

/** Marks a UTXO spent `delay` seconds after creation (never after the generation instant). */
function spend(ctx: NetworkContext, item: UtxoItem, chain: PrimaryChain, label: string): void {
  const when = Math.min(ctx.generatedAt - 60, item.timestamp + 3600 + Math.floor(unit(`${ctx.tag}:spend-at:${label}`) * 30 * DAY));
  item.spent = true;
  item.utxo.consumingTxHash = chain === 'c' ? `0x${hexOf(`${ctx.tag}:spend:${label}`, 32)}` : id32(`${ctx.tag}:spend:${label}`);
  item.utxo.consumingBlockNumber = String(heightAt(ctx, chain, when));
  item.utxo.consumingBlockTimestamp = when;
}

/** Stake, reward and plain transfer outputs of an address on the P-chain. */
function pChainUtxos(data: PrimaryRecords, a: number): UtxoItem[] {
  const { ctx, addresses, staking } = data;
  const t = staking.delegations;
  const p = ctx.chainIds.p;
  const address = addresses.list[a] as string;
  const out: UtxoItem[] = [];
  const stakeItem = (label: string, txHash: string, amount: number, start: number, end: number, rewardType: string, staked: boolean): UtxoItem => {
    const created = staked ? start - 600 : end;
    return {
      amount,
      timestamp: created,
      spent: false,
      utxo: {
        addresses: [address],
        asset: avaxAmount(ctx, amount),
        ...utxoBase(ctx, p, label),
        txHash,
        amount: String(amount),
        assetId: ctx.avaxAssetId,
        blockNumber: String(heightAt(ctx, 'p', created)),
        blockTimestamp: created,
        platformLocktime: 0,
        stakeableLocktime: 0,
        outputIndex: 0,
        threshold: 1,
        rewardType,
        staked,
        utxoStartTimestamp: start,
        utxoEndTimestamp: end,
        utxoType: staked ? 'STAKE' : 'TRANSFER',
      },
    };
  };
  // Stake outputs: locked while the validation/delegation runs, returned unlocked after it.
  for (const d of staking.delegationsByAddr[a] ?? []) {
    const st = delegationStatus(t, d);
    const staked = st !== 'completed';
    const label = `stake-d:${d}`;
    const item = stakeItem(label, staked ? delegationTxHash(ctx, d) : delegationRewardTx(ctx, d), t.amount[d] as number, t.start[d] as number, t.end[d] as number, 'DELEGATOR', staked);
    if (!staked && unit(`${ctx.tag}:spent:${label}`) < 0.5) spend(ctx, item, 'p', label);
    out.push(item);
  }
  for (const i of staking.validationsByAddr[a] ?? []) {
    const v = staking.validators[i] as ValidatorRecord;
    const staked = v.status !== 'completed';
    const label = `stake-v:${i}`;
    const item = stakeItem(label, staked ? v.txHash : validatorRewardTx(ctx, i), v.stake, v.start, v.end, 'VALIDATOR', staked);
    if (!staked && unit(`${ctx.tag}:spent:${label}`) < 0.5) spend(ctx, item, 'p', label);
    out.push(item);
  }
  // Reward outputs: the same utxo ids the historical rewards point at.
  for (const pos of staking.historical.byAddr[a] ?? []) {
    const code = staking.historical.codes[pos] as number;
    const reward = toHistoricalReward(data, code, 'usd');
    const amount = Number(reward.reward.amount);
    const item: UtxoItem = {
      amount,
      timestamp: approximately(reward.endTimestamp),
      spent: false,
      utxo: {
        addresses: [address],
        asset: avaxAmount(ctx, amount),
        ...utxoBase(ctx, p, `reward:${code}`),
        utxoId: reward.utxoId,
        txHash: reward.rewardTxHash,
        amount: String(amount),
        assetId: ctx.avaxAssetId,
        blockNumber: String(heightAt(ctx, 'p', approximately(reward.endTimestamp))),
        blockTimestamp: reward.endTimestamp,
        platformLocktime: 0,
        stakeableLocktime: 0,
        outputIndex: reward.outputIndex,
        threshold: 1,
        rewardType: reward.rewardType,
        staked: false,
        utxoType: 'TRANSFER',
      },
    };
    if (unit(`${ctx.tag}:spent:reward:${code}`) < 0.4) spend(ctx, item, 'p', `reward:${code}`);
    out.push(item);
  }
  // Plain transfers (imports, change outputs).
  const hot = a < addresses.hot;
  const rng = new Rng(`${ctx.tag}:p-utxos:${address}`);
  const plain = hot ? rng.int(2, 6) : rng.int(0, 3);
  for (let k = 0; k < plain; k++) {
    const label = `p-plain:${a}:${k}`;
    const ts = rng.int(ctx.profile.genesis + DAY, ctx.generatedAt - DAY);
    const amount = rng.int(1, 5_000_000) * 1_000_000;
    const item: UtxoItem = {
      amount,
      timestamp: ts,
      spent: false,
      utxo: {
        addresses: [address],
        asset: avaxAmount(ctx, amount),
        ...utxoBase(ctx, p, label),
        txHash: id32(`${ctx.tag}:p-tx:${label}`),
        amount: String(amount),
        assetId: ctx.avaxAssetId,
        blockNumber: String(heightAt(ctx, 'p', ts)),
        blockTimestamp: ts,
        platformLocktime: 0,
        stakeableLocktime: rng.bool(0.1) ? ts + 180 * DAY : 0,
        outputIndex: rng.int(0, 2),
        threshold: 1,
        staked: false,
        utxoType: 'TRANSFER',
      },
    };
    // Hot addresses always show one spent and one unspent output.
    if (hot ? k === 0 : rng.bool(0.3)) spend(ctx, item, 'p', label);
    out.push(item);
  }
  return out;
}

/** X-chain outputs (AVAX and other assets), or atomic outputs exported to the C-chain. */
export function assetUtxos(data: PrimaryRecords, a: number, chain: 'x' | 'c'): UtxoItem[] {
  const { ctx, addresses } = data;
  const address = addresses.list[a] as string;
  const rng = new Rng(`${ctx.tag}:${chain}-utxos:${address}`);
  const hot = a < addresses.hot;
  const count = chain === 'x' ? (hot ? rng.int(4, 12) : rng.int(0, 4)) : hot ? rng.int(1, 3) : rng.bool(0.1) ? 1 : 0;
  const chainId = ctx.chainIds[chain];
  const out: UtxoItem[] = [];
  for (let k = 0; k < count; k++) {
    const label = `${chain}-plain:${a}:${k}`;
    const other = chain === 'x' && (hot ? k === 0 : rng.bool(0.3)) ? rng.pick(ctx.xAssets) : undefined;
    const amount = other ? rng.int(1, 10_000_000) * 10 ** Math.min(other.denomination, 3) : rng.int(1, 2_000_000) * 1_000_000;
    const ts = rng.int(chain === 'x' ? ctx.profile.genesis + DAY : ctx.profile.genesis + 30 * DAY, ctx.generatedAt - DAY);
    const asset: AssetAmount = other
      ? { assetId: other.assetId, name: other.name, symbol: other.symbol, denomination: other.denomination, type: 'secp256k1', amount: String(amount) }
      : avaxAmount(ctx, amount);
    const item: UtxoItem = {
      amount,
      timestamp: ts,
      spent: false,
      utxo: {
        addresses: [address],
        asset,
        ...utxoBase(ctx, chainId, label),
        // Atomic outputs on the C-chain were exported from the X-chain.
        createdOnChainId: chain === 'c' ? ctx.chainIds.x : chainId,
        txHash: id32(`${ctx.tag}:${chain}-tx:${label}`),
        amount: String(amount),
        assetId: asset.assetId,
        blockNumber: String(heightAt(ctx, chain === 'c' ? 'x' : chain, ts)),
        blockTimestamp: ts,
        outputIndex: rng.int(0, 3),
        threshold: 1,
        utxoType: 'TRANSFER',
      },
    };
    if (hot ? k === 1 : rng.bool(0.3)) spend(ctx, item, chain, label);
    out.push(item);
  }
  return out;
}

/** Sorted by `sortBy` then utxo id; addresses are bodies without chain prefix. */
export function listUtxos(data: PrimaryRecords, chain: PrimaryChain, q: UtxoQuery, offset: number, limit: number): Page<Utxo> {
  const seen = new Set<number>();
  let items: UtxoItem[] = [];
  for (const address of q.addresses) {
    const a = data.addresses.indexOf.get(address);
    if (a === undefined || seen.has(a)) continue;
    seen.add(a);
    items = items.concat(chain === 'p' ? pChainUtxos(data, a) : assetUtxos(data, a, chain));
  }
  const min = q.minUtxoAmount ?? 0;
  items = items.filter(
    (u) => (q.includeSpent || !u.spent) && u.amount >= min && (q.assetId === undefined || u.utxo.assetId === q.assetId),
  );
  const key = (u: UtxoItem): number => (q.sortBy === 'amount' ? u.amount : u.timestamp);
  items.sort((x, y) => key(x) - key(y) || (x.utxo.utxoId < y.utxo.utxoId ? -1 : x.utxo.utxoId > y.utxo.utxoId ? 1 : 0));
  if (q.sortOrder === 'desc') items.reverse();
  return { items: items.slice(offset, offset + limit).map((u) => u.utxo), hasMore: items.length > offset + limit };
}
