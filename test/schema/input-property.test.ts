import fc from 'fast-check';
import {
  getNamedType, getNullableType, isEnumType, isInputObjectType, isInterfaceType, isLeafType, isListType, isNonNullType, isObjectType,
  isScalarType, isUnionType, type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { getSchema } from '../../src/schema/index.ts';
import { PRIMARY_CHAIN_IDS } from '../../src/shapes/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// For EVERY argument of every field in the schema (input-object fields included, at any
// depth), random strings, numbers and arrays, and near-misses of good values, go through
// GraphQL to the devnet. Properties, per value:
//   - nothing crashes: no HTTP 500, every error carries an `extensions.code`, none is masked;
//   - a refused value is BAD_USER_INPUT (NODE_NOT_CONFIGURED for node names) naming the
//     argument (or, when GraphQL itself cannot coerce it, the variable), and reaches no
//     upstream: zero requests when refused before execution, and when refused by a resolver,
//     no more than the same document without the field makes;
//   - an accepted value is one the upstream accepts too: never UPSTREAM_BAD_REQUEST.
// Cursors (`after`) and global ids (`id`, `ids`, `representations`) are opaque: they must
// only ever be refused with BAD_USER_INPUT (their grammar is tested in ids-cursors-property).

const RUNS = Number(process.env['INPUT_PROPERTY_RUNS'] ?? 25);
const TOKEN = 'input-property-admin';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const OPAQUE = new Set(['after', 'id', 'ids', 'representations']);
const REFUSALS = new Set(['BAD_USER_INPUT', 'NODE_NOT_CONFIGURED']);

let stack: TestStack;
let schema: GraphQLSchema;
let f: NetworkFixtures;

beforeAll(async () => {
  stack = await startStack({ gateway: { adminToken: TOKEN } });
  schema = getSchema();
  f = stack.devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await stack?.close();
});

// ---------------------------------------------------------------- what reaches each field

/** Values for required arguments on the way to a field, by coordinate (GraphQL literals). */
const requiredLiterals = (): Record<string, string> => ({
  // The fixtures are mainnet's.
  'Query.network.name': 'MAINNET',
  'Subscription.blocks.network': 'MAINNET',
  'Query.chain.chainId': '"43114"',
  'Query.icmMessages.address': `"${f.icmAddress}"`,
  'Query.exportOperation.operationId': `"${f.operationId}"`,
  'Network.blockchain.id': '"x-chain"',
  'Network.validator.nodeId': `"${f.nodeId}"`,
  'Network.subnet.subnetId': `"${f.subnetId}"`,
  'Network.aggregatedSignatures.txHash': `"${f.pChainTxHash}"`,
  'Chain.address.address': `"${f.address}"`,
  'Chain.transaction.txHash': `"${f.txHash}"`,
  'Chain.contractDeployment.address': `"${f.contractAddress}"`,
  'Chain.nftToken.address': `"${f.nftContract}"`,
  'Chain.nftToken.tokenId': `"${f.nftTokenId}"`,
  'PrimaryBlockchain.utxos.addresses': `["${f.xChainAddress}"]`,
  'Network.primaryAddresses.addresses': `["${f.xChainAddress}"]`,
  'PrimaryAddress.lastActivity.chain': '"x-chain"',
  'PrimaryBlockchain.lastActivity.addresses': `["${f.xChainAddress}"]`,
  'AvalancheNode.isBootstrapped.chain': '"X"',
  'AvalancheNode.blockchainId.alias': '"X"',
  'AvalancheNode.chainAliases.chain': `"${PRIMARY_CHAIN_IDS.mainnet.x}"`,
  'Subscription.blocks.blockchainId': '"p-chain"',
  // Optional, but E11/E12 need one of addresses / nodeIds: given unless under test.
  'Network.historicalRewards.nodeIds': `["${f.nodeId}"]`,
  'Network.pendingRewards.nodeIds': `["${f.nodeId}"]`,
});

/** Optional arguments the literals above give anyway (rules that need one of several). */
const ALWAYS = new Set(['Network.historicalRewards.nodeIds', 'Network.pendingRewards.nodeIds']);

/** A valid value of each input object, which the property then changes one field of. */
const baseInputs = (): Record<string, Record<string, unknown>> => ({
  AdminAliasInput: { endpoint: 'info', alias: 'property-alias' },
  AdminAliasChainInput: { chain: 'X', alias: 'property-chain-alias' },
  AdminSetLoggerLevelInput: { logLevel: 'INFO' },
  AggregateSignaturesInput: { network: 'MAINNET', message: 'beef' },
  CreateTransactionExportInput: { type: 'TRANSACTION_EXPORT_EVM', options: { addresses: [f.address], includeChains: ['43114'] } },
  TransactionExportOptionsInput: { addresses: [f.address], includeChains: ['43114'] },
});

/** Good values (and the seeds of near-misses), by argument name. */
const goodValues = (): Record<string, unknown[]> => ({
  nodeId: [f.nodeId, f.busyNodeId],
  nodeIds: [f.nodeId, f.completedNodeId],
  address: [f.address, f.icmAddress, f.contractAddress],
  contractAddress: [f.erc1155Contract],
  addresses: [f.pChainAddress, f.xChainAddress, f.rewardAddress, f.address],
  rewardAddresses: [f.rewardAddress, `P-${f.rewardAddress}`],
  subnetId: [f.subnetId, f.l1SubnetId, PRIMARY_CHAIN_IDS.mainnet.p],
  signingSubnetId: [f.subnetId],
  txHash: [f.txHash, f.pChainTxHash],
  chainId: ['43114', f.blockchainId],
  includeChains: ['43114', 'p-chain', f.blockchainId],
  id: ['p-chain', 'x-chain', PRIMARY_CHAIN_IDS.mainnet.c],
  blockchainId: ['p-chain', 'C-Chain'],
  tokenId: [f.nftTokenId, '1'],
  blockNumber: ['1', '100'],
  operationId: [f.operationId],
  assetId: [f.avaxAssetId, f.xAssetId],
  name: ['mainnet', 'fuji'],
  node: ['mainnet', 'fuji'],
  chain: ['X', 'P', PRIMARY_CHAIN_IDS.mainnet.x],
  alias: ['X', 'bc/X', 'property-alias-2'],
  endpoint: ['info', 'bc/X'],
  loggerName: ['main', 'C'],
  tags: ['C', f.subnetId],
  firstDate: ['2024-01-01'],
  lastDate: ['2024-03-31'],
  startDate: ['2024-01-01'],
  endDate: ['2024-03-31'],
  message: ['beef', '0xbeef'],
  justification: ['beef'],
});

interface Step {
  field: string;
  args: string;
  /** Concrete type selected with an inline fragment, when the field returns an abstract type. */
  on?: string;
}

interface Route {
  operation: 'query' | 'mutation' | 'subscription';
  steps: Step[];
}

function literalFor(schema: GraphQLSchema, owner: string, arg: GraphQLArgument, literals: Record<string, string>): string | undefined {
  const known = literals[`${owner}.${arg.name}`];
  if (known) return known;
  const named = getNamedType(arg.type);
  if (isEnumType(named)) return named.getValues().find((v) => v.name !== 'UNKNOWN')?.name;
  void schema;
  return undefined;
}

/** `a: 1, b: "x"` for the required arguments of a field (and `first: 1` to keep paths cheap), except `skip`. */
function argLiterals(owner: string, field: GraphQLField<unknown, unknown>, literals: Record<string, string>, skip?: string): string | undefined {
  const parts: string[] = [];
  for (const arg of field.args) {
    if (arg.name === skip) continue;
    if (arg.name === 'first') {
      parts.push('first: 1');
      continue;
    }
    if (ALWAYS.has(`${owner}.${field.name}.${arg.name}`)) {
      parts.push(`${arg.name}: ${literals[`${owner}.${field.name}.${arg.name}`]}`);
      continue;
    }
    if (!isNonNullType(arg.type) || arg.defaultValue !== undefined) continue;
    const literal = literalFor(schema, `${owner}.${field.name}`, arg, literals);
    if (literal === undefined) return undefined;
    parts.push(`${arg.name}: ${literal}`);
  }
  return parts.join(', ');
}

/** The shortest way from Query to every object type, through fields whose required arguments are known. */
function routes(literals: Record<string, string>): Map<string, Route> {
  const found = new Map<string, Route>([
    ['Query', { operation: 'query', steps: [] }],
    ['Mutation', { operation: 'mutation', steps: [] }],
    ['Subscription', { operation: 'subscription', steps: [] }],
  ]);
  const queue: string[] = ['Query'];
  while (queue.length > 0) {
    const typeName = queue.shift() as string;
    const type = schema.getType(typeName) as GraphQLObjectType;
    const route = found.get(typeName) as Route;
    for (const field of Object.values(type.getFields())) {
      // Opaque-id entry points lead nowhere a plain field does not.
      if (typeName === 'Query' && ['node', 'nodes', '_entities', '_service'].includes(field.name)) continue;
      const args = argLiterals(typeName, field, literals);
      if (args === undefined) continue;
      const target = getNamedType(field.type);
      const targets: { type: GraphQLNamedType; on?: string }[] = isObjectType(target)
        ? [{ type: target }]
        : isInterfaceType(target) || isUnionType(target)
          ? schema.getPossibleTypes(target).map((t) => ({ type: t, on: t.name }))
          : [];
      for (const next of targets) {
        if (found.has(next.type.name)) continue;
        found.set(next.type.name, { operation: 'query', steps: [...route.steps, { field: field.name, args, ...(next.on ? { on: next.on } : {}) }] });
        queue.push(next.type.name);
      }
    }
  }
  return found;
}

function render(route: Route, inner: string, variable: string | undefined): string {
  let body = inner;
  for (const step of [...route.steps].reverse()) {
    const selection = step.on ? `... on ${step.on} { ${body} }` : body;
    body = `${step.field}${step.args ? `(${step.args})` : ''} { ${selection} }`;
  }
  return `${route.operation}${variable ? `(${variable})` : ''} { ${body} }`;
}

// ---------------------------------------------------------------- the arguments and their values

interface Target {
  /** `Type.field`. */
  coordinate: string;
  route: Route;
  field: GraphQLField<unknown, unknown>;
  arg: GraphQLArgument;
  /** Path inside the argument (`nodeIds` of `filter`), empty for the argument itself. */
  path: string[];
  /** The leaf's GraphQL type. */
  leaf: GraphQLInputType;
}

const argumentName = (t: Target): string => [t.arg.name, ...t.path].join('.');

function leaves(type: GraphQLInputType, path: string[] = [], seen: Set<string> = new Set()): { path: string[]; leaf: GraphQLInputType }[] {
  const named = getNamedType(type);
  if (isInputObjectType(named) && !isListType(getNullableType(type)) && !seen.has(named.name)) {
    const next = new Set(seen).add(named.name);
    return Object.values(named.getFields()).flatMap((field) => leaves(field.type, [...path, field.name], next));
  }
  // Enums and booleans carry no free text: GraphQL itself refuses anything else.
  if (isEnumType(named) || (isScalarType(named) && named.name === 'Boolean')) return [];
  return [{ path, leaf: type }];
}

function targets(): Target[] {
  const found = routes(requiredLiterals());
  const out: Target[] = [];
  for (const [typeName, route] of found) {
    const type = schema.getType(typeName) as GraphQLObjectType;
    for (const field of Object.values(type.getFields())) {
      for (const arg of field.args) {
        for (const { path, leaf } of leaves(arg.type)) out.push({ coordinate: `${typeName}.${field.name}`, route, field, arg, path, leaf });
      }
    }
  }
  return out;
}

/** Names every plain object answers to: a lookup table written as an object literal would find them. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

const EVIL = [...PROTOTYPE_KEYS, '', ' ', '.', '..', '../', '%2e%2e', '?pageSize=1000', '&x=1', '#', '\u0000', '\r\n', 'NodeID-', '0x', 'p-chain', 'avax1', 'P-', 'mainnet', 'x'.repeat(3000), '1'.repeat(90), '-1', 'null'];

/** Near-misses of a good value: one character changed, cut, extended, recased or prefixed. */
function nearMiss(value: string, seed: number, op: number): string {
  const i = value.length === 0 ? 0 : seed % value.length;
  switch (op % 7) {
    case 0: return value.slice(0, i) + (value[i] === 'q' ? 'p' : 'q') + value.slice(i + 1);
    case 1: return value.slice(0, i);
    case 2: return `${value}${value.slice(0, 1 + (seed % 3))}`;
    case 3: return value.toUpperCase();
    case 4: return `X-${value}`;
    case 5: return `${value},${value}`;
    default: return value.slice(0, i) + '2' + value.slice(i + 1);
  }
}

function textArb(goods: unknown[]): fc.Arbitrary<unknown> {
  const strings = goods.filter((g): g is string => typeof g === 'string');
  const options: fc.Arbitrary<unknown>[] = [
    fc.string({ maxLength: 64 }),
    fc.string({ unit: 'grapheme', maxLength: 24 }),
    fc.string({ unit: 'binary', maxLength: 24 }),
    fc.constantFrom(...EVIL),
  ];
  if (strings.length > 0) {
    options.push(fc.constantFrom(...strings));
    options.push(fc.tuple(fc.constantFrom(...strings), fc.nat(), fc.nat()).map(([v, seed, op]) => nearMiss(v, seed, op)));
  }
  return fc.oneof(...options);
}

const intArb = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: -3, max: 1100 }), fc.constantFrom(0, -1, 2 ** 31 - 1, -(2 ** 31)));
const floatArb = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.double({ min: -10, max: 200, noNaN: true }), fc.constantFrom(0, -0.5, 1e300, Number.MAX_SAFE_INTEGER));

