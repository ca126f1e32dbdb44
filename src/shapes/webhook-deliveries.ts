/**
 * What the Data API POSTs to a webhook's URL: `{ webhookId, eventType, messageId, event }`.
 *
 * The spec describes the event of `address_activity` (WebhookAddressActivityResponse: a
 * TransactionEvent, the transaction and, when the webhook asked, its logs). It gives no payload
 * for `primary_network_address_activity` nor `validator_activity`; the forms read here are
 * assumptions (the watched addresses or node a transaction touched, its hash and type, the
 * sub-event), kept in this file and read tolerantly: members beyond these are ignored.
 *
 * The spec's `Transaction` carries its numbers as decimal strings (`blockNumber`, `gas`, `value`)
 * and `blockTimestamp` as a JSON number of seconds.
 */
import * as v from 'valibot';
import { perKit, type Kit } from './kit.ts';
import { PRIMARY_ADDRESS_SUB_EVENTS, VALIDATOR_SUB_EVENTS, WEBHOOK_EVENT_TYPES } from './webhooks.ts';

/** A delivery's envelope: what every event type shares. The message id names the delivery (retries keep it). */
export const WebhookDelivery = v.object({
  webhookId: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  eventType: v.picklist(WEBHOOK_EVENT_TYPES),
  messageId: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
  event: v.record(v.string(), v.unknown()),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const describeWebhookEvents = perKit((k: Kit) => {
  const party = v.optional(k.string);
  const ErcToken = v.object({ address: k.string, name: v.optional(k.string), symbol: v.optional(k.string), decimals: v.optional(k.int32), valueWithDecimals: v.optional(k.string) });
  /** ERCTransfer: one ERC-20/721/1155 transfer of the transaction. */
  const ErcTransfer = v.object({
    transactionHash: v.optional(k.string),
    type: v.optional(k.string),
    from: k.string,
    to: k.string,
    value: v.optional(k.decimal),
    tokenId: v.optional(k.decimal),
    logIndex: v.optional(k.int32),
    erc20Token: v.optional(ErcToken),
    erc721Token: v.optional(ErcToken),
    erc1155Token: v.optional(ErcToken),
  });
  const InternalTransaction = v.object({ from: k.string, to: k.string, internalTxType: v.optional(k.string), value: v.optional(k.decimal), gasUsed: v.optional(k.decimal), gasLimit: v.optional(k.decimal) });
  /** The spec's `Transaction` of a TransactionEvent: the members a subscriber reads. */
  const ActivityTransaction = v.object({
    txHash: k.string,
    chainId: k.string,
    blockHash: v.optional(k.string),
    blockNumber: v.optional(k.decimal64),
    blockTimestamp: v.optional(k.integer),
    from: party,
    to: party,
    value: v.optional(k.decimal),
    gas: v.optional(k.decimal),
    gasPrice: v.optional(k.decimal),
    txStatus: v.optional(k.string),
    input: v.optional(k.string),
    nonce: v.optional(k.decimal),
    transactionIndex: v.optional(k.integer),
    contractAddress: v.optional(k.string),
    erc20Transfers: v.optional(v.array(ErcTransfer)),
    erc721Transfers: v.optional(v.array(ErcTransfer)),
    erc1155Transfers: v.optional(v.array(ErcTransfer)),
    internalTransactions: v.optional(v.array(InternalTransaction)),
  });
  const Log = v.object({
    address: k.string,
    topic0: v.optional(k.string),
    topic1: v.optional(k.string),
    topic2: v.optional(k.string),
    topic3: v.optional(k.string),
    data: v.optional(k.string),
    transactionIndex: v.optional(k.integer),
    logIndex: v.optional(k.integer),
    removed: v.optional(k.boolean),
  });
  /** TransactionEvent (address_activity). */
  const AddressActivityEvent = v.object({ transaction: ActivityTransaction, logs: v.optional(v.array(Log)) });
  /** primary_network_address_activity (assumed form). */
  const PrimaryActivityEvent = v.object({
    subEvent: k.openEnum(PRIMARY_ADDRESS_SUB_EVENTS),
    network: v.optional(k.string),
    blockchainId: v.optional(k.string),
    addresses: v.array(k.string),
    txHash: v.optional(k.string),
    txType: v.optional(k.string),
    blockTimestamp: v.optional(k.integer),
  });
  /** validator_activity (assumed form). */
  const ValidatorActivityEvent = v.object({
    subEvent: k.openEnum(VALIDATOR_SUB_EVENTS),
    network: v.optional(k.string),
    nodeId: k.string,
    subnetId: v.optional(k.string),
    txHash: v.optional(k.string),
    blockTimestamp: v.optional(k.integer),
  });
  return { AddressActivityEvent, PrimaryActivityEvent, ValidatorActivityEvent };
});

type Events = ReturnType<typeof describeWebhookEvents>;
export type AddressActivityEvent = v.InferOutput<Events['AddressActivityEvent']>;
export type ActivityTransaction = AddressActivityEvent['transaction'];
export type ActivityLog = NonNullable<AddressActivityEvent['logs']>[number];
export type PrimaryActivityEvent = v.InferOutput<Events['PrimaryActivityEvent']>;
export type ValidatorActivityEvent = v.InferOutput<Events['ValidatorActivityEvent']>;
