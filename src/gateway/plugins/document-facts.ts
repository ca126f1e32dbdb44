import { getOperationAST, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { operationKey, DOCUMENT_MEMO_DEFAULTS } from './document-memo.ts';

/**
 * Every per-document analysis of the edge (cost estimate, input checks, compiled query...), kept on the
 * parsed document and read in one lookup: a request finds its document's facts in one WeakMap, and its
 * operation's facts (per operation name and values of the variables it declares) in one Map of those.
 * Each rule names its own fact ({@link defineFact}) and computes it on a miss; the rules stay in their
 * own modules, only where they keep what they learnt is shared.
 *
 * Bounded by construction, as `document-memo.ts` is: the facts live exactly as long as their document
 * (for a request, or while the parse cache keeps it); at most `maxPerDocument` operations' facts per
 * document, least recently used out first; a fact counted over `maxValueBytes` by its `sizeOf` is
 * computed for its request and not kept.
 */
export interface Fact<T> {
  readonly name: string;
  /** Counts a value in bytes; one counted above {@link DOCUMENT_MEMO_DEFAULTS}.maxValueBytes is not kept. Default: every value counts 0. */
  readonly sizeOf?: (value: T) => number;
}

/** A fact of one operation (or of the whole document, with {@link documentFact}), named for debugging. */
export function defineFact<T>(name: string, options: { sizeOf?: (value: T) => number } = {}): Fact<T> {
  return { name, ...options };
}

/** What one execution is asked about: the fields of graphql-js's ExecutionArgs that name an operation. */
export interface OperationArgs {
  document: DocumentNode;
  operationName?: string | null | undefined;
  variableValues?: Readonly<Record<string, unknown>> | null | undefined;
}

type Values = Map<Fact<never>, unknown>;

interface DocumentFacts {
  /** Per operation key, least recently used first. */
  operations: Map<string, Values>;
  /** The operation of each name asked for (`getOperationAST`), by {@link nameKey}. */
  named: Map<string, OperationDefinitionNode | null>;
  whole: Values;
}

const documents = new WeakMap<DocumentNode, DocumentFacts>();
// One execution's operation facts, found once and shared by every rule that asks about the same args
// (envelop hands each plugin's hook the same args object): a SHA-256 of the variables at most once per execution.
const executions = new WeakMap<object, Values>();

function factsOf(document: DocumentNode): DocumentFacts {
  let facts = documents.get(document);
  if (!facts) documents.set(document, (facts = { operations: new Map(), named: new Map(), whole: new Map() }));
  return facts;
}

/** The operation `operationName` picks in `document` (graphql-js's `getOperationAST`), found once per document and name. */
export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | null {
  const named = factsOf(document).named;
  const name = nameKey(operationName);
  const known = named.get(name);
  if (known !== undefined) return known;
  const operation = getOperationAST(document, operationName) ?? null;
  // Names come from callers: only the document's own are kept (a name it lacks finds no operation).
  if (operation || named.size < DOCUMENT_MEMO_DEFAULTS.maxPerDocument) named.set(name, operation);
  return operation;
}

/** An operation name as a key: no name (the document's only operation) is not the empty name (which names none). */
function nameKey(operationName: string | null | undefined): string {
  return operationName == null ? '\0' : `=${operationName}`;
}

/**
 * The key of one operation's facts: its name alone when it declares no variables (no hash to make),
 * else `operationKey`'s SHA-256 of its name and of the values of the variables it declares.
 */
function keyOf(args: OperationArgs): string {
  const operation = operationOf(args.document, args.operationName);
  if (!operation?.variableDefinitions?.length) return nameKey(args.operationName);
  return operationKey(args.document, args.operationName ?? undefined, args.variableValues ?? {});
}

function valuesOf(args: OperationArgs): Values {
  let values = executions.get(args);
  if (values) return values;
  const operations = factsOf(args.document).operations;
  const key = keyOf(args);
  values = operations.get(key);
  if (values) {
    // Refresh: Map keeps insertion order, so the first key is the least recently used.
    operations.delete(key);
  } else {
    values = new Map();
    if (operations.size >= DOCUMENT_MEMO_DEFAULTS.maxPerDocument) operations.delete(operations.keys().next().value as string);
  }
  operations.set(key, values);
  executions.set(args, values);
  return values;
}

function lookup<T>(values: Values, fact: Fact<T>, compute: () => T): T {
  if (values.has(fact as Fact<never>)) return values.get(fact as Fact<never>) as T;
  const value = compute();
  if (!fact.sizeOf || fact.sizeOf(value) <= DOCUMENT_MEMO_DEFAULTS.maxValueBytes) values.set(fact as Fact<never>, value);
  return value;
}

/** `fact` of the operation `args` execute (its name and the values of the variables it declares), computed on a miss. */
export function operationFact<T>(args: OperationArgs, fact: Fact<T>, compute: () => T): T {
  return lookup(valuesOf(args), fact, compute);
}

/** `fact` of the whole document, whatever operation runs, computed on a miss. */
export function documentFact<T>(document: DocumentNode, fact: Fact<T>, compute: () => T): T {
  return lookup(factsOf(document).whole, fact, compute);
}
