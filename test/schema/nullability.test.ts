import {
  getNamedType, isAbstractType, isInterfaceType, isListType, isNonNullType, isObjectType, type GraphQLField, type GraphQLOutputType,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/gateway.ts';
import { COMPILED_EXECUTION_DEFAULTS } from '../../src/gateway/plugins/use-compiled-execution.ts';
import { getSchema } from '../../src/schema/index.ts';
import type { DataApi, NodeClient } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { startRewritingProxy, type RewritingProxy } from '../helpers/rewriting-proxy.ts';

/**
 * Nullability that confines damage. Upstream values the real spec allows but a GraphQL scalar cannot
 * serve (`"amountStaked": "string"`, `startTimestamp: -3.5`, a fractional count, a float past a double's
 * range) reach the gateway over real HTTP: a proxy in front of the devnet edits its answers. Only the
 * field reading each value is null, with UPSTREAM_PROTOCOL_ERROR naming the upstream field and the
 * operation; its siblings, its parent and the rest of the response are data. The same on the first
 * (interpreted) execution and once the gateway has compiled the operation.
 */

type Json = Record<string, unknown>;
interface Answer {
  data?: Json | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Json }[];
}

/** What the proxy makes odd: a route's path -> an edit of the parsed answer (Data API), or of a JSON-RPC method's result. */
const DATA_EDITS: Record<string, (body: Json) => void> = {
  '/v1/networks/mainnet/validators': (body) => {
    const [first] = body.validators as Json[];
    if (!first) return;
    first.amountStaked = 'string';
    first.startTimestamp = -3.5;
    first.delegatorCount = 1.5;
  },
  '/v1/chains/43114/blocks/1': (body) => {
    body.gasUsed = 'abc';
    body.txCount = 2.5;
    body.feesSpent = '-1';
  },
};
const RPC_EDITS: Record<string, (result: Json) => void> = {
  // A double past its range: JSON.parse makes it Infinity, which no Float can show.
  'info.peers': (result) => {
    for (const peer of result.peers as Json[]) peer.observedUptime = '1e400';
  },
};

const QUERY = `{
  network(name: MAINNET) {
    name
    validators(first: 3) { edges { node { id nodeId txHash amountStaked startTimestamp startTime endTimestamp delegatorCount } } }
  }
  chain(chainId: "43114") { chainId block(id: "1") { blockHash gasUsed gasLimit txCount feesSpent } }
  avalancheNode(name: "mainnet") { name peers(first: 2) { edges { node { nodeID observedUptime } } } }
}`;

const VALIDATORS = 'GET /v1/networks/{network}/validators';
const BLOCK = 'GET /v1/chains/{chainId}/blocks/{blockId}';

let devnet: Devnet;
let proxy: RewritingProxy | undefined;
let dataApi: DataApi;
let nodes: NodeClient[];
const gateways: Gateway[] = [];

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60 });
  proxy = await startRewritingProxy(devnet.url, ({ path, method, requestBody, status, text }) => {
    const rpcMethod = method === 'POST' && requestBody.startsWith('{') ? (JSON.parse(requestBody) as { method?: string }).method : undefined;
    const dataEdit = DATA_EDITS[path];
    const rpcEdit = rpcMethod === undefined ? undefined : RPC_EDITS[rpcMethod];
    if (status >= 300 || (!dataEdit && !rpcEdit)) return undefined;
    const parsed = JSON.parse(text) as Json;
    if (dataEdit) dataEdit(parsed);
    if (rpcEdit && parsed.result) rpcEdit(parsed.result as Json);
    // Written by hand where a double is past its range, as an upstream would send it.
    return JSON.stringify(parsed).replaceAll('"1e400"', '1e400');
  });
  const base = proxy.url;
  dataApi = createDataApiClient({ baseUrl: base });
  nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => createNodeClient({ name, url: url.replace(devnet.url, base) }));
});

afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.dispose()));
  await proxy?.close();
  await devnet?.close();
});

function gatewayWith(compiledExecution: GatewayOptions['compiledExecution'], api: DataApi = dataApi): Gateway {
  const gateway = createGateway({ graphiql: false, ...(compiledExecution === undefined ? {} : { compiledExecution }) }, { dataApi: api, nodes });
  gateways.push(gateway);
  return gateway;
}

