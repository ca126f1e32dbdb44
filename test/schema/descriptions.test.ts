import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';

/** Every description a reader sees in GraphiQL or generated docs, with where it is. */
function descriptions(schema: GraphQLSchema): [string, string][] {
  const out: [string, string][] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (type.description) out.push([type.name, type.description]);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        if (field.description) out.push([`${type.name}.${field.name}`, field.description]);
        for (const arg of field.args) if (arg.description) out.push([`${type.name}.${field.name}(${arg.name})`, arg.description]);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) if (field.description) out.push([`${type.name}.${field.name}`, field.description]);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) if (value.description) out.push([`${type.name}.${value.name}`, value.description]);
    }
  }
  return out;
}

describe('descriptions are written for a reader', () => {
  it('cite no internal endpoint codes (E1-E19)', () => {
    const coded = descriptions(getSchema()).filter(([, text]) => /\bE\d{1,2}\b/.test(text));
    expect(coded).toEqual([]);
  });

  it('say nothing twice: no range or unit repeated (a field\'s text followed by its bound\'s own)', () => {
    const repeated = descriptions(getSchema()).filter(([, text]) => {
      const lower = text.toLowerCase();
      const ranges = lower.match(/\b\d+ to \d+\b/g) ?? [];
      return new Set(ranges).size !== ranges.length || (lower.match(/unix seconds/g) ?? []).length > 1;
    });
    expect(repeated).toEqual([]);
  });
});
