import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import {
  getNamedType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';

/**
 * Documents that select every field of every object type reachable from `Query`, for tests that must
 * see each field resolved against some upstream (the devnet in oddities mode, a mock server generated
 * from the real spec), and the checks their answers must pass.
 *
 * Each object type is reached by a shortest path of fields from `Query` (abstract types through an
 * inline fragment on each possible type), with a few longer paths kept in reserve for when the
 * shortest one finds no object of the type. At the end of its path every field of the type is
 * selected: leaves as they are, links and connections with `{ __typename }` so that their resolvers
 * run too (what they lead to is selected in full by the document of its own type). A target's fields
 * are separate selections, so a runner can split a document the gateway refuses as too costly.
 */

/** Paths kept per type: the shortest, and others for when it finds no object of the type (one lookup, an empty listing). */
const PATHS_PER_TYPE = 8;

/** Where an argument is asked for: on the path to a target (fan-out multiplies) or in the target's own selection. */
export type ArgumentPlace = 'path' | 'target';

export interface ArgumentContext {
  place: ArgumentPlace;
  /**
   * On a path: the fields after this one down to the target and the target field selected (names;
   * `... on Type` as `on Type`), so a value can suit what follows (vertices only on the X-chain).
   * Empty in a target's selection.
   */
  below: readonly string[];
  /** The concrete type this step narrows its value to, if the field is abstract. */
  on?: string;
}

export interface SchemaWalkOptions {
  schema: GraphQLSchema;
  /**
   * GraphQL literals for an argument, e.g. `['"p-chain"', '"x-chain"']`: on a path, several are
   * selected side by side under aliases; in a target's selection the first is taken. Undefined or
   * empty: an optional argument is left out, and a field with a required argument left out is not
   * selected (nor walked through).
   */
  argument(parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>, argument: GraphQLArgument, context: ArgumentContext): readonly string[] | undefined;
  /** Fields never selected (e.g. `Query.node`, federation internals). Default none. */
  skip?(parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>): boolean;
  /** Paths kept per type, shortest first; the next is tried while the data holds no object of the type. Default 8. */
  pathsPerType?: number;
}

/** One field of a path to a target, and the concrete type it narrows to when the field is abstract. */
export interface WalkStep {
  parent: GraphQLObjectType;
  field: GraphQLField<unknown, unknown>;
  on?: GraphQLObjectType;
}

export interface WalkTarget {
  type: GraphQLObjectType;
  /** Shortest first. */
  paths: WalkStep[][];
  /** One selection per field of the type (`amount`, `validator { __typename }`), by field name. */
  selections: Map<string, string>;
  /** Fields of the type that cannot be selected (a required argument has no value). */
  unselectable: string[];
}

export interface SchemaWalk {
  options: SchemaWalkOptions;
  targets: WalkTarget[];
  /** Object types that no path reaches (only through skipped fields, mutations, or arguments without values). */
  unreached: string[];
}

/** Every object type reachable from `Query`, each with its paths and its fields' selections. */
export function walkSchema(options: SchemaWalkOptions): SchemaWalk {
  const { schema } = options;
  const skip = options.skip ?? (() => false);
  const pathsPerType = options.pathsPerType ?? PATHS_PER_TYPE;
  const query = schema.getQueryType();
  if (!query) throw new Error('the schema has no Query type');
  const paths = new Map<string, WalkStep[][]>([[query.name, [[]]]]);
  const queue: GraphQLObjectType[] = [query];
  // Breadth first, so every path of a type as short as its first is known when the type is expanded:
  // each of them is extended (a listing's edge type reached by two listings leads to items of both).
  for (let type = queue.shift(); type !== undefined; type = queue.shift()) {
    for (const path of paths.get(type.name) ?? []) {
      for (const field of Object.values(type.getFields())) {
        if (skip(type, field)) continue;
        const named = getNamedType(field.type);
        if (!isCompositeType(named)) continue;
        const concrete = isAbstractType(named) ? schema.getPossibleTypes(named) : [named];
        for (const next of concrete) {
          const on = isAbstractType(named) ? next : undefined;
          if (argumentLists(options, type, field, { place: 'path', below: [], ...(on ? { on: on.name } : {}) }) === undefined) continue;
          // No path passes through a type twice.
          if (next === query || path.some((step) => step.parent === next)) continue;
          const known = paths.get(next.name);
          const extended = [...path, { parent: type, field, ...(on ? { on } : {}) }];
          if (!known) {
            paths.set(next.name, [extended]);
            queue.push(next);
          } else if (known.length < pathsPerType) known.push(extended);
        }
      }
    }
  }
  const targets: WalkTarget[] = [];
  for (const [name, typePaths] of paths) {
    const type = schema.getType(name);
    if (!isObjectType(type) || type === query) continue;
    const selections = new Map<string, string>();
    const unselectable: string[] = [];
    for (const field of Object.values(type.getFields())) {
      if (skip(type, field)) continue;
      const args = argumentLists(options, type, field, { place: 'target', below: [] });
      if (args === undefined) {
        unselectable.push(field.name);
        continue;
      }
      selections.set(field.name, `${field.name}${args[0] ?? ''}${isLeafType(getNamedType(field.type)) ? '' : ' { __typename }'}`);
    }
    targets.push({ type, paths: typePaths, selections, unselectable });
  }
  const reached = new Set(paths.keys());
  const unreached = Object.values(schema.getTypeMap())
    .filter((t): t is GraphQLObjectType => isObjectType(t) && !t.name.startsWith('__') && !reached.has(t.name))
    .map((t) => t.name);
  return { options, targets, unreached };
}

/** One document's worth of a target: the selections that share the same path arguments. */
export interface WalkPart {
  names: string[];
  render(names: readonly string[], operationName: string): string;
}

/**
 * The documents selecting a target's fields at the end of `path`: the selections are grouped by the
 * arguments the path takes for them (a field may need its own chain on the way), each group one document.
 */
export function walkParts(walk: SchemaWalk, target: WalkTarget, path: readonly WalkStep[]): WalkPart[] {
  const groups = new Map<string, { names: string[]; args: string[][] }>();
  for (const name of target.selections.keys()) {
    const args: string[][] = [];
    let feasible = true;
    for (const [i, step] of path.entries()) {
      const below = [...path.slice(i + 1).flatMap((s) => (s.on ? [s.field.name, `on ${s.on.name}`] : [s.field.name])), name];
      const lists = argumentLists(walk.options, step.parent, step.field, { place: 'path', below, ...(step.on ? { on: step.on.name } : {}) });
      if (lists === undefined) feasible = false;
      args.push(lists ?? []);
    }
    if (!feasible) continue;
    const key = JSON.stringify(args);
    const group = groups.get(key) ?? { names: [], args };
    group.names.push(name);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ names, args }) => ({
    names,
    render: (selected, operationName) => {
      let inner = selected.map((name) => target.selections.get(name) ?? name).join(' ');
      for (let i = path.length - 1; i >= 0; i--) {
        const step = path[i] as WalkStep;
        const alternatives = args[i] ?? [''];
        // Every object on the way says its type, so a checker can tell which field an error's path ends at.
        const body = step.on ? `__typename ... on ${step.on.name} { ${inner} }` : `__typename ${inner}`;
        inner = alternatives.map((list, k) => `${alternatives.length > 1 ? `${step.field.name}${ALIAS_MARK}${k}: ` : ''}${step.field.name}${list} { ${body} }`).join(' ');
      }
      return `query ${operationName} { ${inner} }`;
    },
  }));
}

