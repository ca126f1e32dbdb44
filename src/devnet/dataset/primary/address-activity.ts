/**
 * What the dataset knows about a set of primary-network addresses beyond their UTXO
 * lists, derived from those lists (and the staking records), so every answer agrees
 * with the UTXOs and transactions already served: the chains an address is active on
 * (getChainIdsForAddresses) and the latest UTXO created or consumed for a set of
 * addresses on one chain (getLastActivityTimestampByAddresses).
 */

import { approximately, type LastActivityTimestamp, type Utxo } from '../../../shapes/index.ts';
import { heightAt } from './chain-activity.ts';
import { CHAIN_NAMES, type PrimaryChain } from './constants.ts';
import type { PrimaryRecords } from './generate.ts';
import { listUtxos } from './utxos.ts';

const CHAINS = ['p', 'x', 'c'] as const;

function everyUtxo(data: PrimaryRecords, chain: PrimaryChain, bodies: string[]): Utxo[] {
  return listUtxos(data, chain, { addresses: bodies, includeSpent: true, sortBy: 'timestamp', sortOrder: 'asc' }, 0, Number.MAX_SAFE_INTEGER).items;
}

/** The primary chains an address body has UTXOs (or, on the P-chain, stakes) on, as the network's blockchain ids. */
export function chainIdsOf(data: PrimaryRecords, body: string): string[] {
  const a = data.addresses.indexOf.get(body);
  if (a === undefined) return [];
  const staked = (data.staking.validationsByAddr[a]?.length ?? 0) + (data.staking.delegationsByAddr[a]?.length ?? 0) > 0;
  return CHAINS.filter((chain) => (chain === 'p' && staked) || everyUtxo(data, chain, [body]).length > 0).map((chain) => data.ctx.chainIds[chain]);
}

/** Orders activities: later first, then consumptions, then smaller UTXO ids. */
function rank(timestamp: LastActivityTimestamp['timestamp'], isConsumed: boolean, utxoId: string): number {
  // Timestamps are seconds (below 2^33) and the id's first character breaks ties: one safe number.
  return (approximately(timestamp) * 2 + (isConsumed ? 1 : 0)) * 128 + (127 - (utxoId.charCodeAt(0) % 128));
}

/** The latest creation or consumption among the addresses' UTXOs on `chain` up to `nowSec`; undefined without any. */
export function lastActivityOf(data: PrimaryRecords, chain: PrimaryChain, bodies: string[], nowSec: number): LastActivityTimestamp | undefined {
  let best: LastActivityTimestamp | undefined;
  const consider = (timestamp: number, blockNumber: string | undefined, txHash: string, utxoId: string, isConsumed: boolean): void => {
    if (timestamp > nowSec) return;
    // Ties go to the consumption, then to the smaller UTXO id, so the answer does not depend on listing order.
    if (best && rank(best.timestamp, best.isConsumed, best.utxoId) >= rank(timestamp, isConsumed, utxoId)) return;
    best = {
      timestamp, blockNumber: blockNumber ?? String(heightAt(data.ctx, chain, timestamp)), txHash, utxoId, isConsumed,
      chainName: CHAIN_NAMES[chain], network: data.ctx.network,
    };
  };
  for (const u of everyUtxo(data, chain, bodies)) {
    consider(approximately(u.blockTimestamp), u.blockNumber, u.txHash, u.utxoId, false);
    if (u.consumingTxHash !== undefined && u.consumingBlockTimestamp !== undefined) {
      consider(approximately(u.consumingBlockTimestamp), u.consumingBlockNumber, u.consumingTxHash, u.utxoId, true);
    }
  }
  return best;
}
