import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevnetResponse } from '../../src/devnet/http-types.ts';
import { createOddities } from '../../src/devnet/oddities.ts';
import { conforms, SPEC_FACTS, type Json, type SpecFacts } from '../../src/devnet/spec-walk.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { SPEC_PATH } from '../helpers/prism.ts';

/**
 * The oddities mode's transformation (src/devnet/oddities.ts): deterministic by request, and only
 * ever changing a value into one its schemas allow. A small hand-written spec holds the cases the real
 * one has (required and optional properties, closed enums, a discriminated oneOf, page tokens), so a
 * few hundred seeds show the rules hold on every draw; the devnet's own answers show what the mode
 * sends. (test/e2e/oddities.test.ts checks every answer the gateway reads against the real spec with
 * Prism, an independent validator.)
 */

const TINY: SpecFacts = {
  source: { file: 'tiny', title: null, version: null, sha256: '' },
  operations: { 'GET /v1/things': { '200': { $ref: 'ListThings' } } },
  schemas: {
    ListThings: {
      type: 'object',
      required: ['things'],
      properties: {
        nextPageToken: { type: 'string' },
        things: { type: 'array', items: { oneOf: [{ $ref: 'Active' }, { $ref: 'Done' }], discriminator: { propertyName: 'status', mapping: { active: 'Active', done: 'Done' } } } },
      },
    },
    Active: {
      type: 'object',
      required: ['id', 'amount', 'status', 'kind'],
      properties: {
        id: { type: 'string' },
        amount: { type: 'string' },
        since: { type: 'number' },
        kind: { type: 'string', enum: ['a', 'b'] },
        status: { type: 'string', enum: ['active'] },
        note: { type: ['string', 'null'] },
      },
    },
    Done: {
      type: 'object',
      required: ['id', 'status'],
      properties: { id: { type: 'string' }, status: { type: 'string', enum: ['done'] }, at: { type: 'number' } },
    },
  },
};

const PAGE = {
  nextPageToken: 'token-1',
  things: [
    { id: 'x1', amount: '100', since: 5, kind: 'a', status: 'active', note: 'hi' },
    { id: 'x2', status: 'done', at: 7 },
    { id: 'x3', amount: '3', kind: 'b', status: 'active' },
  ],
};

const answer = (body: unknown): DevnetResponse => ({ status: 200, body, route: 'GET /v1/things' });
const parse = (response: DevnetResponse): unknown => JSON.parse(String(response.body));

