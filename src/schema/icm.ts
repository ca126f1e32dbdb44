import type { InputShapeFromFields } from '@pothos/core';
import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import { TRANSACTION_LOOKUP_COST, transactionOf } from '../loaders/evm.ts';
import {
  ICM_MESSAGE_LISTING_COST, ICM_MESSAGE_LOOKUP_COST, icmMessageById, icmMessagePages, icmRefetchCalls, normalizeMessageId, type IcmMessageFilters,
} from '../loaders/icm.ts';
import type { IcmMessage } from '../shapes/index.ts';
import { withFields } from '../shapes/index.ts';
import { ChainRef } from './chains.ts';
import { PriceRef } from './common.ts';
import { checkAfter, pageArgs, resolvePageConnection } from './connection.ts';
import { openEnumField, upstreamEnum } from './enums.ts';
import { badInput } from '../errors/graphql.ts';
import { grammar } from './bounds.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { PAGES } from './pagination.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, optional, registerNodeFamily } from './relay-node.ts';
import { ErcType, TransactionRef } from './transactions.ts';
import { unixSecondsToDate } from './scalars.ts';

/** An ICM message as the Data API answers it, listed or looked up by id. */
export type IcmMessageShape = IcmMessage;

type IcmTxShape<T> = T & { chainId: string };

export const IcmMessageStatus = upstreamEnum('IcmMessageStatus', 'Delivery status of an ICM message.', {
  PENDING: { value: 'pending', description: 'Sent; not delivered yet.' },
  DELIVERED: { value: 'delivered', description: 'Delivered to the destination chain.' },
  DELIVERED_SOURCE_NOT_INDEXED: {
    value: 'delivered_source_not_indexed',
    description: 'Delivered, but its source chain is not indexed (no `sourceTransaction`).',
  },
});

const IcmReceiptRef = builder.objectRef<IcmMessage['receipts'][number]>('IcmReceipt').implement({
  description: 'A receipt of a delivered message, sent back to the source chain so the relayer can claim its reward.',
  fields: (t) => ({
    receivedMessageNonce: t.field({ type: 'UInt256', description: 'Nonce of the message received.', resolve: (r) => r.receivedMessageNonce }),
    relayerRewardAddress: t.expose('relayerRewardAddress', { type: 'EvmAddress', description: 'Where the relayer reward goes.' }),
  }),
});

const IcmRewardDetailsRef = builder.objectRef<IcmMessage['rewardDetails']>('IcmRewardDetails').implement({
  description: 'The relayer fee attached to a message (an ERC-20 amount).',
  fields: (t) => ({
    address: t.expose('address', { type: 'EvmAddress', description: 'Fee token contract address (the zero address when there is no fee).' }),
    name: t.exposeString('name', { description: 'Fee token name.' }),
    symbol: t.exposeString('symbol', { description: 'Fee token symbol.' }),
    decimals: t.exposeInt('decimals', { description: 'Fee token decimals.' }),
    logoUri: t.expose('logoUri', { type: 'URL', nullable: true, description: 'Fee token logo URL.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_20.', value: (r) => r.ercType }),
    price: t.field({ type: PriceRef, nullable: true, description: 'Current price of one fee token.', resolve: (r) => r.price ?? null }),
    value: t.field({ type: 'UInt256', description: 'Fee amount, smallest unit of the token.', resolve: (r) => r.value }),
  }),
});

