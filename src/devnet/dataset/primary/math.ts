/**
 * Small numeric helpers of generation: random draws beyond what `Rng` offers,
 * rounding and formatting, and the reward and price formulas every reward or
 * UTXO amount is computed with.
 */

import type { CurrencyCode } from '../../../shapes/index.ts';
import type { Rng } from '../../rng.ts';
import { CURRENCY_RATES, DAY, REWARD_RATE, YEAR } from './constants.ts';

export function normal(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export function uniform(rng: Rng, min: number, max: number): number {
  return max <= min ? min : rng.int(Math.floor(min), Math.floor(max));
}

export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}

export function feeString(feeBps: number): string {
  return (feeBps / 100).toFixed(4);
}

export function grossReward(amount: number, start: number, end: number): number {
  return Math.floor((amount * REWARD_RATE * Math.max(0, end - start)) / YEAR);
}

/** The deterministic AVAX price (per unit of `currency`) at a timestamp. */
export function avaxPrice(timestamp: number, currency: CurrencyCode): string {
  const usd = 24 + 14 * Math.sin(timestamp / (DAY * 61)) + 4 * Math.sin(timestamp / (DAY * 7.3));
  return (usd * CURRENCY_RATES[currency]).toFixed(2);
}
