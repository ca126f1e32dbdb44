import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, withFields, type L1Validator, type ListL1ValidatorsParams } from '../shapes/index.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * The L1 validators of a network (listL1Validators) as pages for the schema's
 * connections, network-wide or pinned to one subnet. The listing takes one subnet id
 * per call, so a page of subnets costs one listing per L1 among them: no loader can
 * pack several subnets' validators into one call and still page each on its own.
 */

/** An L1 validation plus its network and the P-chain height its balance was computed at. */
export type L1ValidatorOnNetwork = L1Validator & { network: NetworkId; blockHeight: string };

/** What a listing may be narrowed to (the query parameters besides the page). */
export type L1ValidatorFilter = Omit<ListL1ValidatorsParams, 'pageSize' | 'pageToken'>;

/** listL1Validators as pages. */
export function l1ValidatorPages(ctx: LoaderContext, network: NetworkId, filter: L1ValidatorFilter): FetchPage<L1ValidatorOnNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listL1Validators(network, { ...filter, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
    // The page's height is read when a field asks for it: a broken one fails that field alone, not the page.
    const items = page.validators.map((v) =>
      Object.defineProperty(withFields(v, { network }), 'blockHeight', { get: () => page.blockHeight, enumerable: true }) as L1ValidatorOnNetwork);
    return { items, nextPageToken: page.nextPageToken };
  };
}
/** One listing per parent (and one more to continue from a cursor). */
export const L1_VALIDATOR_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.l1Validators), ENDPOINTS.listL1Validators);
