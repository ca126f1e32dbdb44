import DataLoader from 'dataloader';
import {
  PRIMARY_NETWORK_ID, type CurrencyCode, type Delegator, type DelegationStatus, type HistoricalReward, type PendingReward,
  type SortOrder, type Validator, type WideInteger,
} from '../shapes/index.ts';
import { loadFirstPages, type PerParentKey } from './per-parent.ts';
import { passedPeriod, timeOf } from './staking-time.ts';
import { isCb58Id, isNodeId } from '../lib/ids.ts';
import { type FieldCost, weighing } from '../lib/cost.ts';
import { ENDPOINTS } from '../upstream/endpoints.ts';
import { upstreamValueError } from '../errors/graphql.ts';
import { nullOnNotFound } from './not-found.ts';
import { memoLoader, networkKeys, upstreamOf, type LoaderContext } from './registry.ts';
import { scanPages, type FetchPage, type UpstreamPage } from '../lib/pages.ts';
import type { NetworkId } from './types.ts';

/** Loader keys per network (see `networkKeys`). */
const DELEGATORS_FIRST_PAGE_KEYS = networkKeys('delegatorsFirstPage');
const PENDING_REWARDS_FIRST_PAGE_KEYS = networkKeys('pendingRewardsFirstPage');
const HISTORICAL_REWARDS_FIRST_PAGE_KEYS = networkKeys('historicalRewardsFirstPage');
const VALIDATION_BY_KEY_KEYS = networkKeys('validationByKey');
const DELEGATION_BY_KEY_KEYS = networkKeys('delegationByKey');

const MAX_PAGE = 100;

/** Node ids sent per validators call by {@link nodeValidations}, and pages it follows per chunk at most. */
export const VALIDATOR_LINK = { idsPerCall: MAX_PAGE, maxPages: 10 } as const;

/** Preference when a node has several primary-network validations: the current one first. */
const STATUS_RANK: ReadonlyMap<string, number> = new Map([['active', 0], ['pending', 1], ['completed', 2], ['removed', 3]]);

function better(a: Validator, b: Validator): Validator {
  const ra = STATUS_RANK.get(a.validationStatus ?? '') ?? 9;
  const rb = STATUS_RANK.get(b.validationStatus ?? '') ?? 9;
  if (ra !== rb) return ra < rb ? a : b;
  // A broken end time (the reader's getter throws) counts as the earliest: it never fails the batch.
  return (timeOf(() => a.endTimestamp) ?? -Infinity) >= (timeOf(() => b.endTimestamp) ?? -Infinity) ? a : b;
}

const NODE_VALIDATIONS_KEYS = networkKeys('nodeValidations');

/**
 * Every primary-network validation of each node, in the listing's order: the one
 * listing behind `Network.validator(nodeId:)` and every link to a validation (from
 * delegations, rewards, staking transactions, blocks, peers), so a request that asks
 * for a node's current validation and for a record's own validation lists the node
 * once. A node validates again and again, each time its own record: the current
 * validation ({@link validatorByNodeId}) and a record's own one
 * (`loaders/validation-links.ts`) are both picked from this list.
 *
 * A batch of one node reads that node's own validations (getSingleValidatorDetails:
 * exact, one call per page); a batch of several sends their ids 100 at a time as a
 * `nodeIds` comma list with no status filter (every validation, current and past),
 * each chunk read to {@link VALIDATOR_LINK}`.maxPages` pages (so {@link validatorLinkCost}
 * is this loader's cost). The upstream matches substrings, so validations are matched
 * back exactly. An unknown node has none; an id that is not a node id (it came from
 * an upstream answer) is not sent, and answers an error naming it.
 */