async function run(gateway: Gateway, query: string): Promise<Answer> {
  const res = await gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  const answer = (await res.json()) as Answer;
  // Executors may list errors in another order: compare them by path.
  return { data: answer.data, ...(answer.errors ? { errors: [...answer.errors].sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path))) } : {}) };
}

const at = (answer: Answer, ...path: (string | number)[]) => answer.errors?.find((error) => JSON.stringify(error.path) === JSON.stringify(path));

describe('spec-valid values a scalar cannot serve, end to end', () => {
  let first: Answer;

  beforeAll(async () => {
    first = await run(gatewayWith(false), QUERY);
  });

  it('null only the field that reads each value, coded UPSTREAM_PROTOCOL_ERROR with upstreamField and operation', () => {
    const edge = ['network', 'validators', 'edges', 0, 'node'];
    const expectations: [(string | number)[], string, string][] = [
      [[...edge, 'amountStaked'], 'validators[0].amountStaked', VALIDATORS],
      [[...edge, 'startTimestamp'], 'validators[0].startTimestamp', VALIDATORS],
      [[...edge, 'startTime'], 'validators[0].startTimestamp', VALIDATORS],
      [[...edge, 'delegatorCount'], 'validators[0].delegatorCount', VALIDATORS],
      [['chain', 'block', 'gasUsed'], 'gasUsed', BLOCK],
      [['chain', 'block', 'txCount'], 'txCount', BLOCK],
      [['chain', 'block', 'feesSpent'], 'feesSpent', BLOCK],
    ];
    for (const [path, upstreamField, operation] of expectations) {
      const error = at(first, ...path);
      expect(error, path.join('.')).toBeDefined();
      expect(error?.extensions).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR', upstream: 'data-api', upstreamField, operation });
      expect(error?.message).toBe(`The Data API answered ${operation} without a usable ${upstreamField}`);
    }
    // A peer's uptime: each peer's field, from the node.
    const peerErrors = first.errors?.filter((error) => error.path?.[error.path.length - 1] === 'observedUptime') ?? [];
    expect(peerErrors).toHaveLength(2);
    for (const error of peerErrors) {
      expect(error.extensions).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR', upstream: 'node:mainnet', operation: 'info.peers' });
      expect(error.extensions?.['upstreamField']).toMatch(/^peers\[\d+\]\.observedUptime$/);
    }
    expect(first.errors).toHaveLength(expectations.length + 2);
    // Nothing unexpected, nothing uncoded, no serializer's words.
    for (const error of first.errors ?? []) expect(error.extensions?.['code']).toBe('UPSTREAM_PROTOCOL_ERROR');
    expect(JSON.stringify(first.errors)).not.toMatch(/cannot represent|INTERNAL_SERVER_ERROR|Unexpected error/);
  });

  it('keeps the siblings, the items and the rest of the response as data', () => {
    const data = first.data as {
      network: { name: string; validators: { edges: { node: Json }[] } };
      chain: { chainId: string; block: Json };
      avalancheNode: { name: string; peers: { edges: { node: Json }[] } };
    };
    expect(data.network.name).toBe('MAINNET');
    const [broken, ...intact] = data.network.validators.edges.map((edge) => edge.node);
    expect(broken).toMatchObject({ id: expect.any(String), nodeId: expect.any(String), txHash: expect.any(String), amountStaked: null, startTimestamp: null, startTime: null, delegatorCount: null });
    expect(broken?.endTimestamp).toMatch(/^\d+$/);
    expect(intact).toHaveLength(2);
    for (const node of intact) expect(node.amountStaked).toMatch(/^\d+$/);
    expect(data.chain.chainId).toBe('43114');
    expect(data.chain.block).toEqual({ blockHash: expect.any(String), gasUsed: null, txCount: null, feesSpent: null, gasLimit: expect.stringMatching(/^\d+$/) });
    expect(data.avalancheNode.name).toBe('mainnet');
    for (const { node } of data.avalancheNode.peers.edges) expect(node).toEqual({ nodeID: expect.stringMatching(/^NodeID-/), observedUptime: null });
  });

  it('answers the same once the operation is compiled, and on a gateway that compiles at once', async () => {
    // The default gateway interprets an operation `compileAfter` times, then compiles it.
    const gateway = gatewayWith(undefined);
    for (let i = 0; i < COMPILED_EXECUTION_DEFAULTS.compileAfter + 2; i++) expect(await run(gateway, QUERY), `run ${i + 1}`).toEqual(first);
    const compiled = gatewayWith({ compileAfter: 1 });
    for (let i = 0; i < 2; i++) expect(await run(compiled, QUERY), `compiled run ${i + 1}`).toEqual(first);
  });
});

