import fc from 'fast-check';
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isNonNullType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
} from 'graphql';
import { expect } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';
import type { TestStack } from './stack.ts';

/**
 * Random operations over the whole schema, for the properties that run them on the devnet
 * (`test/plugins/query-cost-property.test.ts`, `test/schema/short-pages.test.ts`).
 *
 * Documents are walks of the schema's types from `Query`: random fields of every
 * type, nested connections with random `first`, optional arguments (filters, sort
 * orders, statuses) now and then, aliases of the same field with other arguments,
 * named fragments and inline fragments on interfaces and unions. Required arguments
 * come from the devnet's fixtures and from ids read off the devnet at the start.
 * Mutations and subscriptions are left out (the admin mutations act on the nodes).
 */

export type Fixtures = Record<string, string>;

export interface DocumentContext {
  schema: GraphQLSchema;
  fixtures: Fixtures;
  /** Global ids with data behind them, per family. */
  ids: string[];
  fragments: string[];
}

/** Values for required arguments, by argument name (and parent field where it matters). */
function requiredValue(ctx: DocumentContext, field: string, arg: GraphQLArgument, pick: <T>(values: readonly T[]) => T): string | undefined {
  const f = ctx.fixtures;
  const q = (value: string | undefined) => (value === undefined ? undefined : JSON.stringify(value));
  switch (arg.name) {
    case 'name':
      return field === 'network' ? pick(['MAINNET', 'FUJI']) : undefined;
    case 'chainId':
      return q(pick([f['evmChainId'], f['subnetEvmChainId'], f['icmSourceEvmChainId']].filter((v): v is string => Boolean(v))));
    case 'address':
      if (field === 'contractDeployment') return q(f['contractAddress']);
      if (field === 'nftToken') return q(f['nftContract']);
      return q(pick([f['address'], f['icmAddress']].filter((v): v is string => Boolean(v))));
    case 'tokenId':
      return q(f['nftTokenId']);
    case 'txHash':
      if (field === 'aggregatedSignatures') return q(f['pChainTxHash']);
      return q(pick([f['txHash'], f['deploymentTxHash'], f['icmSourceTxHash']].filter((v): v is string => Boolean(v))));
    case 'nodeId':
      return q(pick([f['nodeId'], f['busyNodeId'], f['completedNodeId']].filter((v): v is string => Boolean(v))));
    case 'subnetId':
      return q(pick([f['subnetId'], f['l1SubnetId'], '11111111111111111111111111111111LpoYY'].filter((v): v is string => Boolean(v))));
    case 'operationId':
      return q(f['operationId']);
    case 'id':
      return field === 'blockchain' ? q(pick(['p-chain', 'x-chain', 'c-chain'])) : q(pick(ctx.ids));
    case 'ids':
      return JSON.stringify(Array.from({ length: 1 + Math.floor(Math.random() * 3) }, () => pick(ctx.ids)));
    case 'addresses':
      return JSON.stringify([f['pChainAddress']]);
    case 'chain':
    case 'alias':
      return q('X');
    case 'representations':
      return `[{__typename: "Chain", chainId: ${q(f['evmChainId'])}}, {__typename: "Validator", id: ${q(ctx.ids[0])}}]`;
    default:
      return undefined;
  }
}

/** An optional argument now and then: page sizes, enums (statuses, sorts), node id filters. */
function optionalValue(ctx: DocumentContext, arg: GraphQLArgument, g: fc.GeneratorValue): string | undefined {
  const type = getNullableType(arg.type) as GraphQLInputType;
  if (arg.name === 'first') return String(g(() => fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 30 }), fc.constantFrom(50, 100))));
  if (arg.name === 'nodeIds' && g(fc.boolean)) return JSON.stringify([ctx.fixtures['nodeId']]);
  if (!g(fc.boolean)) return undefined;
  if (isEnumType(type)) {
    const values = type.getValues().map((v) => v.name).filter((v) => v !== 'UNKNOWN' && v !== 'DELEGATION_FEE');
    return values.length > 0 ? g(fc.constantFrom, ...values) : undefined;
  }
  if (isInputObjectType(type) && arg.name === 'filter') {
    const status = type.getFields()['validationStatus'] ?? type.getFields()['delegationStatus'];
    if (!status) return undefined;
    const values = (getNamedType(status.type) as unknown as { getValues(): { name: string }[] }).getValues().map((v) => v.name).filter((v) => v !== 'UNKNOWN');
    return `{ ${status.name}: ${g(fc.constantFrom, ...values)} }`;
  }
  return undefined;
}

/** Fields a generated document leaves out: admin reads (FORBIDDEN without a token, no call) stay in. */
const SKIPPED_ROOTS = new Set(['_service']);

