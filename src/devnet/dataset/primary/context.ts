/**
 * What every part of one network's primary data is derived from: the network
 * and its profile, the label prefix of every hashed id, the generation instant
 * and the network's assets. Built once, before anything is generated.
 */

import { PRIMARY_CHAIN_IDS } from '../../../shapes/index.ts';
import type { AssetAmount } from '../../../shapes/index.ts';
import type { DevnetNetwork } from '../../node-view.ts';
import { AVAX_ASSET_IDS, PROFILES, X_ASSETS, type NetworkProfile } from './constants.ts';
import { id32 } from './ids.ts';

/** A non-AVAX X-chain asset. */
export interface XAsset {
  assetId: string;
  name: string;
  symbol: string;
  denomination: number;
}

export interface NetworkContext {
  readonly network: DevnetNetwork;
  readonly profile: NetworkProfile;
  /** `seed:network`: the prefix of every label ids and lazy draws are hashed from. */
  readonly tag: string;
  /** Seconds; the dataset's statuses (active, pending ...) are relative to this instant. */
  readonly generatedAt: number;
  readonly avaxAssetId: string;
  readonly chainIds: { readonly p: string; readonly x: string; readonly c: string };
  readonly xAssets: readonly XAsset[];
}

/** `nowMs` is the clock's reading at generation. */
export function networkContext(network: DevnetNetwork, seed: number, nowMs: number): NetworkContext {
  const tag = `${seed}:${network}`;
  return {
    network,
    profile: PROFILES[network],
    tag,
    generatedAt: Math.floor(nowMs / 1000),
    avaxAssetId: AVAX_ASSET_IDS[network],
    chainIds: PRIMARY_CHAIN_IDS[network],
    xAssets: X_ASSETS.map((a, k) => ({ ...a, assetId: id32(`${tag}:asset:${k}`) })),
  };
}

/** An amount of the network's AVAX as the wire's asset object. */
export function avaxAmount(ctx: NetworkContext, amount: number): AssetAmount {
  return { assetId: ctx.avaxAssetId, name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', amount: String(amount) };
}
