import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import {
  changeWebhookAddresses, createWebhook, deactivateWebhook, rotateWebhookSharedSecret, updateWebhook, webhookAddressPages, webhookById,
  webhookPages, webhookSharedSecret, WEBHOOK_ADDRESSES_COST, WEBHOOK_CALL_COST, WEBHOOK_LOOKUP_COST, WEBHOOKS_COST, type AddressTotal,
} from '../loaders/webhooks.ts';
import {
  PAGES, PRIMARY_ADDRESS_SUB_EVENTS, PRIMARY_CHAIN_IDS, VALIDATOR_SUB_EVENTS, VALIDATOR_WEBHOOK_KEY_TYPES, WEBHOOK_BALANCE_TYPES,
  WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES, type CreateWebhookRequest, type UpdateWebhookRequest, type Webhook,
  type WebhookSharedSecret,
} from '../shapes/index.ts';
import { both, fromCheck, grammar, listOf, type Bound } from './bounds.ts';
import { ChainRef } from './chains.ts';
import { checkAfter, pageArgs, resolvePageConnection, type Connection } from './connection.ts';
import { openEnumField, openEnumInterfaceField, openEnumListField, upstreamEnum } from './enums.ts';
import { BOUNDS, checkCb58Id, checkNodeId, checkPrimaryAddress, checkSubnetId } from './input-checks.ts';
import { NetworkNameEnum } from './network.ts';

/**
 * The caller's Data API webhooks: queries, the three kinds of webhook as types of one
 * interface, and the mutations that create and change them. Everything here is made with
 * the caller's own key (or the gateway's for an admin; anyone else is refused before any
 * call, see `src/loaders/own-key.ts`), never cached, and answered `no-store`.
 */

// ---------------------------------------------------------------- arguments

/** Most addresses one call adds, removes or creates a webhook with. */
const MAX_ADDRESSES_PER_CALL = 1000;
/** Most event signatures, node ids or subnet ids a webhook filters on. */
const MAX_FILTERS = 100;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const WEBHOOK_ID = grammar('1 to 128 letters, digits, `-` or `_` (a webhook id as the Data API issues it).', 'a webhook id', (v) => /^[A-Za-z0-9_-]{1,128}$/.test(v));
const WEBHOOK_URL = grammar('An absolute http(s) URL of at most 2048 characters, without whitespace.', 'an http(s) URL of at most 2048 characters', isWebhookUrl);
const NAME = grammar('1 to 256 characters, no control characters.', 'a name of 1 to 256 characters', (v) => v.length >= 1 && v.length <= 256 && !CONTROL.test(v));
const DESCRIPTION = grammar('At most 1000 characters, no control characters.', 'a description of at most 1000 characters', (v) => v.length <= 1000 && !CONTROL.test(v));
const EVENT_SIGNATURE = grammar('A 0x-prefixed 32-byte hex event signature (topic 0).', 'an event signature: 0x followed by 64 hex digits', (v) => /^0x[0-9a-fA-F]{64}$/.test(v));