/** Separates a field's name from its alternative's number in an alias (`blockchain__1`); no field name holds it. */
export const ALIAS_MARK = '__';

/** Argument lists (`(a: 1, b: "x")`) for each alternative, or undefined when a required argument has no value. */
function argumentLists(options: SchemaWalkOptions, parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>, context: ArgumentContext): string[] | undefined {
  let lists: string[][] = [[]];
  for (const arg of field.args) {
    const values = options.argument(parent, field, arg, context) ?? [];
    if (values.length === 0) {
      if (isNonNullType(arg.type) && arg.defaultValue === undefined) return undefined;
      continue;
    }
    lists = lists.flatMap((list) => values.map((value) => [...list, `${arg.name}: ${value}`]));
  }
  return lists.map((list) => (list.length > 0 ? `(${list.join(', ')})` : ''));
}

/** A GraphQL answer as the runner reads it. */
export interface WalkResponse {
  data?: Record<string, unknown> | null;
  errors?: { message: string; path?: readonly (string | number)[]; extensions?: Record<string, unknown> }[];
}

/** Codes with which the gateway refuses a whole document before running it: the runner splits it and tries again. */
export const REFUSAL_CODES: ReadonlySet<string> = new Set(['QUERY_TOO_COSTLY', 'QUERY_TOO_COMPLEX', 'QUERY_TOO_DEEP', 'TOO_MANY_TOKENS', 'TOO_MANY_ALIASES', 'RESPONSE_TOO_LARGE']);

