/**
 * Live activity, pushed by the Data API's webhooks (src/loaders/live-activity.ts): the events of
 * watched EVM addresses, primary-network addresses and nodes, as they are delivered, with no
 * polling. Each subscription watches its keys while it is open (and a grace after, so reopening is
 * free); the webhook calls its opening makes are charged to its request and every call of its life is
 * declared in its cost (`ADDRESS_ACTIVITY_COST`...), none per event.
 */
import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import {
  ADDRESS_ACTIVITY_COST, liveActivityOf, LIVE_ACTIVITY_DEFAULTS, PRIMARY_ACTIVITY_COST, VALIDATOR_ACTIVITY_COST, type ActivityFailure, type ActivityItem,
} from '../loaders/live-activity.ts';
import { CHAIN_LOOKUP_COST, chainById } from '../loaders/chains.ts';
import { TRANSACTION_LOOKUP_COST, transactionOf } from '../loaders/evm.ts';
import { PRIMARY_TX_LOOKUP_COST, primaryTransaction } from '../loaders/primary-tx.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import type { ActivityLog, ActivityTransaction, AddressActivityEvent, PrimaryActivityEvent, ValidatorActivityEvent } from '../shapes/index.ts';
import { AddressRef } from './addresses.ts';
import { grammar, listOf } from './bounds.ts';
import { ChainRef } from './chains.ts';
import { openEnumField } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { resolvePrimaryChain } from './primary-chain.ts';
import { PrimaryTransactionInterface } from './primary-tx.ts';
import { unixSecondsToDate } from './scalars.ts';
import { TransactionRef } from './transactions.ts';
import { loadValidator, ValidatorInterface } from './validators.ts';
import { PrimarySubEventEnum, ValidatorSubEventEnum } from './webhooks.ts';

type Delivered<E> = { readonly messageId: string; readonly webhookId: string; readonly event: E };
type EvmEvent = Delivered<AddressActivityEvent>;
type PrimaryEvent = Delivered<PrimaryActivityEvent> & { readonly network: 'mainnet' | 'fuji' };
type NodeEvent = Delivered<ValidatorActivityEvent> & { readonly network: 'mainnet' | 'fuji' };
type Transfer = NonNullable<ActivityTransaction['erc20Transfers']>[number];
type OnChainTx = ActivityTransaction & { readonly chainId: string };

const MAX_KEYS = LIVE_ACTIVITY_DEFAULTS.maxKeysPerSubscription;
const EVM_CHAIN_ID = grammar('An EVM chain id, decimal (e.g. 43114).', 'an EVM chain id', (v) => /^[1-9]\d{0,19}$/.test(v));

// ---------------------------------------------------------------- shared fields

const ActivityEventInterface = builder.interfaceRef<Delivered<unknown>>('ActivityEvent').implement({
  description: 'One event a webhook of the Data API delivered.',
  fields: (t) => ({
    messageId: t.string({ nullable: false, description: 'The delivery\'s id: the same event delivered again (a retry) has the same one, and is given to a subscriber once.', resolve: (e) => e.messageId }),
    webhookId: t.string({ nullable: false, description: 'The webhook that delivered it (one of the gateway\'s own).', resolve: (e) => e.webhookId }),
  }),
});

// ---------------------------------------------------------------- EVM

const ActivityTransferRef = builder.objectRef<Transfer>('ActivityTransfer').implement({
  description: 'A token transfer of an activity transaction (ERC-20, ERC-721 or ERC-1155).',
  fields: (t) => ({
    from: t.string({ nullable: true, description: 'Sender.', resolve: (x) => x.from }),
    to: t.string({ nullable: true, description: 'Recipient.', resolve: (x) => x.to }),
    value: t.field({ type: 'UInt256', nullable: true, description: 'Amount, in the token\'s smallest unit.', resolve: (x) => x.value ?? null }),
    tokenId: t.field({ type: 'UInt256', nullable: true, description: 'Token id (ERC-721, ERC-1155).', resolve: (x) => x.tokenId ?? null }),
    tokenAddress: t.string({ nullable: true, description: 'The token contract.', resolve: (x) => (x.erc20Token ?? x.erc721Token ?? x.erc1155Token)?.address ?? null }),
    tokenSymbol: t.string({ nullable: true, description: 'The token\'s symbol.', resolve: (x) => (x.erc20Token ?? x.erc721Token ?? x.erc1155Token)?.symbol ?? null }),
    logIndex: t.int({ nullable: true, description: 'Its log\'s index in the block.', resolve: (x) => x.logIndex ?? null }),
  }),
});

