import type { InputShapeFromFields } from '@pothos/core';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { badInput } from '../errors/graphql.ts';
import {
  validationById, validatorPages, VALIDATOR_LISTING_COST, withNetwork, type ValidatorWithNetwork,
} from '../loaders/staking.ts';
import type { NetworkId } from '../loaders/types.ts';
import { validationRefetchCalls, validatorByNodeId, validatorLinkCost } from '../loaders/validators.ts';
import { nodeValidations } from '../loaders/validation-links.ts';
import {
  PRIMARY_NETWORK_ID, VALIDATION_STATUSES, type ListValidatorsParams, type Validator, type ValidatorRewards,
} from '../shapes/index.ts';
import { pageArgs, resolvePageConnection } from './connection.ts';
import { openEnumInterfaceField, SortOrderEnum, upstreamEnum } from './enums.ts';
import { between, bigBetween } from './bounds.ts';
import { BOUNDS, checkOrdered } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES } from './pagination.ts';
import { brandNode, encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';

/** A validation as the upstream returns it, plus the network it was read from. */
export type ValidatorShape = ValidatorWithNetwork;

export const ValidationStatus = upstreamEnum('ValidationStatus', 'Status of a validation.', {
  ACTIVE: { value: 'active', description: 'Validating now.' },
  PENDING: { value: 'pending', description: 'Registered; its validation period has not started.' },
  COMPLETED: { value: 'completed', description: 'Its validation period ended and rewards were paid.' },
  REMOVED: { value: 'removed', description: 'Removed before its end time (permissioned subnet validators).' },
});

export const ValidatorSortByEnum = builder.enumType('ValidatorSortBy', {
  description: 'Sort key of a validator listing.',
  values: {
    BLOCK_INDEX: { value: 'blockIndex', description: 'Block index of the validation tx (default).' },
    DELEGATION_CAPACITY: { value: 'delegationCapacity', description: 'Remaining delegation capacity.' },
    TIME_REMAINING: { value: 'timeRemaining', description: 'Time until the validation ends.' },
    DELEGATION_FEE: { value: 'delegationFee', description: 'Delegation fee. Only on MAINNET with `subnetId` set to the primary network.' },
    UPTIME_PERFORMANCE: { value: 'uptimePerformance', description: 'Observed uptime.' },
  } as const,
});

const BlsCredentialsRef = builder
  .objectRef<NonNullable<Validator['blsCredentials']>>('BlsCredentials')
  .implement({
    description: 'BLS key of a validator (present for AddPermissionlessValidatorTx).',
    fields: (t) => ({
      publicKey: t.expose('publicKey', { type: 'Hex', description: '48-byte compressed BLS public key, hex.' }),
      proofOfPossession: t.expose('proofOfPossession', { type: 'Hex', description: '96-byte BLS proof of possession, hex.' }),
    }),
  });

export const ValidatorRewardsRef = builder.objectRef<ValidatorRewards>('ValidatorRewards').implement({
  description: 'Rewards of a validation: paid (completed) or potential (active).',
  fields: (t) => ({
    validationRewardAmount: t.field({ type: 'UInt256', description: 'Reward for validating, nano-AVAX.', resolve: (r) => r.validationRewardAmount }),
    delegationRewardAmount: t.field({ type: 'UInt256', description: 'Reward from delegation fees, nano-AVAX.', resolve: (r) => r.delegationRewardAmount }),
    rewardAddresses: t.exposeStringList('rewardAddresses', { nullable: true, description: 'Addresses the rewards go to.' }),
    rewardTxHash: t.exposeString('rewardTxHash', { nullable: true, description: 'The RewardValidatorTx that paid them.' }),
  }),
});

const ValidatorHealthRef = builder.objectRef<NonNullable<Validator['validatorHealth']>>('ValidatorHealth').implement({
  description: 'Health of an active validator as the indexer last polled it.',
  fields: (t) => ({
    reachabilityPercent: t.exposeFloat('reachabilityPercent', { description: 'Percent of requests answered in the last polling.' }),
    benchedPChainRequestsPercent: t.exposeFloat('benchedPChainRequestsPercent', { description: 'Percent of requests benched on the P-chain.' }),
    benchedXChainRequestsPercent: t.exposeFloat('benchedXChainRequestsPercent', { description: 'Percent of requests benched on the X-chain.' }),
    benchedCChainRequestsPercent: t.exposeFloat('benchedCChainRequestsPercent', { description: 'Percent of requests benched on the C-chain.' }),
  }),
});

const GeolocationRef = builder.objectRef<NonNullable<Validator['geolocation']>>('Geolocation').implement({
  description: 'Where an active validator appears to run.',
  fields: (t) => ({
    city: t.exposeString('city', { description: 'City.' }),
    country: t.exposeString('country', { description: 'Country.' }),
    countryCode: t.exposeString('countryCode', { description: 'ISO country code.' }),
    latitude: t.exposeFloat('latitude', { description: 'Latitude.' }),
    longitude: t.exposeFloat('longitude', { description: 'Longitude.' }),
  }),
});

// A Map: an upstream status such as `__proto__` must not find anything.
const CONCRETE: ReadonlyMap<string, string> = new Map([
  ['active', 'ActiveValidator'],
  ['pending', 'PendingValidator'],
  ['completed', 'CompletedValidator'],
  ['removed', 'RemovedValidator'],
]);
/** Unknown or missing statuses still resolve, as the type with no status-specific fields (`validationStatus` tells which). */
export const validatorTypeOf = (v: Validator): string => CONCRETE.get(v.validationStatus ?? '') ?? 'PendingValidator';

/** Local id parts of a validation: it is one staking tx of one node on one subnet. */
const validatorIdParts = (v: ValidatorShape) => [v.network, () => v.nodeId, () => v.subnetId, () => v.txHash];

export const ValidatorInterface = builder.interfaceRef<ValidatorShape>('Validator').implement({
  description:
    'One validation: a node staking on the primary network or a subnet for a period. Comes in four statuses, each its own type: ActiveValidator (adds uptime, stake share, health, geolocation, capacity, potential rewards), CompletedValidator (paid `rewards`), PendingValidator (not started) and RemovedValidator (removal tx). Select status-specific fields with `... on ActiveValidator { ... }`.',
  interfaces: [NodeInterface],
  resolveType: (v) => validatorTypeOf(v),
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id (stable across status changes).', resolve: (v) => encodeGlobalId('Validator', validatorIdParts(v)) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network the validation was read from (mainnet or fuji).', resolve: (v) => v.network }),
    txHash: t.exposeString('txHash', { description: 'The staking transaction.' }),
    nodeId: t.exposeString('nodeId', { description: 'The validating node, `NodeID-...`.' }),
    subnetId: t.exposeString('subnetId', { description: `Subnet validated; ${PRIMARY_NETWORK_ID} is the primary network.` }),
    amountStaked: t.field({ type: 'UInt256', description: 'Stake, nano-AVAX (or the subnet token).', resolve: (v) => v.amountStaked }),
    delegationFee: t.exposeString('delegationFee', { nullable: true, description: 'Delegation fee percentage, a decimal string (null for subnet validations).' }),
    amountDelegated: t.field({ type: 'UInt256', nullable: true, description: 'Total delegated to this validation, nano-AVAX.', resolve: (v) => v.amountDelegated ?? null }),
    startTimestamp: t.expose('startTimestamp', { type: 'UInt64', description: 'Start of the validation period, unix seconds.' }),
    startTime: t.field({ type: 'DateTime', nullable: true, description: 'Start of the validation period: `startTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.startTimestamp) }),
    endTimestamp: t.expose('endTimestamp', { type: 'UInt64', description: 'End of the validation period, unix seconds.' }),
    endTime: t.field({ type: 'DateTime', nullable: true, description: 'End of the validation period: `endTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.endTimestamp) }),
    blsCredentials: t.field({ type: BlsCredentialsRef, nullable: true, description: 'BLS key, when registered.', resolve: (v) => v.blsCredentials ?? null }),
    delegatorCount: t.exposeInt('delegatorCount', { nullable: true, description: 'Number of delegations to this validation (active and completed validations).' }),
    rewards: t.field({
      type: ValidatorRewardsRef,
      nullable: true,
      description: 'Rewards: paid for completed validations; potential for active ones (same as `potentialRewards`).',
      resolve: (v) => v.rewards ?? v.potentialRewards ?? null,
    }),
    ...openEnumInterfaceField(t, 'validationStatus', ValidationStatus, {
      description: 'Status; also told by the concrete type.',
      value: (v) => v.validationStatus,
    }),
  }),
});

const objectOptions = (name: string, description: string) => ({
  description,
  interfaces: [NodeInterface, ValidatorInterface],
  // A validation without a status (an answer that left it out) is still one: told by its node and subnet.
  isTypeOf: (v: unknown) => typeof v === 'object' && v !== null && 'nodeId' in v && 'subnetId' in v && validatorTypeOf(v as Validator) === name,
});

export const ActiveValidatorRef = builder.objectRef<ValidatorShape>('ActiveValidator').implement({
  ...objectOptions('ActiveValidator', 'A validation that is running now.'),
  fields: (t) => ({
    stakePercentage: t.exposeFloat('stakePercentage', { nullable: true, description: "This validator's share of the total active stake, percent." }),
    uptimePerformance: t.exposeFloat('uptimePerformance', { nullable: true, description: 'Observed uptime, percent.' }),
    potentialRewards: t.field({ type: ValidatorRewardsRef, nullable: true, description: 'Rewards if the validation completes as it goes.', resolve: (v) => v.potentialRewards ?? v.rewards ?? null }),
    validatorHealth: t.field({ type: ValidatorHealthRef, nullable: true, description: 'Health as last polled.', resolve: (v) => v.validatorHealth ?? null }),
    geolocation: t.field({ type: GeolocationRef, nullable: true, description: 'Where the node appears to run, when known.', resolve: (v) => v.geolocation ?? null }),
    avalancheGoVersion: t.exposeString('avalancheGoVersion', { nullable: true, description: 'Node software version, as seen by the indexer.' }),
    delegationCapacity: t.field({ type: 'UInt256', nullable: true, description: 'How much more can be delegated, nano-AVAX.', resolve: (v) => v.delegationCapacity ?? null }),
  }),
});

export const CompletedValidatorRef = builder.objectRef<ValidatorShape>('CompletedValidator').implement({
  ...objectOptions('CompletedValidator', 'A validation whose period ended; `rewards` holds what was paid.'),
  fields: () => ({}),
});

export const PendingValidatorRef = builder.objectRef<ValidatorShape>('PendingValidator').implement({
  ...objectOptions('PendingValidator', 'A validation that has not started yet.'),
  fields: () => ({}),
});

export const RemovedValidatorRef = builder.objectRef<ValidatorShape>('RemovedValidator').implement({
  ...objectOptions('RemovedValidator', 'A (permissioned subnet) validation removed before its end time.'),
  fields: (t) => ({
    removeTxHash: t.exposeString('removeTxHash', { nullable: true, description: 'The removal transaction.' }),
    removeTimestamp: t.expose('removeTimestamp', { type: 'UInt64', nullable: true, description: 'When it was removed, unix seconds.' }),
    removeTime: t.field({ type: 'DateTime', nullable: true, description: 'When it was removed: `removeTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.removeTimestamp) }),
  }),
});

export const ValidatorConnection = builder.connectionObject(
  { type: ValidatorInterface, name: 'ValidatorConnection', description: 'A page of validators.' },
  { name: 'ValidatorEdge', description: 'A validator and its cursor.' },
);

const MAX_CAPACITY = 720000000000000000n;
const MAX_TIME = 2147483647;

export const ValidatorFilter = builder.inputType('ValidatorFilter', {
  description: 'Filters of a validator listing; names are the upstream query parameters.',
  fields: (t) => ({
    nodeIds: t.stringList({ description: 'Only these nodes: whole node ids (the upstream matches substrings).', bound: BOUNDS.nodeIds }),
    validationStatus: t.field({ type: ValidationStatus.ref, description: 'Only this status.', bound: ValidationStatus.bound }),
    subnetId: t.string({ description: 'Only validations of this subnet; all subnets when omitted.', bound: BOUNDS.subnetId }),
    minDelegationCapacity: t.field({ type: 'UInt256', description: 'Nano-AVAX.', bound: bigBetween(0n, MAX_CAPACITY) }),
    maxDelegationCapacity: t.field({ type: 'UInt256', description: 'Nano-AVAX.', bound: bigBetween(0n, MAX_CAPACITY) }),
    minTimeRemaining: t.int({ description: 'Seconds.', bound: between(0, MAX_TIME) }),
    maxTimeRemaining: t.int({ description: 'Seconds.', bound: between(0, MAX_TIME) }),
    minFeePercentage: t.float({ description: 'Setting a fee filter excludes subnet validations.', bound: between(2, 100) }),
    maxFeePercentage: t.float({ description: 'Setting a fee filter excludes subnet validations.', bound: between(2, 100) }),
    minUptimePerformance: t.float({ description: 'Percent.', bound: between(0, 100) }),
    maxUptimePerformance: t.float({ description: 'Percent.', bound: between(0, 100) }),
  }),
});

/** The arguments of a validator listing (`Network.validators`, `Subnet.validators`): their types are Pothos's. */
export const validatorListArgs = builder.args((t) => ({
  ...pageArgs(t, PAGES.validators),
  filter: t.field({ type: ValidatorFilter, description: 'Filters.' }),
  sortBy: t.field({ type: ValidatorSortByEnum, description: 'Sort key.' }),
  sortOrder: t.field({ type: SortOrderEnum, description: 'Sort direction.' }),
}));
export type ValidatorListArgs = InputShapeFromFields<typeof validatorListArgs>;

/**
 * The rules of E8 between arguments (each argument's own bound is declared beside it),
 * checked before any upstream call. `network` is known only for Network.validators.
 */
export function checkValidatorArgs(args: ValidatorListArgs, network?: NetworkId): void {
  const f = args.filter ?? {};
  for (const bound of ['DelegationCapacity', 'TimeRemaining', 'FeePercentage', 'UptimePerformance'] as const) {
    checkOrdered(`filter.min${bound}`, f[`min${bound}`], `filter.max${bound}`, f[`max${bound}`]);
  }
  if (args.sortBy === 'delegationFee') {
    if (f.subnetId !== PRIMARY_NETWORK_ID) throw badInput('sortBy', `DELEGATION_FEE needs filter.subnetId = "${PRIMARY_NETWORK_ID}" (primary-network validators)`);
    if (network && network !== 'mainnet') throw badInput('sortBy', 'DELEGATION_FEE is only offered on MAINNET');
  }
}

function toParams(args: ValidatorListArgs, subnetId?: string): ListValidatorsParams {
  const f = args.filter ?? {};
  const params: ListValidatorsParams = {};
  if (f.nodeIds?.length) params.nodeIds = f.nodeIds;
  const validationStatus = VALIDATION_STATUSES.find((status) => status === f.validationStatus);
  if (validationStatus) params.validationStatus = validationStatus;
  const subnet = subnetId ?? f.subnetId;
  // A parent subnet's id is sent even when empty, so the client refuses it (an upstream value) instead of listing every subnet.
  if (subnet != null) params.subnetId = subnet;
  for (const key of ['minDelegationCapacity', 'maxDelegationCapacity'] as const) {
    const value = f[key];
    if (value != null) params[key] = String(value);
  }
  for (const key of [
    'minTimeRemaining', 'maxTimeRemaining', 'minFeePercentage', 'maxFeePercentage', 'minUptimePerformance', 'maxUptimePerformance',
  ] as const) {
    const value = f[key];
    if (value != null) params[key] = value;
  }
  if (args.sortBy) params.sortBy = args.sortBy;
  if (args.sortOrder) params.sortOrder = args.sortOrder;
  return params;
}

/** E8 as a connection; `subnetId` pins the subnet for `Subnet.validators`. */
export function resolveValidators(ctx: Context, network: NetworkId, args: ValidatorListArgs, subnetId?: string) {
  return resolvePageConnection<ValidatorShape>({
    ctx,
    page: PAGES.validators,
    args,
    parent: subnetId === undefined ? { network } : { network, subnetId },
    fetchPage: validatorPages(ctx, network, toParams(args, subnetId)),
  });
}

registerNodeFamily('Validator', {
  refetchComputeUnits: validatorLinkCost.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.nodeId, ID_PARTS.cb58Id, ID_PARTS.cb58Id],
  load: async (ctx, [network, nodeId, subnetId, txHash]) =>
    (network === 'mainnet' || network === 'fuji') && nodeId && subnetId && txHash ? validationById(ctx, network, { nodeId, subnetId, txHash }) : null,
  typeOf: (v) => validatorTypeOf(v),
  refetchCalls: (ids) => validationRefetchCalls(ids.map(([network = '', nodeId = '', subnetId = '']) => ({ network, nodeId, subnetId }))),
});

/**
 * A node's current primary-network validation (`Network.validator(nodeId:)`, `validatorsByNodeId`,
 * federation's `nodeId network` key, `Peer.validator`), picked from the same batched listing as the
 * links to a record's own validation ({@link loadNodeValidation}).
 */
export async function loadValidator(ctx: Context, network: NetworkId, nodeId: string): Promise<ValidatorShape | null> {
  const v = await validatorByNodeId(ctx, network).load(nodeId);
  return v ? brandNode(withNetwork(network, v), validatorTypeOf(v)) : null;
}

/**
 * The validation of a node that `pick` chooses among all of the node's primary-network
 * validations, through the batching loader (links from delegations and rewards to the
 * validation they belong to, see `loaders/validation-links.ts`).
 */
export async function loadNodeValidation(
  ctx: Context,
  network: NetworkId,
  nodeId: string,
  pick: (validations: readonly Validator[]) => Validator | null,
): Promise<ValidatorShape | null> {
  const v = pick(await nodeValidations(ctx, network).load(nodeId));
  return v ? brandNode(withNetwork(network, v), validatorTypeOf(v)) : null;
}

builder.objectFields(NetworkRef, (t) => ({
  validators: t.field({
    type: ValidatorConnection,
    nullable: false,
    description: 'Validations on this network, newest first by default.',
    args: validatorListArgs,
    checkArgs: (args) => checkValidatorArgs(args),
    upstreamCost: VALIDATOR_LISTING_COST,
    resolve: (n, args, ctx) => {
      checkValidatorArgs(args, n.network);
      return resolveValidators(ctx, n.network, args);
    },
  }),
  validator: t.field({
    type: ValidatorInterface,
    nullable: true,
    description: "A node's primary-network validation: the active one, else pending, else the latest completed. Null when the node never validated.",
    args: { nodeId: t.arg.string({ required: true, description: 'The node.', bound: BOUNDS.nodeId }) },
    upstreamCost: validatorLinkCost,
    resolve: (n, args, ctx) => loadValidator(ctx, n.network, args.nodeId),
  }),
}));
