import {
  defaultFieldResolver,
  defaultTypeResolver,
  getNamedType,
  GraphQLError,
  isAbstractType,
  isObjectType,
  BREAK,
  Kind,
  responsePathAsArray,
  visit,
  type ASTNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery, type CompilerOptions } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { defineFact, documentFact, operationOf } from './document-facts.ts';
import { LRUCache } from 'lru-cache';

/** Options of {@link useCompiledExecution}. */
export interface CompiledExecutionOptions {
  /** Budget of the compiled queries kept, in counted bytes (see {@link compiledBytes}). Default 8 MiB. */
  maxBytes?: number;
  /** Most compiled queries kept. Default 200. */
  maxEntries?: number;
  /**
   * Executions of one operation of one parsed document before it is compiled: compiling the
   * validator walk takes about 4 ms, more than executing it once, so a document seen once is
   * interpreted. Documents are told apart by identity, so only those the parse cache keeps
   * (`use-parse-cache.ts`) are ever compiled. Default 2.
   */
  compileAfter?: number;
  /**
   * Fields compiled (see {@link compiledFields}) above which an operation is never compiled: the code
   * generated is about 2.6 K characters per field compiled, and takes about 0.1 ms per field to make.
   * The validator walk counts 99 (262 K characters, 4 ms). Default 300.
   */
  maxFields?: number;
}

export const COMPILED_EXECUTION_DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxEntries: 200, compileAfter: 2, maxFields: 300 } as const;

/**
 * Heap one compiled query holds per character of the code generated for it (the source V8 keeps,
 * bytecode, closures, resolve infos), once executed: measured 0.28 (40 distinct validator walks in
 * a gateway, 72 KiB each for 262 K characters; graphql-jit 0.8, Node 20), counted as 1 to leave room
 * for optimized code and other V8 versions.
 */
const BYTES_PER_CODE_CHAR = 1;
/**
 * The document a compiled query keeps alive, per character of its text (it may outlive the
 * parse cache's entry): the parse cache counts about 400 bytes per token, a token being 3-5 characters.
 */
const BYTES_PER_DOCUMENT_CHAR = 100;
const ENTRY_OVERHEAD = 1024;
/** Distinct operation names counted per document; past them its other operations are interpreted. */
const MAX_OPERATIONS_PER_DOCUMENT = 16;
/** Nesting (fields and fragment spreads) past which an operation is not compiled; the gateway refuses queries deeper than 15. */
const MAX_DEPTH = 32;
/** An operation that is never compiled (over `maxFields`, introspection, or its compilation failed). */
const NEVER = -Infinity;
/**
 * Executions an operation evicted from the cache is interpreted before it is compiled again, so
 * operations that keep evicting each other (more than the budget holds) cost one compilation per
 * this many executions rather than one each.
 */
const RECOMPILE_AFTER = 8;

export interface CompiledExecutionStats {
  entries: number;
  /** Counted bytes held; never above `maxBytes`. */
  bytes: number;
  maxBytes: number;
  /** Compilations since the plugin was made. */
  compilations: number;
}

/** The plugin, and what it holds (for tests and the memory budget). */
export type CompiledExecutionPlugin = Plugin & { compiledExecutionStats(): CompiledExecutionStats };

interface Compiled {
  query: CompiledQuery['query'];
  bytes: number;
}

interface DocumentState {
  id: number;
  /** The document asks for incremental delivery (`@defer`, `@stream`), which graphql-jit does not know: never compiled. */
  incremental: boolean;
  /** Executions so far by operation name, or NEVER. */
  runs: Map<string, number>;
}

