import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { startDevnet } from '../../src/devnet/server.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { withDataApiCache } from '../../src/upstream/cached-clients.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import {
  DELEGATION_STATUSES, readShape, SHAPES, VALIDATION_STATUSES, violationsOf, withFields, withSharedFields, withViolations,
  type Leaf, type Violation,
} from '../../src/shapes/index.ts';

/**
 * The tolerant reader (src/shapes/read.ts) on real pages: 100 validators and 100
 * delegators of every status as the devnet serves them, edited at random.
 */

type Json = Record<string, unknown>;

/** The error a broken field throws in these tests: it names the field. */
class Broken extends Error {
  constructor(readonly violation: Violation) {
    super(`broken ${violation.path}: ${violation.reason}`);
  }
}
const toError = (violation: Violation): Error => new Broken(violation);

// The statuses are open enums the schema serves as null when absent (Kit.mayBeAbsent): not required when read.
const VALIDATOR_REQUIRED = ['txHash', 'nodeId', 'subnetId', 'amountStaked', 'startTimestamp', 'endTimestamp'] as const;
const DELEGATOR_REQUIRED = [
  'txHash', 'nodeId', 'rewardAddresses', 'amountDelegated', 'delegationFee', 'startTimestamp', 'endTimestamp',
] as const;

interface PageCase {
  name: string;
  shape: Leaf<unknown>;
  list: string;
  required: readonly string[];
  status: string;
  known: readonly string[];
  text: string;
}

const cases: PageCase[] = [];

beforeAll(async () => {
  const devnet = await startDevnet({ validators: 300 });
  try {
    const text = async (path: string) => (await fetch(`${devnet.url}${path}`)).text();
    cases.push(
      {
        name: 'validators', shape: SHAPES.ListValidatorsResponse, list: 'validators', required: VALIDATOR_REQUIRED,
        status: 'validationStatus', known: VALIDATION_STATUSES, text: await text('/v1/networks/mainnet/validators?pageSize=100'),
      },
      {
        name: 'delegators', shape: SHAPES.ListDelegatorsResponse, list: 'delegators', required: DELEGATOR_REQUIRED,
        status: 'delegationStatus', known: DELEGATION_STATUSES, text: await text('/v1/networks/mainnet/delegators?pageSize=100'),
      },
    );
  } finally {
    await devnet.close();
  }
});

const read = (c: PageCase, raw: unknown): Json => readShape(c.shape, raw, toError, { containers: [c.list] }) as Json;
const items = (page: Json, list: string): Json[] => page[list] as Json[];
const fresh = (c: PageCase): Json => JSON.parse(c.text) as Json;
/** The read page as plain data (JSON leaves a broken field out). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** A property name that is not a field of the descriptions here. */
const extraKey = fc.string({ minLength: 1, maxLength: 12 }).map((k) => `x_${k}`);
const jsonValue = fc.jsonValue({ maxDepth: 2 });

