/**
 * The devnet's page cache: the hand-written byte-budgeted LRU that src/devnet/routes/page-cache.ts had
 * (copied here unchanged) against lru-cache with `maxSize`, `maxEntrySize` and `sizeCalculation`, with
 * the devnet's budget (4 MB, pages up to 512 KB) on keys and pages like the ones it serves: a
 * replayed mix of mostly hits, and a churn of distinct keys that evicts on every set.
 * Run with `npx tsx bench/lib-page-cache.ts`; prints the median of several rounds in µs/op.
 */
import { LRUCache } from 'lru-cache';
import { measurePair } from './pairs.ts';

class OldPageCache {
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

const newCache = () =>
  new LRUCache<string, Buffer>({ maxSize: 4_000_000, maxEntrySize: 512_000, sizeCalculation: (page, key) => page.length + key.length });


const N = 100_000;
const keys = Array.from({ length: 400 }, (_, i) => `/v1/networks/mainnet/validators?nodeIds=NodeID-${i.toString(36).padStart(30, 'x')}&pageSize=100`);
const pages = keys.map((_, i) => Buffer.alloc(2_000 + ((i * 7919) % 30_000)));
const churnKeys = Array.from({ length: 4096 }, (_, i) => `/v1/networks/mainnet/rewards:listPending?at=${i}&pageSize=100`);

const old = new OldPageCache(4_000_000, 512_000);
const lru = newCache();
for (let i = 0; i < keys.length; i++) {
  old.set(keys[i] as string, pages[i] as Buffer);
  lru.set(keys[i] as string, pages[i] as Buffer);
}

/** The devnet's lookup: a get, and a set when it misses. */
const serve = (cache: { get(k: string): Buffer | undefined; set(k: string, v: Buffer): unknown }, key: string, page: Buffer) => {
  if (cache.get(key) === undefined) cache.set(key, page);
};

const row = (name: string, oldFn: (i: number) => unknown, newFn: (i: number) => unknown) => {
  const [o, s] = measurePair(oldFn, newFn, N);
  console.log(`${name.padEnd(30)} old ${o.toFixed(3).padStart(7)} µs/op   lru-cache ${s.toFixed(3).padStart(7)} µs/op   x${(s / o).toFixed(2)}`);
};
// 400 keys of about 6.6 MB in all against a 4 MB budget: a replay that mostly hits, and misses past the budget.
row('replay (get, set on miss)', (i) => serve(old, keys[(i * 31) % 400] as string, pages[(i * 31) % 400] as Buffer), (i) => serve(lru, keys[(i * 31) % 400] as string, pages[(i * 31) % 400] as Buffer));
row('hits only (40 hot keys)', (i) => old.get(keys[i % 40] as string), (i) => lru.get(keys[i % 40] as string));
row('churn (set evicts)', (i) => old.set(churnKeys[i & 4095] as string, pages[i % 400] as Buffer), (i) => lru.set(churnKeys[i & 4095] as string, pages[i % 400] as Buffer));
