import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { identityOf, isSparseRecord, sparseAnswer, UNKNOWN_ENUMS } from '../../src/devnet/sparse.ts';
import { answerSchema, conforms, SPEC_FACTS, type Json, type Schema } from '../../src/devnet/spec-walk.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * The plain devnet's sparse records (src/devnet/sparse.ts): some records of some operations leave
 * optional properties out, as real answers do, never a required one; an enum's `UNKNOWN` (outside the
 * gateway's named members) comes now and then and the gateway serves it as UNKNOWN with the raw value;
 * and a record is the same in a listing and in its lookup.
 */

type Rec = Record<string, unknown>;
const NOW = Date.UTC(2025, 5, 15, 12);
let stack: TestStack;
let fx: NetworkFixtures;

async function get(path: string): Promise<Rec> {
  const res = await fetch(stack.devnet.url + path);
  expect(res.status, path).toBe(200);
  return (await res.json()) as Rec;
}

/** Every required property of `schema` (refs, allOf and the matching oneOf branch followed) missing from `value`, as paths. */
function missingRequired(schema: Schema, value: unknown, path = '$'): string[] {
  if (typeof schema === 'boolean' || value === null || typeof value !== 'object') return [];
  const out: string[] = [];
  if (schema.$ref !== undefined) out.push(...missingRequired(SPEC_FACTS.schemas[schema.$ref] ?? true, value, path));
  for (const s of schema.allOf ?? []) out.push(...missingRequired(s, value, path));
  const branch = schema.oneOf?.find((s) => conforms(SPEC_FACTS, s, value as Json));
  if (branch) out.push(...missingRequired(branch, value, path));
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items !== undefined) value.forEach((item, i) => out.push(...missingRequired(items, item, `${path}[${i}]`)));
    return out;
  }
  const record = value as Rec;
  for (const name of schema.required ?? []) if (!(name in record)) out.push(`${path}.${name}`);
  for (const [name, property] of Object.entries(schema.properties ?? {})) if (name in record) out.push(...missingRequired(property, record[name], `${path}.${name}`));
  return out;
}