export interface WalkRunOptions {
  /** Runs one document. */
  query(text: string): Promise<WalkResponse>;
  /**
   * Executions of each document; all must answer alike. The gateway compiles an operation on its
   * `compileAfter`th execution, so 2 compares the interpreter with compiled code when that is 2. Default 2.
   */
  runs?: number;
  /** Targets walked at once (a slow upstream, such as a mock server, answers one while the gateway works on another). Default 1. */
  concurrency?: number;
}

/** Something an answer must not do; `field` is `Type.field` at the end of the error's path. */
export interface WalkViolation {
  kind: 'internal-error' | 'no-code' | 'not-confined' | 'runs-differ';
  field: string;
  code: string;
  detail: string;
  document: string;
}

export interface WalkReport {
  documents: number;
  /** Executions, all runs counted. */
  executions: number;
  /** Fields selected at their target, by `Type.field`. */
  selected: Set<string>;
  /** Fields resolved on at least one object (an object of their type was in the data). */
  reached: Set<string>;
  /** Fields that had a value (not null) at least once. */
  valued: Set<string>;
  /** Errors of the first run of each document, by code (`(none)` without one). */
  errorsByCode: Map<string, number>;
  /** Errors of the first runs by `Type.field code`: which fields failed, how often. */
  errorsByField: Map<string, number>;
  violations: WalkViolation[];
  /** Single selections the gateway still refused, with the code. */
  refused: string[];
  /** Types whose every path found no object of them. */
  empty: string[];
}

/**
 * Runs every target's documents (split while the gateway refuses them; the next path while the data
 * holds no object of the type) `runs` times and checks each answer: no INTERNAL_SERVER_ERROR, every
 * error coded, every error confined to its own field (a nullable field, so its parent object still
 * holds data), and every run answering alike (data and errors).
 */
export async function runWalk(walk: SchemaWalk, options: WalkRunOptions): Promise<WalkReport> {
  const { schema } = walk.options;
  const report: WalkReport = {
    documents: 0,
    executions: 0,
    selected: new Set(),
    reached: new Set(),
    valued: new Set(),
    errorsByCode: new Map(),
    errorsByField: new Map(),
    violations: [],
    refused: [],
    empty: [],
  };
  const runs = options.runs ?? 2;
  let serial = 0;
  /** Runs one part (splitting it on refusal); the number of target objects its data held. */
  const runPart = async (target: WalkTarget, path: readonly WalkStep[], part: WalkPart, names: readonly string[]): Promise<number> => {
    const text = part.render(names, `Walk${serial++}_${target.type.name}`);
    const answers: WalkResponse[] = [];
    for (let i = 0; i < runs; i++) answers.push(await options.query(text));
    report.executions += runs;
    const first = answers[0] as WalkResponse;
    const refusal = refusalOf(first);
    if (refusal !== undefined) {
      if (names.length === 1) {
        report.refused.push(`${target.type.name}.${names[0] ?? ''} (${refusal})`);
        return 0;
      }
      const half = Math.ceil(names.length / 2);
      return (await runPart(target, path, part, names.slice(0, half))) + (await runPart(target, path, part, names.slice(half)));
    }
    report.documents += 1;
    for (const name of names) report.selected.add(`${target.type.name}.${name}`);
    checkAnswer(schema, text, first, report);
    for (const answer of answers.slice(1)) {
      const a = canonical(first);
      const b = canonical(answer);
      if (a !== b) report.violations.push({ kind: 'runs-differ', field: target.type.name, code: '', detail: firstDifference(a, b), document: text });
    }
    const objects = objectsAt(first.data, path);
    for (const object of objects) {
      for (const name of names) {
        report.reached.add(`${target.type.name}.${name}`);
        if (object[name] !== null && object[name] !== undefined) report.valued.add(`${target.type.name}.${name}`);
      }
    }
    return objects.length;
  };
  const walkTarget = async (target: WalkTarget): Promise<void> => {
    let found = 0;
    for (const path of target.paths) {
      for (const part of walkParts(walk, target, path)) found += await runPart(target, path, part, part.names);
      if (found > 0) break;
    }
    if (found === 0) report.empty.push(target.type.name);
  };
  const pending = [...walk.targets];
  const worker = async (): Promise<void> => {
    for (let target = pending.shift(); target !== undefined; target = pending.shift()) await walkTarget(target);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 1) }, worker));
  return report;
}

