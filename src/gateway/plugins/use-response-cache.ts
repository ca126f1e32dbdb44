import { createHash } from 'node:crypto';
import { operationOf } from './document-facts.ts';
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { freezeJson } from '../../lib/frozen-json.ts';
import { stringBytes, textDigest } from '../../lib/text.ts';
import { jsonMediaType } from './json-media-type.ts';
import { serializedBody } from './use-response-limit.ts';

/** Options of {@link useResponseCache}. */
export interface ResponseCacheOptions {
  /** Byte budget of the held responses (`RESPONSE_CACHE_MAX_BYTES`): their data and text. Default 8 MiB; 0 turns the cache off. */
  maxBytes?: number;
  /** Most responses held. Default 2,000. */
  maxEntries?: number;
  /** Longest a response is held when it read nothing with an expiry of its own (`{ __typename }`, introspection). Default 5 min. */
  maxTtlMs?: number;
  /** The caller's own API key header: responses are held per key (its digest, never the key). */
  apiKeyHeader: string;
  /** Until when what the request read may be reused, ms since the epoch (the request context's `freshUntil`). */
  freshUntil: (context: unknown) => number | undefined;
  /** Told of each request answered with a held response, and of the response (the cost header repeats its figures). Default none. */
  onServe?: (request: Request, result: ExecutionResult) => void;
}

export const RESPONSE_CACHE_DEFAULTS = { maxBytes: 8 * 1024 * 1024, maxEntries: 2_000, maxTtlMs: 300_000 } as const;

/** Responses shorter-lived than this are not worth holding. */
const MIN_TTL_MS = 50;
/**
 * How much shorter the held text may be than the response as served: it keeps `data` and `extensions`
 * only, with `actualUpstreamCalls` set to 0 (a few digits fewer).
 */
const HELD_TEXT_SLACK = 64;

interface Held {
  /** The response as served to the request that made it, frozen (what later hooks see). */
  result: ExecutionResult;
  /** Its JSON text, encoded once: what is sent. */
  body: Uint8Array<ArrayBuffer>;
  bytes: number;
  /** When it expires, ms since the epoch. */
  until: number;
}

/** The plugin, and the expiry of what it answered (the `Cache-Control` of a GET served from it). */
export type ResponseCachePlugin = Plugin & {
  /** Until when the response this request was served from the cache may be reused; undefined when it was not served from it. */
  heldUntil(request: Request): number | undefined;
};

type Served = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

/**
 * The whole-response cache: an identical query (same text, operation name, variables
 * and caller's API key) within the shortest expiry of what it read is answered with
 * the response already made, without parsing, validating or executing it again and
 * without an upstream call. Its `extensions.cost.actualUpstreamCalls` and `actualComputeUnits` are 0.
 *
 * Held: queries (not mutations or subscriptions) answered whole (an incremental response,
 * `@defer` or `@stream`, is never held) without any error, whose
 * every upstream answer came from, or went into, the upstream cache: the response
 * expires with the earliest of those answers (the request's `freshUntil`); one that
 * read anything uncached (admin calls, export status, any call with `CACHE=off`) is
 * never held. Requests with an `authorization` header (admin callers) bypass it both
 * ways. Entries are keyed by a SHA-256 of the request, so a key never holds a caller's
 * text or API key, and the whole cache is bounded by bytes and by entries.
 *
 * Registered after every plugin that refuses a request before execution (limits,
 * admission, rate): a held response was made by a request that passed them all, and
 * an identical request passes them again; so a hit skips only the work they guard.
 */
