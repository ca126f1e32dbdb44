// The devnet's webhooks, per caller key: what the ten webhook operations create, read, change and
// list, and the shared secret each key signs its deliveries with.
//
// A key sees only its own webhooks: another key's id is answered like an unknown one (404), and its
// listing leaves them out. Memory is bounded by refusals (400), never by forgetting: at most
// MAX_KEYS keys hold state, MAX_WEBHOOKS_PER_KEY webhooks each, MAX_ADDRESSES_PER_WEBHOOK watched
// addresses per webhook (the real API's limit depends on the plan; the devnet's is its largest) and
// MAX_TOTAL_ADDRESSES over every webhook, so the addresses of the whole store stay within about 100 MB.
import { randomBytes, randomUUID } from 'node:crypto';
import { EVM_ADDRESS, NODE_ID_PREFIX } from '../../lib/ids.ts';
import type { Dataset } from '../dataset/index.ts';
import type { EvmNetwork } from '../dataset/evm/index.ts';
import { bad, fail } from '../routes/http-error.ts';
import {
  BALANCE_TYPES, PRIMARY_SUB_EVENTS, VALIDATOR_SUB_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES,
  type AddressActivityMetadata, type EvmWebhook, type PrimaryNetworkAddressActivityMetadata, type ValidatorActivityMetadata,
  type PrimaryWebhook, type ValidatorWebhook, type Webhook, type WebhookStatus,
} from './types.ts';

export const MAX_KEYS = 100;
export const MAX_WEBHOOKS_PER_KEY = 1_000;
export const MAX_ADDRESSES_PER_WEBHOOK = 50_000;
export const MAX_TOTAL_ADDRESSES = 1_000_000;

/** The EVM chain an `address_activity` webhook watches, resolved once at creation. */
export interface WatchedChain {
  network: EvmNetwork;
  /** The chain's EVM chain id, whichever id the webhook was created with. */
  evmChainId: string;
}

/** A webhook with what the devnet keeps beside it. */
export interface StoredWebhook {
  readonly key: string;
  hook: Webhook;
  /** For `address_activity`: the watched addresses, lower-cased, to the spelling first given. */
  readonly watched?: Map<string, string>;
  readonly chain?: WatchedChain;
  /** For primary-network and validator webhooks: the network and the chain whose blocks are scanned (the P-chain for validators). */
  readonly primary?: WatchedPrimaryChain;
  /**
   * The last block already scanned for deliveries (of the EVM chain, or of the primary chain). A new (or
   * re-activated) webhook starts at the chain's latest block: it is told about what happens from then on.
   */
  cursor: number;
}

/** The primary-network chain a primary-network or validator webhook's deliveries come from. */
export interface WatchedPrimaryChain {
  network: EvmNetwork;
  /** `c`: a C-chain address webhook, which the devnet's live activity never touches. */
  chain: 'p' | 'x' | 'c';
}

interface KeyState {
  webhooks: Map<string, StoredWebhook>;
  secret?: string;
}

export interface WebhookStore {
  create(key: string, body: Record<string, unknown>): Webhook;
  /** The key's webhooks in creation order, optionally of one status. */
  list(key: string, status?: WebhookStatus): Webhook[];
  get(key: string, id: string): Webhook;
  update(key: string, id: string, body: Record<string, unknown>): Webhook;
  deactivate(key: string, id: string): Webhook;
  /** The watched addresses (EVM) or keys (primary network, validator) of a webhook, in the order added. */
  addresses(key: string, id: string): string[];
  addAddresses(key: string, id: string, body: Record<string, unknown>): Webhook;
  removeAddresses(key: string, id: string, body: Record<string, unknown>): Webhook;
  /** The key's shared secret, made on first use (by this call or by a delivery). */
  secret(key: string): string;
  /** A new shared secret for the key; the old one signs nothing more. */
  rotateSecret(key: string): string;
  /** Every active `address_activity` webhook, with its key. */
  activeEvmWebhooks(): StoredWebhook[];
  /** Every active `primary_network_address_activity` and `validator_activity` webhook, with its key. */
  activePrimaryWebhooks(): StoredWebhook[];
  /** Every stored webhook (the delivery counters list them). */
  all(): StoredWebhook[];
}

