import { builder } from './builder.ts';
import type { Context } from './context.ts';
import { icmMessageById, ICM_MESSAGE_LOOKUP_COST } from '../loaders/icm.ts';
import { BLOCK_LISTING_COST, type PrimaryChain } from '../loaders/primary-chain.ts';
import { chainAliasOf, primaryTransaction, PRIMARY_TX_LOOKUP_COST, type PChainTransactionOnChain } from '../loaders/primary-tx.ts';
import { delegationById } from '../loaders/staking.ts';
import { subnetById, SUBNET_LIST_COST, SUBNET_LIST_NOTE } from '../loaders/subnets.ts';
import type { NetworkId } from '../loaders/types.ts';
import { delegationLinkCost } from '../loaders/validators.ts';
import { PRIMARY_CHAIN_IDS } from '../shapes/index.ts';
import { BlockConnection, blockListArgs, checkBlockRange, resolveBlockListing } from './blocks.ts';
import { DelegatorInterface } from './delegators.ts';
import { IcmMessageRef } from './icm.ts';
import { PChainTransactionRef, PrimaryTransactionInterface } from './primary-tx.ts';
import { HistoricalRewardRef, PendingRewardRef, type HistoricalRewardShape, type PendingRewardShape } from './rewards.ts';
import { BlockchainRef, SubnetRef } from './subnet-refs.ts';
import { TeleporterMessageInfoRef } from './transactions.ts';
import { UtxoRef } from './utxos.ts';
import { ValidatorInterface } from './validators.ts';

/**
 * Links between types whose modules import one another the other way (a transaction
 * lists its UTXOs, a reward names its validator), so they live here, where every
 * type is already defined: no import cycle. Each reads through a loader the request
 * shares, so a page of parents naming the same id makes one call for it:
 * - a UTXO, a reward, a validation or a delegation to its transactions: getTxByHash,
 *   one per distinct hash per request (the upstream takes one hash per call);
 * - a reward to its delegation: the delegations listing, 100 nodes per call;
 * - a P-chain transaction to its subnet: the request's one subnet list;
 * - an EVM transaction's ICM reference to the message: getIcmMessage, one per distinct id;
 * - a primary-network `Blockchain` to its blocks: the same listing as `PrimaryBlockchain.blocks`.
 */

const TX_LOOKUP_NOTE = 'Read with getTxByHash, one call per distinct hash per request (parents naming the same transaction share it)';

/** A transaction by hash on a network's P-chain, or null (unknown, or not a P-chain transaction). */
async function pChainTransaction(ctx: Context, network: NetworkId, txHash: string | null | undefined): Promise<PChainTransactionOnChain | null> {
  if (!txHash) return null;
  const tx = await primaryTransaction(ctx, { network, blockchainId: PRIMARY_CHAIN_IDS[network].p }, txHash);
  return tx?.chainAlias === 'p-chain' ? tx : null;
}

// ---------------------------------------------------------------- UTXO -> its transactions

