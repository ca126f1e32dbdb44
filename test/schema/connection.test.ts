import { describe, expect, it } from 'vitest';
import type { UpstreamPage } from '../../src/lib/pages.ts';
import { resolvePageConnection } from '../../src/schema/connection.ts';
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
    // Each cursor is minted once, however often it is read.
    expect(encoded.map((s) => s.i)).toEqual([1, 0]);
  });

  it('continues after a cursor it minted, bound to the same arguments and parent', async () => {
    const { codec } = countingCodec();
    const options = { ctx: { cursors: codec }, page: PAGES.validators, parent: { network: 'mainnet' }, fetchPage };
    const first = await resolvePageConnection({ ...options, args: { first: 2 } });
    const after = first.pageInfo.endCursor ?? '';
    const second = await resolvePageConnection({ ...options, args: { first: 2, after } });
    expect(second.edges.map((e) => e.node)).toEqual(['c', 'd']);
    await expect(resolvePageConnection({ ...options, args: { first: 2, after }, parent: { network: 'fuji' } })).rejects.toThrow(/another parent/);
    await expect(resolvePageConnection({ ...options, args: { first: 2, after, filter: { x: 1 } } })).rejects.toThrow(/other arguments/);
  });

  it('an empty page has null cursors', async () => {
    const { codec, encoded } = countingCodec();
    const connection = await resolvePageConnection({ ctx: { cursors: codec }, page: PAGES.validators, args: {}, fetchPage: async () => ({ items: [] }) });
    expect(connection.pageInfo).toMatchObject({ hasNextPage: false, startCursor: null, endCursor: null });
    expect(encoded).toEqual([]);
  });
});
