import { builder } from './builder.ts';
import {
  delegationById, delegatorPages, DELEGATOR_LISTING_COST, validationDelegatorPages, VALIDATION_DELEGATORS_COST,
  type DelegatorWithNetwork,
} from '../loaders/staking.ts';
import { delegationRefetchCalls, delegationLinkCost } from '../loaders/validators.ts';
import { DELEGATION_STATUSES, PRIMARY_NETWORK_ID, type Delegator, type ListDelegatorsParams } from '../shapes/index.ts';
import { emptyConnection, pageArgs, resolvePageConnection } from './connection.ts';
import { openEnumInterfaceField, SortOrderEnum, upstreamEnum } from './enums.ts';
import { BOUNDS, checkAddressesOnNetwork } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES, checkFirst } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { validationOfDelegation } from '../loaders/validation-links.ts';
import { loadNodeValidation, ValidatorInterface, type ValidatorShape } from './validators.ts';
import { unixSecondsToDate } from './scalars.ts';

/** A delegation as the upstream returns it, plus the network it was read from. */
export type DelegatorShape = DelegatorWithNetwork;

export const DelegationStatus = upstreamEnum('DelegationStatus', 'Status of a delegation.', {
  ACTIVE: { value: 'active', description: 'Delegating now.' },
  PENDING: { value: 'pending', description: 'Registered; its delegation period has not started.' },
  COMPLETED: { value: 'completed', description: 'Its delegation period ended and rewards were paid.' },
});

// A Map: an upstream status such as `__proto__` must not find anything.
const CONCRETE: ReadonlyMap<string, string> = new Map([
  ['active', 'ActiveDelegator'],
  ['pending', 'PendingDelegator'],
  ['completed', 'CompletedDelegator'],
]);
/** Unknown or missing statuses still resolve, as the type without paid rewards (`delegationStatus` tells which). */
export const delegatorTypeOf = (d: Delegator): string => CONCRETE.get(d.delegationStatus ?? '') ?? 'PendingDelegator';

const amount = (value: string | undefined): string | null => value ?? null;

export const DelegatorInterface = builder.interfaceRef<DelegatorShape>('Delegator').implement({
  description:
    'One delegation: stake delegated to a primary-network validator for a period. Comes in three statuses, each its own type: ActiveDelegator and PendingDelegator (estimated rewards) and CompletedDelegator (paid rewards). Select status-specific fields with `... on CompletedDelegator { ... }`.',
  interfaces: [NodeInterface],
  resolveType: (d) => delegatorTypeOf(d),
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id (stable across status changes).', resolve: (d) => encodeGlobalId('Delegator', [d.network, () => d.nodeId, () => d.txHash]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network the delegation was read from (mainnet or fuji).', resolve: (d) => d.network }),
    txHash: t.exposeString('txHash', { description: 'The delegation transaction.' }),
    nodeId: t.exposeString('nodeId', { description: 'The validator delegated to, `NodeID-...`.' }),
    rewardAddresses: t.exposeStringList('rewardAddresses', { description: 'Addresses the rewards go to.' }),
    amountDelegated: t.field({ type: 'UInt256', description: 'Stake delegated, nano-AVAX.', resolve: (d) => d.amountDelegated }),
    delegationFee: t.exposeString('delegationFee', { description: "The validator's delegation fee percentage for this delegation, a decimal string." }),
    grossReward: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'Reward before the fee, nano-AVAX: paid for completed delegations, estimated for active and pending ones.',
      resolve: (d) => amount(d.grossReward ?? d.estimatedGrossReward),
    }),
    netReward: t.field({
      type: 'UInt256',
      nullable: true,
      description: 'Reward after the fee, nano-AVAX: paid for completed delegations, estimated for active and pending ones.',
      resolve: (d) => amount(d.netReward ?? d.estimatedNetReward),
    }),
    startTimestamp: t.expose('startTimestamp', { type: 'UInt64', description: 'Start of the delegation period, unix seconds.' }),
    startTime: t.field({ type: 'DateTime', nullable: true, description: 'Start of the delegation period: `startTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.startTimestamp) }),
    endTimestamp: t.expose('endTimestamp', { type: 'UInt64', description: 'End of the delegation period, unix seconds.' }),
    endTime: t.field({ type: 'DateTime', nullable: true, description: 'End of the delegation period: `endTimestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.endTimestamp) }),
    ...openEnumInterfaceField(t, 'delegationStatus', DelegationStatus, {
      description: 'Status; also told by the concrete type.',
      value: (d) => d.delegationStatus,
    }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description:
        "The validation this delegation belongs to: of its node's primary-network validations (a node may have validated many times, each its own record), the one whose period holds the delegation's start (validation start <= `startTimestamp` <= validation end). Null when none does. Batched across delegations.",
      upstreamCost: validatorLinkCost,
      resolve: (d, _args, ctx) => loadNodeValidation(ctx, d.network, d.nodeId, (own) => validationOfDelegation(own, d)),
    }),
  }),
});

