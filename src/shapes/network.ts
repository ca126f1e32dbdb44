/**
 * Network-wide reads of the public spec beyond the seed: the staking summary of a
 * network (getNetworkDetails), the AVAX supply (getAvaxSupply), the blockchain list
 * (listBlockchains), and the parameters of the direct lookups (getSingleValidatorDetails)
 * and of the all-messages ICM listing (listIcmMessages).
 *
 * The spec types every amount as a string: nAVAX integers for the staking totals,
 * decimal AVAX (with a fraction) for the supply. Counts are numbers.
 */
import * as v from 'valibot';
import { pageOf, type Network, type PageParams, type SortOrder } from './common.ts';
import { perKit, type Kit } from './kit.ts';
import type { ValidationStatus } from './staking.ts';
import { describeSubnets } from './subnets.ts';

/** A decimal number string, possibly with a fraction ("454257251.71"): the supply's AVAX amounts. */
const DECIMAL_NUMBER = /^\d+(\.\d+)?$/;

export const describeNetwork = perKit((k: Kit) => {
  const { Blockchain } = describeSubnets(k);
  const decimalNumber = k.pattern(DECIMAL_NUMBER, 'a decimal number string');

  const StakingDistribution = v.object({
    version: k.string,
    amountStaked: k.decimal,
    validatorCount: k.int32,
  });

  /** GetNetworkDetailsResponse. */
  const NetworkDetails = v.object({
    validatorDetails: v.object({
      validatorCount: k.int32,
      totalAmountStaked: k.decimal,
      estimatedAnnualStakingReward: k.decimal,
      stakingDistributionByVersion: v.array(StakingDistribution),
      stakingRatio: decimalNumber,
    }),
    delegatorDetails: v.object({
      delegatorCount: k.int32,
      totalAmountStaked: k.decimal,
    }),
  });

  /** AvaxSupplyResponse: AVAX amounts as decimal strings, `lastUpdated` an ISO time. */
  const AvaxSupply = v.object({
    circulatingSupply: decimalNumber,
    totalSupply: decimalNumber,
    totalPBurned: decimalNumber,
    totalCBurned: decimalNumber,
    totalXBurned: decimalNumber,
    totalStaked: decimalNumber,
    totalLocked: decimalNumber,
    totalRewards: decimalNumber,
    lastUpdated: k.isoTime,
    genesisUnlock: decimalNumber,
    l1ValidatorFees: decimalNumber,
  });

  return {
    NetworkDetails,
    AvaxSupply,
    ListBlockchainsResponse: pageOf(k, { blockchains: v.array(Blockchain) }),
  };
});

type NetworkShapes = ReturnType<typeof describeNetwork>;

export type NetworkDetails = v.InferOutput<NetworkShapes['NetworkDetails']>;
export type StakingDistribution = NetworkDetails['validatorDetails']['stakingDistributionByVersion'][number];
export type AvaxSupply = v.InferOutput<NetworkShapes['AvaxSupply']>;
export type ListBlockchainsResponse = v.InferOutput<NetworkShapes['ListBlockchainsResponse']>;

export type ListBlockchainsParams = PageParams & { sortOrder?: SortOrder };

/** getSingleValidatorDetails: a node's validations, paged. */
export interface GetValidatorDetailsParams extends PageParams {
  validationStatus?: ValidationStatus;
  sortOrder?: SortOrder;
}

/** listIcmMessages: every message of the indexed chains, narrowed by these filters. */
export interface ListAllIcmMessagesParams extends PageParams {
  /** The sending chain: a blockchain id (cb58) or an EVM chain id. */
  sourceBlockchainId?: string;
  /** The receiving chain: a blockchain id (cb58) or an EVM chain id. */
  destinationBlockchainId?: string;
  /** Either end of the message: a blockchain id (cb58). */
  blockchainId?: string;
  /** The recipient address. */
  to?: string;
  /** The sender address. */
  from?: string;
  network?: Network;
}
