import DataLoader from 'dataloader';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { costs, type FieldCost, weighing } from '../lib/cost.ts';
import { scanPages, type FetchPage } from '../lib/pages.ts';
import {
  PAGES, PRIMARY_NETWORK_ID, primaryNetworkSubnet, type Blockchain, type SortOrder, type Subnet, withFields,
} from '../shapes/index.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, networkKeys, upstreamOf, type LoaderContext } from './registry.ts';
import type { NetworkId } from './types.ts';

/** Loader keys per network (see `networkKeys`). */
const SUBNET_BY_ID_KEYS = networkKeys('subnetById');
const BLOCKCHAIN_BY_ID_KEYS = networkKeys('blockchainById');
const SUBNET_LOOKUP_KEYS = networkKeys('subnetLookup');
const BLOCKCHAIN_LOOKUP_KEYS = networkKeys('blockchainLookup');
/** Where a request notes the networks whose subnet list it has started reading. */
const INDEX_STARTED = 'subnetIndexStarted';

/**
 * How the request's subnet list is read: E7's largest page (the whole list usually fits
 * in one call), following `nextPageToken` to at most `maxPages` pages, all of which
 * the links read from it declare (an upstream may answer short pages with a token).
 */
export const SUBNET_INDEX = { pageSize: 10000, maxPages: 3 } as const;

/** A subnet as listed, plus the network it was read from (its blockchains carry it too). */
export type SubnetWithNetwork = Omit<Subnet, 'blockchains'> & { network: NetworkId; blockchains: BlockchainWithNetwork[] };
/** A blockchain as listed, plus the network it was read from. */
export type BlockchainWithNetwork = Blockchain & { network: NetworkId };

/** Attaches the network to a subnet and its blockchains (the upstream objects do not say which network). */
export function subnetWithNetwork(network: NetworkId, subnet: Subnet): SubnetWithNetwork {
  if (!Object.isFrozen(subnet)) return copySubnet(network, subnet);
  // A shared (cached, frozen) subnet: copied once, frozen, and handed out again while it lives.
  const known = subnetCopies.get(subnet);
  if (known?.network === network) return known;
  const copy = copySubnet(network, subnet);
  for (const chain of copy.blockchains) Object.freeze(chain);
  Object.freeze(copy.blockchains);
  subnetCopies.set(subnet, Object.freeze(copy));
  return copy;
}

const subnetCopies = new WeakMap<object, SubnetWithNetwork>();

function copySubnet(network: NetworkId, subnet: Subnet): SubnetWithNetwork {
  return withFields(subnet, { network, blockchains: subnet.blockchains.map((b) => withFields(b, { network })) });
}

/** Every subnet of a network and every blockchain they own, by id. */
export interface SubnetIndex {
  subnets: Map<string, SubnetWithNetwork>;
  blockchains: Map<string, BlockchainWithNetwork>;
}

/**
 * The whole subnet list of a network, read once per request (E7 with the largest
 * page, following `nextPageToken` to {@link SUBNET_INDEX}'s bound), plus the
 * synthesized primary network when the upstream does not list it. Past the bound
 * (30,000 subnets in full pages) the index holds what it read: a subnet beyond it is
 * not found (null), never a failed query.
 */
export function subnetIndex(ctx: LoaderContext): DataLoader<NetworkId, SubnetIndex> {
  return memoLoader(ctx, 'subnetIndex', () =>
    new DataLoader<NetworkId, SubnetIndex>((networks) =>
      Promise.all(
        networks.map(async (network) => {
          indexStarted(ctx).add(network);
          const subnets = new Map<string, SubnetWithNetwork>();
          await scanPages(subnetPages(ctx, network), SUBNET_INDEX.pageSize, SUBNET_INDEX.maxPages, (items) => {
            for (const subnet of items) subnets.set(subnet.subnetId, subnet);
          });
          if (!subnets.has(PRIMARY_NETWORK_ID)) subnets.set(PRIMARY_NETWORK_ID, subnetWithNetwork(network, primaryNetworkSubnet(network)));
          const blockchains = new Map<string, BlockchainWithNetwork>();
          for (const subnet of subnets.values()) {
            for (const chain of subnet.blockchains) blockchains.set(chain.blockchainId, chain);
          }
          return { subnets, blockchains };
        }),
      ),
    ),
  );
}

/**
 * What a link answered from the subnet list costs: one list per network however many
 * parents (two networks at most), each read to {@link SUBNET_INDEX}'s bound in full.
 */
export const SUBNET_LIST_COST: FieldCost = weighing(costs.oncePerScope(2, SUBNET_INDEX.maxPages), ENDPOINTS.listSubnets);

/** What a link answered from the subnet list says of its bound, for the field's description. */
export const SUBNET_LIST_NOTE = `Read from the request's one subnet list (at most ${SUBNET_INDEX.maxPages} pages of ${SUBNET_INDEX.pageSize}); null when the id is not within it.`;

/** Calls refetching subnets or blockchains of these networks makes: one subnet list per network (a lone id is one direct read). */
export const subnetRefetchCalls = (networks: readonly string[]): number => new Set(networks).size * SUBNET_INDEX.maxPages;

/** E7 as pages (`Network.subnets`), each subnet with its network. */
export function subnetPages(ctx: LoaderContext, network: NetworkId, sortOrder?: SortOrder): FetchPage<SubnetWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listSubnets(network, { pageSize, ...(pageToken ? { pageToken } : {}), ...(sortOrder ? { sortOrder } : {}) }, ctx.call);
    return { items: page.subnets.map((s) => subnetWithNetwork(network, s)), nextPageToken: page.nextPageToken };
  };
}
export const SUBNET_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.subnets), ENDPOINTS.listSubnets);

