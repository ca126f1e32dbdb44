import { builder } from '../builder.ts';
import type { Context } from '../context.ts';
import type { NetworkId } from '../loaders/types.ts';
import { delegationByKey, delegatorsFirstPage, inWindow, MAX_REFETCH_PAGES, STAKING_PAGE, type StakingWindow } from '../loaders/validators.ts';
import { costs, type PackingModel } from '../lib/cost.ts';
import { PRIMARY_NETWORK_ID, type Delegator, type DelegationStatus as DelegationStatusValue, type ListDelegatorsParams, type SortOrder } from '../shapes/index.ts';
import { type ConnectionArgs, emptyConnection, pageArgs, resolvePageConnection } from './connection.ts';
import { SortOrderEnum, upstreamEnum } from './enums.ts';
import { checkAddressesOnNetwork, checkNodeIds, checkPrimaryAddresses, INPUT_LIMITS } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { PAGES, checkFirst } from './pagination.ts';
import { byFirstPart, encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { loadValidator, validatorLinkCost, ValidatorInterface, withNetwork, type ValidatorShape } from './validators.ts';

/** A delegation as the upstream returns it, plus the network it was read from. */
export type DelegatorShape = Delegator & { network: NetworkId };

export const DelegationStatus = upstreamEnum('DelegationStatus', 'Status of a delegation.', {
  ACTIVE: { value: 'active', description: 'Delegating now.' },
  PENDING: { value: 'pending', description: 'Registered; its delegation period has not started.' },
  COMPLETED: { value: 'completed', description: 'Its delegation period ended and rewards were paid.' },
});

const CONCRETE: Record<string, string> = {
  active: 'ActiveDelegator',
  pending: 'PendingDelegator',
  completed: 'CompletedDelegator',
};
/** Unknown statuses still resolve, as the type without paid rewards. */
export const delegatorTypeOf = (d: Delegator): string => CONCRETE[d.delegationStatus] ?? 'PendingDelegator';

const amount = (value: string | undefined): string | null => value ?? null;

export const DelegatorInterface = builder.interfaceRef<DelegatorShape>('Delegator').implement({
  description:
    'One delegation: stake delegated to a primary-network validator for a period. Comes in three statuses, each its own type: ActiveDelegator and PendingDelegator (estimated rewards) and CompletedDelegator (paid rewards). Select status-specific fields with `... on CompletedDelegator { ... }`.',
  interfaces: [NodeInterface],
  resolveType: (d) => delegatorTypeOf(d),
  fields: (t) => ({
    id: t.id({ description: 'Global id (stable across status changes).', resolve: (d) => encodeGlobalId('Delegator', [d.network, d.nodeId, d.txHash]) }),
    network: t.field({ type: 'String', description: 'Network the delegation was read from (mainnet or fuji).', resolve: (d) => d.network }),
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
    startTimestamp: t.exposeInt('startTimestamp', { description: 'Start of the delegation period, unix seconds.' }),
    endTimestamp: t.exposeInt('endTimestamp', { description: 'End of the delegation period, unix seconds.' }),
    delegationStatus: t.field({ type: DelegationStatus.ref, description: 'Status; also told by the concrete type.', resolve: (d) => DelegationStatus.out(d.delegationStatus) ?? 'pending' }),
    delegationStatusRaw: t.string({ description: 'The status exactly as the upstream sent it (useful when `delegationStatus` is UNKNOWN).', resolve: (d) => String(d.delegationStatus) }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: "The node's primary-network validation (the active one, else pending, else the latest completed).",
      extensions: { cost: validatorLinkCost },
      resolve: (d, _args, ctx) => loadValidator(ctx, d.network, d.nodeId),
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
      description: `Only delegations paying rewards to one of these P-chain addresses (\`avax1...\`/\`fuji1...\` of this network, optionally \`P-\` prefixed; at most ${INPUT_LIMITS.addresses}).`,
    }),
    delegationStatus: t.field({ type: DelegationStatus.ref, description: 'Only this status.' }),
    nodeIds: t.stringList({ description: `Only delegations to these nodes (\`NodeID-...\`, at most ${INPUT_LIMITS.nodeIds}).` }),
  }),
});

