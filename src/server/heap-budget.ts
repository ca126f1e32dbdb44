/**
 * The gateway's heap, added up from its budgets. `npm start` gives node
 * `--max-old-space-size` from {@link heapBudget} (through `dist/heap-budget.mjs`),
 * so the heap limit follows the configured limits instead of being a guess that
 * turns load into a crash: every term below is a budget that counts what it holds,
 * or a limit that bounds what one operation can hold.
 */
import type { GatewayConfig } from './config.ts';
import { DOCUMENT_MEMO_DEFAULTS } from '../gateway/plugins/document-memo.ts';
import { PARSE_CACHE_DEFAULTS } from '../gateway/plugins/use-parse-cache.ts';
import { COMPILED_EXECUTION_DEFAULTS } from '../gateway/plugins/use-compiled-execution.ts';
import { APQ_DEFAULTS } from '../gateway/plugins/use-persisted-documents.ts';

const MiB = 1024 * 1024;

/**
 * Measured heap (after GC) of an idle gateway: schema, yoga, plugins, clients. The
 * in-process devnet's dataset adds its own (1,200 validators per network). Measured
 * 43-50 MB for both together with `npm start` (bench/soak-paging.ts), rounded up.
 */
export const GATEWAY_BASELINE_BYTES = 40 * MiB;
export const DEVNET_BASELINE_BYTES = 24 * MiB;
/**
 * Heap one executing operation holds for each byte of its serialized response: the
 * upstream JSON parsed for it, the result tree, and the serialized text. Measured
 * 32 concurrent operations of 30 listings each: 5.0x for 3.5 MB responses (served
 * from the response cache), and 1.8 MB responses with their 30 upstream calls held
 * about 16 MB each, covered by the per-operation upstream term below.
 */
export const RESPONSE_HEAP_FACTOR = 5;
/** Upstream answers one operation holds beyond what its response shows (measured about 8 MB for 30 listings of 100). */
export const OPERATION_UPSTREAM_BYTES = 8 * MiB;
/** A parsed document at the token limit: 5,000 tokens at about 400 bytes (see use-parse-cache.ts). */
export const DOCUMENT_BYTES = 2 * MiB;
/** A live subscription between events: its document, context and a small event. */
export const SUBSCRIPTION_BYTES = 256 * 1024;
/** Room above the sum for the collector to work in (V8 slows to a crawl near its limit). */
export const HEADROOM = 1.25;

export interface HeapBudget {
  /** Each term in bytes, named as in the README's arithmetic. */
  terms: Record<string, number>;
  /** The sum of the terms. */
  totalBytes: number;
  /** What `npm start` passes as `--max-old-space-size`: the sum plus headroom, in MiB, rounded up to 64. */
  heapMb: number;
}

type BudgetInputs = Pick<GatewayConfig, 'cache' | 'cacheMaxBytes' | 'responseCacheMaxBytes' | 'compiledExecution' | 'limits'> & {
  dataApiUrl?: string | undefined;
  nodes: readonly unknown[];
  /** Absent: APQ at its default budget. */
  persisted?: Pick<GatewayConfig['persisted'], 'apq' | 'apqMaxBytes' | 'documents'>;
};

/** The heap the configured limits need, term by term. */
/** Loaders keep one copy of some cached items with a field added (src/shapes/read.ts withSharedFields): measured 15-25% of the entries' bytes. */
const SHARED_COPIES_FACTOR = 1.25;

/** The parsed answers each replica keeps in front of Redis: a quarter of `CACHE_MAX_BYTES`. */
export function redisLocalBytes(config: Pick<GatewayConfig, 'cacheMaxBytes'>): number {
  return Math.floor(config.cacheMaxBytes / 4);
}

export function heapBudget(config: BudgetInputs): HeapBudget {
  const { limits } = config;
  const inProcessDevnet = !config.dataApiUrl && config.nodes.length === 0;
  const memoEntryBytes = DOCUMENT_MEMO_DEFAULTS.maxValueBytes + 128;
  const perOperation = 2 * limits.maxBodyBytes + DOCUMENT_BYTES + RESPONSE_HEAP_FACTOR * limits.maxResponseBytes + OPERATION_UPSTREAM_BYTES;
  const terms: Record<string, number> = {
    'gateway baseline': GATEWAY_BASELINE_BYTES,
    'in-process devnet': inProcessDevnet ? DEVNET_BASELINE_BYTES : 0,
    // Plus the per-item copies loaders share while an item is cached (withSharedFields: its network or node added), at most a quarter more.
    'upstream answer cache (CACHE_MAX_BYTES, or a quarter of it in front of Redis; x1.25 for shared item copies)':
      SHARED_COPIES_FACTOR * (config.cache === 'memory' ? config.cacheMaxBytes : config.cache === 'redis' ? redisLocalBytes(config) : 0),
    'whole-response cache (RESPONSE_CACHE_MAX_BYTES)': config.cache === 'off' ? 0 : config.responseCacheMaxBytes,
    'parse cache': PARSE_CACHE_DEFAULTS.maxBytes,
    'compiled queries (COMPILED_EXECUTION)': config.compiledExecution ? COMPILED_EXECUTION_DEFAULTS.maxBytes : 0,
    'automatic persisted queries (APQ_MAX_BYTES)': config.persisted ? (config.persisted.apq ? config.persisted.apqMaxBytes : 0) : APQ_DEFAULTS.maxBytes,
    // Held for the process's life: each document's text (two bytes a character at worst) and its id.
    'trusted documents (PERSISTED_OPERATIONS)': [...(config.persisted?.documents ?? new Map<string, string>())].reduce((sum, [id, text]) => sum + 2 * (id.length + text.length) + 128, 0),
    // Two memos (cost, argument checks), each at most maxPerDocument results per live document.
    'document memos': 2 * PARSE_CACHE_DEFAULTS.maxEntries * DOCUMENT_MEMO_DEFAULTS.maxPerDocument * memoEntryBytes,
    // Body (raw and as a string), document, response tree and text, upstream answers.
    'executing operations (MAX_CONCURRENT_OPERATIONS x per operation)': limits.maxConcurrentOperations * perOperation,
    // Admission comes when an operation is about to execute: a queued one holds its parsed request and document.
    'queued operations (MAX_QUEUED_OPERATIONS x (body + document))': limits.maxQueuedOperations * (limits.maxBodyBytes + DOCUMENT_BYTES),
    // Bodies still arriving, reserved before they are read (raw bytes and their text).
    'request bodies being read (2 x MAX_BODY_BYTES_IN_FLIGHT)': 2 * limits.maxBodyBytesInFlight,
    'subscriptions (MAX_SUBSCRIPTIONS x 256 KiB)': limits.maxSubscriptions * SUBSCRIPTION_BYTES,
  };
  const totalBytes = Object.values(terms).reduce((a, b) => a + b, 0);
  const heapMb = Math.ceil((totalBytes * HEADROOM) / MiB / 64) * 64;
  return { terms, totalBytes, heapMb };
}
