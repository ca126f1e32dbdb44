import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { useAPQ, type APQStore } from '@graphql-yoga/plugin-apq';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { stringBytes } from '../../lib/text.ts';
import { ErrorCode } from '../../errors/codes.ts';

/** Options of {@link usePersistedDocuments}. */
export interface PersistedDocumentsOptions {
  /**
   * Automatic persisted queries (`APQ`): a client sends `extensions.persistedQuery.sha256Hash`
   * alone, and the query with it once when the gateway answers PERSISTED_QUERY_NOT_FOUND. `false`
   * answers hash-only requests PERSISTED_QUERY_NOT_SUPPORTED (clients then send whole queries).
   * Default on, with `APQ_DEFAULTS`; always off with `onlyPersisted` (registering would let any
   * caller add a document).
   */
  apq?: false | ApqStoreOptions;
  /** Trusted documents by id (`PERSISTED_OPERATIONS`, see {@link loadPersistedManifest}). Default none. */
  documents?: ReadonlyMap<string, string>;
  /** `ONLY_PERSISTED`: refuse any request that carries its own query text (PERSISTED_QUERY_ONLY). Needs `documents`. Default false. */
  onlyPersisted?: boolean;
}

/** Options of the APQ store: an LRU counted in bytes. */
export interface ApqStoreOptions {
  /** Budget of the stored queries, in counted bytes (text and key). Default 4 MiB. */
  maxBytes?: number;
  /** Most queries stored. Default 2,000. */
  maxEntries?: number;
  /** A query longer than this (counted bytes) runs but is not stored. Default 128 KiB. */
  maxQueryBytes?: number;
}

export const APQ_DEFAULTS = { maxBytes: 4 * 1024 * 1024, maxEntries: 2_000, maxQueryBytes: 128 * 1024 } as const;

/** A document id: a hash as hex (SHA-256 for APQ, any length for a manifest), optionally `algorithm:` prefixed, at most 160 characters. */
const DOCUMENT_ID = /^(?:[a-z0-9]{1,16}:)?[A-Za-z0-9_.-]{1,128}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const ENTRY_OVERHEAD = 128;

interface Params {
  query?: unknown;
  extensions?: unknown;
  documentId?: unknown;
}

/**
 * The persisted documents of one gateway, shared by every transport: HTTP (the plugins below),
 * graphql-ws and graphql-sse's single-connection mode, which do not pass yoga's request stage and
 * ask {@link PersistedDocuments.resolve} for an operation's text instead.
 */
export interface PersistedDocuments {
  readonly documents: ReadonlyMap<string, string> | undefined;
  readonly store: CountedApqStore | undefined;
  readonly onlyPersisted: boolean;
  /**
   * The text an operation runs: its own `query`, or the document its `documentId` /
   * `extensions.persistedQuery` names (a hash sent with its query registers it, as APQ does).
   * Throws the coded error HTTP would answer (PERSISTED_QUERY_ONLY, _NOT_FOUND, _MISMATCH, _INVALID, _NOT_SUPPORTED).
   */
  resolve(params: { query?: unknown; extensions?: unknown; documentId?: unknown }): string | undefined;
}

export function createPersistedDocuments(options: PersistedDocumentsOptions = {}): PersistedDocuments {
  const documents = options.documents;
  const onlyPersisted = options.onlyPersisted === true && documents !== undefined;
  const store = options.apq === false || onlyPersisted ? undefined : createApqStore(options.apq);
  return {
    documents,
    store,
    onlyPersisted,
    resolve(params) {
      const id = persistedId(params);
      const query = typeof params.query === 'string' && params.query !== '' ? params.query : undefined;
      refuseEarly(id, query !== undefined, onlyPersisted, documents !== undefined || store !== undefined, store !== undefined);
      if (id === undefined || id === null) return query;
      if (query !== undefined) {
        if (store && createHash('sha256').update(query).digest('hex') !== id) throw coded(ErrorCode.PERSISTED_QUERY_MISMATCH, 'PersistedQueryMismatch', 400);
        store?.set(id, query);
        return query;
      }
      const text = documents?.get(id) ?? store?.get(id);
      if (text == null) throw coded(ErrorCode.PERSISTED_QUERY_NOT_FOUND, 'PersistedQueryNotFound', 404);
      return text;
    },
  };
}

