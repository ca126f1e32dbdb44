/**
 * What reading an answer through its shape costs (src/shapes/read.ts): a 100-item
 * validators page and a 100-item delegators page as the devnet serves them, read
 * with JSON.parse alone and with JSON.parse plus the shape, in microseconds per page.
 * Also the slow path: the same page with one required field missing.
 *
 *   npx tsx bench/shapes-cost.ts
 *
 * A cache hit costs JSON.parse alone: the cache holds what was read and does not read it again.
 */
import { performance } from 'node:perf_hooks';
import { startDevnet } from '../src/devnet/server.ts';
import { readShape, SHAPES, type Leaf } from '../src/shapes/index.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 2000);
const WARMUP = 300;

const devnet = await startDevnet({ validators: 1200 });
const fetchText = async (path: string): Promise<string> => (await fetch(`${devnet.url}${path}`)).text();
const pages = {
  validators: { text: await fetchText('/v1/networks/mainnet/validators?pageSize=100'), shape: SHAPES.ListValidatorsResponse as Leaf<unknown> },
  delegators: { text: await fetchText('/v1/networks/mainnet/delegators?pageSize=100'), shape: SHAPES.ListDelegatorsResponse as Leaf<unknown> },
};
await devnet.close();

const toError = (): Error => new Error('broken');

/** Median of 5 batches of ROUNDS runs, µs per run. */
function time(run: () => unknown): number {
  for (let i = 0; i < WARMUP; i++) run();
  const batches: number[] = [];
  for (let b = 0; b < 5; b++) {
    const start = performance.now();
    for (let i = 0; i < ROUNDS; i++) run();
    batches.push(((performance.now() - start) * 1000) / ROUNDS);
  }
  return batches.sort((a, b) => a - b)[2] ?? 0;
}

const rows: Record<string, string | number>[] = [];
for (const [name, { text, shape }] of Object.entries(pages)) {
  const list = name;
  const parsed = JSON.parse(text) as Record<string, unknown[]>;
  const broken = JSON.parse(text) as Record<string, Record<string, unknown>[]>;
  delete broken[list]?.[50]?.nodeId;
  const brokenText = JSON.stringify(broken);
  const parse = time(() => JSON.parse(text));
  const read = time(() => readShape(shape, JSON.parse(text), toError, { containers: [list] }));
  const slow = time(() => readShape(shape, JSON.parse(brokenText), toError, { containers: [list] }));
  rows.push({
    page: `${name} (${parsed[list]?.length ?? 0} items, ${(text.length / 1024).toFixed(1)} KiB)`,
    'JSON.parse µs': parse.toFixed(1),
    'parse + read µs': read.toFixed(1),
    'read alone µs': (read - parse).toFixed(1),
    'read / parse': `${((read - parse) / parse * 100).toFixed(0)}%`,
    'one field broken µs': slow.toFixed(1),
  });
}
console.table(rows);