function isWebhookUrl(value: string): boolean {
  if (value.length > 2048 || /\s/.test(value) || CONTROL.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** A P- or X-chain address with its chain prefix: the prefix says which chain's activity is watched. */
function checkPrefixedPrimaryAddress(argument: string, value: unknown, index?: number): void {
  checkPrimaryAddress(argument, value, ['P', 'X'], index);
  if (typeof value === 'string' && !/^[PX]-/.test(value)) throw badInput(argument, `${JSON.stringify(value.slice(0, 48))}${index === undefined ? '' : ` (entry ${index})`} needs its chain prefix, P- or X-`);
}

const evmAddresses = listOf({ max: MAX_ADDRESSES_PER_CALL, nonEmpty: true, item: BOUNDS.evmAddress });
const primaryAddresses = listOf({
  max: MAX_ADDRESSES_PER_CALL,
  nonEmpty: true,
  item: fromCheck('A P- or X-chain address with its prefix (`P-avax1...`, `X-fuji1...`).', checkPrefixedPrimaryAddress),
});
const nonEmptyList: Bound = listOf({ max: 16, nonEmpty: true });

// ---------------------------------------------------------------- enums

const WebhookStatusEnum = upstreamEnum('WebhookStatus', 'Whether a webhook delivers events.', {
  ACTIVE: { value: WEBHOOK_STATUSES[0], description: 'It delivers events.' },
  INACTIVE: { value: WEBHOOK_STATUSES[1], description: 'It is deactivated and delivers nothing.' },
});

const WebhookEventTypeEnum = upstreamEnum('WebhookEventType', 'What a webhook watches.', {
  ADDRESS_ACTIVITY: { value: WEBHOOK_EVENT_TYPES[0], description: 'Transactions touching addresses on one EVM chain.' },
  PRIMARY_NETWORK_ADDRESS_ACTIVITY: { value: WEBHOOK_EVENT_TYPES[1], description: 'Balance changes, thresholds and rewards of P-/X-chain addresses.' },
  VALIDATOR_ACTIVITY: { value: WEBHOOK_EVENT_TYPES[2], description: 'Stakes, rewards and L1 validator events of one node or subnet.' },
});

const upper = (v: string): string => v.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
const valuesOf = <const V extends string>(values: readonly V[], describe: (v: V) => string) =>
  Object.fromEntries(values.map((v) => [upper(v), { value: v, description: describe(v) }])) as Record<string, { value: V; description: string }>;

export const PrimarySubEventEnum = upstreamEnum('PrimaryNetworkAddressSubEvent', 'What a primary-network address webhook reports.', valuesOf(PRIMARY_ADDRESS_SUB_EVENTS, (v) => ({
  balance_change: 'A balance of a watched address changed.',
  balance_threshold: 'A balance crossed the webhook\'s threshold (`balanceThresholdFilter`).',
  reward_distribution: 'A staking reward was paid to a watched address.',
})[v]));

export const ValidatorSubEventEnum = upstreamEnum('ValidatorActivitySubEvent', 'What a validator webhook reports.', valuesOf(VALIDATOR_SUB_EVENTS, (v) => ({
  validator_stake: 'A validator staked.',
  delegator_stake: 'A delegator staked to the validator.',
  reward_distribution: 'A staking reward was paid.',
  l1_validator_balance_increased: 'An L1 validator\'s fee balance was topped up.',
  l1_validator_disabled: 'An L1 validator was disabled (its fee balance ran out).',
  l1_validator_removed: 'An L1 validator was removed.',
  l1_validator_balance_threshold: 'An L1 validator\'s fee balance fell below `l1ValidatorFeeBalanceThreshold`.',
})[v]));

const ValidatorKeyTypeEnum = upstreamEnum('ValidatorWebhookKeyType', 'What a validator webhook\'s key is.', {
  NODE_ID: { value: VALIDATOR_WEBHOOK_KEY_TYPES[0], description: 'A node id (`NodeID-...`).' },
  SUBNET_ID: { value: VALIDATOR_WEBHOOK_KEY_TYPES[1], description: 'A subnet id (cb58).' },
});

const BalanceTypeEnum = upstreamEnum('WebhookBalanceType', 'Which balance of an address a threshold compares.', valuesOf(WEBHOOK_BALANCE_TYPES, (v) => `The \`${v}\` balance, nAVAX.`));

// ---------------------------------------------------------------- output

/**
 * The network a primary-network or validator webhook watches. The spec's answers do not carry it: as
 * sent when they do, else from its X- or C-chain id, else from its watched addresses (`avax1`/`fuji1`);
 * null when nothing tells (a validator webhook's chain is the P-chain, whose id both networks share).
 */
function networkOf(w: Webhook): 'mainnet' | 'fuji' | null {
  if (w.network === 'mainnet') return 'mainnet';
  if (w.network === 'fuji') return 'fuji';
  for (const network of ['mainnet', 'fuji'] as const) {
    const ids = PRIMARY_CHAIN_IDS[network];
    if (w.chainId === ids.x || w.chainId === ids.c) return network;
  }
  const key = w.eventType === 'primary_network_address_activity' ? w.metadata.keys?.[0] : undefined;
  const hrp = key?.slice(key.indexOf('-') + 1);
  return hrp?.startsWith('avax1') ? 'mainnet' : hrp?.startsWith('fuji1') ? 'fuji' : null;
}

interface AddressConnection extends Connection<string> {
  totalCount: number | null;
}

const WebhookAddressConnection = builder.connectionObject(
  { type: 'String', name: 'WebhookAddressConnection', description: 'A page of the addresses a webhook watches.' },
  { name: 'WebhookAddressEdge', description: 'A watched address and its cursor.' },
);

builder.objectFields(WebhookAddressConnection, (t) => ({
  totalCount: t.int({
    nullable: true,
    description: 'How many addresses the webhook watches, on all pages (`totalAddresses`).',
    resolve: (c) => ('totalCount' in c && typeof c.totalCount === 'number' && Number.isSafeInteger(c.totalCount) && c.totalCount <= 0x7fffffff ? c.totalCount : null),
  }),
}));

export const WebhookInterface = builder.interfaceRef<Webhook>('Webhook').implement({
  description:
    'A webhook of your Data API key: the Data API POSTs the events it watches to `url`, signed with your key\'s shared secret. Each kind is its own type: AddressActivityWebhook, PrimaryNetworkActivityWebhook, ValidatorActivityWebhook.',
  resolveType: (w) => webhookTypeOf(w),
  fields: (t) => ({
    id: t.exposeID('id', { nullable: false, description: 'The webhook\'s id, as the Data API issued it.' }),
    name: t.exposeString('name', { nullable: true, description: 'Its name.' }),
    description: t.exposeString('description', { nullable: true, description: 'Its description.' }),
    url: t.field({ type: 'URL', nullable: true, description: 'Where the Data API delivers its events.', resolve: (w) => w.url }),
    ...openEnumInterfaceField(t, 'status', WebhookStatusEnum, { description: 'Whether it delivers events.', value: (w) => w.status }),
    ...openEnumInterfaceField(t, 'eventType', WebhookEventTypeEnum, { description: 'What it watches (which type this is).', value: (w) => w.eventType }),
    createdAt: t.field({ type: 'UInt64', nullable: true, description: 'When it was created, unix time as the Data API gives it.', resolve: (w) => String(w.createdAt) }),
    addresses: t.field({
      type: WebhookAddressConnection,
      nullable: false,
      description: 'The addresses it watches (getAddressesFromWebhook). One call per webhook: the Data API lists one webhook\'s addresses at a time.',
      args: pageArgs(t.arg, PAGES.webhookAddresses),
      checkArgs: (args) => checkAfter(args, PAGES.webhookAddresses),
      upstreamCost: WEBHOOK_ADDRESSES_COST,
      resolve: async (w, args, ctx): Promise<AddressConnection> => {
        const total: AddressTotal = { total: undefined };
        const connection = await resolvePageConnection({ ctx, page: PAGES.webhookAddresses, args, parent: { webhook: w.id }, fetchPage: webhookAddressPages(ctx, w.id, total) });
        return { ...connection, totalCount: total.total ?? null };
      },
    }),
  }),
});

function webhookTypeOf(w: Webhook): string {
  if (w.eventType === 'primary_network_address_activity') return 'PrimaryNetworkActivityWebhook';
  if (w.eventType === 'validator_activity') return 'ValidatorActivityWebhook';
  // An event type added later reads as what it most resembles: it has a chain id like the EVM kind.
  return 'AddressActivityWebhook';
}

const variant = (name: string, description: string) => ({
  description,
  interfaces: [WebhookInterface],
  isTypeOf: (w: unknown) => typeof w === 'object' && w !== null && 'eventType' in w && 'metadata' in w && webhookTypeOf(w as Webhook) === name,
});

const NetworkField = (t: Parameters<Parameters<typeof builder.objectFields>[1]>[0]) =>
  t.field({
    type: NetworkNameEnum,
    nullable: true,
    description: 'The network it watches (null when the Data API does not say and its chain does not tell).',
    resolve: (w: Webhook) => networkOf(w),
  });

export const AddressActivityWebhookRef = builder.objectRef<Webhook>('AddressActivityWebhook').implement({
  ...variant('AddressActivityWebhook', 'A webhook of transactions touching its addresses on one EVM chain (`address_activity`).'),
  fields: (t) => ({
    chainId: t.exposeString('chainId', { nullable: true, description: 'The EVM chain id it watches.' }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain it watches.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (w, _args, ctx) => chainById(ctx).load(w.chainId) }),
    includeLogs: t.boolean({ nullable: true, description: 'Whether deliveries carry the transaction\'s logs.', resolve: (w) => w.includeLogs ?? null }),
    includeInternalTxs: t.boolean({ nullable: true, description: 'Whether deliveries carry internal transactions (traces; C-chain only).', resolve: (w) => w.includeInternalTxs ?? null }),
    eventSignatures: t.stringList({ nullable: true, description: 'Only logs with these event signatures (topic 0) are delivered; null: all.', resolve: (w) => w.metadata.eventSignatures ?? null }),
  }),
});

const BalanceThresholdRef = builder.objectRef<{ balanceType: string; balanceThreshold: string }>('WebhookBalanceThreshold').implement({
  description: 'A threshold on one balance of the watched addresses.',
  fields: (t) => ({
    ...openEnumField(t, 'balanceType', BalanceTypeEnum, { description: 'The balance compared.', value: (f) => f.balanceType }),
    balanceThreshold: t.field({ type: 'UInt256', nullable: true, description: 'The threshold, nAVAX.', resolve: (f) => f.balanceThreshold }),
  }),
});

export const PrimaryNetworkActivityWebhookRef = builder.objectRef<Webhook>('PrimaryNetworkActivityWebhook').implement({
  ...variant('PrimaryNetworkActivityWebhook', 'A webhook of P-/X-chain address activity (`primary_network_address_activity`): balance changes, thresholds and rewards.'),
  fields: (t) => ({
    network: NetworkField(t),
    blockchainId: t.exposeString('chainId', { nullable: true, description: 'The primary-network chain it watches (blockchain id).' }),
    ...openEnumListField(t, 'addressActivitySubEvents', PrimarySubEventEnum, { description: 'What it reports.', value: (w) => w.metadata.subEvents?.addressActivitySubEvents }),
    balanceThresholdFilter: t.field({ type: BalanceThresholdRef, nullable: true, description: 'The threshold of `BALANCE_THRESHOLD` events, when set.', resolve: (w) => w.metadata.balanceThresholdFilter ?? null }),
  }),
});

export const ValidatorActivityWebhookRef = builder.objectRef<Webhook>('ValidatorActivityWebhook').implement({
  ...variant('ValidatorActivityWebhook', 'A webhook of one validator\'s or one subnet\'s staking and L1 validator events (`validator_activity`).'),
  fields: (t) => ({
    network: NetworkField(t),
    ...openEnumField(t, 'keyType', ValidatorKeyTypeEnum, { description: 'What `keys` are.', value: (w) => w.metadata.keyType }),
    keys: t.stringList({ nullable: true, description: 'The node id or subnet id it watches.', resolve: (w) => w.metadata.keys ?? null }),
    ...openEnumListField(t, 'validatorActivitySubEvents', ValidatorSubEventEnum, { description: 'What it reports.', value: (w) => w.metadata.subEvents?.validatorActivitySubEvents }),
    nodeIds: t.stringList({ nullable: true, description: 'Only events of these nodes; null: all.', resolve: (w) => w.metadata.nodeIds ?? null }),
    subnetIds: t.stringList({ nullable: true, description: 'Only events of these subnets; null: all.', resolve: (w) => w.metadata.subnetIds ?? null }),
    l1ValidatorFeeBalanceThreshold: t.field({ type: 'UInt256', nullable: true, description: 'The fee balance, nAVAX, below which `L1_VALIDATOR_BALANCE_THRESHOLD` is reported.', resolve: (w) => w.metadata.l1ValidatorFeeBalanceThreshold ?? null }),
  }),
});

const WebhookConnection = builder.connectionObject(
  { type: WebhookInterface, name: 'WebhookConnection', description: 'A page of your key\'s webhooks.' },
  { name: 'WebhookEdge', description: 'A webhook and its cursor.' },
);

const SharedSecretRef = builder.objectRef<WebhookSharedSecret>('WebhookSharedSecret').implement({
  description: 'The secret the Data API signs your key\'s webhook deliveries with (`x-signature`: HMAC-SHA256 of the canonical JSON payload).',
  fields: (t) => ({ secret: t.exposeString('secret', { nullable: true, description: 'The secret. Keep it private: whoever holds it can forge deliveries.' }) }),
});

const NO_STORE = { cacheControl: 'no-store' } as const;
const SCOPE = 'Needs your own Data API key (the API key header), or an admin caller for the gateway\'s key; UNAUTHENTICATED for anyone else, before any call. Never cached.';

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookConnection,
    // A caller without a key of their own gets UNAUTHENTICATED on this field alone, the rest of the query still answered.
    nullable: true,
    description: `Your key's webhooks (listWebhooks). ${SCOPE}`,
    args: {
      ...pageArgs(t.arg, PAGES.webhooks),
      status: t.arg({ type: WebhookStatusEnum.ref, description: 'Only active or only inactive webhooks (all when omitted).', bound: WebhookStatusEnum.bound }),
    },
    checkArgs: (args) => checkAfter(args, PAGES.webhooks),
    extensions: NO_STORE,
    upstreamCost: WEBHOOKS_COST,
    resolve: (_root, args, ctx) => resolvePageConnection({ ctx, page: PAGES.webhooks, args, fetchPage: webhookPages(ctx, statusOf(args.status)) }),
  }),
  webhook: t.field({
    type: WebhookInterface,
    nullable: true,
    description: `One of your key's webhooks (getWebhook); null when your key has none with this id. ${SCOPE}`,
    args: { id: t.arg.string({ required: true, description: 'The webhook id.', bound: WEBHOOK_ID }) },
    extensions: NO_STORE,
    upstreamCost: WEBHOOK_LOOKUP_COST,
    resolve: (_root, args, ctx) => webhookById(ctx, args.id),
  }),
  webhookSharedSecret: t.field({
    type: SharedSecretRef,
    nullable: true,
    description: `Your key's webhook shared secret (getSharedSecret). ${SCOPE}`,
    extensions: NO_STORE,
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, _args, ctx) => webhookSharedSecret(ctx),
  }),
}));

