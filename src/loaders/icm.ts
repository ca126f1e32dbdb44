import { costs, type FieldCost } from '../lib/cost.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, type IcmMessage, withFields } from '../shapes/index.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * An ICM message plus how it was listed: E16 lists messages by address, and the
 * public spec's lookup by message id is not part of the seed, so a message's global
 * id keeps the address (and network) to find it again in that listing.
 */
export type ListedIcmMessage = IcmMessage & { listedAddress: string; listedNetwork?: NetworkId | undefined };

/** E16 as pages (`icmMessages`, `Address.icmMessages`): messages the address sent or received, newest first. */
export function icmMessagePages(ctx: LoaderContext, address: string, network?: NetworkId): FetchPage<ListedIcmMessage> {
  const { dataApi } = upstreamOf(ctx);
  const listedAddress = address.toLowerCase();
  return async (pageToken, pageSize) => {
    const page = await dataApi.listIcmMessages(
      listedAddress,
      { pageSize, ...(pageToken ? { pageToken } : {}), ...(network ? { network } : {}) },
      ctx.call,
    );
    return { items: page.messages.map((m) => withFields(m, { listedAddress, listedNetwork: network })), nextPageToken: page.nextPageToken };
  };
}
export const ICM_MESSAGE_LISTING_COST: FieldCost = costs.listing(PAGES.icmMessages);

/** How many E16 pages (of 100) {@link findIcmMessage} reads before giving up (null). */
export const MAX_ICM_REFETCH_PAGES = 10;

/**
 * A message found again in its address's listing (`node(id:)`): pages of 100, newest
 * first, until it shows up. Recent messages are on the first page; one older than
 * {@link MAX_ICM_REFETCH_PAGES} pages gives null, as does one that is gone.
 */
export async function findIcmMessage(ctx: LoaderContext, address: string, messageId: string, network?: NetworkId): Promise<ListedIcmMessage | null> {
  const { dataApi } = upstreamOf(ctx);
  let pageToken: string | undefined;
  for (let pages = 0; pages < MAX_ICM_REFETCH_PAGES; pages++) {
    const page = await dataApi.listIcmMessages(
      address,
      { pageSize: PAGES.icmMessages.maxSize, ...(pageToken ? { pageToken } : {}), ...(network ? { network } : {}) },
      ctx.call,
    );
    const found = page.messages.find((m) => m.messageId === messageId);
    if (found) return withFields(found, { listedAddress: address, listedNetwork: network });
    pageToken = page.nextPageToken;
    if (!pageToken) break;
  }
  return null;
}

/** Calls refetching these messages makes at most: {@link MAX_ICM_REFETCH_PAGES} pages each. */
export const icmRefetchCalls = (ids: readonly unknown[]): number => ids.length * MAX_ICM_REFETCH_PAGES;