export function nodeValidations(ctx: LoaderContext, network: NetworkId): DataLoader<string, readonly Validator[]> {
  return memoLoader(ctx, NODE_VALIDATIONS_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<string, readonly Validator[]>(
      async (nodeIds) => {
        // Only well-formed ids go upstream: a short one would match every validator there.
        const valid = [...new Set(nodeIds.filter(isNodeId))];
        const found = new Map<string, Validator[]>(valid.map((id) => [id, []]));
        // The direct read lists the node's subnet validations too: only the primary network's count.
        const take = (validators: readonly Validator[]) => {
          for (const v of validators) if (v.subnetId === PRIMARY_NETWORK_ID) found.get(v.nodeId)?.push(v);
        };
        const read = (chunk: readonly string[]): FetchPage<Validator> =>
          chunk.length === 1
            ? async (pageToken, pageSize) => {
                const page = await nullOnNotFound(dataApi.getValidatorDetails(network, chunk[0] as string, { pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call));
                return page ? { items: page.validators, nextPageToken: page.nextPageToken } : { items: [] };
              }
            : async (pageToken, pageSize) => {
                const page = await dataApi.listValidators(network, { nodeIds: [...chunk], subnetId: PRIMARY_NETWORK_ID, pageSize, ...(pageToken ? { pageToken } : {}) }, ctx.call);
                return { items: page.validators, nextPageToken: page.nextPageToken };
              };
        const chunks: string[][] = [];
        for (let i = 0; i < valid.length; i += VALIDATOR_LINK.idsPerCall) chunks.push(valid.slice(i, i + VALIDATOR_LINK.idsPerCall));
        // A node can have several validations: each chunk follows its pages until complete (or its bound).
        await Promise.all(chunks.map((chunk) => scanPages(read(chunk), MAX_PAGE, VALIDATOR_LINK.maxPages, take)));
        return nodeIds.map((id) => found.get(id) ?? notFoundOrUnusable(id) ?? []);
      },
      { maxBatchSize: 1000 },
    );
  });
}

/** A node's current validation among its primary-network validations: active, else pending, else the latest completed; null for none. */
export function currentValidation(validations: readonly Validator[]): Validator | null {
  let best: Validator | null = null;
  for (const v of validations) best = best ? better(best, v) : v;
  return best;
}

/** The current validation of nodes, answered from {@link nodeValidations} (one listing per batch, shared with the links). */
export interface CurrentValidationLookup {
  load(nodeId: string): Promise<Validator | null>;
  /** In key order; an `Error` for a key that is not a node id. */
  loadMany(nodeIds: readonly string[]): Promise<(Validator | null | Error)[]>;
}

/**
 * A node's primary-network validation (active first, else pending, else the latest
 * completed, see {@link currentValidation}), for `Network.validator(nodeId:)`,
 * `validatorsByNodeId`, federation's `nodeId network` key and `Peer.validator`. It
 * holds nothing of its own: it picks from {@link nodeValidations}, so it shares its
 * batches, its memo and its listings with the links to a record's own validation.
 */
export function validatorByNodeId(ctx: LoaderContext, network: NetworkId): CurrentValidationLookup {
  const all = nodeValidations(ctx, network);
  return {
    load: async (nodeId) => currentValidation(await all.load(nodeId)),
    loadMany: async (nodeIds) => (await all.loadMany(nodeIds)).map((r) => (r instanceof Error ? r : currentValidation(r))),
  };
}

/**
 * A node id the validators loader found nothing for: null, or, when it is not a node id at all, an
 * error naming it. Callers' node ids are checked before execution, so such an id was read from an
 * upstream answer (a delegation's, a reward's, a block's proposer, a peer's).
 */
export function notFoundOrUnusable(nodeId: string): null | Error {
  if (isNodeId(nodeId)) return null;
  const next = { upstream: 'data-api', operation: 'GET /v1/networks/{network}/validators', parameter: 'nodeIds' } as const;
  return upstreamValueError('nodeId', next, 'is not a node id (NodeID- followed by the cb58 of 20 bytes)');
}

/**
 * What a link through {@link nodeValidations} costs (the current-validation lookup,
 * {@link validatorByNodeId}, and the links to a record's own validation): per chunk of
 * node ids (one for a lone node, read directly), the pages the loader may follow, in
 * full. Fields that share the loader in one request share its chunks too, so the sum
 * of their declared costs bounds what the shared listings make. A node validates
 * again and again, and an upstream may answer short or empty pages with a token, so a
 * chunk can take every page of its bound; counting them all is what lets the lookup
 * read to its bound without ever meeting the run-time budget. Past the bound a
 * link picks from what was read (the validation among those pages, or null).
 */
export const validatorLinkCost: FieldCost = weighing({
  calls: ({ parents }) => (parents <= 0 ? 0 : Math.ceil(parents / VALIDATOR_LINK.idsPerCall) * VALIDATOR_LINK.maxPages),
}, ENDPOINTS.listValidators, ENDPOINTS.getValidatorDetails);

/** Arguments shared by a batch of per-validator list fields (everything but the parent). */
export interface PerValidatorListArgs {
  first: number;
  sortOrder?: SortOrder | undefined;
}

export interface DelegatorListArgs extends PerValidatorListArgs {
  delegationStatus?: DelegationStatus | undefined;
}