const statusOf = (status: string | null | undefined): 'active' | 'inactive' | undefined => (status === 'active' || status === 'inactive' ? status : undefined);

// ---------------------------------------------------------------- mutations

const common = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  url: t.string({ required: true, description: 'Where to deliver events: an http(s) URL.', bound: WEBHOOK_URL }),
  name: t.string({ description: 'A name for it.', bound: NAME }),
  description: t.string({ description: 'A description.', bound: DESCRIPTION }),
});

const CreateAddressActivityWebhookInput = builder.inputType('CreateAddressActivityWebhookInput', {
  description: 'A webhook of the transactions touching some addresses on one EVM chain.',
  fields: (t) => ({
    ...common(t),
    chainId: t.string({ required: true, description: 'The EVM chain id (e.g. 43114).', bound: BOUNDS.chainId }),
    addresses: t.stringList({ required: true, description: 'The 0x addresses to watch.', bound: evmAddresses }),
    eventSignatures: t.stringList({ description: 'Only logs with these event signatures (topic 0).', bound: listOf({ max: MAX_FILTERS, item: EVENT_SIGNATURE }) }),
    includeLogs: t.boolean({ description: 'Deliver the transaction\'s logs too.' }),
    includeInternalTxs: t.boolean({ description: 'Deliver internal transactions too (C-chain only).' }),
  }),
});