/**
 * Query operations executed by code compiled for them (graphql-jit) instead of graphql-js's
 * interpreter: the fields' resolvers, argument values, type checks and serialization of one
 * operation become straight-line code once. Gateway CPU per validator walk: 2.3-2.7 -> 1.3-1.5 ms
 * served from the upstream cache, 6.0-6.3 -> 4.9-5.3 ms uncached (best of 3 runs of 300 queries,
 * measured when this was added; `npm run bench` reports the gateway's CPU per query today).
 *
 * What stays with the interpreter (yoga's executor): mutations (executed in order, rare),
 * subscriptions (per event), introspection, documents using `@defer` or `@stream` (graphql-jit
 * would ignore the directives and answer everything at once), operations seen fewer than `compileAfter` times,
 * operations over `maxFields`, and any whose compilation fails. Refusals are untouched: this
 * sets the execute function before the cost plugin, whose refusal replaces it, and the variable
 * and input checks stop execution before it runs.
 *
 * Compiled queries are kept in an LRU counted in bytes (the code generated and the document it
 * holds on to), keyed by the parsed document's identity and the operation name.
 *
 * Where graphql-jit departs from graphql-js, this puts graphql-js's behaviour back:
 * - graphql-jit reads a field without a resolver as a plain property, outside any try: an
 *   upstream answer's broken field (a getter that throws, `src/shapes/read.ts`) would escape
 *   and leave the operation pending for ever. Each operation is compiled with graphql-js's
 *   default resolver on those fields, so the throw becomes that field's error, as in
 *   graphql-js; `isTypeOf` and `resolveType`, also called outside any try, are guarded the
 *   same way ({@link guardedSchema}). Measured: no slower than plain property reads.
 * - Its errors carry `locations` but no AST nodes, from which yoga rebuilds every error (the
 *   locations would be dropped): they are rebuilt here as graphql-js errors, nodes included.
 */
export function useCompiledExecution(options: CompiledExecutionOptions = {}): CompiledExecutionPlugin {
  const maxBytes = options.maxBytes ?? COMPILED_EXECUTION_DEFAULTS.maxBytes;
  const compileAfter = Math.max(1, options.compileAfter ?? COMPILED_EXECUTION_DEFAULTS.compileAfter);
  const maxFields = options.maxFields ?? COMPILED_EXECUTION_DEFAULTS.maxFields;
  const cache = new LRUCache<string, Compiled>({
    max: options.maxEntries ?? COMPILED_EXECUTION_DEFAULTS.maxEntries,
    maxSize: maxBytes,
    // An entry over the whole budget is used for its request and not kept (rather than evicting everything for it).
    maxEntrySize: maxBytes,
    sizeCalculation: (entry) => entry.bytes,
  });
  // Each document's state, kept with its other facts (document-facts.ts): one lookup per execution.
  const documentState = defineFact<DocumentState>('compiled execution');
  let nextId = 0;
  let compilations = 0;

  const compile = (args: ExecutionArgs, state: DocumentState, name: string, key: string): Compiled | undefined => {
    // `debug` keeps the generated code's text on the result: its length is what the entry is counted by.
    const compilerOptions: Partial<CompilerOptions> & { debug: boolean } = { disablingCapturingStackErrors: true, debug: true };
    const result = guardedSchema(args.schema, () => compileQuery(args.schema, args.document, args.operationName ?? undefined, compilerOptions));
    compilations += 1;
    if (!isCompiledQuery(result)) {
      state.runs.set(name, NEVER);
      return undefined;
    }
    const debug = result as { __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation?: string };
    const entry: Compiled = { query: result.query, bytes: compiledBytes(debug.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation?.length ?? 0, args.document) };
    state.runs.set(name, compileAfter - 1 - RECOMPILE_AFTER);
    // The compiled function keeps its own copy of the code; this one was only for counting.
    delete debug.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation;
    cache.set(key, entry);
    return entry;
  };

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const operation = operationOf(args.document, args.operationName);
      if (operation?.operation !== 'query') return;
      const state = documentFact(args.document, documentState, () => ({ id: nextId++, incremental: usesIncrementalDelivery(args.document), runs: new Map() }));
      if (state.incremental) return;
      const name = args.operationName ?? '';
      const key = `${state.id}\0${name}`;
      const hit = cache.get(key);
      if (hit) {
        setExecuteFn((executeArgs: ExecutionArgs) => run(hit, executeArgs));
        return;
      }
      const runs = state.runs.get(name) ?? 0;
      if (runs === NEVER || (runs === 0 && state.runs.size >= MAX_OPERATIONS_PER_DOCUMENT)) return;
      if (runs + 1 < compileAfter) {
        state.runs.set(name, runs + 1);
        return;
      }
      if (compiledFields(args.schema, args.document, operation, maxFields) > maxFields) {
        state.runs.set(name, NEVER);
        return;
      }
      const known = state;
      const interpret = executeFn;
      // Compiled when (and if) execution starts: a refusal that replaces the execute function costs no compilation.
      setExecuteFn((executeArgs: ExecutionArgs) => {
        const entry = cache.get(key) ?? compile(executeArgs, known, name, key);
        return entry ? run(entry, executeArgs) : interpret(executeArgs);
      });
    },
    compiledExecutionStats: () => ({ entries: cache.size, bytes: cache.calculatedSize, maxBytes, compilations }),
  };
}

