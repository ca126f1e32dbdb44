import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { PRIMARY_NETWORK_ID } from '../../src/shapes/index.ts';

// The devnet's short-pages mode (chaos `shortPages`): every Data API listing answers pages shorter than
// asked, empty ones included, with a token while items remain, and a client that follows the tokens
// still reads every item exactly once, in the listing's order.

// Pinned, so listings that move with the clock (blocks, pending rewards) read the same in every walk.
const NOW = Date.now();

let devnet: Devnet;
let f: Record<string, string>;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 120, now: () => NOW });
  f = devnet.dataset.fixtures().mainnet as unknown as Record<string, string>;
});
afterAll(() => devnet?.close());

interface Walk {
  items: unknown[];
  pages: { size: number; token: string | undefined }[];
  /** True when the listing ended (else the walk stopped at {@link ITEMS}). */
  ended: boolean;
}

/** Items a walk reads at most: enough to cross many short pages, few enough for a loaded machine. */
const ITEMS = 80;

/** The pages of a listing, following its tokens (sent URL-encoded, as any client would), to its end or {@link ITEMS} items. */
async function walk(path: string, key: string, pageSize: number, body?: string): Promise<Walk> {
  const out: Walk = { items: [], pages: [], ended: false };
  let token: string | undefined;
  for (let page = 0; page < 2000; page++) {
    const url = new URL(devnet.url + path);
    url.searchParams.set('pageSize', String(pageSize));
    if (token !== undefined) url.searchParams.set('pageToken', token);
    const res = await fetch(url, body === undefined ? {} : { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status, `${url}`).toBe(200);
    const answer = (await res.json()) as Record<string, unknown>;
    const items = answer[key] as unknown[];
    token = answer['nextPageToken'] as string | undefined;
    out.items.push(...items);
    out.pages.push({ size: items.length, token });
    if (token === undefined) return { ...out, ended: true };
    if (out.items.length >= ITEMS) return out;
  }
  throw new Error(`${path}: no end after 2000 pages`);
}

const LISTINGS: [string, string, string?][] = [
  ['/v1/networks/mainnet/validators', 'validators'],
  ['/v1/networks/mainnet/delegators?nodeIds=BUSY', 'delegators'],
  ['/v1/networks/mainnet/subnets', 'subnets'],
  ['/v1/networks/mainnet/rewards:listPending?nodeIds=BUSY', 'pendingRewards'],
  [`/v1/networks/mainnet/blockchains/${PRIMARY_NETWORK_ID}/blocks`, 'blocks'],
  ['/v1/chains/43114/addresses/ADDRESS/transactions', 'transactions'],
  [`/v1/networks/mainnet/blockchains/${PRIMARY_NETWORK_ID}/utxos`, 'utxos', 'P_ADDRESS'],
];

describe('the short-pages mode', () => {
  it('answers every listing in short pages (empty ones too) whose tokens lead through exactly the items of the full listing', async () => {
    let empty = 0;
    for (const [template, key, owner] of LISTINGS) {
      const path = template.replace('BUSY', f['busyNodeId'] as string).replace('ADDRESS', f['address'] as string);
      const body = owner === undefined ? undefined : JSON.stringify({ addresses: (f['pChainAddress'] as string).slice(2) });
      devnet.resetChaos();
      const full = await walk(path, key, 100, body);
      expect(full.items.length, path).toBeGreaterThan(0);
      for (const [seed, size] of [[1, 7], [2, 25]] as const) {
        devnet.setChaos({ shortPages: seed });
        const short = await walk(path, key, size, body);
        const n = Math.min(short.items.length, full.items.length);
        expect(short.items.slice(0, n), `${path} seed ${seed}`).toEqual(full.items.slice(0, n));
        if (short.ended) expect([full.ended, full.items.length], path).toEqual([true, short.items.length]);
        if (full.ended) expect(short.items.length, path).toBeLessThanOrEqual(full.items.length);
        // Never a full page while items remain, and every token is opaque text with a space and URL-reserved characters.
        for (const page of short.pages.filter((p) => p.token !== undefined)) {
          expect(page.size).toBeLessThan(size);
          expect(page.token).toMatch(/ .*[&=?#%+/]/);
        }
        empty += short.pages.filter((p) => p.size === 0).length;
      }
    }
    expect(empty).toBeGreaterThan(0);
  }, 120_000);

  it('answers the same page to the same request, so a re-read lands where it did', async () => {
    devnet.setChaos({ shortPages: 3 });
    const path = `${devnet.url}/v1/networks/mainnet/validators?pageSize=9`;
    const first = (await (await fetch(path)).json()) as { nextPageToken: string; validators: unknown[] };
    const again = (await (await fetch(path)).json()) as { nextPageToken: string; validators: unknown[] };
    expect(again).toEqual(first);
    const next = `${path}&pageToken=${encodeURIComponent(first.nextPageToken)}`;
    expect(await (await fetch(next)).json()).toEqual(await (await fetch(next)).json());
  });

  it('leaves what is not a listing, and the listings once switched off, as they are', async () => {
    devnet.setChaos({ shortPages: 4 });
    const chain = await fetch(`${devnet.url}/v1/chains/43114`);
    expect(chain.status).toBe(200);
    const refused = await fetch(`${devnet.url}/v1/networks/mainnet/validators?pageSize=1000`);
    expect(refused.status).toBe(400);
    devnet.resetChaos();
    const page = (await (await fetch(`${devnet.url}/v1/networks/mainnet/validators?pageSize=9`)).json()) as { nextPageToken: string; validators: unknown[] };
    expect(page.validators).toHaveLength(9);
    expect(page.nextPageToken).not.toMatch(/ /);
  });
});