function argumentsOf(ctx: DocumentContext, field: GraphQLField<unknown, unknown>, g: fc.GeneratorValue): string | null {
  const parts: string[] = [];
  const pick = <T,>(values: readonly T[]): T => g(fc.constantFrom, ...values) as T;
  for (const arg of field.args) {
    const required = isNonNullType(arg.type) && arg.defaultValue === undefined;
    const value = requiredValue(ctx, field.name, arg, pick) ?? (required ? undefined : optionalValue(ctx, arg, g));
    if (value === undefined) {
      if (required) return null; // no fixture for it: leave the field out
      continue;
    }
    parts.push(`${arg.name}: ${value}`);
  }
  return parts.length > 0 ? `(${parts.join(', ')})` : '';
}

/** Some of `items` (fast-check's generator compares its arguments, so it is given indexes, not schema objects). */
function someOf<T>(g: fc.GeneratorValue, items: readonly T[], min: number, max: number): T[] {
  const indexes = g(fc.subarray, items.map((_, i) => i), { minLength: Math.min(min, items.length), maxLength: Math.min(max, items.length) });
  return indexes.map((i) => items[i] as T);
}

/** A selection set on `type`, `depth` levels left. */
function selectionOn(ctx: DocumentContext, type: GraphQLCompositeType, depth: number, g: fc.GeneratorValue): string {
  const parts: string[] = ['__typename'];
  if ((isUnionType(type) || isInterfaceType(type)) && depth > 0) {
    const possible = ctx.schema.getPossibleTypes(type);
    const chosen = someOf(g, possible, 0, 2);
    for (const concrete of chosen) parts.push(`... on ${concrete.name} { ${selectionOn(ctx, concrete, depth - 1, g)} }`);
  }
  if (isUnionType(type)) return parts.join(' ');
  const fields = Object.values((type as { getFields(): Record<string, GraphQLField<unknown, unknown>> }).getFields()).filter(
    (f) => !f.name.startsWith('_') || f.name === '_entities',
  );
  const scalars = fields.filter((f) => isLeafType(getNamedType(f.type)) && f.args.every((a) => !isNonNullType(a.type)));
  const composites = depth > 0 ? fields.filter((f) => isCompositeType(getNamedType(f.type)) && !SKIPPED_ROOTS.has(f.name)) : [];
  for (const f of someOf(g, scalars, 0, 2)) parts.push(f.name);
  const chosen = someOf(g, composites, 1, 3);
  let alias = 0;
  for (const f of chosen) {
    const copies = g(fc.integer, { min: 1, max: 2 });
    for (let copy = 0; copy < copies; copy++) {
      const args = argumentsOf(ctx, f, g);
      if (args === null) continue;
      const inner = selectionOn(ctx, getNamedType(f.type) as GraphQLCompositeType, depth - 1, g);
      const named = alias++ > 0 ? `a${alias}: ` : '';
      if (g(fc.integer, { min: 0, max: 4 }) === 0) {
        const name = `F${ctx.fragments.length}`;
        ctx.fragments.push(`fragment ${name} on ${getNamedType(f.type).name} { ${inner} }`);
        parts.push(`${named}${f.name}${args} { ...${name} }`);
      } else {
        parts.push(`${named}${f.name}${args} { ${inner} }`);
      }
    }
  }
  return parts.join(' ');
}

export function document(ctx: DocumentContext, g: fc.GeneratorValue): string {
  ctx.fragments = [];
  const selection = selectionOn(ctx, ctx.schema.getQueryType() as GraphQLCompositeType, g(fc.integer, { min: 2, max: 7 }), g);
  return [`{ ${selection} }`, ...ctx.fragments].join('\n');
}

/** The context documents are made in: the schema, the devnet's mainnet fixtures, and ids of every family read through the gateway. */
export async function documentContext(stack: Pick<TestStack, 'devnet' | 'query'>): Promise<DocumentContext> {
  const fixtures = stack.devnet.dataset.fixtures().mainnet as unknown as Fixtures;
  const seed = await stack.query<Record<string, never>>(`{
    network(name: MAINNET) { id
      validators(first: 2) { edges { node { id delegators(first: 1) { edges { node { id } } } } } }
      subnets(first: 1) { edges { node { id blockchains { id } } } }
      blockchain(id: "p-chain") { id blocks(first: 1) { edges { node { id } } } }
    }
    chain(chainId: ${JSON.stringify(fixtures['evmChainId'])}) { id address(address: ${JSON.stringify(fixtures['address'])}) { id } transaction(txHash: ${JSON.stringify(fixtures['txHash'])}) { id } }
    avalancheNode { id }
  }`);
  const ids = [...JSON.stringify(seed.data).matchAll(/"id":"([^"]+)"/g)].map((m) => m[1] as string);
  expect(ids.length).toBeGreaterThan(8);
  return { schema: getSchema(), fixtures, ids, fragments: [] };
}
