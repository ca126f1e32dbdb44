import type { DocumentNode } from 'graphql';

/**
 * Memoizes a per-operation analysis by document and variables. Yoga's parser cache
 * hands out the same DocumentNode for the same query text, so repeated operations
 * skip the walk; entries go with their document (WeakMap) and stay few per document.
 */
export function createDocumentMemo<T>(maxPerDocument = 32): (document: DocumentNode, key: string, compute: () => T) => T {
  const memo = new WeakMap<DocumentNode, Map<string, T>>();
  return (document, key, compute) => {
    let entries = memo.get(document);
    if (!entries) memo.set(document, (entries = new Map()));
    if (entries.has(key)) return entries.get(key) as T;
    const value = compute();
    if (entries.size >= maxPerDocument) entries.delete(entries.keys().next().value as string);
    entries.set(key, value);
    return value;
  };
}
