import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import type { Chain } from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

type ListScope = NetworkId | 'all';

/**
 * E17 once per request and scope (`mainnet`, `fuji` or every network): the chain
 * list is small and the same for every field that asks, so every `Chain` link of a
 * request is answered from it.
 */
function chainLists(ctx: LoaderContext): DataLoader<ListScope, Chain[]> {
  return memoLoader(ctx, 'chainsList', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<ListScope, Chain[]>((scopes) =>
      Promise.all(
        scopes.map(async (scope) => {
          const page = await dataApi.listChains(scope === 'all' ? {} : { network: scope }, ctx.call);
          return page.chains;
        }),
      ),
    );
  });
}

/** The EVM chains of one network, or of every network when `network` is omitted (E17, once per request per scope). */
export function chainsList(ctx: LoaderContext, network?: NetworkId): Promise<Chain[]> {
  return chainLists(ctx).load(network ?? 'all');
}

/**
 * Chains the chain list (E17) is taken to hold at most, for the cost of what is
 * asked under `chains` (one lookup per chain): the Data API indexes a few dozen.
 * Past it the run-time budget holds.
 */
export const MAX_CHAINS = 100;

/** `chains`: one chain list (of one network or all), up to {@link MAX_CHAINS} chains. */
export const CHAIN_LIST_COST: FieldCost = weighing(costs.list(() => MAX_CHAINS, () => 1), ENDPOINTS.listChains);

/**
 * A chain by EVM chain id (`43114`) or blockchain id (the chain's `platformChainId`),
 * answered from the one all-networks list of the request; null when unknown.
 */
export function chainById(ctx: LoaderContext): DataLoader<string, Chain | null> {
  return memoLoader(ctx, 'chainById', () =>
    new DataLoader<string, Chain | null>(async (ids) => {
      const chains = await chainsList(ctx);
      const byId = new Map<string, Chain>();
      for (const chain of chains) {
        byId.set(chain.chainId, chain);
        if (chain.platformChainId && !byId.has(chain.platformChainId)) byId.set(chain.platformChainId, chain);
      }
      return ids.map((id) => byId.get(id) ?? null);
    }),
  );
}

/** A link answered by {@link chainById}: the one chain list of the request, however many parents ask. */
export const CHAIN_LOOKUP_COST: FieldCost = weighing(costs.oncePerScope(1), ENDPOINTS.listChains, ENDPOINTS.getChainInfo);

/** Calls refetching chains (or addresses, which check their chain) by id makes: the one chain list. */
export const chainRefetchCalls = (): number => 1;

/**
 * A chain read directly (getChainInfo) when it is asked alone, as `Query.chain` and a
 * federation reference keyed by `chainId` usually are; when one batch asks for several
 * chains, the one chain list of the request answers them all instead. Either way a
 * batch costs one call. Null when the Data API does not index the chain.
 */
export function chainInfoById(ctx: LoaderContext): DataLoader<string, Chain | null> {
  return memoLoader(ctx, 'chainInfoById', () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, Chain | null>(async (ids) => {
      const [only] = ids;
      if (ids.length === 1 && only !== undefined) return [await nullOnNotFound(dataApi.getChainInfo(only, ctx.call))];
      return chainById(ctx).loadMany(ids);
    });
  });
}

/** `Query.chain`: one call per field at most (getChainInfo, or the chain list for several in one batch). */
export const CHAIN_INFO_COST: FieldCost = weighing(costs.perParent(), ENDPOINTS.getChainInfo);