export interface HistoricalRewardListArgs extends PerValidatorListArgs {
  currency?: CurrencyCode | undefined;
}

/** A validation's staking period (unix seconds): its delegations and their rewards lie within it. */
export interface StakingWindow {
  start: number;
  end: number;
}

/**
 * True when a delegation or reward lies within `window` (always, without a window). An end the answer
 * broke does not exclude the item: it stays in its node's list, where its broken field fails alone.
 */
export function inWindow(window: StakingWindow | undefined, item: { startTimestamp: WideInteger; endTimestamp: WideInteger }): boolean {
  if (!window) return true;
  const start = timeOf(() => item.startTimestamp);
  const end = timeOf(() => item.endTimestamp);
  return (start === undefined || start >= window.start) && (end === undefined || end <= window.end);
}

interface Keyed<A> {
  nodeId: string;
  args: A;
  /**
   * Hint from the parent, at most the length of its list (an upper bound the packing
   * and, with a window, the completeness of a listing rely on): `delegatorCount` for delegators.
   */
  expected?: number | undefined;
  /**
   * The validation's period. The listings filter by node only, and a node validates
   * again and again: items outside the window belong to its other validations.
   */
  window?: StakingWindow | undefined;
}

const parentIdOf = (k: Keyed<unknown>): string => (k.window ? `${k.nodeId}@${k.window.start}-${k.window.end}` : k.nodeId);

/**
 * The list arguments as a key: the fields of {@link DelegatorListArgs} and
 * {@link HistoricalRewardListArgs} (add a field there, add it here), a template
 * rather than canonical JSON per key.
 */
const argsKeyOf = (a: PerValidatorListArgs & { delegationStatus?: string | undefined; currency?: string | undefined }): string =>
  `${a.first}|${a.sortOrder ?? ''}|${a.delegationStatus ?? ''}|${a.currency ?? ''}`;
const keyOf = <A extends PerValidatorListArgs>(k: Keyed<A>): string => `${parentIdOf(k)}|${argsKeyOf(k.args)}`;

interface StakingItem {
  nodeId: string;
  startTimestamp: WideInteger;
  endTimestamp: WideInteger;
}

/** How a batch's listings map back to its keys: by exact node id, then by window. */
interface Routing {
  /** The node ids to send for these parents (deduplicated). */
  nodeIdsOf(parentIds: string[]): string[];
  parentOf(item: StakingItem): string;
  /**
   * Whether a packed listing that goes on, holding `held` items of a validation, already
   * holds its whole list. The listing filters by node, so it also holds the node's other
   * validations' items, which the validation's hint does not count: it is complete once
   * it holds as many items as the hint (each hint here is an upper bound of the
   * validation's list: its `delegatorCount`, or what that many delegations can earn), or
   * once the listing, in time order, has gone past the validation's period.
   */
  complete(parentId: string, page: UpstreamPage<StakingItem>, held: number, order: SortOrder | undefined): boolean;
  /** The node a parent's list is part of: a node's validations share its listing, so they pack together. */
  unitOf(parentId: string): string | undefined;
}

/** The parent of items that belong to none of a batch's keys (another validation of the node, or a substring match). */
const OUTSIDE = '@outside';

interface Owner {
  parentId: string;
  window: StakingWindow | undefined;
}

/** Routing of `keys`, whose parent ids are `parentIds` (in the same order): each item is one map lookup, no string built. */
function routing(keys: readonly Keyed<unknown>[], parentIds: readonly string[]): Routing {
  const byNode = new Map<string, Owner[]>();
  const nodeOfParent = new Map<string, string>();
  const windowOfParent = new Map<string, { window: StakingWindow; bound: number | undefined }>();
  keys.forEach((k, i) => {
    const owner = { parentId: parentIds[i] as string, window: k.window };
    const list = byNode.get(k.nodeId);
    if (list) list.push(owner);
    else byNode.set(k.nodeId, [owner]);
    nodeOfParent.set(owner.parentId, k.nodeId);
    if (k.window) windowOfParent.set(owner.parentId, { window: k.window, bound: k.expected });
  });
  return {
    nodeIdsOf: (ids) => [...new Set(ids.map((id) => nodeOfParent.get(id) ?? id))],
    parentOf: (item) => {
      const owners = byNode.get(item.nodeId);
      if (owners) for (const owner of owners) if (inWindow(owner.window, item)) return owner.parentId;
      return OUTSIDE;
    },
    unitOf: (parentId) => nodeOfParent.get(parentId),
    complete: (parentId, page, held, order) => {
      const own = windowOfParent.get(parentId);
      // A node's whole list (no window) is complete only at the listing's end.
      if (!own) return false;
      return (own.bound !== undefined && held >= own.bound) || passedPeriod(page.items, own.window, order);
    },
  };
}