interface DelegatorFilterArgs {
  rewardAddresses?: string[] | null;
  delegationStatus?: string | null;
  nodeIds?: string[] | null;
}

export interface DelegatorListArgs extends ConnectionArgs {
  filter?: DelegatorFilterArgs | null;
  sortOrder?: string | null;
}

/** Every bound of E13, checked before any upstream call. */
export function checkDelegatorArgs(args: DelegatorListArgs): void {
  checkFirst(args.first, PAGES.delegators);
  const f = args.filter ?? {};
  DelegationStatus.checkInput('filter.delegationStatus', f.delegationStatus);
  checkPrimaryAddresses('filter.rewardAddresses', f.rewardAddresses, ['P']);
  checkNodeIds('filter.nodeIds', f.nodeIds);
}

function toParams(args: DelegatorListArgs): ListDelegatorsParams {
  const f = args.filter ?? {};
  const params: ListDelegatorsParams = {};
  if (f.rewardAddresses?.length) params.rewardAddresses = f.rewardAddresses;
  if (f.nodeIds?.length) params.nodeIds = f.nodeIds;
  if (f.delegationStatus) params.delegationStatus = f.delegationStatus as DelegationStatusValue;
  if (args.sortOrder) params.sortOrder = args.sortOrder as SortOrder;
  return params;
}

