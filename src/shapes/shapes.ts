/**
 * Every Data API response and node result, described once (the modules beside this
 * one) and built twice: {@link SHAPES} for the clients' tolerant reading, and
 * {@link strictShapes} for checking, in the devnet's conformance tests, that what is
 * served has the seed's form exactly.
 */
import { describeBlocks } from './blocks.ts';
import { describeCommon } from './common.ts';
import { describeEvm } from './evm.ts';
// EVM blocks, contracts and transfers
import { describeEvmBlocks } from './evm-blocks.ts';
// EVM address tokens (balances and transfer listings)
import { describeEvmAddress } from './evm-address.ts';
// EVM address chains, deployments, transactions v2 and collection tokens
import { describeEvmMore } from './evm-more.ts';
import { describeExports } from './exports.ts';
import { describeIcm } from './icm.ts';
import { describeNetwork } from './network.ts';
import { READ, STRICT, type Kit } from './kit.ts';
// Primary-network transactions, balances and assets
import { describePrimaryTx } from './primary-tx.ts';
import { describeNode, describeNodeResults } from './node-rpc.ts';
// L1 validators and primary-network address activity
import { describePrimaryAddresses } from './primary-addresses.ts';
import { describeStaking } from './staking.ts';
import { describeSubnets } from './subnets.ts';
// The Data API's health checks and usage reports
import { describeUsage } from './usage.ts';
// The calling key's webhooks and shared secret
import { describeWebhooks } from './webhooks.ts';

function describeAll(k: Kit) {
  return {
    ...describeCommon(k),
    ...describeStaking(k),
    ...describePrimaryTx(k),
    ...describeSubnets(k),
    ...describeBlocks(k),
    ...describeEvm(k),
    // EVM blocks, contracts and transfers
    ...describeEvmBlocks(k),
    ...describeEvmAddress(k),
    ...describeEvmMore(k),
    ...describeIcm(k),
    ...describeExports(k),
    ...describeNode(k),
    ...describeNetwork(k),
    ...describePrimaryAddresses(k),
    ...describeUsage(k),
    ...describeWebhooks(k),
  };
}

export type Shapes = ReturnType<typeof describeAll>;
export type NodeResultShapes = ReturnType<typeof describeNodeResults>;

/** The read build of every description (unknown fields ignored, enums open, variant forms accepted). */
export const SHAPES: Shapes = describeAll(READ);

/** The strict build of every description, and of every node result, built on first use. */
export function strictShapes(): { shapes: Shapes; nodeResults: NodeResultShapes } {
  return { shapes: describeAll(STRICT), nodeResults: describeNodeResults(STRICT) };
}
