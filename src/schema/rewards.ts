import type { ArgBuilder } from '@pothos/core';
import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import { badInput } from '../errors.ts';
import type { NetworkId } from '../loaders/types.ts';
import { historicalRewardsFirstPage, inWindow, pendingRewardsFirstPage, STAKING_PAGE, type StakingWindow } from '../loaders/validators.ts';
import { costs, type PackingModel } from '../lib/cost.ts';
import {
  PRIMARY_NETWORK_ID,
  type CurrencyCode, type HistoricalReward, type ListHistoricalRewardsParams, type ListRewardsParams, type PendingReward, type SortOrder,
} from '../shapes/index.ts';
import { AssetAmountRef, assetAmountFields, PriceRef } from './common.ts';
import { emptyConnection, pageArgs, resolvePageConnection, type ConnectionArgs } from './connection.ts';
import { CurrencyCodeEnum, SortOrderEnum, upstreamEnum } from './enums.ts';
import { checkAddressesOnNetwork, checkNodeIds, checkPrimaryAddresses, INPUT_LIMITS } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES, checkFirst, type PageSpec } from './pagination.ts';
import { loadValidator, validatorLinkCost, ValidatorInterface, withNetwork, type ValidatorShape } from './validators.ts';

export { AssetAmountRef, PriceRef } from './common.ts';

export type HistoricalRewardShape = HistoricalReward & { network: NetworkId };
export type PendingRewardShape = PendingReward & { network: NetworkId };

export const RewardType = upstreamEnum('RewardType', 'What a staking reward pays for.', {
  VALIDATOR: { value: 'VALIDATOR', description: 'Reward for validating.' },
  DELEGATOR: { value: 'DELEGATOR', description: 'Reward for delegating.' },
  VALIDATOR_FEE: { value: 'VALIDATOR_FEE', description: "A validator's delegation fees." },
});

type PricedAsset = HistoricalReward['reward'];

export const AssetWithPriceInfoRef = builder.objectRef<PricedAsset>('AssetWithPriceInfo').implement({
  description: 'An amount of one primary-network asset and its price when it was paid.',
  fields: (t) => ({
    ...assetAmountFields(t),
    historicalPrice: t.field({
      type: PriceRef,
      nullable: true,
      description: 'Price of one whole unit of the asset when the reward was paid, in the requested currency.',
      resolve: (a) => a.historicalPrice ?? null,
    }),
  }),
});

/** The fields both reward kinds share (the seed lists them on both). */
function commonRewardFields<S extends (HistoricalReward | PendingReward) & { network: NetworkId }>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, S>,
) {
  return {
    network: t.field({ type: 'String', description: 'Network the reward was read from (mainnet or fuji).', resolve: (r) => r.network }),
    addresses: t.stringList({ description: 'P-chain addresses the reward goes to.', resolve: (r) => r.addresses }),
    txHash: t.string({ description: 'The staking transaction (validation or delegation) that earns the reward.', resolve: (r) => r.txHash }),
    amountStaked: t.field({ type: 'UInt256', description: 'Stake of that transaction, nano-AVAX.', resolve: (r) => r.amountStaked }),
    nodeId: t.string({ description: 'The validating node, `NodeID-...`.', resolve: (r) => r.nodeId }),
    startTimestamp: t.int({ description: 'Start of the staking period, unix seconds.', resolve: (r) => r.startTimestamp }),
    endTimestamp: t.int({ description: 'End of the staking period, unix seconds.', resolve: (r) => r.endTimestamp }),
    rewardType: t.field({ type: RewardType.ref, description: 'What the reward pays for.', resolve: (r) => RewardType.out(r.rewardType) ?? 'VALIDATOR' }),
    rewardTypeRaw: t.string({ description: 'The reward type exactly as the upstream sent it (useful when `rewardType` is UNKNOWN).', resolve: (r) => String(r.rewardType) }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: "The node's primary-network validation (the active one, else pending, else the latest completed).",
      extensions: { cost: validatorLinkCost },
      resolve: (r, _args, ctx) => loadValidator(ctx, r.network, r.nodeId),
    }),
  };
}

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