describe('oddities transformation', () => {
  it('works from facts derived from the committed copy of the real spec (scripts/spec-facts.ts)', () => {
    expect(createHash('sha256').update(readFileSync(SPEC_PATH)).digest('hex')).toBe(SPEC_FACTS.source.sha256);
    expect(Object.keys(SPEC_FACTS.operations).length).toBeGreaterThan(70);
  });

  it('keeps required properties, enums, discriminators and page tokens on every seed, and stays valid', () => {
    const seen = { dropped: 0, emptied: 0, strings: 0, numbers: 0, nulls: 0 };
    for (let seed = 1; seed <= 300; seed++) {
      const odd = createOddities({ seed }, TINY)('GET', '/v1/things', answer(PAGE));
      const body = parse(odd) as { nextPageToken: string; things: Record<string, unknown>[] };
      expect(conforms(TINY, { $ref: 'ListThings' }, body as Json), `seed ${seed}: ${String(odd.body)}`).toBe(true);
      expect(body.nextPageToken).toBe('token-1');
      if (body.things.length === 0) {
        seen.emptied += 1;
        continue;
      }
      for (const [i, thing] of body.things.entries()) {
        const original = PAGE.things[i] as Record<string, unknown>;
        expect(thing['status']).toBe(original['status']);
        expect(thing['id']).toBeTypeOf('string');
        if ('kind' in original) expect(thing['kind']).toBe(original['kind']);
        if (Object.keys(thing).length < Object.keys(original).length) seen.dropped += 1;
        if (typeof thing['amount'] === 'string' && thing['amount'] !== original['amount'] && !/^\d+$/.test(thing['amount'])) seen.strings += 1;
        if (typeof thing['since'] === 'number' && thing['since'] !== original['since']) seen.numbers += 1;
        if (thing['note'] === null) seen.nulls += 1;
      }
    }
    // Every kind of oddity occurs at these rates over 300 draws.
    expect(seen.dropped).toBeGreaterThan(0);
    expect(seen.emptied).toBeGreaterThan(0);
    expect(seen.strings).toBeGreaterThan(0);
    expect(seen.numbers).toBeGreaterThan(0);
    expect(seen.nulls).toBeGreaterThan(0);
  });

  it('is a function of the seed and the request', () => {
    const odd = (seed: number, target: string): string => String(createOddities({ seed }, TINY)('GET', target, answer(PAGE)).body);
    expect(odd(3, '/v1/things')).toBe(odd(3, '/v1/things'));
    const variants = new Set([1, 2, 3, 4, 5].map((seed) => odd(seed, '/v1/things')));
    expect(variants.size).toBeGreaterThan(1);
    expect(new Set(['/v1/things?a=1', '/v1/things?a=2', '/v1/things?a=3', '/v1/things?a=4'].map((t) => odd(3, t))).size).toBeGreaterThan(1);
  });

  it('leaves alone what it has no schema for: errors, unknown routes, properties the spec does not declare', () => {
    const transform = createOddities({ seed: 1, valueRate: 1, dropRate: 1, emptyRate: 1 }, TINY);
    const error: DevnetResponse = { status: 400, body: { message: 'bad' }, route: 'GET /v1/things' };
    expect(transform('GET', '/v1/things', error)).toBe(error);
    const unknown: DevnetResponse = { status: 200, body: { a: 1 }, route: 'GET /v1/other' };
    expect(transform('GET', '/v1/other', unknown)).toBe(unknown);
    const body = parse(transform('GET', '/v1/things', answer({ things: [{ id: 'x', status: 'done', extra: 'kept' }], seedOnly: 42 }))) as Record<string, unknown>;
    // Every array emptied at rate 1, so the item is gone, but the seed's own property stays.
    expect(body).toEqual({ things: [], seedOnly: 42 });
  });

  it('writes wide integers as exact literals', () => {
    const bodies = Array.from({ length: 200 }, (_, seed) => String(createOddities({ seed, valueRate: 1, dropRate: 0, emptyRate: 0 }, TINY)('GET', '/v1/things', answer(PAGE)).body));
    expect(bodies.some((text) => text.includes(':18446744073709551615'))).toBe(true);
    expect(bodies.some((text) => text.includes(':115792089237316195423570985084023665640564039457584007913129639935'))).toBe(true);
    expect(bodies.some((text) => text.includes('"115792089237316195423570985084023665640564039457584007913129639935"'))).toBe(true);
  });
});

describe('the devnet in oddities mode', () => {
  const NOW = Date.UTC(2025, 5, 15, 12);
  let odd: Devnet;
  let again: Devnet;
  let plain: Devnet;
  beforeAll(async () => {
    [odd, again, plain] = await Promise.all([
      startDevnet({ validators: 30, oddities: true, now: () => NOW }),
      startDevnet({ validators: 30, oddities: true, now: () => NOW }),
      startDevnet({ validators: 30, now: () => NOW }),
    ]);
  });
  afterAll(() => Promise.all([odd?.close(), again?.close(), plain?.close()]));

  const paths = ['/v1/networks/mainnet/validators?pageSize=20', '/v1/networks/mainnet/delegators?pageSize=20', '/v1/chains', '/v1/networks/mainnet/blockchains/p-chain/blocks?pageSize=10'];
  const text = async (devnet: Devnet, path: string): Promise<string> => {
    const res = await fetch(devnet.url + path);
    expect(res.status, path).toBe(200);
    return res.text();
  };

  it('answers the same request the same, differently from the plain devnet, valid where the plain one is', async () => {
    for (const path of paths) {
      const [first, second, base] = await Promise.all([text(odd, path), text(again, path), text(plain, path)]);
      expect(first, path).toBe(second);
      expect(first, path).not.toBe(base);
      const route = `GET ${path.replace('/mainnet/', '/{network}/').replace('/p-chain/', '/{blockchainId}/').replace(/\?.*$/, '')}`;
      const schema = SPEC_FACTS.operations[route]?.['200'];
      expect(schema, route).toBeDefined();
      if (schema !== undefined && conforms(SPEC_FACTS, schema, JSON.parse(base) as Json)) expect(conforms(SPEC_FACTS, schema, JSON.parse(first) as Json), path).toBe(true);
      // Paging still works: the token is the devnet's own.
      const token = (JSON.parse(base) as { nextPageToken?: string }).nextPageToken;
      if (token !== undefined) expect((JSON.parse(first) as { nextPageToken?: string }).nextPageToken).toBe(token);
    }
  });
});