describe('the serializers\' backstop: a value that reaches a scalar it does not fit', () => {
  // Edited after the reader (as no answer read through the shapes can be): the scalars themselves refuse.
  const unread = (): DataApi => {
    const direct = createDataApiClient({ baseUrl: devnet.url });
    return {
      ...direct,
      listValidators: async (...args) => {
        const page = await direct.listValidators(...args);
      const [first] = page.validators;
        if (first) Object.assign(first, { amountStaked: 'string', delegatorCount: 1.5, startTimestamp: -3.5 });
        return page;
      },
    };
  };
  const query = '{ network(name: MAINNET) { validators(first: 2) { edges { node { nodeId amountStaked delegatorCount startTimestamp } } } } }';

  it('answers UPSTREAM_PROTOCOL_ERROR naming the type, never the value, on the field alone; the same interpreted and compiled', async () => {
    const interpreted = await run(gatewayWith(false, unread()), query);
    const edge = ['network', 'validators', 'edges', 0, 'node'];
    for (const [field, type] of [['amountStaked', 'UInt256'], ['delegatorCount', 'Int'], ['startTimestamp', 'UInt64']] as const) {
      const error = at(interpreted, ...edge, field);
      expect(error?.message).toBe(`The upstream sent a value for this field that is not a valid ${type}.`);
      expect(error?.extensions).toEqual({ code: 'UPSTREAM_PROTOCOL_ERROR', type });
    }
    expect(interpreted.errors).toHaveLength(3);
    const nodes = (interpreted.data as { network: { validators: { edges: { node: Json }[] } } }).network.validators.edges.map((edge) => edge.node);
    expect(nodes[0]).toMatchObject({ nodeId: expect.any(String), amountStaked: null, delegatorCount: null, startTimestamp: null });
    expect(nodes[1]?.amountStaked).toMatch(/^\d+$/);
    const compiled = gatewayWith({ compileAfter: 1 }, unread());
    for (let i = 0; i < 2; i++) expect(await run(compiled, query)).toEqual(interpreted);
  });
});

