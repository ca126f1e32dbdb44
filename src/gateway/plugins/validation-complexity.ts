import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';

/**
 * What validating a document will cost, computed before validation runs, in "field comparisons": the unit of
 * work of the OverlappingFieldsCanBeMerged rule, the one validation rule whose work grows faster than the
 * document (every other rule visits each node once).
 *
 * That rule compares every two fields that land on the same response key (same response name under parents that
 * themselves share one, fragments and inline fragments merged in), and recurses into the sub-selections of each
 * compared pair. So the fields the rule may compare are the pairs of field occurrences on one path of the
 * *merged response tree*: the document with every fragment spread expanded in place and inline fragments
 * flattened, each node keyed by response name. A pair is compared at most once (at the selection set where the
 * two branches part); the rule may stop sooner (different fields, different arguments), never go further. The
 * estimate counts, per node of that tree with n occurrences:
 *
 * - n(n-1)/2 comparisons, each also printing both fields' arguments (one unit per argument value node and per
 *   {@link STRING_CHARS_PER_UNIT} characters of a string: the defer-aware copy of the rule prints arguments
 *   for every pair) and iterating both sub-selections' fields (one unit per field);
 * - the fragment bookkeeping of each compared pair: the fields of one side against each fragment of the other,
 *   and fragment against fragment ({@link SPREAD_PAIR_WEIGHT} a pair: memoized, so mostly a map lookup);
 *
 * plus, per selection set of the document, its fields against each fragment it spreads, and, as the cost of
 * this estimate itself, every field of the expanded tree ({@link EXPANDED_FIELD_WEIGHT} each).
 *
 * The unit is about a microsecond of the rule (two to three on a loaded, shared CPU: bench/validation-cost.ts). An
 * estimate, not a count: it is an upper bound of the pairs the rule compares (checked against an exhaustive
 * count in test/plugins/validation-limit.test.ts), and within a small factor of its time on the hostile shapes.
 *
 * Linear before it expands anything: each selection set and each fragment is summarised once (fragments by
 * name, cycles cut), and the expanded size is known from those summaries; the merged tree is only built when
 * that size is within the budget, and the walk stops as soon as the running estimate passes `stopAbove`. So an
 * exponential fan-out of fragments costs this function a linear pass, and any document at most
 * `stopAbove / EXPANDED_FIELD_WEIGHT` steps.
 *
 * Works on a document that has not been validated: unknown fragments count nothing, a fragment spread inside
 * itself is cut where it recurses, unknown fields count like any other.
 */
export function validationComplexity(document: DocumentNode, stopAbove = Number.POSITIVE_INFINITY): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  // The last definition of a name wins, as in graphql-js's ValidationContext.getFragment.
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);

  const summaries = createSummaries(fragments);
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const summary = summaries.ofSet(definition.selectionSet);
    total += summary.expanded * EXPANDED_FIELD_WEIGHT;
  }
  total += summaries.setOverhead();
  if (total > stopAbove) return total;

  // Within budget expanded: walk each definition's merged response tree (the rule visits fragment definitions too).
  const argumentUnits = createArgumentUnits();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    const onPath = new Set<string>(definition.kind === Kind.FRAGMENT_DEFINITION ? [definition.name.value] : []);
    total += pairCosts(definition.selectionSet, { fragments, summaries, argumentUnits, onPath }, stopAbove - total);
    if (total > stopAbove) return total;
  }
  return total;
}

/** Characters of a string argument that count as one more unit when the rule prints it for a comparison. */
export const STRING_CHARS_PER_UNIT = 128;
/** One pair of fragment spreads compared (after the first time a map lookup, about 1/20 of a field comparison). */
export const SPREAD_PAIR_WEIGHT = 1 / 16;
/** One field of the expanded tree: this estimate's own work per field (a map lookup and a few additions). */
export const EXPANDED_FIELD_WEIGHT = 1 / 8;

/** A selection set at its response level: inline fragments merged in, fragment spreads by their own summaries. */
interface Summary {
  /** Fields at this level: its own, its inline fragments', and its fragments' (transitively). */
  fields: number;
  /** Fragment spreads at this level, counted as the rule walks them (distinct per selection set, transitively). */
  spreads: number;
  /** Every field below this set, fragments expanded: the size of its part of the merged response tree. */
  expanded: number;
}

const NONE: Summary = { fields: 0, spreads: 0, expanded: 0 };

