import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'graphql';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';
import { PARTS, projectionOf, WHOLE } from '../../src/schema/projection.ts';
import { readShape } from '../../src/shapes/index.ts';
import type { CallOptions, DataApi } from '../../src/upstream/client-types.ts';
import { ENDPOINT_NAMES } from '../../src/upstream/endpoints.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { startStack, dataOf, type TestStack } from '../helpers/stack.ts';
import { VALIDATOR_WALK } from '../../src/gateway/graphiql-examples.ts';

/**
 * The projection (src/schema/projection.ts): an operation that selects none of the fields
 * reading a heavy part of an answer has it left out as the answer is read, and nothing it
 * selects answers differently for it.
 */

const schema = getSchema();
const omitted = (query: string, operation: string): string[] => [...(projectionOf(schema, parse(query)).omitFor(operation) ?? [])].sort();
const VALIDATOR_PARTS = PARTS.filter((p) => p.operation === 'listValidators').map((p) => p.path).sort();

describe('planning', () => {
  it('names methods of the Data API client, and types and fields the schema has', () => {
    for (const part of PARTS) expect(ENDPOINT_NAMES as readonly string[]).toContain(part.operation);
    const fieldsOf = (type: string): Record<string, unknown> => {
      const found = schema.getType(type);
      expect(found && 'getFields' in found, type).toBe(true);
      return found && 'getFields' in found ? found.getFields() : {};
    };
    for (const part of PARTS) {
      // Every type has a field reading the part, and every field is on one of the types.
      for (const type of part.types) expect(part.fields.some((field) => field in fieldsOf(type)), `${type} reads ${part.path}`).toBe(true);
      for (const field of part.fields) expect(part.types.some((type) => field in fieldsOf(type)), `${field} of ${part.path}`).toBe(true);
    }
  });

  it('knows every place that reads a part (a new one must be listed in PARTS)', () => {
    // The files where each part's property is read today, and why each is accounted for.
    const known: Record<string, string[]> = {
      genesisData: ['src/schema/subnets.ts'], // Blockchain.genesisData and genesis
      blsCredentials: ['src/schema/l1-validators.ts', 'src/schema/validators.ts'], // L1 validators are another answer
      rewards: ['src/schema/validators.ts'],
      potentialRewards: ['src/schema/validators.ts'],
      validatorHealth: ['src/schema/validators.ts'],
      geolocation: ['src/schema/validators.ts'],
    };
    const files = ['src/schema', 'src/loaders', 'src/gateway', 'src/lib'].flatMap((dir) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => `${dir}/${f}`),
    );
    for (const part of PARTS) {
      const property = part.path.split('.').at(-1) as string;
      const readers = files.filter((file) => file !== 'src/schema/projection.ts' && new RegExp(`\\.${property}\\b`).test(readFileSync(file, 'utf8')));
      expect(readers.sort(), `files reading .${property}`).toEqual(known[property]);
    }
  });

  it('leaves out every part the validator walk does not read, and each part a query selects is kept', () => {
    expect(omitted(VALIDATOR_WALK, 'listValidators')).toEqual(VALIDATOR_PARTS);
    expect(omitted(VALIDATOR_WALK, 'listSubnets')).toEqual(['subnets[].blockchains[].genesisData']);
    expect(omitted(VALIDATOR_WALK, 'listDelegators')).toEqual([]);
    const withGenesis = `{ network(name: MAINNET) { validators(first: 2) { edges { node { subnet { blockchains { genesis { config { chainId } } } } } } } } }`;
    expect(omitted(withGenesis, 'listSubnets')).toEqual([]);
  });

  it('follows fragments, inline fragments and abstract types', () => {
    const viaFragment = `query { network(name: MAINNET) { validators(first: 2) { edges { node { ...F } } } } }
      fragment F on Validator { nodeId ... on ActiveValidator { geolocation { city } } }`;
    expect(omitted(viaFragment, 'listValidators')).toEqual(VALIDATOR_PARTS.filter((p) => p !== 'validators[].geolocation'));
    // `rewards` on the interface answers `potentialRewards` when a validation has no paid rewards: both kept.
    const onInterface = `{ network(name: MAINNET) { validators(first: 2) { edges { node { rewards { validationRewardAmount } } } } } }`;
    expect(omitted(onInterface, 'listValidators')).toEqual(['validators[].blsCredentials', 'validators[].geolocation', 'validators[].validatorHealth']);
    // A node lookup by id selects on the concrete type.
    const byId = `query($id: ID!) { node(id: $id) { ... on CompletedValidator { blsCredentials { publicKey } } } }`;
    expect(omitted(byId, 'listValidators')).not.toContain('validators[].blsCredentials');
  });

  it('reads subscriptions whole (their polling is shared) and plans a document once', () => {
    expect(projectionOf(schema, parse('subscription { __typename }'))).toBe(WHOLE);
    const document = parse(VALIDATOR_WALK);
    expect(projectionOf(schema, document)).toBe(projectionOf(schema, document));
    // Two documents leaving the same parts out share the set, so they share the readers compiled for it.
    expect(projectionOf(schema, parse(VALIDATOR_WALK)).omitFor('listValidators')).toBe(projectionOf(schema, document).omitFor('listValidators'));
  });
});

