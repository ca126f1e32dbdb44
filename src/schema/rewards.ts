import type { ArgBuilder } from '@pothos/core';
import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import {
  historicalRewardPages, HISTORICAL_REWARD_LISTING_COST, pendingRewardPages, PENDING_REWARD_LISTING_COST,
  validationHistoricalRewardPages, VALIDATION_HISTORICAL_REWARDS_COST, validationPendingRewardPages,
  VALIDATION_PENDING_REWARDS_COST, type HistoricalRewardWithNetwork, type PendingRewardWithNetwork,
} from '../loaders/staking.ts';
import type { NetworkId } from '../loaders/types.ts';
import {
  CURRENCY_CODES, PRIMARY_NETWORK_ID, type HistoricalReward, type ListRewardsParams, type PendingReward, type SortOrder,
} from '../shapes/index.ts';
import { AssetAmountRef, assetAmountFields, PriceRef } from './common.ts';
import { emptyConnection, pageArgs, resolvePageConnection } from './connection.ts';
import { CurrencyCodeEnum, openEnumField, SortOrderEnum, upstreamEnum } from './enums.ts';
import { BOUNDS, checkAddressesOnNetwork } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES, checkFirst, type PageSpec } from './pagination.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { validationOfReward } from '../loaders/validation-links.ts';
import { loadNodeValidation, ValidatorInterface, type ValidatorShape } from './validators.ts';
import { unixSecondsToDate } from './scalars.ts';


export type HistoricalRewardShape = HistoricalRewardWithNetwork;
export type PendingRewardShape = PendingRewardWithNetwork;

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
    network: t.field({ type: 'String', nullable: false, description: 'Network the reward was read from (mainnet or fuji).', resolve: (r) => r.network }),
    addresses: t.stringList({ description: 'P-chain addresses the reward goes to.', resolve: (r) => r.addresses }),
    txHash: t.string({ description: 'The staking transaction (validation or delegation) that earns the reward.', resolve: (r) => r.txHash }),
    amountStaked: t.field({ type: 'UInt256', description: 'Stake of that transaction, nano-AVAX.', resolve: (r) => r.amountStaked }),
    nodeId: t.string({ description: 'The validating node, `NodeID-...`.', resolve: (r) => r.nodeId }),
    startTimestamp: t.field({ type: 'UInt64', description: 'Start of the staking period, unix seconds.', resolve: (r) => r.startTimestamp }),
    startTime: t.field({ type: 'DateTime', nullable: true, description: 'Start of the staking period: `startTimestamp` as a DateTime.', resolve: (r) => unixSecondsToDate(r.startTimestamp) }),
    endTimestamp: t.field({ type: 'UInt64', description: 'End of the staking period, unix seconds.', resolve: (r) => r.endTimestamp }),
    endTime: t.field({ type: 'DateTime', nullable: true, description: 'End of the staking period: `endTimestamp` as a DateTime.', resolve: (r) => unixSecondsToDate(r.endTimestamp) }),
    ...openEnumField(t, 'rewardType', RewardType, { description: 'What the reward pays for.', value: (r) => r.rewardType }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description:
        "The validation the reward was paid for, among its node's primary-network validations (a node may have validated many times, each its own record): the one whose staking tx is `txHash` (a VALIDATOR reward), else the one whose period holds `startTimestamp` (a DELEGATOR or VALIDATOR_FEE reward: `txHash` is the delegation's). Null when none does. Batched across rewards.",
      upstreamCost: validatorLinkCost,
      resolve: (r, _args, ctx) => loadNodeValidation(ctx, r.network, r.nodeId, (own) => validationOfReward(own, r)),
    }),
  };
}

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

export const HistoricalRewardRef = builder.objectRef<HistoricalRewardShape>('HistoricalReward').implement({
  description: 'A staking reward that was paid.',
  fields: (t) => ({
    ...commonRewardFields(t),
    utxoId: t.exposeString('utxoId', { description: 'The UTXO that paid the reward.' }),
    outputIndex: t.exposeInt('outputIndex', { description: 'Output index of that UTXO in the reward transaction.' }),
    reward: t.field({ type: AssetWithPriceInfoRef, description: 'What was paid, with its price at the time.', resolve: (r) => r.reward }),
    rewardTxHash: t.exposeString('rewardTxHash', { description: 'The transaction that paid the reward.' }),
  }),
});

