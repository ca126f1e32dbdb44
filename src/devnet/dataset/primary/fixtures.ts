/**
 * The primary network's fixtures: sample ids (addresses, node ids, subnets,
 * txs, assets) chosen from the generated records so that each has the data
 * behind it that its description promises (see `PrimaryFixtures`).
 */

import { PRIMARY_NETWORK_ID } from '../../../shapes/index.ts';
import type { DelegationStatus, Subnet } from '../../../shapes/index.ts';
import type { PrimaryRecords } from './generate.ts';
import { delegationStatus, delegationTxHash, type ValidatorRecord } from './staking.ts';
import type { PrimaryFixtures } from './types.ts';
import { assetUtxos } from './utxos.ts';
import { liveAddress } from './live.ts';

export function pickFixtures(data: PrimaryRecords): PrimaryFixtures {
  const { ctx, addresses, subnets, staking } = data;
  const vs = staking.validators;
  const statusOf = (d: number): DelegationStatus => delegationStatus(staking.delegations, d);
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
  // A node validates again and again: a status fixture names a node whose latest validation has that status.
  const ownValidations = (v: ValidatorRecord): readonly ValidatorRecord[] =>
    (staking.validationsByNodeId.get(v.nodeId) ?? []).map((i) => vs[i] as ValidatorRecord);
  const isLatest = (v: ValidatorRecord): boolean => ownValidations(v).at(-1) === v;
  const completed = find((v) => v.primary && v.status === 'completed' && v.delegators.length > 0 && isLatest(v));
  const revalidated = find(
    (v) => v.primary && v.status === 'active' && isLatest(v) && ownValidations(v).some((o) => o.status === 'completed' && o.delegators.length > 0),
  );
  const pending = find((v) => v.status === 'pending');
  const removed = find((v) => v.status === 'removed');
  const subnetValidator = find((v) => !v.primary && v.status === 'active');
  const validated = new Set(vs.filter((v) => !v.primary).map((v) => v.subnetId));
  const subnet =
    subnets.find((s) => s.subnetId !== PRIMARY_NETWORK_ID && s.blockchains.some((b) => b.evmChainId) && validated.has(s.subnetId)) ??
    (subnets[1] as Subnet);
  const l1 = subnets.find((s) => s.isL1) ?? subnet;

  // The richest hot address: most delegations that have both completed and active ones.
  let best = 0;
  let bestScore = -1;
  for (let a = 0; a < addresses.hot; a++) {
    const ds = staking.delegationsByAddr[a] ?? [];
    const done = ds.filter((d) => statusOf(d) === 'completed').length;
    const running = ds.filter((d) => statusOf(d) === 'active').length;
    const score = Math.min(done, running) * 1000 + ds.length;
    if (score > bestScore) {
      best = a;
      bestScore = score;
    }
  }
  const address = addresses.list[best] as string;
  const xAsset = assetUtxos(data, best, 'x').find((u) => u.utxo.assetId !== ctx.avaxAssetId)?.utxo.assetId ?? (ctx.xAssets[0]?.assetId as string);
  const activeDelegation = active.delegators.find((d) => statusOf(d) === 'active');
  return {
    pChainAddress: `P-${address}`,
    xChainAddress: `X-${address}`,
    rewardAddress: address,
    nodeId: active.nodeId,
    busyNodeId: busy.nodeId,
    completedNodeId: completed.nodeId,
    revalidatedNodeId: revalidated.nodeId,
    pendingNodeId: pending.nodeId,
    removedNodeId: removed.nodeId,
    subnetValidatorNodeId: subnetValidator.nodeId,
    subnetId: subnet.subnetId,
    l1SubnetId: l1.subnetId,
    pChainTxHash: active.txHash,
    delegationTxHash: activeDelegation === undefined ? active.txHash : delegationTxHash(ctx, activeDelegation),
    avaxAssetId: ctx.avaxAssetId,
    xAssetId: xAsset,
    activityPChainAddress: `P-${liveAddress(ctx)}`,
    activityXChainAddress: `X-${liveAddress(ctx)}`,
  };
}