describe('reading with parts left out', () => {
  const Shape = v.object({
    items: v.array(v.object({ id: v.string(), heavy: v.optional(v.object({ n: v.number() })), kept: v.optional(v.string()) })),
  });
  const omit = new Set(['items[].heavy']);
  const toError = () => new Error('broken');

  it('leaves the part out on the fast path, unchecked', () => {
    // `heavy` is broken in the second item: left out, it is never checked.
    const read = readShape(Shape, { items: [{ id: 'a', heavy: { n: 1 }, kept: 'x' }, { id: 'b', heavy: { n: 'not a number' } }] }, toError, { omit });
    expect(read).toEqual({ items: [{ id: 'a', kept: 'x' }, { id: 'b' }] });
    expect('heavy' in (read.items[0] as object)).toBe(false);
  });

  it('leaves it out on the slow path too', () => {
    // `kept` is broken: valibot reads the answer (its getter throws), and the omitted part is gone before it does.
    const read = readShape(Shape, { items: [{ id: 'a', heavy: { n: 'x' }, kept: 7 }] }, toError, { omit });
    const item = read.items[0] as Record<string, unknown>;
    expect('heavy' in item).toBe(false);
    expect(() => item['kept']).toThrow('broken');
  });

  it('reads everything without it', () => {
    expect(readShape(Shape, { items: [{ id: 'a', heavy: { n: 1 } }] }, toError)).toEqual({ items: [{ id: 'a', heavy: { n: 1 } }] });
  });
});

/** What each call of the Data API was told to leave out, by method. */
const omits = new Map<string, string[][]>();
/** The Data API client seen from the gateway's side of the wire: records each call's `omit`. */
const record = (api: DataApi): DataApi =>
      new Proxy(api, {
        get(target, name, receiver) {
          const member: unknown = Reflect.get(target, name, receiver);
          if (typeof member !== 'function' || typeof name !== 'string') return member;
          return (...args: unknown[]) => {
            const opts = args.at(-1) as CallOptions | undefined;
            const list = omits.get(name) ?? [];
            list.push([...(opts?.omit?.(name) ?? [])]);
            omits.set(name, list);
            return (member as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });

describe('on the devnet', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ wrapDataApi: record });
  }, 60_000);
  afterAll(() => stack.close());

  it("tells the walk's calls what they leave out", async () => {
    omits.clear();
    await dataOf(stack, VALIDATOR_WALK);
    expect(omits.get('listValidators')).toEqual([VALIDATOR_PARTS]);
    expect(omits.get('listSubnets')).toEqual([['subnets[].blockchains[].genesisData']]);
    expect(omits.get('listDelegators')?.every((paths) => paths.length === 0)).toBe(true);
  });

  it('answers every field the same whether or not the parts are read', async () => {
    const fields = `nodeId txHash subnetId amountStaked delegationFee startTimestamp endTimestamp delegatorCount validationStatus
      subnet { subnetId blockchains { blockchainId blockchainName vmId evmChainId } }
      ... on ActiveValidator { uptimePerformance stakePercentage avalancheGoVersion delegationCapacity }`;
    const heavy = `blsCredentials { publicKey proofOfPossession } rewards { validationRewardAmount delegationRewardAmount rewardAddresses }
      subnet { blockchains { blockchainId genesisData genesis { config { chainId } } } }
      ... on ActiveValidator { potentialRewards { validationRewardAmount } validatorHealth { reachabilityPercent } geolocation { city country } }`;
    const list = (selection: string) => `{ network(name: MAINNET) { validators(first: 40) { edges { node { ${selection} } } } } }`;
    type Page = { network: { validators: { edges: { node: Record<string, unknown> }[] } } };
    omits.clear();
    const light = await dataOf<Page>(stack, list(fields));
    expect(omits.get('listValidators')).toEqual([VALIDATOR_PARTS]);
    omits.clear();
    const whole = await dataOf<Page>(stack, list(`${fields} ${heavy}`));
    expect(omits.get('listValidators')).toEqual([[]]);
    expect(omits.get('listSubnets')).toEqual([[]]);
    // What both select is the same; what only the whole one selects is there, as the devnet has it.
    const nodes = whole.network.validators.edges.map((e) => e.node);
    light.network.validators.edges.forEach((edge, i) => expect(nodes[i]).toMatchObject(edge.node));
    const raw = stack.devnet.dataset.primary.mainnet;
    for (const node of nodes) {
      const own = raw.validationsOf(node['nodeId'] as string).find((r) => r.txHash === node['txHash']);
      expect(node['blsCredentials'] ?? undefined).toEqual(own?.blsCredentials);
    }
    expect(nodes.some((n) => n['blsCredentials'] !== null)).toBe(true);
    expect(nodes.some((n) => n['geolocation'] != null && n['validatorHealth'] != null)).toBe(true);
    const blockchains = nodes.flatMap((n) => (n['subnet'] as { blockchains: { genesisData: unknown }[] } | null)?.blockchains ?? []);
    expect(blockchains.some((b) => b.genesisData !== null)).toBe(true);
  });
});

describe('behind a shared cache', () => {
  it('reads answers whole: another request may read the parts this one leaves out', async () => {
    const cached = await startStack({ wrapDataApi: record, cache: createMemoryCache() });
    try {
      omits.clear();
      await dataOf(cached, VALIDATOR_WALK);
      expect(omits.get('listValidators')).toEqual([[]]);
      expect(omits.get('listSubnets')).toEqual([[]]);
      const withGenesis = await dataOf<{ network: { subnets: { edges: { node: { blockchains: { genesisData: unknown }[] } }[] } } }>(
        cached,
        '{ network(name: MAINNET) { subnets(first: 50) { edges { node { blockchains { genesisData } } } } } }',
      );
      expect(withGenesis.network.subnets.edges.some((e) => e.node.blockchains.some((b) => b.genesisData !== null))).toBe(true);
    } finally {
      await cached.close();
    }
  }, 60_000);
});
