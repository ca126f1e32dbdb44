import { AssetRef } from './assets.ts';
import { ContractInterface, Erc1155ContractRef, Erc20ContractRef, Erc721ContractRef, UnknownContractRef } from './contracts.ts';
import { EvmBlockRef, evmBlockKey, loadEvmBlock } from './evm-blocks.ts';
import { CChainAtomicTransactionRef, PChainTransactionRef, PrimaryTransactionInterface, XChainTransactionRef } from './primary-tx.ts';
import { builder } from './builder.ts';
import { withFields } from '../shapes/index.ts';
import { CHAIN_LOOKUP_COST, chainById, chainRefetchCalls } from '../loaders/chains.ts';
import { BLOCK_LOOKUP_COST } from '../loaders/evm-blocks.ts';
import { TRANSACTION_LOOKUP_COST, transactionOf } from '../loaders/evm.ts';
import { validatorLinkCost } from '../loaders/validators.ts';
import { AddressRef, loadAddress } from './addresses.ts';
import { BlockRef } from './blocks.ts';
import { PrimaryBlockchainRef } from './primary-chain.ts';
import { UtxoRef } from './utxos.ts';
import { VertexRef } from './vertices.ts';
import { ChainRef } from './chains.ts';
import { ActiveDelegatorRef, CompletedDelegatorRef, DelegatorInterface, PendingDelegatorRef } from './delegators.ts';
import { ExportOperationRef } from './exports.ts';
import { IcmMessageRef } from './icm.ts';
import { NetworkRef } from './network.ts';
import { NftTokenRef } from './nfts.ts';
import { AvalancheNodeRef } from './node.ts';
import type { InterfaceRef, ObjectRef, ShapeFromTypeParam } from '@pothos/core';
import type { Selection } from '@pothos/plugin-federation';
import type { GraphQLSchema } from 'graphql';
import type { BuilderTypes } from './builder.ts';
import type { Context } from './context.ts';
import type { FieldCost } from '../lib/cost.ts';
import { loadNode, MAX_BATCH_KEYS, refetchFieldCost } from './relay-node.ts';
export { checkRepresentations } from './relay-node.ts';
import { BlockchainRef, SubnetRef } from './subnet-refs.ts';
import { TransactionRef } from './transactions.ts';
import {
  ActiveValidatorRef, CompletedValidatorRef, PendingValidatorRef, RemovedValidatorRef, ValidatorInterface,
  loadValidator,
} from './validators.ts';

/**
 * Federation v2 entities. Every identifiable type is an entity keyed by its global
 * `id`, and `_entities` resolves representations through the same family loaders
 * as `node(id:)`/`nodes(ids:)`, so a gateway asking for a hundred validators costs
 * a batched call or two, not a hundred. Chains, addresses, validators, EVM blocks and EVM transactions also
 * take the natural keys the ecosystem stores (`chainId`; `address chainId`; `nodeId network`; `chainId blockNumber`;
 * `chainId txHash`), resolved by the loaders of the fields that read them.
 *
 * Validator and Delegator are interfaces: the interface and each status type carry
 * the key (federation 2.3 interface entities).
 *
 * Representations come from the router, that is from clients: `opaqueInputChecks` (run by `useInputValidation`)
 * checks them with {@link checkRepresentations} before execution (id grammar, the
 * id's family against `__typename`, a bounded count), and the ids are parsed again
 * here, errors naming `representations`.
 */
const byId = builder.selection<{ id: string }>('id');

/**
 * An entity as `_entities` may use it: @apollo/subgraph defines `__typename` on what a
 * reference resolves to, and cached answers are frozen and shared, so it gets a copy
 * of its own (which keeps a broken field's getter: `withFields`).
 */
async function ownEntity<T>(value: Promise<T> | T): Promise<T> {
  const entity = await value;
  return typeof entity === 'object' && entity !== null && !Object.isExtensible(entity) ? (withFields(entity, {}) as T) : entity;
}

/** An entity type: an object or interface ref of this builder. */
type EntityRef = ObjectRef<BuilderTypes, unknown> | InterfaceRef<BuilderTypes, unknown>;

/**
 * A global id's object, for `_entities`: the id's family was checked against
 * `__typename`, so it has the shape of the ref the representation named.
 */
const loadEntity = async <Ref extends EntityRef>(ctx: Context, id: string): Promise<ShapeFromTypeParam<BuilderTypes, Ref, true>> =>
  ownEntity((await loadNode(ctx, id, 'representations')) as ShapeFromTypeParam<BuilderTypes, Ref, true>);

/** Makes `ref` an entity keyed by its global `id`, resolved like `node(id:)`. */
function entityById<Ref extends EntityRef>(ref: Ref): void {
  builder.asEntity(ref, { key: byId, resolveReference: (key, ctx) => loadEntity<Ref>(ctx, key.id) });
}

/**
 * Makes `ref` an entity keyed by its global `id` and by a natural key ({@link NATURAL_KEYS}: the fields
 * `natural` selects), resolved by `load` through the same batching loaders (representations were checked
 * against the key's grammar before execution).
 */
