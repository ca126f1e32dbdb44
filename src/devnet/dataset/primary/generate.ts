/**
 * Generation of one network's primary data, in a fixed order: addresses,
 * subnets with their blockchains, then validators, delegators and rewards.
 * The result is the record set every read-side module (wire objects, queries,
 * UTXOs, fixtures) derives its answers from.
 */

import type { Subnet } from '../../../shapes/index.ts';
import { Rng } from '../../rng.ts';
import { generateAddresses, type AddressBook } from './addresses.ts';
import { networkContext, type NetworkContext } from './context.ts';
import { generateStaking, type Staking } from './staking.ts';
import { generateSubnets } from './subnets.ts';
import type { PrimaryDataInput, SubnetChain } from './types.ts';

/** One network's generated records. */
export interface PrimaryRecords {
  readonly ctx: NetworkContext;
  readonly addresses: AddressBook;
  /** Oldest first; the primary network itself is the first subnet. */
  readonly subnets: readonly Subnet[];
  readonly subnetChains: readonly SubnetChain[];
  readonly staking: Staking;
}

export function generatePrimaryRecords(input: PrimaryDataInput): PrimaryRecords {
  const ctx = networkContext(input.network, input.seed, input.now());
  // Forks come from a root that never draws, so each concern's stream is stable
  // no matter how much the others draw.
  const root = new Rng(input.seed).fork(`primary:${input.network}`);
  const total = Math.max(1, Math.floor(input.validators));
  const addresses = generateAddresses(root.fork('addresses'), ctx.profile.hrp, Math.max(300, Math.round(total * 2.5)));
  const { subnets, chains } = generateSubnets(ctx, addresses, root.fork('subnets'), total, input.usedEvmChainIds);
  const staking = generateStaking(ctx, addresses, subnets, root, total);
  return { ctx, addresses, subnets, subnetChains: chains, staking };
}
