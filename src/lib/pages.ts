/** One upstream page, in the shape every listing endpoint shares once loaders have read it. */
export interface UpstreamPage<T> {
  items: T[];
  nextPageToken?: string | undefined;
  /**
   * Set by loaders that cut a parent's first page out of a batched listing: there is
   * no token for "the rest of this parent's list", but the loader knows it exists.
   */
  hasMore?: boolean;
}

/** Reads one page: the token of the page to read (undefined for the first) and its size. */
export type FetchPage<T> = (pageToken: string | undefined, pageSize: number) => Promise<UpstreamPage<T>>;

/**
 * Longest upstream page token chaingraph carries, in UTF-8 bytes. A real token is
 * opaque and usually far shorter; this bounds the cursors that carry one (a cursor is
 * about 4/3 of its payload) and keeps them well inside a URL or a variable.
 */
export const MAX_PAGE_TOKEN_BYTES = 4096;

// eslint-disable-next-line no-control-regex -- control characters are what this pattern is about
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * True for a page token chaingraph can carry in a cursor and send back: any text (an
 * upstream token is opaque: spaces, `&`, `%`, non-ASCII all travel, URL-encoded as a
 * query value) of 1 to {@link MAX_PAGE_TOKEN_BYTES} UTF-8 bytes, with no control
 * character (the Data API client sends none) and no lone surrogate (it would not
 * survive UTF-8). The cursor is signed, so only tokens the upstream sent come back.
 */
export function isCarriablePageToken(token: string): boolean {
  if (token.length === 0 || token.length > MAX_PAGE_TOKEN_BYTES || CONTROL.test(token)) return false;
  const bytes = Buffer.from(token, 'utf8');
  return bytes.length <= MAX_PAGE_TOKEN_BYTES && bytes.toString('utf8') === token;
}

/** What a bounded scan read: whether it reached the end of the listing, and the pages it read. */
export interface ScanResult {
  /** True when the scan read the listing to its end (or its visitor stopped it); false when it hit `maxPages`. */
  complete: boolean;
  pages: number;
}

/**
 * Reads a listing from its first page, following `nextPageToken`, at most `maxPages`
 * pages of `pageSize`, handing each page's items to `visit` until it returns true.
 * Lookups that page through a listing use it, so the bound they declare in their cost
 * is the bound they keep: an upstream that answers short or empty pages with tokens
 * makes a lookup read up to its bound, never past it.
 */
export async function scanPages<T>(read: FetchPage<T>, pageSize: number, maxPages: number, visit: (items: readonly T[]) => boolean | void): Promise<ScanResult> {
  let token: string | undefined;
  for (let pages = 1; pages <= maxPages; pages++) {
    const page = await read(token, pageSize);
    if (visit(page.items) === true) return { complete: true, pages };
    token = page.nextPageToken;
    if (!token) return { complete: true, pages };
  }
  return { complete: false, pages: maxPages };
}