/** Groups keys by their list arguments, so each group can share upstream listings. */
async function byArgs<A extends PerValidatorListArgs, T>(
  keys: readonly Keyed<A>[],
  load: (args: A, parents: PerParentKey[], route: Routing) => Promise<UpstreamPage<T>[]>,
): Promise<UpstreamPage<T>[]> {
  const groups = new Map<string, number[]>();
  keys.forEach((k, i) => {
    const g = argsKeyOf(k.args);
    const list = groups.get(g);
    if (list) list.push(i);
    else groups.set(g, [i]);
  });
  const out = new Array<UpstreamPage<T>>(keys.length);
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const members = indexes.map((i) => keys[i] as Keyed<A>);
      const parentIds = members.map(parentIdOf);
      const first = members[0] as Keyed<A>;
      const pages = await load(
        first.args,
        members.map((k, j) => ({ parentId: parentIds[j] as string, first: k.args.first, expected: k.expected })),
        routing(members, parentIds),
      );
      indexes.forEach((i, j) => (out[i] = pages[j] as UpstreamPage<T>));
    }),
  );
  return out;
}

/** First page of `Validator.delegators` for many validators (E13 with `nodeIds`, packed by `delegatorCount`). */
export function delegatorsFirstPage(ctx: LoaderContext, network: NetworkId): DataLoader<Keyed<DelegatorListArgs>, UpstreamPage<Delegator>, string> {
  return memoLoader(ctx, DELEGATORS_FIRST_PAGE_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<Keyed<DelegatorListArgs>, UpstreamPage<Delegator>, string>(
      (keys) =>
        byArgs(keys, (args, parents, route) =>
          loadFirstPages<Delegator>(parents, {
            maxPageSize: MAX_PAGE,
            parentOf: route.parentOf,
            complete: (parentId, page, held) => route.complete(parentId, page, held, args.sortOrder),
            unitOf: route.unitOf,
            fetch: async (parentIds, pageSize) => {
              const page = await dataApi.listDelegators(
                network,
                {
                  nodeIds: route.nodeIdsOf(parentIds),
                  pageSize,
                  ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}),
                  ...(args.delegationStatus ? { delegationStatus: args.delegationStatus } : {}),
                },
                ctx.call,
              );
              return { items: page.delegators, nextPageToken: page.nextPageToken };
            },
          }),
        ),
      { cacheKeyFn: keyOf },
    );
  });
}

/** First page of `Validator.pendingRewards` for many validators (E12 with `nodeIds`). */
export function pendingRewardsFirstPage(ctx: LoaderContext, network: NetworkId): DataLoader<Keyed<PerValidatorListArgs>, UpstreamPage<PendingReward>, string> {
  return memoLoader(ctx, PENDING_REWARDS_FIRST_PAGE_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<Keyed<PerValidatorListArgs>, UpstreamPage<PendingReward>, string>(
      (keys) =>
        byArgs(keys, (args, parents, route) =>
          loadFirstPages<PendingReward>(parents, {
            maxPageSize: MAX_PAGE,
            parentOf: route.parentOf,
            complete: (parentId, page, held) => route.complete(parentId, page, held, args.sortOrder),
            unitOf: route.unitOf,
            fetch: async (parentIds, pageSize) => {
              const nodeIds = route.nodeIdsOf(parentIds);
              const page = await dataApi.listPendingRewards(network, { nodeIds, pageSize, ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}) }, ctx.call);
              return { items: page.pendingRewards, nextPageToken: page.nextPageToken };
            },
          }),
        ),
      { cacheKeyFn: keyOf },
    );
  });
}

