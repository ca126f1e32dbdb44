import DataLoader from 'dataloader';
import { isNodeId } from '../lib/ids.ts';
import { scanPages } from '../lib/pages.ts';
import { PRIMARY_NETWORK_ID, type Validator } from '../shapes/index.ts';
import { memoLoader, networkKeys, upstreamOf, type LoaderContext } from './registry.ts';
import { periodOf, timeOf, type Timed } from './staking-time.ts';
import type { NetworkId } from './types.ts';
import { notFoundOrUnusable, VALIDATOR_LINK } from './validators.ts';

/**
 * Links from a delegation or a reward to the validation it belongs to.
 *
 * A node validates again and again (on mainnet, many times over the years), and
 * each time is its own validation record: its own staking tx, period, stake, fee,
 * delegations and rewards. So "the node's validation" is not one record: a link
 * reads all of the node's primary-network validations (batched: one listing per 100
 * nodes, as `validatorByNodeId` does) and picks the one the item belongs to.
 */

const NODE_VALIDATIONS_KEYS = networkKeys('nodeValidations');

/**
 * Every primary-network validation of each node, in the listing's order: the node ids
 * of a request are sent 100 at a time as a `nodeIds` comma list, each chunk read to
 * `VALIDATOR_LINK.maxPages` pages (so {@link validatorLinkCost} is this loader's cost
 * too). The upstream matches substrings, so validations are matched back exactly. An
 * unknown node has none; an id that is not a node id (it came from an upstream
 * answer) is not sent, and answers an error naming it.
 */
export function nodeValidations(ctx: LoaderContext, network: NetworkId): DataLoader<string, readonly Validator[]> {
  return memoLoader(ctx, NODE_VALIDATIONS_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, readonly Validator[]>(
      async (nodeIds) => {
        const valid = [...new Set(nodeIds.filter(isNodeId))];
        const found = new Map<string, Validator[]>(valid.map((id) => [id, []]));
        const chunks: string[][] = [];
        for (let i = 0; i < valid.length; i += VALIDATOR_LINK.idsPerCall) chunks.push(valid.slice(i, i + VALIDATOR_LINK.idsPerCall));
        await Promise.all(
          chunks.map((chunk) =>
            scanPages(
              (pageToken, pageSize) =>
                dataApi
                  .listValidators(network, { nodeIds: chunk, subnetId: PRIMARY_NETWORK_ID, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call)
                  .then((page) => ({ items: page.validators, nextPageToken: page.nextPageToken })),
              VALIDATOR_LINK.idsPerCall,
              VALIDATOR_LINK.maxPages,
              (validators) => {
                for (const v of validators) if (v.subnetId === PRIMARY_NETWORK_ID) found.get(v.nodeId)?.push(v);
              },
            ),
          ),
        );
        return nodeIds.map((id) => found.get(id) ?? notFoundOrUnusable(id) ?? []);
      },
      { maxBatchSize: 1000 },
    );
  });
}

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
