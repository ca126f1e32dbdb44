import { costs, type FieldCost, type PackingModel, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { FetchPage, UpstreamPage } from '../lib/pages.ts';
import {
  PAGES, type CurrencyCode, type Delegator, type DelegationStatus, type HistoricalReward, type ListDelegatorsParams,
  type ListHistoricalRewardsParams, type ListRewardsParams, type ListValidatorsParams, type PendingReward, type SortOrder,
  type Validator, type WideInteger, withSharedFields,
} from '../shapes/index.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import { timeOf } from './staking-time.ts';
import type { NetworkId } from './types.ts';
import {
  delegationByKey, delegatorsFirstPage, historicalRewardsFirstPage, inWindow, pendingRewardsFirstPage, STAKING_PAGE,
  validationByKey, type StakingWindow, type ValidationKey,
} from './validators.ts';

/**
 * The staking services (E8, E11-E13): listings as page readers for the schema's
 * connections, the per-validation lists (first page through the packing loaders of
 * `validators.ts`, next pages by node), lookups by identity, and what each costs.
 * Every item comes back with the network it was read from.
 */

/** An upstream object plus the network it was read from (the upstream objects do not say). */
export type WithNetwork<T> = T & { network: NetworkId };
export type ValidatorWithNetwork = WithNetwork<Validator>;
export type DelegatorWithNetwork = WithNetwork<Delegator>;
export type HistoricalRewardWithNetwork = WithNetwork<HistoricalReward>;
export type PendingRewardWithNetwork = WithNetwork<PendingReward>;

/** Copies of shared (cached, frozen) items with their network, made once per item (see `withSharedFields`). */
const networkCopies = new WeakMap<object, WithNetwork<object>>();

export const withNetwork = <T extends object>(network: NetworkId, item: T): WithNetwork<T> =>
  withSharedFields(item, { network }, networkCopies as WeakMap<object, WithNetwork<T>>);

const pageParams = (pageToken: string | undefined, pageSize: number) => ({ pageSize, ...(pageToken ? { pageToken } : {}) });

// ---------------------------------------------------------------- listings

/** E8 as pages (`Network.validators`, `Subnet.validators`): one call per page, each parent its own listing. */
export function validatorPages(ctx: LoaderContext, network: NetworkId, params: ListValidatorsParams): FetchPage<ValidatorWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listValidators(network, { ...params, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.validators.map((v) => withNetwork(network, v)), nextPageToken: page.nextPageToken };
  };
}
export const VALIDATOR_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.validators), ENDPOINTS.listValidators);

/** E13 as pages (`Network.delegators`). */
export function delegatorPages(ctx: LoaderContext, network: NetworkId, params: ListDelegatorsParams): FetchPage<DelegatorWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listDelegators(network, { ...params, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.delegators.map((d) => withNetwork(network, d)), nextPageToken: page.nextPageToken };
  };
}
export const DELEGATOR_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.delegators), ENDPOINTS.listDelegators);

/** E11 as pages (`Network.historicalRewards`). */
export function historicalRewardPages(
  ctx: LoaderContext,
  network: NetworkId,
  params: ListHistoricalRewardsParams,
): FetchPage<HistoricalRewardWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listHistoricalRewards(network, { ...params, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.historicalRewards.map((r) => withNetwork(network, r)), nextPageToken: page.nextPageToken };
  };
}
export const HISTORICAL_REWARD_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.historicalRewards), ENDPOINTS.listHistoricalRewards);

/** E12 as pages (`Network.pendingRewards`). */
export function pendingRewardPages(ctx: LoaderContext, network: NetworkId, params: ListRewardsParams): FetchPage<PendingRewardWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listPendingRewards(network, { ...params, ...pageParams(pageToken, pageSize) }, ctx.call);
    return { items: page.pendingRewards.map((r) => withNetwork(network, r)), nextPageToken: page.nextPageToken };
  };
}
export const PENDING_REWARD_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.pendingRewards), ENDPOINTS.listPendingRewards);

// ---------------------------------------------------------------- one validation's lists

