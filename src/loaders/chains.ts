import DataLoader from 'dataloader';
import type { Chain } from '../shapes/index.ts';
import { memoLoader, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

type ListScope = NetworkId | 'all';

/**
 * E17 once per request and scope (`mainnet`, `fuji` or every network): the chain
 * list is small and the same for every field that asks, so every `Chain` link of a
 * request is answered from it.
 */
function chainLists(ctx: LoaderContext): DataLoader<ListScope, Chain[]> {
  return memoLoader(ctx, 'chainsList', () =>
    new DataLoader<ListScope, Chain[]>((scopes) =>
      Promise.all(
        scopes.map(async (scope) => {
          const page = await ctx.dataApi.listChains(scope === 'all' ? {} : { network: scope }, ctx.call);
          return page.chains;
        }),
      ),
    ),
  );
}

/** The EVM chains of one network, or of every network when `network` is omitted (E17, once per request per scope). */
export function chainsList(ctx: LoaderContext, network?: NetworkId): Promise<Chain[]> {
  return chainLists(ctx).load(network ?? 'all');
}

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