/** First page of `Validator.historicalRewards` for many validators (E11 with `nodeIds`). */
export function historicalRewardsFirstPage(
  ctx: LoaderContext,
  network: NetworkId,
): DataLoader<Keyed<HistoricalRewardListArgs>, UpstreamPage<HistoricalReward>, string> {
  return memoLoader(ctx, HISTORICAL_REWARDS_FIRST_PAGE_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<Keyed<HistoricalRewardListArgs>, UpstreamPage<HistoricalReward>, string>(
      (keys) =>
        byArgs(keys, (args, parents, route) =>
          loadFirstPages<HistoricalReward>(parents, {
            maxPageSize: MAX_PAGE,
            parentOf: route.parentOf,
            complete: (parentId, page, held) => route.complete(parentId, page, held, args.sortOrder),
            unitOf: route.unitOf,
            fetch: async (parentIds, pageSize) => {
              const page = await dataApi.listHistoricalRewards(
                network,
                {
                  nodeIds: route.nodeIdsOf(parentIds),
                  pageSize,
                  ...(args.sortOrder ? { sortOrder: args.sortOrder } : {}),
                  ...(args.currency ? { currency: args.currency } : {}),
                },
                ctx.call,
              );
              return { items: page.historicalRewards, nextPageToken: page.nextPageToken };
            },
          }),
        ),
      { cacheKeyFn: keyOf },
    );
  });
}

export type { Keyed as PerValidatorKey };

/** Identity of one validation: a staking tx of a node on a subnet. */
export interface ValidationKey {
  nodeId: string;
  subnetId: string;
  txHash: string;
}

/** Refetching by id reads at most this many pages per chunk of node ids (and per node, for delegations). */
export const MAX_REFETCH_PAGES = 20;
/** Largest page of the staking listings (E8, E11-E13): also how many node ids one call carries. */
export const STAKING_PAGE = MAX_PAGE;

/**
 * Validations by identity, for `node(id:)`, `nodes(ids:)` and federation `_entities`:
 * keys are grouped by subnet, their node ids sent 100 at a time, and each
 * validation matched exactly (node id and staking tx) in the listing.
 */
export function validationByKey(ctx: LoaderContext, network: NetworkId): DataLoader<ValidationKey, Validator | null, string> {
  return memoLoader(ctx, VALIDATION_BY_KEY_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<ValidationKey, Validator | null, string>(
      async (keys) => {
        const found = new Map<string, Validator>();
        const bySubnet = new Map<string, Set<string>>();
        for (const k of keys) {
          // Only well-formed ids are sent (the client refuses others): one key must not fail the batch.
          if (!isNodeId(k.nodeId) || !isCb58Id(k.subnetId)) continue;
          let ids = bySubnet.get(k.subnetId);
          if (!ids) bySubnet.set(k.subnetId, (ids = new Set()));
          ids.add(k.nodeId);
        }
        const lists: Promise<void>[] = [];
        for (const [subnetId, ids] of bySubnet) {
          const all = [...ids];
          for (let i = 0; i < all.length; i += MAX_PAGE) {
            const chunk = all.slice(i, i + MAX_PAGE);
            const wanted = new Set(chunk);
            lists.push(
              (async () => {
                let pageToken: string | undefined;
                for (let pages = 0; pages < MAX_REFETCH_PAGES; pages++) {
                  const page = await dataApi.listValidators(network, { nodeIds: chunk, subnetId, pageSize: MAX_PAGE, ...(pageToken ? { pageToken } : {}) }, ctx.call);
                  for (const v of page.validators) if (wanted.has(v.nodeId)) found.set(`${v.nodeId}|${v.subnetId}|${v.txHash}`, v);
                  pageToken = page.nextPageToken;
                  if (!pageToken) break;
                }
              })(),
            );
          }
        }
        await Promise.all(lists);
        return keys.map((k) => found.get(`${k.nodeId}|${k.subnetId}|${k.txHash}`) ?? null);
      },
      { cacheKeyFn: (k) => `${k.nodeId}|${k.subnetId}|${k.txHash}` },
    );
  });
}

/** Where a validation is looked up: its network, subnet and node (the staking tx only picks it out of the listing). */
export interface ValidationScope {
  network: string;
  subnetId: string;
  nodeId: string;
}

/**
 * Calls refetching these validations makes at most ({@link validationByKey}): per network
 * and subnet, one listing per 100 node ids, each read to {@link MAX_REFETCH_PAGES} pages.
 */
export function validationRefetchCalls(keys: readonly ValidationScope[]): number {
  const nodesByScope = new Map<string, Set<string>>();
  for (const k of keys) {
    const scope = `${k.network}|${k.subnetId}`;
    nodesByScope.set(scope, (nodesByScope.get(scope) ?? new Set()).add(k.nodeId));
  }
  let calls = 0;
  for (const nodes of nodesByScope.values()) calls += Math.ceil(nodes.size / STAKING_PAGE) * MAX_REFETCH_PAGES;
  return calls;
}

