import { GraphQLError, isInputObjectType, isInterfaceType, isObjectType, isScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';
import { UInt256Scalar } from '../../src/schema/scalars.ts';

describe('UInt256', () => {
  const max = ((1n << 256n) - 1n).toString();

  it('serializes decimals, safe integers, bigints and hex quantities as decimal strings', () => {
    expect(UInt256Scalar.serialize('2000000000000')).toBe('2000000000000');
    expect(UInt256Scalar.serialize('0')).toBe('0');
    expect(UInt256Scalar.serialize(' 12 ')).toBe('12');
    expect(UInt256Scalar.serialize(42)).toBe('42');
    expect(UInt256Scalar.serialize(7n)).toBe('7');
    expect(UInt256Scalar.serialize('0xff')).toBe('255');
    expect(UInt256Scalar.serialize(max)).toBe(max);
    expect(UInt256Scalar.serialize('9'.repeat(77))).toBe('9'.repeat(77));
  });

  it('refuses what is not an unsigned integer below 2^256: UPSTREAM_PROTOCOL_ERROR, the value never quoted', () => {
    for (const bad of ['', '007', '-1', '1.5', '1e3', 'abc', '9'.repeat(78), (1n << 256n).toString(), '1'.repeat(101), -1, 1.5]) {
      let thrown: unknown;
      try {
        UInt256Scalar.serialize(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(bad)).toBeInstanceOf(GraphQLError);
      expect((thrown as GraphQLError).message).toBe('The upstream sent a value for this field that is not a valid UInt256.');
      expect((thrown as GraphQLError).extensions).toEqual({ code: 'UPSTREAM_PROTOCOL_ERROR', type: 'UInt256' });
    }
  });
});

describe('the exact scalars in the schema', () => {
  const schema = getSchema();
  const names = ['UInt256', 'UInt64', 'DateTime', 'EvmAddress', 'Hash', 'Hex', 'URL', 'IP'];

  it('are declared, typed `string` for codegen, and described with an example', () => {
    for (const name of names) {
      const type = schema.getType(name);
      expect(isScalarType(type), name).toBe(true);
      expect((type?.extensions as { codegenScalarType?: string }).codegenScalarType, name).toBe('string');
      expect(type?.description, name).toMatch(/e\.g\. "/);
    }
  });

  // Times the seeds give as strings: the genesis block's hex `timestamp`, a health check's RFC 3339 `timestamp`.
  const NOT_NUMBERS = new Set(['EvmGenesis.timestamp', 'HealthCheck.timestamp']);

  it('leave no 32-bit Int or Float where the seed has a numeric time or a uint64', () => {
    const raw = /(Timestamp|^timestamp|[lL]ocktime|^threshold|PChainHeight|^vertexHeight|^vertexIndex|^upgradeTime|^minUtxoAmount|^startBlock|^endBlock)$/;
    const found: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        const args = 'args' in field ? field.args : [];
        for (const item of [field, ...args]) {
          if (!raw.test(item.name) || NOT_NUMBERS.has(`${type.name}.${item.name}`)) continue;
          found.push(`${type.name}.${item.name}`);
          // UInt256 where a value was already read as one (apricotPhase4MinPChainHeight): 64-bit safe too.
          expect(['UInt64', 'UInt256'], `${type.name}.${item.name}`).toContain(item.type.toString().replace(/[[\]!]/g, ''));
        }
      }
    }
    expect(found.length).toBeGreaterThan(40);
  });
});
