import type { InputFieldBuilder } from '@pothos/core';
import type { BuilderTypes } from '../builder.ts';
import { badInput } from '../errors.ts';
import type { FetchPage, UpstreamPage } from '../lib/pages.ts';
import { between } from './bounds.ts';
import {
  argsHash, checkFirst, decodeCursor, filterArgs, inspectCursor, parentHash, type CursorCodec, type CursorState, type PageSpec,
} from './pagination.ts';

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  [filter: string]: unknown;
}

export interface PageConnectionOptions<T> {
  /** The request context: its cursor codec signs the edges' cursors and checks `after`. */
  ctx: { readonly cursors: CursorCodec };
  page: PageSpec;
  args: ConnectionArgs;
  /** Identity of the parent for nested connections (e.g. `{ network, nodeId }`), bound into cursors. */
  parent?: unknown;
  fetchPage: FetchPage<T>;
  /**
   * The first page when a loader already fetched it (read with `pageSize = first`), so
   * the connection costs no call of its own. Only used without `after`.
   */
  firstPage?: () => Promise<UpstreamPage<T>>;
}

/** An edge whose cursor is encoded only if someone selects it (most queries never do). */
class PageEdge<T> implements Edge<T> {
  #state: CursorState;
  #codec: CursorCodec;
  #cursor: string | undefined;
  constructor(codec: CursorCodec, state: CursorState, readonly node: T) {
    this.#codec = codec;
    this.#state = state;
  }
  get cursor(): string {
    return (this.#cursor ??= this.#codec.encode(this.#state));
  }
}

// Upstreams that answer empty pages with a token would otherwise loop forever.
const MAX_TOP_UPS = 8;

/**
 * A Relay connection over a `pageToken` listing. The first page is read with
 * `pageSize = first`, so `hasNextPage` is exactly "the upstream has a next page".
 * `after` re-reads the cursor's page with the cursor's page size, skips past its
 * index and tops up from `nextPageToken` with exactly the number still missing.
 */
export async function resolvePageConnection<T>(options: PageConnectionOptions<T>): Promise<Connection<T>> {
  const { page, args } = options;
  const codec = options.ctx.cursors;
  const first = checkFirst(args.first, page);
  const hash = argsHash(page, filterArgs(args));
  const parent = options.parent === undefined ? undefined : parentHash(options.parent);

  let token: string | undefined;
  let size = first;
  let index = 0;
  let current: UpstreamPage<T>;
  if (args.after) {
    const cursor = decodeCursor(codec, args.after, page, hash);
    if (cursor.p !== parent) throw badInput('after', 'this cursor belongs to another parent object');
    token = cursor.t;
    size = cursor.s;
    index = cursor.i + 1;
    current = await options.fetchPage(token, size);
  } else {
    current = options.firstPage ? await options.firstPage() : await options.fetchPage(undefined, size);
  }

  const edges: Edge<T>[] = [];
  for (let topUps = 0; ; topUps++) {
    while (edges.length < first && index < current.items.length) {
      edges.push(new PageEdge(codec, { t: token, s: size, i: index, h: hash, p: parent }, current.items[index] as T));
      index++;
    }
    if (edges.length >= first || !current.nextPageToken || topUps >= MAX_TOP_UPS) break;
    token = current.nextPageToken;
    size = Math.min(first - edges.length, page.maxSize);
    index = 0;
    current = await options.fetchPage(token, size);
  }

  const last = edges[edges.length - 1];
  const hasNextPage = index < current.items.length || Boolean(current.nextPageToken) || Boolean(current.hasMore);
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: last?.cursor ?? null,
    },
  };
}

/** A connection known to be empty without asking anyone. */
export function emptyConnection<T>(): Connection<T> {
  return { edges: [], pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null } };
}

/**
 * `first` and `after` of a connection over `page`, with the bounds in their
 * descriptions taken from the same spec the checks use, so the docs cannot drift.
 */
export const pageArgs = (arg: Pick<InputFieldBuilder<BuilderTypes, 'Arg'>, 'int' | 'string'>, page: Pick<PageSpec, 'defaultSize' | 'maxSize'>) => ({
  first: arg.int({ description: `Page size (default ${page.defaultSize}).`, bound: between(1, page.maxSize) }),
  after: arg.string({ description: 'Cursor of the last edge already seen (`pageInfo.endCursor`); pass the same other arguments that produced it.' }),
});

/**
 * A connection's `after`, for its field's `checkArgs`: the cursor must come from this
 * connection with these same arguments, refused before any upstream call otherwise
 * (its signature is checked by `opaqueInputChecks`, its parent when the page is read).
 */
export function checkAfter(args: ConnectionArgs, page: PageSpec): void {
  const after = args.after;
  if (typeof after === 'string' && after !== '') inspectCursor(after, page, argsHash(page, filterArgs(args)));
}
