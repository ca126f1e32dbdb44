import fc from 'fast-check';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { fastReader, MISS } from '../../src/shapes/fast-read.ts';
import { describeNodeResults, READ, SHAPES, type Leaf } from '../../src/shapes/index.ts';

/**
 * The reader's fast path (src/shapes/fast-read.ts) against valibot itself, on real
 * answers of the devnet edited at random: whenever valibot refuses an answer the fast
 * path must too (so the slow path reports the broken field), and whenever the fast path
 * accepts one, it must read what valibot reads (it may keep fields valibot drops).
 */

type Json = Record<string, unknown>;

interface Sample {
  name: string;
  shape: Leaf<unknown>;
  text: string;
}

let devnet: Devnet;
const samples: Sample[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300 });
  const get = async (path: string, init?: RequestInit): Promise<string> => {
    const res = await fetch(`${devnet.url}${path}`, init);
    if (!res.ok) throw new Error(`${path}: ${res.status}`);
    return res.text();
  };
  const fx = JSON.parse(await get('/__devnet/fixtures')) as Record<string, NetworkFixtures>;
  const main = fx['mainnet'] as NetworkFixtures;
  const utxos: RequestInit = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ addresses: main.pChainAddress }) };
  const pages: [string, Leaf<unknown>, string, RequestInit?][] = [
    ['validators', SHAPES.ListValidatorsResponse, '/v1/networks/mainnet/validators?pageSize=40'],
    ['delegators', SHAPES.ListDelegatorsResponse, '/v1/networks/mainnet/delegators?pageSize=40'],
    ['subnets', SHAPES.ListSubnetsResponse, '/v1/networks/mainnet/subnets?pageSize=20'],
    ['historical rewards', SHAPES.ListHistoricalRewardsResponse, `/v1/networks/mainnet/rewards?addresses=${main.rewardAddress}&pageSize=20`],
    ['blocks', SHAPES.ListBlocksResponse, '/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=20'],
    ['utxos', SHAPES.ListUtxosResponse, '/v1/networks/mainnet/blockchains/p-chain/utxos', utxos],
    ['chains', SHAPES.ListChainsResponse, '/v1/chains'],
    ['address transactions', SHAPES.ListAddressTransactionsResponse, `/v1/chains/${main.evmChainId}/addresses/${main.address}/transactions?pageSize=10`],
  ];
  for (const [name, shape, path, init] of pages) samples.push({ name, shape, text: await get(path, init) });
});

afterAll(async () => {
  await devnet.close();
});

/** Every path to a value in a JSON document, the root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  const children: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : typeof value === 'object' && value !== null ? Object.entries(value) : [];
  for (const [key, item] of children) {
    out.push([...prefix, key]);
    pathsOf(item, [...prefix, key], out);
  }
  return out;
}

type Edit = { kind: 'delete' } | { kind: 'set'; value: unknown } | { kind: 'number-string' } | { kind: 'extra'; key: string; value: unknown };

function apply(doc: Json, path: (string | number)[], edit: Edit): void {
  let parent: unknown = doc;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[key];
  const holder = parent as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (edit.kind === 'delete') {
    if (Array.isArray(holder)) holder.splice(Number(last), 1);
    else delete holder[last];
  } else if (edit.kind === 'set') holder[last] = structuredClone(edit.value); // a fresh copy: fast-check shares constants between edits
  else if (edit.kind === 'number-string') {
    const current = holder[last];
    holder[last] = typeof current === 'number' ? String(current) : typeof current === 'string' && /^\d+$/.test(current) ? Number(current) : current;
  } else {
    const target = holder[last];
    if (typeof target === 'object' && target !== null && !Array.isArray(target)) (target as Json)[edit.key] = structuredClone(edit.value);
  }
}

/** `got` holds everything `expected` holds (it may hold more object keys). */
function expectCovers(got: unknown, expected: unknown): void {
  if (Array.isArray(expected)) {
    expect(Array.isArray(got)).toBe(true);
    expect((got as unknown[]).length).toBe(expected.length);
    expected.forEach((item, i) => expectCovers((got as unknown[])[i], item));
  } else if (typeof expected === 'object' && expected !== null) {
    for (const [key, item] of Object.entries(expected)) expectCovers((got as Json)[key], item);
  } else {
    expect(got).toEqual(expected);
  }
}

const jsonValue = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.constant([]), fc.constant({}));
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.constant<Edit>({ kind: 'delete' }),
  jsonValue.map<Edit>((value) => ({ kind: 'set', value })),
  fc.constant<Edit>({ kind: 'number-string' }),
  fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), jsonValue).map<Edit>(([key, value]) => ({ kind: 'extra', key, value })),
);

describe('the reader\'s fast path', () => {
  it('compiles every description (none falls back to valibot for want of a construct)', () => {
    const schemas = [...Object.entries(SHAPES), ...Object.entries(describeNodeResults(READ))]
      .filter(([, shape]) => (shape as { kind?: string }).kind === 'schema');
    expect(schemas.length).toBeGreaterThan(60);
    const slow = schemas.filter(([, shape]) => fastReader(shape as Leaf<unknown>).name !== 'read').map(([name]) => name);
    expect(slow).toEqual([]);
  });

  it('accepts the devnet\'s answers as they are (the common case never reaches valibot)', () => {
    for (const { name, shape, text } of samples) {
      expect(fastReader(shape)(JSON.parse(text)), name).not.toBe(MISS);
    }
  });

  it('agrees with valibot on answers edited at random: refuses what it refuses, reads what it reads', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.array(edit, { minLength: 1, maxLength: 3 }), (which, where, edits) => {
        const sample = samples[which % samples.length] as Sample;
        const doc = JSON.parse(sample.text) as Json;
        for (const e of edits) {
          const paths = pathsOf(doc);
          if (paths.length === 0) break;
          apply(doc, paths[where % paths.length] as (string | number)[], e);
        }
        const text = JSON.stringify(doc);
        const slow = v.safeParse(sample.shape, JSON.parse(text));
        const fast = fastReader(sample.shape)(JSON.parse(text));
        if (!slow.success) expect(fast, `${sample.name}: valibot refuses ${text.slice(0, 200)}`).toBe(MISS);
        if (fast !== MISS) expectCovers(fast, slow.output);
      }),
      { numRuns: Number(process.env["FAST_READ_RUNS"] ?? 400) },
    );
  });

  it('reads the variant forms the way valibot does (a price sent as a number, an empty page token)', () => {
    const validators = JSON.parse((samples[0] as Sample).text) as Json;
    validators['nextPageToken'] = '';
    const slow = v.parse(SHAPES.ListValidatorsResponse, JSON.parse(JSON.stringify(validators)));
    const fast = fastReader(SHAPES.ListValidatorsResponse)(validators);
    expect(fast).not.toBe(MISS);
    expectCovers(fast, slow);
    expect((fast as Json)['nextPageToken']).toBeUndefined();
  });
});