/** The refusals every transport makes before looking a document up. */
function refuseEarly(id: string | null | undefined, hasQuery: boolean, onlyPersisted: boolean, anyStore: boolean, apq: boolean): void {
  if (id === undefined) {
    if (onlyPersisted && hasQuery) throw onlyError();
    return;
  }
  if (id === null) throw coded(ErrorCode.PERSISTED_QUERY_INVALID, 'extensions.persistedQuery must be { "version": 1, "sha256Hash": "<64 hex characters>" }, and documentId a hash of at most 128 characters.', 400);
  if (hasQuery && onlyPersisted) throw onlyError();
  if (!hasQuery && !anyStore) throw coded(ErrorCode.PERSISTED_QUERY_NOT_SUPPORTED, 'PersistedQueryNotSupported', 400);
  // A hash sent with its query registers it: it must be the query's SHA-256, as APQ checks (not a manifest id).
  if (hasQuery && apq && !SHA256_HEX.test(id)) throw coded(ErrorCode.PERSISTED_QUERY_MISMATCH, 'PersistedQueryMismatch', 400);
}

/**
 * Persisted operations, in front of everything that reads the query text (registered before
 * the request limits, which then scan the stored text like any other):
 *
 * - **Trusted documents** (`documents`, from `PERSISTED_OPERATIONS`): a request naming a document
 *   by id (`documentId`, or `extensions.persistedQuery.sha256Hash`, by POST or GET) runs that
 *   document (`@graphql-yoga/plugin-persisted-operations`). With `onlyPersisted`, nothing else runs:
 *   a request with query text is refused PERSISTED_QUERY_ONLY before it is parsed.
 * - **Automatic persisted queries** (`@graphql-yoga/plugin-apq`): a hash not in the manifest is
 *   looked up among the queries clients registered (sent once with their SHA-256); an unknown hash
 *   answers PERSISTED_QUERY_NOT_FOUND (404), which Apollo clients answer by sending the query with
 *   its hash; a hash that is not the query's SHA-256 answers PERSISTED_QUERY_MISMATCH (400). The
 *   store is this replica's own, an LRU counted in bytes: a client whose hash another replica
 *   learnt registers it again here, on the same PERSISTED_QUERY_NOT_FOUND round trip.
 *
 * `extensions.persistedQuery` that is not `{ version: 1, sha256Hash: <string> }`, and ids outside
 * the id grammar, answer PERSISTED_QUERY_INVALID (400) rather than being ignored.
 */
export function usePersistedDocuments(persisted: PersistedDocuments): Plugin[] {
  const { documents, store, onlyPersisted } = persisted;
  // Requests whose query came from the manifest or the store: nothing to register.
  const resolved = new WeakSet<Request>();

  const guard: Plugin = {
    onParams({ params, request }) {
      const hasQuery = typeof params.query === 'string' && params.query !== '';
      refuseEarly(persistedId(params as Params, request), hasQuery, onlyPersisted, documents !== undefined || store !== undefined, store !== undefined);
    },
  };
  const plugins: Plugin[] = [guard];
  if (documents) {
    const trusted = usePersistedOperations({
      allowArbitraryOperations: !onlyPersisted,
      extractPersistedOperationId: (params, request) => persistedId(params as Params, request) ?? null,
      getPersistedOperation: async (id, request) => {
        const text = documents.get(id) ?? (await store?.get(id));
        if (text != null) resolved.add(request);
        return text ?? null;
      },
      customErrors: {
        notFound: { message: 'PersistedQueryNotFound', extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_FOUND, http: { status: 404 } } },
        keyNotFound: { message: 'No query and no persisted document id: send `documentId` or `extensions.persistedQuery`.', extensions: { code: ErrorCode.PERSISTED_QUERY_ONLY, http: { status: 400 } } },
        persistedQueryOnly: { message: ONLY_MESSAGE, extensions: { code: ErrorCode.PERSISTED_QUERY_ONLY, http: { status: 400 } } },
      },
    });
    // Its own refusal of a request without query or id is kept for ONLY_PERSISTED; otherwise yoga's usual error answers it.
    plugins.push({
      ...trusted,
      onParams(payload) {
        if (!onlyPersisted && !payload.params.query && persistedId(payload.params as Params, payload.request) === undefined) return undefined;
        return trusted.onParams?.(payload);
      },
    });
  }
  if (store) {
    const apq = useAPQ({ store });
    plugins.push({
      onParams(payload) {
        if (resolved.has(payload.request)) return undefined;
        return apq.onParams?.(payload);
      },
    });
  }
  return plugins;
}

const ONLY_MESSAGE = 'This gateway runs persisted operations only (ONLY_PERSISTED): send `documentId` or `extensions.persistedQuery.sha256Hash` of a document in its manifest, without the query text.';

function onlyError(): Error {
  return coded(ErrorCode.PERSISTED_QUERY_ONLY, ONLY_MESSAGE, 400);
}