// With or without its chain prefix: the spec does not say which form `keys` takes (its listings show both).
const PRIMARY_ADDRESS = /^(?:[PX]-)?(avax|fuji)1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{38}$/;
const CB58_ID = /^[1-9A-HJ-NP-Za-km-z]{30,60}$/;
const NODE_ID = new RegExp(`^${NODE_ID_PREFIX}[1-9A-HJ-NP-Za-km-z]{20,40}$`);
const EVENT_SIGNATURE = /^0x[0-9a-fA-F]{64}$/;
const MAX_TEXT = 1_000;
const MAX_URL = 2_048;

export function createWebhookStore(dataset: Dataset): WebhookStore {
  const keys = new Map<string, KeyState>();
  let totalAddresses = 0;

  /** The key's state, made when the key first writes (so reads by unknown keys hold nothing). */
  function stateFor(key: string): KeyState {
    let state = keys.get(key);
    if (state) return state;
    if (keys.size >= MAX_KEYS) bad(`The devnet holds webhooks and secrets for at most ${MAX_KEYS} API keys`);
    state = { webhooks: new Map() };
    keys.set(key, state);
    return state;
  }

  function find(key: string, id: string): StoredWebhook {
    return keys.get(key)?.webhooks.get(id) ?? fail(404, `Webhook ${id.slice(0, 100)} not found`);
  }

  function resolveEvmChain(chainId: string): WatchedChain {
    for (const network of ['mainnet', 'fuji'] as const) {
      const evm = dataset.evm[network];
      if (!evm.hasChain(chainId)) continue;
      const chain = evm.chains().find((c) => c.chainId === chainId || c.platformChainId === chainId);
      if (chain) return { network, evmChainId: chain.chainId };
    }
    return bad(`chainId ${chainId.slice(0, 100)} is not an EVM chain of the devnet`);
  }

  function latestBlock(chain: WatchedChain): number {
    return dataset.evm[chain.network].latestBlock(chain.evmChainId) ?? 0;
  }

  function latestHeight(watching: WatchedPrimaryChain): number {
    return watching.chain === 'c' ? 0 : dataset.primary[watching.network].latestHeight(watching.chain);
  }

  /** Adds EVM addresses to a watched set, each once; refused whole when it would pass a limit. */
  function watch(watched: Map<string, string>, addresses: string[]): void {
    const fresh = new Map<string, string>();
    for (const a of addresses) {
      const lower = a.toLowerCase();
      if (!watched.has(lower) && !fresh.has(lower)) fresh.set(lower, a);
    }
    if (watched.size + fresh.size > MAX_ADDRESSES_PER_WEBHOOK) bad(`A webhook watches at most ${MAX_ADDRESSES_PER_WEBHOOK} addresses`);
    if (totalAddresses + fresh.size > MAX_TOTAL_ADDRESSES) bad(`The devnet watches at most ${MAX_TOTAL_ADDRESSES} addresses over every webhook`);
    for (const [lower, a] of fresh) watched.set(lower, a);
    totalAddresses += fresh.size;
  }

  function create(key: string, body: Record<string, unknown>): Webhook {
    const eventType = oneOf(body['eventType'], WEBHOOK_EVENT_TYPES, 'eventType');
    const url = webhookUrl(body['url']);
    const name = optionalText(body['name'], 'name') ?? '';
    const description = optionalText(body['description'], 'description') ?? '';
    const metadata = body['metadata'];
    if (!isRecord(metadata)) bad('metadata is required and must be an object');
    // Checked before any state is made, so a refused body leaves none behind.
    const state = keys.get(key);
    if (state && state.webhooks.size >= MAX_WEBHOOKS_PER_KEY) bad(`An API key has at most ${MAX_WEBHOOKS_PER_KEY} webhooks on the devnet`);
    const id = randomUUID();
    const common = { id, url, status: 'active' as const, createdAt: Math.floor(dataset.now() / 1000), name, description };

    if (eventType === 'address_activity') {
      const chain = resolveEvmChain(requiredString(body['chainId'], 'chainId'));
      const meta = evmMetadata(metadata);
      const watched = new Map<string, string>();
      const hook: EvmWebhook = {
        ...common, chainId: requiredString(body['chainId'], 'chainId'), eventType, metadata: { addresses: [] },
        includeInternalTxs: optionalBoolean(body['includeInternalTxs'], 'includeInternalTxs') ?? false,
        includeLogs: optionalBoolean(body['includeLogs'], 'includeLogs') ?? false,
      };
      if (meta.eventSignatures) hook.metadata.eventSignatures = meta.eventSignatures;
      const owner = stateFor(key);
      watch(watched, meta.addresses);
      const stored: StoredWebhook = { key, hook, watched, chain, cursor: latestBlock(chain) };
      owner.webhooks.set(id, stored);
      return view(stored);
    }
    const network = oneOf(body['network'], ['mainnet', 'fuji'] as const, 'network');
    const primary = dataset.primary[network];
    let hook: PrimaryWebhook | ValidatorWebhook;
    if (eventType === 'primary_network_address_activity') {
      const chainId = requiredString(body['chainId'], 'chainId');
      if (!Object.values(primary.chainIds).includes(chainId)) bad(`chainId ${chainId.slice(0, 100)} is not a primary-network chain of ${network}`);
      hook = { ...common, chainId, eventType, metadata: primaryMetadata(metadata, primary.hrp) };
    } else {
      // The spec's validator webhook has no chainId: the answer names the P-chain, where validation happens.
      hook = { ...common, chainId: primary.chainIds.p, eventType, metadata: validatorMetadata(metadata) };
    }
    const count = hook.metadata.keys.length;
    if (totalAddresses + count > MAX_TOTAL_ADDRESSES) bad(`The devnet watches at most ${MAX_TOTAL_ADDRESSES} addresses over every webhook`);
    const watching: WatchedPrimaryChain = { network, chain: hook.chainId === primary.chainIds.x ? 'x' : hook.chainId === primary.chainIds.c ? 'c' : 'p' };
    const stored: StoredWebhook = { key, hook, primary: watching, cursor: latestHeight(watching) };
    stateFor(key).webhooks.set(id, stored);
    totalAddresses += count;
    return view(stored);
  }

  /** The webhook as answered: EVM metadata lists the watched addresses as they stand. */
  function view(stored: StoredWebhook): Webhook {
    const { hook } = stored;
    if (hook.eventType !== 'address_activity' || !stored.watched) return structuredClone(hook);
    const metadata: AddressActivityMetadata = { ...hook.metadata, addresses: [...stored.watched.values()] };
    return { ...structuredClone(hook), metadata };
  }

  function changeAddresses(key: string, id: string, body: Record<string, unknown>, add: boolean): Webhook {
    const stored = find(key, id);
    if (stored.hook.eventType !== 'address_activity' || !stored.watched) bad('Only address_activity webhooks have addresses to add or remove');
    const addresses = evmAddresses(body['addresses'], 'addresses');
    if (add) watch(stored.watched, addresses);
    else {
      for (const a of addresses) {
        if (stored.watched.delete(a.toLowerCase())) totalAddresses -= 1;
      }
    }
    return view(stored);
  }

  return {
    create,
    list: (key, status) => [...(keys.get(key)?.webhooks.values() ?? [])].filter((s) => status === undefined || s.hook.status === status).map(view),
    get: (key, id) => view(find(key, id)),
    update(key, id, body) {
      const stored = find(key, id);
      const name = optionalText(body['name'], 'name');
      const description = optionalText(body['description'], 'description');
      const url = body['url'] === undefined ? undefined : webhookUrl(body['url']);
      const status = body['status'] === undefined ? undefined : oneOf(body['status'], WEBHOOK_STATUSES, 'status');
      const includeInternalTxs = optionalBoolean(body['includeInternalTxs'], 'includeInternalTxs');
      const includeLogs = optionalBoolean(body['includeLogs'], 'includeLogs');
      const { hook } = stored;
      if (name !== undefined) hook.name = name;
      if (description !== undefined) hook.description = description;
      if (url !== undefined) hook.url = url;
      if (status !== undefined) setStatus(stored, status);
      if (hook.eventType === 'address_activity') {
        if (includeInternalTxs !== undefined) hook.includeInternalTxs = includeInternalTxs;
        if (includeLogs !== undefined) hook.includeLogs = includeLogs;
      }
      return view(stored);
    },
    deactivate(key, id) {
      const stored = find(key, id);
      setStatus(stored, 'inactive');
      return view(stored);
    },
    addresses(key, id) {
      const stored = find(key, id);
      return stored.watched ? [...stored.watched.values()] : [...(stored.hook.metadata as { keys: string[] }).keys];
    },
    addAddresses: (key, id, body) => changeAddresses(key, id, body, true),
    removeAddresses: (key, id, body) => changeAddresses(key, id, body, false),
    secret(key) {
      const state = stateFor(key);
      state.secret ??= randomBytes(32).toString('hex');
      return state.secret;
    },
    rotateSecret(key) {
      const state = stateFor(key);
      state.secret = randomBytes(32).toString('hex');
      return state.secret;
    },
    activeEvmWebhooks: () => [...keys.values()].flatMap((s) => [...s.webhooks.values()].filter((w) => w.hook.status === 'active' && w.watched !== undefined)),
    activePrimaryWebhooks: () => [...keys.values()].flatMap((s) => [...s.webhooks.values()].filter((w) => w.hook.status === 'active' && w.primary !== undefined)),
    all: () => [...keys.values()].flatMap((s) => [...s.webhooks.values()]),
  };

  function setStatus(stored: StoredWebhook, status: WebhookStatus): void {
    // Activity while a webhook was inactive is not delivered when it is activated again.
    if (status === 'active' && stored.hook.status !== 'active' && stored.chain) stored.cursor = latestBlock(stored.chain);
    if (status === 'active' && stored.hook.status !== 'active' && stored.primary) stored.cursor = latestHeight(stored.primary);
    stored.hook.status = status;
  }
}