const IcmSourceTransactionRef = builder.objectRef<IcmTxShape<NonNullable<IcmMessage['sourceTransaction']>>>('IcmSourceTransaction').implement({
  description: 'The transaction that sent a message, on the source chain.',
  fields: (t) => ({
    txHash: t.expose('txHash', { type: 'Hash', description: 'Transaction hash.' }),
    timestamp: t.expose('timestamp', { type: 'UInt64', description: 'Block timestamp, unix seconds.' }),
    time: t.field({ type: 'DateTime', nullable: true, description: 'Block timestamp: `timestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.timestamp) }),
    gasSpent: t.field({ type: 'UInt256', description: 'Gas used.', resolve: (x) => x.gasSpent }),
    transaction: t.field({
      type: TransactionRef,
      nullable: true,
      description: 'The complete view of this transaction on the source chain.',
      upstreamCost: TRANSACTION_LOOKUP_COST,
      resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
    }),
  }),
});

const IcmDestinationTransactionRef = builder
  .objectRef<IcmTxShape<NonNullable<IcmMessage['destinationTransaction']>>>('IcmDestinationTransaction')
  .implement({
    description: 'The transaction that delivered a message, on the destination chain.',
    fields: (t) => ({
      txHash: t.expose('txHash', { type: 'Hash', description: 'Transaction hash.' }),
      timestamp: t.expose('timestamp', { type: 'UInt64', description: 'Block timestamp, unix seconds.' }),
      time: t.field({ type: 'DateTime', nullable: true, description: 'Block timestamp: `timestamp` as a DateTime.', resolve: (p) => unixSecondsToDate(p.timestamp) }),
      gasSpent: t.field({ type: 'UInt256', description: 'Gas used.', resolve: (x) => x.gasSpent }),
      rewardRedeemer: t.exposeString('rewardRedeemer', { description: 'Address that can redeem the relayer reward.' }),
      delivererAddress: t.expose('delivererAddress', { type: 'EvmAddress', description: 'The relayer that delivered the message.' }),
      transaction: t.field({
        type: TransactionRef,
        nullable: true,
        description: 'The complete view of this transaction on the destination chain.',
        upstreamCost: TRANSACTION_LOOKUP_COST,
        resolve: (x, _args, ctx) => transactionOf(ctx, x.chainId, x.txHash),
      }),
    }),
  });

export const IcmMessageRef = builder.objectRef<IcmMessageShape>('IcmMessage');

/**
 * Local id parts of a message: its message id alone (getIcmMessage needs nothing
 * else), after an empty first part. Ids issued earlier named the address and
 * network it was listed for there; they still refetch, by their message id.
 */
const idParts = (m: IcmMessageShape): string[] => ['', `0x${normalizeMessageId(m.messageId)}`];

IcmMessageRef.implement({
  description: 'An Interchain Messaging (ICM / Teleporter) message between two EVM chains.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({
      nullable: false,
      description: 'Global id: the same however the message was found; `node(id:)` reads the message by its id.',
      resolve: (m) => encodeGlobalId('IcmMessage', idParts(m)),
    }),
    messageId: t.exposeString('messageId', { description: 'The Teleporter message id.' }),
    icmContractAddress: t.expose('icmContractAddress', { type: 'EvmAddress', description: 'The TeleporterMessenger contract.' }),
    sourceBlockchainId: t.exposeString('sourceBlockchainId', { description: 'Blockchain id of the sending chain.' }),
    destinationBlockchainId: t.exposeString('destinationBlockchainId', { description: 'Blockchain id of the receiving chain.' }),
    sourceEvmChainId: t.exposeString('sourceEvmChainId', { description: 'EVM chain id of the sending chain.' }),
    destinationEvmChainId: t.exposeString('destinationEvmChainId', { description: 'EVM chain id of the receiving chain.' }),
    messageNonce: t.field({ type: 'UInt256', description: 'Nonce of the message.', resolve: (m) => m.messageNonce }),
    from: t.exposeString('from', { description: 'Sender address on the source chain.' }),
    to: t.exposeString('to', { description: 'Recipient address on the destination chain.' }),
    data: t.exposeString('data', { nullable: true, description: 'Message payload, 0x hex.' }),
    messageExecuted: t.exposeBoolean('messageExecuted', { description: 'True once the message was executed on the destination chain.' }),
    receipts: t.field({ type: [IcmReceiptRef], description: 'Receipts sent back to the source chain.', resolve: (m) => m.receipts ?? [] }),
    receiptDelivered: t.exposeBoolean('receiptDelivered', { description: 'True once a receipt reached the source chain.' }),
    rewardDetails: t.field({ type: IcmRewardDetailsRef, description: 'The relayer fee.', resolve: (m) => m.rewardDetails }),
    sourceTransaction: t.field({
      type: IcmSourceTransactionRef,
      nullable: true,
      description: 'The sending transaction (absent when the source chain is not indexed).',
      resolve: (m) => (m.sourceTransaction ? withFields(m.sourceTransaction, { chainId: m.sourceEvmChainId }) : null),
    }),
    destinationTransaction: t.field({
      type: IcmDestinationTransactionRef,
      nullable: true,
      description: 'The delivering transaction (delivered messages).',
      resolve: (m) => (m.destinationTransaction ? withFields(m.destinationTransaction, { chainId: m.destinationEvmChainId }) : null),
    }),
    ...openEnumField(t, 'status', IcmMessageStatus, { description: 'Delivery status.', value: (m) => m.status }),
    sourceChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The sending chain, when the Data API indexes it.',
      upstreamCost: CHAIN_LOOKUP_COST,
      resolve: (m, _args, ctx) => chainById(ctx).load(m.sourceEvmChainId || m.sourceBlockchainId),
    }),
    destinationChain: t.field({
      type: ChainRef,
      nullable: true,
      description: 'The receiving chain, when the Data API indexes it.',
      upstreamCost: CHAIN_LOOKUP_COST,
      resolve: (m, _args, ctx) => chainById(ctx).load(m.destinationEvmChainId || m.destinationBlockchainId),
    }),
  }),
});

export const IcmMessageConnection = builder.connectionObject(
  { type: IcmMessageRef, name: 'IcmMessageConnection', description: 'A page of ICM messages, newest first.' },
  { name: 'IcmMessageEdge', description: 'An ICM message and its cursor.' },
);

