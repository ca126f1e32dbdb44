import { LRUCache } from 'lru-cache';
import { JSON_CONTENT_TYPE, type DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';
import { inSpecForm, type SpecFormContext } from '../spec-form.ts';

/**
 * The JSON of pages already served, as the bytes sent, by request, so that asking
 * again costs a lookup instead of building, serialising and encoding the page (benchmarks replay the same
 * requests over and over, and the devnet must not be what they measure).
 *
 * Only for answers that follow from the request alone, or from the request and the
 * second it is asked in (the caller puts the second in the key): the staking records,
 * subnets and their statuses are fixed when the dataset is generated. Bounded by the
 * bytes it holds (pages, and keys counted at one byte a character), least recently
 * used out first; a page over its `maxPageBytes` is not kept. Errors are never kept.
 */
export type PageCache = LRUCache<string, Buffer>;

/** The devnet's page cache: 4 MB in all, pages up to 512 KB (keys included). */
export function createPageCache(budgetBytes = 4_000_000, maxPageBytes = 512_000): PageCache {
  return new LRUCache<string, Buffer>({
    maxSize: budgetBytes,
    // lru-cache refuses an entry over maxEntrySize rather than evict everything for it.
    maxEntrySize: maxPageBytes,
    sizeCalculation: (page, key) => page.length + key.length,
  });
}

/** The request's path and query as the key of its page. */
export function requestKey(req: DevnetRequest): string {
  return `${req.path}?${req.query.toString()}`;
}

const jsonBytes = (page: Buffer): RouteAnswer => ({ status: 200, body: page, contentType: JSON_CONTENT_TYPE });

/**
 * `handle` with its 200 answers kept in `cache` under `keyOf(req)` and served from
 * there as JSON bytes; any other answer passes through unchanged and is not kept.
 * Pages are kept in the spec's form, which `form` (the route's operation and the seed) decides.
 */
export function cachedPages(cache: PageCache, keyOf: (req: DevnetRequest) => string, handle: Route['handle'], form: SpecFormContext): Route['handle'] {
  return async (params, req) => {
    const key = keyOf(req);
    const hit = cache.get(key);
    if (hit !== undefined) return jsonBytes(hit);
    const answer = await handle(params, req);
    if (answer.status !== 200 || answer.contentType !== undefined || answer.headers !== undefined) return answer;
    // Kept as sent: in the spec's form already (the Data API handler leaves bytes as they are).
    const page = Buffer.from(JSON.stringify(inSpecForm(answer, form).body));
    // A key with the second in it may have turned over while the page was built.
    if (keyOf(req) === key) cache.set(key, page);
    return jsonBytes(page);
  };
}