/** Values of the leaf's type, and now and then of another type (GraphQL's coercion must refuse those cleanly). */
function valueArb(t: Target, goods: unknown[]): fc.Arbitrary<unknown> {
  const nullable = getNullableType(t.leaf);
  const named = getNamedType(t.leaf);
  const scalar = (): fc.Arbitrary<unknown> => {
    if (named.name === 'Int') return intArb;
    if (named.name === 'Float') return floatArb;
    if (named.name === 'UInt256') return fc.oneof(textArb(['0', '720000000000000000']), fc.bigInt({ min: 0n, max: 10n ** 80n }).map(String), intArb);
    if (named.name === '_Any') return fc.oneof(fc.object({ maxDepth: 2 }), fc.record({ __typename: fc.constantFrom('Validator', 'Chain', 'Nope'), id: textArb([]) }));
    return textArb(goods);
  };
  const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.string({ maxLength: 8 }), fc.constant(null), fc.object({ maxDepth: 1 }));
  if (isListType(nullable)) {
    const item = scalar();
    return fc.oneof(
      { arbitrary: fc.array(item, { maxLength: 4 }), weight: 6 },
      // Long lists, past and under each cap.
      { arbitrary: fc.tuple(fc.integer({ min: 15, max: 1200 }), item).map(([n, v]) => Array.from({ length: n }, () => v)), weight: 2 },
      { arbitrary: wrongType, weight: 1 },
    );
  }
  return fc.oneof({ arbitrary: scalar(), weight: 9 }, { arbitrary: wrongType, weight: 1 });
}