export function useResponseCache(options: ResponseCacheOptions): ResponseCachePlugin {
  const maxBytes = options.maxBytes ?? RESPONSE_CACHE_DEFAULTS.maxBytes;
  const maxTtlMs = options.maxTtlMs ?? RESPONSE_CACHE_DEFAULTS.maxTtlMs;
  if (maxBytes <= 0) return { heldUntil: () => undefined };
  const held = new LRUCache<string, Held>({
    max: options.maxEntries ?? RESPONSE_CACHE_DEFAULTS.maxEntries,
    maxSize: maxBytes,
    maxEntrySize: Math.floor(maxBytes / 8),
    sizeCalculation: (entry) => entry.bytes,
  });
  // The key of each request that may be held, from its parameters to its result.
  const keys = new WeakMap<Request, string>();
  // Requests whose operation is a query (set when it executes).
  const queries = new WeakSet<Request>();
  // The encoded body of each result served from the cache.
  const bodies = new WeakMap<object, Uint8Array<ArrayBuffer>>();
  // The expiry of the held response each request was answered with.
  const served = new WeakMap<Request, number>();

  return {
    onParams({ params, request, setResult }) {
      if (request.headers.has('authorization') || typeof params.query !== 'string') return;
      const variables = variablesText(params.variables);
      // Variables JSON cannot encode (too deep: refused by the request limits, whose hook ran first) are never held.
      if (variables === undefined) return;
      // The query's own digest is the parse cache's key too (src/lib/text.ts remembers it): the text is hashed once.
      const key = createHash('sha256')
        .update(textDigest(params.query))
        .update('\0')
        .update(params.operationName ?? '')
        .update('\0')
        .update(variables)
        .update('\0')
        .update(request.headers.get(options.apiKeyHeader) ?? '')
        .digest('base64url');
      const hit = held.get(key);
      if (hit) {
        const answer: Served = { ...hit.result, stringify: () => textDecoder.decode(hit.body) };
        bodies.set(answer, hit.body);
        served.set(request, hit.until);
        options.onServe?.(request, answer);
        setResult(answer);
        return;
      }
      keys.set(request, key);
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request } | undefined)?.request;
      if (request && keys.has(request) && operationOf(args.document, args.operationName)?.operation === 'query') queries.add(request);
    },
    onExecutionResult({ result, request, context }) {
      const key = keys.get(request);
      if (key === undefined || !queries.has(request) || !result || isAsyncIterable(result) || Array.isArray(result)) return;
      const single = result as Served;
      if (single.errors?.length || single.data === undefined || single.data === null) return;
      const now = Date.now();
      const until = Math.min(options.freshUntil(context) ?? 0, now + maxTtlMs);
      const ttl = until - now;
      if (!(ttl >= MIN_TTL_MS)) return;
      // Measured by the response limit (its body holds the same data): one too large to hold is not serialized again.
      const measured = serializedBody(single)?.byteLength;
      if (measured !== undefined && measured - HELD_TEXT_SLACK > maxBytes / 8) return;
      const extensions = single.extensions ? withoutCallsMade(single.extensions) : undefined;
      const response: ExecutionResult = extensions ? { data: single.data, extensions } : { data: single.data };
      const body = textEncoder.encode(JSON.stringify(response));
      if (body.byteLength > maxBytes / 8) return;
      const bytes = body.byteLength + freezeJson(response) + stringBytes(key) + 256;
      held.set(key, { result: response, body, bytes, until }, { ttl });
    },
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      const body = bodies.get(result);
      // Only where yoga answers plain JSON; other media types (SSE, multipart) take their own way.
      const mediaType = body && resultProcessor ? jsonMediaType(request.headers.get('accept')) : undefined;
      if (!body || !mediaType) return;
      setResultProcessor((_result, fetchAPI) => new fetchAPI.Response(body, { status: 200, headers: { 'content-type': `${mediaType}; charset=utf-8` } }), mediaType);
    },
    heldUntil: (request) => served.get(request),
  };
}

function variablesText(variables: unknown): string | undefined {
  try {
    return JSON.stringify(variables ?? null);
  } catch {
    return undefined;
  }
}

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();
/** A held response's extensions as a hit reports them: it made no upstream call. */
function withoutCallsMade(extensions: Record<string, unknown>): Record<string, unknown> {
  const cost = extensions['cost'];
  if (typeof cost !== 'object' || cost === null) return extensions;
  return { ...extensions, cost: { ...cost, actualUpstreamCalls: 0, ...('actualComputeUnits' in cost ? { actualComputeUnits: 0 } : {}) } };
}
