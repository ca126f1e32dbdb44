import { builder } from '../builder.ts';
import { chainById } from '../loaders/chains.ts';
import { AddressRef } from './addresses.ts';
import { BlockRef, PrimaryBlockchainRef, UtxoRef, VertexRef } from './blocks.ts';
import { ChainRef } from './chains.ts';
import { ActiveDelegatorRef, CompletedDelegatorRef, DelegatorInterface, PendingDelegatorRef } from './delegators.ts';
import { ExportOperationRef } from './exports.ts';
import { IcmMessageRef } from './icm.ts';
import { NetworkRef } from './network.ts';
import { NftTokenRef } from './nfts.ts';
import { AvalancheNodeRef } from './node.ts';
import { loadNode } from './relay-node.ts';
export { checkRepresentations } from './relay-node.ts';
import { BlockchainRef, SubnetRef } from './subnets.ts';
import { TransactionRef } from './transactions.ts';
import {
  ActiveValidatorRef, CompletedValidatorRef, PendingValidatorRef, RemovedValidatorRef, ValidatorInterface,
} from './validators.ts';

/**
 * Federation v2 entities. Every identifiable type is an entity keyed by its global
 * `id`, and `_entities` resolves representations through the same family loaders
 * as `node(id:)`/`nodes(ids:)`, so a gateway asking for a hundred validators costs
 * a batched call or two, not a hundred. Chains also take their natural key, `chainId`.
 *
 * Validator and Delegator are interfaces: the interface and each status type carry
 * the key (federation 2.3 interface entities).
 *
 * Representations come from the router, that is from clients: `useOpaqueInputs`
 * checks them with {@link checkRepresentations} before execution (id grammar, the
 * id's family against `__typename`, a bounded count), and the ids are parsed again
 * here, errors naming `representations`.
 */
const byId = builder.selection<{ id: string }>('id');
const resolveById = (ref: { id: string }, ctx: Parameters<typeof loadNode>[0]) => loadNode(ctx, ref.id, 'representations');

const entities = [
  NetworkRef, AddressRef, BlockRef, PrimaryBlockchainRef, UtxoRef, VertexRef, ExportOperationRef, IcmMessageRef,
  NftTokenRef, AvalancheNodeRef, BlockchainRef, SubnetRef, TransactionRef,
  ActiveValidatorRef, CompletedValidatorRef, PendingValidatorRef, RemovedValidatorRef,
  ActiveDelegatorRef, CompletedDelegatorRef, PendingDelegatorRef,
] as const;

for (const ref of entities) {
  builder.asEntity(ref as never, { key: byId, resolveReference: resolveById as never });
}
builder.asEntity(ValidatorInterface, { key: byId, resolveReference: resolveById as never });
builder.asEntity(DelegatorInterface, { key: byId, resolveReference: resolveById as never });

builder.asEntity(ChainRef, {
  key: [byId, builder.selection<{ chainId: string }>('chainId')],
  resolveReference: (ref, ctx) => ('chainId' in ref && ref.chainId ? chainById(ctx).load(ref.chainId) : loadNode(ctx, (ref as { id: string }).id, 'representations')) as never,
});
