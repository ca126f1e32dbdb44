import { readFileSync } from 'node:fs';
import { isObjectType, isInterfaceType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { isWeightTier, UNWEIGHTED_OPERATIONS, WEIGHT_TIERS } from '../../src/lib/compute-units.ts';
import { ENDPOINT_NAMES, ENDPOINTS } from '../../src/upstream/endpoints.ts';
import { getSchema } from '../../src/schema/index.ts';

/**
 * The weights come from the public spec, not from us: each endpoint row's tier is checked against the
 * spec's `x-execution-weight` of its operation (the committed copy, test/data/glacier-openapi.json).
 */
interface SpecOperation {
  operationId?: string;
  'x-execution-weight'?: string;
}
const spec = JSON.parse(readFileSync(new URL('../data/glacier-openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, SpecOperation>> };
const specWeights = new Map<string, string | undefined>();
for (const methods of Object.values(spec.paths)) {
  for (const operation of Object.values(methods)) if (operation.operationId) specWeights.set(operation.operationId, operation['x-execution-weight']);
}

describe('compute-unit weights', () => {
  it('gives every endpoint row the tier the spec gives its operation, and a chosen tier only where the spec gives none', () => {
    const wrong: string[] = [];
    for (const name of ENDPOINT_NAMES) {
      const row = ENDPOINTS[name];
      expect(specWeights.has(row.operationId), `${name}: ${row.operationId} is not in the spec`).toBe(true);
      const declared = specWeights.get(row.operationId);
      const expected = declared ?? UNWEIGHTED_OPERATIONS[row.operationId];
      if (row.weight !== expected) wrong.push(`${name} (${row.operationId}): ${row.weight}, spec ${declared ?? `none, chosen ${expected}`}`);
    }
    expect(wrong).toEqual([]);
  });

  it('chooses a tier exactly for the operations the spec leaves unweighted, from the spec\'s own tiers', () => {
    const unweighted = [...specWeights].filter(([, weight]) => weight === undefined).map(([id]) => id).sort();
    expect(Object.keys(UNWEIGHTED_OPERATIONS).sort()).toEqual(unweighted);
    for (const weight of specWeights.values()) if (weight !== undefined) expect(isWeightTier(weight), weight).toBe(true);
    expect(WEIGHT_TIERS).toEqual({ free: 1, small: 10, medium: 20, large: 50, xl: 100, xxl: 200 });
  });

  it('has every field that calls an upstream declare what its heaviest call weighs', () => {
    const undeclared: string[] = [];
    const schema = getSchema();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const cost = field.extensions.cost;
        if (!cost) continue;
        const calls = cost.calls({ parents: 1, args: {}, nodeCount: 1 });
        if (calls > 0 && cost.computeUnits === undefined && cost.weigh === undefined) undeclared.push(`${type.name}.${field.name}`);
      }
    }
    expect(undeclared).toEqual([]);
  });
});