function coded(code: string, message: string, status: number): Error {
  return createGraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * The document id a request names: `documentId` (body, or the URL of a GET), else
 * `extensions.persistedQuery.sha256Hash`; undefined when it names none; null when what it sent
 * is not a well-formed id (wrong types, version, or grammar).
 */
function persistedId(params: Params, request?: Request): string | null | undefined {
  const documentId = params.documentId ?? (request?.method === 'GET' ? urlDocumentId(request) : undefined);
  if (documentId !== undefined && documentId !== null) return typeof documentId === 'string' && DOCUMENT_ID.test(documentId) ? documentId : null;
  const extensions = params.extensions;
  if (extensions === undefined || extensions === null) return undefined;
  if (typeof extensions !== 'object' || Array.isArray(extensions)) return null;
  const persisted = (extensions as Record<string, unknown>)['persistedQuery'];
  if (persisted === undefined || persisted === null) return undefined;
  if (typeof persisted !== 'object' || Array.isArray(persisted)) return null;
  const { version, sha256Hash } = persisted as Record<string, unknown>;
  return version === 1 && typeof sha256Hash === 'string' && DOCUMENT_ID.test(sha256Hash) ? sha256Hash : null;
}

function urlDocumentId(request: Request): string | undefined {
  const at = request.url.indexOf('?');
  return at < 0 ? undefined : (new URLSearchParams(request.url.slice(at + 1)).get('documentId') ?? undefined);
}

/** The APQ store plus what it holds (for tests). */
export type CountedApqStore = Omit<APQStore, 'get'> & {
  /** Synchronous here (an in-process LRU), so every transport can read it without waiting. */
  get(key: string): string | undefined;
  stats(): { entries: number; bytes: number; maxBytes: number };
};

/** A bounded APQ store: an LRU counted in bytes (each query's text and key); a query over `maxQueryBytes` is not kept. */
export function createApqStore(options: ApqStoreOptions = {}): CountedApqStore {
  const maxBytes = options.maxBytes ?? APQ_DEFAULTS.maxBytes;
  const cache = new LRUCache<string, { query: string; bytes: number }>({
    max: options.maxEntries ?? APQ_DEFAULTS.maxEntries,
    maxSize: maxBytes,
    maxEntrySize: Math.min(options.maxQueryBytes ?? APQ_DEFAULTS.maxQueryBytes, maxBytes),
    sizeCalculation: (entry) => entry.bytes,
  });
  return {
    get: (key) => cache.get(key)?.query,
    set: (key, query) => {
      cache.set(key, { query, bytes: stringBytes(query) + stringBytes(key) + ENTRY_OVERHEAD });
    },
    stats: () => ({ entries: cache.size, bytes: cache.calculatedSize, maxBytes }),
  };
}

/**
 * Reads a trusted-documents manifest (`PERSISTED_OPERATIONS`) in either common form:
 * - `{ "<id>": "<document>" }`, as GraphQL Code Generator's client preset writes it (`persistedDocuments`);
 * - `{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "body", "name", "type" }] }`
 *   (Apollo's `generate-persisted-query-manifest`).
 * Throws an error naming the file and what is wrong, so a bad file stops the start.
 */
export function loadPersistedManifest(path: string): Map<string, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`PERSISTED_OPERATIONS: cannot read ${path}: ${(error as Error).message}`);
  }
  return parsePersistedManifest(text, path);
}

export function parsePersistedManifest(text: string, source: string): Map<string, string> {
  const fail = (why: string): never => {
    throw new Error(`PERSISTED_OPERATIONS: ${source} is not a persisted-documents manifest: ${why}`);
  };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return fail(`not JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('expected an object');
  const documents = new Map<string, string>();
  const add = (id: unknown, body: unknown, where: string) => {
    if (typeof id !== 'string' || !DOCUMENT_ID.test(id)) fail(`${where}: the id must be a hash of 1-128 characters (letters, digits, _ . -), got ${JSON.stringify(id)?.slice(0, 80)}`);
    if (typeof body !== 'string' || body.trim() === '') fail(`${where}: the document must be a non-empty string`);
    documents.set(id as string, body as string);
  };
  const manifest = json as Record<string, unknown>;
  if (manifest['format'] === 'apollo-persisted-query-manifest') {
    if (manifest['version'] !== 1) fail(`unsupported apollo-persisted-query-manifest version ${JSON.stringify(manifest['version'])}`);
    const operations = manifest['operations'];
    if (!Array.isArray(operations)) return fail('"operations" must be an array');
    operations.forEach((operation: unknown, index) => {
      if (typeof operation !== 'object' || operation === null) fail(`operations[${index}] must be an object`);
      const { id, body } = operation as Record<string, unknown>;
      add(id, body, `operations[${index}]`);
    });
  } else {
    for (const [id, body] of Object.entries(manifest)) add(id, body, JSON.stringify(id).slice(0, 80));
  }
  if (documents.size === 0) fail('it holds no document');
  return documents;
}