const BalanceThresholdInput = builder.inputType('WebhookBalanceThresholdInput', {
  description: 'Report `BALANCE_THRESHOLD` when this balance crosses this amount.',
  fields: (t) => ({
    balanceType: t.field({ type: BalanceTypeEnum.ref, required: true, description: 'The balance compared.', bound: BalanceTypeEnum.bound }),
    balanceThreshold: t.string({ required: true, description: 'The threshold, nAVAX.', bound: BOUNDS.decimal }),
  }),
});

const CreatePrimaryNetworkActivityWebhookInput = builder.inputType('CreatePrimaryNetworkActivityWebhookInput', {
  description: 'A webhook of P-/X-chain address activity.',
  fields: (t) => ({
    ...common(t),
    network: t.field({ type: NetworkNameEnum, required: true, description: 'The network (TESTNET is FUJI).' }),
    blockchainId: t.string({ required: true, description: 'The P- or X-chain\'s blockchain id on that network.', bound: BOUNDS.cb58Id }),
    addresses: t.stringList({ required: true, description: 'The P-/X-chain addresses to watch, of that network.', bound: primaryAddresses }),
    subEvents: t.field({ type: [PrimarySubEventEnum.ref], required: true, description: 'What to report (at least one).', bound: both(nonEmptyList, PrimarySubEventEnum.bound) }),
    balanceThresholdFilter: t.field({ type: BalanceThresholdInput, description: 'The threshold of BALANCE_THRESHOLD.' }),
  }),
});