/** A subnet by id (null when the network has none such), from the request's one subnet list. */
export function subnetById(ctx: LoaderContext, network: NetworkId): DataLoader<string, SubnetWithNetwork | null> {
  return memoLoader(ctx, SUBNET_BY_ID_KEYS(network), () =>
    new DataLoader<string, SubnetWithNetwork | null>(async (ids) => {
      const index = await subnetIndex(ctx).load(network);
      return ids.map((id) => index.subnets.get(id) ?? null);
    }),
  );
}

/** A blockchain by id (null when no subnet of the network owns it), from the request's one subnet list. */
export function blockchainById(ctx: LoaderContext, network: NetworkId): DataLoader<string, BlockchainWithNetwork | null> {
  return memoLoader(ctx, BLOCKCHAIN_BY_ID_KEYS(network), () =>
    new DataLoader<string, BlockchainWithNetwork | null>(async (ids) => {
      const index = await subnetIndex(ctx).load(network);
      return ids.map((id) => index.blockchains.get(id) ?? null);
    }),
  );
}

/** The networks whose subnet list this request has started reading (request-scoped, like the loaders). */
function indexStarted(ctx: LoaderContext): Set<NetworkId> {
  let started = ctx.loaders.get(INDEX_STARTED) as Set<NetworkId> | undefined;
  if (!started) {
    started = new Set();
    ctx.loaders.set(INDEX_STARTED, started);
  }
  return started;
}

/**
 * A lookup by id that reads one object directly when that is the cheaper call, else
 * the request's one subnet list: a batch asking for a single id, with the list not
 * yet read in this request, costs one small direct read (getSubnetById,
 * getBlockchainById); a batch of several ids, or any batch once the list is being
 * read, is answered from the list (one call per network however many ids).
 */
function directOrIndexed<T>(
  ctx: LoaderContext,
  network: NetworkId,
  direct: (id: string) => Promise<T | null>,
  fromIndex: (index: SubnetIndex, id: string) => T | null,
): (ids: readonly string[]) => Promise<(T | null)[]> {
  return async (ids) => {
    const distinct = new Set(ids);
    if (distinct.size === 1 && !indexStarted(ctx).has(network)) {
      const found = await direct(ids[0] as string);
      return ids.map(() => found);
    }
    const index = await subnetIndex(ctx).load(network);
    return ids.map((id) => fromIndex(index, id));
  };
}

/**
 * `Network.subnet(subnetId:)` and `Subnet` refetch: a subnet by id, read directly
 * (getSubnetById) when the batch holds one id, else from the subnet list (see
 * {@link directOrIndexed}). The primary network is answered even when the
 * upstream does not know it by id. Null when the network has no such subnet.
 */
export function subnetLookup(ctx: LoaderContext, network: NetworkId): DataLoader<string, SubnetWithNetwork | null> {
  return memoLoader(ctx, SUBNET_LOOKUP_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, SubnetWithNetwork | null>(
      directOrIndexed(
        ctx,
        network,
        async (id) => {
          const subnet = await nullOnNotFound(dataApi.getSubnet(network, id, ctx.call));
          if (subnet) return subnetWithNetwork(network, subnet);
          return id === PRIMARY_NETWORK_ID ? subnetWithNetwork(network, primaryNetworkSubnet(network)) : null;
        },
        (index, id) => index.subnets.get(id) ?? null,
      ),
    );
  });
}

/**
 * `Blockchain` refetch: a blockchain by id, read directly (getBlockchainById) when
 * the batch holds one id, else from the subnet list (see {@link directOrIndexed}).
 * Null when no subnet of the network owns it.
 */
export function blockchainLookup(ctx: LoaderContext, network: NetworkId): DataLoader<string, BlockchainWithNetwork | null> {
  return memoLoader(ctx, BLOCKCHAIN_LOOKUP_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, BlockchainWithNetwork | null>(
      directOrIndexed(
        ctx,
        network,
        async (id) => {
          const chain = await nullOnNotFound(dataApi.getBlockchain(network, id, ctx.call));
          if (chain) return withFields(chain, { network });
          const primary = primaryNetworkSubnet(network).blockchains.find((b) => b.blockchainId === id);
          return primary ? withFields(primary, { network }) : null;
        },
        (index, id) => index.blockchains.get(id) ?? null,
      ),
    );
  });
}

/**
 * A lookup through {@link subnetLookup} or {@link blockchainLookup}: per network the
 * direct read of a lone id, or the list for several (aliases batch together), so the
 * list's bound per network, as for the links read from the list.
 */
export const SUBNET_LOOKUP_COST: FieldCost = weighing(costs.oncePerScope(2, SUBNET_INDEX.maxPages), ENDPOINTS.listSubnets, ENDPOINTS.getSubnet);

/** listBlockchains as pages (`Network.blockchains`), each blockchain with its network. */
export function blockchainPages(ctx: LoaderContext, network: NetworkId, sortOrder?: SortOrder): FetchPage<BlockchainWithNetwork> {
  const { dataApi } = upstreamOf(ctx);
  return async (pageToken, pageSize) => {
    const page = await dataApi.listBlockchains(network, { pageSize, ...(pageToken ? { pageToken } : {}), ...(sortOrder ? { sortOrder } : {}) }, ctx.call);
    return { items: page.blockchains.map((b) => withFields(b, { network })), nextPageToken: page.nextPageToken };
  };
}
export const BLOCKCHAIN_LISTING_COST: FieldCost = weighing(costs.listing(PAGES.blockchains), ENDPOINTS.listBlockchains, ENDPOINTS.getBlockchain);
