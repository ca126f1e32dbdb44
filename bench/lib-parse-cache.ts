/**
 * The parse cache: yoga's own (`parserAndValidationCache` given lru-caches bounded by `maxSize`,
 * keyed by the raw document text) against `useParseCache` (keyed by a SHA-256 of the text, counted in
 * bytes, valid copies known by a digest of their tokens), both through `yoga.fetch` with the gateway's
 * schema and `__typename` documents (no upstream). Cases: one document asked again (the hot path),
 * and 300 distinct cached documents of 20,000 characters that differ only at their end, asked in turn.
 * Run with `npx tsx bench/lib-parse-cache.ts`; prints the median of several rounds in µs/op.
 */
import type { DocumentNode } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { PARSE_CACHE_DEFAULTS, detachTokens, useParseCache } from '../src/gateway/plugins/use-parse-cache.ts';
import { stringBytes } from '../src/lib/text.ts';
import { getSchema } from '../src/schema/index.ts';
import { measurePairAsync as measurePair } from './pairs.ts';

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

const schema = getSchema();

function ours(): Yoga {
  return createYoga({ schema, parserAndValidationCache: false, graphiql: false, logging: false, plugins: [useParseCache()] }) as unknown as Yoga;
}

/** Yoga's cache with the same byte budget: documents counted as useParseCache counts them (text plus 400 bytes a token). */
function yogas(): Yoga {
  const documentCache = new LRUCache<string, DocumentNode>({
    max: PARSE_CACHE_DEFAULTS.maxEntries,
    maxSize: PARSE_CACHE_DEFAULTS.maxBytes,
    maxEntrySize: PARSE_CACHE_DEFAULTS.maxDocumentBytes,
    sizeCalculation: (document, key) => stringBytes(key) + detachTokens(document) * 400 + 256,
  });
  const errorCache = new LRUCache<string, Error>({ max: 100, maxSize: 1024 * 1024, sizeCalculation: (error, key) => stringBytes(key) + stringBytes(error.message) + 256 });
  return createYoga({ schema, parserAndValidationCache: { documentCache, errorCache }, graphiql: false, logging: false }) as unknown as Yoga;
}

async function post(yoga: Yoga, query: string): Promise<void> {
  const res = await yoga.fetch('http://bench/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const text = await res.text();
  if (res.status !== 200 || text.includes('errors')) throw new Error(text);
}


async function row(name: string, n: number, oldFn: (i: number) => Promise<void>, newFn: (i: number) => Promise<void>): Promise<void> {
  const [o, s] = await measurePair(oldFn, newFn, n);
  console.log(`${name.padEnd(34)} useParseCache ${o.toFixed(1).padStart(7)} µs/op   yoga+lru-cache ${s.toFixed(1).padStart(7)} µs/op   x${(s / o).toFixed(2)}`);
}

const a = ours();
const b = yogas();
const hot = '{ __typename a: __typename b: __typename }';
await row('one document, asked again', 2000, () => post(a, hot), () => post(b, hot));
const long = Array.from({ length: 300 }, (_, i) => `{ __typename } # ${'x'.repeat(20_000)}${String(i).padStart(4, '0')}`);
await row('300 long documents, all cached', 600, (i) => post(a, long[i % 300] as string), (i) => post(b, long[i % 300] as string));
