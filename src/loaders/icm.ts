import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, type IcmMessage, type ListAllIcmMessagesParams } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/** The filters of the all-messages listing (listIcmMessages), under the spec's parameter names. */
export type IcmMessageFilters = Pick<ListAllIcmMessagesParams, 'sourceBlockchainId' | 'destinationBlockchainId' | 'blockchainId' | 'to' | 'from'>;

/**
 * ICM messages as pages, newest first: an address's messages (E16, `address` given)
 * or every message the Data API indexes, narrowed by `filters` (listIcmMessages,
 * `address` omitted). Both answer the same message objects.
 */
export function icmMessagePages(
  ctx: LoaderContext,
  address: string | undefined,
  network?: NetworkId,
  filters: IcmMessageFilters = {},
): FetchPage<IcmMessage> {
  const { dataApi } = upstreamOf(ctx);
  const listedAddress = address?.toLowerCase();
  return async (pageToken, pageSize) => {
    const paging = { pageSize, ...(pageToken ? { pageToken } : {}), ...(network ? { network } : {}) };
    const page = listedAddress === undefined
      ? await dataApi.listAllIcmMessages({ ...paging, ...definedOnly(filters) }, ctx.call)
      : await dataApi.listIcmMessages(listedAddress, paging, ctx.call);
    return { items: page.messages, nextPageToken: page.nextPageToken };
  };
}
export const ICM_MESSAGE_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.icmMessages), ENDPOINTS.listIcmMessages, ENDPOINTS.listAllIcmMessages);

function definedOnly(filters: IcmMessageFilters): IcmMessageFilters {
  const out: IcmMessageFilters = {};
  for (const key of ['sourceBlockchainId', 'destinationBlockchainId', 'blockchainId', 'to', 'from'] as const) {
    const value = filters[key];
    if (value) out[key] = value;
  }
  return out;
}

/**
 * A message by its id (getIcmMessage), null when the Data API has none such. One call
 * per distinct id, memoized for the request: the upstream has no batch form, and
 * the listings cannot be asked for a set of ids.
 */
export function icmMessageById(ctx: LoaderContext): DataLoader<string, IcmMessage | null, string> {
  return memoLoader(ctx, 'icmMessageById', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, IcmMessage | null, string>(
      (ids) => Promise.all(ids.map((id) => nullOnNotFound(dataApi.getIcmMessage(normalizeMessageId(id), ctx.call)))),
      { cacheKeyFn: normalizeMessageId },
    );
  });
}

/** `icmMessage(messageId:)`: one getIcmMessage per parent at most (the same id is read once per request). */
export const ICM_MESSAGE_LOOKUP_COST: FieldCost = weighing(costs.perParent(1), ENDPOINTS.getIcmMessage);

/** Calls refetching these messages makes: one getIcmMessage per distinct message id (the second part of an id). */
export const icmRefetchCalls = (ids: readonly (readonly string[])[]): number => new Set(ids.map((parts) => normalizeMessageId(parts[1] ?? ''))).size;

/** A message id as the Data API writes it: 64 lower-case hex digits, without `0x`. */
export function normalizeMessageId(messageId: string): string {
  return messageId.replace(/^0x/i, '').toLowerCase();
}
