import { builder } from './builder.ts';
import { L1_VALIDATOR_LISTING_COST, l1ValidatorPages, type L1ValidatorFilter, type L1ValidatorOnNetwork } from '../loaders/l1-validators.ts';
import { subnetById, SUBNET_LIST_COST, SUBNET_LIST_NOTE } from '../loaders/subnets.ts';
import type { NetworkId } from '../loaders/types.ts';
import { pageArgs, resolvePageConnection, type ConnectionArgs } from './connection.ts';
import type { Context } from './context.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkRef } from './network.ts';
import { badCursor, PAGES } from './pagination.ts';
import { unixSecondsToDate } from './scalars.ts';
import { SubnetRef } from './subnet-refs.ts';

/**
 * `L1Validator`, an L1's validation as listL1Validators describes it (a validation id,
 * its node, weight and the balance left to pay for it), listed from the L1 that
 * `Subnet.l1Validators` walks from, or network-wide with `Network.l1Validators`.
 */

type BalanceOwnerShape = L1ValidatorOnNetwork['remainingBalanceOwner'];

const L1BalanceOwnerRef = builder.objectRef<BalanceOwnerShape>('L1BalanceOwner').implement({
  description: 'Who may act on an L1 validator\'s balance: a threshold of these P-chain addresses.',
  fields: (t) => ({
    addresses: t.exposeStringList('addresses', { description: 'Owner addresses.' }),
    threshold: t.expose('threshold', { type: 'UInt64', description: 'Signatures required.' }),
  }),
});

const blsField = (key: string) => (v: L1ValidatorOnNetwork): string | null => {
  const value = v.blsCredentials[key];
  return typeof value === 'string' ? value : null;
};

export const L1ValidatorRef = builder.objectRef<L1ValidatorOnNetwork>('L1Validator').implement({
  description:
    'A validation of an L1 (a subnet converted with ConvertSubnetToL1Tx): the node, its sampling weight and the balance it has left to pay the continuous fee. A weight of 0 means the validation was removed; a balance of 0 that it is inactive.',
  fields: (t) => ({
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (v) => v.network }),
    validationId: t.exposeString('validationId', { description: 'The L1 validation id (cb58), valid until the weight drops to 0.' }),
    validationIdHex: t.exposeString('validationIdHex', { description: 'The L1 validation id, hex.' }),
    nodeId: t.exposeString('nodeId', { description: 'The validating node.' }),
    subnetId: t.exposeString('subnetId', { description: 'The L1 (subnet id) validated.' }),
    weight: t.expose('weight', { type: 'UInt64', description: 'Sampling weight within the L1; 0 once removed.' }),
    remainingBalance: t.expose('remainingBalance', { type: 'UInt64', description: 'Balance left, nAVAX, as of `balanceBlockHeight`; the validator is inactive at 0 until topped up (IncreaseL1ValidatorBalanceTx).' }),
    isActive: t.boolean({ description: 'True while it has weight and balance left (derived from `weight` and `remainingBalance`).', resolve: (v) => Number(v.weight) > 0 && Number(v.remainingBalance) > 0 }),
    balanceBlockHeight: t.field({ type: 'UInt256', nullable: true, description: 'The P-chain height `remainingBalance` was computed at.', resolve: (v) => v.blockHeight }),
    creationTimestamp: t.expose('creationTimestamp', { type: 'UInt64', description: 'When the registering transaction was accepted, unix seconds.' }),
    creationTime: t.field({ type: 'DateTime', nullable: true, description: '`creationTimestamp` as a DateTime.', resolve: (v) => unixSecondsToDate(v.creationTimestamp) }),
    blsPublicKey: t.string({ nullable: true, description: 'The BLS public key, hex, when the upstream gives one.', resolve: blsField('publicKey') }),
    blsProofOfPossession: t.string({ nullable: true, description: 'The BLS proof of possession, hex, when the upstream gives one.', resolve: blsField('proofOfPossession') }),
    remainingBalanceOwner: t.field({ type: L1BalanceOwnerRef, description: 'Who receives the balance left once the validator is disabled or removed.', resolve: (v) => v.remainingBalanceOwner }),
    deactivationOwner: t.field({ type: L1BalanceOwnerRef, description: 'Who may disable or remove the validator.', resolve: (v) => v.deactivationOwner }),
    subnet: t.field({
      type: SubnetRef,
      nullable: true,
      description: `The L1 validated. ${SUBNET_LIST_NOTE}`,
      upstreamCost: SUBNET_LIST_COST,
      resolve: (v, _args, ctx) => subnetById(ctx, v.network).load(v.subnetId),
    }),
  }),
});