/**
 * A validation's list as a connection reads it: `firstPage` from the batching loader
 * (one listing for many validations), `fetchPage` for `after` (this node alone).
 */
export interface ValidationPages<T> {
  firstPage: () => Promise<UpstreamPage<T>>;
  fetchPage: FetchPage<T>;
}

// An end the answer broke is unknown: the window is open on that side (the node's items are kept) rather than failing the list.
const windowOf = (v: ValidatorWithNetwork): StakingWindow => ({
  start: timeOf(() => v.startTimestamp) ?? -Infinity,
  end: timeOf(() => v.endTimestamp) ?? Infinity,
});

/**
 * Keeps the items of this validation: the listings filter by node (as a substring),
 * and a node validates again and again; a validation's delegations and rewards (its
 * own and its delegations') lie within its period.
 */
function ownItems<T extends { nodeId: string; startTimestamp: WideInteger; endTimestamp: WideInteger }>(
  v: ValidatorWithNetwork,
  page: UpstreamPage<T>,
): UpstreamPage<WithNetwork<T>> {
  const window = windowOf(v);
  return { ...page, items: page.items.filter((item) => item.nodeId === v.nodeId && inWindow(window, item)).map((item) => withNetwork(v.network, item)) };
}

/** Options of a validation's delegator list. */
export interface ValidationDelegatorsOptions {
  first: number;
  sortOrder?: SortOrder | undefined;
  delegationStatus?: DelegationStatus | undefined;
}

/**
 * `Validator.delegators`: the first page comes from `delegatorsFirstPage` (one E13
 * listing for many validators, packed by their `delegatorCount`); `after` pages read
 * E13 for this node alone.
 */
export function validationDelegatorPages(ctx: LoaderContext, v: ValidatorWithNetwork, args: ValidationDelegatorsOptions): ValidationPages<DelegatorWithNetwork> {
  const { first, sortOrder, delegationStatus } = args;
  const options = { ...(sortOrder ? { sortOrder } : {}), ...(delegationStatus ? { delegationStatus } : {}) };
  return {
    firstPage: async () =>
      ownItems(
        v,
        await delegatorsFirstPage(ctx, v.network).load({
          nodeId: v.nodeId,
          window: windowOf(v),
          args: { first, ...options },
          // delegatorCount counts every status: only a hint when the listing is not filtered.
          expected: delegationStatus ? undefined : delegatorCountHint(v),
        }),
      ),
    // Made only when a cursor asks for a later page: most lists are read from their first page alone.
    fetchPage: async (pageToken, pageSize) => ownItems(v, await delegatorPages(ctx, v.network, { nodeIds: [v.nodeId], ...options })(pageToken, pageSize)),
  };
}

/**
 * The validation's `delegatorCount` as a packing hint, or none: a count the upstream broke (beyond 32 bits,
 * `src/shapes/kit.ts`) fails `Validator.delegatorCount` when read, not the lists it only helps to pack.
 */
