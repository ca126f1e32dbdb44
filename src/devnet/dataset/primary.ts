import { createHash } from 'node:crypto';
import { Rng } from '../rng.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID, VALIDATOR_SORT_BY } from '../../upstream/types.ts';
import type {
  AllowListConfig,
  AssetAmount,
  Block,
  Blockchain,
  CurrencyCode,
  DelegationStatus,
  Delegator,
  GenesisData,
  HistoricalReward,
  PendingReward,
  SortOrder,
  Subnet,
  Utxo,
  UtxoSortBy,
  ValidationStatus,
  Validator,
  ValidatorRewards,
  ValidatorSortBy,
  Vertex,
} from '../../upstream/types.ts';
import type { DevnetBlockchain, DevnetNetwork } from '../node-view.ts';

/**
 * The primary-network half of the devnet dataset: subnets and their blockchains,
 * validators, delegators, rewards, UTXOs, blocks and vertices of one network.
 *
 * Sizes scale with the validator count, so everything bulky is stored compactly
 * and turned into wire objects only when a page is served:
 * - validators are plain records (a few thousand to tens of thousands);
 * - delegators live in typed arrays, their ids are hashes of their index;
 * - rewards are codes pointing at validations/delegations;
 * - UTXOs are derived per address on request, blocks and vertices per height.
 * Sorted orders and per-key lists are built once, so a page costs little more
 * than the items it returns.
 */

export const AVAX_ASSET_IDS: Record<DevnetNetwork, string> = {
  mainnet: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
  fuji: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
};

export const VM_IDS = {
  platformvm: 'rWhpuQPF1kb72esV2momhMuTYGkEb1oL29pt2EBXWmSy4kxnT',
  avm: 'jvYyfQTxGMJLuGWa55kdP2p2zSUYsQ5Raupu4TW34ZAUBAbtq',
  evm: 'mgj786NP7uDwBCcq6YwThhaN8FLyybkCa4zBWTQbNgmK6k9A6',
  subnetevm: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
  xsvm: 'v3m4wPxaHpvGr8qfMeyK6PRW3idZrPHmYcMTt7oXdK47yurVH',
} as const;

/** The C-chain's EVM chain id per network. */
export const C_CHAIN_EVM_IDS: Record<DevnetNetwork, number> = { mainnet: 43114, fuji: 43113 };

/** Every primary chain produces one block per this many seconds. */
export const BLOCK_INTERVAL_SECONDS = 2;

export type PrimaryChain = 'p' | 'x' | 'c';
export const CHAIN_NAMES: Record<PrimaryChain, 'p-chain' | 'x-chain' | 'c-chain'> = {
  p: 'p-chain',
  x: 'x-chain',
  c: 'c-chain',
};

const DAY = 86_400;
const YEAR = 365 * DAY;
const NANO = 1_000_000_000;
const MAX_WEIGHT_AVAX = 3_000_000;
const REWARD_RATE = 0.075;
/** X-chain vertices stopped at Cortina; this many of them precede it. */
const VERTEX_COUNT = 600_000;

interface NetworkProfile {
  hrp: 'avax' | 'fuji';
  /** Network start (s). */
  genesis: number;
  /** Cortina (s): the X-chain moved from vertices to blocks. */
  cortina: number;
  minStakeAvax: number;
  minDelegationAvax: number;
  /** Log-normal parameters of active validators' delegator counts. */
  delegatorMu: number;
  delegatorSigma: number;
  /** Share of active primary validators with more than 300 delegators. */
  whaleShare: number;
  minWhales: number;
  subnetsPerValidator: number;
  minSubnets: number;
  maxSubnets: number;
}

const PROFILES: Record<DevnetNetwork, NetworkProfile> = {
  mainnet: {
    hrp: 'avax',
    genesis: 1_600_646_400,
    cortina: 1_682_434_800,
    minStakeAvax: 2000,
    minDelegationAvax: 25,
    delegatorMu: 2.0,
    delegatorSigma: 1.3,
    whaleShare: 1 / 200,
    minWhales: 3,
    subnetsPerValidator: 1 / 60,
    minSubnets: 6,
    maxSubnets: 60,
  },
  fuji: {
    hrp: 'fuji',
    genesis: 1_599_696_000,
    cortina: 1_680_793_200,
    minStakeAvax: 1,
    minDelegationAvax: 1,
    delegatorMu: 0.7,
    delegatorSigma: 1.1,
    whaleShare: 1 / 800,
    minWhales: 1,
    subnetsPerValidator: 1 / 40,
    minSubnets: 8,
    maxSubnets: 80,
  },
};

const CURRENCY_RATES: Record<CurrencyCode, number> = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.36, chf: 0.88, clp: 940, cny: 7.2,
  czk: 23.1, dkk: 6.88, gbp: 0.79, hkd: 7.81, huf: 361, jpy: 151, nzd: 1.66,
};

const CITIES = [
  { city: 'Frankfurt am Main', country: 'Germany', countryCode: 'DE', latitude: 50.1109, longitude: 8.6821 },
  { city: 'Ashburn', country: 'United States', countryCode: 'US', latitude: 39.0438, longitude: -77.4874 },
  { city: 'Amsterdam', country: 'The Netherlands', countryCode: 'NL', latitude: 52.3676, longitude: 4.9041 },
  { city: 'Singapore', country: 'Singapore', countryCode: 'SG', latitude: 1.3521, longitude: 103.8198 },
  { city: 'Tokyo', country: 'Japan', countryCode: 'JP', latitude: 35.6762, longitude: 139.6503 },
  { city: 'Helsinki', country: 'Finland', countryCode: 'FI', latitude: 60.1699, longitude: 24.9384 },
  { city: 'Toronto', country: 'Canada', countryCode: 'CA', latitude: 43.6532, longitude: -79.3832 },
  { city: 'Paris', country: 'France', countryCode: 'FR', latitude: 48.8566, longitude: 2.3522 },
  { city: 'London', country: 'United Kingdom', countryCode: 'GB', latitude: 51.5072, longitude: -0.1276 },
  { city: 'Seoul', country: 'South Korea', countryCode: 'KR', latitude: 37.5665, longitude: 126.978 },
  { city: 'Sydney', country: 'Australia', countryCode: 'AU', latitude: -33.8688, longitude: 151.2093 },
  { city: 'Falkenstein', country: 'Germany', countryCode: 'DE', latitude: 50.4779, longitude: 12.3713 },
];

const CHAIN_WORDS = [
  'Amber', 'Basalt', 'Cedar', 'Delta', 'Ember', 'Fjord', 'Garnet', 'Harbor', 'Indigo', 'Juniper', 'Kestrel',
  'Lumen', 'Meadow', 'Nimbus', 'Onyx', 'Pioneer', 'Quartz', 'Raven', 'Summit', 'Tundra', 'Umber', 'Vertex',
  'Willow', 'Xenon', 'Yarrow', 'Zephyr',
];

const X_ASSETS = [
  { name: 'Devnet Dollar', symbol: 'DUSD', denomination: 6 },
  { name: 'Granite Gold', symbol: 'GGLD', denomination: 8 },
  { name: 'Cortina Coin', symbol: 'CORT', denomination: 0 },
];

const EIP150_HASH = '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aab11e8a6d0cd6ee0';
const ZERO_HASH = `0x${'0'.repeat(64)}`;

// ------------------------------------------------------------------ ids and hashing

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function sha(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const RADIX = 58 ** 5;

/**
 * Base58 by repeated division, in limbs of five base-58 digits fed two bytes at a
 * time (products stay below 2^53): several times faster than digit-by-digit or BigInt.
 */
function base58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const limbs: number[] = [];
  let i = zeros;
  // An odd count starts with one byte so the rest go in pairs.
  if ((bytes.length - zeros) % 2 === 1) limbs.push(bytes[i++] as number);
  for (; i < bytes.length; i += 2) {
    let carry = (bytes[i] as number) * 256 + (bytes[i + 1] as number);
    for (let j = 0; j < limbs.length; j++) {
      carry += (limbs[j] as number) * 65536;
      const q = Math.floor(carry / RADIX);
      limbs[j] = carry - q * RADIX;
      carry = q;
    }
    while (carry > 0) {
      const q = Math.floor(carry / RADIX);
      limbs.push(carry - q * RADIX);
      carry = q;
    }
  }
  let out = '';
  for (let j = 0; j < limbs.length; j++) {
    let limb = limbs[j] as number;
    const last = j === limbs.length - 1;
    for (let k = 0; k < 5 && (!last || limb > 0); k++) {
      out = BASE58[limb % 58] + out;
      limb = Math.floor(limb / 58);
    }
  }
  return '1'.repeat(zeros) + out;
}

/** cb58 as the node encodes ids: base58(bytes ‖ last 4 bytes of sha256(bytes)). */
export function cb58(bytes: Uint8Array): string {
  const checksum = createHash('sha256').update(bytes).digest();
  const full = new Uint8Array(bytes.length + 4);
  full.set(bytes);
  full.set(checksum.subarray(28), bytes.length);
  return base58(full);
}

/** A 32-byte cb58 id derived from a label (tx hashes, blockchain ids, utxo ids). */
function id32(label: string): string {
  return cb58(sha(label));
}

function nodeIdOf(label: string): string {
  return `NodeID-${cb58(sha(label).subarray(0, 20))}`;
}

/** `bytes` bytes of deterministic hex (no prefix). */
function hexOf(label: string, bytes: number): string {
  let out = '';
  for (let k = 0; out.length < bytes * 2; k++) out += sha(`${label}:${k}`).toString('hex');
  return out.slice(0, bytes * 2);
}

/** A deterministic draw in [0, 1) from a label: for lazily derived data. */
function unit(label: string): number {
  return sha(label).readUInt32BE(0) / 4294967296;
}

function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