function createSummaries(fragments: ReadonlyMap<string, FragmentDefinitionNode>) {
  const bySet = new Map<SelectionSetNode, Summary>();
  // Sets being summarised: reaching one again means a fragment cycle (reported by NoFragmentCycles), cut here.
  const inProgress = new Set<SelectionSetNode>();
  let overhead = 0;

  // Unknown fragments (reported by KnownFragmentNames) count nothing.
  const ofFragment = (name: string): Summary => {
    const fragment = fragments.get(name);
    return fragment ? ofSet(fragment.selectionSet) : NONE;
  };

  const ofSet = (set: SelectionSetNode): Summary => {
    const known = bySet.get(set);
    if (known) return known;
    if (inProgress.has(set)) return NONE;
    inProgress.add(set);
    const summary = { fields: 0, spreads: 0, expanded: 0 };
    // The rule merges a set's fields with its inline fragments' and collects its spreads once per name.
    const spreadNames = new Set<string>();
    const collect = (selections: SelectionSetNode): void => {
      for (const selection of selections.selections) {
        if (selection.kind === Kind.FIELD) {
          summary.fields += 1;
          summary.expanded += 1 + (selection.selectionSet ? ofSet(selection.selectionSet).expanded : 0);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          collect(selection.selectionSet);
        } else {
          spreadNames.add(selection.name.value);
        }
      }
    };
    collect(set);
    const ownFields = summary.fields;
    for (const name of spreadNames) {
      const fragment = ofFragment(name);
      summary.fields += fragment.fields;
      summary.spreads += 1 + fragment.spreads;
      summary.expanded += fragment.expanded;
    }
    // Visiting this set, the rule compares its own fields with each fragment it reaches, and those fragments pairwise.
    overhead += ownFields * summary.spreads + (summary.spreads * summary.spreads * SPREAD_PAIR_WEIGHT) / 2;
    inProgress.delete(set);
    bySet.set(set, summary);
    return summary;
  };

  return { ofSet, setOverhead: () => overhead };
}

type Summaries = ReturnType<typeof createSummaries>;

/** One node of the merged response tree: the occurrences of fields on one response path, in sums. */
interface TreeNode {
  /** Field occurrences on this path. */
  n: number;
  /** Their argument units, sub-selection fields and spreads, summed. */
  args: number;
  fields: number;
  spreads: number;
  children?: Map<string, TreeNode>;
}

interface Walk {
  fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  summaries: Summaries;
  argumentUnits: (field: FieldNode) => number;
  /** Fragments being expanded on the current path (a spread of one of them would recurse forever). */
  onPath: Set<string>;
}

/**
 * The comparisons of one definition's merged response tree, adding each field occurrence to its node and
 * charging it against the occurrences already there. Stops past `budget`.
 */
function pairCosts(root: SelectionSetNode, walk: Walk, budget: number): number {
  let cost = 0;
  const top: TreeNode = { n: 0, args: 0, fields: 0, spreads: 0 };

  const visit = (set: SelectionSetNode, node: TreeNode): void => {
    const spreadNames = new Set<string>();
    const collect = (selections: SelectionSetNode): void => {
      for (const selection of selections.selections) {
        if (cost > budget) return;
        if (selection.kind === Kind.FIELD) {
          const key = selection.alias?.value ?? selection.name.value;
          node.children ??= new Map();
          let child = node.children.get(key);
          if (!child) node.children.set(key, (child = { n: 0, args: 0, fields: 0, spreads: 0 }));
          const args = walk.argumentUnits(selection);
          const sub = selection.selectionSet ? walk.summaries.ofSet(selection.selectionSet) : undefined;
          const fields = sub?.fields ?? 0;
          const spreads = sub?.spreads ?? 0;
          // Against each occurrence already here: the comparison, both argument lists printed, both field lists
          // iterated, each side's fields against the other's fragments, and fragment against fragment.
          cost +=
            child.n * (1 + args + fields) +
            child.args +
            child.fields +
            fields * child.spreads +
            spreads * child.fields +
            spreads * child.spreads * SPREAD_PAIR_WEIGHT;
          child.n += 1;
          child.args += args;
          child.fields += fields;
          child.spreads += spreads;
          if (selection.selectionSet) visit(selection.selectionSet, child);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          collect(selection.selectionSet);
        } else {
          spreadNames.add(selection.name.value);
        }
      }
    };
    collect(set);
    for (const name of spreadNames) {
      const fragment = walk.fragments.get(name);
      if (!fragment || walk.onPath.has(name) || cost > budget) continue;
      walk.onPath.add(name);
      visit(fragment.selectionSet, node);
      walk.onPath.delete(name);
    }
  };

  visit(root, top);
  return cost;
}

/** Units of printing a field's arguments (and its `@stream` arguments, compared too), once per field node. */
function createArgumentUnits(): (field: FieldNode) => number {
  const known = new Map<FieldNode, number>();
  return (field) => {
    let units = known.get(field);
    if (units !== undefined) return units;
    units = 0;
    for (const argument of field.arguments ?? []) units += 1 + valueUnits(argument.value);
    for (const directive of field.directives ?? []) {
      if (directive.name.value !== 'stream') continue;
      for (const argument of directive.arguments ?? []) units += 1 + valueUnits(argument.value);
    }
    known.set(field, units);
    return units;
  };
}

function valueUnits(value: ValueNode): number {
  switch (value.kind) {
    case Kind.STRING:
      return 1 + Math.floor(value.value.length / STRING_CHARS_PER_UNIT);
    case Kind.LIST:
      return value.values.reduce((sum, item) => sum + valueUnits(item), 1);
    case Kind.OBJECT:
      return value.fields.reduce((sum, field) => sum + 1 + valueUnits(field.value), 1);
    default:
      return 1;
  }
}