/** The refusal code when the gateway refused the whole document (no data, only path-less refusal errors). */
function refusalOf(answer: WalkResponse): string | undefined {
  if (answer.data !== undefined || !answer.errors?.length) return undefined;
  const codes = answer.errors.map((e) => String(e.extensions?.['code'] ?? ''));
  return codes.every((code) => REFUSAL_CODES.has(code)) ? codes.join(',') : undefined;
}

/** Data and errors (without locations, sorted by path) as one text, to compare runs. */
function canonical(answer: WalkResponse): string {
  const errors = (answer.errors ?? []).map(({ message, path, extensions }) => ({ path: path ?? null, message, extensions: extensions ?? null }));
  errors.sort((a, b) => (JSON.stringify(a.path) < JSON.stringify(b.path) ? -1 : 1));
  return JSON.stringify({ data: answer.data ?? null, errors });
}

function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 100), i + 100)} <> …${b.slice(Math.max(0, i - 100), i + 100)}`;
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** The field a path segment names: an alias `name__k` stands for `name`. */
function fieldNameOf(segment: string): string {
  const mark = segment.lastIndexOf(ALIAS_MARK);
  return mark > 0 && /^\d+$/.test(segment.slice(mark + ALIAS_MARK.length)) ? segment.slice(0, mark) : segment;
}

function checkAnswer(schema: GraphQLSchema, document: string, answer: WalkResponse, report: WalkReport): void {
  for (const error of answer.errors ?? []) {
    const code = typeof error.extensions?.['code'] === 'string' ? error.extensions['code'] : '';
    bump(report.errorsByCode, code || '(none)');
    const located = locate(schema, answer.data, error.path ?? []);
    bump(report.errorsByField, `${located.field} ${code || '(none)'}`);
    const violation = (kind: WalkViolation['kind'], detail: string): void => {
      report.violations.push({ kind, field: located.field, code, detail, document });
    };
    if (code === 'INTERNAL_SERVER_ERROR') violation('internal-error', error.message);
    if (!code) violation('no-code', error.message);
    if (located.problem) violation('not-confined', `${located.problem} (path ${(error.path ?? []).join('.')}: ${error.message})`);
  }
}

/**
 * The `Type.field` at the end of an error's path (types read from the schema, narrowed by the data's
 * `__typename`), and what is wrong with where the error stopped, if anything: the failed field (or list
 * item) must be nullable, and the object holding it must still be in the data.
 */
function locate(schema: GraphQLSchema, data: WalkResponse['data'], path: readonly (string | number)[]): { field: string; problem?: string } {
  if (path.length === 0) return { field: '(operation)', problem: 'the error has no path: the whole operation failed' };
  let type: GraphQLNamedType | undefined = schema.getQueryType() ?? undefined;
  let value: unknown = data;
  let holder: unknown = data;
  let name = '(operation)';
  let failed: GraphQLField<unknown, unknown>['type'] | undefined;
  for (const segment of path) {
    if (typeof segment === 'number') {
      const list: GraphQLField<unknown, unknown>['type'] | undefined = failed && isNonNullType(failed) ? failed.ofType : failed;
      failed = list && isListType(list) ? list.ofType : list;
    } else {
      // The concrete type of the object this segment is read from: its __typename when the data has it.
      const typename = value && typeof value === 'object' ? (value as Record<string, unknown>)['__typename'] : undefined;
      const concrete: GraphQLNamedType | undefined = typeof typename === 'string' ? (schema.getType(typename) ?? undefined) : type;
      const fields: Record<string, GraphQLField<unknown, unknown>> = concrete && (isObjectType(concrete) || isInterfaceType(concrete)) ? concrete.getFields() : {};
      const field: GraphQLField<unknown, unknown> | undefined = fields[fieldNameOf(segment)];
      name = `${concrete?.name ?? '?'}.${fieldNameOf(segment)}`;
      if (!field) return { field: name, problem: 'no such field' };
      holder = value;
      failed = field.type;
      type = getNamedType(field.type);
    }
    value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[segment] : undefined;
  }
  if (!holder || typeof holder !== 'object') return { field: name, problem: 'its parent object is null: the error spread past its field' };
  if (failed && isNonNullType(failed)) return { field: name, problem: `${String(failed)} is non-null: the error nulls the parent` };
  return { field: name };
}

/** The objects at the end of a path in the data (lists flattened, nulls skipped, narrowed by `__typename`). */
function objectsAt(data: WalkResponse['data'], path: readonly WalkStep[]): Record<string, unknown>[] {
  let level: unknown[] = [data];
  for (const step of path) {
    const next: unknown[] = [];
    for (const holder of level) {
      if (!holder || typeof holder !== 'object') continue;
      for (const [key, value] of Object.entries(holder as Record<string, unknown>)) {
        if (fieldNameOf(key) !== step.field.name) continue;
        const items = Array.isArray(value) ? (value as unknown[]).flat(4) : [value];
        for (const item of items) {
          if (!item || typeof item !== 'object') continue;
          if (step.on && (item as Record<string, unknown>)['__typename'] !== step.on.name) continue;
          next.push(item);
        }
      }
    }
    level = next;
  }
  return level.filter((o): o is Record<string, unknown> => Boolean(o) && typeof o === 'object');
}

/** The summary printed for the lead: fields reached, errors by code, the violations by field. */
export function printWalkReport(title: string, walk: SchemaWalk, report: WalkReport): void {
  const lines = [
    `${title}: ${walk.targets.length} types, ${report.documents} documents (${report.executions} executions), fields selected ${report.selected.size}, reached ${report.reached.size}, with a value ${report.valued.size}`,
    `  errors by code: ${JSON.stringify(Object.fromEntries([...report.errorsByCode].sort((a, b) => b[1] - a[1])))}`,
    `  types no path reaches: ${walk.unreached.join(', ') || 'none'}`,
    `  types whose paths found no object: ${report.empty.join(', ') || 'none'}`,
    `  refused even alone: ${report.refused.join(', ') || 'none'}`,
    `  violations: ${report.violations.length}`,
  ];
  const byKind = new Map<string, number>();
  for (const v of report.violations) bump(byKind, `${v.kind} ${v.code} ${v.field}`);
  for (const [key, count] of [...byKind].sort()) lines.push(`    ${key} x${count}`);
  console.log(lines.join('\n'));
}

/** Root fields outside the Data API (the nodes' JSON-RPC), refetch by id, federation's and stitching's. */
const OUTSIDE_DATA_API = new Set(['node', 'nodes', 'avalancheNode', 'avalancheNodes', '_entities', '_service', '_sdl']);

/** Skips the root fields outside the Data API, and each type's link to the nodes' JSON-RPC (`peer`). */
export const skipOutsideDataApi = (parent: GraphQLCompositeType, field: GraphQLField<unknown, unknown>): boolean =>
  (parent.name === 'Query' && OUTSIDE_DATA_API.has(field.name)) || getNamedType(field.type).name === 'AvalancheNode';

/** Identifiers with data behind them, for the required arguments of a walk. */
export interface WalkFixtures {
  /** A `NetworkName` value, e.g. `MAINNET`. */
  network: string;
  evmChainId: string;
  address: string;
  /** Contracts by standard, for `Chain.contract` (each answers one contract type). */
  erc20Contract: string;
  erc721Contract: string;
  erc1155Contract: string;
  nftTokenId: string;
  txHash: string;
  pChainTxHash: string;
  blockId: string;
  nodeId: string;
  subnetId: string;
  /** A subnet converted to an L1, walked beside `subnetId` (its validator manager details). */
  l1SubnetId?: string;
  operationId: string;
  messageId: string;
  assetId: string;
  /** A primary-network address (bech32 without chain prefix). */
  primaryAddress: string;
}

/** Walk fixtures from the devnet's mainnet fixtures; `chosen` gives what a walk picks itself (a block, a message). */
export function walkFixturesOf(m: NetworkFixtures, chosen: Pick<WalkFixtures, 'blockId' | 'messageId'> & Partial<WalkFixtures>): WalkFixtures {
  return {
    network: 'MAINNET',
    evmChainId: m.evmChainId,
    address: m.address,
    erc20Contract: m.contractAddress,
    erc721Contract: m.nftContract,
    erc1155Contract: m.erc1155Contract,
    nftTokenId: m.nftTokenId,
    txHash: m.txHash,
    pChainTxHash: m.pChainTxHash,
    nodeId: m.nodeId,
    subnetId: m.subnetId,
    operationId: m.operationId,
    assetId: m.avaxAssetId,
    primaryAddress: m.rewardAddress,
    ...chosen,
  };
}

/** Which primary chain a path through `Network.blockchain` needs for what it selects below it. */
function chainsFor(below: readonly string[]): string[] {
  // The first of these below decides (a P-chain listing's items may have fields named like X-chain ones).
  const only = below.find((name) => name === 'stakingTransactions' || name === 'vertices' || name === 'asset');
  if (only === 'stakingTransactions') return ['"p-chain"'];
  if (only !== undefined) return ['"x-chain"'];
  return ['"p-chain"', '"x-chain"', '"c-chain"'];
}

/** A status filter for a listing whose items the path narrows to one status (`on ActiveValidator`). */
function statusFilter(field: string, below: readonly string[]): string[] | undefined {
  const narrowed = below.find((name) => name.startsWith('on '))?.slice(3);
  const status = narrowed?.match(/^(Active|Pending|Completed|Removed)(Validator|Delegator)$/);
  if (!status?.[1] || !status[2] || !field.endsWith(`${status[2].toLowerCase()}s`)) return undefined;
  const key = status[2] === 'Validator' ? 'validationStatus' : 'delegationStatus';
  return [`{ ${key}: ${status[1].toUpperCase()} }`];
}

/**
 * Argument values for a walk from fixtures: required ones from the fixtures, `first` small on paths
 * (three items of each listing, so a bad value in one item leaves others to reach) and 1 in a
 * target's own selection. `Network.blockchain` walks the primary chains side by side (only the one a
 * chain-specific field needs); single lookups of abstract types are left off paths, so their concrete
 * types are reached through listings that hold several, filtered to the status a path narrows to.
 */
export function fixtureArguments(f: WalkFixtures): SchemaWalkOptions['argument'] {
  const q = (value: string): string => JSON.stringify(value);
  return (parent, field, arg, { place, below, on }) => {
    const onPath = place === 'path';
    switch (arg.name) {
      case 'first':
        return [onPath ? '3' : '1'];
      case 'name':
        return field.name === 'network' ? [f.network] : undefined;
      case 'network':
        // An optional network narrows listings (chains, ICM messages) to the walked one.
        return isEnumType(getNamedType(arg.type)) ? [f.network] : undefined;
      case 'chainId':
        return [q(f.evmChainId)];
      case 'address':
        if (field.name === 'contract') {
          if (on === 'Erc721Contract') return [q(f.erc721Contract)];
          if (on === 'Erc1155Contract') return [q(f.erc1155Contract)];
          return [q(f.erc20Contract)];
        }
        if (field.name === 'contractDeployment') return [q(f.erc20Contract)];
        if (field.name === 'nftToken') return [q(f.erc721Contract)];
        return [q(f.address)];
      case 'tokenId':
        return [q(f.nftTokenId)];
      case 'txHash':
        if (parent.name === 'Chain') return [q(f.txHash)];
        // One P-chain transaction is one type of several: paths go through the listing.
        return onPath && parent.name === 'PrimaryBlockchain' ? undefined : [q(f.pChainTxHash)];
      case 'id':
        if (field.name === 'blockchain') return onPath ? chainsFor(below) : ['"p-chain"'];
        if (field.name === 'block') return [q(f.blockId)];
        return undefined;
      case 'nodeId':
        // One validation is one status of four: paths go through the listing.
        return onPath && field.name === 'validator' ? undefined : [q(f.nodeId)];
      case 'nodeIds':
        // The network's rewards need an address or a node.
        return parent.name === 'Network' && field.name.endsWith('Rewards') ? [`[${q(f.nodeId)}]`] : undefined;
      case 'subnetId':
        return onPath && f.l1SubnetId ? [q(f.subnetId), q(f.l1SubnetId)] : [q(f.subnetId)];
      case 'operationId':
        return [q(f.operationId)];
      case 'messageId':
        return [q(f.messageId)];
      case 'assetId':
        return field.name === 'asset' ? [q(f.assetId)] : undefined;
      case 'filter':
        return onPath ? statusFilter(field.name, below) : undefined;
      case 'addresses':
        return isNonNullType(arg.type) ? [`[${q(f.primaryAddress)}]`] : undefined;
      default:
        return undefined;
    }
  };
}