builder.objectFields(UtxoRef, (t) => ({
  creatingTransaction: t.field({
    type: PrimaryTransactionInterface,
    nullable: true,
    description: `The transaction that created this UTXO (\`txHash\`), on the chain it was created on (\`createdOnChainId\`). ${TX_LOOKUP_NOTE}; null when the upstream does not know it or the chain is not a primary-network chain.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (u, _args, ctx) => primaryTransaction(ctx, { network: u.network, blockchainId: u.createdOnChainId }, u.txHash),
  }),
  consumingTransaction: t.field({
    type: PrimaryTransactionInterface,
    nullable: true,
    description: `The transaction that spent this UTXO (\`consumingTxHash\`), on the chain it was consumed on (\`consumedOnChainId\`). ${TX_LOOKUP_NOTE}; null while unspent, or when the upstream does not know it.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (u, _args, ctx) =>
      u.consumingTxHash ? primaryTransaction(ctx, { network: u.network, blockchainId: u.consumedOnChainId }, u.consumingTxHash) : null,
  }),
}));

// ---------------------------------------------------------------- rewards -> transactions and delegation

builder.objectFields(HistoricalRewardRef, (t) => ({
  stakingTransaction: t.field({
    type: PChainTransactionRef,
    nullable: true,
    description: `The P-chain staking transaction (validation or delegation) that earned the reward (\`txHash\`). ${TX_LOOKUP_NOTE}; null when the upstream does not know it.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (r, _args, ctx) => pChainTransaction(ctx, r.network, r.txHash),
  }),
  rewardTransaction: t.field({
    type: PChainTransactionRef,
    nullable: true,
    description: `The P-chain transaction that paid the reward (\`rewardTxHash\`). ${TX_LOOKUP_NOTE}; null when the upstream does not know it.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (r, _args, ctx) => pChainTransaction(ctx, r.network, r.rewardTxHash),
  }),
}));

/** Reward types whose `txHash` is a delegation's: the delegator's reward, and the validator's fee on it. */
const DELEGATION_REWARDS: ReadonlySet<string> = new Set(['DELEGATOR', 'VALIDATOR_FEE']);

const delegationOf = (r: HistoricalRewardShape | PendingRewardShape, ctx: Context) =>
  DELEGATION_REWARDS.has(r.rewardType ?? '') ? delegationById(ctx, r.network, { nodeId: r.nodeId, txHash: r.txHash }) : null;

const DELEGATION_DESCRIPTION =
  'The delegation this reward is for (a DELEGATOR reward, or the VALIDATOR_FEE a validator earns on it: `txHash` is the delegation, `nodeId` its validator); null for a VALIDATOR reward or when the delegation is not found. Read from the delegations listing filtered by node (one call per 100 distinct nodes, shared by every reward of the request); a delegation that listing leaves out is looked for in its node\'s own list, up to 20 pages.';

builder.objectFields(PendingRewardRef, (t) => ({
  delegation: t.field({
    type: DelegatorInterface,
    nullable: true,
    description: DELEGATION_DESCRIPTION,
    upstreamCost: delegationLinkCost,
    resolve: (r, _args, ctx) => delegationOf(r, ctx),
  }),
}));

builder.objectFields(HistoricalRewardRef, (t) => ({
  delegation: t.field({
    type: DelegatorInterface,
    nullable: true,
    description: DELEGATION_DESCRIPTION,
    upstreamCost: delegationLinkCost,
    resolve: (r, _args, ctx) => delegationOf(r, ctx),
  }),
}));

// ---------------------------------------------------------------- validations and delegations -> staking transaction

builder.interfaceFields(ValidatorInterface, (t) => ({
  stakingTransaction: t.field({
    type: PChainTransactionRef,
    nullable: true,
    description: `The P-chain transaction that registered this validation (\`txHash\`). ${TX_LOOKUP_NOTE}; null when the upstream does not know it.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (v, _args, ctx) => pChainTransaction(ctx, v.network, v.txHash),
  }),
}));

builder.interfaceFields(DelegatorInterface, (t) => ({
  stakingTransaction: t.field({
    type: PChainTransactionRef,
    nullable: true,
    description: `The P-chain transaction that registered this delegation (\`txHash\`). ${TX_LOOKUP_NOTE}; null when the upstream does not know it.`,
    upstreamCost: PRIMARY_TX_LOOKUP_COST,
    resolve: (d, _args, ctx) => pChainTransaction(ctx, d.network, d.txHash),
  }),
}));

// ---------------------------------------------------------------- P-chain transaction -> subnet

builder.objectFields(PChainTransactionRef, (t) => ({
  subnet: t.field({
    type: SubnetRef,
    nullable: true,
    description: `The subnet (or L1) of \`subnetId\`, including the primary network for staking on it; null when the transaction names none. ${SUBNET_LIST_NOTE}`,
    upstreamCost: SUBNET_LIST_COST,
    resolve: (tx, _args, ctx) => (tx.subnetId ? subnetById(ctx, tx.network).load(tx.subnetId) : null),
  }),
}));

// ---------------------------------------------------------------- ICM reference -> message

builder.objectFields(TeleporterMessageInfoRef, (t) => ({
  message: t.field({
    type: IcmMessageRef,
    nullable: true,
    description:
      'The ICM message of `teleporterMessageId` (getIcmMessage, one call per distinct message id per request: the sending and the delivering transaction of one message share it); null when the Data API has none such.',
    upstreamCost: ICM_MESSAGE_LOOKUP_COST,
    resolve: (x, _args, ctx) => icmMessageById(ctx).load(x.teleporterMessageId),
  }),
}));

// ---------------------------------------------------------------- Blockchain -> its blocks (primary-network chains)

builder.objectFields(BlockchainRef, (t) => ({
  blocks: t.field({
    type: BlockConnection,
    nullable: true,
    description:
      'Latest blocks, newest first, when this is a primary-network chain (P, X or C): the listing of `PrimaryBlockchain.blocks`, one call per page. Null for any other blockchain (an L1 or subnet chain: see `evmChain` for EVM ones).',
    args: blockListArgs(t.arg),
    checkArgs: checkBlockRange,
    upstreamCost: BLOCK_LISTING_COST,
    resolve: (b, args, ctx) => {
      const chain: PrimaryChain = { network: b.network, blockchainId: b.blockchainId };
      if (!chainAliasOf(chain)) return null;
      return resolveBlockListing(ctx, chain, args);
    },
  }),
}));
