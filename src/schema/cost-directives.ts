import type { FieldCost } from '../lib/cost.ts';

/**
 * The demand-control directives of federation 2.9 (`@cost`, `@listSize`, the
 * GraphQL cost directive spec as federated routers read it: Apollo Router's demand
 * control, Hive Gateway's `useDemandControl`), derived from the same declaration the
 * query-cost estimator reads, a field's `upstreamCost` (`src/lib/cost.ts`), so the
 * published cost and `extensions.cost` cannot drift apart.
 *
 * A static directive cannot say what the estimator knows at run time (a link batched
 * by a loader costs ceil(parents / perCall) calls, not one per parent), so the
 * directives describe one parent with the field's default arguments: an upper bound
 * per parent that routers multiply by the list sizes above it.
 *
 * - `@cost(weight: n)`: n upstream calls for one parent (fields that cost nothing carry none).
 *   Federation defines `weight` as `Int!`, and refuses it on interface fields.
 * - `@listSize(...)` on connections: `slicingArguments: ["first"]` (its page size), `sizedFields:
 *   ["edges"]`, `requireOneSlicingArgument: false` (`first` is optional) and the default page
 *   as `assumedSize`; on plain lists whose size the declaration knows, `assumedSize` alone.
 */
export const COST_DIRECTIVE_NAMES = ['@cost', '@listSize'] as const;

export interface CostDirectiveArgs {
  weight: number;
}

export interface ListSizeDirectiveArgs {
  assumedSize?: number;
  slicingArguments?: string[];
  sizedFields?: string[];
  requireOneSlicingArgument?: boolean;
}

export type DemandControlDirective = { name: 'cost'; args: CostDirectiveArgs } | { name: 'listSize'; args: ListSizeDirectiveArgs };

/** What the derivation needs to know about the field besides its cost. */
export interface CostedField {
  /** The field's arguments with their default values (undefined when none). */
  args: Readonly<Record<string, unknown>>;
  /** The field returns a list. */
  list: boolean;
  /** The field belongs to an interface: federation refuses `@cost` there (routers read it on the object types). */
  onInterface: boolean;
}

/** The argument a connection's page size is sliced by. */
const SLICING_ARGUMENT = 'first';
/** The list fields of a connection object that hold its page. */
const SIZED_FIELDS = ['edges'];

const count = (read: () => number | undefined): number | undefined => {
  try {
    const n = read();
    return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined;
  } catch {
    // A size that needs an argument the defaults lack (`nodes(ids:)`): the router's default applies.
    return undefined;
  }
};

/** The `@cost`/`@listSize` a field declaring `cost` publishes (none for a free, unsized field). */
export function demandControlDirectives(cost: FieldCost, field: CostedField): DemandControlDirective[] {
  const defaults = Object.fromEntries(Object.entries(field.args).filter(([, value]) => value !== undefined));
  const directives: DemandControlDirective[] = [];
  const weight = count(() => cost.calls({ parents: 1, args: defaults, nodeCount: 1 }));
  if (weight && !field.onInterface) directives.push({ name: 'cost', args: { weight } });
  const assumedSize = count(() => cost.size?.(defaults));
  if (cost.connection) {
    const sliced = SLICING_ARGUMENT in field.args;
    directives.push({
      name: 'listSize',
      args: {
        ...(assumedSize ? { assumedSize } : {}),
        ...(sliced ? { slicingArguments: [SLICING_ARGUMENT], requireOneSlicingArgument: false } : {}),
        sizedFields: SIZED_FIELDS,
      },
    });
  } else if (field.list && assumedSize) {
    directives.push({ name: 'listSize', args: { assumedSize } });
  }
  return directives;
}
