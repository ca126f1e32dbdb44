import { JSON_CONTENT_TYPE, type DevnetRequest } from '../http-types.ts';
import type { Route, RouteAnswer } from '../router.ts';

/**
 * The JSON of pages already served, as the bytes sent, by request, so that asking
 * again costs a lookup instead of building, serialising and encoding the page (benchmarks replay the same
 * requests over and over, and the devnet must not be what they measure).
 *
 * Only for answers that follow from the request alone, or from the request and the
 * second it is asked in (the caller puts the second in the key): the staking records,
 * subnets and their statuses are fixed when the dataset is generated. Bounded by the
 * bytes it holds (pages, and keys counted at one byte a character), least recently
 * used out first; a page over `maxPageBytes` is not kept. Errors are never kept.
 */
export class PageCache {
  private readonly pages = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    readonly budgetBytes: number,
    readonly maxPageBytes: number,
  ) {}

  get size(): number {
    return this.pages.size;
  }

  /** Bytes held, keys included. */
  get heldBytes(): number {
    return this.bytes;
  }

  get(key: string): Buffer | undefined {
    const text = this.pages.get(key);
    if (text !== undefined) {
      // Most recently used last.
      this.pages.delete(key);
      this.pages.set(key, text);
    }
    return text;
  }

  set(key: string, page: Buffer): void {
    if (page.length + key.length > this.maxPageBytes) return;
    const old = this.pages.get(key);
    if (old !== undefined) {
      this.pages.delete(key);
      this.bytes -= old.length + key.length;
    }
    this.pages.set(key, page);
    this.bytes += page.length + key.length;
    for (const [oldest, held] of this.pages) {
      if (this.bytes <= this.budgetBytes) break;
      this.pages.delete(oldest);
      this.bytes -= held.length + oldest.length;
    }
  }
}

/** The devnet's page cache: 4 MB in all, pages up to 512 KB. */
export function createPageCache(): PageCache {
  return new PageCache(4_000_000, 512_000);
}

/** The request's path and query as the key of its page. */
export function requestKey(req: DevnetRequest): string {
  return `${req.path}?${req.query.toString()}`;
}

const jsonBytes = (page: Buffer): RouteAnswer => ({ status: 200, body: page, contentType: JSON_CONTENT_TYPE });

/**
 * `handle` with its 200 answers kept in `cache` under `keyOf(req)` and served from
 * there as JSON bytes; any other answer passes through unchanged and is not kept.
 */
export function cachedPages(cache: PageCache, keyOf: (req: DevnetRequest) => string, handle: Route['handle']): Route['handle'] {
  return async (params, req) => {
    const key = keyOf(req);
    const hit = cache.get(key);
    if (hit !== undefined) return jsonBytes(hit);
    const answer = await handle(params, req);
    if (answer.status !== 200 || answer.contentType !== undefined || answer.headers !== undefined) return answer;
    const page = Buffer.from(JSON.stringify(answer.body));
    // A key with the second in it may have turned over while the page was built.
    if (keyOf(req) === key) cache.set(key, page);
    return jsonBytes(page);
  };
}
