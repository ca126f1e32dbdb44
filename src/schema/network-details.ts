import { builder } from './builder.ts';
import { AVAX_SUPPLY_COST, avaxSupply, NETWORK_DETAILS_COST, networkDetails } from '../loaders/network-details.ts';
import type { AvaxSupply, NetworkDetails, StakingDistribution } from '../shapes/index.ts';
import { NetworkRef } from './network.ts';

/**
 * Network-wide figures: the staking summary of a network (`Network.details`) and
 * the AVAX supply (`Network.avaxSupply`). Staking totals are nAVAX integers
 * (UInt256); the supply's amounts are AVAX with a fraction, kept as the decimal
 * strings the Data API sends so no digit is lost.
 */

type ValidatorsDetails = NetworkDetails['validatorDetails'];
type DelegatorsDetails = NetworkDetails['delegatorDetails'];

const StakingDistributionRef = builder.objectRef<StakingDistribution>('StakingDistribution').implement({
  description: 'Stake held by the validators running one AvalancheGo version.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'The AvalancheGo version, e.g. `avalanchego/1.11.3`.' }),
    amountStaked: t.field({ type: 'UInt256', description: 'Stake of the validators running it, nAVAX.', resolve: (d) => d.amountStaked }),
    validatorCount: t.exposeInt('validatorCount', { description: 'Validators running it.' }),
  }),
});

const ValidatorsDetailsRef = builder.objectRef<ValidatorsDetails>('ValidatorsDetails').implement({
  description: "The network's active primary-network validators, summed up.",
  fields: (t) => ({
    validatorCount: t.exposeInt('validatorCount', { description: 'Active validators.' }),
    totalAmountStaked: t.field({ type: 'UInt256', description: 'Their own stake, nAVAX (delegations not included).', resolve: (d) => d.totalAmountStaked }),
    estimatedAnnualStakingReward: t.field({
      type: 'UInt256',
      description: 'Potential rewards of the active validations and delegations, nAVAX.',
      resolve: (d) => d.estimatedAnnualStakingReward,
    }),
    stakingDistributionByVersion: t.field({
      type: [StakingDistributionRef],
      description: 'Stake and validator count per AvalancheGo version.',
      resolve: (d) => d.stakingDistributionByVersion,
    }),
    stakingRatio: t.exposeString('stakingRatio', { description: 'Total active stake over the current supply, a decimal string (e.g. "0.56").' }),
  }),
});

const DelegatorsDetailsRef = builder.objectRef<DelegatorsDetails>('DelegatorsDetails').implement({
  description: "The network's active delegations, summed up.",
  fields: (t) => ({
    delegatorCount: t.exposeInt('delegatorCount', { description: 'Active delegations.' }),
    totalAmountStaked: t.field({ type: 'UInt256', description: 'Their stake, nAVAX.', resolve: (d) => d.totalAmountStaked }),
  }),
});

const NetworkDetailsRef = builder.objectRef<NetworkDetails>('NetworkDetails').implement({
  description: "A network's staking summary: its active validators and delegations.",
  fields: (t) => ({
    validatorDetails: t.field({ type: ValidatorsDetailsRef, description: 'Active validators.', resolve: (d) => d.validatorDetails }),
    delegatorDetails: t.field({ type: DelegatorsDetailsRef, description: 'Active delegations.', resolve: (d) => d.delegatorDetails }),
  }),
});

const AvaxSupplyRef = builder.objectRef<AvaxSupply>('AvaxSupply').implement({
  description: 'The AVAX supply and where it went. Amounts are AVAX (not nAVAX), decimal strings with a fraction, e.g. "454257251.71".',
  fields: (t) => {
    const avax = (name: Exclude<keyof AvaxSupply, 'lastUpdated'>, description: string) => t.exposeString(name, { description: `${description}, AVAX.` });
    return {
      circulatingSupply: avax('circulatingSupply', 'Circulating supply'),
      totalSupply: avax('totalSupply', 'Total supply'),
      totalPBurned: avax('totalPBurned', 'Burned on the P-Chain (fees, L1 validator fees, excess inputs)'),
      totalCBurned: avax('totalCBurned', 'Burned on the C-Chain (EVM and atomic transactions)'),
      totalXBurned: avax('totalXBurned', 'Burned on the X-Chain (fees)'),
      totalStaked: avax('totalStaked', 'Staked'),
      totalLocked: avax('totalLocked', 'Locked'),
      totalRewards: avax('totalRewards', 'Paid as staking rewards'),
      genesisUnlock: avax('genesisUnlock', 'Unlocked from genesis allocations'),
      l1ValidatorFees: avax('l1ValidatorFees', 'Paid as L1 validator fees'),
      lastUpdated: t.field({
        type: 'DateTime',
        nullable: true,
        description: 'When these figures were computed (null when the Data API sends no readable time).',
        resolve: (s) => {
          const time = new Date(s.lastUpdated);
          return Number.isNaN(time.getTime()) ? null : time;
        },
      }),
    };
  },
});

builder.objectFields(NetworkRef, (t) => ({
  details: t.field({
    type: NetworkDetailsRef,
    description: "This network's staking summary: active validators (stake, rewards, versions) and delegations. Read once per request.",
    upstreamCost: NETWORK_DETAILS_COST,
    resolve: (n, _args, ctx) => networkDetails(ctx).load(n.network),
  }),
  avaxSupply: t.field({
    type: AvaxSupplyRef,
    nullable: true,
    description: 'The AVAX supply (circulating, total, burned per chain, staked, locked, rewards), on MAINNET; null on FUJI, whose supply the Data API does not report. Read once per request.',
    upstreamCost: AVAX_SUPPLY_COST,
    resolve: (n, _args, ctx) => (n.network === 'mainnet' ? avaxSupply(ctx) : null),
  }),
}));
