import { createHash } from 'node:crypto';
import { getOperationAST, type DocumentNode } from 'graphql';

/** Options of {@link createDocumentMemo}. */
export interface DocumentMemoOptions<T> {
  /** Results kept per document (distinct operation names and used-variable values), least recently used out first. Default 8. */
  maxPerDocument?: number;
  /**
   * Counts a result in bytes; results counted above `maxValueBytes` are computed for
   * their request and not kept (an error list that quotes a caller's long argument,
   * say). Default: every result counts 0.
   */
  sizeOf?: (value: T) => number;
  /** Largest result kept, as counted by `sizeOf`. Default 1 KiB. */
  maxValueBytes?: number;
}

export const DOCUMENT_MEMO_DEFAULTS = { maxPerDocument: 8, maxValueBytes: 1024 } as const;

/**
 * Memoizes one per-operation analysis (cost estimate, argument checks): call it as
 * `memo(document, operationName, variables, compute)`.
 *
 * Bounded by construction:
 * - results hang off the DocumentNode in a WeakMap, so they live exactly as long as
 *   the document: for a request, or while the parse cache (`use-parse-cache.ts`,
 *   keyed by a hash of the query text, byte-budgeted) keeps it;
 * - per document at most `maxPerDocument` results, keyed by a SHA-256 of the operation
 *   name and of the values of the variables the operation declares, never by the raw
 *   variables: an unused 1 MB variable neither lands in a key nor splits the memo;
 * - results over `maxValueBytes` are not kept.
 *
 * The older call form `memo(document, key, compute)` still works; the key is hashed.
 */
export function createDocumentMemo<T>(options: DocumentMemoOptions<T> | number = {}): DocumentMemo<T> {
  const opts: DocumentMemoOptions<T> = typeof options === 'number' ? { maxPerDocument: options } : options;
  const maxPerDocument = Math.max(1, opts.maxPerDocument ?? DOCUMENT_MEMO_DEFAULTS.maxPerDocument);
  const maxValueBytes = opts.maxValueBytes ?? DOCUMENT_MEMO_DEFAULTS.maxValueBytes;
  const memo = new WeakMap<DocumentNode, Map<string, T>>();

  function lookup(document: DocumentNode, key: string, compute: () => T): T {
    let entries = memo.get(document);
    if (entries?.has(key)) {
      const value = entries.get(key) as T;
      // Refresh: Map keeps insertion order, so the first key is the least recently used.
      entries.delete(key);
      entries.set(key, value);
      return value;
    }
    const value = compute();
    if (opts.sizeOf && opts.sizeOf(value) > maxValueBytes) return value;
    if (!entries) memo.set(document, (entries = new Map()));
    if (entries.size >= maxPerDocument) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  }

  function run(
    document: DocumentNode,
    keyOrOperationName: string | null | undefined,
    variablesOrCompute: Record<string, unknown> | null | undefined | (() => T),
    maybeCompute?: () => T,
  ): T {
    if (typeof variablesOrCompute === 'function') return lookup(document, digest(keyOrOperationName ?? ''), variablesOrCompute);
    const compute = maybeCompute as () => T;
    return lookup(document, operationKey(document, keyOrOperationName ?? undefined, variablesOrCompute ?? {}), compute);
  }
  return run as DocumentMemo<T>;
}

export interface DocumentMemo<T> {
  /** The memoized result for this operation of `document` with these variables (only the declared ones count). */
  (document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined, compute: () => T): T;
  /** @deprecated Older form: `key` is hashed; pass the operation name and variables instead. */
  (document: DocumentNode, key: string, compute: () => T): T;
}

/**
 * The memo key of one operation of a document: a SHA-256 of its name and of the
 * values of the variables it declares, in declaration order. Variables the operation
 * does not declare cannot change its result, so they are left out.
 */
export function operationKey(document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): string {
  const operation = getOperationAST(document, operationName);
  const hash = createHash('sha256').update(operationName ?? '').update('\0');
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    hash.update(name).update('=').update(JSON.stringify(variables[name]) ?? 'undefined').update('\0');
  }
  return hash.digest('base64url');
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
