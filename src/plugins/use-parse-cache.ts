import { TokenKind, type DocumentNode, type GraphQLSchema, type Token, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { stringBytes, textDigest } from '../lib/text.ts';

/** Options of {@link useParseCache}. */
export interface ParseCacheOptions {
  /** Budget of the cached documents and parse errors, in counted bytes (see {@link documentBytes}). Default 8 MiB. */
  maxBytes?: number;
  /** Most cached documents and errors. Default 500 (the document memos keep up to 8 results per live document). */
  maxEntries?: number;
  /**
   * A document counted larger than this is parsed for its request and not kept. The
   * GraphiQL examples count about 150 KB; the token limit allows documents of about
   * 1.6 MB counted. Default 256 KiB.
   */
  maxDocumentBytes?: number;
}

export const PARSE_CACHE_DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxEntries: 500, maxDocumentBytes: 256 * 1024 } as const;

/**
 * Heap a parsed document holds per token once its token list is detached: the AST
 * node, its Location and the two boundary tokens, measured at 150-400 bytes on
 * graphql 16 / V8 11 and rounded up.
 */
const BYTES_PER_TOKEN = 400;
/** The cache entry, its hashed key and LRU bookkeeping. */
const ENTRY_OVERHEAD = 256;

export interface ParseCacheStats {
  entries: number;
  /** Counted bytes held; never above `maxBytes`. */
  bytes: number;
  maxBytes: number;
}

/** The plugin, and what it holds (for tests and the memory soak). */
export type ParseCachePlugin = Plugin & { parseCacheStats(): ParseCacheStats };

type Entry = { document: DocumentNode; bytes: number } | { error: Error; bytes: number };

/**
 * The parse and validation cache, in place of yoga's (`parserAndValidationCache: false`),
 * whose caches are keyed by the raw query text and bounded only by entry count: a
 * thousand distinct documents carrying a 1 MB comment each would stay on the heap.
 *
 * Here documents are keyed by a SHA-256 of their text, counted in bytes (source text
 * plus tokens) against a byte budget, and documents over `maxDocumentBytes` are not
 * kept at all. Validation results live in a WeakMap on the document, so they go
 * when it goes; so do the document memos (`document-memo.ts`).
 *
 * Every parsed document, cached or not, also has its token list detached: graphql-js
 * links every token, comments included, from the document's Location objects, so a
 * 1 MB document of `#` lines holds about 45 MB of tokens for as long as its request
 * runs. Nothing reads the list after parsing (locations come from offsets into the
 * source), so the links are cut and only the tokens that bound AST nodes stay.
 */
export function useParseCache(options: ParseCacheOptions = {}): ParseCachePlugin {
  const maxBytes = options.maxBytes ?? PARSE_CACHE_DEFAULTS.maxBytes;
  const maxDocumentBytes = Math.min(options.maxDocumentBytes ?? PARSE_CACHE_DEFAULTS.maxDocumentBytes, maxBytes);
  const cache = new LRUCache<string, Entry>({
    max: options.maxEntries ?? PARSE_CACHE_DEFAULTS.maxEntries,
    maxSize: maxBytes,
    // maxEntrySize makes lru-cache refuse (not store) an entry over it, rather than evict everything for it.
    maxEntrySize: maxDocumentBytes,
    sizeCalculation: (entry) => entry.bytes,
  });
  const validations = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, readonly Error[]>>>();

  return {
    onParse({ params, setParsedDocument }) {
      const text = typeof params.source === 'string' ? params.source : params.source.body;
      const key = textDigest(text);
      const hit = cache.get(key);
      if (hit && 'document' in hit) {
        setParsedDocument(hit.document);
        return undefined;
      }
      if (hit) throw hit.error;
      return ({ result }) => {
        if (result instanceof Error) {
          // A parse error holds the source (for its location) and a message.
          cache.set(key, { error: result, bytes: stringBytes(text) + stringBytes(result.message) + ENTRY_OVERHEAD });
        } else if (result) {
          const tokens = detachTokens(result);
          const bytes = stringBytes(text) + tokens * BYTES_PER_TOKEN + ENTRY_OVERHEAD;
          if (bytes <= maxDocumentBytes) cache.set(key, { document: result, bytes });
        }
      };
    },
    onValidate({ params: { schema, documentAST, rules }, setResult }) {
      // The rule set is part of the key: plugins may add rules per request.
      const rulesKey = (rules as readonly ValidationRule[] | undefined)?.map((rule) => rule.name).join(',') ?? '';
      let bySchema = validations.get(schema);
      if (!bySchema) validations.set(schema, (bySchema = new WeakMap()));
      let byRules = bySchema.get(documentAST);
      const known = byRules?.get(rulesKey);
      if (known) {
        setResult(known);
        return undefined;
      }
      return ({ result }) => {
        if (!byRules) bySchema.set(documentAST, (byRules = new Map()));
        byRules.set(rulesKey, result);
      };
    },
    parseCacheStats: () => ({ entries: cache.size, bytes: cache.calculatedSize, maxBytes }),
  };
}

type MutableToken = { -readonly [K in 'prev' | 'next']: Token | null } & Pick<Token, 'kind'>;

/**
 * Cuts the links of the document's token list and returns how many non-comment
 * tokens it had. Idempotent: a detached list is one token long.
 */
export function detachTokens(document: DocumentNode): number {
  let token = (document.loc?.startToken ?? null) as MutableToken | null;
  let count = 0;
  while (token) {
    const next = token.next as MutableToken | null;
    if (token.kind !== TokenKind.COMMENT) count += 1;
    token.prev = null;
    token.next = null;
    token = next;
  }
  return count;
}