// ---------------------------------------------------------------- one run

/** Fields served on the P-chain only (the property's PrimaryBlockchain is the X-chain). */
const P_CHAIN_ONLY = new Set(['PrimaryBlockchain.stakingTransactions']);

/** Where a check names a neighbour: rules about two arguments together. */
const COUPLED: Readonly<Record<string, readonly string[]>> = {
  addresses: ['nodeIds'],
  nodeIds: ['addresses'],
  'input.message': ['input.justification'],
  'input.justification': ['input.message'],
  'input.quorumPercentage': ['input.quorumPercentageBuffer'],
  'input.startDate': ['input.firstDate'],
  'input.endDate': ['input.lastDate', 'input.firstDate'],
  'input.lastDate': ['input.firstDate'],
  // adminSetLoggerLevel needs one of the two: without either, the refusal names the input.
  'input.logLevel': ['input'],
  'input.displayLevel': ['input'],
};

function setPath(base: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const [head, ...rest] = path as [string, ...string[]];
  if (rest.length === 0) return { ...base, [head]: value };
  return { ...base, [head]: setPath((base[head] as Record<string, unknown> | undefined) ?? {}, rest, value) };
}

function documents(t: Target): { query: string; baseline: string; variableType: string; wrap: (v: unknown) => unknown } {
  const literals = requiredLiterals();
  const others = argLiterals(t.coordinate.split('.')[0] as string, t.field, literals, t.arg.name) ?? '';
  const selection = isLeafType(getNamedType(t.field.type)) ? '' : ' { __typename }';
  const args = [others, `${t.arg.name}: $v`].filter(Boolean).join(', ');
  const inner = `${t.field.name}(${args})${selection}`;
  const variableType = String(t.arg.type);
  const base = baseInputs()[getNamedType(t.arg.type).name] ?? {};
  const wrap = t.path.length === 0 ? (v: unknown) => v : (v: unknown) => setPath(base, t.path, v);
  return { query: render(t.route, inner, `$v: ${variableType}`), baseline: render(t.route, '__typename', undefined), variableType, wrap };
}

