import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { connectionReadCalls } from '../../src/lib/cost.ts';
import type { UpstreamPage } from '../../src/lib/pages.ts';
import { resolvePageConnection, type Connection, type ConnectionArgs } from '../../src/schema/connection.ts';
import { createCursorCodec, PAGES, type CursorCodec, type CursorState } from '../../src/schema/pagination.ts';

// A connection mints (HMAC-signs) its cursors only when someone reads them: a walk holds
// about a hundred nested connections and most queries select no cursor at all.

function countingCodec(): { codec: CursorCodec; encoded: CursorState[] } {
  const inner = createCursorCodec(['c'.repeat(40)]);
  const encoded: CursorState[] = [];
  return {
    encoded,
    codec: {
      encode: (state) => {
        encoded.push(state);
        return inner.encode(state);
      },
      verify: (cursor, argument) => inner.verify(cursor, argument),
    },
  };
}

const items = ['a', 'b', 'c', 'd', 'e'];
/** Pages of `items` by index tokens (`p2` is the page starting at index 2). */
async function fetchPage(pageToken: string | undefined, pageSize: number): Promise<UpstreamPage<string>> {
  const start = pageToken ? Number(pageToken.slice(1)) : 0;
  const end = start + pageSize;
  return { items: items.slice(start, end), ...(end < items.length ? { nextPageToken: `p${end}` } : {}) };
}

describe('resolvePageConnection', () => {
  it('mints no cursor nobody reads; pageInfo cursors are those of the first and last edges', async () => {
    const { codec, encoded } = countingCodec();
    const connection = await resolvePageConnection({ ctx: { cursors: codec }, page: PAGES.validators, args: { first: 2 }, parent: { network: 'mainnet' }, fetchPage });
    expect(connection.edges.map((e) => e.node)).toEqual(['a', 'b']);
    expect(connection.pageInfo.hasNextPage).toBe(true);
    expect(connection.pageInfo.hasPreviousPage).toBe(false);
    expect(encoded).toEqual([]);
    const end = connection.pageInfo.endCursor;
    expect(end).toBe(connection.edges[1]?.cursor);
    expect(connection.pageInfo.startCursor).toBe(connection.edges[0]?.cursor);
    // Each cursor is minted once, however often it is read. The last edge of a page with a next
    // page stands at that page's start (index -1 of page `p2`), so `after` it reads that page directly.
    expect(encoded.map((s) => [s.t, s.i])).toEqual([['p2', -1], [undefined, 0]]);
  });

  it('continues after a cursor it minted, bound to the same arguments and parent', async () => {
    const { codec } = countingCodec();
    const options = { ctx: { cursors: codec }, page: PAGES.validators, parent: { network: 'mainnet' }, fetchPage };
    const first = await resolvePageConnection({ ...options, args: { first: 2 } });
    const after = first.pageInfo.endCursor ?? '';
    const second = await resolvePageConnection({ ...options, args: { first: 2, after } });
    expect(second.edges.map((e) => e.node)).toEqual(['c', 'd']);
    await expect(resolvePageConnection({ ...options, args: { first: 2, after }, parent: { network: 'fuji' } })).rejects.toThrow(/belongs to the same list of another object/);
    await expect(resolvePageConnection({ ...options, args: { first: 2, after, filter: { x: 1 } } })).rejects.toThrow(/other arguments/);
  });

  it('every cursor refusal says what happened and what to pass instead, in one voice, coded BAD_USER_INPUT on `after`', async () => {
    const { codec } = countingCodec();
    const options = { ctx: { cursors: codec }, page: PAGES.validators, parent: { network: 'mainnet' }, fetchPage };
    const after = (await resolvePageConnection({ ...options, args: { first: 2 } })).pageInfo.endCursor ?? '';
    const [payload, mac] = after.split('.') as [string, string];
    // The payload edited (its index moved on), the signature kept: it still reads, but was not signed so.
    const edited = `${Buffer.from(Buffer.from(payload, 'base64url').toString('utf8').replace(/^(\w+)\.-1\./, '$1.5.'), 'utf8').toString('base64url')}.${mac}`;
    const refusals: [string, Promise<unknown>, RegExp][] = [
      ['cut short', resolvePageConnection({ ...options, args: { first: 2, after: after.slice(0, -3) } }), /is not one chaingraph issued, or it was cut short/],
      ['edited', resolvePageConnection({ ...options, args: { first: 2, after: edited } }), /was changed, or signed by another server/],
      ['another secret', resolvePageConnection({ ...options, ctx: { cursors: createCursorCodec(['o'.repeat(40)]) }, args: { first: 2, after } }), /was changed, or signed by another server or with a secret this one no longer holds/],
      ['another network', resolvePageConnection({ ...options, args: { first: 2, after }, parent: { network: 'fuji' } }), /belongs to the same list of another object/],
      ['other arguments', resolvePageConnection({ ...options, args: { first: 2, after, filter: { x: 1 } } }), /was issued for other arguments/],
      ['another list', resolvePageConnection({ ...options, page: { ...PAGES.validators, maxSize: 1 }, args: { first: 1, after } }), /belongs to another list/],
    ];
    expect(edited).not.toBe(after);
    for (const [name, refused, happened] of refusals) {
      const error = (await refused.then(() => undefined, (e: unknown) => e)) as { message: string; extensions: Record<string, unknown> } | undefined;
      expect([name, error?.extensions]).toEqual([name, { code: 'BAD_USER_INPUT', argumentName: 'after' }]);
      expect(error?.message).toMatch(happened);
      expect(error?.message).toMatch(/^Invalid argument "after": This cursor [^:]+: pass [^,]+(?:, [^,]+)*, or omit `after` to start from the first page\.$/);
    }
  });

  it('an empty page has null cursors', async () => {
    const { codec, encoded } = countingCodec();
    const connection = await resolvePageConnection({ ctx: { cursors: codec }, page: PAGES.validators, args: {}, fetchPage: async () => ({ items: [] }) });
    expect(connection.pageInfo).toMatchObject({ hasNextPage: false, startCursor: null, endCursor: null });
    expect(encoded).toEqual([]);
  });
});