const CreateValidatorActivityWebhookInput = builder.inputType('CreateValidatorActivityWebhookInput', {
  description: 'A webhook of one node\'s or one subnet\'s staking and L1 validator events.',
  fields: (t) => ({
    ...common(t),
    network: t.field({ type: NetworkNameEnum, required: true, description: 'The network (TESTNET is FUJI).' }),
    keyType: t.field({ type: ValidatorKeyTypeEnum.ref, required: true, description: 'Whether `keys` holds a node id or a subnet id.', bound: ValidatorKeyTypeEnum.bound }),
    keys: t.stringList({ required: true, description: 'Exactly one key: a node id or a subnet id, as `keyType` says.', bound: listOf({ max: 1, nonEmpty: true }) }),
    subEvents: t.field({ type: [ValidatorSubEventEnum.ref], required: true, description: 'What to report (at least one).', bound: both(nonEmptyList, ValidatorSubEventEnum.bound) }),
    nodeIds: t.stringList({ description: 'Only events of these nodes.', bound: listOf({ max: MAX_FILTERS, item: BOUNDS.nodeId }) }),
    subnetIds: t.stringList({ description: 'Only events of these subnets.', bound: listOf({ max: MAX_FILTERS, item: fromCheck('A subnet id (cb58 of 32 bytes).', (a, v, i) => checkCb58Id(a, v, 'a subnet id (cb58 of 32 bytes)', i)) }) }),
    l1ValidatorFeeBalanceThreshold: t.string({ description: 'Report L1_VALIDATOR_BALANCE_THRESHOLD below this fee balance, nAVAX.', bound: BOUNDS.decimal }),
  }),
});