// ---------------------------------------------------------------------------- body checks

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneOf<T extends string>(value: unknown, values: readonly T[], name: string): T {
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) bad(`${name} must be one of ${values.join(', ')}`);
  return value as T;
}

function requiredString(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') bad(`${name} is required and must be a non-empty string`);
  return value;
}

function optionalText(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > MAX_TEXT) bad(`${name} must be a string of at most ${MAX_TEXT} characters`);
  return value;
}

function optionalBoolean(value: unknown, name: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') bad(`${name} must be a boolean`);
  return value;
}

function webhookUrl(value: unknown): string {
  const raw = requiredString(value, 'url');
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return bad('url must be an http or https URL');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || raw.length > MAX_URL) bad(`url must be an http or https URL of at most ${MAX_URL} characters`);
  return raw;
}

function stringList(value: unknown, name: string, check: (s: string) => boolean, rule: string, max = MAX_ADDRESSES_PER_WEBHOOK): string[] {
  if (!Array.isArray(value)) bad(`${name} is required and must be an array`);
  if (value.length > max) bad(`${name} holds at most ${max} entries`);
  for (const item of value) {
    if (typeof item !== 'string' || !check(item)) bad(`${name} must hold ${rule}: ${String(item).slice(0, 100)}`);
  }
  return value as string[];
}

