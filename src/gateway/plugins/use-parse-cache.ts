import { createHash } from 'node:crypto';
import { TokenKind, type DocumentNode, type GraphQLSchema, type Token, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { stringBytes, textDigest } from '../../lib/text.ts';

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
  /**
   * The part of `maxBytes` that remembers which documents validated without errors, keyed by a digest of
   * their tokens (so a copy with other comments or whitespace is not validated again), about 300 bytes a
   * document. At most an eighth of `maxBytes`. Default 256 KiB.
   */
  maxValidatedBytes?: number;
}

export const PARSE_CACHE_DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxEntries: 500, maxDocumentBytes: 256 * 1024, maxValidatedBytes: 256 * 1024 } as const;

/**
 * Heap a parsed document holds per token once its token list is detached: the AST
 * node, its Location and the two boundary tokens, measured at 150-400 bytes on
 * graphql 16 / V8 11 and rounded up.
 */
const BYTES_PER_TOKEN = 400;
/** The cache entry, its hashed key and LRU bookkeeping. */
const ENTRY_OVERHEAD = 256;
/** Distinct rule lists whose valid documents are remembered by digest (plugins may add rules per request; a list past these is validated as before). */
const MAX_RULE_LISTS = 32;

export interface ParseCacheStats {
  entries: number;
  /** Counted bytes held, documents and validated digests; never above `maxBytes`. */
  bytes: number;
  maxBytes: number;
  /** Documents known valid by the digest of their tokens. */
  validated: number;
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
 * A document that differs from a validated one only by comments, whitespace or commas
 * parses to a new DocumentNode, so its text key and that WeakMap both miss. So each
 * document also gets a digest of its token stream (kinds and values, comments left
 * out; computed in the pass that detaches the tokens), and the digests of documents
 * that validated without errors are kept in a small LRU of their own (`maxValidatedBytes`,
 * per schema and rule list): such a copy is answered valid without running a rule. Only
 * valid results are shared that way: an error carries locations in its own text.
 *
 * Every parsed document, cached or not, also has its token list detached: graphql-js
 * links every token, comments included, from the document's Location objects, so a
 * 1 MB document of `#` lines holds about 45 MB of tokens for as long as its request
 * runs. Nothing reads the list after parsing (locations come from offsets into the
 * source), so the links are cut and only the tokens that bound AST nodes stay.
 */
export function useParseCache(options: ParseCacheOptions = {}): ParseCachePlugin {
  const maxBytes = options.maxBytes ?? PARSE_CACHE_DEFAULTS.maxBytes;
  const validatedBytes = Math.min(options.maxValidatedBytes ?? PARSE_CACHE_DEFAULTS.maxValidatedBytes, Math.floor(maxBytes / 8));
  const documentBytes = maxBytes - validatedBytes;
  const maxDocumentBytes = Math.min(options.maxDocumentBytes ?? PARSE_CACHE_DEFAULTS.maxDocumentBytes, documentBytes);
  const cache = new LRUCache<string, Entry>({
    max: options.maxEntries ?? PARSE_CACHE_DEFAULTS.maxEntries,
    maxSize: documentBytes,
    // maxEntrySize makes lru-cache refuse (not store) an entry over it, rather than evict everything for it.
    maxEntrySize: maxDocumentBytes,
    sizeCalculation: (entry) => entry.bytes,
  });
  const validations = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, readonly Error[]>>>();
  // Keys are `<schema>/<rule list>/<token digest>`, about 60 characters.
  const validated = new LRUCache<string, true>({ maxSize: Math.max(1, validatedBytes), sizeCalculation: (_valid, key) => stringBytes(key) + ENTRY_OVERHEAD });
  const tokenDigests = new WeakMap<DocumentNode, string>();
  const schemaIds = new WeakMap<GraphQLSchema, number>();
  let schemas = 0;
  const ruleListIds = new Map<string, number>();
  const validatedKey = (schema: GraphQLSchema, document: DocumentNode, rulesKey: string): string | undefined => {
    const digest = tokenDigests.get(document);
    if (digest === undefined) return undefined;
    let schemaId = schemaIds.get(schema);
    if (schemaId === undefined) schemaIds.set(schema, (schemaId = schemas++));
    let rulesId = ruleListIds.get(rulesKey);
    if (rulesId === undefined) {
      if (ruleListIds.size >= MAX_RULE_LISTS) return undefined;
      ruleListIds.set(rulesKey, (rulesId = ruleListIds.size));
    }
    return `${schemaId}/${rulesId}/${digest}`;
  };

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
          const { tokens, digest } = detach(result);
          tokenDigests.set(result, digest);
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
      const digestKey = validatedKey(schema, documentAST, rulesKey);
      if (digestKey !== undefined && validated.get(digestKey)) {
        setResult([]);
        return undefined;
      }
      return ({ result }) => {
        if (!byRules) bySchema.set(documentAST, (byRules = new Map()));
        byRules.set(rulesKey, result);
        if (result.length === 0 && digestKey !== undefined) validated.set(digestKey, true);
      };
    },
    parseCacheStats: () => ({ entries: cache.size, bytes: cache.calculatedSize + validated.calculatedSize, maxBytes, validated: validated.size }),
  };
}

type MutableToken = { -readonly [K in 'prev' | 'next']: Token | null } & Pick<Token, 'kind'> & { readonly value: string | undefined };

/**
 * Cuts the links of the document's token list and returns how many non-comment
 * tokens it had. Idempotent: a detached list is one token long.
 */
export function detachTokens(document: DocumentNode): number {
  return detach(document).tokens;
}

/**
 * Cuts the token list (see {@link detachTokens}) and, in the same pass, digests what the
 * parser read from it: each non-comment token's kind and value (the kind ended by a space,
 * the value length-prefixed, so the stream reads back one way only). Two texts with the same digest parse to the same AST
 * but for locations. A detached document digests as its first token alone: digest once.
 */
export function detach(document: DocumentNode): { tokens: number; digest: string } {
  let token = (document.loc?.startToken ?? null) as MutableToken | null;
  let tokens = 0;
  const stream: string[] = [];
  while (token) {
    const next = token.next as MutableToken | null;
    if (token.kind !== TokenKind.COMMENT) {
      tokens += 1;
      // A kind never holds a space; a value is read back by its length.
      stream.push(token.kind, ' ');
      if (token.value !== undefined) stream.push(`${token.value.length}:`, token.value);
    }
    token.prev = null;
    token.next = null;
    token = next;
  }
  return { tokens, digest: createHash('sha256').update(stream.join('')).digest('base64url') };
}
