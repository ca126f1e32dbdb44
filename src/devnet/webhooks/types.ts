// The Data API's webhook objects as the devnet serves them: the spec's EVMAddressActivityResponse,
// PrimaryNetworkAddressActivityResponse and ValidatorActivityResponse, and the delivery payload
// (WebhookAddressActivityResponse with its TransactionEvent, Transaction, Log, ERCTransfer, ERCToken,
// WebhookInternalTransaction; the same envelope carries the primary-network and validator events).

import {
  PRIMARY_ADDRESS_SUB_EVENTS, VALIDATOR_SUB_EVENTS, WEBHOOK_BALANCE_TYPES, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES, type WebhookEventType,
} from '../../shapes/index.ts';

// The spec's enums, as the gateway reads them (one list each).
export { VALIDATOR_SUB_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES, type WebhookEventType };
export const PRIMARY_SUB_EVENTS = PRIMARY_ADDRESS_SUB_EVENTS;
export const BALANCE_TYPES = WEBHOOK_BALANCE_TYPES;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

interface WebhookCommon {
  id: string;
  url: string;
  chainId: string;
  status: WebhookStatus;
  /** Unix seconds. */
  createdAt: number;
  name: string;
  description: string;
}

export interface AddressActivityMetadata {
  eventSignatures?: string[];
  addresses: string[];
}

export interface EvmWebhook extends WebhookCommon {
  eventType: 'address_activity';
  metadata: AddressActivityMetadata;
  includeInternalTxs: boolean;
  includeLogs: boolean;
}

export interface PrimaryNetworkAddressActivityMetadata {
  eventSignatures?: string[];
  keyType: 'addresses';
  keys: string[];
  subEvents: { addressActivitySubEvents: (typeof PRIMARY_SUB_EVENTS)[number][] };
  balanceThresholdFilter?: { balanceType: (typeof BALANCE_TYPES)[number]; balanceThreshold: string };
}

export interface PrimaryWebhook extends WebhookCommon {
  eventType: 'primary_network_address_activity';
  metadata: PrimaryNetworkAddressActivityMetadata;
}

export interface ValidatorActivityMetadata {
  eventSignatures?: string[];
  keyType: 'nodeId' | 'subnetId';
  keys: string[];
  subEvents: { validatorActivitySubEvents: (typeof VALIDATOR_SUB_EVENTS)[number][] };
  nodeIds?: string[];
  subnetIds?: string[];
  l1ValidatorFeeBalanceThreshold?: string;
}

export interface ValidatorWebhook extends WebhookCommon {
  eventType: 'validator_activity';
  metadata: ValidatorActivityMetadata;
}

export type Webhook = EvmWebhook | PrimaryWebhook | ValidatorWebhook;

export interface ErcToken {
  address: string;
  name: string;
  symbol: string;
  decimals: number;
  valueWithDecimals: string;
}

export interface ErcTransfer {
  transactionHash: string;
  type: 'ERC20' | 'ERC721' | 'ERC1155';
  from: string;
  to: string;
  value: string;
  tokenId?: string;
  blockTimestamp: number;
  logIndex: number;
  erc20Token?: ErcToken;
  erc721Token?: ErcToken;
  erc1155Token?: ErcToken;
}

export interface WebhookInternalTransaction {
  from: string;
  to: string;
  internalTxType: string;
  value: string;
  gasUsed: string;
  gasLimit: string;
  transactionHash: string;
}

/** The spec's `Transaction` (the delivered view of one EVM transaction): quantities as decimal strings. */
export interface WebhookTransaction {
  blockHash: string;
  blockNumber: string;
  from: string;
  gas: string;
  gasPrice: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  txHash: string;
  txStatus: string;
  input: string;
  nonce: string;
  to: string;
  transactionIndex: number;
  value: string;
  type: number;
  chainId: string;
  receiptCumulativeGasUsed: string;
  receiptGasUsed: string;
  receiptEffectiveGasPrice: string;
  receiptRoot: string;
  blockTimestamp: number;
  erc20Transfers: ErcTransfer[];
  erc721Transfers: ErcTransfer[];
  erc1155Transfers: ErcTransfer[];
  internalTransactions?: WebhookInternalTransaction[];
  networkToken?: { tokenName: string; tokenSymbol: string; tokenDecimals: number; valueWithDecimals: string };
}

export interface WebhookLog {
  address: string;
  topic0: string;
  topic1?: string;
  topic2?: string;
  topic3?: string;
  data: string;
  transactionIndex: number;
  logIndex: number;
  removed: boolean;
}

export interface TransactionEvent {
  transaction: WebhookTransaction;
  logs?: WebhookLog[];
}

/**
 * A `primary_network_address_activity` event. The spec gives no payload for it: this is the form the
 * gateway reads (src/shapes/webhook-deliveries.ts), the envelope being the spec's.
 */
export interface PrimaryActivityEvent {
  subEvent: (typeof PRIMARY_SUB_EVENTS)[number];
  network: 'mainnet' | 'fuji';
  blockchainId: string;
  /** The watched addresses it touched, with their chain prefix (`P-avax1...`). */
  addresses: string[];
  txHash: string;
  txType: string;
  /** Seconds. */
  blockTimestamp: number;
}

/** A `validator_activity` event (no payload in the spec either: the form the gateway reads). */
export interface ValidatorActivityEvent {
  subEvent: (typeof VALIDATOR_SUB_EVENTS)[number];
  network: 'mainnet' | 'fuji';
  nodeId: string;
  subnetId: string;
  txHash: string;
  /** Seconds. */
  blockTimestamp: number;
}

interface PayloadOf<T extends WebhookEventType, E> {
  webhookId: string;
  eventType: T;
  /** Identifies the delivery: the same on every retry of it. */
  messageId: string;
  event: E;
}

/** One delivery's body. */
export type WebhookPayload =
  | PayloadOf<'address_activity', TransactionEvent>
  | PayloadOf<'primary_network_address_activity', PrimaryActivityEvent>
  | PayloadOf<'validator_activity', ValidatorActivityEvent>;