async function send(query: string, variables: Record<string, unknown> | undefined): Promise<{ status: number; body: GraphQLResponse }> {
  const subscription = query.startsWith('subscription');
  const controller = new AbortController();
  const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: subscription ? 'text/event-stream' : 'application/graphql-response+json', ...AUTH },
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  if (!subscription) {
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as GraphQLResponse };
    } catch {
      throw new Error(`HTTP ${response.status}, not JSON: ${text.slice(0, 200)} (for ${query.slice(0, 200)})`);
    }
  }
  // A refused subscription answers one event and ends; an accepted one is cut off after a short wait.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const timer = setTimeout(() => controller.abort(), 250);
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      // Stop at the first complete event that carries data (keep-alives carry none).
      if (text.split('\n\n').slice(0, -1).some((event) => event.includes('data:'))) break;
    }
  } catch {
    // Aborted: accepted and waiting for its first event.
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  const event = text.split('\n\n').slice(0, -1).find((e) => e.includes('data:'));
  const data = event?.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
  return { status: response.status, body: data ? (JSON.parse(data) as GraphQLResponse) : {} };
}

interface Tally {
  runs: number;
  refused: number;
  accepted: number;
}

async function check(t: Target, value: unknown, baselineCalls: () => Promise<number>, tally: Tally): Promise<void> {
  const { query, wrap } = documents(t);
  const name = argumentName(t);
  const shown = `${t.coordinate}(${name}) = ${JSON.stringify(value)?.slice(0, 120)}`;
  stack.devnet.resetStats();
  const { status, body } = await send(query, { v: wrap(value) });
  const calls = stack.upstreamRequests();
  tally.runs += 1;
  expect(status, shown).toBeLessThan(500);
  const errors = body.errors ?? [];
  for (const error of errors) {
    expect(error.extensions?.['code'], `${shown}: uncoded error ${error.message}`).toBeTypeOf('string');
    expect(error.message, shown).not.toMatch(/^Unexpected error/);
    expect(error.extensions?.['code'], `${shown}: ${error.message}`).not.toBe('INTERNAL_SERVER_ERROR');
  }
  const refusals = errors.filter((e) => REFUSALS.has(String(e.extensions?.['code'])));
  if (refusals.length === 0) {
    tally.accepted += 1;
    const codes = errors.map((e) => e.extensions?.['code']);
    expect(codes, `${shown}: accepted but the upstream refused it`).not.toContain('UPSTREAM_BAD_REQUEST');
    // Nor may the client refuse it as a value read from an upstream answer: every caller grammar is at least as strict as the client's.
    const refusedAsUpstream = errors.filter((e) => e.extensions?.['parameter'] !== undefined && e.extensions?.['upstreamField'] !== undefined);
    expect(refusedAsUpstream.map((e) => e.message), `${shown}: accepted but the client would not send it`).toEqual([]);
    return;
  }
  tally.refused += 1;
  const opaque = OPAQUE.has(t.arg.name) && t.path.length === 0;
  for (const error of refusals) {
    const named = error.extensions?.['argumentName'];
    const variable = error.extensions?.['variableName'];
    if (opaque) {
      expect(error.extensions?.['code'], shown).toBe('BAD_USER_INPUT');
      continue;
    }
    // GraphQL's own coercion refuses values of the wrong type, naming the variable.
    if (variable !== undefined) {
      expect(variable, shown).toBe('v');
      continue;
    }
    // The property reaches PrimaryBlockchain through the X-chain, where a P-chain-only field refuses itself
    // whatever its arguments (test/schema/primary-tx.test.ts checks those on the P-chain).
    if (P_CHAIN_ONLY.has(t.coordinate) && named === t.field.name) continue;
    // So does one on the way to the field (an asset reached through a P-chain-only listing).
    if ([...P_CHAIN_ONLY].some((c) => c !== t.coordinate && c.endsWith(`.${String(named)}`))) continue;
    expect([name, ...(COUPLED[name] ?? [])], `${shown}: ${error.message}`).toContain(named);
  }
  // Refused before execution: nothing at all reached the devnet. Refused by a resolver (it
  // needed the parent, e.g. the network of an address): no more than the parents cost alone.
  if (body.data == null) expect(calls, shown).toBe(0);
  else expect(calls, shown).toBeLessThanOrEqual(await baselineCalls());
}

