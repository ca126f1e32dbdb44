/**
 * Fixed values of the primary-network dataset: well-known ids, per-network
 * profiles (genesis, Cortina, stake minimums, size ratios) and the word and
 * place tables generation picks from. Plain data, shared by every generator.
 */

import { C_CHAIN_EVM_IDS, PRIMARY_VM_IDS, type CurrencyCode } from '../../../shapes/index.ts';
import type { DevnetNetwork } from '../../node-view.ts';

export const AVAX_ASSET_IDS: Record<DevnetNetwork, string> = {
  mainnet: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z',
  fuji: 'U8iRqJoiJm8xZHAacmvYyZVwqQx6uDNtQeP3CQ6fcgQk3JqnK',
};

export const VM_IDS = {
  platformvm: PRIMARY_VM_IDS.platform,
  avm: PRIMARY_VM_IDS.avm,
  evm: PRIMARY_VM_IDS.evm,
  subnetevm: 'srEXiWaHuhNyGwPUi444Tu47ZEDwxTWrbQiuD7FmgSAQ6X7Dy',
  xsvm: 'v3m4wPxaHpvGr8qfMeyK6PRW3idZrPHmYcMTt7oXdK47yurVH',
} as const;

/** The C-chain's EVM chain id per network. */
export { C_CHAIN_EVM_IDS };

/** Every primary chain produces one block per this many seconds. */
export const BLOCK_INTERVAL_SECONDS = 2;

export type PrimaryChain = 'p' | 'x' | 'c';
export const CHAIN_NAMES: Record<PrimaryChain, 'p-chain' | 'x-chain' | 'c-chain'> = {
  p: 'p-chain',
  x: 'x-chain',
  c: 'c-chain',
};

export const DAY = 86_400;
export const YEAR = 365 * DAY;
export const NANO = 1_000_000_000;
export const MAX_WEIGHT_AVAX = 3_000_000;
export const REWARD_RATE = 0.075;
/** X-chain vertices stopped at Cortina; this many of them precede it. */
export const VERTEX_COUNT = 600_000;

export interface NetworkProfile {
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

export const PROFILES: Record<DevnetNetwork, NetworkProfile> = {
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

export const CURRENCY_RATES: Record<CurrencyCode, number> = {
  usd: 1, eur: 0.92, aud: 1.52, cad: 1.36, chf: 0.88, clp: 940, cny: 7.2,
  czk: 23.1, dkk: 6.88, gbp: 0.79, hkd: 7.81, huf: 361, jpy: 151, nzd: 1.66,
};

export const CITIES = [
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

export const CHAIN_WORDS = [
  'Amber', 'Basalt', 'Cedar', 'Delta', 'Ember', 'Fjord', 'Garnet', 'Harbor', 'Indigo', 'Juniper', 'Kestrel',
  'Lumen', 'Meadow', 'Nimbus', 'Onyx', 'Pioneer', 'Quartz', 'Raven', 'Summit', 'Tundra', 'Umber', 'Vertex',
  'Willow', 'Xenon', 'Yarrow', 'Zephyr',
];

export const X_ASSETS = [
  { name: 'Devnet Dollar', symbol: 'DUSD', denomination: 6 },
  { name: 'Granite Gold', symbol: 'GGLD', denomination: 8 },
  { name: 'Cortina Coin', symbol: 'CORT', denomination: 0 },
];

export const EIP150_HASH = '0x2086799aeebeae135c246c65021c82b4e15a2c451340993aab11e8a6d0cd6ee0';
export const ZERO_HASH = `0x${'0'.repeat(64)}`;