function run(entry: Compiled, args: ExecutionArgs): ExecutionResult | Promise<ExecutionResult> {
  const result = entry.query(args.rootValue, args.contextValue, args.variableValues);
  return isPromiseLike(result) ? Promise.resolve(result).then((done) => withGraphQLErrors(done, args)) : withGraphQLErrors(result, args);
}

/** True when any `@defer` or `@stream` appears in the document (in any operation or fragment: checked once per document). */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

/** Counted bytes of one compiled query: its generated code and the document it keeps alive. */
export function compiledBytes(codeLength: number, document: DocumentNode): number {
  return BYTES_PER_CODE_CHAR * codeLength + BYTES_PER_DOCUMENT_CHAR * (document.loc?.end ?? 0) + ENTRY_OVERHEAD;
}

/**
 * The size of the code graphql-jit would generate for the operation, in fields compiled, or
 * Infinity when it is over `maxFields` or asks for introspection. graphql-jit compiles each
 * fragment where it is spread and each selection on an abstract type once per possible type, so
 * fields are counted that way: `nodes { ... on Validator { peer { validator(network: MAINNET)
 * { ... } } } }` multiplies by 21 and then by 4 at each level (six such levels, 41 fields in the
 * text, would be 170 MB of code and 3.6 s of compilation).
 */
export function compiledFields(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, maxFields: number): number {
  const root = schema.getRootType(operation.operation);
  if (!root) return Infinity;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  // Fields counted, and selections visited (a spread or fragment whose type does not apply counts no field but takes work).
  let fields = 0;
  let work = 0;
  const applies = (condition: string | undefined, type: GraphQLObjectType): boolean => {
    if (condition === undefined || condition === type.name) return true;
    const conditionType = schema.getType(condition);
    return conditionType !== undefined && isAbstractType(conditionType) && schema.isSubType(conditionType, type);
  };
  const visitSet = (selectionSet: SelectionSetNode, type: GraphQLObjectType, depth: number): boolean => {
    for (const selection of selectionSet.selections) {
      if ((work += 1) > 10 * maxFields || depth > MAX_DEPTH) return false;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        if (name === '__schema' || name === '__type') return false;
        if ((fields += 1) > maxFields) return false;
        const returned = type.getFields()[name]?.type;
        if (!selection.selectionSet || !returned) continue;
        const named = getNamedType(returned);
        const concrete = isAbstractType(named) ? schema.getPossibleTypes(named) : isObjectType(named) ? [named] : [];
        for (const each of concrete) if (!visitSet(selection.selectionSet, each, depth + 1)) return false;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (applies(selection.typeCondition?.name.value, type) && !visitSet(selection.selectionSet, type, depth)) return false;
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment && applies(fragment.typeCondition.name.value, type) && !visitSet(fragment.selectionSet, type, depth + 1)) return false;
      }
    }
    return true;
  };
  return visitSet(operation.selectionSet, root, 0) ? fields : Infinity;
}

/** Errors thrown by a guarded `resolveType`, by request context and response path, until the result is rebuilt. */
const typeErrors = new WeakMap<object, Map<string, unknown>>();

/**
 * Runs `compile` (synchronous) with the schema guarded, then takes the guards off again: the
 * compiled code keeps the functions it read, and nothing else ever sees them.
 * - Fields without a resolver get graphql-js's default resolver, so graphql-jit calls it inside
 *   its try (and a getter that throws fails that field) instead of reading the property inline.
 * - `isTypeOf` that throws answers true, and the fields read next fail with their own errors
 *   (graphql-jit would print the value, reading every getter, outside any try).
 * - `resolveType` that throws answers no type, and its error is kept for {@link withGraphQLErrors},
 *   which reports it at that field as graphql-js does.
 */