/**
 * Delegations by node id and tx, for refetch by id. One combined E13 listing per
 * 100 node ids finds most keys at once; keys it leaves behind (their nodes have long
 * lists) are then looked for node by node, in parallel, each stopping at the page
 * that holds its last key. A node's list is read to at most 20 pages (2,000
 * delegations); past that a key is answered null.
 */
export function delegationByKey(ctx: LoaderContext, network: NetworkId): DataLoader<{ nodeId: string; txHash: string }, Delegator | null, string> {
  const keyOf = (k: { nodeId: string; txHash: string }) => `${k.nodeId}|${k.txHash}`;
  return memoLoader(ctx, DELEGATION_BY_KEY_KEYS(network), () => {
    const { dataApi } = upstreamOf(ctx);
    return new DataLoader<{ nodeId: string; txHash: string }, Delegator | null, string>(
      async (keys) => {
        // The wanted keys of each node, so what is still missing is found without scanning every key.
        const wantedByNode = new Map<string, Set<string>>();
        for (const k of keys) {
          if (!isNodeId(k.nodeId)) continue;
          const wanted = wantedByNode.get(k.nodeId);
          if (wanted) wanted.add(keyOf(k));
          else wantedByNode.set(k.nodeId, new Set([keyOf(k)]));
        }
        const found = new Map<string, Delegator>();
        const take = (items: Delegator[]) => {
          for (const d of items) {
            const key = keyOf(d);
            if (wantedByNode.get(d.nodeId)?.has(key)) found.set(key, d);
          }
        };
        const missing = (nodeId: string): boolean => {
          for (const key of wantedByNode.get(nodeId) ?? []) if (!found.has(key)) return true;
          return false;
        };

        const all = [...wantedByNode.keys()];
        const chunks: string[][] = [];
        for (let i = 0; i < all.length; i += MAX_PAGE) chunks.push(all.slice(i, i + MAX_PAGE));
        await Promise.all(
          chunks.map(async (chunk) => {
            const page = await dataApi.listDelegators(network, { nodeIds: chunk, pageSize: MAX_PAGE }, ctx.call);
            take(page.delegators);
            if (!page.nextPageToken) return;
            // The combined list goes on: look for what is left node by node.
            const leftNodes = chunk.filter(missing);
            // A chunk of one node already is that node's own list: go on from its token.
            const continueFrom = chunk.length === 1 ? page.nextPageToken : undefined;
            await Promise.all(
              leftNodes.map(async (nodeId) => {
                let pageToken: string | undefined = continueFrom;
                for (let pages = continueFrom ? 1 : 0; pages < MAX_REFETCH_PAGES && missing(nodeId); pages++) {
                  const own = await dataApi.listDelegators(network, { nodeIds: [nodeId], pageSize: MAX_PAGE, ...(pageToken ? { pageToken } : {}) }, ctx.call);
                  take(own.delegators);
                  pageToken = own.nextPageToken;
                  if (!pageToken) break;
                }
              }),
            );
          }),
        );
        return keys.map((k) => found.get(keyOf(k)) ?? null);
      },
      { cacheKeyFn: keyOf },
    );
  });
}

/**
 * Calls refetching these delegations makes at most ({@link delegationByKey}): per
 * network, one combined listing per 100 node ids, then each node's own list to
 * {@link MAX_REFETCH_PAGES} pages.
 */
export function delegationRefetchCalls(keys: readonly { network: string; nodeId: string }[]): number {
  const nodesByNetwork = new Map<string, Set<string>>();
  for (const k of keys) nodesByNetwork.set(k.network, (nodesByNetwork.get(k.network) ?? new Set()).add(k.nodeId));
  let calls = 0;
  for (const nodes of nodesByNetwork.values()) calls += Math.ceil(nodes.size / STAKING_PAGE) + nodes.size * MAX_REFETCH_PAGES;
  return calls;
}

/**
 * What a link through {@link delegationByKey} costs (a reward to its delegation): one
 * combined listing per 100 parents, and, for a delegation that listing leaves behind,
 * its node's own list to {@link MAX_REFETCH_PAGES} pages. Counted in full per parent
 * (every parent could name another node with a long list), so the lookup never meets
 * the run-time budget; parents naming the same delegation share one key.
 */
export const delegationLinkCost: FieldCost = weighing({
  calls: ({ parents }) => (parents <= 0 ? 0 : Math.ceil(parents / STAKING_PAGE) + parents * MAX_REFETCH_PAGES),
}, ENDPOINTS.listDelegators);