describe('the tolerant reader on 100-item pages', () => {
  it('reads the pages as served, every item, no broken field', () => {
    expect(cases).toHaveLength(2);
    for (const c of cases) {
      const page = read(c, fresh(c));
      expect(items(page, c.list)).toHaveLength(100);
      expect(violationsOf(page)).toBeUndefined();
      for (const item of items(page, c.list)) expect(c.known).toContain(item[c.status]);
    }
  });

  it('property: fields it does not know, on the page or any item, are ignored', () => {
    for (const c of cases) {
      const expected = plain(read(c, fresh(c)));
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.integer({ min: -1, max: 99 }), extraKey, jsonValue), { minLength: 1, maxLength: 8 }), (extras) => {
          const raw = fresh(c);
          for (const [index, key, value] of extras) {
            const target = index < 0 ? raw : (items(raw, c.list)[index] as Json);
            target[key] = value;
          }
          const page = read(c, raw);
          expect(violationsOf(page)).toBeUndefined();
          expect(plain(page)).toEqual(expected);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('property: a status it does not know is kept raw, and the item still reads', () => {
    for (const c of cases) {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 99 }), fc.string({ minLength: 1, maxLength: 20 }).filter((s) => !c.known.includes(s)), (index, status) => {
          const raw = fresh(c);
          (items(raw, c.list)[index] as Json)[c.status] = status;
          const page = read(c, raw);
          expect(violationsOf(page)).toBeUndefined();
          const item = items(page, c.list)[index] as Json;
          expect(item[c.status]).toBe(status);
          expect(item.txHash).toBe((items(fresh(c), c.list)[index] as Json).txHash);
        }),
        { numRuns: 40 },
      );
    }
  });

  it('property: a missing status reads as absent (no broken field); an ill-typed one is broken', () => {
    for (const c of cases) {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 99 }), fc.oneof(fc.constant(undefined), fc.integer(), fc.constant({})), (index, value) => {
          const raw = fresh(c);
          const rawItem = items(raw, c.list)[index] as Json;
          if (value === undefined) delete rawItem[c.status];
          else rawItem[c.status] = value;
          const page = read(c, raw);
          const item = items(page, c.list)[index] as Json;
          if (value === undefined) {
            expect(violationsOf(page)).toBeUndefined();
            expect(item[c.status]).toBeUndefined();
          } else {
            expect(() => item[c.status]).toThrow(Broken);
          }
        }),
        { numRuns: 30 },
      );
    }
  });

  const brokenValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.boolean(), fc.constant({}), fc.constant([1]));

  it('property: a required field missing or ill-typed in one item fails only reading that field; the rest of the item and page read', () => {
    for (const c of cases) {
      const intact = read(c, fresh(c));
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 99 }), fc.constantFrom(...c.required), brokenValue, (index, key, value) => {
          const raw = fresh(c);
          const rawItem = items(raw, c.list)[index] as Json;
          // A value of the right type is no violation: only break it. Nor is an integer where an amount
          // (a decimal string) belongs: the reader takes it as its decimal string.
          if (value === undefined) delete rawItem[key];
          else if (typeof value === typeof rawItem[key] && !(Array.isArray(value) || value === null)) return;
          else if (Number.isSafeInteger(value) && typeof rawItem[key] === 'string' && /^\d+$/.test(rawItem[key])) return;
          else rawItem[key] = value;

          const page = read(c, raw);
          const item = items(page, c.list)[index] as Json;
          expect(() => item[key]).toThrow(Broken);
          expect(() => item[key]).toThrow(`broken ${c.list}[${index}].${key}`);
          expect(violationsOf(page)?.map((v) => v.keys)).toEqual([[c.list, index, key]]);
          // Everything else is as read from the intact page.
          const { [key]: _gone, ...others } = plain(items(intact, c.list)[index]) as Json;
          expect(plain(item)).toEqual(others);
          for (const other of Object.keys(others)) expect(item[other]).toEqual((items(intact, c.list)[index] as Json)[other]);
          const rest = items(page, c.list).filter((_, i) => i !== index);
          expect(plain(rest)).toEqual(plain(items(intact, c.list).filter((_, i) => i !== index)));
          expect(page.nextPageToken).toBe(intact.nextPageToken);
        }),
        { numRuns: 60 },
      );
    }
  });

  it('the broken field survives a cache (JSON and back, getters put back) and a copy made with withFields', () => {
    const c = cases[0] as PageCase;
    const raw = fresh(c);
    delete (items(raw, c.list)[3] as Json).nodeId;
    const page = read(c, raw);
    const violations = violationsOf(page) ?? [];
    expect(violations).toHaveLength(1);
    const copy = withViolations(JSON.parse(JSON.stringify(page)) as Json, violations);
    expect(() => (items(copy, c.list)[3] as Json).nodeId).toThrow('broken validators[3].nodeId');
    expect(violationsOf(copy)).toBe(violations);

    const item = items(page, c.list)[3] as Json;
    // A spread reads the broken field: it fails loudly with the field's error.
    expect(() => ({ ...item })).toThrow('broken validators[3].nodeId');
    const extended = withFields(item, { network: 'mainnet' });
    expect(extended.network).toBe('mainnet');
    expect(extended.txHash).toBe(item.txHash);
    expect(() => extended.nodeId).toThrow('broken validators[3].nodeId');
    expect(withFields(items(page, c.list)[0] as Json, { network: 'fuji' })).toEqual({ ...(items(page, c.list)[0] as Json), network: 'fuji' });
  });

  it('withSharedFields copies a frozen (shared) item once, keeps its broken fields, and tags an item read for one request in place', () => {
    const c = cases[0] as PageCase;
    const raw = fresh(c);
    delete (items(raw, c.list)[3] as Json).nodeId;
    delete (items(raw, c.list)[4] as Json).nodeId;
    const page = read(c, raw);
    const memo = new WeakMap<object, Json & { network: string }>();
    const own = items(page, c.list)[0] as Json;
    const tagged = withSharedFields(own, { network: 'mainnet' }, memo);
    expect(tagged).toBe(own);
    expect(tagged.network).toBe('mainnet');
    expect(withSharedFields(own, { network: 'mainnet' }, memo)).toBe(tagged);
    // Its broken fields still throw, on the item itself.
    const ownBroken = withSharedFields(items(page, c.list)[4] as Json, { network: 'mainnet' }, memo);
    expect(ownBroken.network).toBe('mainnet');
    expect(() => ownBroken.nodeId).toThrow('broken validators[4].nodeId');

    const shared = Object.freeze(items(page, c.list)[0] as Json);
    const copy = withSharedFields(shared, { network: 'mainnet' }, memo);
    expect(copy).toEqual({ ...shared, network: 'mainnet' });
    expect(Object.isFrozen(copy)).toBe(true);
    expect(withSharedFields(shared, { network: 'mainnet' }, memo)).toBe(copy);
    expect(withSharedFields(shared, { network: 'fuji' }, memo).network).toBe('fuji');

    const broken = Object.freeze(items(page, c.list)[3] as Json);
    const brokenCopy = withSharedFields(broken, { network: 'mainnet' }, memo);
    expect(brokenCopy.txHash).toBe(broken.txHash);
    expect(() => brokenCopy.nodeId).toThrow('broken validators[3].nodeId');
    expect(withSharedFields(broken, { network: 'mainnet' }, memo)).toBe(brokenCopy);
  });

  it('an answer that is not the right container fails as a whole', () => {
    const c = cases[0] as PageCase;
    const whole = (raw: unknown): Violation => {
      try {
        read(c, raw);
      } catch (error) {
        if (error instanceof Broken) return error.violation;
        throw error;
      }
      throw new Error('read did not fail');
    };
    expect(whole([])).toMatchObject({ whole: true, path: '(answer)' });
    expect(whole('<html>')).toMatchObject({ whole: true, path: '(answer)' });
    expect(whole({ nextPageToken: 'x' })).toMatchObject({ whole: true, path: 'validators', reason: 'missing' });
    expect(whole({ validators: {} })).toMatchObject({ whole: true, path: 'validators' });
    // An item that is not even an object breaks the list it is in.
    const raw = fresh(c);
    (raw.validators as unknown[])[5] = 'NodeID-x';
    expect(whole(raw)).toMatchObject({ whole: true, path: 'validators' });
  });

  it('reads the spec variants: an empty page token, a numeric price', () => {
    const noToken = readShape(SHAPES.ListVerticesResponse, { vertices: [], nextPageToken: '' }, toError);
    expect('nextPageToken' in noToken).toBe(false);
    const balance = readShape(SHAPES.GetNativeBalanceResponse, {
      nativeTokenBalance: { name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId: '43114', balance: '1', price: { currencyCode: 'usd', value: 1e21 } },
    }, toError);
    expect(balance.nativeTokenBalance.price).toEqual({ currencyCode: 'usd', value: '1000000000000000000000' });
  });
});

