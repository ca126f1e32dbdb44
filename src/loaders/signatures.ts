import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import type { AggregateSignaturesBody, SignedMessage } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/** Warp signature aggregation: E1 (aggregate a message's signatures) and E2 (those of a P- or X-chain transaction). */

/** E2: the aggregated signatures of an L1-related transaction's Warp message, or null when the transaction is unknown. */
export function aggregatedSignaturesOf(ctx: LoaderContext, network: NetworkId, txHash: string): Promise<SignedMessage | null> {
  const { dataApi } = upstreamOf(ctx);
  return nullOnNotFound(dataApi.getAggregatedSignatures(network, txHash, ctx.call));
}
export const AGGREGATED_SIGNATURES_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getAggregatedSignatures);

/** E1: collects the signing subnet's BLS signatures of a message until the quorum is met. */
export function aggregateSignatures(ctx: LoaderContext, network: NetworkId, body: AggregateSignaturesBody): Promise<SignedMessage> {
  const { dataApi } = upstreamOf(ctx);
  return dataApi.aggregateSignatures(network, body, ctx.call);
}
export const AGGREGATE_SIGNATURES_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.aggregateSignatures);