/** The arguments of an address's ICM message listing (`Address.icmMessages`; `icmMessages` adds the address and filters). */
export const icmListArgs = builder.args((t) => ({
  ...pageArgs(t, PAGES.icmMessages),
  network: t.field({ type: NetworkNameEnum, description: 'Only messages of this network (all when omitted).' }),
}));
export type IcmListArgs = InputShapeFromFields<typeof icmListArgs>;

/**
 * ICM messages as a connection, newest first: those an address sent or received
 * (E16), or with no address every message, narrowed by `filters` (listIcmMessages).
 * `parent` binds cursors to `Address.icmMessages`.
 */
export function resolveIcmMessages(ctx: Context, address: string | undefined, args: IcmListArgs, parent?: unknown, filters?: IcmMessageFilters) {
  const network = args.network ? networkId(args.network) : undefined;
  return resolvePageConnection({
    ctx,
    page: address === undefined ? PAGES.allIcmMessages : PAGES.icmMessages,
    args,
    parent: parent ?? (address === undefined ? {} : { address: address.toLowerCase() }),
    fetchPage: icmMessagePages(ctx, address, network, filters),
  });
}

registerNodeFamily('IcmMessage', {
  refetchComputeUnits: ICM_MESSAGE_LOOKUP_COST.computeUnits ?? 0,
  // [address listed for (ids issued before the lookup by id), message id, network (same)].
  parts: [optional(ID_PARTS.evmAddress), ID_PARTS.icmMessageId, optional(ID_PARTS.network)],
  load: async (ctx, [, messageId]) => (messageId ? icmMessageById(ctx).load(messageId) : null),
  typeOf: () => 'IcmMessage',
  refetchCalls: icmRefetchCalls,
});

const ICM_MESSAGE_ID = grammar('An ICM (Teleporter) message id: 64 hex digits, `0x` optional.', 'an ICM message id (64 hex digits)', (v) => ID_PARTS.icmMessageId.test(v));

export const IcmMessageFilter = builder.inputType('IcmMessageFilter', {
  description: 'Filters of the listing of every ICM message (`icmMessages` without `address`); names are the upstream query parameters.',
  fields: (t) => ({
    sourceBlockchainId: t.string({ description: 'Only messages sent from this chain: its blockchain id (cb58) or EVM chain id.', bound: BOUNDS.chainId }),
    destinationBlockchainId: t.string({ description: 'Only messages sent to this chain: its blockchain id (cb58) or EVM chain id.', bound: BOUNDS.chainId }),
    blockchainId: t.string({ description: 'Only messages sent from or to this blockchain (cb58).', bound: BOUNDS.cb58Id }),
    from: t.string({ description: 'Only messages from this sender.', bound: BOUNDS.evmAddress }),
    to: t.string({ description: 'Only messages to this recipient.', bound: BOUNDS.evmAddress }),
  }),
});

builder.queryFields((t) => ({
  icmMessages: t.field({
    type: IcmMessageConnection,
    nullable: false,
    description: 'ICM messages, newest first: those an address sent or received, or with no `address` every message the Data API indexes (narrowed by `filter`).',
    args: {
      address: t.arg.string({ description: 'The sender or recipient; every message when omitted.', bound: BOUNDS.evmAddress }),
      filter: t.arg({ type: IcmMessageFilter, description: 'Filters of the listing of every message; only without `address`.' }),
      ...icmListArgs,
    },
    checkArgs: (args) => {
      const hasFilter = Object.values(args.filter ?? {}).some((v) => v != null);
      if (args.address != null && hasFilter) throw badInput('filter', 'filters apply to the listing of every message: leave out `address` (or the filter)');
      checkAfter(args, args.address == null ? PAGES.allIcmMessages : PAGES.icmMessages);
    },
    upstreamCost: ICM_MESSAGE_LISTING_COST,
    resolve: (_root, args, ctx) => resolveIcmMessages(ctx, args.address ?? undefined, args, undefined, definedFilters(args.filter)),
  }),
  icmMessage: t.field({
    type: IcmMessageRef,
    nullable: true,
    description: 'An ICM message by its message id; null when the Data API has none such. The same id asked twice in a query is read once.',
    args: { messageId: t.arg.string({ required: true, description: 'The Teleporter message id (64 hex digits).', bound: ICM_MESSAGE_ID }) },
    upstreamCost: ICM_MESSAGE_LOOKUP_COST,
    resolve: (_root, args, ctx) => icmMessageById(ctx).load(args.messageId),
  }),
}));

function definedFilters(filter: { [K in keyof IcmMessageFilters]?: string | null } | null | undefined): IcmMessageFilters {
  const out: IcmMessageFilters = {};
  for (const key of ['sourceBlockchainId', 'destinationBlockchainId', 'blockchainId', 'to', 'from'] as const) {
    const value = filter?.[key];
    if (value) out[key] = key === 'to' || key === 'from' ? value.toLowerCase() : value;
  }
  return out;
}