const objectOptions = (name: string, description: string) => ({
  description,
  interfaces: [NodeInterface, DelegatorInterface],
  isTypeOf: (d: unknown) => delegatorTypeOf(d as Delegator) === name,
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** Active and pending delegations carry estimates; the seed's flat shape only has gross/net: fall back to them. */
const estimatedFields = (t: PothosSchemaTypes.ObjectFieldBuilder<Types, DelegatorShape>) => ({
  estimatedGrossReward: t.field({
    type: 'UInt256',
    nullable: true,
    description: 'Estimated reward before the fee if the delegation completes, nano-AVAX.',
    resolve: (d) => amount(d.estimatedGrossReward ?? d.grossReward),
  }),
  estimatedNetReward: t.field({
    type: 'UInt256',
    nullable: true,
    description: 'Estimated reward after the fee if the delegation completes, nano-AVAX.',
    resolve: (d) => amount(d.estimatedNetReward ?? d.netReward),
  }),
});

export const ActiveDelegatorRef = builder.objectRef<DelegatorShape>('ActiveDelegator').implement({
  ...objectOptions('ActiveDelegator', 'A delegation that is running now.'),
  fields: estimatedFields,
});

export const PendingDelegatorRef = builder.objectRef<DelegatorShape>('PendingDelegator').implement({
  ...objectOptions('PendingDelegator', 'A delegation that has not started yet.'),
  fields: estimatedFields,
});

export const CompletedDelegatorRef = builder.objectRef<DelegatorShape>('CompletedDelegator').implement({
  ...objectOptions('CompletedDelegator', 'A delegation whose period ended; `grossReward` and `netReward` are what was paid.'),
  fields: () => ({}),
});

export const DelegatorConnection = builder.connectionObject(
  { type: DelegatorInterface, name: 'DelegatorConnection', description: 'A page of delegations.' },
  { name: 'DelegatorEdge', description: 'A delegation and its cursor.' },
);

export const DelegatorFilter = builder.inputType('DelegatorFilter', {
  description: 'Filters of a delegation listing; names are the upstream query parameters.',
  fields: (t) => ({
    rewardAddresses: t.stringList({
      description: "Only delegations paying rewards to one of these addresses (this network's).",
      bound: BOUNDS.pChainAddresses,
    }),
    delegationStatus: t.field({ type: DelegationStatus.ref, description: 'Only this status.', bound: DelegationStatus.bound }),
    nodeIds: t.stringList({ description: 'Only delegations to these nodes.', bound: BOUNDS.nodeIds }),
  }),
});

/** The upstream status of a `DelegationStatus` argument (UNKNOWN, refused by its bound, is none). */
const delegationStatusOf = (value: string | null | undefined) => DELEGATION_STATUSES.find((status) => status === value);

registerNodeFamily('Delegator', {
  refetchComputeUnits: delegationLinkCost.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.nodeId, ID_PARTS.cb58Id],
  load: async (ctx, [network, nodeId, txHash]) =>
    (network === 'mainnet' || network === 'fuji') && nodeId && txHash ? delegationById(ctx, network, { nodeId, txHash }) : null,
  typeOf: (d) => delegatorTypeOf(d),
  refetchCalls: (ids) => delegationRefetchCalls(ids.map(([network = '', nodeId = '']) => ({ network, nodeId }))),
});

builder.objectFields(NetworkRef, (t) => ({
  delegators: t.field({
    type: DelegatorConnection,
    nullable: false,
    description: 'Delegations on this network.',
    args: {
      ...pageArgs(t.arg, PAGES.delegators),
      filter: t.arg({ type: DelegatorFilter, description: 'Filters.' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
    },
    upstreamCost: DELEGATOR_LISTING_COST,
    resolve: (n, args, ctx) => {
      const f = args.filter ?? {};
      checkAddressesOnNetwork('filter.rewardAddresses', f.rewardAddresses, n.network);
      const params: ListDelegatorsParams = {};
      if (f.rewardAddresses?.length) params.rewardAddresses = f.rewardAddresses;
      if (f.nodeIds?.length) params.nodeIds = f.nodeIds;
      const delegationStatus = delegationStatusOf(f.delegationStatus);
      if (delegationStatus) params.delegationStatus = delegationStatus;
      if (args.sortOrder) params.sortOrder = args.sortOrder;
      return resolvePageConnection<DelegatorShape>({
        ctx,
        page: PAGES.delegators,
        args,
        parent: { network: n.network },
        fetchPage: delegatorPages(ctx, n.network, params),
      });
    },
  }),
}));

builder.interfaceFields(ValidatorInterface, (t) => ({
  delegators: t.field({
    type: DelegatorConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description:
      'Delegations to this validation: to its node, within its period (batched across validators: a list of validators costs a few upstream calls, not one each).',
    args: {
      ...pageArgs(t.arg, PAGES.delegators),
      delegationStatus: t.arg({ type: DelegationStatus.ref, description: 'Only this status.', bound: DelegationStatus.bound }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
    },
    upstreamCost: VALIDATION_DELEGATORS_COST,
    resolve: (v: ValidatorShape, args, ctx) => {
      // Delegation exists only on the primary network (the seed: subnet delegation is unsupported).
      if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<DelegatorShape>();
      const pages = validationDelegatorPages(ctx, v, {
        first: checkFirst(args.first, PAGES.delegators),
        sortOrder: args.sortOrder ?? undefined,
        delegationStatus: delegationStatusOf(args.delegationStatus),
      });
      return resolvePageConnection<DelegatorShape>({
        ctx,
        page: PAGES.delegators,
        args,
        // The validation, not just the node: its period decides which items belong to the list.
        parent: { network: v.network, nodeId: v.nodeId, txHash: v.txHash },
        ...pages,
      });
    },
  }),
}));
