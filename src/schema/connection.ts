import type { InputFieldBuilder } from '@pothos/core';
import type { BuilderTypes } from '../builder.ts';
import { badInput } from '../errors.ts';
import type { FetchPage, UpstreamPage } from '../lib/pages.ts';
import { between } from './bounds.ts';
import {
  argsHash, checkFirst, decodeCursor, filterArgs, inspectCursor, parentHash, type CursorCodec, type PageSpec,
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

/**
 * What the cursors of one connection share: the codec, and the hashes binding them to
 * the connection's arguments and parent, computed on the first cursor anyone selects
 * (most queries select none, and a walk holds about a hundred nested connections).
 */
export class CursorBinding {
  #hash: string | undefined;
  #parent: string | null | undefined;
  constructor(
    readonly codec: CursorCodec,
    private readonly page: PageSpec,
    private readonly args: ConnectionArgs,
    private readonly parentIdentity: unknown,
  ) {}

  /** Hash of the connection's name and arguments (all but `first` and `after`). */
  get hash(): string {
    return (this.#hash ??= argsHash(this.page, filterArgs(this.args)));
  }

  /** Hash of the parent's identity; undefined for a root connection. */
  get parent(): string | undefined {
    if (this.#parent === undefined) this.#parent = this.parentIdentity === undefined ? null : parentHash(this.parentIdentity);
    return this.#parent ?? undefined;
  }

  /** The cursor of item `index` of the page read with `token` and `size`. */
  encode(token: string | undefined, size: number, index: number): string {
    return this.codec.encode({ t: token, s: size, i: index, h: this.hash, p: this.parent });
  }
}

/** An edge whose cursor is encoded only if someone selects it (most queries never do). */
class PageEdge<T> implements Edge<T> {
  #cursor: string | undefined;
  constructor(
    private readonly binding: CursorBinding,
    private readonly token: string | undefined,
    private readonly size: number,
    private readonly index: number,
    readonly node: T,
  ) {}
  get cursor(): string {
    return (this.#cursor ??= this.binding.encode(this.token, this.size, this.index));
  }
}

/** An edge of `binding`'s connection whose cursor is encoded when selected (for connections not read by {@link resolvePageConnection}). */
export function lazyEdge<T>(binding: CursorBinding, token: string | undefined, size: number, index: number, node: T): Edge<T> {
  return new PageEdge(binding, token, size, index, node);
}

/** `pageInfo` whose cursors are those of the first and last edges, encoded only when selected. */
class LazyPageInfo {
  readonly hasPreviousPage = false;
  constructor(
    readonly hasNextPage: boolean,
    private readonly edges: readonly Edge<unknown>[],
  ) {}
  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }
  get endCursor(): string | null {
    return this.edges[this.edges.length - 1]?.cursor ?? null;
  }
}

/** A connection over `edges`, its `pageInfo` cursors read from them when selected. */
export function lazyConnection<T>(edges: Edge<T>[], hasNextPage: boolean): Connection<T> {
  return { edges, pageInfo: new LazyPageInfo(hasNextPage, edges) };
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
  const binding = new CursorBinding(options.ctx.cursors, page, args, options.parent);
  const first = checkFirst(args.first, page);

  let token: string | undefined;
  let size = first;
  let index = 0;
  let current: UpstreamPage<T>;
  if (args.after) {
    const cursor = decodeCursor(binding.codec, args.after, page, binding.hash);
    if (cursor.p !== binding.parent) throw badInput('after', 'this cursor belongs to another parent object');
    token = cursor.t;
    size = cursor.s;
    index = cursor.i + 1;
    current = await options.fetchPage(token, size);
  } else {
    current = options.firstPage ? await options.firstPage() : await options.fetchPage(undefined, size);
  }

  const edges: Edge<T>[] = [];
  for (let topUps = 0; ; topUps++) {
    const items = current.items;
    while (edges.length < first && index < items.length) {
      edges.push(new PageEdge(binding, token, size, index, items[index] as T));
      index++;
    }
    if (edges.length >= first || !current.nextPageToken || topUps >= MAX_TOP_UPS) break;
    token = current.nextPageToken;
    size = Math.min(first - edges.length, page.maxSize);
    index = 0;
    current = await options.fetchPage(token, size);
  }

  return lazyConnection(edges, index < current.items.length || Boolean(current.nextPageToken) || Boolean(current.hasMore));
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
