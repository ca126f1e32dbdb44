import type { InputFieldBuilder } from '@pothos/core';
import type { BuilderTypes } from './builder.ts';
import { connectionReadCalls } from '../lib/cost.ts';
import type { FetchPage, UpstreamPage } from '../lib/pages.ts';
import { between } from './bounds.ts';
import {
  argsHash, badCursor, checkFirst, decodeCursor, filterArgs, inspectCursor, parentHash, type CursorCodec, type PageSpec,
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

/**
 * `pageInfo` whose cursors are encoded only when selected: `startCursor` is the first
 * edge's, `endCursor` the last edge's, or, when the connection stopped at a page
 * boundary past its last edge (see {@link resolvePageConnection}), the position it
 * stopped at, so `after: endCursor` goes on from there even when no edge came back.
 */
class LazyPageInfo {
  readonly hasPreviousPage = false;
  #end: string | null | undefined;
  constructor(
    readonly hasNextPage: boolean,
    private readonly edges: readonly Edge<unknown>[],
    private readonly stoppedAt?: () => string,
  ) {}
  get startCursor(): string | null {
    return this.edges[0]?.cursor ?? null;
  }
  get endCursor(): string | null {
    if (this.#end === undefined) this.#end = this.stoppedAt ? this.stoppedAt() : (this.edges[this.edges.length - 1]?.cursor ?? null);
    return this.#end;
  }
}

/** A connection over `edges`, its `pageInfo` cursors read from them when selected. */
export function lazyConnection<T>(edges: Edge<T>[], hasNextPage: boolean): Connection<T> {
  return { edges, pageInfo: new LazyPageInfo(hasNextPage, edges) };
}

/** A position in a listing: the page it counts from, that page's size, and how many of its items (and the next pages') were seen. */
interface Position {
  token: string | undefined;
  size: number;
  seen: number;
}

/**
 * A Relay connection over a `pageToken` listing, reading at most the pages its cost
 * declares (`connectionReadCalls`: the page, plus one with `after`; a loader's first
 * page counts as the first), so an accepted query never runs out of budget here.
 *
 * Without `after` the first page is read with `pageSize = first` (or comes from the
 * loader). With `after`, the cursor's position is read with `pageSize` = the items to
 * skip plus `first`, and skipped into, page after page if the upstream answers short.
 * An upstream may answer fewer items than asked (filtered listings do, and the spec
 * allows it, empty pages included) while sending a `nextPageToken`: the connection
 * then tops up from the token while it has reads left, and otherwise answers what it
 * has (Relay allows fewer than `first` edges, even none) with `hasNextPage: true` and
 * an `endCursor` that continues from the upstream's token. `hasNextPage` is exact
 * when the listing ends within the pages read, and true whenever the upstream says more follow.
 */
export async function resolvePageConnection<T>(options: PageConnectionOptions<T>): Promise<Connection<T>> {
  const { page, args } = options;
  const binding = new CursorBinding(options.ctx.cursors, page, args, options.parent);
  const first = checkFirst(args.first, page);
  const reads = connectionReadCalls(args);

  let at: Position = { token: undefined, size: first, seen: 0 };
  if (args.after) {
    const cursor = decodeCursor(binding.codec, args.after, page, binding.hash);
    if (cursor.p !== binding.parent) throw badCursor("belongs to the same list of another object (another network, validator, address...)", "pass a cursor from this object's own `pageInfo.endCursor`");
    at = { token: cursor.t, size: cursor.s, seen: cursor.i + 1 };
  }

  const edges: Edge<T>[] = [];
  // Where the last edge's cursor stands, to tell whether the connection stopped past it.
  let lastEdge: Position | undefined;
  let hasNextPage = false;
  for (let read = 0; ; read++) {
    if (read === reads) {
      // Out of reads: the previous page sent a token (else the loop ended there).
      hasNextPage = true;
      break;
    }
    // Enough to skip to the position and fill the page in one read when the upstream answers in full.
    const size = Math.min(Math.max(at.seen + first - edges.length, 1), page.maxSize);
    const current = read === 0 && !args.after && options.firstPage ? await options.firstPage() : await options.fetchPage(at.token, size);
    const items = current.items;
    const next = current.nextPageToken;
    let index = at.seen;
    while (edges.length < first && index < items.length) {
      // The last item of a page with a next page stands at that page's start: `after` it reads that page directly.
      const stands: Position = index === items.length - 1 && next ? { token: next, size, seen: 0 } : { token: at.token, size, seen: index + 1 };
      edges.push(new PageEdge(binding, stands.token, stands.size, stands.seen - 1, items[index] as T));
      lastEdge = stands;
      index++;
    }
    if (index < items.length) {
      // Full, within this page.
      hasNextPage = true;
      at = { token: at.token, size, seen: index };
      break;
    }
    if (!next) {
      // No token: the listing ends here, unless a loader knows this parent's list goes on.
      hasNextPage = Boolean(current.hasMore);
      at = { token: at.token, size, seen: Math.max(at.seen, items.length) };
      break;
    }
    // The page is used up; what is left to skip carries over to the next one.
    at = { token: next, size, seen: Math.max(at.seen - items.length, 0) };
    if (edges.length >= first) {
      hasNextPage = true;
      break;
    }
  }

  const stoppedPastLastEdge = hasNextPage && !(lastEdge && samePosition(lastEdge, at));
  const stoppedAt = at;
  const stopCursor = stoppedPastLastEdge ? () => binding.encode(stoppedAt.token, stoppedAt.size, stoppedAt.seen - 1) : undefined;
  return { edges, pageInfo: new LazyPageInfo(hasNextPage, edges, stopCursor) };
}

function samePosition(a: Position, b: Position): boolean {
  return a.token === b.token && a.size === b.size && a.seen === b.seen;
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
  first: arg.int({
    description: `Page size (default ${page.defaultSize}): at most this many edges. A page may hold fewer, even none, while \`pageInfo.hasNextPage\` is true (the upstream answered short): go on with \`after\`.`,
    bound: between(1, page.maxSize),
  }),
  after: arg.string({ description: 'Where to go on from: `pageInfo.endCursor` (or an edge\'s cursor); pass the same other arguments that produced it.' }),
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