function delegatorCountHint(v: ValidatorWithNetwork): number | undefined {
  try {
    return v.delegatorCount ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * How `Validator.delegators` packs: the hint is the validation's `delegatorCount`,
 * which counts every status, so a status filter leaves every validator with a listing
 * of its own. The mean and the share of validators with more than a page of
 * delegations are the devnet's, measured with the property test
 * (`test/plugins/query-cost-property.test.ts`).
 */
export const DELEGATOR_PACKING: PackingModel = {
  maxPage: STAKING_PAGE,
  meanItems: 10,
  soloShare: 0.1,
  unpacked: (args) => args['delegationStatus'] != null,
};
export const VALIDATION_DELEGATORS_COST: FieldCost = weighing(costs.packedListing(PAGES.delegators, DELEGATOR_PACKING), ENDPOINTS.listDelegators);

/** Options of a validation's reward lists. */
export interface ValidationRewardsOptions {
  first: number;
  sortOrder?: SortOrder | undefined;
}

/**
 * A packing hint for a validation's paid rewards: at most its own plus two per
 * delegation (the delegator's reward and the validator's fee on it).
 */
function historicalRewardsHint(v: ValidatorWithNetwork): number | undefined {
  const count = delegatorCountHint(v);
  return count !== undefined ? 1 + 2 * count : undefined;
}

/**
 * A packing hint for a validation's pending rewards: its own plus one per
 * delegation while active; at most one otherwise (a finished validation has none
 * left). Never 0, which would skip the call: a stale hint only costs a re-plan.
 */
function pendingRewardsHint(v: ValidatorWithNetwork): number | undefined {
  if (v.validationStatus === 'active') {
    const count = delegatorCountHint(v);
    return count !== undefined ? count + 1 : undefined;
  }
  return 1;
}

/** `Validator.historicalRewards`: E11 `nodeIds`, packed across validations by {@link historicalRewardsHint}. */
export function validationHistoricalRewardPages(
  ctx: LoaderContext,
  v: ValidatorWithNetwork,
  args: ValidationRewardsOptions & { currency?: CurrencyCode | undefined },
): ValidationPages<HistoricalRewardWithNetwork> {
  const { first, sortOrder, currency } = args;
  const options = { ...(sortOrder ? { sortOrder } : {}), ...(currency ? { currency } : {}) };
  return {
    firstPage: async () =>
      ownItems(
        v,
        await historicalRewardsFirstPage(ctx, v.network).load({ nodeId: v.nodeId, window: windowOf(v), args: { first, ...options }, expected: historicalRewardsHint(v) }),
      ),
    fetchPage: async (pageToken, pageSize) => ownItems(v, await historicalRewardPages(ctx, v.network, { nodeIds: [v.nodeId], ...options })(pageToken, pageSize)),
  };
}

/** `Validator.pendingRewards`: E12 `nodeIds`, packed across validations by {@link pendingRewardsHint}. */
export function validationPendingRewardPages(ctx: LoaderContext, v: ValidatorWithNetwork, args: ValidationRewardsOptions): ValidationPages<PendingRewardWithNetwork> {
  const { first, sortOrder } = args;
  const options = sortOrder ? { sortOrder } : {};
  return {
    firstPage: async () =>
      ownItems(
        v,
        await pendingRewardsFirstPage(ctx, v.network).load({ nodeId: v.nodeId, window: windowOf(v), args: { first, ...options }, expected: pendingRewardsHint(v) }),
      ),
    fetchPage: async (pageToken, pageSize) => ownItems(v, await pendingRewardPages(ctx, v.network, { nodeIds: [v.nodeId], ...options })(pageToken, pageSize)),
  };
}

/**
 * How the per-validation reward lists pack, by the hints above (measured on the
 * devnet with the property test, `test/plugins/query-cost-property.test.ts`).
 */
const HISTORICAL_REWARDS_PACKING: PackingModel = { maxPage: STAKING_PAGE, meanItems: 21, soloShare: 0.15 };
const PENDING_REWARDS_PACKING: PackingModel = { maxPage: STAKING_PAGE, meanItems: 11, soloShare: 0.1 };
export const VALIDATION_HISTORICAL_REWARDS_COST: FieldCost = weighing(costs.packedListing(PAGES.historicalRewards, HISTORICAL_REWARDS_PACKING), ENDPOINTS.listHistoricalRewards);
export const VALIDATION_PENDING_REWARDS_COST: FieldCost = weighing(costs.packedListing(PAGES.pendingRewards, PENDING_REWARDS_PACKING), ENDPOINTS.listPendingRewards);

// ---------------------------------------------------------------- by identity (node(id:), _entities)

/** A validation by identity (node, subnet and staking tx), or null. */
export async function validationById(ctx: LoaderContext, network: NetworkId, key: ValidationKey): Promise<ValidatorWithNetwork | null> {
  const found = await validationByKey(ctx, network).load(key);
  return found ? withNetwork(network, found) : null;
}

/** A delegation by node id and staking tx, or null. */
export async function delegationById(ctx: LoaderContext, network: NetworkId, key: { nodeId: string; txHash: string }): Promise<DelegatorWithNetwork | null> {
  const found = await delegationByKey(ctx, network).load(key);
  return found ? withNetwork(network, found) : null;
}
