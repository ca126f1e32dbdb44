import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder.ts';
import './relay-node.ts';
import './network.ts';
import './validators.ts';
import './delegators.ts';
import './rewards.ts';
import './subnets.ts';
import './primary-chain.ts';
import './blocks.ts';
import './vertices.ts';
import './utxos.ts';
// Primary-network transactions, balances and assets
import './assets.ts';
import './primary-tx.ts';
// L1 validators; primary addresses' chains and last activity, an asset's transactions
import './l1-validators.ts';
import './primary-addresses.ts';
// Primary-network blocks and vertices by id, a node's proposed blocks
import './primary-blocks.ts';
import './block-subscription.ts';
import './chains.ts';
import './addresses.ts';
import './transactions.ts';
import './nfts.ts';
// EVM blocks and contracts
import './evm-blocks.ts';
import './contracts.ts';
import './icm.ts';
// EVM address tokens (balances and transfer listings)
import './address-tokens.ts';
// EVM across chains, an address's chains and deployments, collection tokens, reindexNft
import './evm-more.ts';
// Primary-network lookups and ICM
import './network-details.ts';
import './exports.ts';
import './signatures.ts';
import './node.ts';
import './node-health.ts';
import './node-admin.ts';
// The Data API's health checks and the calling key's usage reports
import './usage.ts';
// The caller's Data API webhooks and their shared secret
import './webhooks.ts';
// Live activity pushed by the Data API's webhooks (addressActivity, primaryNetworkActivity, validatorActivity)
import './live-activity.ts';
// Links across domains: UTXOs, rewards and stakes to their transactions, a reward to its delegation, a P-chain transaction to its subnet, an ICM reference to its message, a primary Blockchain to its blocks
import './links-more.ts';
// A node's whole validation history: Network.validationHistory, Validator.history, AvalancheNode.validations
import './validation-history.ts';
// Batch lookups by natural key: addresses by address and chain id, validators by node id
import './natural-keys.ts';
// For schema-stitching gateways: Query._sdl, the SDL with the stitching directives
import './stitching.ts';
import { COST_DIRECTIVE_NAMES } from './cost-directives.ts';
import { declareEntitiesCost } from './federation.ts';

let schema: GraphQLSchema | undefined;

/** The federation v2 subgraph schema, built once (types register on import). */
export function getSchema(): GraphQLSchema {
  schema ??= declareEntitiesCost(
    lexicographicSortSchema(
      builder.toSubGraphSchema({
        // 2.9: the first federation version with the demand-control directives (`@cost`, `@listSize`).
        linkUrl: 'https://specs.apollo.dev/federation/v2.9',
        federationDirectives: ['@key', '@shareable', '@external', '@requires', '@provides', '@tag', '@inaccessible', ...COST_DIRECTIVE_NAMES],
      }),
    ),
  );
  return schema;
}
