// Fixed facts of the real node and networks (ids, versions, fees, upgrade
// times, the health-check period) that the simulated node reports. They come
// from avalanchego v1.14.2 and the live networks, not from the seed.
import type { DevnetNetwork } from '../node-view.ts';
import { idFromName } from './ids.ts';

export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';
export const NODE_VERSION = 'avalanchego/1.14.2';
export const GIT_COMMIT = '6e5acf909c7a16b991142d6b3979bac5699bdb68';
/** How often the node runs its health checks (`--health-check-frequency`). */
export const HEALTH_PERIOD_MS = 30_000;

export const VM_IDS = {
  platform: idFromName('platformvm'),
  avm: idFromName('avm'),
  evm: idFromName('evm'),
};
export const FX_NAMES = ['secp256k1fx', 'nftfx', 'propertyfx'];

export interface NetworkFacts {
  networkID: string;
  networkName: string;
  xChainId: string;
  cChainId: string;
  fees: Record<string, string>;
  upgrades: Record<string, string | number>;
  /** Chain genesis (ms) and mean block interval (ms), for plausible heights. */
  heights: Record<'P' | 'X' | 'C', { genesis: number; intervalMs: number }>;
}

const UPGRADE_TIME_FIELDS = [
  'apricotPhase1Time', 'apricotPhase2Time', 'apricotPhase3Time', 'apricotPhase4Time', 'apricotPhase5Time',
  'apricotPhasePre6Time', 'apricotPhase6Time', 'apricotPhasePost6Time', 'banffTime', 'cortinaTime',
  'durangoTime', 'etnaTime', 'fortunaTime', 'graniteTime',
] as const;

/** `upgrade.Config` in its JSON field order, from the activation times in `UPGRADE_TIME_FIELDS` order. */
function upgradeConfig(times: readonly string[], ap4MinPChainHeight: number, stopVertex: string): Record<string, string | number> {
  const at = Object.fromEntries(UPGRADE_TIME_FIELDS.map((field, i) => [field, times[i] ?? '9999-12-01T00:00:00Z'])) as Record<
    (typeof UPGRADE_TIME_FIELDS)[number],
    string
  >;
  const { apricotPhase1Time, apricotPhase2Time, apricotPhase3Time, apricotPhase4Time, ...later } = at;
  const { apricotPhase5Time, apricotPhasePre6Time, apricotPhase6Time, apricotPhasePost6Time, banffTime, cortinaTime, ...rest } = later;
  return {
    apricotPhase1Time, apricotPhase2Time, apricotPhase3Time, apricotPhase4Time,
    apricotPhase4MinPChainHeight: ap4MinPChainHeight,
    apricotPhase5Time, apricotPhasePre6Time, apricotPhase6Time, apricotPhasePost6Time, banffTime, cortinaTime,
    cortinaXChainStopVertexID: stopVertex,
    ...rest,
    graniteEpochDuration: 300_000_000_000,
    // Unscheduled (upgrade.UnscheduledActivationTime).
    heliconTime: '9999-12-01T00:00:00Z',
  };
}

export const NETWORKS: Record<DevnetNetwork, NetworkFacts> = {
  mainnet: {
    networkID: '1',
    networkName: 'mainnet',
    xChainId: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    cChainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
    fees: {
      txFee: '1000000',
      createAssetTxFee: '10000000',
      createSubnetTxFee: '1000000000',
      transformSubnetTxFee: '10000000000',
      createBlockchainTxFee: '1000000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    },
    upgrades: upgradeConfig(
      [
        '2021-03-31T14:00:00Z', '2021-05-10T11:00:00Z', '2021-08-24T14:00:00Z', '2021-09-22T21:00:00Z',
        '2021-12-02T18:00:00Z', '2022-09-05T01:30:00Z', '2022-09-06T20:00:00Z', '2022-09-07T03:00:00Z',
        '2022-10-18T16:00:00Z', '2023-04-25T15:00:00Z', '2024-03-06T16:00:00Z', '2024-12-16T17:00:00Z',
        '2025-04-08T15:00:00Z', '2025-11-19T16:00:00Z',
      ],
      793005,
      'jrGWDh5Po9FMj54depyunNixpia5PN4aAYxfmNzU8n752Rjga',
    ),
    heights: {
      P: { genesis: Date.UTC(2020, 8, 21), intervalMs: 8_000 },
      X: { genesis: Date.UTC(2023, 3, 25, 15), intervalMs: 45_000 },
      C: { genesis: Date.UTC(2020, 8, 23), intervalMs: 2_500 },
    },
  },
  fuji: {
    networkID: '5',
    networkName: 'fuji',
    xChainId: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    cChainId: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
    fees: {
      txFee: '1000000',
      createAssetTxFee: '10000000',
      createSubnetTxFee: '100000000',
      transformSubnetTxFee: '1000000000',
      createBlockchainTxFee: '100000000',
      addPrimaryNetworkValidatorFee: '0',
      addPrimaryNetworkDelegatorFee: '0',
      addSubnetValidatorFee: '1000000',
      addSubnetDelegatorFee: '1000000',
    },
    upgrades: upgradeConfig(
      [
        '2021-03-26T14:00:00Z', '2021-05-05T14:00:00Z', '2021-08-16T19:00:00Z', '2021-09-16T21:00:00Z',
        '2021-11-24T15:00:00Z', '2022-09-06T20:00:00Z', '2022-09-06T20:00:00Z', '2022-09-07T06:00:00Z',
        '2022-10-03T14:00:00Z', '2023-04-06T15:00:00Z', '2024-02-13T16:00:00Z', '2024-11-25T16:00:00Z',
        '2025-03-13T15:00:00Z', '2025-10-29T15:00:00Z',
      ],
      47437,
      '2D1cmbiG36BqQMRyHt4kFhWarmatA1ighSpND3FeFgz3vFVtCZ',
    ),
    heights: {
      P: { genesis: Date.UTC(2020, 8, 1), intervalMs: 6_000 },
      X: { genesis: Date.UTC(2023, 3, 6, 15), intervalMs: 60_000 },
      C: { genesis: Date.UTC(2020, 8, 3), intervalMs: 3_000 },
    },
  },
};
