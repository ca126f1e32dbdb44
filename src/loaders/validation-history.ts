import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { FetchPage } from '../lib/pages.ts';
import { PAGES, type GetValidatorDetailsParams } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import { withNetwork, type ValidatorWithNetwork } from './staking.ts';
import type { NetworkId } from './types.ts';

/**
 * A node's whole validation history (getSingleValidatorDetails) as pages: every time
 * the node validated, on the primary network and on subnets, each its own record.
 * The endpoint takes one node id, so each parent (a node, a validation) reads its own
 * listing; `nodeValidations` (validators.ts) reads the same endpoint for a batch of one node, every validation of it.
 */
export function validationHistoryPages(
  ctx: LoaderContext,
  network: NetworkId,
  nodeId: string,
  params: Omit<GetValidatorDetailsParams, 'pageSize' | 'pageToken'>,
): FetchPage<ValidatorWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await nullOnNotFound(dataApi.getValidatorDetails(network, nodeId, { ...params, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call));
    // A node the indexer never saw validate has no history: an empty one, as the lookup reads it.
    if (!page) return { items: [] };
    return { items: page.validators.map((v) => withNetwork(network, v)), nextPageToken: page.nextPageToken };
  };
}

/** One getSingleValidatorDetails listing per parent (its page, plus one with `after`): the endpoint takes one node. */
export const VALIDATION_HISTORY_COST: FieldCost = weighing(costs.listing(PAGES.validationHistory), ENDPOINTS.getValidatorDetails);