describe('the schema\'s non-null fields', () => {
  /**
   * Where chaingraph itself guarantees a value: ids, connections and their paging, the network and chain a
   * record was read from, the roots of the contract, names from the configuration, keys of the maps it
   * turns into lists, what a mutation echoes of its input. Every other output field is nullable.
   */
  const GUARANTEED = new Set([
    'Query.network', 'Query.nodes', 'Query.icmMessages', 'Query.avalancheNodes',
    // Lookups by key answer one item per key asked, null where nothing matches (as `nodes` does).
    'Query.addresses', 'Query.validatorsByNodeId',
    'Network.name', 'Network.blockchain', 'Peer.node', 'PeerConnection.totalCount',
    'HealthCheck.name', 'HealthCheck.passing', 'HealthStatus.httpStatus', 'HealthStatus.report',
    'NodeVm.vmId', 'NodeFx.fxId', 'NodeVmVersion.name', 'LoggerLevel.name', 'FailedVm.vmId',
    'AdminAliasPayload.endpoint', 'AdminAliasPayload.alias', 'AdminAliasPayload.path', 'AdminAliasChainPayload.chain', 'AdminAliasChainPayload.alias',
    'CreateTransactionExportPayload.operation', 'AggregateSignaturesPayload.network',
    // The caller's usage root (no value of its own), what chaingraph derives from a health report or a dbGet answer.
    'Query.apiUsage', 'DataApiHealth.healthy', 'DataApiHealth.indicators', 'DataApiHealthIndicator.name', 'DataApiHealthIndicator.healthy',
    'DatabaseValue.key', 'DatabaseValue.status',
    // The addresses a caller named (no upstream call makes the list).
    'Network.primaryAddresses',
    // A webhook delivery's envelope and structure, checked before it is accepted (a delivery without them is refused), and the lists chaingraph builds of it.
    ...['ActivityEvent', 'AddressActivityEvent', 'PrimaryNetworkActivityEvent', 'ValidatorActivityEvent'].flatMap((type) => [`${type}.messageId`, `${type}.webhookId`]),
    'AddressActivityEvent.transaction', 'AddressActivityEvent.logs', 'ActivityLog.topics', 'PrimaryNetworkActivityEvent.addresses', 'ValidatorActivityEvent.nodeId',
    ...['erc20Transfers', 'erc721Transfers', 'erc1155Transfers'].map((list) => `ActivityTransaction.${list}`),
  ]);
  const READ_ON_NETWORK = new Set([
    'Block', 'Utxo', 'Vertex', 'Asset', 'L1Validator', 'PrimaryAddress', 'PrimaryLastActivity',
    ...['Primary', 'PChain', 'XChain', 'CChainAtomic'].map((chain) => `${chain}Transaction`),
    ...['Primary', 'PChain', 'XChain', 'CChain'].map((chain) => `${chain}Balances`), 'Blockchain', 'Subnet', 'HistoricalReward', 'PendingReward',
    ...['', 'Active', 'Pending', 'Completed', 'Removed'].map((status) => `${status}Validator`),
    ...['', 'Active', 'Pending', 'Completed'].map((status) => `${status}Delegator`),
  ]);
  const guaranteed = (type: string, field: GraphQLField<unknown, unknown>): boolean => {
    const named = getNamedType(field.type).name;
    return GUARANTEED.has(`${type}.${field.name}`)
      || (field.name === 'id' && named === 'ID')
      || named.endsWith('Connection') || named === 'PageInfo' || type === 'PageInfo' || type.endsWith('Connection') || type.endsWith('Edge')
      || type === 'Mutation' || type === 'Subscription'
      || (field.name === 'avalancheNode' && type.endsWith('Payload'))
      // The network a record was read from: the gateway's own, never an upstream value.
      || (field.name === 'network' && READ_ON_NETWORK.has(type));
  };

  it('are only those chaingraph guarantees', () => {
    const schema = getSchema();
    const nonNull: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('_') || (!isObjectType(type) && !isInterfaceType(type))) continue;
      for (const field of Object.values(type.getFields())) {
        // Federation's own fields (`_entities`, `_service`) are the subgraph protocol's.
        if (field.name.startsWith('_')) continue;
        if (isNonNullType(field.type) && !guaranteed(type.name, field)) nonNull.push(`${type.name}.${field.name}`);
      }
    }
    expect(nonNull).toEqual([]);
  });

  /** True when `a` and `b` differ in nullability only (somewhere down their lists). */
  const nullabilityOnly = (a: GraphQLOutputType, b: GraphQLOutputType): boolean => {
    const strip = (type: GraphQLOutputType): string => String(type).replaceAll('!', '');
    return String(a) !== String(b) && strip(a) === strip(b);
  };

  it('never differ from a same-named field of a type that can share a selection (no query that validated stops validating)', () => {
    // `nodes(ids:) { ... on Asset { name } ... on AvalancheNode { name } }` must keep validating: fields of one
    // response name merge only when their shapes agree, nullability included.
    const schema = getSchema();
    const clashes: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isAbstractType(type) || type.name.startsWith('_')) continue;
      const members = schema.getPossibleTypes(type);
      for (const a of members) {
        for (const b of members) {
          if (a.name >= b.name) continue;
          for (const field of Object.values(a.getFields())) {
            const other = b.getFields()[field.name];
            // Connections are non-null at the roots and nullable when nested (one upstream failure fails that list
            // only): a design older than this rule, which clients select under their own aliases.
            if (getNamedType(field.type).name.endsWith('Connection')) continue;
            if (other && nullabilityOnly(field.type, other.type)) clashes.push(`${a.name}.${field.name}: ${String(field.type)} / ${b.name}.${field.name}: ${String(other.type)}`);
          }
        }
      }
    }
    expect(clashes).toEqual([]);
  });

  it('upstream lists hold non-null items, and are nullable themselves', () => {
    const schema = getSchema();
    const validator = schema.getType('Delegator');
    const rewardAddresses = isInterfaceType(validator) ? validator.getFields()['rewardAddresses']?.type : undefined;
    expect(rewardAddresses && !isNonNullType(rewardAddresses) && isListType(rewardAddresses) && isNonNullType(rewardAddresses.ofType)).toBe(true);
  });
});
