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