function entityByIdOrKey<Ref extends EntityRef, Key extends object>(
  ref: Ref,
  natural: Selection<Key>,
  load: (ctx: Context, key: Key) => Promise<ShapeFromTypeParam<BuilderTypes, Ref, true> | null>,
): void {
  builder.asEntity(ref, {
    key: [byId, natural],
    // Null for a key nothing answers, as for an id (the plugin's type has no null; `_entities` items are nullable).
    resolveReference: (key: { id: string } | Key, ctx: Context) =>
      'id' in key ? loadEntity<Ref>(ctx, key.id) : ownEntity(load(ctx, key) as Promise<ShapeFromTypeParam<BuilderTypes, Ref, true>>),
  });
}

const entities = [
  NetworkRef, BlockRef, PrimaryBlockchainRef, UtxoRef, VertexRef, ExportOperationRef, IcmMessageRef,
  NftTokenRef, AvalancheNodeRef, BlockchainRef, SubnetRef,
  ActiveDelegatorRef, CompletedDelegatorRef, PendingDelegatorRef, DelegatorInterface,
  // Beyond the seeds: contracts, primary-network transactions and assets (EVM blocks and transactions have natural keys too, below).
  ContractInterface, Erc20ContractRef, Erc721ContractRef, Erc1155ContractRef, UnknownContractRef,
  PrimaryTransactionInterface, PChainTransactionRef, XChainTransactionRef, CChainAtomicTransactionRef, AssetRef,
] as const;

for (const ref of entities) entityById(ref);

/**
 * A validator by the ids the ecosystem stores, `nodeId network` (`NodeID-...`; `mainnet` or `fuji`): that node's
 * validation as `Network.validator(nodeId:)` answers it, through the same batching loader (a batch of nodes is one
 * listing per hundred, not a call per node). A second key of the Validator entity interface and of each status type.
 * Hive Gateway 2.12 needs a plugin to keep `@interfaceObject` subgraphs' fields with two keys (docs/api.md,
 * examples/hive-gateway/merge-through-entity-interfaces.ts); Apollo's router plans them as they are.
 */
const byNodeAndNetwork = builder.selection<{ nodeId: string; network: string }>('nodeId network');
for (const ref of [ValidatorInterface, ActiveValidatorRef, CompletedValidatorRef, PendingValidatorRef, RemovedValidatorRef]) {
  entityByIdOrKey(ref, byNodeAndNetwork, (ctx, key) => (key.network === 'mainnet' || key.network === 'fuji' ? loadValidator(ctx, key.network, key.nodeId) : Promise.resolve(null)));
}

/** An address by itself and its chain id (or its chain's blockchain id): no call but the request's one chain list. */
entityByIdOrKey(AddressRef, builder.selection<{ address: string; chainId: string }>('address chainId'), (ctx, key) => loadAddress(ctx, key.chainId, key.address));

/**
 * An EVM block by its chain and number, as `Chain.block(id:)` reads it (its loader: one getBlock per distinct
 * block). A block number is a `UInt64`, which chaingraph serializes as a decimal string; another subgraph may
 * send it as a JSON number (read as its decimal text, `NATURAL_KEYS`).
 *
 * Not also by `chainId blockHash`: Hive Gateway 2.12 turns a subgraph into one copy per key of its most-keyed
 * type, and with a third copy it plans a validator page with one more `_entities` request to chaingraph (a
 * Network refetch that lists the validators again; test/federation/gateway.test.ts). Two keys a type at most.
 */
entityByIdOrKey(
  EvmBlockRef,
  builder.selection<{ chainId: string; blockNumber: string | number }>('chainId blockNumber'),
  (ctx, key) => loadEvmBlock(ctx, key.chainId, String(key.blockNumber)),
);

/** An EVM transaction by its chain and hash, through the loader of `Chain.transaction(txHash:)` (one getTransaction per distinct transaction). */
entityByIdOrKey(TransactionRef, builder.selection<{ chainId: string; txHash: string }>('chainId txHash'), (ctx, key) => transactionOf(ctx, key.chainId, key.txHash));

/** What `_entities` costs: representations by id refetch like `nodes(ids:)`; those by natural key, {@link naturalKeysCost}. */
const refsOf = (args: Readonly<Record<string, unknown>>): Record<string, unknown>[] => {
  const representations = Array.isArray(args['representations']) ? (args['representations'] as unknown[]) : [];
  return representations.map((rep) => (typeof rep === 'object' && rep !== null ? (rep as Record<string, unknown>) : {}));
};
const entitiesCost: FieldCost = {
  ...refetchFieldCost((args) => refsOf(args).map((ref) => ref['id']), (args) => naturalKeysCost(refsOf(args).filter((ref) => ref['id'] === undefined))),
  size: (args) => (Array.isArray(args['representations']) ? args['representations'].length : 0),
};