/** What the argument's field costs with no argument at all (measured once, on first need). */
function baselineCallsOf(t: Target): () => Promise<number> {
  const { baseline } = documents(t);
  let count: number | undefined;
  return async () => {
    if (count === undefined) {
      stack.devnet.resetStats();
      await send(baseline, undefined);
      count = stack.upstreamRequests();
    }
    return count;
  };
}

describe('every argument of the schema under random values', () => {
  const total: Tally = { runs: 0, refused: 0, accepted: 0 };
  let arguments_ = 0;
  afterAll(() => {
    console.info(`input-property: ${arguments_} arguments, ${total.runs} runs (${total.refused} refused, ${total.accepted} accepted)`);
  });

  it('reaches every field with arguments', () => {
    const all = targets();
    const reached = new Set(all.map((t) => t.coordinate));
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        if (field.args.some((a) => leaves(a.type).length > 0) && !reached.has(`${type.name}.${field.name}`)) missing.push(`${type.name}.${field.name}`);
      }
    }
    expect(missing, 'give a required-argument literal or a base input so these fields can be reached').toEqual([]);
  });

  // Found by the property on CI: `blockchainId: "__proto__"` passed a check that looked aliases up in an
  // object literal and crashed the subscription. Every text argument gets every such name, every run.
  it('every text argument refuses or serves the names every object answers to (__proto__, constructor, ...), never crashes', async () => {
    const tally: Tally = { runs: 0, refused: 0, accepted: 0 };
    for (const t of targets()) {
      const named = getNamedType(t.leaf).name;
      if (named !== 'String' && named !== 'ID') continue;
      const list = isListType(getNullableType(t.leaf));
      const baselineCalls = baselineCallsOf(t);
      for (const key of PROTOTYPE_KEYS) await check(t, list ? [key] : key, baselineCalls, tally);
    }
    expect(tally.runs).toBeGreaterThan(100);
  }, 300_000);

  it('nothing crashes; refusals are coded, name the argument and reach no upstream; what passes, the upstream accepts', async () => {
    const goods = goodValues();
    for (const t of targets()) {
      arguments_ += 1;
      const baselineCalls = baselineCallsOf(t);
      const leafName = t.path[t.path.length - 1] ?? t.arg.name;
      await fc.assert(
        fc.asyncProperty(valueArb(t, goods[leafName] ?? []), (value) => check(t, value, baselineCalls, total)),
        { numRuns: RUNS, endOnFailure: true },
      );
    }
    expect(total.refused).toBeGreaterThan(total.runs / 4);
    expect(total.accepted).toBeGreaterThan(0);
  }, 600_000);
});
