import { builder } from '../builder.ts';
import { chainById } from '../loaders/chains.ts';
import { costs } from '../lib/cost.ts';
import type { NftToken } from '../shapes/index.ts';
import { ChainRef, loadNftToken } from './chains.ts';
import { UNKNOWN_ENUM_VALUE } from './enums.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { ErcType, NftMetadataRef } from './transactions.ts';

/** An NFT (E19) plus the EVM chain it was read from. */
export type NftTokenShape = NftToken & { chainId: string };

export const NftTokenRef = builder.objectRef<NftTokenShape>('NftToken');

NftTokenRef.implement({
  description: 'One NFT of a collection on an EVM chain, with its indexed metadata (ERC-721; the public spec also allows ERC-1155 tokens).',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.id({ description: 'Global id.', resolve: (n) => encodeGlobalId('NftToken', [n.chainId, n.address.toLowerCase(), n.tokenId]) }),
    chain: t.field({ type: ChainRef, nullable: true, description: 'The chain.', extensions: { cost: costs.oncePerScope(1) }, resolve: (n, _args, ctx) => chainById(ctx).load(n.chainId) }),
    address: t.exposeString('address', { description: 'Collection contract address.' }),
    name: t.exposeString('name', { nullable: true, description: 'Collection name.' }),
    symbol: t.exposeString('symbol', { nullable: true, description: 'Collection symbol.' }),
    ercType: t.field({ type: ErcType.ref, description: 'ERC_721 (or ERC_1155).', resolve: (n) => ErcType.out(n.ercType) ?? UNKNOWN_ENUM_VALUE }),
    tokenId: t.exposeString('tokenId', { description: 'Token id, decimal string (uint256).' }),
    tokenUri: t.exposeString('tokenUri', { description: 'Token URI.' }),
    metadata: t.field({ type: NftMetadataRef, description: 'Indexed metadata.', resolve: (n) => n.metadata }),
    ownerAddress: t.exposeString('ownerAddress', { nullable: true, description: 'Current owner (ERC-721), when known.' }),
  }),
});

registerNodeFamily('NftToken', {
  parts: [ID_PARTS.chainId, ID_PARTS.evmAddress, ID_PARTS.decimal],
  load: async (ctx, [chainId, address, tokenId]) => {
    if (!chainId || !address || !tokenId || !/^0x[0-9a-fA-F]{40}$/.test(address) || !/^[0-9]+$/.test(tokenId)) return null;
    return loadNftToken(ctx, chainId, address, tokenId);
  },
  typeOf: () => 'NftToken',
});