export const HistoricalRewardRef = builder.objectRef<HistoricalRewardShape>('HistoricalReward').implement({
  description: 'A staking reward that was paid (E11).',
  fields: (t) => ({
    ...commonRewardFields(t),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO that paid the reward.' }),
    outputIndex: t.exposeInt('outputIndex', { description: 'Output index of that UTXO in the reward transaction.' }),
    reward: t.field({ type: AssetWithPriceInfoRef, description: 'What was paid, with its price at the time.', resolve: (r) => r.reward }),
    rewardTxHash: t.exposeString('rewardTxHash', { description: 'The transaction that paid the reward.' }),
  }),
});

export const PendingRewardRef = builder.objectRef<PendingRewardShape>('PendingReward').implement({
  description: 'A staking reward still accruing (E12): paid when the staking period ends.',
  fields: (t) => ({
    ...commonRewardFields(t),
    progress: t.exposeFloat('progress', { description: 'How far the staking period has run, as the upstream reports it.' }),
    estimatedReward: t.field({ type: AssetAmountRef, description: 'The reward expected when the period ends.', resolve: (r) => r.estimatedReward }),
  }),
});

export const HistoricalRewardConnection = builder.connectionObject(
  { type: HistoricalRewardRef, name: 'HistoricalRewardConnection', description: 'A page of paid staking rewards.' },
  { name: 'HistoricalRewardEdge', description: 'A paid reward and its cursor.' },
);

export const PendingRewardConnection = builder.connectionObject(
  { type: PendingRewardRef, name: 'PendingRewardConnection', description: 'A page of accruing staking rewards.' },
  { name: 'PendingRewardEdge', description: 'An accruing reward and its cursor.' },
);

interface RewardListArgs extends ConnectionArgs {
  addresses?: string[] | null;
  nodeIds?: string[] | null;
  sortOrder?: string | null;
  currency?: string | null;
}

/** E11/E12's rules, before any upstream call: P-/X-chain addresses, node ids, and at least one of them. */
export function checkRewardArgs(args: RewardListArgs, page: PageSpec): void {
  checkFirst(args.first, page);
  checkPrimaryAddresses('addresses', args.addresses, ['P', 'X']);
  checkNodeIds('nodeIds', args.nodeIds);
  if (!args.addresses?.length && !args.nodeIds?.length) {
    throw badInput(args.addresses ? 'addresses' : 'nodeIds', 'give at least one address or node id (addresses and nodeIds cannot both be empty)');
  }
}

function rewardParams(args: RewardListArgs): ListRewardsParams {
  return {
    ...(args.addresses?.length ? { addresses: args.addresses } : {}),
    ...(args.nodeIds?.length ? { nodeIds: args.nodeIds } : {}),
    ...(args.sortOrder ? { sortOrder: args.sortOrder as SortOrder } : {}),
  };
}

