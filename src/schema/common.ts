import { builder, type BuilderTypes } from './builder.ts';
import { CurrencyCodeEnum, openEnumField } from './enums.ts';
import { CURRENCY_CODES, type AssetAmount, type ChainInfo, type CurrencyCode, type Price } from '../shapes/index.ts';

/**
 * Small shared objects of the Data API seed, used by several domains (rewards,
 * UTXOs, EVM balances and tokens). Defined once here so no two modules register
 * the same GraphQL type name.
 */

/** A `CurrencyCode` argument as the upstream type (the enum's values are the upstream codes); undefined when omitted. */
export const currencyOf = (value: string | null | undefined): CurrencyCode | undefined => CURRENCY_CODES.find((code) => code === value);

export const PriceRef = builder.objectRef<Price>('Price').implement({
  description: 'An amount of money in a fiat currency.',
  fields: (t) => ({
    ...openEnumField(t, 'currencyCode', CurrencyCodeEnum, { description: 'The currency, e.g. `USD`: the same value as the `currency` argument that asked for it.', value: (p) => p.currencyCode }),
    value: t.exposeString('value', { description: 'The amount, a decimal string (e.g. "27.31").' }),
  }),
});

/** The fields of an asset amount, shared by `AssetAmount` and `AssetWithPriceInfo`. */
export const assetAmountFields = <T extends AssetAmount>(t: PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, T>) => ({
  assetId: t.string({ description: 'The asset id (cb58).', resolve: (a) => a.assetId }),
  name: t.string({ description: 'Asset name, e.g. "Avalanche".', resolve: (a) => a.name }),
  symbol: t.string({ description: 'Asset symbol, e.g. "AVAX".', resolve: (a) => a.symbol }),
  denomination: t.int({ description: 'Decimal places of the asset (9 for AVAX).', resolve: (a) => a.denomination }),
  type: t.string({ description: 'Asset type as the upstream names it (`secp256k1` or `nft`).', resolve: (a) => a.type }),
  amount: t.field({ type: 'UInt256', description: 'The amount in the smallest unit (nano-AVAX for AVAX).', resolve: (a) => a.amount }),
});

export const AssetAmountRef = builder.objectRef<AssetAmount>('AssetAmount').implement({
  description: 'An amount of one primary-network asset (AVAX or another X-chain asset).',
  fields: (t) => assetAmountFields(t),
});

export const ChainInfoRef = builder.objectRef<ChainInfo>('ChainInfo').implement({
  description: 'Which primary-network chain and network a listing was read from.',
  fields: (t) => ({
    chainName: t.exposeString('chainName', { description: 'Chain name: `p-chain`, `x-chain` or `c-chain`.' }),
    network: t.exposeString('network', { description: 'Network name as the upstream sent it (`mainnet`, `fuji`, `testnet`).' }),
  }),
});