function evmAddresses(value: unknown, name: string): string[] {
  return stringList(value, name, (s) => EVM_ADDRESS.test(s), 'EVM addresses (0x followed by 40 hex characters)');
}

function eventSignatures(metadata: Record<string, unknown>): string[] | undefined {
  const value = metadata['eventSignatures'];
  return value === undefined ? undefined : stringList(value, 'metadata.eventSignatures', (s) => EVENT_SIGNATURE.test(s), 'event signatures (0x followed by 64 hex characters)', 100);
}

function evmMetadata(metadata: Record<string, unknown>): AddressActivityMetadata {
  const addresses = evmAddresses(metadata['addresses'], 'metadata.addresses');
  const signatures = eventSignatures(metadata);
  return { addresses, ...(signatures ? { eventSignatures: signatures } : {}) };
}

function primaryMetadata(metadata: Record<string, unknown>, hrp: string): PrimaryNetworkAddressActivityMetadata {
  oneOf(metadata['keyType'], ['addresses'] as const, 'metadata.keyType');
  const keys = stringList(metadata['keys'], 'metadata.keys', (s) => PRIMARY_ADDRESS.exec(s)?.[1] === hrp, `P- or X-chain addresses of the network (${hrp}1..., optionally P-/X- prefixed)`);
  const subEvents = metadata['subEvents'];
  if (!isRecord(subEvents)) bad('metadata.subEvents is required and must be an object');
  const list = subEvents['addressActivitySubEvents'];
  const addressActivitySubEvents = stringList(list, 'metadata.subEvents.addressActivitySubEvents', (s) => (PRIMARY_SUB_EVENTS as readonly string[]).includes(s), `one of ${PRIMARY_SUB_EVENTS.join(', ')}`, 10) as PrimaryNetworkAddressActivityMetadata['subEvents']['addressActivitySubEvents'];
  const out: PrimaryNetworkAddressActivityMetadata = { keyType: 'addresses', keys: dedupe(keys), subEvents: { addressActivitySubEvents } };
  const signatures = eventSignatures(metadata);
  if (signatures) out.eventSignatures = signatures;
  const filter = metadata['balanceThresholdFilter'];
  if (filter !== undefined) {
    if (!isRecord(filter)) bad('metadata.balanceThresholdFilter must be an object');
    const balanceType = oneOf(filter['balanceType'], BALANCE_TYPES, 'metadata.balanceThresholdFilter.balanceType');
    const threshold = filter['balanceThreshold'];
    if (typeof threshold !== 'string' || !/^\d{1,30}$/.test(threshold)) bad('metadata.balanceThresholdFilter.balanceThreshold must be a string of decimal digits (nAVAX)');
    out.balanceThresholdFilter = { balanceType, balanceThreshold: threshold };
  }
  return out;
}

