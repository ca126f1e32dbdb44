/**
 * How fields declare what they spend upstream. A field that calls an upstream
 * says so beside its resolver, `extensions: { cost: costs.perParent() }`, using
 * the constants of the loader that makes the calls; a field without a
 * declaration costs nothing. The estimator (`src/gateway/plugins/query-cost/estimate.ts`) only multiplies:
 * it never names schema types or fields.
 *
 * Every function receives `parents`, the number of parent objects the field is
 * resolved for (the product of the page sizes and list sizes above it), and the
 * field's coerced arguments.
 */

import { computeUnitsOf, NODE_CALL_COMPUTE_UNITS, type WeightTier } from './compute-units.ts';

/** What a cost function sees. */
export interface CostInput {
  /** Parent objects the field is resolved for (1 for a root field). */
  parents: number;
  /** The field's coerced arguments (variables and defaults applied). */
  args: Readonly<Record<string, unknown>>;
  /** Configured nodes (NODE_URLS): node methods are called at most once per node and request. */
  nodeCount: number;
}

/** The upstream spending of one field, declared as `extensions.cost`. */
export interface FieldCost {
  /** Upstream calls the field makes at most, for all its parents together. */
  calls(input: CostInput): number;
  /**
   * What one of those calls weighs at most, in the Data API's compute units: the heaviest endpoint the
   * field's loader calls ({@link weighing}); 0 for node methods. Undefined: the estimator assumes the
   * heaviest tier of all (an undeclared field is never underestimated; a test finds every such field).
   */
  computeUnits?: number;
  /**
   * The compute units of all the field's calls for all its parents, when they differ in weight (a refetch by
   * ids of several families): takes the place of `calls × computeUnits` in the estimate.
   */
  weigh?(input: CostInput): number;
  /**
   * Objects one parent's value holds for the fields below: a list's length, or a
   * connection's page (then `connection` is true and its `edges`/`nodes` lists hold
   * that many). Undefined: one object, or for a plain list the estimator's default.
   */
  size?(args: Readonly<Record<string, unknown>>): number;
  /** The field returns a connection: `size` is its page, held by its `edges`/`nodes`. */
  connection?: boolean;
}

/** Page-size bounds of a listing (a `PageSpec`, or anything with its two sizes). */
export interface PageBounds {
  defaultSize: number;
  maxSize: number;
}

/** The connection's page: `first`, else the listing's default. */
export function pageOf(args: Readonly<Record<string, unknown>>, page: PageBounds): number {
  const first = args['first'];
  // Not clamped to maxSize: a page over the bound is refused (BAD_USER_INPUT), and the estimate says what was asked.
  if (typeof first === 'number' && Number.isFinite(first)) return Math.max(0, Math.floor(first));
  return page.defaultSize;
}

/** True when the connection continues from a cursor (`after`). */
export const continues = (args: Readonly<Record<string, unknown>>): boolean => typeof args['after'] === 'string' && args['after'] !== '';

/**
 * Pages one connection reads at most, which is also what it declares: its page, plus,
 * with `after`, one more (the cursor's position is read with room to skip to it and
 * fill the page, and a short answer gets one top-up from its `nextPageToken`). The
 * resolver (`resolvePageConnection`) keeps to this: an upstream that answers short or
 * empty pages gets a page with fewer edges and an `endCursor` that goes on from its
 * token, never a read the estimate did not count.
 */
export const connectionReadCalls = (args: Readonly<Record<string, unknown>>): number => (continues(args) ? 2 : 1);

/** What {@link costs.packedListing} assumes about the data; declared beside the loader's hints. */
export interface PackingModel {
  /** Items one shared listing holds (the loader's page). */
  maxPage: number;
  /** Mean length of a parent's whole list (the packing hint), over parents that pack. */
  meanItems: number;
  /** Share of parents, 0-1, whose list is longer than a page (or unknown): one listing each. */
  soloShare: number;
  /** True when these arguments leave the loader without a hint: every parent gets its own listing. */
  unpacked?: (args: Readonly<Record<string, unknown>>) => boolean;
}

const positive = (parents: number): boolean => parents > 0;

/**
 * `cost` with its calls weighed by the endpoints the field's loader calls (their rows, `src/upstream/endpoints.ts`):
 * each call is charged as the heaviest of them, so the estimate in compute units is never below what the calls weigh.
 */
export function weighing(cost: FieldCost, ...endpoints: readonly [{ readonly weight: WeightTier }, ...{ readonly weight: WeightTier }[]]): FieldCost {
  return { ...cost, computeUnits: Math.max(...endpoints.map((row) => computeUnitsOf(row.weight))) };
}

export const costs = {
  /** Resolved from the parent or the configuration: no call. */
  free: { calls: () => 0 } satisfies FieldCost as FieldCost,

  /** `each` calls per parent object: lookups no loader batches, node methods (once per node). */
  perParent(each = 1): FieldCost {
    return { calls: ({ parents }) => parents * each };
  },

  /** A node method: once per node it is asked on, and at most once per configured node (`nodeRpc` memoises per request). Nodes bill no compute units. */
  nodeMethod(): FieldCost {
    return { calls: ({ parents, nodeCount }) => Math.min(parents, nodeCount), computeUnits: NODE_CALL_COMPUTE_UNITS };
  },

  /**
   * A list read once per request whatever the number of parents (a request-scoped
   * loader), per scope it is keyed by (e.g. one subnet list per network): at most
   * `min(parents, scopes) * pages` calls.
   */
  oncePerScope(scopes = 1, pages = 1): FieldCost {
    return { calls: ({ parents }) => Math.min(parents, scopes) * pages };
  },

  /** A link batched by a loader: ceil(parents / perCall) calls of at most `pages` pages each. */
  batched(perCall: number, pages = 1): FieldCost {
    return { calls: ({ parents }) => (positive(parents) ? Math.ceil(parents / perCall) * pages : 0) };
  },

  /** A connection over a listing each parent reads on its own (no loader packs parents together). */
  listing(page: PageBounds): FieldCost {
    return {
      calls: ({ parents, args }) => parents * connectionReadCalls(args),
      size: (args) => pageOf(args, page),
      connection: true,
    };
  },

  /**
   * A connection whose first pages a loader packs for many parents
   * (`src/loaders/per-parent.ts`): parents whose whole list fits one upstream page
   * share listings of `maxPage` items, the others get one listing each. How many
   * of each depends on the data, so the model takes the mean list length per parent
   * and the share of parents with lists longer than a page from the declaration:
   * min(parents, ceil(parents * meanItems / maxPage) + ceil(parents * soloShare)).
   * Every parent reads its own listing with `after` (plus its top-up), and when
   * `unpacked(args)` says the arguments defeat packing (a filter the packing hint
   * does not count).
   */
  packedListing(page: PageBounds, model: PackingModel): FieldCost {
    return {
      calls: ({ parents, args }) => {
        if (!positive(parents)) return 0;
        if (continues(args)) return parents * connectionReadCalls(args);
        if (parents === 1 || model.unpacked?.(args)) return parents;
        const packed = Math.ceil((parents * model.meanItems) / model.maxPage) + Math.ceil(parents * model.soloShare);
        return Math.min(parents, packed);
      },
      size: (args) => pageOf(args, page),
      connection: true,
    };
  },

  /** A list whose length is told by an argument or bounded by a constant. */
  list(size: (args: Readonly<Record<string, unknown>>) => number, calls: FieldCost['calls'] = () => 0): FieldCost {
    return { calls, size };
  },
} as const;