function uniform(rng: Rng, min: number, max: number): number {
  return max <= min ? min : rng.int(Math.floor(min), Math.floor(max));
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

function feeString(feeBps: number): string {
  return (feeBps / 100).toFixed(4);
}

function grossReward(amount: number, start: number, end: number): number {
  return Math.floor((amount * REWARD_RATE * Math.max(0, end - start)) / YEAR);
}

/** The deterministic AVAX price (per unit of `currency`) at a timestamp. */
export function avaxPrice(timestamp: number, currency: CurrencyCode): string {
  const usd = 24 + 14 * Math.sin(timestamp / (DAY * 61)) + 4 * Math.sin(timestamp / (DAY * 7.3));
  return (usd * CURRENCY_RATES[currency]).toFixed(2);
}

// ------------------------------------------------------------------ public types

export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** Inclusive bounds of a numeric filter; only present when the caller gave one of them. */
export type Range = readonly [number, number];

export interface ValidatorQuery {
  nodeIds?: string[];
  sortBy: ValidatorSortBy;
  sortOrder: SortOrder;
  validationStatus?: ValidationStatus;
  subnetId?: string;
  /** nAVAX. */
  delegationCapacity?: Range;
  /** Seconds. */
  timeRemaining?: Range;
  /** Percent. */
  feePercentage?: Range;
  /** Percent. */
  uptimePerformance?: Range;
}

export interface DelegatorQuery {
  nodeIds?: string[];
  /** Address bodies (`avax1...`), without chain prefix. */
  rewardAddresses?: string[];
  delegationStatus?: DelegationStatus;
  sortOrder: SortOrder;
}

export interface RewardQuery {
  /** Address bodies (`avax1...`), without chain prefix. */
  addresses?: string[];
  nodeIds?: string[];
  sortOrder: SortOrder;
}

export interface UtxoQuery {
  /** Address bodies (`avax1...`), without chain prefix. */
  addresses: string[];
  assetId?: string;
  minUtxoAmount?: number;
  includeSpent: boolean;
  sortBy: UtxoSortBy;
  sortOrder: SortOrder;
}

export interface BlockQuery {
  startTimestamp?: number;
  endTimestamp?: number;
}

/** Sample identifiers of the primary network with data behind them (merged into `/__devnet/fixtures`). */
export interface PrimaryFixtures {
  /** `P-` + an address with staked and unstaked, spent and unspent P-chain UTXOs, historical and pending rewards. */
  pChainAddress: string;
  /** `X-` + an address with X-chain UTXOs (AVAX and another asset, spent and unspent). */
  xChainAddress: string;
  /** The same address without a chain prefix (delegators `rewardAddresses`). */
  rewardAddress: string;
  /** An active primary-network validator with active and completed delegators and rewards of both kinds. */
  nodeId: string;
  /** An active validator with more than 300 delegators. */
  busyNodeId: string;
  completedNodeId: string;
  pendingNodeId: string;
  /** A removed (permissioned subnet) validator. */
  removedNodeId: string;
  /** An active validator of a non-primary subnet. */
  subnetValidatorNodeId: string;
  /** A subnet with an EVM blockchain and validators. */
  subnetId: string;
  l1SubnetId: string;
  /** The add-validator tx of `nodeId`. */
  pChainTxHash: string;
  /** An active delegation to `nodeId`. */
  delegationTxHash: string;
  avaxAssetId: string;
  /** A non-AVAX X-chain asset held by `xChainAddress`. */
  xAssetId: string;
}

/** A blockchain of a (non-primary) subnet, as the EVM dataset and the node need it. */
export interface SubnetChain {
  blockchainId: string;
  subnetId: string;
  vmId: string;
  name: string;
  /** Set for EVM chains. */
  evmChainId?: number;
}

export interface PrimaryDataInput {
  network: DevnetNetwork;
  seed: number;
  /** Validations on the network, primary and subnet together. */
  validators: number;
  now: () => number;
  /** EVM chain ids already taken; shared by both networks so `/v1/chains/{id}` stays unambiguous. */
  usedEvmChainIds: Set<number>;
}

// ------------------------------------------------------------------ internal records

interface ValidatorRecord {
  nodeId: string;
  txHash: string;
  subnetId: string;
  primary: boolean;
  status: ValidationStatus;
  start: number;
  end: number;
  /** nAVAX for primary validators, weight for subnet validators. */
  stake: number;
  /** Hundredths of a percent; -1 for subnet validators (their fee is null). */
  feeBps: number;
  rewardAddr: number;
  /** Delegator indices, in start order. */
  delegators: number[];
  delegated: number;
  /** -1 unless active. */
  uptime: number;
  /** nAVAX; -1 unless active on the primary network. */
  capacity: number;
  stakePercentage: number;
  validationReward: number;
  delegationReward: number;
  removeTimestamp: number;
  whale: boolean;
}

const STATUS_CODES: readonly DelegationStatus[] = ['completed', 'active', 'pending'];
const KIND_VALIDATOR = 0;
const KIND_DELEGATOR = 1;
const KIND_FEE = 2;

interface UtxoItem {
  utxo: Utxo;
  amount: number;
  timestamp: number;
  spent: boolean;
}

/** Indices to page through: an array of them, or the count `n` for all of `0..n-1`. */
type List = ArrayLike<number> | number;

function emptyPage<T>(): Page<T> {
  return { items: [], hasMore: false };
}

/**
 * Pages through `list` (in the given order), keeping items `accept` lets through:
 * skips `offset` of them, returns up to `limit`, and says whether one more exists.
 */
function pageOf<T>(
  list: List,
  order: SortOrder,
  accept: (index: number) => boolean,
  offset: number,
  limit: number,
  materialize: (index: number) => T,
): Page<T> {
  const items: T[] = [];
  let seen = 0;
  const n = typeof list === 'number' ? list : list.length;
  for (let k = 0; k < n; k++) {
    const at = order === 'asc' ? k : n - 1 - k;
    const index = typeof list === 'number' ? at : (list[at] as number);
    if (!accept(index)) continue;
    if (seen++ < offset) continue;
    if (items.length === limit) return { items, hasMore: true };
    items.push(materialize(index));
  }
  return { items, hasMore: false };
}

function sortedUnion(lists: readonly (readonly number[] | undefined)[]): Int32Array {
  let size = 0;
  for (const l of lists) size += l?.length ?? 0;
  const out = new Int32Array(size);
  let k = 0;
  for (const l of lists) if (l) for (const v of l) out[k++] = v;
  out.sort();
  // Remove duplicates (the same key given twice).
  let w = 0;
  for (let r = 0; r < out.length; r++) if (r === 0 || out[r] !== out[r - 1]) out[w++] = out[r] as number;
  return out.subarray(0, w);
}

/** A key -> list index; pre-filled so that sparse writes do not turn the array into a dictionary. */
function keyIndex(size: number): (number[] | undefined)[] {
  return new Array<number[] | undefined>(size).fill(undefined);
}

function pushTo(index: (number[] | undefined)[], key: number, value: number): void {
  const list = index[key];
  if (list) list.push(value);
  else index[key] = [value];
}

// ------------------------------------------------------------------ the data

export class PrimaryData {
  readonly network: DevnetNetwork;
  readonly hrp: 'avax' | 'fuji';
  readonly avaxAssetId: string;
  readonly chainIds: { readonly p: string; readonly x: string; readonly c: string };
  /** Oldest first; the primary network itself is the first subnet. */
  readonly subnets: readonly Subnet[];
  readonly subnetChains: readonly SubnetChain[];
  /** Seconds; the dataset's statuses (active, pending ...) are relative to this instant. */
  readonly generatedAt: number;

  private readonly profile: NetworkProfile;
  private readonly tag: string;
  private readonly now: () => number;
  private readonly addresses: string[];
  private readonly addrIndex = new Map<string, number>();
  private readonly hotAddresses: number;
  private readonly subnetById = new Map<string, Subnet>();
  private readonly validators: ValidatorRecord[] = [];
  private readonly validatorByNodeId = new Map<string, number>();
  private readonly nodeIdsSorted: string[];
  private readonly nodeIdsSortedIdx: Int32Array;
  private readonly activePrimaryNodeIds: string[];
  private readonly activeL1Validators: number;
  private validationsByAddr: (number[] | undefined)[] = [];

  // Delegators: struct of arrays, index order = start order.
  private dValidator = new Int32Array(0);
  private dAmount = new Float64Array(0);
  private dStart = new Uint32Array(0);
  private dEnd = new Uint32Array(0);
  private dStatus = new Uint8Array(0);
  private dAddr = new Int32Array(0);
  private readonly delegatorsByStatus = new Map<DelegationStatus, Int32Array>();
  private delegationsByAddr: (number[] | undefined)[] = [];

  // Rewards: codes (index * 4 + kind), time-ordered; the per-key lists hold positions.
  private historical: Int32Array = new Int32Array(0);
  private historicalByAddr: (number[] | undefined)[] = [];
  private historicalByValidator: (number[] | undefined)[] = [];
  private pending: Int32Array = new Int32Array(0);
  private pendingByAddr: (number[] | undefined)[] = [];
  private pendingByValidator: (number[] | undefined)[] = [];

  private readonly xAssets: { assetId: string; name: string; symbol: string; denomination: number }[];
  private readonly orderCache = new Map<string, Int32Array>();
  private readonly rankCache = new Map<string, Int32Array>();

  constructor(input: PrimaryDataInput) {
    this.network = input.network;
    this.profile = PROFILES[input.network];
    this.hrp = this.profile.hrp;
    this.avaxAssetId = AVAX_ASSET_IDS[input.network];
    this.chainIds = PRIMARY_CHAIN_IDS[input.network];
    this.now = input.now;
    this.tag = `${input.seed}:${input.network}`;
    this.generatedAt = Math.floor(input.now() / 1000);
    // Forks come from a root that never draws, so each concern's stream is stable
    // no matter how much the others draw.
    const root = new Rng(input.seed).fork(`primary:${input.network}`);
    const total = Math.max(1, Math.floor(input.validators));

    this.addresses = this.generateAddresses(root.fork('addresses'), Math.max(300, Math.round(total * 2.5)));
    this.hotAddresses = Math.max(20, Math.floor(this.addresses.length / 50));
    for (const name of ['validationsByAddr', 'delegationsByAddr', 'historicalByAddr', 'pendingByAddr'] as const) {
      this[name] = keyIndex(this.addresses.length);
    }
    this.xAssets = X_ASSETS.map((a, k) => ({ ...a, assetId: id32(`${this.tag}:asset:${k}`) }));

    const { subnets, chains } = this.generateSubnets(root.fork('subnets'), total, input.usedEvmChainIds);
    this.subnets = subnets;
    this.subnetChains = chains;
    for (const s of subnets) this.subnetById.set(s.subnetId, s);

    this.generateValidators(root.fork('validators'), total);
    this.historicalByValidator = keyIndex(this.validators.length);
    this.pendingByValidator = keyIndex(this.validators.length);
    this.generateDelegators(root.fork('delegators'));
    this.finishValidators();
    this.buildRewards();

    const sorted = this.validators.map((v, i) => [v.nodeId, i] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.nodeIdsSorted = sorted.map((e) => e[0]);
    this.nodeIdsSortedIdx = Int32Array.from(sorted, (e) => e[1]);
    this.activePrimaryNodeIds = this.validators.filter((v) => v.primary && v.status === 'active').map((v) => v.nodeId);
    // Sorted orders are built now so that no request pays for them.
    for (const sortBy of VALIDATOR_SORT_BY) {
      this.rank(sortBy, 'asc');
      this.rank(sortBy, 'desc');
    }
    this.activeL1Validators = this.validators.filter(
      (v) => !v.primary && v.status === 'active' && this.subnetById.get(v.subnetId)?.isL1,
    ).length;
  }

  // ---------------------------------------------------------------- generation

  private generateAddresses(rng: Rng, count: number): string[] {
    const out: string[] = [];
    const alphabet = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
    while (out.length < count) {
      // 38 bech32 characters, five bits each, drawn six per 32-bit number.
      let a = `${this.hrp}1`;
      for (let k = 0; k < 38; k += 6) {
        let bits = Math.floor(rng.next() * 4294967296);
        for (let c = 0; c < 6 && k + c < 38; c++, bits >>>= 5) a += alphabet[bits & 31];
      }
      if (this.addrIndex.has(a)) continue;
      this.addrIndex.set(a, out.length);
      out.push(a);
    }
    return out;
  }

  /** A reward address: a few "hot" addresses receive a large share, like exchanges and staking services. */
  private pickAddress(rng: Rng, hotShare: number): number {
    return rng.bool(hotShare) ? rng.int(0, this.hotAddresses - 1) : rng.int(0, this.addresses.length - 1);
  }

  private generateSubnets(rng: Rng, total: number, usedEvmChainIds: Set<number>): { subnets: Subnet[]; chains: SubnetChain[] } {
    const p = this.profile;
    const count = Math.min(p.maxSubnets, Math.max(p.minSubnets, Math.round(total * p.subnetsPerValidator)));
    const primaryChains = this.primaryBlockchains();
    const primary: Subnet = {
      createBlockTimestamp: p.genesis,
      createBlockIndex: '0',
      subnetId: PRIMARY_NETWORK_ID,
      ownerAddresses: [],
      threshold: 0,
      locktime: 0,
      subnetOwnershipInfo: { locktime: 0, threshold: 0, addresses: [] },
      isL1: false,
      blockchains: primaryChains,
    };
    const subnets: Subnet[] = [];
    const chains: SubnetChain[] = [];
    for (let s = 0; s < count; s++) {
      const createTs = uniform(rng, p.genesis + 30 * DAY, this.generatedAt - 30 * DAY);
      // The first subnet is an L1 and the second a plain subnet with chains, so both kinds always exist.
      const isL1 = s === 0 || (s !== 1 && rng.bool(0.35));
      const chainCount = isL1 ? rng.int(1, 2) : s === 1 ? rng.int(1, 3) : rng.int(0, 3);
      const subnetId = id32(`${this.tag}:subnet:${s}`);
      const owner = this.addresses[this.pickAddress(rng, 0.1)] as string;
      const threshold = 1;
      const blockchains: Blockchain[] = [];
      for (let c = 0; c < chainCount; c++) {
        const evm = c === 0 || rng.bool(0.85);
        const blockchainId = id32(`${this.tag}:chain:${s}:${c}`);
        const name = `${rng.pick(CHAIN_WORDS)}${chainCount > 1 ? ` ${c + 1}` : ''} ${evm ? 'EVM' : 'VM'}`;
        const ts = Math.min(this.generatedAt - DAY, createTs + rng.int(60, 30 * DAY));
        const chain: Blockchain = {
          createBlockTimestamp: ts,
          createBlockNumber: String(this.heightAt('p', ts)),
          blockchainId,
          vmId: evm ? VM_IDS.subnetevm : VM_IDS.xsvm,
          subnetId,
          blockchainName: name,
        };
        if (evm) {
          let evmChainId = rng.int(10_000, 999_999);
          while (usedEvmChainIds.has(evmChainId)) evmChainId = rng.int(10_000, 999_999);
          usedEvmChainIds.add(evmChainId);
          chain.evmChainId = evmChainId;
          chain.genesisData = this.evmGenesis(rng, evmChainId, ts);
          chains.push({ blockchainId, subnetId, vmId: chain.vmId, name, evmChainId });
        } else {
          // The seed describes genesisData as the EVM genesis object only; a non-EVM chain's
          // genesis is opaque VM bytes (a string in the public spec), so the devnet leaves it out.
          chains.push({ blockchainId, subnetId, vmId: chain.vmId, name });
        }
        blockchains.push(chain);
      }
      const subnet: Subnet = {
        createBlockTimestamp: createTs,
        createBlockIndex: String(this.heightAt('p', createTs)),
        subnetId,
        ownerAddresses: [owner],
        threshold,
        locktime: 0,
        subnetOwnershipInfo: { locktime: 0, threshold, addresses: [owner] },
        isL1,
        blockchains,
      };
      if (isL1) {
        const manager = blockchains[0] as Blockchain;
        subnet.l1ConversionTransactionHash = id32(`${this.tag}:l1conversion:${s}`);
        subnet.l1ValidatorManagerDetails = {
          blockchainId: manager.blockchainId,
          contractAddress: `0x${hexOf(`${this.tag}:l1manager:${s}`, 20)}`,
        };
      }
      subnets.push(subnet);
    }
    subnets.sort((a, b) => a.createBlockTimestamp - b.createBlockTimestamp);
    return { subnets: [primary, ...subnets], chains };
  }

  private primaryBlockchains(): Blockchain[] {
    const g = this.profile.genesis;
    const c: Blockchain = {
      createBlockTimestamp: g,
      createBlockNumber: '0',
      blockchainId: this.chainIds.c,
      vmId: VM_IDS.evm,
      subnetId: PRIMARY_NETWORK_ID,
      blockchainName: 'C-Chain',
      evmChainId: C_CHAIN_EVM_IDS[this.network],
    };
    c.genesisData = this.evmGenesis(new Rng(`${this.tag}:cgenesis`), C_CHAIN_EVM_IDS[this.network], g);
    return [
      {
        createBlockTimestamp: g,
        createBlockNumber: '0',
        blockchainId: this.chainIds.p,
        vmId: VM_IDS.platformvm,
        subnetId: PRIMARY_NETWORK_ID,
        blockchainName: 'P-Chain',
      },
      {
        createBlockTimestamp: g,
        createBlockNumber: '0',
        blockchainId: this.chainIds.x,
        vmId: VM_IDS.avm,
        subnetId: PRIMARY_NETWORK_ID,
        blockchainName: 'X-Chain',
      },
      c,
    ];
  }

  private evmGenesis(rng: Rng, chainId: number, timestamp: number): GenesisData {
    const admin = rng.evmAddress();
    const allowList = (enabled: boolean): AllowListConfig => ({
      blockTimestamp: enabled ? timestamp : 0,
      adminAddresses: enabled ? [admin] : [],
      managerAddresses: enabled && rng.bool(0.3) ? [rng.evmAddress()] : [],
      enabledAddresses: enabled && rng.bool(0.5) ? [rng.evmAddress()] : [],
    });
    const alloc: GenesisData['alloc'] = {};
    const allocCount = rng.int(1, 3);
    for (let k = 0; k < allocCount; k++) {
      const storage: Record<string, string> = {};
      if (k === 0 && rng.bool(0.5)) storage[`0x${'0'.repeat(63)}0`] = `0x${rng.hex(32)}`;
      alloc[k === 0 ? admin.slice(2) : rng.hex(20)] = {
        balance: `0x${rng.bigint(10n ** 18n, 10n ** 27n).toString(16)}`,
        code: k === 0 && rng.bool(0.3) ? `0x${rng.hex(24)}` : '0x',
        storage,
      };
    }
    const gasLimit = rng.pick([8_000_000, 12_000_000, 15_000_000, 20_000_000]);
    const withAirdrop = rng.bool(0.2);
    const cancun = rng.bool(0.4);
    return {
      airdropAmount: withAirdrop ? rng.int(1, 1000) * 1_000_000 : null,
      airdropHash: withAirdrop ? rng.evmHash() : ZERO_HASH,
      alloc,
      baseFeePerGas: rng.bool(0.3) ? 25_000_000_000 : null,
      blobGasUsed: cancun ? '0x0' : null,
      coinbase: `0x${'0'.repeat(40)}`,
      config: {
        berlinBlock: 0,
        byzantiumBlock: 0,
        chainId,
        constantinopleBlock: 0,
        eip150Block: 0,
        eip150Hash: EIP150_HASH,
        eip155Block: 0,
        eip158Block: 0,
        homesteadBlock: 0,
        istanbulBlock: 0,
        londonBlock: 0,
        muirGlacierBlock: 0,
        petersburgBlock: 0,
        subnetEVMTimestamp: 0,
        allowFeeRecipients: rng.bool(0.3),
        feeConfig: {
          baseFeeChangeDenominator: 36,
          blockGasCostStep: 200_000,
          gasLimit,
          maxBlockGasCost: 1_000_000,
          minBaseFee: rng.pick([1_000_000_000, 25_000_000_000]),
          minBlockGasCost: 0,
          targetBlockRate: 2,
          targetGas: gasLimit * 2,
        },
        warpConfig: { blockTimestamp: timestamp, quorumNumerator: 67, requirePrimaryNetworkSigners: rng.bool(0.2) },
        txAllowListConfig: allowList(rng.bool(0.3)),
        contractDeployerAllowListConfig: allowList(rng.bool(0.4)),
        contractNativeMinterConfig: allowList(rng.bool(0.3)),
        feeManagerConfig: allowList(rng.bool(0.3)),
        rewardManagerConfig: allowList(rng.bool(0.2)),
      },
      difficulty: '0x0',
      excessBlobGas: cancun ? '0x0' : null,
      extraData: '0x',
      gasLimit: `0x${gasLimit.toString(16)}`,
      gasUsed: '0x0',
      mixHash: ZERO_HASH,
      nonce: '0x0',
      number: '0x0',
      parentHash: ZERO_HASH,
      timestamp: `0x${timestamp.toString(16)}`,
    };
  }

  /** Start/end of a validation of the given status, relative to the generation instant. */
  private validationTimes(rng: Rng, status: ValidationStatus): [number, number] {
    const now = this.generatedAt;
    switch (status) {
      case 'active': {
        // At least a day left so the dataset stays plausible while the devnet runs.
        const remaining = rng.int(DAY, 360 * DAY);
        const elapsed = Math.max(rng.int(3600, 365 * DAY - remaining), 14 * DAY - remaining);
        return [now - elapsed, now + remaining];
      }
      case 'completed': {
        const end = now - rng.int(DAY, 1000 * DAY);
        return [end - rng.int(14 * DAY, 365 * DAY), end];
      }
      case 'pending': {
        const start = now + rng.int(3600, 14 * DAY);
        return [start, start + rng.int(14 * DAY, 365 * DAY)];
      }
      case 'removed': {
        const start = now - rng.int(30 * DAY, 400 * DAY);
        return [start, start + 365 * DAY];
      }
    }
  }

  private generateValidators(rng: Rng, total: number): void {
    const p = this.profile;
    const primaryCount = Math.max(1, Math.round(total * 0.8));
    const subnetCount = total - primaryCount;
    const records: ValidatorRecord[] = [];
    const make = (subnetId: string, primary: boolean, status: ValidationStatus, serial: number): ValidatorRecord => {
      const [start, end] = this.validationTimes(rng, status);
      let stake: number;
      let feeBps = -1;
      if (primary) {
        const avax = Math.min(MAX_WEIGHT_AVAX, p.minStakeAvax * Math.exp(Math.abs(normal(rng)) * 1.5));
        stake = Math.round(avax * 1000) * 1_000_000;
        feeBps = rng.bool(0.55) ? 200 : rng.bool(0.7) ? rng.int(200, 1000) : rng.int(1000, 10000);
      } else {
        stake = rng.int(20, 1_000_000);
      }
      return {
        nodeId: nodeIdOf(`${this.tag}:node:${serial}`),
        txHash: id32(`${this.tag}:validation:${serial}`),
        subnetId,
        primary,
        status,
        start,
        end,
        stake,
        feeBps,
        rewardAddr: this.pickAddress(rng, 0.2),
        delegators: [],
        delegated: 0,
        uptime: -1,
        capacity: -1,
        stakePercentage: 0,
        validationReward: 0,
        delegationReward: 0,
        removeTimestamp: 0,
        whale: false,
      };
    };
    const forcedPrimary: ValidationStatus[] = ['active', 'completed', 'pending'];
    for (let i = 0; i < primaryCount; i++) {
      const r = rng.next();
      const status = forcedPrimary[i] ?? (r < 0.6 ? 'active' : r < 0.95 ? 'completed' : 'pending');
      records.push(make(PRIMARY_NETWORK_ID, true, status, i));
    }
    const others = this.subnets.slice(1);
    const l1s = others.filter((s) => s.isL1);
    const plain = others.filter((s) => !s.isL1);
    // Subnets with chains attract most validators; a few subnets keep none.
    const weights = others.map((s) => (s.blockchains.length > 0 ? 1 + rng.next() * 4 : rng.next() * 0.3));
    const weightSum = weights.reduce((a, b) => a + b, 0);
    const pickSubnet = (): Subnet => {
      let x = rng.next() * weightSum;
      for (let k = 0; k < others.length; k++) {
        x -= weights[k] as number;
        if (x <= 0) return others[k] as Subnet;
      }
      return others[others.length - 1] as Subnet;
    };
    const forcedSubnet: ValidationStatus[] = ['active', 'completed', 'pending', 'removed'];
    for (let i = 0; i < subnetCount; i++) {
      let subnet = pickSubnet();
      let status: ValidationStatus | undefined = forcedSubnet[i];
      // Removal is how permissioned (L1) validator sets shrink; completion is for plain subnets.
      if (status === 'removed' && l1s[0]) subnet = l1s[0];
      if (status === 'completed' && plain[0]) subnet = plain[0];
      if (!status) {
        const r = rng.next();
        status = subnet.isL1 ? (r < 0.7 ? 'active' : r < 0.8 ? 'pending' : 'removed') : r < 0.6 ? 'active' : r < 0.9 ? 'completed' : 'pending';
      }
      const v = make(subnet.subnetId, false, status, primaryCount + i);
      if (status === 'removed') v.removeTimestamp = uniform(rng, v.start + 3600, this.generatedAt - 60);
      records.push(v);
    }
    // Index order = block order: validations enter the chain in start order.
    records.sort((a, b) => a.start - b.start || (a.txHash < b.txHash ? -1 : 1));
    records.forEach((v, i) => {
      this.validators.push(v);
      this.validatorByNodeId.set(v.nodeId, i);
    });
  }

  private generateDelegators(rng: Rng): void {
    const p = this.profile;
    const now = this.generatedAt;
    const active = this.validators.map((v, i) => [v, i] as const).filter(([v]) => v.primary && v.status === 'active');
    const whales = Math.min(active.length, Math.max(p.minWhales, Math.round(active.length * p.whaleShare)));
    // Spread whales over the set instead of taking the oldest validators.
    for (let k = 0; k < whales; k++) {
      const entry = active[Math.floor(((k + 0.5) * active.length) / whales)];
      if (!entry) continue;
      entry[0].whale = true;
      // Big staking services: large self-stake, low fee.
      entry[0].stake = Math.round(rng.int(200_000, 1_000_000) * NANO);
      entry[0].feeBps = rng.int(200, 500);
    }
    const vIdx: number[] = [];
    const amount: number[] = [];
    const start: number[] = [];
    const end: number[] = [];
    const status: number[] = [];
    const addr: number[] = [];
    const lognormal = (mu: number): number => Math.floor(Math.exp(mu + p.delegatorSigma * normal(rng)));
    this.validators.forEach((v, i) => {
      if (!v.primary) return;
      let count: number;
      if (v.status === 'active') count = v.whale ? rng.int(301, 1400) : Math.min(2000, lognormal(p.delegatorMu));
      else if (v.status === 'completed') count = Math.min(500, lognormal(p.delegatorMu - 0.8));
      else count = rng.int(0, 2);
      for (let k = 0; k < count; k++) {
        let st: DelegationStatus;
        let s: number;
        let e: number;
        if (v.status === 'active') {
          const r = rng.next();
          st = r < 0.2 && now - v.start > 2 * 3600 ? 'completed' : r > 0.95 ? 'pending' : 'active';
          if (st === 'completed') {
            s = uniform(rng, v.start, v.start + (now - v.start) * 0.7);
            e = uniform(rng, s + 3600, now - 60);
          } else if (st === 'active') {
            s = uniform(rng, v.start, now - 60);
            e = uniform(rng, now + 3600, v.end);
          } else {
            s = uniform(rng, now + 60, Math.min(now + 14 * DAY, v.end - 7200));
            e = uniform(rng, s + 3600, v.end);
          }
        } else {
          st = v.status === 'completed' ? 'completed' : 'pending';
          s = uniform(rng, v.start, v.end - 7200);
          e = uniform(rng, s + 3600, v.end);
        }
        const avax = Math.min(1_000_000, p.minDelegationAvax * Math.exp(Math.abs(normal(rng)) * 1.6));
        vIdx.push(i);
        amount.push(Math.round(avax * 1000) * 1_000_000);
        start.push(s);
        end.push(e);
        status.push(STATUS_CODES.indexOf(st));
        addr.push(this.pickAddress(rng, 0.35));
      }
    });
    // Index order = start order (ties by generation order), via packed numeric keys.
    const n = vIdx.length;
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) keys[k] = (start[k] as number) * 2 ** 21 + k;
    keys.sort();
    this.dValidator = new Int32Array(n);
    this.dAmount = new Float64Array(n);
    this.dStart = new Uint32Array(n);
    this.dEnd = new Uint32Array(n);
    this.dStatus = new Uint8Array(n);
    this.dAddr = new Int32Array(n);
    const byStatus: number[][] = [[], [], []];
    for (let j = 0; j < n; j++) {
      const k = (keys[j] as number) % 2 ** 21;
      this.dValidator[j] = vIdx[k] as number;
      this.dAmount[j] = amount[k] as number;
      this.dStart[j] = start[k] as number;
      this.dEnd[j] = end[k] as number;
      this.dStatus[j] = status[k] as number;
      this.dAddr[j] = addr[k] as number;
      (this.validators[vIdx[k] as number] as ValidatorRecord).delegators.push(j);
      (byStatus[status[k] as number] as number[]).push(j);
      pushTo(this.delegationsByAddr, addr[k] as number, j);
    }
    STATUS_CODES.forEach((s, k) => this.delegatorsByStatus.set(s, Int32Array.from(byStatus[k] as number[])));
  }

  private finishValidators(): void {
    const rng = new Rng(`${this.tag}:finish`);
    const activeStake = new Map<string, number>();
    for (const v of this.validators) {
      if (v.status === 'active') activeStake.set(v.subnetId, (activeStake.get(v.subnetId) ?? 0) + v.stake);
    }
    this.validators.forEach((v, i) => {
      if (v.primary) pushTo(this.validationsByAddr, v.rewardAddr, i);
      if (v.status === 'active') {
        v.uptime = round(Math.max(50, 100 - Math.abs(normal(rng)) * 2.5), 4);
        v.stakePercentage = round((v.stake / (activeStake.get(v.subnetId) ?? v.stake)) * 100, 6);
      }
      if (!v.primary) return;
      v.validationReward = grossReward(v.stake, v.start, v.end);
      let delegated = 0;
      let fees = 0;
      for (const d of v.delegators) {
        const st = STATUS_CODES[this.dStatus[d] as number];
        const fee = this.delegationFee(d);
        if (v.status === 'active') {
          if (st === 'active') delegated += this.dAmount[d] as number;
          if (st !== 'completed') fees += fee;
        } else {
          delegated += this.dAmount[d] as number;
          fees += fee;
        }
      }
      v.delegated = delegated;
      v.delegationReward = fees;
      if (v.status === 'active') {
        const maxWeight = Math.min(v.stake * 5, MAX_WEIGHT_AVAX * NANO);
        v.capacity = Math.max(0, maxWeight - v.stake - delegated);
      }
    });
  }

  private delegationGross(d: number): number {
    return grossReward(this.dAmount[d] as number, this.dStart[d] as number, this.dEnd[d] as number);
  }

  private delegationFee(d: number): number {
    const v = this.validators[this.dValidator[d] as number] as ValidatorRecord;
    return Math.floor((this.delegationGross(d) * v.feeBps) / 10_000);
  }

  private buildRewards(): void {
    // Historical: completed validations (VALIDATOR), completed delegations (DELEGATOR)
    // and the validator's fee on each completed delegation (VALIDATOR_FEE).
    const hist: number[] = [];
    const histEnd: number[] = [];
    const pend: number[] = [];
    const pendStart: number[] = [];
    this.validators.forEach((v, i) => {
      if (!v.primary) return;
      if (v.status === 'completed') {
        hist.push(i * 4 + KIND_VALIDATOR);
        histEnd.push(v.end);
      } else if (v.status === 'active') {
        pend.push(i * 4 + KIND_VALIDATOR);
        pendStart.push(v.start);
      }
    });
    for (let d = 0; d < this.dStatus.length; d++) {
      const st = STATUS_CODES[this.dStatus[d] as number];
      if (st === 'completed') {
        hist.push(d * 4 + KIND_DELEGATOR);
        histEnd.push(this.dEnd[d] as number);
        if (this.delegationFee(d) > 0) {
          hist.push(d * 4 + KIND_FEE);
          histEnd.push(this.dEnd[d] as number);
        }
      } else if (st === 'active') {
        pend.push(d * 4 + KIND_DELEGATOR);
        pendStart.push(this.dStart[d] as number);
      }
    }
    this.historical = this.timeOrdered(hist, histEnd);
    this.pending = this.timeOrdered(pend, pendStart);
    this.historical.forEach((code, pos) => {
      pushTo(this.historicalByAddr, this.rewardAddrOf(code), pos);
      pushTo(this.historicalByValidator, this.rewardValidatorOf(code), pos);
    });
    this.pending.forEach((code, pos) => {
      pushTo(this.pendingByAddr, this.rewardAddrOf(code), pos);
      pushTo(this.pendingByValidator, this.rewardValidatorOf(code), pos);
    });
  }

  private timeOrdered(codes: number[], times: number[]): Int32Array {
    const keys = new Float64Array(codes.length);
    for (let k = 0; k < codes.length; k++) keys[k] = (times[k] as number) * 2 ** 21 + k;
    keys.sort();
    return Int32Array.from(keys, (key) => codes[key % 2 ** 21] as number);
  }

  private rewardAddrOf(code: number): number {
    const idx = Math.floor(code / 4);
    const kind = code % 4;
    if (kind === KIND_VALIDATOR) return (this.validators[idx] as ValidatorRecord).rewardAddr;
    if (kind === KIND_DELEGATOR) return this.dAddr[idx] as number;
    return (this.validators[this.dValidator[idx] as number] as ValidatorRecord).rewardAddr;
  }

  private rewardValidatorOf(code: number): number {
    const idx = Math.floor(code / 4);
    return code % 4 === KIND_VALIDATOR ? idx : (this.dValidator[idx] as number);
  }

  // ---------------------------------------------------------------- wire objects

  private nowSec(): number {
    return Math.floor(this.now() / 1000);
  }

  private avax(amount: number): AssetAmount {
    return { assetId: this.avaxAssetId, name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', amount: String(amount) };
  }

  private validatorRewardTx(i: number): string {
    return id32(`${this.tag}:validator-reward-tx:${i}`);
  }

  private delegationTxHash(d: number): string {
    return id32(`${this.tag}:delegation:${d}`);
  }

  private delegationRewardTx(d: number): string {
    return id32(`${this.tag}:delegation-reward-tx:${d}`);
  }

  private toValidator(i: number): Validator {
    const v = this.validators[i] as ValidatorRecord;
    const addresses = [this.addresses[v.rewardAddr] as string];
    const rewards: ValidatorRewards = {
      validationRewardAmount: String(v.status === 'completed' || v.status === 'active' ? v.validationReward : 0),
      delegationRewardAmount: String(v.status === 'completed' || v.status === 'active' ? v.delegationReward : 0),
      rewardAddresses: addresses,
    };
    if (v.status === 'completed' && v.primary) rewards.rewardTxHash = this.validatorRewardTx(i);
    const out: Validator = {
      txHash: v.txHash,
      nodeId: v.nodeId,
      subnetId: v.subnetId,
      amountStaked: String(v.stake),
      // A subnet validation's fee is null: the field is left out.
      ...(v.feeBps >= 0 ? { delegationFee: feeString(v.feeBps) } : {}),
      amountDelegated: String(v.delegated),
      startTimestamp: v.start,
      endTimestamp: v.end,
      blsCredentials: {
        publicKey: `0x${hexOf(`${this.tag}:bls-pk:${v.nodeId}`, 48)}`,
        proofOfPossession: `0x${hexOf(`${this.tag}:bls-pop:${v.nodeId}`, 96)}`,
      },
      delegatorCount: v.delegators.length,
      rewards,
      validationStatus: v.status,
    };
    if (v.status === 'active') {
      const r = new Rng(`${this.tag}:active:${v.nodeId}`);
      out.stakePercentage = v.stakePercentage;
      out.uptimePerformance = v.uptime;
      out.potentialRewards = { ...rewards };
      out.validatorHealth = {
        reachabilityPercent: round(Math.min(100, 90 + r.next() * 10.5), 2),
        benchedPChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
        benchedXChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
        benchedCChainRequestsPercent: r.bool(0.9) ? 0 : round(r.next() * 5, 2),
      };
      out.geolocation = r.bool(0.9) ? { ...r.pick(CITIES) } : null;
      out.avalancheGoVersion = `avalanchego/1.13.${r.int(0, 5)}`;
      if (v.capacity >= 0) out.delegationCapacity = String(v.capacity);
    }
    if (v.status === 'removed') {
      out.removeTxHash = id32(`${this.tag}:remove:${v.nodeId}`);
      out.removeTimestamp = v.removeTimestamp;
    }
    return out;
  }

  private toDelegator(d: number): Delegator {
    const v = this.validators[this.dValidator[d] as number] as ValidatorRecord;
    const status = STATUS_CODES[this.dStatus[d] as number] as DelegationStatus;
    const gross = this.delegationGross(d);
    const net = gross - this.delegationFee(d);
    const out: Delegator = {
      txHash: this.delegationTxHash(d),
      nodeId: v.nodeId,
      rewardAddresses: [this.addresses[this.dAddr[d] as number] as string],
      amountDelegated: String(this.dAmount[d]),
      delegationFee: feeString(v.feeBps),
      grossReward: String(gross),
      netReward: String(net),
      startTimestamp: this.dStart[d] as number,
      endTimestamp: this.dEnd[d] as number,
      delegationStatus: status,
    };
    if (status !== 'completed') {
      out.estimatedGrossReward = out.grossReward;
      out.estimatedNetReward = out.netReward;
    }
    return out;
  }

  private toHistoricalReward(code: number, currency: CurrencyCode): HistoricalReward {
    const idx = Math.floor(code / 4);
    const kind = code % 4;
    let base: Omit<HistoricalReward, 'utxoId' | 'outputIndex' | 'reward' | 'rewardTxHash'>;
    let amount: number;
    let rewardTxHash: string;
    if (kind === KIND_VALIDATOR) {
      const v = this.validators[idx] as ValidatorRecord;
      base = {
        addresses: [this.addresses[v.rewardAddr] as string],
        txHash: v.txHash,
        amountStaked: String(v.stake),
        nodeId: v.nodeId,
        startTimestamp: v.start,
        endTimestamp: v.end,
        rewardType: 'VALIDATOR',
      };
      amount = v.validationReward;
      rewardTxHash = this.validatorRewardTx(idx);
    } else {
      const v = this.validators[this.dValidator[idx] as number] as ValidatorRecord;
      base = {
        addresses: [this.addresses[kind === KIND_DELEGATOR ? (this.dAddr[idx] as number) : v.rewardAddr] as string],
        txHash: this.delegationTxHash(idx),
        amountStaked: String(this.dAmount[idx]),
        nodeId: v.nodeId,
        startTimestamp: this.dStart[idx] as number,
        endTimestamp: this.dEnd[idx] as number,
        rewardType: kind === KIND_DELEGATOR ? 'DELEGATOR' : 'VALIDATOR_FEE',
      };
      const fee = this.delegationFee(idx);
      amount = kind === KIND_DELEGATOR ? this.delegationGross(idx) - fee : fee;
      // One RewardValidatorTx pays the delegator and the validator's fee.
      rewardTxHash = this.delegationRewardTx(idx);
    }
    return {
      ...base,
      utxoId: this.rewardUtxoId(code),
      outputIndex: kind === KIND_DELEGATOR ? 1 : 0,
      reward: { ...this.avax(amount), historicalPrice: { currencyCode: currency, value: avaxPrice(base.endTimestamp, currency) } },
      rewardTxHash,
    };
  }

  private rewardUtxoId(code: number): string {
    return id32(`${this.tag}:reward-utxo:${code}`);
  }

  private toPendingReward(code: number, nowSec: number): PendingReward {
    const idx = Math.floor(code / 4);
    const kind = code % 4;
    let out: Omit<PendingReward, 'progress' | 'estimatedReward'>;
    let amount: number;
    if (kind === KIND_VALIDATOR) {
      const v = this.validators[idx] as ValidatorRecord;
      out = {
        addresses: [this.addresses[v.rewardAddr] as string],
        txHash: v.txHash,
        amountStaked: String(v.stake),
        nodeId: v.nodeId,
        startTimestamp: v.start,
        endTimestamp: v.end,
        rewardType: 'VALIDATOR',
      };
      amount = v.validationReward;
    } else {
      const v = this.validators[this.dValidator[idx] as number] as ValidatorRecord;
      out = {
        addresses: [this.addresses[this.dAddr[idx] as number] as string],
        txHash: this.delegationTxHash(idx),
        amountStaked: String(this.dAmount[idx]),
        nodeId: v.nodeId,
        startTimestamp: this.dStart[idx] as number,
        endTimestamp: this.dEnd[idx] as number,
        rewardType: 'DELEGATOR',
      };
      amount = this.delegationGross(idx) - this.delegationFee(idx);
    }
    const span = Math.max(1, out.endTimestamp - out.startTimestamp);
    const progress = round(Math.min(100, Math.max(0, ((nowSec - out.startTimestamp) / span) * 100)), 2);
    return { ...out, progress, estimatedReward: this.avax(amount) };
  }

  // ---------------------------------------------------------------- subnets

  listSubnets(order: SortOrder, offset: number, limit: number): Page<Subnet> {
    return pageOf(this.subnets.length, order, () => true, offset, limit, (i) => this.subnets[i] as Subnet);
  }

  subnet(subnetId: string): Subnet | undefined {
    return this.subnetById.get(subnetId);
  }

  // ---------------------------------------------------------------- validators

  get validatorCount(): number {
    return this.validators.length;
  }

  /** The wire object of the validation with this node id (each node id validates once in the dataset). */
  validator(nodeId: string): Validator | undefined {
    const i = this.validatorByNodeId.get(nodeId);
    return i === undefined ? undefined : this.toValidator(i);
  }

  /** Tx hashes of every validation (add-validator txs), in block order; cheap. */
  validationTxHashes(): string[] {
    return this.validators.map((v) => v.txHash);
  }

  /** Every validation as wire objects, in block order (for tests and fixtures; costly at large sizes). */
  allValidators(): Validator[] {
    return this.validators.map((_, i) => this.toValidator(i));
  }

  private sortKey(sortBy: ValidatorSortBy, v: ValidatorRecord, i: number): number | undefined {
    switch (sortBy) {
      case 'blockIndex':
        return i;
      case 'timeRemaining':
        return v.end;
      case 'delegationCapacity':
        return v.capacity >= 0 ? v.capacity : undefined;
      case 'delegationFee':
        return v.feeBps >= 0 ? v.feeBps : undefined;
      case 'uptimePerformance':
        return v.uptime >= 0 ? v.uptime : undefined;
    }
  }

  /**
   * All validators in the order of `sortBy`. Validators without that value
   * (capacity and uptime exist only for active ones) come last in both directions,
   * so the list is (present, ascending or descending) + (missing, in block order
   * or reversed).
   */
  private fullOrder(sortBy: ValidatorSortBy, order: SortOrder): Int32Array {
    const key = `${sortBy}|${order}`;
    const cached = this.orderCache.get(key);
    if (cached) return cached;
    const present: number[] = [];
    const keys = new Float64Array(this.validators.length);
    const missing: number[] = [];
    this.validators.forEach((v, i) => {
      const k = this.sortKey(sortBy, v, i);
      if (k === undefined) missing.push(i);
      else {
        present.push(i);
        keys[i] = k;
      }
    });
    present.sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
    const asc = Int32Array.from([...present, ...missing]);
    const desc = Int32Array.from([...present.reverse(), ...missing.reverse()]);
    this.orderCache.set(`${sortBy}|asc`, asc);
    this.orderCache.set(`${sortBy}|desc`, desc);
    return order === 'asc' ? asc : desc;
  }

  /** `fullOrder` restricted to a subnet and/or status, memoised (only known subnets reach here). */
  private filteredOrder(sortBy: ValidatorSortBy, order: SortOrder, subnetId?: string, status?: ValidationStatus): Int32Array {
    const full = this.fullOrder(sortBy, order);
    if (subnetId === undefined && status === undefined) return full;
    const key = `${sortBy}|${order}|${subnetId ?? '*'}|${status ?? '*'}`;
    const cached = this.orderCache.get(key);
    if (cached) return cached;
    const out = full.filter((i) => {
      const v = this.validators[i] as ValidatorRecord;
      return (subnetId === undefined || v.subnetId === subnetId) && (status === undefined || v.status === status);
    });
    this.orderCache.set(key, out);
    return out;
  }

  private rank(sortBy: ValidatorSortBy, order: SortOrder): Int32Array {
    const key = `${sortBy}|${order}`;
    const cached = this.rankCache.get(key);
    if (cached) return cached;
    const full = this.fullOrder(sortBy, order);
    const rank = new Int32Array(full.length);
    full.forEach((i, pos) => {
      rank[i] = pos;
    });
    this.rankCache.set(key, rank);
    return rank;
  }

  /**
   * Validators whose node id contains any of `needles`. A needle that starts with
   * `NodeID-` can only occur at the start of a node id (`-` is not base58), so it is
   * a prefix search on the sorted ids; other needles scan the ids.
   */
  private matchNodeIds(needles: readonly string[]): number[] {
    const found = new Set<number>();
    for (const needle of needles) {
      if (needle.startsWith('NodeID-')) {
        let lo = 0;
        let hi = this.nodeIdsSorted.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if ((this.nodeIdsSorted[mid] as string) < needle) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < this.nodeIdsSorted.length && (this.nodeIdsSorted[k] as string).startsWith(needle); k++) {
          found.add(this.nodeIdsSortedIdx[k] as number);
        }
      } else {
        this.validators.forEach((v, i) => {
          if (v.nodeId.includes(needle)) found.add(i);
        });
      }
    }
    return [...found];
  }

  /**
   * Filters: fee percentage applies to primary-network validations only (a subnet
   * validation's fee is null, so any fee filter excludes it, as the seed says).
   * Uptime and delegation capacity exist only for active validations: when such a
   * filter is given, validations without the value do not match. The public spec's
   * documented defaults (uptime 90-100, fee 2-100) are NOT applied when a parameter
   * is absent, since that would hide every non-active validator from a plain listing.
   * Time remaining is `max(0, end - now)` for every status, so a completed
   * validation has 0 left.
   */
  listValidators(q: ValidatorQuery, offset: number, limit: number): Page<Validator> {
    if (q.subnetId !== undefined && !this.subnetById.has(q.subnetId)) return emptyPage();
    const now = this.nowSec();
    let list: List;
    if (q.nodeIds) {
      // Few matches, usually: order them by their position in the precomputed order.
      const rank = this.rank(q.sortBy, q.sortOrder);
      list = Int32Array.from(this.matchNodeIds(q.nodeIds)).sort((a, b) => (rank[a] as number) - (rank[b] as number));
    } else {
      list = this.filteredOrder(q.sortBy, q.sortOrder, q.subnetId, q.validationStatus);
    }
    const accept = (i: number): boolean => {
      const v = this.validators[i] as ValidatorRecord;
      if (q.subnetId !== undefined && v.subnetId !== q.subnetId) return false;
      if (q.validationStatus !== undefined && v.status !== q.validationStatus) return false;
      if (q.feePercentage && (v.feeBps < 0 || v.feeBps / 100 < q.feePercentage[0] || v.feeBps / 100 > q.feePercentage[1])) return false;
      if (q.uptimePerformance && (v.uptime < 0 || v.uptime < q.uptimePerformance[0] || v.uptime > q.uptimePerformance[1])) return false;
      if (q.delegationCapacity && (v.capacity < 0 || v.capacity < q.delegationCapacity[0] || v.capacity > q.delegationCapacity[1])) return false;
      if (q.timeRemaining) {
        const left = Math.max(0, v.end - now);
        if (left < q.timeRemaining[0] || left > q.timeRemaining[1]) return false;
      }
      return true;
    };
    // Lists are already in the requested order, so walk them forwards.
    return pageOf(list, 'asc', accept, offset, limit, (i) => this.toValidator(i));
  }

  // ---------------------------------------------------------------- delegators

  get delegatorCount(): number {
    return this.dStatus.length;
  }

  listDelegators(q: DelegatorQuery, offset: number, limit: number): Page<Delegator> {
    let list: List;
    let addrFilter: Set<number> | undefined;
    const addrIdx = q.rewardAddresses?.map((a) => this.addrIndex.get(a)).filter((a): a is number => a !== undefined);
    if (q.nodeIds) {
      const validators = this.matchNodeIds(q.nodeIds);
      list = sortedUnion(validators.map((i) => (this.validators[i] as ValidatorRecord).delegators));
      if (addrIdx) addrFilter = new Set(addrIdx);
    } else if (addrIdx) {
      list = sortedUnion(addrIdx.map((a) => this.delegationsByAddr[a]));
    } else if (q.delegationStatus) {
      list = this.delegatorsByStatus.get(q.delegationStatus) ?? new Int32Array(0);
    } else {
      list = this.dStatus.length;
    }
    const wanted = q.delegationStatus === undefined ? -1 : STATUS_CODES.indexOf(q.delegationStatus);
    const accept = (d: number): boolean =>
      (wanted < 0 || this.dStatus[d] === wanted) && (!addrFilter || addrFilter.has(this.dAddr[d] as number));
    return pageOf(list, q.sortOrder, accept, offset, limit, (d) => this.toDelegator(d));
  }

  // ---------------------------------------------------------------- rewards

  private rewardPositions(
    q: RewardQuery,
    byAddr: (number[] | undefined)[],
    byValidator: (number[] | undefined)[],
    codes: Int32Array,
  ): { list: List; accept: (pos: number) => boolean } {
    const validatorIdx = q.nodeIds?.map((n) => this.validatorByNodeId.get(n)).filter((i): i is number => i !== undefined);
    if (q.addresses) {
      const addrIdx = q.addresses.map((a) => this.addrIndex.get(a)).filter((a): a is number => a !== undefined);
      const list = sortedUnion(addrIdx.map((a) => byAddr[a]));
      if (!validatorIdx) return { list, accept: () => true };
      const wanted = new Set(validatorIdx);
      return { list, accept: (pos) => wanted.has(this.rewardValidatorOf(codes[pos] as number)) };
    }
    return { list: sortedUnion((validatorIdx ?? []).map((i) => byValidator[i])), accept: () => true };
  }

  /** Both `addresses` and `nodeIds` narrow the result when both are given. Newest `endTimestamp` first by default. */
  listHistoricalRewards(q: RewardQuery, currency: CurrencyCode, offset: number, limit: number): Page<HistoricalReward> {
    const { list, accept } = this.rewardPositions(q, this.historicalByAddr, this.historicalByValidator, this.historical);
    return pageOf(list, q.sortOrder, accept, offset, limit, (pos) => this.toHistoricalReward(this.historical[pos] as number, currency));
  }

  /** Ordered by `startTimestamp`. */
  listPendingRewards(q: RewardQuery, offset: number, limit: number): Page<PendingReward> {
    const now = this.nowSec();
    const { list, accept } = this.rewardPositions(q, this.pendingByAddr, this.pendingByValidator, this.pending);
    return pageOf(list, q.sortOrder, accept, offset, limit, (pos) => this.toPendingReward(this.pending[pos] as number, now));
  }

  // ---------------------------------------------------------------- UTXOs

  /** Whether `address` (a body like `avax1...`) is one of this network's known addresses. */
  isKnownAddress(address: string): boolean {
    return this.addrIndex.has(address);
  }

  private utxoBase(chainId: string, label: string): Pick<Utxo, 'utxoId' | 'utxoBytes' | 'consumedOnChainId' | 'createdOnChainId'> {
    return {
      utxoId: id32(`${this.tag}:utxo:${label}`),
      utxoBytes: `0x${hexOf(`${this.tag}:utxo-bytes:${label}`, 60)}`,
      createdOnChainId: chainId,
      consumedOnChainId: chainId,
    };
  }

  /** Marks a UTXO spent `delay` seconds after creation (never after the generation instant). */
  private spend(item: UtxoItem, chain: PrimaryChain, label: string): void {
    const when = Math.min(this.generatedAt - 60, item.timestamp + 3600 + Math.floor(unit(`${this.tag}:spend-at:${label}`) * 30 * DAY));
    item.spent = true;
    item.utxo.consumingTxHash = chain === 'c' ? `0x${hexOf(`${this.tag}:spend:${label}`, 32)}` : id32(`${this.tag}:spend:${label}`);
    item.utxo.consumingBlockNumber = String(this.heightAt(chain, when));
    item.utxo.consumingBlockTimestamp = when;
  }

  private pChainUtxos(a: number): UtxoItem[] {
    const p = this.chainIds.p;
    const address = this.addresses[a] as string;
    const out: UtxoItem[] = [];
    const stakeItem = (label: string, txHash: string, amount: number, start: number, end: number, rewardType: string, staked: boolean): UtxoItem => {
      const created = staked ? start - 600 : end;
      return {
        amount,
        timestamp: created,
        spent: false,
        utxo: {
          addresses: [address],
          asset: this.avax(amount),
          ...this.utxoBase(p, label),
          txHash,
          amount: String(amount),
          assetId: this.avaxAssetId,
          blockNumber: String(this.heightAt('p', created)),
          blockTimestamp: created,
          platformLocktime: 0,
          stakeableLocktime: 0,
          outputIndex: 0,
          threshold: 1,
          rewardType,
          staked,
          utxoStartTimestamp: start,
          utxoEndTimestamp: end,
          utxoType: staked ? 'STAKE' : 'TRANSFER',
        },
      };
    };
    // Stake outputs: locked while the validation/delegation runs, returned unlocked after it.
    for (const d of this.delegationsByAddr[a] ?? []) {
      const st = STATUS_CODES[this.dStatus[d] as number];
      const staked = st !== 'completed';
      const label = `stake-d:${d}`;
      const item = stakeItem(label, staked ? this.delegationTxHash(d) : this.delegationRewardTx(d), this.dAmount[d] as number, this.dStart[d] as number, this.dEnd[d] as number, 'DELEGATOR', staked);
      if (!staked && unit(`${this.tag}:spent:${label}`) < 0.5) this.spend(item, 'p', label);
      out.push(item);
    }
    for (const i of this.validationsByAddr[a] ?? []) {
      const v = this.validators[i] as ValidatorRecord;
      const staked = v.status !== 'completed';
      const label = `stake-v:${i}`;
      const item = stakeItem(label, staked ? v.txHash : this.validatorRewardTx(i), v.stake, v.start, v.end, 'VALIDATOR', staked);
      if (!staked && unit(`${this.tag}:spent:${label}`) < 0.5) this.spend(item, 'p', label);
      out.push(item);
    }
    // Reward outputs: the same utxo ids the historical rewards point at.
    for (const pos of this.historicalByAddr[a] ?? []) {
      const code = this.historical[pos] as number;
      const reward = this.toHistoricalReward(code, 'usd');
      const amount = Number(reward.reward.amount);
      const item: UtxoItem = {
        amount,
        timestamp: reward.endTimestamp,
        spent: false,
        utxo: {
          addresses: [address],
          asset: this.avax(amount),
          ...this.utxoBase(p, `reward:${code}`),
          utxoId: reward.utxoId,
          txHash: reward.rewardTxHash,
          amount: String(amount),
          assetId: this.avaxAssetId,
          blockNumber: String(this.heightAt('p', reward.endTimestamp)),
          blockTimestamp: reward.endTimestamp,
          platformLocktime: 0,
          stakeableLocktime: 0,
          outputIndex: reward.outputIndex,
          threshold: 1,
          rewardType: reward.rewardType,
          staked: false,
          utxoType: 'TRANSFER',
        },
      };
      if (unit(`${this.tag}:spent:reward:${code}`) < 0.4) this.spend(item, 'p', `reward:${code}`);
      out.push(item);
    }
    // Plain transfers (imports, change outputs).
    const hot = a < this.hotAddresses;
    const rng = new Rng(`${this.tag}:p-utxos:${address}`);
    const plain = hot ? rng.int(2, 6) : rng.int(0, 3);
    for (let k = 0; k < plain; k++) {
      const label = `p-plain:${a}:${k}`;
      const ts = rng.int(this.profile.genesis + DAY, this.generatedAt - DAY);
      const amount = rng.int(1, 5_000_000) * 1_000_000;
      const item: UtxoItem = {
        amount,
        timestamp: ts,
        spent: false,
        utxo: {
          addresses: [address],
          asset: this.avax(amount),
          ...this.utxoBase(p, label),
          txHash: id32(`${this.tag}:p-tx:${label}`),
          amount: String(amount),
          assetId: this.avaxAssetId,
          blockNumber: String(this.heightAt('p', ts)),
          blockTimestamp: ts,
          platformLocktime: 0,
          stakeableLocktime: rng.bool(0.1) ? ts + 180 * DAY : 0,
          outputIndex: rng.int(0, 2),
          threshold: 1,
          staked: false,
          utxoType: 'TRANSFER',
        },
      };
      // Hot addresses always show one spent and one unspent output.
      if (hot ? k === 0 : rng.bool(0.3)) this.spend(item, 'p', label);
      out.push(item);
    }
    return out;
  }

  /** X-chain outputs (AVAX and other assets), or atomic outputs exported to the C-chain. */
  private assetUtxos(a: number, chain: 'x' | 'c'): UtxoItem[] {
    const address = this.addresses[a] as string;
    const rng = new Rng(`${this.tag}:${chain}-utxos:${address}`);
    const hot = a < this.hotAddresses;
    const count = chain === 'x' ? (hot ? rng.int(4, 12) : rng.int(0, 4)) : hot ? rng.int(1, 3) : rng.bool(0.1) ? 1 : 0;
    const chainId = this.chainIds[chain];
    const out: UtxoItem[] = [];
    for (let k = 0; k < count; k++) {
      const label = `${chain}-plain:${a}:${k}`;
      const other = chain === 'x' && (hot ? k === 0 : rng.bool(0.3)) ? rng.pick(this.xAssets) : undefined;
      const amount = other ? rng.int(1, 10_000_000) * 10 ** Math.min(other.denomination, 3) : rng.int(1, 2_000_000) * 1_000_000;
      const ts = rng.int(chain === 'x' ? this.profile.genesis + DAY : this.profile.genesis + 30 * DAY, this.generatedAt - DAY);
      const asset: AssetAmount = other
        ? { assetId: other.assetId, name: other.name, symbol: other.symbol, denomination: other.denomination, type: 'secp256k1', amount: String(amount) }
        : this.avax(amount);
      const item: UtxoItem = {
        amount,
        timestamp: ts,
        spent: false,
        utxo: {
          addresses: [address],
          asset,
          ...this.utxoBase(chainId, label),
          // Atomic outputs on the C-chain were exported from the X-chain.
          createdOnChainId: chain === 'c' ? this.chainIds.x : chainId,
          txHash: id32(`${this.tag}:${chain}-tx:${label}`),
          amount: String(amount),
          assetId: asset.assetId,
          blockNumber: String(this.heightAt(chain === 'c' ? 'x' : chain, ts)),
          blockTimestamp: ts,
          outputIndex: rng.int(0, 3),
          threshold: 1,
          utxoType: 'TRANSFER',
        },
      };
      if (hot ? k === 1 : rng.bool(0.3)) this.spend(item, chain, label);
      out.push(item);
    }
    return out;
  }

  /** Sorted by `sortBy` then utxo id; addresses are bodies without chain prefix. */
  listUtxos(chain: PrimaryChain, q: UtxoQuery, offset: number, limit: number): Page<Utxo> {
    const seen = new Set<number>();
    let items: UtxoItem[] = [];
    for (const address of q.addresses) {
      const a = this.addrIndex.get(address);
      if (a === undefined || seen.has(a)) continue;
      seen.add(a);
      items = items.concat(chain === 'p' ? this.pChainUtxos(a) : this.assetUtxos(a, chain));
    }
    const min = q.minUtxoAmount ?? 0;
    items = items.filter(
      (u) => (q.includeSpent || !u.spent) && u.amount >= min && (q.assetId === undefined || u.utxo.assetId === q.assetId),
    );
    const key = (u: UtxoItem): number => (q.sortBy === 'amount' ? u.amount : u.timestamp);
    items.sort((x, y) => key(x) - key(y) || (x.utxo.utxoId < y.utxo.utxoId ? -1 : x.utxo.utxoId > y.utxo.utxoId ? 1 : 0));
    if (q.sortOrder === 'desc') items.reverse();
    return { items: items.slice(offset, offset + limit).map((u) => u.utxo), hasMore: items.length > offset + limit };
  }

  // ---------------------------------------------------------------- blocks and vertices

  /** When each chain's block 0 was produced: the X-chain has blocks only since Cortina. */
  private chainStart(chain: PrimaryChain): number {
    return chain === 'x' ? this.profile.cortina : chain === 'c' ? this.profile.genesis + 9 * DAY : this.profile.genesis;
  }

  /** Height of the last block at or before `timestamp` (0 before the chain started). */
  heightAt(chain: PrimaryChain, timestamp: number): number {
    return Math.max(0, Math.floor((timestamp - this.chainStart(chain)) / BLOCK_INTERVAL_SECONDS));
  }

  latestHeight(chain: PrimaryChain): number {
    return this.heightAt(chain, this.nowSec());
  }

  private blockHash(chain: PrimaryChain, height: number): string {
    if (height < 0) return chain === 'c' ? ZERO_HASH : id32('');
    return chain === 'c' ? `0x${sha(`${this.tag}:block:c:${height}`).toString('hex')}` : id32(`${this.tag}:block:${chain}:${height}`);
  }

  block(chain: PrimaryChain, height: number): Block {
    const ts = this.chainStart(chain) + height * BLOCK_INTERVAL_SECONDS;
    const r = sha(`${this.tag}:block-shape:${chain}:${height}`);
    let blockType: string;
    let txCount: number;
    if (chain === 'p') {
      const kind = (r[0] as number) % 20;
      blockType = kind === 0 ? 'BanffProposalBlock' : kind === 1 ? 'BanffCommitBlock' : 'BanffStandardBlock';
      txCount = kind === 1 ? 0 : kind === 0 ? 1 : 1 + ((r[1] as number) % 5);
    } else {
      blockType = chain === 'x' ? 'StandardBlock' : 'Block';
      txCount = 1 + ((r[1] as number) % (chain === 'x' ? 6 : 10));
    }
    const transactions: string[] = [];
    for (let k = 0; k < txCount; k++) {
      transactions.push(chain === 'c' ? `0x${sha(`${this.tag}:btx:c:${height}:${k}`).toString('hex')}` : id32(`${this.tag}:btx:${chain}:${height}:${k}`));
    }
    const active = this.activePrimaryNodeIds;
    const block: Block = {
      blockNumber: String(height),
      blockHash: this.blockHash(chain, height),
      parentHash: this.blockHash(chain, height - 1),
      blockType,
      blockTimestamp: ts,
      txCount,
      transactions,
      blockSizeBytes: 250 + txCount * (300 + ((r[2] as number) % 200)),
    };
    if (chain === 'p') {
      block.l1ValidatorsAccruedFees = Math.floor(height * 0.37) * 1000;
      block.activeL1Validators = this.activeL1Validators;
      block.currentSupply = (450_000_000n * BigInt(NANO) + BigInt(height) * 12_345n).toString();
    }
    const pHeight = this.heightAt('p', ts);
    block.proposerDetails = {
      proposerId: id32(`${this.tag}:proposer:${chain}:${height}`),
      proposerParentId: id32(`${this.tag}:proposer:${chain}:${height - 1}`),
      proposerNodeId: active.length > 0 ? active[r.readUInt32BE(4) % active.length] : undefined,
      proposerPChainHeight: Math.max(0, (chain === 'p' ? height : pHeight) - 1 - ((r[3] as number) % 3)),
      proposerTimestamp: ts,
    };
    return block;
  }

  /**
   * Newest first. `cursor` is the height to continue from (it pins the listing,
   * so blocks produced between pages do not shift it).
   */
  listBlocks(chain: PrimaryChain, q: BlockQuery, cursor: number | undefined, limit: number): { items: Block[]; next?: number } {
    const start = this.chainStart(chain);
    let top = this.latestHeight(chain);
    if (q.endTimestamp !== undefined) {
      if (q.endTimestamp < start) return { items: [] };
      top = Math.min(top, Math.floor((q.endTimestamp - start) / BLOCK_INTERVAL_SECONDS));
    }
    if (cursor !== undefined) top = Math.min(top, cursor);
    const bottom = q.startTimestamp === undefined ? 0 : Math.max(0, Math.ceil((q.startTimestamp - start) / BLOCK_INTERVAL_SECONDS));
    const items: Block[] = [];
    for (let h = top; h >= bottom && items.length < limit; h--) items.push(this.block(chain, h));
    const next = top - items.length;
    return next >= bottom && items.length > 0 ? { items, next } : { items };
  }

  get vertexCount(): number {
    return VERTEX_COUNT;
  }

  vertex(index: number): Vertex {
    const hash = (i: number): string => id32(`${this.tag}:vertex:${i}`);
    const r = sha(`${this.tag}:vertex-shape:${index}`);
    const txCount = 1 + ((r[0] as number) % 8);
    const transactions: string[] = [];
    for (let k = 0; k < txCount; k++) transactions.push(id32(`${this.tag}:vtx:${index}:${k}`));
    const parents = index === 0 ? [] : index % 3 === 0 && index > 1 ? [hash(index - 1), hash(index - 2)] : [hash(index - 1)];
    return {
      vertexHash: hash(index),
      parentHashes: parents,
      vertexHeight: index,
      vertexIndex: index,
      vertexTimestamp: this.profile.cortina - (VERTEX_COUNT - 1 - index) * 3,
      txCount,
      transactions,
      vertexSizeBytes: 120 + txCount * (280 + ((r[1] as number) % 150)),
    };
  }

  /** Newest first. */
  listVertices(offset: number, limit: number): Page<Vertex> {
    const items: Vertex[] = [];
    for (let k = offset; k < Math.min(VERTEX_COUNT, offset + limit); k++) items.push(this.vertex(VERTEX_COUNT - 1 - k));
    return { items, hasMore: offset + limit < VERTEX_COUNT };
  }

  // ---------------------------------------------------------------- node view, fixtures, stats

  activeValidatorNodeIds(): readonly string[] {
    return this.activePrimaryNodeIds;
  }

  devnetBlockchains(): DevnetBlockchain[] {
    const aliases: Record<string, string[]> = {
      [this.chainIds.p]: ['P', 'platform'],
      [this.chainIds.x]: ['X', 'avm'],
      [this.chainIds.c]: ['C', 'evm'],
    };
    return this.subnets.flatMap((s) =>
      s.blockchains.map((b) => ({
        blockchainId: b.blockchainId,
        subnetId: b.subnetId,
        vmId: b.vmId,
        name: b.blockchainName,
        aliases: aliases[b.blockchainId] ?? [],
      })),
    );
  }

  /** Non-primary subnet ids. */
  subnetIds(): string[] {
    return this.subnets.slice(1).map((s) => s.subnetId);
  }

  fixtures(): PrimaryFixtures {
    const vs = this.validators;
    const statusOf = (d: number): DelegationStatus => STATUS_CODES[this.dStatus[d] as number] as DelegationStatus;
    const primaryActive = vs.filter((v) => v.primary && v.status === 'active');
    const mixed = (v: ValidatorRecord): boolean =>
      v.delegators.some((d) => statusOf(d) === 'completed') && v.delegators.some((d) => statusOf(d) === 'active');
    const active =
      primaryActive.find((v) => !v.whale && v.delegators.length >= 5 && v.delegators.length <= 100 && mixed(v)) ??
      primaryActive.find(mixed) ??
      primaryActive[0] ??
      (vs[0] as ValidatorRecord);
    const busy = [...primaryActive].sort((a, b) => b.delegators.length - a.delegators.length)[0] ?? active;
    const find = (pred: (v: ValidatorRecord) => boolean): ValidatorRecord => vs.find(pred) ?? active;
    const completed = find((v) => v.primary && v.status === 'completed' && v.delegators.length > 0);
    const pending = find((v) => v.status === 'pending');
    const removed = find((v) => v.status === 'removed');
    const subnetValidator = find((v) => !v.primary && v.status === 'active');
    const validated = new Set(vs.filter((v) => !v.primary).map((v) => v.subnetId));
    const subnet =
      this.subnets.find((s) => s.subnetId !== PRIMARY_NETWORK_ID && s.blockchains.some((b) => b.evmChainId) && validated.has(s.subnetId)) ??
      (this.subnets[1] as Subnet);
    const l1 = this.subnets.find((s) => s.isL1) ?? subnet;

    // The richest hot address: most delegations that have both completed and active ones.
    let best = 0;
    let bestScore = -1;
    for (let a = 0; a < this.hotAddresses; a++) {
      const ds = this.delegationsByAddr[a] ?? [];
      const done = ds.filter((d) => statusOf(d) === 'completed').length;
      const running = ds.filter((d) => statusOf(d) === 'active').length;
      const score = Math.min(done, running) * 1000 + ds.length;
      if (score > bestScore) {
        best = a;
        bestScore = score;
      }
    }
    const address = this.addresses[best] as string;
    const xAsset = this.assetUtxos(best, 'x').find((u) => u.utxo.assetId !== this.avaxAssetId)?.utxo.assetId ?? (this.xAssets[0]?.assetId as string);
    const activeDelegation = active.delegators.find((d) => statusOf(d) === 'active');
    return {
      pChainAddress: `P-${address}`,
      xChainAddress: `X-${address}`,
      rewardAddress: address,
      nodeId: active.nodeId,
      busyNodeId: busy.nodeId,
      completedNodeId: completed.nodeId,
      pendingNodeId: pending.nodeId,
      removedNodeId: removed.nodeId,
      subnetValidatorNodeId: subnetValidator.nodeId,
      subnetId: subnet.subnetId,
        l1SubnetId: l1.subnetId,
      pChainTxHash: active.txHash,
      delegationTxHash: activeDelegation === undefined ? active.txHash : this.delegationTxHash(activeDelegation),
      avaxAssetId: this.avaxAssetId,
      xAssetId: xAsset,
    };
  }

  /** Sizes, for logs and tests. */
  stats(): Record<string, number> {
    const count = (pred: (v: ValidatorRecord) => boolean): number => this.validators.filter(pred).length;
    return {
      subnets: this.subnets.length,
      blockchains: this.subnets.reduce((n, s) => n + s.blockchains.length, 0),
      validators: this.validators.length,
      primaryValidators: count((v) => v.primary),
      subnetValidators: count((v) => !v.primary),
      activeValidators: count((v) => v.status === 'active'),
      completedValidators: count((v) => v.status === 'completed'),
      pendingValidators: count((v) => v.status === 'pending'),
      removedValidators: count((v) => v.status === 'removed'),
      delegators: this.dStatus.length,
      historicalRewards: this.historical.length,
      pendingRewards: this.pending.length,
      addresses: this.addresses.length,
    };
  }
}

export function createPrimaryData(input: PrimaryDataInput): PrimaryData {
  return new PrimaryData(input);
}
