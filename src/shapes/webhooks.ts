/**
 * The Data API's webhooks of the calling key: one webhook (EVMAddressActivityResponse,
 * PrimaryNetworkAddressActivityResponse and ValidatorActivityResponse read as one tolerant
 * shape, told apart by `eventType`), the listing of a key's webhooks, the addresses one
 * watches, and the key's shared secret (SharedSecretsResponse).
 *
 * `createdAt` is a JSON number in the spec; it is read as a wide integer (unix time), so a
 * fractional or negative one fails only the field serving it.
 */
import * as v from 'valibot';
import { pageOf } from './common.ts';
import { perKit, type Kit } from './kit.ts';
// The three event types, shared with what their deliveries carry

/** WebhookStatusType (and the listing's `status` filter, WebhookStatus). */
/** The event types a webhook watches (and its deliveries carry). */
export const WEBHOOK_EVENT_TYPES = ['address_activity', 'primary_network_address_activity', 'validator_activity'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_STATUSES = ['active', 'inactive'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/** PrimaryNetworkType: the networks a primary-network or validator webhook watches. */
export const WEBHOOK_NETWORKS = ['mainnet', 'fuji'] as const;
/** PlatformAddressActivityKeyType. */
export const PRIMARY_WEBHOOK_KEY_TYPES = ['addresses'] as const;
/** ValidatorActivityKeyType. */
export const VALIDATOR_WEBHOOK_KEY_TYPES = ['nodeId', 'subnetId'] as const;
/** PrimaryNetworkAddressActivitySubEventType. */
export const PRIMARY_ADDRESS_SUB_EVENTS = ['balance_change', 'balance_threshold', 'reward_distribution'] as const;
/** ValidatorActivitySubEvents' `validatorActivitySubEvents` items. */
export const VALIDATOR_SUB_EVENTS = [
  'validator_stake', 'delegator_stake', 'reward_distribution', 'l1_validator_balance_increased', 'l1_validator_disabled',
  'l1_validator_removed', 'l1_validator_balance_threshold',
] as const;
/** CommonBalanceType: the balance a primary-network threshold filter compares. */
export const WEBHOOK_BALANCE_TYPES = [
  'unlockedUnstaked', 'unlockedStaked', 'lockedPlatform', 'lockedStakeable', 'lockedStaked', 'pendingStaked', 'unlocked', 'locked',
  'atomicMemoryUnlocked', 'atomicMemoryLocked',
] as const;

export const describeWebhooks = perKit((k: Kit) => {
  const strings = v.array(k.string);
  const BalanceThresholdFilter = v.object({ balanceType: k.openEnum(WEBHOOK_BALANCE_TYPES), balanceThreshold: k.decimal });

  /** The three metadata schemas in one: each kind sends its own members, every one optional here but `addresses`/`keys` by kind. */
  const WebhookMetadata = v.object({
    addresses: v.optional(strings),
    eventSignatures: v.optional(strings),
    keyType: v.optional(k.openEnum([...PRIMARY_WEBHOOK_KEY_TYPES, ...VALIDATOR_WEBHOOK_KEY_TYPES])),
    keys: v.optional(strings),
    subEvents: v.optional(v.object({
      addressActivitySubEvents: v.optional(v.array(k.openEnum(PRIMARY_ADDRESS_SUB_EVENTS))),
      validatorActivitySubEvents: v.optional(v.array(k.openEnum(VALIDATOR_SUB_EVENTS))),
    })),
    balanceThresholdFilter: v.optional(BalanceThresholdFilter),
    nodeIds: v.optional(strings),
    subnetIds: v.optional(strings),
    l1ValidatorFeeBalanceThreshold: v.optional(k.decimal),
  });

  /** A webhook of any kind; `eventType` says which (the schema layer picks the GraphQL type from it). */
  const Webhook = v.object({
    id: k.string,
    url: k.string,
    chainId: k.string,
    status: k.openEnum(WEBHOOK_STATUSES),
    createdAt: k.wideInteger,
    name: k.string,
    description: k.string,
    eventType: k.openEnum(WEBHOOK_EVENT_TYPES),
    metadata: WebhookMetadata,
    includeInternalTxs: v.optional(k.boolean),
    includeLogs: v.optional(k.boolean),
    // Not in the spec's responses (only its requests); kept when an answer carries it.
    network: v.optional(k.openEnum(WEBHOOK_NETWORKS)),
  });

  return {
    Webhook,
    ListWebhooksResponse: pageOf(k, { webhooks: v.array(Webhook) }),
    ListWebhookAddressesResponse: pageOf(k, { addresses: strings, totalAddresses: k.wideInteger }),
    WebhookSharedSecret: v.object({ secret: k.string }),
  };
});

type WebhookShapes = ReturnType<typeof describeWebhooks>;
export type Webhook = v.InferOutput<WebhookShapes['Webhook']>;
export type WebhookMetadata = Webhook['metadata'];
export type ListWebhooksResponse = v.InferOutput<WebhookShapes['ListWebhooksResponse']>;
export type ListWebhookAddressesResponse = v.InferOutput<WebhookShapes['ListWebhookAddressesResponse']>;
export type WebhookSharedSecret = v.InferOutput<WebhookShapes['WebhookSharedSecret']>;

/** Query parameters of listWebhooks. */
export interface ListWebhooksParams {
  pageToken?: string;
  pageSize?: number;
  status?: WebhookStatus;
}

/** Query parameters of getAddressesFromWebhook. */
export interface ListWebhookAddressesParams {
  pageToken?: string;
  pageSize?: number;
}

interface WebhookRequestCommon {
  url: string;
  name?: string;
  description?: string;
}

/** EVMAddressActivityRequest. */
export interface CreateAddressActivityWebhookRequest extends WebhookRequestCommon {
  eventType: 'address_activity';
  chainId: string;
  metadata: { addresses: string[]; eventSignatures?: string[] };
  includeInternalTxs?: boolean;
  includeLogs?: boolean;
}

/** PrimaryNetworkAddressActivityRequest. */
export interface CreatePrimaryNetworkActivityWebhookRequest extends WebhookRequestCommon {
  eventType: 'primary_network_address_activity';
  network: (typeof WEBHOOK_NETWORKS)[number];
  chainId: string;
  metadata: {
    keyType: 'addresses';
    keys: string[];
    subEvents: { addressActivitySubEvents: (typeof PRIMARY_ADDRESS_SUB_EVENTS)[number][] };
    balanceThresholdFilter?: { balanceType: (typeof WEBHOOK_BALANCE_TYPES)[number]; balanceThreshold: string };
    eventSignatures?: string[];
  };
}

/** ValidatorActivityRequest. */
export interface CreateValidatorActivityWebhookRequest extends WebhookRequestCommon {
  eventType: 'validator_activity';
  network: (typeof WEBHOOK_NETWORKS)[number];
  metadata: {
    keyType: (typeof VALIDATOR_WEBHOOK_KEY_TYPES)[number];
    keys: string[];
    subEvents: { validatorActivitySubEvents: (typeof VALIDATOR_SUB_EVENTS)[number][] };
    nodeIds?: string[];
    subnetIds?: string[];
    l1ValidatorFeeBalanceThreshold?: string;
    eventSignatures?: string[];
  };
}

/** createWebhook's body: one of the spec's three request kinds. */
export type CreateWebhookRequest = CreateAddressActivityWebhookRequest | CreatePrimaryNetworkActivityWebhookRequest | CreateValidatorActivityWebhookRequest;

/** UpdateWebhookRequest: only the members given change. */
export interface UpdateWebhookRequest {
  name?: string;
  description?: string;
  url?: string;
  status?: WebhookStatus;
  includeInternalTxs?: boolean;
  includeLogs?: boolean;
}

/** AddressesChangeRequest: the addresses added to, or removed from, an address-activity webhook. */
export interface WebhookAddressesChange {
  addresses: string[];
}
