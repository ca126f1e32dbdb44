/**
 * What of an upstream answer an operation reads: the projection of a document onto the
 * heavy parts of the Data API's answers.
 *
 * A request holds its upstream pages while its fields resolve: the validator walk keeps its
 * 50 validators and the network's subnet list across its second round, while the delegator
 * and reward pages of that round are parsed. Most of those bytes are parts few operations
 * select: the subnets' genesis documents are four fifths of a subnet list, a validator's BLS
 * key, health, location and reward figures half of its record. Each such part is listed here
 * with the fields that read it; an operation that selects none of them has the part left out
 * as the answer is read (`CallOptions.omit`, `src/shapes/fast-read.ts`), never checked, never
 * copied, never held.
 *
 * The projection is planned once per document (a WeakMap on the parsed document) from the
 * schema coordinates it selects, fragments and abstract types included. Only queries and
 * mutations are projected: a subscription's upstream polling is shared by every subscriber
 * of its topic, so its answers are read whole, as a cache shared between requests reads them
 * (`src/upstream/cached-clients.ts`).
 *
 * A part left out of an answer some field then reads would answer null where the upstream sent
 * a value: every field reading a part is listed in {@link PARTS}, and
 * test/schema/projection.test.ts holds that every field of the types these answers back answers
 * the same with and without the projection.
 */
import {
  Kind,
  getNamedType,
  isAbstractType,
  isObjectType,
  isInterfaceType,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { OmittedPaths } from '../shapes/index.ts';

/** A part of one operation's answer that only some fields read. */
export interface Part {
  /** The Data API client's method whose answer holds it (`listSubnets`). */
  readonly operation: string;
  /** Where in the answer (`OmittedPaths` syntax: `.` between names, `[]` for a list's items). */
  readonly path: string;
  /** The fields that read it: each of these names on each of these types. */
  readonly types: readonly string[];
  readonly fields: readonly string[];
}

/** The types a validator listing's items are served as (the interface's fields are on each). */
const VALIDATOR_TYPES = ['Validator', 'ActiveValidator', 'CompletedValidator', 'PendingValidator', 'RemovedValidator'];
/** `rewards` answers `potentialRewards` where a validation has no paid rewards, and `potentialRewards` the other way round. */
const REWARD_FIELDS = ['rewards', 'potentialRewards'];

/** Every part left out of an answer when an operation selects none of the fields reading it. */
export const PARTS: readonly Part[] = [
  { operation: 'listSubnets', path: 'subnets[].blockchains[].genesisData', types: ['Blockchain'], fields: ['genesisData', 'genesis'] },
  { operation: 'listValidators', path: 'validators[].blsCredentials', types: VALIDATOR_TYPES, fields: ['blsCredentials'] },
  { operation: 'listValidators', path: 'validators[].rewards', types: VALIDATOR_TYPES, fields: REWARD_FIELDS },
  { operation: 'listValidators', path: 'validators[].potentialRewards', types: VALIDATOR_TYPES, fields: REWARD_FIELDS },
  { operation: 'listValidators', path: 'validators[].validatorHealth', types: ['ActiveValidator'], fields: ['validatorHealth'] },
  { operation: 'listValidators', path: 'validators[].geolocation', types: ['ActiveValidator'], fields: ['geolocation'] },
];

/** What one document's operations leave out of each upstream answer. */
export interface Projection {
  /** The parts of `operation`'s answer none of the document's fields reads; undefined when it reads them all. */
  readonly omitFor: (operation: string) => OmittedPaths | undefined;
  /** How many parts are left out in all (for tests and docs). */
  readonly omitted: number;
}

/** Reads every part: a document that is not a query or mutation, or one this module cannot follow. */
export const WHOLE: Projection = { omitFor: () => undefined, omitted: 0 };

const planned = new WeakMap<DocumentNode, Projection>();

/** The projection of `document` (its queries and mutations) in `schema`, planned once per document. */
export function projectionOf(schema: GraphQLSchema, document: DocumentNode): Projection {
  let projection = planned.get(document);
  if (!projection) {
    projection = plan(schema, document);
    planned.set(document, projection);
  }
  return projection;
}

/** One set object per distinct set of paths, so the readers compiled for a set are shared by every document leaving it out. */
const interned = new Map<string, OmittedPaths>();
function intern(paths: string[]): OmittedPaths {
  const key = paths.sort().join('\n');
  let set = interned.get(key);
  if (!set) interned.set(key, (set = new Set(paths)));
  return set;
}

function plan(schema: GraphQLSchema, document: DocumentNode): Projection {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const selected = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation === 'subscription') return WHOLE;
    const root = definition.operation === 'query' ? schema.getQueryType() : schema.getMutationType();
    if (!root) return WHOLE;
    collect(schema, root, definition.selectionSet, fragments, selected, new Set());
  }
  const byOperation = new Map<string, string[]>();
  for (const part of PARTS) {
    if (part.types.some((type) => part.fields.some((field) => selected.has(`${type}.${field}`)))) continue;
    const paths = byOperation.get(part.operation) ?? [];
    paths.push(part.path);
    byOperation.set(part.operation, paths);
  }
  if (byOperation.size === 0) return WHOLE;
  const omits = new Map([...byOperation].map(([operation, paths]) => [operation, intern(paths)]));
  return { omitFor: (operation) => omits.get(operation), omitted: [...omits.values()].reduce((n, set) => n + set.size, 0) };
}

/**
 * Adds `Type.field` for every field selected under `type`, through fragments and into each
 * field's own selections. A field selected on an abstract type counts on each of its possible
 * types too (the resolvers are theirs).
 */
function collect(
  schema: GraphQLSchema,
  type: GraphQLNamedType,
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  selected: Set<string>,
  visited: Set<string>,
): void {
  const owners = isAbstractType(type) ? [type, ...schema.getPossibleTypes(type)] : [type];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      if (name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
      for (const owner of owners) selected.add(`${owner.name}.${name}`);
      const field = type.getFields()[name];
      if (field && selection.selectionSet) collect(schema, getNamedType(field.type), selection.selectionSet, fragments, selected, visited);
      continue;
    }
    const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
    // Coordinates are by type, so a fragment spread again adds nothing new (and a cycle, in an invalid document, ends).
    if (!fragment || (selection.kind === Kind.FRAGMENT_SPREAD && visited.has(selection.name.value))) continue;
    if (selection.kind === Kind.FRAGMENT_SPREAD) visited.add(selection.name.value);
    const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
    if (condition) collect(schema, condition, fragment.selectionSet, fragments, selected, visited);
  }
}
