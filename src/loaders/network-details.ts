import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { AvaxSupply, NetworkDetails } from '../shapes/index.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/**
 * A network's staking summary (getNetworkDetails), once per request and network:
 * every `Network.details` of the request shares it.
 */
export function networkDetails(ctx: LoaderContext): DataLoader<NetworkId, NetworkDetails> {
  return memoLoader(ctx, 'networkDetails', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<NetworkId, NetworkDetails>((networks) => Promise.all(networks.map((network) => dataApi.getNetworkDetails(network, ctx.call))));
  });
}

/** `Network.details`: one call per network at most (two networks). */
export const NETWORK_DETAILS_COST: FieldCost = weighing(costs.oncePerScope(2), ENDPOINTS.getNetworkDetails);

/**
 * The AVAX supply (getAvaxSupply), once per request. The upstream has no network
 * parameter: it is mainnet's AVAX (the only network whose supply it reports).
 */
export function avaxSupply(ctx: LoaderContext): Promise<AvaxSupply> {
  return memoLoader(ctx, 'avaxSupply', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<'supply', AvaxSupply>((keys) => dataApi.getAvaxSupply(ctx.call).then((supply) => keys.map(() => supply)));
  }).load('supply');
}

/** `Network.avaxSupply`: one call per request however many parents. */
export const AVAX_SUPPLY_COST: FieldCost = weighing(costs.oncePerScope(1), ENDPOINTS.getAvaxSupply);