export function guardedSchema<T>(schema: GraphQLSchema, compile: () => T): T {
  const undo: (() => void)[] = [];
  try {
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__')) continue;
      if (isObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (field.resolve) continue;
          field.resolve = defaultFieldResolver;
          undo.push(() => void (field.resolve = undefined));
        }
        const isTypeOf = type.isTypeOf;
        if (!isTypeOf) continue;
        type.isTypeOf = (value, context, info) => {
          try {
            return isTypeOf(value, context, info);
          } catch {
            return true;
          }
        };
        undo.push(() => void (type.isTypeOf = isTypeOf));
      } else if (isAbstractType(type)) {
        const resolveType = type.resolveType;
        const resolve = resolveType ?? defaultTypeResolver;
        type.resolveType = (value, context, info, abstractType) => {
          try {
            return resolve(value, context, info, abstractType);
          } catch (error) {
            keepTypeError(context, info.path, error);
            return undefined;
          }
        };
        undo.push(() => void (type.resolveType = resolveType));
      }
    }
    return compile();
  } finally {
    for (const restore of undo) restore();
  }
}

function keepTypeError(context: unknown, path: GraphQLResolveInfo['path'], error: unknown): void {
  if (typeof context !== 'object' || context === null) return;
  let errors = typeErrors.get(context);
  if (!errors) typeErrors.set(context, (errors = new Map()));
  errors.set(pathKey(responsePathAsArray(path)), error);
}

type JitError = GraphQLError & { locations?: readonly { line: number; column: number }[] };

/** The result with graphql-jit's errors rebuilt as graphql-js errors, nodes included. */
function withGraphQLErrors(result: ExecutionResult, args: ExecutionArgs): ExecutionResult {
  if (!result.errors?.length || result.errors.every((error) => error.constructor === GraphQLError)) return result;
  const context: unknown = args.contextValue;
  const thrown = typeof context === 'object' && context !== null ? typeErrors.get(context) : undefined;
  if (thrown) typeErrors.delete(context as object);
  const errors = result.errors.map((error) => (error.constructor === GraphQLError ? error : rebuild(error as JitError, args.document, thrown)));
  return { ...result, errors };
}

/** As graphql-js's `locatedError` makes a field's error from what its resolver threw (extensions come from the original). */
function rebuild(error: JitError, document: DocumentNode, thrown: Map<string, unknown> | undefined): GraphQLError {
  const fromType = error.path ? thrown?.get(pathKey(error.path)) : undefined;
  const original = fromType instanceof Error ? fromType : error.originalError;
  if (original instanceof GraphQLError && original.path) return original;
  const ownNodes = original instanceof GraphQLError ? original.nodes : undefined;
  const nodes = ownNodes ?? nodesAt(document, error.locations ?? []);
  return new GraphQLError(fromType instanceof Error ? fromType.message : error.message, {
    ...(nodes.length > 0 ? { nodes } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(original ? { originalError: original } : {}),
  });
}

function pathKey(path: readonly (string | number)[]): string {
  return path.join('\0');
}

/** Field nodes of each document by where they start (`line:column`), built once per document that has an error. */
const fieldsByLocation = new WeakMap<DocumentNode, Map<string, ASTNode>>();

function nodesAt(document: DocumentNode, locations: readonly { line: number; column: number }[]): ASTNode[] {
  let byLocation = fieldsByLocation.get(document);
  if (!byLocation) {
    const found = new Map<string, ASTNode>();
    visit(document, {
      Field(node) {
        const token = node.loc?.startToken;
        if (token) found.set(`${token.line}:${token.column}`, node);
      },
    });
    fieldsByLocation.set(document, (byLocation = found));
  }
  const nodes: ASTNode[] = [];
  for (const { line, column } of locations) {
    const node = byLocation.get(`${line}:${column}`);
    if (node) nodes.push(node);
  }
  return nodes;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