const ActivityLogRef = builder.objectRef<ActivityLog>('ActivityLog').implement({
  description: 'A log the transaction emitted.',
  fields: (t) => ({
    address: t.string({ nullable: true, description: 'The contract that emitted it.', resolve: (l) => l.address }),
    topics: t.stringList({ nullable: false, description: 'topic0 (the event signature) to topic3, those present.', resolve: (l) => [l.topic0, l.topic1, l.topic2, l.topic3].filter((x): x is string => x !== undefined) }),
    data: t.string({ nullable: true, description: 'The non-indexed data, hex.', resolve: (l) => l.data ?? null }),
    logIndex: t.int({ nullable: true, description: 'Index in the block.', resolve: (l) => l.logIndex ?? null }),
    removed: t.boolean({ nullable: true, description: 'True when a reorganisation removed it.', resolve: (l) => l.removed ?? null }),
  }),
});

const ActivityTransactionRef = builder.objectRef<OnChainTx>('ActivityTransaction').implement({
  description: 'The transaction of an address-activity event, as the webhook delivered it. `details` is the Data API\'s complete view of it.',
  fields: (t) => ({
    hash: t.string({ nullable: true, description: 'Transaction hash.', resolve: (x) => x.txHash }),
    blockNumber: t.field({ type: 'UInt64', nullable: true, description: 'Its block.', resolve: (x) => x.blockNumber ?? null }),
    blockHash: t.string({ nullable: true, description: 'Its block\'s hash.', resolve: (x) => x.blockHash ?? null }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When its block was produced.', resolve: (x) => unixSecondsToDate(x.blockTimestamp) }),
    from: t.string({ nullable: true, description: 'Sender.', resolve: (x) => x.from ?? null }),
    to: t.string({ nullable: true, description: 'Recipient (null for a contract creation).', resolve: (x) => x.to ?? null }),
    fromAddress: t.field({ type: AddressRef, nullable: true, description: 'The sender as an `Address` of the chain (no upstream call until its fields are read).', resolve: (x) => (x.from ? { chainId: x.chainId, address: x.from.toLowerCase() } : null) }),
    toAddress: t.field({ type: AddressRef, nullable: true, description: 'The recipient as an `Address` of the chain.', resolve: (x) => (x.to ? { chainId: x.chainId, address: x.to.toLowerCase() } : null) }),
    value: t.field({ type: 'UInt256', nullable: true, description: 'Native value sent, wei.', resolve: (x) => x.value ?? null }),
    gasLimit: t.field({ type: 'UInt256', nullable: true, description: 'Gas limit (`gas`).', resolve: (x) => x.gas ?? null }),
    gasPrice: t.field({ type: 'UInt256', nullable: true, description: 'Gas price, wei.', resolve: (x) => x.gasPrice ?? null }),
    status: t.string({ nullable: true, description: '`1` succeeded, `0` failed (`txStatus`).', resolve: (x) => x.txStatus ?? null }),
    input: t.string({ nullable: true, description: 'Call data, hex.', resolve: (x) => x.input ?? null }),
    erc20Transfers: t.field({ type: [ActivityTransferRef], nullable: false, description: 'Its ERC-20 transfers.', resolve: (x) => x.erc20Transfers ?? [] }),
    erc721Transfers: t.field({ type: [ActivityTransferRef], nullable: false, description: 'Its ERC-721 transfers.', resolve: (x) => x.erc721Transfers ?? [] }),
    erc1155Transfers: t.field({ type: [ActivityTransferRef], nullable: false, description: 'Its ERC-1155 transfers.', resolve: (x) => x.erc1155Transfers ?? [] }),
    details: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete transaction from the Data API (getTransaction: one call per event that reads it).',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
    }),
  }),
});

