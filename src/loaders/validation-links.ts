import { PRIMARY_NETWORK_ID, type Validator, type WideInteger } from '../shapes/index.ts';
import { periodOf, timeOf, type Timed } from './staking-time.ts';

/**
 * Links from a record (a delegation, a reward, a staking transaction, a block) to the
 * validation it belongs to: one rule per kind of record, here, for every link.
 *
 * A node validates again and again (on mainnet, many times over the years), and
 * each time is its own validation record: its own staking tx, period, stake, fee,
 * delegations and rewards. So "the node's validation" is not one record: a link
 * reads all of the node's primary-network validations through `nodeValidations`
 * (batched: one listing per 100 nodes, the same listing the current-validation lookup
 * `validatorByNodeId` picks from) and picks the one the record belongs to.
 */

export { nodeValidations } from './validators.ts';

/**
 * The validation whose period holds the instant `at` (its start <= `at` <= its end).
 * A node's validations do not overlap; should an answer have them overlap, the one
 * that started last wins (the node's newer record of that time).
 */
export function validationHolding(validations: readonly Validator[], at: number | undefined): Validator | null {
  if (at === undefined) return null;
  let best: Validator | null = null;
  let bestStart = -Infinity;
  for (const v of validations) {
    const p = periodOf(v);
    if (p && p.start <= at && at <= p.end && p.start > bestStart) {
      best = v;
      bestStart = p.start;
    }
  }
  return best;
}

/** The validation a delegation belongs to: the one of its node whose period holds the delegation's start. */
export function validationOfDelegation(validations: readonly Validator[], delegation: Timed): Validator | null {
  return validationHolding(validations, timeOf(() => delegation.startTimestamp));
}

/**
 * The validation a reward was paid for: the one whose staking tx is the reward's
 * `txHash` (a validation's own reward), else the one whose period holds the start of
 * the reward's staking period (a delegation's reward, or the validator's fee on it:
 * their `txHash` is the delegation's).
 */
export function validationOfReward(validations: readonly Validator[], reward: Timed & { txHash: string }): Validator | null {
  const own = validations.find((v) => v.txHash === reward.txHash);
  return own ?? validationOfDelegation(validations, reward);
}

/** Transaction types that add a primary-network validator: their own validation is the record with their hash. */
const ADDS_VALIDATOR: ReadonlySet<string> = new Set(['AddValidatorTx', 'AddPermissionlessValidatorTx']);

/** What the transaction rule reads of a P-chain transaction (fields the answer broke read as absent). */
export interface StakingTransactionFacts {
  txHash: string;
  txType: string;
  subnetId?: string | undefined;
  startTimestamp?: WideInteger | undefined;
  stakingTxHash?: string | undefined;
  /** When it was accepted (`blockTimestamp`). */
  blockTimestamp: WideInteger;
}

/** A field of an upstream answer, or undefined when the answer broke it (its getter throws): the field fails alone, where it is read. */
function readOr<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * The validation a P-chain transaction of the node belongs to:
 * - a transaction adding a primary-network validator: the validation whose staking
 *   tx is this transaction (null when the node's list lacks it: the node's other
 *   records are other validations, never this one);
 * - a reward: the validation it rewards, as {@link validationOfReward} finds it from
 *   its `stakingTxHash`;
 * - any other staking transaction with a period (a delegation, a subnet validation):
 *   the validation whose period holds its start, as {@link validationOfDelegation};
 * - anything else: the validation whose period holds the transaction's time.
 */
export function validationOfTransaction(validations: readonly Validator[], tx: StakingTransactionFacts): Validator | null {
  const txHash = readOr(() => tx.txHash);
  const txType = readOr(() => tx.txType);
  const subnetId = readOr(() => tx.subnetId);
  if (txType !== undefined && ADDS_VALIDATOR.has(txType) && (subnetId === undefined || subnetId === PRIMARY_NETWORK_ID)) {
    return validations.find((v) => v.txHash === txHash) ?? null;
  }
  const start = timeOf(() => tx.startTimestamp ?? Number.NaN);
  const stakingTxHash = readOr(() => tx.stakingTxHash);
  if (stakingTxHash !== undefined) {
    const own = validations.find((v) => v.txHash === stakingTxHash);
    if (own) return own;
  }
  if (start !== undefined) return validationHolding(validations, start);
  return validationHolding(validations, timeOf(() => tx.blockTimestamp));
}

/** The validation a block's proposer was running when it proposed the block: the one whose period holds the block's time. */
export function validationOfBlock(validations: readonly Validator[], block: { blockTimestamp: WideInteger }): Validator | null {
  return validationHolding(validations, timeOf(() => block.blockTimestamp));
}
