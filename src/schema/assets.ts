import { builder } from './builder.ts';
import { ASSET_LINK_COST, assetById, type AssetOnNetwork } from '../loaders/primary-tx.ts';
import { PRIMARY_ASSET_CAPS, PRIMARY_ASSET_TYPES, type AggregatedAssetAmount, type SharedAssetAmount } from '../shapes/index.ts';
import type { NetworkId } from '../loaders/types.ts';
import { upstreamEnum, openEnumField } from './enums.ts';
import { BOUNDS } from './input-checks.ts';
import { isNetwork, PrimaryBlockchainRef } from './primary-chain.ts';
import { encodeGlobalId, ID_PARTS, NodeInterface, registerNodeFamily } from './relay-node.ts';
import { unixSecondsToDate } from './scalars.ts';
import { UtxoRef } from './utxos.ts';

/**
 * `Asset`, a primary-network asset (getAssetDetails: AVAX and the assets made on the
 * X-chain), `PrimaryBlockchain.asset(assetId:)`, and the `assetDetails` links of
 * UTXOs and balances. Assets are made on the X-chain, so every link asks there,
 * whichever chain the UTXO or balance is on.
 */

export const PrimaryAssetType = upstreamEnum('PrimaryAssetType', 'Kind of a primary-network asset.', {
  SECP256K1: { value: PRIMARY_ASSET_TYPES[0], description: 'A fungible asset (secp256k1 outputs), such as AVAX.' },
  NFT: { value: PRIMARY_ASSET_TYPES[1], description: 'A non-fungible asset.' },
});

export const PrimaryAssetCap = upstreamEnum('PrimaryAssetCap', 'Whether an asset\'s supply can grow.', {
  FIXED: { value: PRIMARY_ASSET_CAPS[0], description: 'A fixed supply, minted at creation.' },
  VARIABLE: { value: PRIMARY_ASSET_CAPS[1], description: 'A supply its minters can grow.' },
});

export const AssetRef = builder.objectRef<AssetOnNetwork>('Asset').implement({
  description: 'A primary-network asset (AVAX or an asset created on the X-chain), as getAssetDetails describes it.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'assetId' in value && 'createdAtTimestamp' in value,
  fields: (t) => ({
    id: t.id({ nullable: false, description: 'Global id.', resolve: (a) => encodeGlobalId('Asset', [a.network, () => a.assetId]) }),
    network: t.field({ type: 'String', nullable: false, description: 'Network (mainnet or fuji).', resolve: (a) => a.network }),
    assetId: t.exposeString('assetId', { description: 'The asset id (cb58; the id of the transaction that created it).' }),
    name: t.exposeString('name', { description: 'Asset name, e.g. "Avalanche".' }),
    symbol: t.exposeString('symbol', { description: 'Asset symbol, e.g. "AVAX".' }),
    denomination: t.exposeInt('denomination', { description: 'Decimal places of the asset (9 for AVAX).' }),
    ...openEnumField(t, 'type', PrimaryAssetType, { description: 'Kind of asset.', value: (a) => a.type }),
    createdAtTimestamp: t.expose('createdAtTimestamp', { type: 'UInt64', description: 'When the asset was created, unix seconds.' }),
    createdAt: t.field({ type: 'DateTime', nullable: true, description: 'When the asset was created: `createdAtTimestamp` as a DateTime.', resolve: (a) => unixSecondsToDate(a.createdAtTimestamp) }),
    ...openEnumField(t, 'cap', PrimaryAssetCap, { description: 'Whether the supply is fixed or variable.', value: (a) => a.cap }),
  }),
});

registerNodeFamily('Asset', {
  refetchComputeUnits: ASSET_LINK_COST.computeUnits ?? 0,
  parts: [ID_PARTS.network, ID_PARTS.cb58Id],
  load: async (ctx, [network, assetId]) => (isNetwork(network) && assetId ? assetById(ctx, network, assetId) : null),
  typeOf: () => 'Asset',
});

/** An asset's `assetDetails` link from anything that names an asset on a network. */
export const assetLinkField = <P>(t: PothosSchemaTypes.ObjectFieldBuilder<import('./builder.ts').BuilderTypes, P>, of: (parent: P) => { network: NetworkId; assetId: string }) =>
  t.field({
    type: AssetRef,
    nullable: true,
    description: 'The asset itself (name, symbol, denomination, cap, creation), read once per asset and request.',
    upstreamCost: ASSET_LINK_COST,
    resolve: (parent, _args, ctx) => {
      const { network, assetId } = of(parent);
      return assetById(ctx, network, assetId);
    },
  });

builder.objectFields(PrimaryBlockchainRef, (t) => ({
  asset: t.field({
    type: AssetRef,
    nullable: true,
    description: 'A primary-network asset by id (getAssetDetails, asked on the X-chain, where assets are created); null when unknown.',
    args: { assetId: t.arg.string({ required: true, description: 'The asset id.', bound: BOUNDS.assetId }) },
    upstreamCost: ASSET_LINK_COST,
    resolve: (b, args, ctx) => assetById(ctx, b.network, args.assetId),
  }),
}));

builder.objectFields(UtxoRef, (t) => ({
  assetDetails: assetLinkField(t, (u) => ({ network: u.network, assetId: u.asset.assetId })),
}));

/** One asset's total in a balance, with the network it was read on. */
export type AssetBalanceShape = (AggregatedAssetAmount | SharedAssetAmount) & { network: NetworkId };

export const AssetBalanceRef = builder.objectRef<AssetBalanceShape>('PrimaryAssetBalance').implement({
  description: 'The total of one asset over some UTXOs of the balance\'s addresses.',
  fields: (t) => ({
    assetId: t.exposeString('assetId', { description: 'The asset id (cb58).' }),
    name: t.exposeString('name', { description: 'Asset name.' }),
    symbol: t.exposeString('symbol', { description: 'Asset symbol.' }),
    denomination: t.exposeInt('denomination', { description: 'Decimal places of the asset.' }),
    type: t.exposeString('type', { description: 'Asset type as the upstream names it (`secp256k1` or `nft`).' }),
    amount: t.field({ type: 'UInt256', description: 'The total, in the smallest unit.', resolve: (a) => a.amount }),
    utxoCount: t.exposeInt('utxoCount', { description: 'UTXOs summed.' }),
    sharedWithChainId: t.string({ nullable: true, description: 'For atomic memory: the chain the UTXOs are shared with.', resolve: (a) => ('sharedWithChainId' in a ? a.sharedWithChainId : null) }),
    status: t.string({ nullable: true, description: 'For P-chain atomic memory: the upstream\'s status of the shared UTXOs.', resolve: (a) => ('status' in a ? (a.status ?? null) : null) }),
    assetDetails: assetLinkField(t, (a) => ({ network: a.network, assetId: a.assetId })),
  }),
});