/**
 * A listing served in pages of 0 to n items, each with a token while items remain: the
 * page sizes come from `shape` (fast-check's), the tokens hold a space and URL-reserved
 * characters, and an empty page still moves the token on (its count of empties).
 */
function shortListing(total: number, shape: (offset: number, size: number, empties: number) => number) {
  const items = Array.from({ length: total }, (_, i) => `item-${i}`);
  let reads = 0;
  const fetch = async (pageToken: string | undefined, pageSize: number): Promise<UpstreamPage<string>> => {
    reads += 1;
    const match = pageToken === undefined ? undefined : /^at (\d+) & (\d+) empty\?$/.exec(pageToken);
    if (pageToken !== undefined && !match) throw new Error(`not a token of this listing: ${pageToken}`);
    const offset = Number(match?.[1] ?? 0);
    const empties = Number(match?.[2] ?? 0);
    let size = shape(offset, pageSize, empties) % (pageSize + 1);
    // Never empty forever: after two empty pages in a row, at least one item.
    if (empties >= 2) size = Math.max(size, 1);
    const end = Math.min(offset + size, items.length);
    const page = items.slice(offset, end);
    return { items: page, ...(end < items.length ? { nextPageToken: `at ${end} & ${page.length === 0 ? empties + 1 : 0} empty?` } : {}) };
  };
  return { items, fetch, reads: () => reads };
}

describe('resolvePageConnection over short pages', () => {
  const codec = createCursorCodec(['c'.repeat(40)]);
  const page = PAGES.delegators;

  it('never reads past what its cost declares, and walking endCursor yields every item once (fast-check over page shapes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 7 }), fc.func(fc.nat({ max: 20 })), async (total, first, shape) => {
        const listing = shortListing(total, shape);
        const seen: string[] = [];
        let after: string | null = null;
        for (let query = 0; query < 4 * (total + 3); query++) {
          const before = listing.reads();
          const args: ConnectionArgs = { first, ...(after ? { after } : {}) };
          const connection: Connection<string> = await resolvePageConnection({ ctx: { cursors: codec }, page, args, parent: { p: 1 }, fetchPage: listing.fetch });
          expect(listing.reads() - before).toBeLessThanOrEqual(connectionReadCalls(args));
          expect(connection.edges.length).toBeLessThanOrEqual(first);
          seen.push(...connection.edges.map((e) => e.node));
          if (!connection.pageInfo.hasNextPage) break;
          after = connection.pageInfo.endCursor;
          expect(after).not.toBeNull();
        }
        expect(seen).toEqual(listing.items);
      }),
      { numRuns: 200 },
    );
  });

  it('continues after any edge’s cursor with the items after it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 6 }), fc.func(fc.nat({ max: 10 })), async (total, first, shape) => {
        const listing = shortListing(total, shape);
        const start = await resolvePageConnection({ ctx: { cursors: codec }, page, args: { first }, parent: { p: 1 }, fetchPage: listing.fetch });
        for (const edge of start.edges) {
          const next = await resolvePageConnection({ ctx: { cursors: codec }, page, args: { first, after: edge.cursor }, parent: { p: 1 }, fetchPage: listing.fetch });
          const from = listing.items.indexOf(edge.node) + 1;
          // Maybe fewer than `first` (short pages), never other items than the ones right after the edge.
          expect(next.edges.map((e) => e.node)).toEqual(listing.items.slice(from, from + next.edges.length));
          if (!next.pageInfo.hasNextPage) expect(from + next.edges.length).toBe(total);
        }
      }),
      { numRuns: 100 },
    );
  });

  it('an empty page with a token answers no edge, hasNextPage and an endCursor that goes on from the token', async () => {
    const listing = shortListing(3, (_offset, _size, empties) => (empties === 0 ? 0 : 5));
    const empty = await resolvePageConnection({ ctx: { cursors: codec }, page, args: { first: 2 }, fetchPage: listing.fetch });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ hasNextPage: true, startCursor: null });
    const state = codec.verify(empty.pageInfo.endCursor ?? '');
    expect(state).toMatchObject({ t: 'at 0 & 1 empty?', i: -1 });
    const next = await resolvePageConnection({ ctx: { cursors: codec }, page, args: { first: 2, after: empty.pageInfo.endCursor }, fetchPage: listing.fetch });
    expect(next.edges.map((e) => e.node)).toEqual(['item-0', 'item-1']);
  });

  it('carries any page token the upstream sends, spaces and reserved characters included, and refuses to mint one it cannot send', () => {
    for (const token of ['a b', 'x&pageSize=1000#?%2e', 'ünï cödé ✓', 'dots.in.it', '='.repeat(4096)]) {
      expect(codec.verify(codec.encode({ t: token, s: 5, i: 2, h: 'h'.repeat(12) }))).toMatchObject({ t: token, s: 5, i: 2 });
    }
    for (const token of ['tab\there', 'x'.repeat(4097), '\ud800 lone surrogate']) {
      expect(() => codec.encode({ t: token, s: 5, i: 2, h: 'h'.repeat(12) })).toThrow(/cannot carry/);
    }
  });
});