const UpdateWebhookInput = builder.inputType('UpdateWebhookInput', {
  description: 'What to change in a webhook; what is omitted stays as it is (at least one member).',
  fields: (t) => ({
    url: t.string({ description: 'Where to deliver events: an http(s) URL.', bound: WEBHOOK_URL }),
    name: t.string({ description: 'A new name.', bound: NAME }),
    description: t.string({ description: 'A new description.', bound: DESCRIPTION }),
    status: t.field({ type: WebhookStatusEnum.ref, description: 'ACTIVE to resume deliveries, INACTIVE to pause them.', bound: WebhookStatusEnum.bound }),
    includeLogs: t.boolean({ description: 'Deliver logs (address activity only).' }),
    includeInternalTxs: t.boolean({ description: 'Deliver internal transactions (address activity only).' }),
  }),
});

const networkName = (network: string): 'mainnet' | 'fuji' => (network === 'mainnet' ? 'mainnet' : 'fuji');

/** Present members only: the Data API reads an absent one as "unchanged" or "none". */
function present<T extends Record<string, unknown>>(value: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v != null)) as never;
}

type AddressInput = typeof CreateAddressActivityWebhookInput.$inferInput;
type PrimaryInput = typeof CreatePrimaryNetworkActivityWebhookInput.$inferInput;
type ValidatorInput = typeof CreateValidatorActivityWebhookInput.$inferInput;