describe('behind the response cache', () => {
  it('stores what was read and serves hits without reading again; never stores an answer with a broken field, whose copies throw', async () => {
    const c = cases[0] as PageCase;
    let calls = 0;
    let breakNext = false;
    const listValidators = async (): Promise<unknown> => {
      calls += 1;
      const raw = fresh(c);
      if (breakNext) delete (items(raw, c.list)[2] as Json).nodeId;
      return read(c, raw);
    };
    // Only E8 answers; the cache wraps every method.
    const upstream = new Proxy({}, {
      get: (_, name) => (name === 'listValidators' ? listValidators : () => Promise.reject(new Error(`${String(name)} not here`))),
    }) as DataApi;
    const api = withDataApiCache(upstream, createMemoryCache());

    const first = await api.listValidators('mainnet', { pageSize: 100 });
    const hit = await api.listValidators('mainnet', { pageSize: 100 });
    expect(calls).toBe(1);
    // The one stored value, shared and frozen.
    expect(hit).toBe(first);
    expect(Object.isFrozen(hit.validators[0])).toBe(true);

    breakNext = true;
    const [a, b] = await Promise.all([api.listValidators('fuji', { pageSize: 100 }), api.listValidators('fuji', { pageSize: 100 })]);
    expect(calls).toBe(2);
    expect(a === b).toBe(false); // each caller its own copy with the getters that throw
    for (const page of [a, b]) {
      expect(() => page.validators[2]?.nodeId).toThrow('broken validators[2].nodeId');
      expect(page.validators[3]?.nodeId).toEqual(expect.any(String));
    }
    await api.listValidators('fuji', { pageSize: 100 });
    expect(calls).toBe(3);
  });
});