function validatorMetadata(metadata: Record<string, unknown>): ValidatorActivityMetadata {
  const keyType = oneOf(metadata['keyType'], ['nodeId', 'subnetId'] as const, 'metadata.keyType');
  const pattern = keyType === 'nodeId' ? NODE_ID : CB58_ID;
  const keys = stringList(metadata['keys'], 'metadata.keys', (s) => pattern.test(s), keyType === 'nodeId' ? 'node ids (NodeID-...)' : 'subnet ids');
  if (keys.length !== 1) bad('metadata.keys must hold exactly one key for validator_activity');
  const subEvents = metadata['subEvents'];
  if (!isRecord(subEvents)) bad('metadata.subEvents is required and must be an object');
  const validatorActivitySubEvents = stringList(subEvents['validatorActivitySubEvents'], 'metadata.subEvents.validatorActivitySubEvents', (s) => (VALIDATOR_SUB_EVENTS as readonly string[]).includes(s), `one of ${VALIDATOR_SUB_EVENTS.join(', ')}`, 10) as ValidatorActivityMetadata['subEvents']['validatorActivitySubEvents'];
  const out: ValidatorActivityMetadata = { keyType, keys, subEvents: { validatorActivitySubEvents } };
  const signatures = eventSignatures(metadata);
  if (signatures) out.eventSignatures = signatures;
  if (metadata['nodeIds'] !== undefined) out.nodeIds = stringList(metadata['nodeIds'], 'metadata.nodeIds', (s) => NODE_ID.test(s), 'node ids (NodeID-...)', 100);
  if (metadata['subnetIds'] !== undefined) out.subnetIds = stringList(metadata['subnetIds'], 'metadata.subnetIds', (s) => CB58_ID.test(s), 'subnet ids', 100);
  const threshold = metadata['l1ValidatorFeeBalanceThreshold'];
  if (threshold !== undefined) {
    if (typeof threshold !== 'string' || !/^\d{1,30}$/.test(threshold)) bad('metadata.l1ValidatorFeeBalanceThreshold must be a string of decimal digits (nAVAX)');
    out.l1ValidatorFeeBalanceThreshold = threshold;
  }
  return out;
}

const dedupe = (values: string[]): string[] => [...new Set(values)];