/** The types whose natural keys carry a `chainId` but are read without the chain list: by their own lookups. */
const OWN_LOOKUP_TYPES: ReadonlySet<unknown> = new Set(['EvmBlock', 'Transaction']);
const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/**
 * What representations by natural key cost: chains and addresses read the request's one chain list;
 * validators, what `Network.validator(nodeId:)` costs for that many nodes of each network (its batching loader);
 * EVM blocks and transactions, one lookup per distinct block or transaction (their loaders have no batch form
 * and only dedupe).
 */
function naturalKeysCost(refs: readonly Record<string, unknown>[]): { calls: number; computeUnits: number } {
  const chainCalls = refs.some((ref) => ref['chainId'] !== undefined && !OWN_LOOKUP_TYPES.has(ref['__typename'])) ? chainRefetchCalls() : 0;
  const nodesByNetwork = new Map<unknown, number>();
  for (const ref of refs) if (ref['nodeId'] !== undefined) nodesByNetwork.set(ref['network'], (nodesByNetwork.get(ref['network']) ?? 0) + 1);
  let validatorCalls = 0;
  for (const parents of nodesByNetwork.values()) validatorCalls += validatorLinkCost.calls({ parents, args: {}, nodeCount: 0 });
  const blocks = new Set<string>();
  const transactions = new Set<string>();
  for (const ref of refs) {
    if (ref['__typename'] === 'EvmBlock') {
      const key = evmBlockKey(text(ref['chainId']), text(ref['blockNumber']));
      blocks.add(`${key.chainId}|${key.blockId}`);
    } else if (ref['__typename'] === 'Transaction') {
      transactions.add(`${text(ref['chainId'])}|${text(ref['txHash']).toLowerCase()}`);
    }
  }
  return {
    calls: chainCalls + validatorCalls + blocks.size + transactions.size,
    computeUnits:
      chainCalls * (CHAIN_LOOKUP_COST.computeUnits ?? 0) +
      validatorCalls * (validatorLinkCost.computeUnits ?? 0) +
      blocks.size * (BLOCK_LOOKUP_COST.computeUnits ?? 0) +
      transactions.size * (TRANSACTION_LOOKUP_COST.computeUnits ?? 0),
  };
}

/**
 * What the docs explorer says of the fields and types federation adds: a client developer who
 * meets them (last of the root fields, see {@link declareEntitiesCost}) should learn they are for a
 * router, not for an app.
 */
const FEDERATION_DESCRIPTIONS = {
  fields: {
    _entities: `For an Apollo Federation router, not for apps: resolves entity representations (\`{ __typename, id }\`, or a natural key) to objects, batched like \`nodes(ids:)\`; at most ${MAX_BATCH_KEYS} representations. Apps refetch with \`node(id:)\`.`,
    _service: "For an Apollo Federation router, not for apps: this subgraph's SDL, with its federation directives.",
  },
  types: {
    _Any: 'An entity representation sent by a federation router: an object with `__typename` and the key fields (`id`, or a natural key: `chainId` for a `Chain`, `address chainId` for an `Address`, `nodeId network` for a `Validator`, `chainId blockNumber` for an `EvmBlock`, `chainId txHash` for a `Transaction`). Typed `unknown` in generated client code.',
    _Entity: 'Every type a federation router may resolve through `_entities`.',
    _Service: "This subgraph's SDL, for federation routers.",
  },
} as const;

/** The root fields for routers and gateways, in the order they close the root type: federation's, then stitching's `_sdl` (`stitching.ts`). */
const GATEWAY_FIELDS = ['_entities', '_service', '_sdl'] as const;

/**
 * The federation plugin adds `_entities` itself: its cost, and the descriptions of what
 * federation adds, are declared on the built schema.
 *
 * The router-only fields (and stitching's `_sdl`) are moved last among the root fields. Introspection lists fields in the
 * order the type holds them, and GraphiQL's docs and autocomplete show them so: sorted, `_entities`
 * and `_service` came before every field an app uses. The printed SDL is sorted on its own
 * (`printSubgraphSchema`, which leaves `_entities` and `_service` out), so `schema.graphql` does not change.
 */
export function declareEntitiesCost(schema: GraphQLSchema): GraphQLSchema {
  const fields = schema.getQueryType()?.getFields() ?? {};
  const field = fields['_entities'];
  if (field) Object.assign(field, { extensions: { ...field.extensions, cost: entitiesCost } });
  for (const [name, description] of Object.entries(FEDERATION_DESCRIPTIONS.fields)) {
    const added = fields[name];
    if (added && !added.description) added.description = description;
  }
  for (const name of GATEWAY_FIELDS) {
    const added = fields[name];
    if (!added) continue;
    // The type's own field map (graphql-js keeps it once resolved): re-inserted, the key goes last.
    delete fields[name];
    fields[name] = added;
  }
  for (const [name, description] of Object.entries(FEDERATION_DESCRIPTIONS.types)) {
    const type = schema.getType(name);
    if (type && !type.description) type.description = description;
  }
  return schema;
}

builder.asEntity(ChainRef, {
  key: [byId, builder.selection<{ chainId: string }>('chainId')],
  resolveReference: (key, ctx) => ('chainId' in key ? ownEntity(chainById(ctx).load(key.chainId)) : loadEntity<typeof ChainRef>(ctx, key.id)),
});