export const L1ValidatorConnection = builder.connectionObject(
  { type: L1ValidatorRef, name: 'L1ValidatorConnection', description: 'A page of L1 validators.' },
  { name: 'L1ValidatorEdge', description: 'An L1 validator and its cursor.' },
);

interface L1Args {
  l1ValidationId?: string | null;
  nodeId?: string | null;
  subnetId?: string | null;
  includeInactive?: boolean | null;
}

function filterOf(args: L1Args, subnetId: string | null | undefined): L1ValidatorFilter {
  return {
    ...(args.l1ValidationId != null ? { l1ValidationId: args.l1ValidationId } : {}),
    ...(args.nodeId != null ? { nodeId: args.nodeId } : {}),
    ...(subnetId != null ? { subnetId } : {}),
    ...(args.includeInactive != null ? { includeInactiveL1Validators: args.includeInactive } : {}),
  };
}

type ArgBuilder = Parameters<Parameters<typeof builder.objectFields<typeof NetworkRef>>[1]>[0]['arg'];

const filterArgs = (arg: ArgBuilder) => ({
  l1ValidationId: arg.string({ description: 'Only this L1 validation id.', bound: BOUNDS.cb58Id }),
  nodeId: arg.string({ description: 'Only validations of this node.', bound: BOUNDS.nodeId }),
  includeInactive: arg.boolean({ description: 'Include inactive validators (no balance left, or removed); default false.' }),
});

const listing = (network: NetworkId, args: ConnectionArgs & L1Args, subnetId: string | null | undefined, ctx: Context) =>
  resolvePageConnection<L1ValidatorOnNetwork>({
    ctx,
    page: PAGES.l1Validators,
    args,
    parent: { network, subnetId: subnetId ?? null },
    fetchPage: l1ValidatorPages(ctx, network, filterOf(args, subnetId)),
  });

builder.objectFields(NetworkRef, (t) => ({
  l1Validators: t.field({
    type: L1ValidatorConnection,
    nullable: false,
    description: 'Validators of the L1s of this network (listL1Validators), active ones unless `includeInactive`.',
    args: {
      ...pageArgs(t.arg, PAGES.l1Validators),
      ...filterArgs(t.arg),
      subnetId: t.arg.string({ description: 'Only validators of this L1.', bound: BOUNDS.subnetId }),
    },
    upstreamCost: L1_VALIDATOR_LISTING_COST,
    resolve: (n, args, ctx) => listing(n.network, args, args.subnetId, ctx),
  }),
}));

builder.objectFields(SubnetRef, (t) => ({
  l1Validators: t.field({
    type: L1ValidatorConnection,
    // An upstream failure here fails this field only, not the whole list it sits in.
    nullable: true,
    description:
      'Validators of this L1 (listL1Validators, pinned to this subnet), active ones unless `includeInactive`. Empty, with no upstream call, for a subnet that is not an L1. One listing per L1: the API takes one subnet per call.',
    args: { ...pageArgs(t.arg, PAGES.l1Validators), ...filterArgs(t.arg) },
    upstreamCost: L1_VALIDATOR_LISTING_COST,
    resolve: (s, args, ctx) => {
      if (!s.isL1) {
        if (args.after != null) throw badCursor('cannot continue a list this subnet does not have (it is not an L1, so it has no L1 validators)', "pass a cursor from an L1's own `l1Validators` page");
        return resolvePageConnection<L1ValidatorOnNetwork>({ ctx, page: PAGES.l1Validators, args, parent: { network: s.network, subnetId: s.subnetId }, fetchPage: async () => ({ items: [] }) });
      }
      return listing(s.network, args, s.subnetId, ctx);
    },
  }),
}));
