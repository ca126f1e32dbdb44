/**
 * The upstream APIs' data, described once: valibot descriptions per domain, the
 * TypeScript types inferred from them, the tolerant reader the clients use and the
 * strict build the devnet's conformance tests use. Every layer and the devnet
 * import it from here.
 */
export * from './common.ts';
export * from './staking.ts';
export * from './subnets.ts';
export * from './blocks.ts';
export * from './primary-tx.ts'; // primary-network transactions, balances and assets
export * from './evm.ts';
// EVM blocks, contracts and transfers
export * from './evm-blocks.ts';
export * from './evm-address.ts'; // EVM address tokens
export * from './evm-more.ts'; // EVM address chains, deployments, transactions v2, collection tokens
export * from './icm.ts';
export * from './exports.ts';
export * from './node-rpc.ts';
export * from './shapes.ts';
export * from './read.ts';
export type { OmittedPaths } from './fast-read.ts';
export { approximately, decimalString, READ, STRICT, type Kit, type Leaf, type WideInteger } from './kit.ts';
export * from './pages.ts';
// Primary-network lookups and ICM (network details, supply, blockchains)
export * from './network.ts';
// L1 validators and primary-network address activity (chain ids, last activity)
export * from './primary-addresses.ts';
// The Data API's health and live checks, and the caller's usage metrics and logs
export * from './usage.ts';
// What the Data API's webhooks deliver (read by the gateway's delivery endpoint)
export * from './webhook-deliveries.ts';
// The calling key's webhooks and shared secret
export * from './webhooks.ts';
