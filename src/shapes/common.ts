/**
 * What every part of the Data API shares: the network names, currencies, the
 * primary network's fixed ids, the error body, prices, amounts, page envelopes.
 * Named and shaped as in the seed (`shared/seeds/chain-data-rest-api.md`); where
 * the seed gives no type, its conventions decide (amounts are decimal strings,
 * counts and timestamps integers) and the public spec decides presence.
 */
import * as v from 'valibot';
import { isCarriablePageToken } from '../lib/pages.ts';
import { isObject, perKit, type Kit } from './kit.ts';

export type Network = 'mainnet' | 'fuji' | 'testnet';
export const NETWORKS = ['mainnet', 'fuji', 'testnet'] as const satisfies readonly Network[];
export type SortOrder = 'asc' | 'desc';
export const CURRENCY_CODES = [
  'usd', 'eur', 'aud', 'cad', 'chf', 'clp', 'cny', 'czk', 'dkk', 'gbp', 'hkd', 'huf', 'jpy', 'nzd',
] as const;
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** The P-chain id, which is also the primary network's subnet id. */
export const PRIMARY_NETWORK_ID = '11111111111111111111111111111111LpoYY';

/** Fixed primary-network blockchain ids (from the public spec's `BlockchainId` enum). */
export const PRIMARY_CHAIN_IDS = {
  mainnet: {
    p: PRIMARY_NETWORK_ID,
    x: '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM',
    c: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5',
  },
  fuji: {
    p: PRIMARY_NETWORK_ID,
    x: '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm',
    c: 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp',
  },
} as const;

/** Paging of every list request. */
export interface PageParams {
  pageToken?: string;
  pageSize?: number;
}

/** The page envelope of every list response. */
export interface Page {
  nextPageToken?: string;
}

/**
 * The spec says an omitted or empty `nextPageToken` means the last page; only the
 * omitted form goes up (so `'nextPageToken' in page` means there is a next page).
 */
function dropEmptyPageToken(raw: unknown): unknown {
  if (isObject(raw) && (raw.nextPageToken === '' || raw.nextPageToken === null)) delete raw.nextPageToken;
  return raw;
}

export const describeCommon = perKit((k: Kit) => {
  /** The seed's error body; the spec allows a list of messages (the client joins them). */
  const ErrorBody = v.object({
    message: k.readAlso(k.string, v.array(v.string())),
    statusCode: k.integer,
    error: k.string,
  });

  /** A price or money amount in one currency. */
  const Price = v.object({
    currencyCode: k.pattern(/^[a-z]+$/, 'a lowercase currency code'),
    value: k.priceValue,
  });

  /** The public spec's RichAddress: only `address` is required. */
  const AddressInfo = v.object({
    name: v.optional(k.string),
    symbol: v.optional(k.string),
    decimals: v.optional(k.int32),
    logoUri: v.optional(k.string),
    address: k.string,
  });

  const AssetAmount = v.object({
    assetId: k.string,
    name: k.string,
    symbol: k.string,
    denomination: k.int32,
    type: k.string,
    amount: k.decimal,
  });

  /** Which chain and network a primary-network listing (E4, E15, E18) came from. */
  const ChainInfo = v.object({
    chainName: k.string,
    network: k.openEnum(NETWORKS),
  });

  return { ErrorBody, Price, AddressInfo, AssetAmount, ChainInfo };
});

/**
 * A list response: the optional `nextPageToken` and the fields of `entries` (the
 * item list, and `chainInfo` or a balance where the seed adds one).
 */
export function pageOf<E extends v.ObjectEntries>(k: Kit, entries: E) {
  return k.variant(dropEmptyPageToken, v.object({ nextPageToken: v.optional(PAGE_TOKEN), ...entries }));
}

/**
 * A page token: any text the gateway can carry in a cursor and send back (`isCarriablePageToken`);
 * one it cannot (a control character, over 4 KiB) breaks the field, so the read that needs it fails
 * with the operation named, not a cursor minted later.
 */
const PAGE_TOKEN = v.pipe(v.string(), v.check(isCarriablePageToken, 'expected a page token of at most 4096 bytes without control characters'));

type Common = ReturnType<typeof describeCommon>;

export type ErrorBody = v.InferOutput<Common['ErrorBody']>;
/** `value` is a decimal string; the public spec's number is read as one. */
export type Price = v.InferOutput<Common['Price']>;
export type AddressInfo = v.InferOutput<Common['AddressInfo']>;
export type AssetAmount = v.InferOutput<Common['AssetAmount']>;
export type ChainInfo = v.InferOutput<Common['ChainInfo']>;