beforeAll(async () => {
  stack = await startStack({ devnet: { validators: 120, now: () => NOW } });
  fx = stack.devnet.dataset.fixtures().mainnet;
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the plain devnet answers some records sparse, as real answers are', () => {
  it('leaves optional properties out of some records of several operations, never a required one', async () => {
    const base = `/v1/chains/${fx.evmChainId}`;
    const cases: [string, string, string][] = [
      ['GET /v1/networks/{network}/validators', '/v1/networks/mainnet/validators?pageSize=100', 'validators'],
      ['GET /v1/networks/{network}/blockchains/{blockchainId}/transactions', '/v1/networks/mainnet/blockchains/p-chain/transactions?pageSize=100', 'transactions'],
      ['GET /v1/chains', '/v1/chains', 'chains'],
      ['GET /v1/chains/{chainId}/addresses/{address}/transactions', `${base}/addresses/${fx.address}/transactions?pageSize=100`, 'transactions'],
      ['GET /v1/networks/{network}/blockchains', '/v1/networks/mainnet/blockchains?pageSize=100', 'blockchains'],
    ];
    let records = 0;
    let sparse = 0;
    const lacking = new Set<string>();
    for (const [route, path, key] of cases) {
      const body = await get(path);
      const schema = answerSchema(SPEC_FACTS, route, 200);
      expect(schema, route).toBeDefined();
      expect(missingRequired(schema ?? true, body), path).toEqual([]);
      // What the full records of the page carry and a sparse one lacks (the spec allows it: checked above).
      const items = body[key] as Rec[];
      const isSparse = (item: Rec): boolean => isSparseRecord(1, identityOf(item as Json) ?? '');
      const carried = new Set(items.filter((item) => !isSparse(item)).flatMap((item) => Object.keys(item)));
      records += items.length;
      for (const item of items.filter(isSparse)) {
        sparse += 1;
        for (const name of carried) if (!(name in item)) lacking.add(`${route} ${name}`);
      }
    }
    console.log(`sparse records: ${sparse} of ${records} listed in ${cases.length} operations; left out: ${[...lacking].sort().join(', ')}`);
    expect(records).toBeGreaterThan(200);
    expect(sparse).toBeGreaterThan(records / 20);
    expect(sparse).toBeLessThan(records / 4);
    expect(lacking.size).toBeGreaterThan(0);
  });

  it('answers a record the same in a listing and in its lookup', async () => {
    const listed = (await get('/v1/networks/mainnet/blockchains/p-chain/transactions?pageSize=100')).transactions as Rec[];
    const sparseOnes = listed.filter((t) => isSparseRecord(1, identityOf(t as Json) ?? ''));
    expect(sparseOnes.length).toBeGreaterThan(0);
    for (const tx of [...sparseOnes.slice(0, 5), ...listed.slice(0, 3)]) {
      expect(await get(`/v1/networks/mainnet/blockchains/p-chain/transactions/${String(tx.txHash)}`)).toEqual(tx);
    }
    const validators = (await get('/v1/networks/mainnet/validators?pageSize=100')).validators as Rec[];
    const sparseValidators = validators.filter((v) => isSparseRecord(1, identityOf(v as Json) ?? ''));
    expect(sparseValidators.length).toBeGreaterThan(0);
    for (const v of sparseValidators.slice(0, 5)) {
      const own = (await get(`/v1/networks/mainnet/validators/${String(v.nodeId)}?pageSize=100`)).validators as Rec[];
      expect(own.find((o) => o.txHash === v.txHash)).toEqual(v);
    }
  });

  it("sends an enum's UNKNOWN now and then, which the gateway serves as UNKNOWN with the raw value", async () => {
    expect([...UNKNOWN_ENUMS].every((name) => (SPEC_FACTS.schemas[name] as { enum?: unknown[] }).enum?.includes('UNKNOWN'))).toBe(true);
    const body = await get(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listInternals?pageSize=100`);
    const types = (body.transactions as Rec[]).map((t) => t.internalTxType);
    expect(types).toContain('UNKNOWN');
    expect(types.filter((t) => t !== 'UNKNOWN').length).toBeGreaterThan(0);
    const answer = await stack.query(`{ chain(chainId: "${fx.evmChainId}") { address(address: "${fx.address}") { internalTransactions(first: 100) { edges { node { internalTxType internalTxTypeRaw } } } } } }`);
    expect(answer.errors).toBeUndefined();
    const nodes = ((answer.data?.chain as Rec).address as { internalTransactions: { edges: { node: Rec }[] } }).internalTransactions.edges.map((e) => e.node);
    expect(nodes).toContainEqual({ internalTxType: 'UNKNOWN', internalTxTypeRaw: 'UNKNOWN' });
    expect(nodes.some((n) => n.internalTxType !== 'UNKNOWN' && n.internalTxType === n.internalTxTypeRaw)).toBe(true);
  });
});

describe('what the caller wrote', () => {
  it('is answered whole: a webhook reads back as it was set, whatever its minted id draws', () => {
    // An id that draws sparse under this seed: anywhere else its record would lose optional values.
    const seed = 7;
    const id = Array.from({ length: 200 }, (_, i) => `0b8a6f0e-0000-4000-8000-${String(i).padStart(12, '0')}`).find((candidate) => isSparseRecord(seed, `id=${candidate}`));
    expect(id).toBeDefined();
    const webhook = {
      id, eventType: 'address_activity', url: 'https://example.com/hook', chainId: '43114', status: 'active', createdAt: 1718452800,
      name: 'n', description: 'd', metadata: { eventSignatures: [], addresses: ['0x0000000000000000000000000000000000000001'] }, includeInternalTxs: true, includeLogs: false,
    };
    for (const route of ['GET /v1/webhooks/{id}', 'PATCH /v1/webhooks/{id}', 'POST /v1/webhooks']) {
      expect(sparseAnswer(route, route.startsWith('POST') ? 201 : 200, structuredClone(webhook), seed), route).toEqual(webhook);
    }
    expect(sparseAnswer('GET /v1/webhooks', 200, { webhooks: [structuredClone(webhook)] }, seed)).toEqual({ webhooks: [webhook] });
  });
});