function addressActivityBody(input: AddressInput): CreateWebhookRequest {
  return {
    eventType: 'address_activity',
    ...present({ name: input.name, description: input.description, includeLogs: input.includeLogs, includeInternalTxs: input.includeInternalTxs }),
    url: input.url,
    chainId: input.chainId,
    metadata: { addresses: input.addresses, ...present({ eventSignatures: input.eventSignatures }) },
  };
}

function checkPrimaryInput(input: PrimaryInput): void {
  const network = networkName(input.network);
  const ids = PRIMARY_CHAIN_IDS[network];
  if (input.blockchainId !== ids.p && input.blockchainId !== ids.x) throw badInput('input.blockchainId', `is not the P- or X-chain of ${network}`);
  const hrp = network === 'mainnet' ? 'avax1' : 'fuji1';
  const other = input.addresses.find((a) => !a.slice(a.indexOf('-') + 1).startsWith(hrp));
  if (other !== undefined) throw badInput('input.addresses', `${JSON.stringify(other.slice(0, 48))} is not a ${network} address (they start with ${hrp})`);
  if (input.subEvents.includes('balance_threshold') && !input.balanceThresholdFilter) throw badInput('input.balanceThresholdFilter', 'is required with BALANCE_THRESHOLD');
}

function primaryBody(input: PrimaryInput): CreateWebhookRequest {
  return {
    eventType: 'primary_network_address_activity',
    ...present({ name: input.name, description: input.description }),
    url: input.url,
    network: networkName(input.network),
    chainId: input.blockchainId,
    metadata: {
      keyType: 'addresses',
      keys: input.addresses,
      subEvents: { addressActivitySubEvents: input.subEvents as PrimarySubEvent[] },
      ...(input.balanceThresholdFilter ? { balanceThresholdFilter: { balanceType: input.balanceThresholdFilter.balanceType as BalanceType, balanceThreshold: input.balanceThresholdFilter.balanceThreshold } } : {}),
    },
  };
}
type PrimarySubEvent = (typeof PRIMARY_ADDRESS_SUB_EVENTS)[number];
type ValidatorSubEvent = (typeof VALIDATOR_SUB_EVENTS)[number];
type BalanceType = (typeof WEBHOOK_BALANCE_TYPES)[number];

function checkValidatorInput(input: ValidatorInput): void {
  const key = input.keys[0];
  if (input.keyType === 'nodeId') checkNodeId('input.keys', key, 0);
  else checkSubnetId('input.keys', key);
}

function validatorBody(input: ValidatorInput): CreateWebhookRequest {
  return {
    eventType: 'validator_activity',
    ...present({ name: input.name, description: input.description }),
    url: input.url,
    network: networkName(input.network),
    metadata: {
      keyType: input.keyType === 'subnetId' ? 'subnetId' : 'nodeId',
      keys: input.keys,
      subEvents: { validatorActivitySubEvents: input.subEvents as ValidatorSubEvent[] },
      ...present({ nodeIds: input.nodeIds, subnetIds: input.subnetIds, l1ValidatorFeeBalanceThreshold: input.l1ValidatorFeeBalanceThreshold }),
    },
  };
}

function updateBody(input: typeof UpdateWebhookInput.$inferInput): UpdateWebhookRequest {
  const body: UpdateWebhookRequest = present({ url: input.url, name: input.name, description: input.description, includeLogs: input.includeLogs, includeInternalTxs: input.includeInternalTxs });
  const status = statusOf(input.status);
  if (status) body.status = status;
  return body;
}

