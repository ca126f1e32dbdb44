/**
 * The L1 validators of a network (listL1Validators), derived from the validations of
 * the L1 subnets the staking records already hold: the same node ids, subnets and
 * creation times `Subnet.validators` serves, with an L1 validation id hashed from the
 * add-validator transaction. An active validation has its weight and a balance left;
 * a removed one weight 0; the others ran out of balance (inactive, weight kept).
 */

import type { L1Validator, Subnet } from '../../../shapes/index.ts';
import type { PrimaryRecords } from './generate.ts';
import { hexOf, sha, unit } from './ids.ts';
import { formatCb58Id } from '../../../lib/ids.ts';
import type { ValidatorRecord } from './staking.ts';
import type { Page } from './types.ts';

export interface L1ValidatorQuery {
  l1ValidationId?: string;
  nodeId?: string;
  subnetId?: string;
  includeInactive: boolean;
}

interface L1Entry {
  record: ValidatorRecord;
  validationId: string;
  active: boolean;
}

/** Every L1 validation of the network, newest first; built once per dataset. */
export function l1Entries(data: PrimaryRecords, subnetById: ReadonlyMap<string, Subnet>): L1Entry[] {
  const out: L1Entry[] = [];
  for (const record of data.staking.validators) {
    if (record.primary || !subnetById.get(record.subnetId)?.isL1) continue;
    out.push({ record, validationId: formatCb58Id(sha(`${data.ctx.tag}:l1-validation:${record.txHash}`)), active: record.status === 'active' });
  }
  return out.sort((a, b) => b.record.start - a.record.start || (a.validationId < b.validationId ? -1 : 1));
}

export function toL1Validator(data: PrimaryRecords, e: L1Entry): L1Validator {
  const { ctx, addresses } = data;
  const v = e.record;
  const owner = { addresses: [`P-${addresses.list[v.rewardAddr] as string}`], threshold: 1 };
  return {
    validationId: e.validationId,
    validationIdHex: `0x${sha(`${ctx.tag}:l1-validation:${v.txHash}`).toString('hex')}`,
    nodeId: v.nodeId,
    subnetId: v.subnetId,
    weight: v.status === 'removed' ? 0 : v.stake,
    // nAVAX left to pay the continuous fee: a few AVAX while active, none once inactive.
    remainingBalance: e.active ? Math.floor((0.5 + unit(`${ctx.tag}:l1-balance:${v.txHash}`) * 5) * 1e9) : 0,
    creationTimestamp: v.start,
    blsCredentials: { publicKey: `0x${hexOf(`${ctx.tag}:l1-bls-pk:${v.nodeId}`, 48)}`, proofOfPossession: `0x${hexOf(`${ctx.tag}:l1-bls-pop:${v.nodeId}`, 96)}` },
    remainingBalanceOwner: owner,
    deactivationOwner: owner,
  };
}

export function listL1Validators(data: PrimaryRecords, entries: readonly L1Entry[], q: L1ValidatorQuery, offset: number, limit: number): Page<L1Validator> {
  const matches = entries.filter(
    (e) =>
      (q.includeInactive || e.active) &&
      (q.l1ValidationId === undefined || e.validationId === q.l1ValidationId) &&
      (q.nodeId === undefined || e.record.nodeId === q.nodeId) &&
      (q.subnetId === undefined || e.record.subnetId === q.subnetId),
  );
  return { items: matches.slice(offset, offset + limit).map((e) => toL1Validator(data, e)), hasMore: matches.length > offset + limit };
}