export const PendingRewardRef = builder.objectRef<PendingRewardShape>('PendingReward').implement({
  description: 'A staking reward still accruing: paid when the staking period ends.',
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

/** The page arguments of every reward listing. */
const rewardPageArgs = (t: ArgBuilder<Types>, page: PageSpec) => ({
  ...pageArgs(t, page),
  sortOrder: t({ type: SortOrderEnum, description: 'Sort direction.' }),
});

/** Whose rewards a network-wide listing reads (E11/E12 need at least one of them). */
const rewardOwnerArgs = builder.args((t) => ({
  addresses: t.stringList({ description: "Rewards going to these addresses (this network's).", bound: BOUNDS.rewardAddresses }),
  nodeIds: t.stringList({ description: 'Rewards of stakes on these nodes.', bound: BOUNDS.nodeIds }),
}));

/** E11/E12's rule between arguments, before any upstream call: at least one address or node id. */
function checkRewardOwners(args: { addresses?: readonly string[] | null; nodeIds?: readonly string[] | null }): void {
  if (!args.addresses?.length && !args.nodeIds?.length) {
    throw badInput(args.addresses ? 'addresses' : 'nodeIds', 'give at least one address or node id (addresses and nodeIds cannot both be empty)');
  }
}

/** E11/E12's query parameters; the addresses must be this network's (known only here, still before any call). */
function rewardParams(
  network: NetworkId,
  args: { addresses?: string[] | null; nodeIds?: string[] | null; sortOrder?: SortOrder | null },
): ListRewardsParams {
  checkAddressesOnNetwork('addresses', args.addresses, network);
  return {
    ...(args.addresses?.length ? { addresses: args.addresses } : {}),
    ...(args.nodeIds?.length ? { nodeIds: args.nodeIds } : {}),
    ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}),
  };
}

/** The upstream currency of a `CurrencyCode` argument. */
const currencyOf = (value: string | null | undefined) => CURRENCY_CODES.find((code) => code === value);

const currencyArg = (t: ArgBuilder<Types>) =>
  t({ type: CurrencyCodeEnum.ref, description: 'Currency of `reward.historicalPrice` (default USD).', bound: CurrencyCodeEnum.bound });

builder.objectFields(NetworkRef, (t) => ({
  historicalRewards: t.field({
    type: HistoricalRewardConnection,
    nullable: false,
    description: 'Paid staking rewards of some addresses and/or nodes; at least one of `addresses` / `nodeIds` is required.',
    args: {
      ...rewardOwnerArgs,
      ...rewardPageArgs(t.arg, PAGES.historicalRewards),
      currency: currencyArg(t.arg),
    },
    checkArgs: checkRewardOwners,
    upstreamCost: HISTORICAL_REWARD_LISTING_COST,
    resolve: (n, args, ctx) => {
      const currency = currencyOf(args.currency);
      return resolvePageConnection<HistoricalRewardShape>({
        ctx,
        page: PAGES.historicalRewards,
        args,
        parent: { network: n.network },
        fetchPage: historicalRewardPages(ctx, n.network, { ...rewardParams(n.network, args), ...(currency ? { currency } : {}) }),
      });
    },
  }),
  pendingRewards: t.field({
    type: PendingRewardConnection,
    nullable: false,
    description: 'Accruing staking rewards of some addresses and/or nodes; at least one of `addresses` / `nodeIds` is required.',
    args: {
      ...rewardOwnerArgs,
      ...rewardPageArgs(t.arg, PAGES.pendingRewards),
    },
    checkArgs: checkRewardOwners,
    upstreamCost: PENDING_REWARD_LISTING_COST,
    resolve: (n, args, ctx) =>
      resolvePageConnection<PendingRewardShape>({
        ctx,
        page: PAGES.pendingRewards,
        args,
        parent: { network: n.network },
        fetchPage: pendingRewardPages(ctx, n.network, rewardParams(n.network, args)),
      }),
  }),
}));

builder.interfaceFields(ValidatorInterface, (t) => ({
  historicalRewards: t.field({
    type: HistoricalRewardConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: "Paid rewards of this validation and its delegations (within the validation's period; batched across validators).",
    args: {
      ...rewardPageArgs(t.arg, PAGES.historicalRewards),
      currency: currencyArg(t.arg),
    },
    upstreamCost: VALIDATION_HISTORICAL_REWARDS_COST,
    resolve: (v: ValidatorShape, args, ctx) => {
      // Staking rewards are paid on the primary network only.
      if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<HistoricalRewardShape>();
      return resolvePageConnection<HistoricalRewardShape>({
        ctx,
        page: PAGES.historicalRewards,
        args,
        parent: { network: v.network, nodeId: v.nodeId, txHash: v.txHash },
        ...validationHistoricalRewardPages(ctx, v, {
          first: checkFirst(args.first, PAGES.historicalRewards),
          sortOrder: args.sortOrder ?? undefined,
          currency: currencyOf(args.currency),
        }),
      });
    },
  }),
  pendingRewards: t.field({
    type: PendingRewardConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description: "Accruing rewards of this validation and its delegations (within the validation's period; batched across validators).",
    args: rewardPageArgs(t.arg, PAGES.pendingRewards),
    upstreamCost: VALIDATION_PENDING_REWARDS_COST,
    resolve: (v: ValidatorShape, args, ctx) => {
      if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<PendingRewardShape>();
      return resolvePageConnection<PendingRewardShape>({
        ctx,
        page: PAGES.pendingRewards,
        args,
        parent: { network: v.network, nodeId: v.nodeId, txHash: v.txHash },
        ...validationPendingRewardPages(ctx, v, { first: checkFirst(args.first, PAGES.pendingRewards), sortOrder: args.sortOrder ?? undefined }),
      });
    },
  }),
}));
