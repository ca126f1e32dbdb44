import { builder } from './builder.ts';
import { isEvmAddress } from '../lib/ids.ts';
import { chainById, CHAIN_LOOKUP_COST } from '../loaders/chains.ts';
import { nftTokenOf, NFT_TOKEN_LOOKUP_COST, type ChainNftToken } from '../loaders/evm.ts';
import { ChainRef } from './chains.ts';
import { openEnumField } from './enums.ts';
import { BOUNDS, isDecimal } from './input-checks.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { ErcType, NftMetadataRef } from './transactions.ts';

/** An NFT (E19) plus the EVM chain it was read from. */
export type NftTokenShape = ChainNftToken;

export const NftTokenRef = builder.objectRef<NftTokenShape>('NftToken');

NftTokenRef.implement({
  description: 'One NFT of a collection on an EVM chain, with its indexed metadata (ERC-721; the public spec also allows ERC-1155 tokens).',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (n) => encodeGlobalId('NftToken', [n.chainId, () => n.address.toLowerCase(), () => n.tokenId]) }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', upstreamCost: CHAIN_LOOKUP_COST, resolve: (n, _args, ctx) => chainById(ctx).load(n.chainId) }),
    address: t.expose('address', { type: 'EvmAddress', description: 'Collection contract address.' }),
    name: t.exposeString('name', { nullable: true, description: 'Collection name.' }),
    symbol: t.exposeString('symbol', { nullable: true, description: 'Collection symbol.' }),
    ...openEnumField(t, 'ercType', ErcType, { description: 'ERC_721 (or ERC_1155).', value: (n) => n.ercType }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.expose('tokenUri', { type: 'URL', description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (n) => n.metadata }),
    ownerAddress: t.expose('ownerAddress', { type: 'EvmAddress', nullable: true, description: 'Current owner (ERC-721), when known.' }),
  }),
});

registerNodeFamily('NftToken', {
  refetchComputeUnits: NFT_TOKEN_LOOKUP_COST.computeUnits ?? 0,
  parts: [ID_PARTS.chainId, ID_PARTS.evmAddress, ID_PARTS.decimal],
  load: async (ctx, [chainId, address, tokenId]) =>
    chainId && address && tokenId && isEvmAddress(address) && isDecimal(tokenId) ? nftTokenOf(ctx, chainId, address, tokenId) : null,
  typeOf: () => 'NftToken',
});

builder.objectFields(ChainRef, (t) => ({
  nftToken: t.field({
    type: NftTokenRef,
    nullable: true,
    description: 'One NFT of a collection on this chain; null when the collection or token does not exist.',
    args: {
      address: t.arg.string({ required: true, description: 'Collection contract address.', bound: BOUNDS.evmAddress }),
      tokenId: t.arg.string({ required: true, description: 'Token id.', bound: BOUNDS.decimal }),
    },
    upstreamCost: NFT_TOKEN_LOOKUP_COST,
    resolve: (c, args, ctx) => nftTokenOf(ctx, c.chainId, args.address, args.tokenId),
  }),
}));
