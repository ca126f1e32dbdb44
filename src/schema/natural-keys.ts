import { builder } from './builder.ts';
import { badInput } from '../errors/graphql.ts';
import { CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import type { FieldCost } from '../lib/cost.ts';
import { isNodeId } from '../lib/ids.ts';
import { AddressRef, loadAddress } from './addresses.ts';
import type { Bound } from './bounds.ts';
import { BOUNDS } from './input-checks.ts';
import { NetworkNameEnum, networkId } from './network.ts';
import { MAX_BATCH_KEYS } from './relay-node.ts';
import { loadValidator, ValidatorInterface } from './validators.ts';

/**
 * Batch lookups by the ids the ecosystem stores (an address with its chain id, a `NodeID-...`), for apps
 * that keep those rather than chaingraph's global ids, and for schema-stitching gateways, which merge
 * `Address` by `address chainId` through `addresses(keys:)` (see `./stitching.ts`). Each is the batch
 * form of a single lookup and goes through the same loader, so N keys cost what N single lookups in
 * one request cost: addresses, the request's one chain list; validators, `nodeIds=` listings of 100.
 * At most {@link MAX_BATCH_KEYS} keys, the bound of `nodes(ids:)` and `_entities`, checked before any call.
 */

/** A list of at most {@link MAX_BATCH_KEYS} `what`, each within `item`; the refusal says how to split. */
function batchOf(what: string, field: string, item?: Bound): Bound {
  return {
    describe: `At most ${MAX_BATCH_KEYS} ${what}, the bound of every batch lookup (\`nodes(ids:)\` too).`,
    check(value, path) {
      if (!Array.isArray(value)) throw badInput(path, 'must be a list');
      if (value.length > MAX_BATCH_KEYS) {
        throw badInput(path, `This list has ${value.length} ${what}, more than the ${MAX_BATCH_KEYS} one field takes: split it over several \`${field}\` fields or requests of at most ${MAX_BATCH_KEYS}.`);
      }
      if (item) value.forEach((v: unknown, i) => item.check(v, path, i));
    },
  };
}

const listOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);

// ---------------------------------------------------------------- addresses by address and chain id

export const AddressKeyInput = builder.inputType('AddressKeyInput', {
  description: 'An address on an EVM chain, as wallets and explorers write it: the natural key of an `Address`.',
  fields: (t) => ({
    address: t.string({ required: true, description: 'The address, in any case (read lowercase).', bound: BOUNDS.evmAddress }),
    chainId: t.string({ required: true, description: 'Its chain: the EVM chain id (`43114`) or the blockchain id.', bound: BOUNDS.chainId }),
  }),
});

/** `addresses(keys:)`: the request's one chain list, whatever the number of keys (as `Chain.address` under `chain`). */
const ADDRESSES_COST: FieldCost = { ...CHAIN_LOOKUP_COST, size: (args) => listOf(args['keys']).length };

// ---------------------------------------------------------------- validators by network and node id

/** Distinct node ids of the arguments: the keys the validators loader sends. */
const distinctNodeIds = (args: Readonly<Record<string, unknown>>): number => new Set(listOf(args['nodeIds']).filter((id) => typeof id === 'string' && isNodeId(id))).size;

/** `validatorsByNodeId`: what `Network.validator(nodeId:)` costs once per distinct node id, batched by its loader. */
const VALIDATORS_BY_NODE_ID_COST: FieldCost = {
  ...validatorLinkCost,
  calls: (input) => validatorLinkCost.calls({ ...input, parents: input.parents * distinctNodeIds(input.args) }),
  size: (args) => listOf(args['nodeIds']).length,
};

builder.queryFields((t) => ({
  addresses: t.field({
    type: [AddressRef],
    nullable: { list: false, items: true },
    description: `Addresses by their natural key, \`address\` and \`chainId\` (the batch form of \`chain(chainId:) { address(address:) }\`), in the order of \`keys\`; null where the chain is unknown. At most ${MAX_BATCH_KEYS} keys, answered from one chain list. Schema-stitching gateways merge \`Address\` by these keys (\`_sdl\`).`,
    args: { keys: t.arg({ type: [AddressKeyInput], required: true, description: 'Addresses with their chains.', bound: batchOf('keys', 'addresses') }) },
    upstreamCost: ADDRESSES_COST,
    // One promise per entry: an entry that fails to load is null with its own error, the others still answer.
    resolve: (_root, args, ctx) => args.keys.map((key) => loadAddress(ctx, key.chainId, key.address)),
  }),
  validatorsByNodeId: t.field({
    type: [ValidatorInterface],
    nullable: { list: false, items: true },
    description: `Validators by node id on one network (the batch form of \`network(name:) { validator(nodeId:) }\`), in the order of \`nodeIds\`: each node's primary-network validation, the active one, else pending, else the latest completed; null for a node that never validated. At most ${MAX_BATCH_KEYS} node ids, listed 100 a call.`,
    args: {
      network: t.arg({ type: NetworkNameEnum, required: true, description: 'MAINNET, FUJI or TESTNET.' }),
      nodeIds: t.arg.stringList({ required: true, description: 'The nodes, `NodeID-...`.', bound: batchOf('node ids', 'validatorsByNodeId', BOUNDS.nodeId) }),
    },
    upstreamCost: VALIDATORS_BY_NODE_ID_COST,
    resolve: (_root, args, ctx) => args.nodeIds.map((nodeId) => loadValidator(ctx, networkId(args.network), nodeId)),
  }),
}));