const AddressActivityEventRef = builder.objectRef<EvmEvent>('AddressActivityEvent').implement({
  interfaces: [ActivityEventInterface],
  description: 'A transaction that touched a watched address of an EVM chain (sender, recipient, a token transfer\'s party or contract, an internal call, a log\'s emitter).',
  fields: (t) => ({
    chainId: t.string({ nullable: true, description: 'The EVM chain id.', resolve: (e) => e.event.transaction.chainId }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (e, _args, ctx) => chainById(ctx).load(e.event.transaction.chainId) }),
    transaction: t.field({ type: ActivityTransactionRef, nullable: false, description: 'The transaction.', resolve: (e) => e.event.transaction }),
    logs: t.field({ type: [ActivityLogRef], nullable: false, description: 'Its logs.', resolve: (e) => e.event.logs ?? [] }),
  }),
});

// ---------------------------------------------------------------- primary network

const PrimaryNetworkActivityEventRef = builder.objectRef<PrimaryEvent>('PrimaryNetworkActivityEvent').implement({
  interfaces: [ActivityEventInterface],
  description: 'Activity of a watched primary-network address: a balance change or a reward paid to it.',
  fields: (t) => ({
    ...openEnumField(t, 'subEvent', PrimarySubEventEnum, { description: 'What happened.', value: (e) => e.event.subEvent }),
    blockchainId: t.string({ nullable: true, description: 'The chain it happened on.', resolve: (e) => e.event.blockchainId ?? null }),
    addresses: t.stringList({ nullable: false, description: 'The watched addresses it touched.', resolve: (e) => e.event.addresses }),
    transactionHash: t.string({ nullable: true, description: 'The transaction.', resolve: (e) => e.event.txHash ?? null }),
    txType: t.string({ nullable: true, description: 'Its type, as the Data API names it.', resolve: (e) => e.event.txType ?? null }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When.', resolve: (e) => unixSecondsToDate(e.event.blockTimestamp) }),
    transaction: t.field({
      type: PrimaryTransactionInterface,
      nullable: true,
      description: 'The transaction from the Data API (one call per event that reads it).',
      upstreamCost: PRIMARY_TX_LOOKUP_COST,
      resolve: (e, _args, ctx) => (e.event.txHash && e.event.blockchainId ? primaryTransaction(ctx, { network: e.network, blockchainId: e.event.blockchainId }, e.event.txHash) : null),
    }),
  }),
});

const ValidatorActivityEventRef = builder.objectRef<NodeEvent>('ValidatorActivityEvent').implement({
  interfaces: [ActivityEventInterface],
  description: 'Activity of a watched node: a stake, a delegation, a reward, an L1 validator\'s balance or removal.',
  fields: (t) => ({
    ...openEnumField(t, 'subEvent', ValidatorSubEventEnum, { description: 'What happened.', value: (e) => e.event.subEvent }),
    nodeId: t.string({ nullable: false, description: 'The node.', resolve: (e) => e.event.nodeId }),
    subnetId: t.string({ nullable: true, description: 'The subnet, for an L1 validator.', resolve: (e) => e.event.subnetId ?? null }),
    transactionHash: t.string({ nullable: true, description: 'The P-chain transaction, when there is one.', resolve: (e) => e.event.txHash ?? null }),
    blockTime: t.field({ type: 'DateTime', nullable: true, description: 'When.', resolve: (e) => unixSecondsToDate(e.event.blockTimestamp) }),
    validator: t.field({
      type: ValidatorInterface,
      nullable: true,
      description: 'The node\'s current validation, through the batched validator lookup.',
      upstreamCost: validatorLinkCost,
      resolve: (e, _args, ctx) => loadValidator(ctx, e.network, e.event.nodeId),
    }),
  }),
});

// ---------------------------------------------------------------- subscriptions

const LIVE_NOTE = 'Pushed by the Data API\'s webhooks as it delivers them (no polling); needs `WEBHOOK_PUBLIC_URL` on the gateway (on the built-in devnet it is set).';

/** The event of a subscription of `kind`; a failure (the key could not be registered) is thrown here, so it is a coded error of the event. */
function narrow<K extends ActivityItem['kind']>(kind: K) {
  return (item: ActivityItem | ActivityFailure): Extract<ActivityItem, { kind: K }> => {
    if (item.kind === 'failed') throw item.error;
    if (item.kind !== kind) throw new Error(`live activity: a ${item.kind} event on a ${kind} subscription`);
    return item as Extract<ActivityItem, { kind: K }>;
  };
}

builder.subscriptionFields((t) => ({
  addressActivity: t.field({
    type: AddressActivityEventRef,
    nullable: false,
    description: `Each transaction that touches one of \`addresses\` on an EVM chain, from now on. ${LIVE_NOTE}`,
    args: {
      chainId: t.arg.string({ required: true, description: 'The EVM chain id (e.g. 43114).', bound: EVM_CHAIN_ID }),
      addresses: t.arg.stringList({ required: true, description: 'The addresses to watch.', bound: listOf({ max: MAX_KEYS, nonEmpty: true, item: BOUNDS.evmAddress }) }),
    },
    upstreamCost: ADDRESS_ACTIVITY_COST,
    subscribe: (_root, args, ctx) => liveActivityOf(ctx).subscribe(ctx, { kind: 'evm', chainId: args.chainId }, args.addresses),
    resolve: (item: ActivityItem | ActivityFailure) => narrow('evm')(item),
  }),
  primaryNetworkActivity: t.field({
    type: PrimaryNetworkActivityEventRef,
    nullable: false,
    description: `Balance changes and rewards of primary-network addresses on the P- or X-chain, from now on. ${LIVE_NOTE}`,
    args: {
      network: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }),
      blockchainId: t.arg.string({ required: true, description: '`p-chain` or `x-chain` (or its blockchain id).', bound: BOUNDS.primaryChainId }),
      addresses: t.arg.stringList({ required: true, description: 'The addresses to watch, of that chain.', bound: BOUNDS.utxoAddresses }),
    },
    upstreamCost: PRIMARY_ACTIVITY_COST,
    subscribe: (_root, args, ctx) => {
      const network = networkId(args.network);
      const chain = resolvePrimaryChain('blockchainId', network, args.blockchainId);
      if (chain.alias === 'c-chain') throw badInput('blockchainId', 'primary-network address activity is on the P- or X-chain: use addressActivity for the C-chain');
      return liveActivityOf(ctx).subscribe(ctx, { kind: 'primary', network, blockchainId: chain.blockchainId }, args.addresses);
    },
    resolve: (item: ActivityItem | ActivityFailure, args) => ({ ...narrow('primary')(item), network: networkId(args.network) }),
  }),
  validatorActivity: t.field({
    type: ValidatorActivityEventRef,
    nullable: false,
    description: `Stakes, delegations, rewards and L1 balance events of one node, from now on. ${LIVE_NOTE}`,
    args: {
      network: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }),
      nodeId: t.arg.string({ required: true, description: 'The node (`NodeID-...`).', bound: BOUNDS.nodeId }),
    },
    upstreamCost: VALIDATOR_ACTIVITY_COST,
    subscribe: (_root, args, ctx) => liveActivityOf(ctx).subscribe(ctx, { kind: 'validator', network: networkId(args.network), nodeId: args.nodeId }, [args.nodeId]),
    resolve: (item: ActivityItem | ActivityFailure, args) => ({ ...narrow('validator')(item), network: networkId(args.network) }),
  }),
}));