builder.mutationFields((t) => ({
  createAddressActivityWebhook: t.field({
    type: AddressActivityWebhookRef,
    nullable: false,
    description: `Creates a webhook of the transactions touching some addresses on one EVM chain (createWebhook). ${SCOPE}`,
    args: { input: t.arg({ type: CreateAddressActivityWebhookInput, required: true, description: 'The webhook.' }) },
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => createWebhook(ctx, addressActivityBody(args.input)),
  }),
  createPrimaryNetworkActivityWebhook: t.field({
    type: PrimaryNetworkActivityWebhookRef,
    nullable: false,
    description: `Creates a webhook of P-/X-chain address activity (createWebhook). ${SCOPE}`,
    args: { input: t.arg({ type: CreatePrimaryNetworkActivityWebhookInput, required: true, description: 'The webhook.' }) },
    checkArgs: (args) => checkPrimaryInput(args.input),
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => createWebhook(ctx, primaryBody(args.input)),
  }),
  createValidatorActivityWebhook: t.field({
    type: ValidatorActivityWebhookRef,
    nullable: false,
    description: `Creates a webhook of one node's or one subnet's validator events (createWebhook). ${SCOPE}`,
    args: { input: t.arg({ type: CreateValidatorActivityWebhookInput, required: true, description: 'The webhook.' }) },
    checkArgs: (args) => checkValidatorInput(args.input),
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => createWebhook(ctx, validatorBody(args.input)),
  }),
  updateWebhook: t.field({
    type: WebhookInterface,
    nullable: true,
    description: `Changes a webhook (updateWebhook); null when your key has none with this id. ${SCOPE}`,
    args: {
      id: t.arg.string({ required: true, description: 'The webhook id.', bound: WEBHOOK_ID }),
      input: t.arg({ type: UpdateWebhookInput, required: true, description: 'What to change.' }),
    },
    checkArgs: (args) => {
      if (Object.values(args.input).every((v) => v == null)) throw badInput('input', 'give at least one member to change');
    },
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => updateWebhook(ctx, args.id, updateBody(args.input)),
  }),
  deactivateWebhook: t.field({
    type: WebhookInterface,
    nullable: true,
    description: `Deactivates a webhook: it stops delivering (deactivateWebhook). Null when your key has none with this id. ${SCOPE}`,
    args: { id: t.arg.string({ required: true, description: 'The webhook id.', bound: WEBHOOK_ID }) },
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => deactivateWebhook(ctx, args.id),
  }),
  addWebhookAddresses: t.field({
    type: WebhookInterface,
    nullable: true,
    description: `Adds addresses to a webhook (addAddressesToWebhook). Null when your key has none with this id. ${SCOPE}`,
    args: {
      id: t.arg.string({ required: true, description: 'The webhook id.', bound: WEBHOOK_ID }),
      addresses: t.arg.stringList({ required: true, description: 'The 0x addresses to add (address-activity webhooks only).', bound: evmAddresses }),
    },
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => changeWebhookAddresses(ctx, args.id, 'add', args.addresses),
  }),
  removeWebhookAddresses: t.field({
    type: WebhookInterface,
    nullable: true,
    description: `Removes addresses from a webhook (removeAddressesFromWebhook). Null when your key has none with this id. ${SCOPE}`,
    args: {
      id: t.arg.string({ required: true, description: 'The webhook id.', bound: WEBHOOK_ID }),
      addresses: t.arg.stringList({ required: true, description: 'The 0x addresses to remove (address-activity webhooks only).', bound: evmAddresses }),
    },
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, args, ctx) => changeWebhookAddresses(ctx, args.id, 'remove', args.addresses),
  }),
  rotateWebhookSharedSecret: t.field({
    type: SharedSecretRef,
    nullable: false,
    description: `Makes a new shared secret for your key's webhooks (generateOrRotateSharedSecret); deliveries are signed with it from now on. ${SCOPE}`,
    upstreamCost: WEBHOOK_CALL_COST,
    resolve: (_root, _args, ctx) => rotateWebhookSharedSecret(ctx),
  }),
}));