async function fetchHistorical(ctx: Context, network: NetworkId, params: ListHistoricalRewardsParams, pageToken: string | undefined, pageSize: number) {
  const page = await ctx.dataApi.listHistoricalRewards(network, { ...params, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
  return { items: page.historicalRewards.map((r) => withNetwork(network, r)), nextPageToken: page.nextPageToken };
}

async function fetchPending(ctx: Context, network: NetworkId, params: ListRewardsParams, pageToken: string | undefined, pageSize: number) {
  const page = await ctx.dataApi.listPendingRewards(network, { ...params, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
  return { items: page.pendingRewards.map((r) => withNetwork(network, r)), nextPageToken: page.nextPageToken };
}

const REWARD_ADDRESSES = `P- or X-chain addresses of this network (\`avax1...\`/\`fuji1...\`, optionally with a \`P-\`/\`X-\` prefix; at most ${INPUT_LIMITS.addresses}).`;
const REWARD_NODE_IDS = `Node ids, \`NodeID-...\` (at most ${INPUT_LIMITS.nodeIds}).`;

const rewardPageArgs = (t: ArgBuilder<Types>, page: PageSpec) => ({
  ...pageArgs(t, page),
  sortOrder: t({ type: SortOrderEnum, description: 'Sort direction.' }),
});

builder.objectFields(NetworkRef, (t) => ({
  historicalRewards: t.field({
    type: HistoricalRewardConnection,
    description: 'Paid staking rewards of some addresses and/or nodes (E11); at least one of `addresses` / `nodeIds` is required. Page size 1-100, default 10.',
    args: {
      addresses: t.arg.stringList({ description: REWARD_ADDRESSES }),
      nodeIds: t.arg.stringList({ description: REWARD_NODE_IDS }),
      ...rewardPageArgs(t.arg, PAGES.historicalRewards),
      currency: t.arg({ type: CurrencyCodeEnum, description: 'Currency of `reward.historicalPrice` (default USD).' }),
    },
    extensions: { validateArgs: (args) => checkRewardArgs(args as RewardListArgs, PAGES.historicalRewards), cost: costs.listing(PAGES.historicalRewards) },
    resolve: (n, rawArgs, ctx) => {
      const args = rawArgs as RewardListArgs;
      checkAddressesOnNetwork('addresses', args.addresses, n.network);
      const params: ListHistoricalRewardsParams = { ...rewardParams(args), ...(args.currency ? { currency: args.currency as CurrencyCode } : {}) };
      return resolvePageConnection<HistoricalRewardShape>({
        ctx,
        page: PAGES.historicalRewards,
        args,
        parent: { network: n.network },
        fetchPage: (pageToken, pageSize) => fetchHistorical(ctx, n.network, params, pageToken, pageSize),
      });
    },
  }),
  pendingRewards: t.field({
    type: PendingRewardConnection,
    description: 'Accruing staking rewards of some addresses and/or nodes (E12); at least one of `addresses` / `nodeIds` is required. Page size 1-100, default 10.',
    args: {
      addresses: t.arg.stringList({ description: REWARD_ADDRESSES }),
      nodeIds: t.arg.stringList({ description: REWARD_NODE_IDS }),
      ...rewardPageArgs(t.arg, PAGES.pendingRewards),
    },
    extensions: { validateArgs: (args) => checkRewardArgs(args as RewardListArgs, PAGES.pendingRewards), cost: costs.listing(PAGES.pendingRewards) },
    resolve: (n, rawArgs, ctx) => {
      const args = rawArgs as RewardListArgs;
      checkAddressesOnNetwork('addresses', args.addresses, n.network);
      const params = rewardParams(args);
      return resolvePageConnection<PendingRewardShape>({
        ctx,
        page: PAGES.pendingRewards,
        args,
        parent: { network: n.network },
        fetchPage: (pageToken, pageSize) => fetchPending(ctx, n.network, params, pageToken, pageSize),
      });
    },
  }),
}));

/**
 * Keeps the rewards of this validation: E11/E12 filter by node (as a substring),
 * and a node validates again and again; a validation's rewards (its own and its
 * delegations') lie within its period.
 */
const ownItems = <T extends { nodeId: string; startTimestamp: number; endTimestamp: number }>(
  v: ValidatorShape,
  page: { items: T[]; nextPageToken?: string | undefined; hasMore?: boolean },
) => ({
  ...page,
  items: page.items.filter((item) => item.nodeId === v.nodeId && inWindow(windowOf(v), item)),
});

const windowOf = (v: ValidatorShape): StakingWindow => ({ start: v.startTimestamp, end: v.endTimestamp });

/**
 * A packing hint for a validation's pending rewards: its own plus one per
 * delegation while active; at most one otherwise (a finished validation has none
 * left). Never 0, which would skip the call: a stale hint only costs a re-plan.
 */
function pendingRewardsHint(v: ValidatorShape): number | undefined {
  if (v.validationStatus === 'active') return v.delegatorCount != null ? v.delegatorCount + 1 : undefined;
  return 1;
}

/**
 * A packing hint for a validation's paid rewards: at most its own plus two per
 * delegation (the delegator's reward and the validator's fee on it).
 */
function historicalRewardsHint(v: ValidatorShape): number | undefined {
  return v.delegatorCount != null ? 1 + 2 * v.delegatorCount : undefined;
}

/**
 * How the per-validator reward lists pack, by the hints above (measured on the
 * devnet with the property test, `test/plugins/query-cost-property.test.ts`).
 */
const PENDING_REWARDS_PACKING: PackingModel = { maxPage: STAKING_PAGE, meanItems: 11, soloShare: 0.1 };
const HISTORICAL_REWARDS_PACKING: PackingModel = { maxPage: STAKING_PAGE, meanItems: 21, soloShare: 0.15 };

builder.interfaceFields(ValidatorInterface, (t) => ({
  historicalRewards: t.field({
    type: HistoricalRewardConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: "Paid rewards of this validation and its delegations (E11 `nodeIds`, within the validation's period; batched across validators). Page size 1-100, default 10.",
    args: {
      ...rewardPageArgs(t.arg, PAGES.historicalRewards),
      currency: t.arg({ type: CurrencyCodeEnum, description: 'Currency of `reward.historicalPrice` (default USD).' }),
    },
    extensions: {
      validateArgs: (args) => void checkFirst(args['first'], PAGES.historicalRewards),
      cost: costs.packedListing(PAGES.historicalRewards, HISTORICAL_REWARDS_PACKING),
    },
    resolve: (v: ValidatorShape, rawArgs, ctx) => {
      // Staking rewards are paid on the primary network only.
      if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<HistoricalRewardShape>();
      const args = rawArgs as RewardListArgs;
      const first = checkFirst(args.first, PAGES.historicalRewards);
      const sortOrder = (args.sortOrder ?? undefined) as SortOrder | undefined;
      const currency = (args.currency ?? undefined) as CurrencyCode | undefined;
      const params: ListHistoricalRewardsParams = { nodeIds: [v.nodeId], ...(sortOrder ? { sortOrder } : {}), ...(currency ? { currency } : {}) };
      return resolvePageConnection<HistoricalRewardShape>({
        ctx,
        page: PAGES.historicalRewards,
        args,
        parent: { network: v.network, nodeId: v.nodeId, txHash: v.txHash },
        firstPage: async () => {
          const page = await historicalRewardsFirstPage(ctx, v.network).load({
            nodeId: v.nodeId,
            window: windowOf(v),
            args: { first, ...(sortOrder ? { sortOrder } : {}), ...(currency ? { currency } : {}) },
            expected: historicalRewardsHint(v),
          });
          return ownItems(v, { ...page, items: page.items.map((r) => withNetwork(v.network, r)) });
        },
        fetchPage: async (pageToken, pageSize) => ownItems(v, await fetchHistorical(ctx, v.network, params, pageToken, pageSize)),
      });
    },
  }),
  pendingRewards: t.field({
    type: PendingRewardConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: "Accruing rewards of this validation and its delegations (E12 `nodeIds`, within the validation's period; batched across validators). Page size 1-100, default 10.",
    args: rewardPageArgs(t.arg, PAGES.pendingRewards),
    extensions: {
      validateArgs: (args) => void checkFirst(args['first'], PAGES.pendingRewards),
      cost: costs.packedListing(PAGES.pendingRewards, PENDING_REWARDS_PACKING),
    },
    resolve: (v: ValidatorShape, rawArgs, ctx) => {
      if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<PendingRewardShape>();
      const args = rawArgs as RewardListArgs;
      const first = checkFirst(args.first, PAGES.pendingRewards);
      const sortOrder = (args.sortOrder ?? undefined) as SortOrder | undefined;
      const params: ListRewardsParams = { nodeIds: [v.nodeId], ...(sortOrder ? { sortOrder } : {}) };
      return resolvePageConnection<PendingRewardShape>({
        ctx,
        page: PAGES.pendingRewards,
        args,
        parent: { network: v.network, nodeId: v.nodeId, txHash: v.txHash },
        firstPage: async () => {
          const page = await pendingRewardsFirstPage(ctx, v.network).load({
            nodeId: v.nodeId,
            window: windowOf(v),
            args: { first, ...(sortOrder ? { sortOrder } : {}) },
            expected: pendingRewardsHint(v),
          });
          return ownItems(v, { ...page, items: page.items.map((r) => withNetwork(v.network, r)) });
        },
        fetchPage: async (pageToken, pageSize) => ownItems(v, await fetchPending(ctx, v.network, params, pageToken, pageSize)),
      });
    },
  }),
}));