async function listDelegators(ctx: Context, network: NetworkId, params: ListDelegatorsParams, pageToken: string | undefined, pageSize: number) {
  return ctx.dataApi.listDelegators(network, { ...params, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
}

registerNodeFamily('Delegator', {
  parts: [ID_PARTS.network, ID_PARTS.nodeId, ID_PARTS.cb58Id],
  load: async (ctx, [network, nodeId, txHash]) => {
    if ((network !== 'mainnet' && network !== 'fuji') || !nodeId || !txHash) return null;
    const found = await delegationByKey(ctx, network).load({ nodeId, txHash });
    return found ? withNetwork(network, found) : null;
  },
  typeOf: (d) => delegatorTypeOf(d as Delegator),
  // delegationByKey: one combined listing per 100 node ids, then each node's own list to MAX_REFETCH_PAGES pages.
  refetchCalls: (ids) =>
    byFirstPart(ids).reduce((calls, group) => {
      const nodes = new Set(group.map(([, nodeId]) => nodeId)).size;
      return calls + Math.ceil(nodes / STAKING_PAGE) + nodes * MAX_REFETCH_PAGES;
    }, 0),
});

/**
 * How `Validator.delegators` packs (see `delegatorsFirstPage`): the hint is the
 * validation's `delegatorCount`, which counts every status, so a status filter
 * leaves every validator with a listing of its own. The mean and the share of
 * validators with more than a page of delegations are the devnet's, measured with
 * the property test (`test/plugins/query-cost-property.test.ts`).
 */
export const DELEGATOR_PACKING: PackingModel = {
  maxPage: STAKING_PAGE,
  meanItems: 10,
  soloShare: 0.1,
  unpacked: (args) => args['delegationStatus'] != null,
};

builder.objectFields(NetworkRef, (t) => ({
  delegators: t.field({
    type: DelegatorConnection,
    description: 'Delegations on this network (E13). Page size 1-100, default 10.',
    args: {
      ...pageArgs(t.arg, PAGES.delegators),
      filter: t.arg({ type: DelegatorFilter, description: 'Filters.' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
    },
    extensions: { validateArgs: (args) => checkDelegatorArgs(args as DelegatorListArgs), cost: costs.listing(PAGES.delegators) },
    resolve: (n, rawArgs, ctx) => {
      const args = rawArgs as DelegatorListArgs;
      checkAddressesOnNetwork('filter.rewardAddresses', args.filter?.rewardAddresses, n.network);
      const params = toParams(args);
      return resolvePageConnection<DelegatorShape>({
        ctx,
        page: PAGES.delegators,
        args,
        parent: { network: n.network },
        fetchPage: async (pageToken, pageSize) => {
          const page = await listDelegators(ctx, n.network, params, pageToken, pageSize);
          return { items: page.delegators.map((d) => withNetwork(n.network, d)), nextPageToken: page.nextPageToken };
        },
      });
    },
  }),
}));

interface ValidatorDelegatorsArgs extends ConnectionArgs {
  delegationStatus?: string | null;
  sortOrder?: string | null;
}

function checkValidatorDelegatorsArgs(args: ValidatorDelegatorsArgs): void {
  checkFirst(args.first, PAGES.delegators);
  DelegationStatus.checkInput('delegationStatus', args.delegationStatus);
}

/**
 * `Validator.delegators`: the first page comes from the batching loader (one E13
 * listing for many validators, packed by their `delegatorCount`); `after` pages
 * read E13 for this node alone. E13 filters by node (as a substring) while a
 * validator is one validation of it: every page keeps the delegations to this
 * node within this validation's period.
 */
function resolveValidatorDelegators(v: ValidatorShape, args: ValidatorDelegatorsArgs, ctx: Context) {
  // Delegation exists only on the primary network (the seed: subnet delegation is unsupported).
  if (v.subnetId !== PRIMARY_NETWORK_ID) return emptyConnection<DelegatorShape>();
  const network = v.network;
  const first = checkFirst(args.first, PAGES.delegators);
  const delegationStatus = (args.delegationStatus ?? undefined) as DelegationStatusValue | undefined;
  const sortOrder = (args.sortOrder ?? undefined) as SortOrder | undefined;
  const window: StakingWindow = { start: v.startTimestamp, end: v.endTimestamp };
  const own = (items: Delegator[]) => items.filter((d) => d.nodeId === v.nodeId && inWindow(window, d)).map((d) => withNetwork(network, d));
  return resolvePageConnection<DelegatorShape>({
    ctx,
    page: PAGES.delegators,
    args,
    // The validation, not just the node: its period decides which items belong to the list.
    parent: { network, nodeId: v.nodeId, txHash: v.txHash },
    firstPage: async () => {
      const page = await delegatorsFirstPage(ctx, network).load({
        nodeId: v.nodeId,
        window,
        args: { first, ...(sortOrder ? { sortOrder } : {}), ...(delegationStatus ? { delegationStatus } : {}) },
        // delegatorCount counts every status: only a hint when the listing is not filtered.
        expected: delegationStatus ? undefined : (v.delegatorCount ?? undefined),
      });
      return { ...page, items: own(page.items) };
    },
    fetchPage: async (pageToken, pageSize) => {
      const params: ListDelegatorsParams = { nodeIds: [v.nodeId], ...(sortOrder ? { sortOrder } : {}), ...(delegationStatus ? { delegationStatus } : {}) };
      const page = await listDelegators(ctx, network, params, pageToken, pageSize);
      return { items: own(page.delegators), nextPageToken: page.nextPageToken };
    },
  });
}

builder.interfaceFields(ValidatorInterface, (t) => ({
  delegators: t.field({
    type: DelegatorConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description:
      'Delegations to this validation: to its node, within its period (E13 `nodeIds`, batched across validators: a list of validators costs a few upstream calls, not one each). Page size 1-100, default 10.',
    args: {
      ...pageArgs(t.arg, PAGES.delegators),
      delegationStatus: t.arg({ type: DelegationStatus.ref, description: 'Only this status.' }),
      sortOrder: t.arg({ type: SortOrderEnum, description: 'Sort direction.' }),
    },
    extensions: {
      validateArgs: (args) => checkValidatorDelegatorsArgs(args as ValidatorDelegatorsArgs),
      cost: costs.packedListing(PAGES.delegators, DELEGATOR_PACKING),
    },
    resolve: (v, args, ctx) => resolveValidatorDelegators(v, args as ValidatorDelegatorsArgs, ctx),
  }),
}));
