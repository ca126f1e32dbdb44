import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { createGateway } from '../../src/gateway/gateway.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// The caller's Data API webhooks through GraphQL, judged by the requests the devnet saw: one
// request per operation, each made with the caller's own key; a caller without one (and not an
// admin) is refused before any call; bad input is refused before any call; two keys never see
// each other's webhooks, with the upstream and whole-response caches on too; a shared secret
// the upstream answers malformed never reaches an error or a log line.

const TOKEN = 'admin-secret';
const ADMIN = { authorization: `Bearer ${TOKEN}` };
const ALICE = { 'x-service-api-key': 'alice-webhook-key' };
const BOB = { 'x-service-api-key': 'bob-webhook-key' };
const HOOK_URL = 'https://hooks.example.com/chaingraph';
const EVM_A = '0x00000000000000000000000000000000000000a1';
const EVM_B = '0x00000000000000000000000000000000000000b2';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;

let stack: TestStack;
let f: NetworkFixtures;
const routes = () => stack.devnet.stats().byRoute;
const code = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['code'];

beforeAll(async () => {
  stack = await startStack({ gateway: { adminToken: TOKEN } });
  f = stack.devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await stack.close();
});
beforeEach(() => stack.devnet.resetStats());

async function ok(query: string, headers: Record<string, string>, variables?: Record<string, unknown>, on: TestStack = stack): Promise<Data> {
  const result = await on.query<Data>(query, variables, headers);
  expect(result.errors, query).toBeUndefined();
  return result.data as Data;
}

const COMMON = 'id name description url status statusRaw eventType createdAt __typename';
const EVM_FIELDS = `${COMMON} chainId includeLogs includeInternalTxs eventSignatures`;
const PRIMARY_FIELDS = `${COMMON} network blockchainId addressActivitySubEvents balanceThresholdFilter { balanceType balanceThreshold }`;
const VALIDATOR_FIELDS = `${COMMON} network keyType keys validatorActivitySubEvents nodeIds l1ValidatorFeeBalanceThreshold`;
const FIELDS = `${COMMON} ... on AddressActivityWebhook { ${EVM_FIELDS} } ... on PrimaryNetworkActivityWebhook { ${PRIMARY_FIELDS} } ... on ValidatorActivityWebhook { ${VALIDATOR_FIELDS} }`;

const CREATE_EVM = `mutation ($input: CreateAddressActivityWebhookInput!) { createAddressActivityWebhook(input: $input) { ${EVM_FIELDS} } }`;
const evmInput = (name: string, addresses = [EVM_A]) => ({ input: { url: HOOK_URL, name, description: 'test', chainId: f.evmChainId, addresses, includeLogs: true } });

async function createEvm(headers: Record<string, string>, name: string, addresses?: string[]): Promise<Data> {
  return (await ok(CREATE_EVM, headers, evmInput(name, addresses))).createAddressActivityWebhook;
}

describe('webhook operations, one upstream request each', () => {
  it('creates, reads, lists, changes and deactivates an address-activity webhook', async () => {
    const created = await createEvm(ALICE, 'alice-evm');
    expect(routes()).toEqual({ 'POST /v1/webhooks': 1 });
    expect(created).toMatchObject({ __typename: 'AddressActivityWebhook', name: 'alice-evm', url: HOOK_URL, status: 'ACTIVE', statusRaw: 'active', eventType: 'ADDRESS_ACTIVITY', chainId: f.evmChainId, includeLogs: true });
    const id: string = created.id;

    stack.devnet.resetStats();
    const one = await ok(`query ($id: String!) { webhook(id: $id) { ${FIELDS} ... on AddressActivityWebhook { chain { chainId } } addresses(first: 5) { totalCount edges { node } } } }`, ALICE, { id });
    expect(one.webhook).toMatchObject({ id, name: 'alice-evm', chain: { chainId: f.evmChainId }, addresses: { totalCount: 1, edges: [{ node: EVM_A }] } });
    expect(routes()).toMatchObject({ 'GET /v1/webhooks/{id}': 1, 'GET /v1/webhooks/{id}/addresses': 1 });

    stack.devnet.resetStats();
    const added = await ok('mutation ($id: String!, $a: [String!]!) { addWebhookAddresses(id: $id, addresses: $a) { id addresses { totalCount } } }', ALICE, { id, a: [EVM_B] });
    expect(added.addWebhookAddresses.addresses.totalCount).toBe(2);
    expect(routes()).toEqual({ 'PATCH /v1/webhooks/{id}/addresses': 1, 'GET /v1/webhooks/{id}/addresses': 1 });

    stack.devnet.resetStats();
    const removed = await ok('mutation ($id: String!, $a: [String!]!) { removeWebhookAddresses(id: $id, addresses: $a) { id } }', ALICE, { id, a: [EVM_A] });
    expect(removed.removeWebhookAddresses.id).toBe(id);
    const removal = stack.devnet.requestLog().find((e) => e.method === 'DELETE');
    expect(removal?.body && JSON.parse(removal.body)).toEqual({ addresses: [EVM_A] });
    expect(routes()).toEqual({ 'DELETE /v1/webhooks/{id}/addresses': 1 });

    stack.devnet.resetStats();
    const updated = await ok('mutation ($id: String!) { updateWebhook(id: $id, input: { name: "renamed", status: INACTIVE }) { name status } }', ALICE, { id });
    expect(updated.updateWebhook).toEqual({ name: 'renamed', status: 'INACTIVE' });
    expect(routes()).toEqual({ 'PATCH /v1/webhooks/{id}': 1 });

    stack.devnet.resetStats();
    const listed = await ok('{ inactive: webhooks(status: INACTIVE, first: 100) { edges { node { id name } } } }', ALICE);
    expect(listed.inactive.edges.map((e: Data) => e.node)).toContainEqual({ id, name: 'renamed' });
    expect(routes()).toEqual({ 'GET /v1/webhooks': 1 });

    await ok('mutation ($id: String!) { updateWebhook(id: $id, input: { status: ACTIVE }) { status } }', ALICE, { id });
    stack.devnet.resetStats();
    const deactivated = await ok('mutation ($id: String!) { deactivateWebhook(id: $id) { status } }', ALICE, { id });
    expect(deactivated.deactivateWebhook).toEqual({ status: 'INACTIVE' });
    expect(routes()).toEqual({ 'DELETE /v1/webhooks/{id}': 1 });
  });

  it('creates primary-network and validator webhooks and reads them as their own types', async () => {
    const primary = await ok(`mutation ($input: CreatePrimaryNetworkActivityWebhookInput!) { createPrimaryNetworkActivityWebhook(input: $input) { ${PRIMARY_FIELDS} addresses { totalCount edges { node } } } }`, ALICE, {
      input: {
        url: HOOK_URL, network: 'MAINNET', blockchainId: '11111111111111111111111111111111LpoYY', addresses: [f.pChainAddress],
        subEvents: ['BALANCE_CHANGE', 'BALANCE_THRESHOLD'], balanceThresholdFilter: { balanceType: 'UNLOCKED_UNSTAKED', balanceThreshold: '1000000000' },
      },
    });
    expect(primary.createPrimaryNetworkActivityWebhook).toMatchObject({
      __typename: 'PrimaryNetworkActivityWebhook', network: 'MAINNET', addressActivitySubEvents: ['BALANCE_CHANGE', 'BALANCE_THRESHOLD'],
      balanceThresholdFilter: { balanceType: 'UNLOCKED_UNSTAKED', balanceThreshold: '1000000000' }, addresses: { totalCount: 1, edges: [{ node: f.pChainAddress }] },
    });
    const validator = await ok(`mutation ($input: CreateValidatorActivityWebhookInput!) { createValidatorActivityWebhook(input: $input) { ${VALIDATOR_FIELDS} } }`, ALICE, {
      input: { url: HOOK_URL, network: 'MAINNET', keyType: 'NODE_ID', keys: [f.nodeId], subEvents: ['VALIDATOR_STAKE', 'REWARD_DISTRIBUTION'], l1ValidatorFeeBalanceThreshold: '5' },
    });
    expect(validator.createValidatorActivityWebhook).toMatchObject({ __typename: 'ValidatorActivityWebhook', keyType: 'NODE_ID', keys: [f.nodeId], validatorActivitySubEvents: ['VALIDATOR_STAKE', 'REWARD_DISTRIBUTION'], l1ValidatorFeeBalanceThreshold: '5' });
    expect(routes()).toEqual({ 'POST /v1/webhooks': 2, 'GET /v1/webhooks/{id}/addresses': 1 });
  });

  it('reads and rotates the key\'s shared secret', async () => {
    const first = (await ok('{ webhookSharedSecret { secret } }', ALICE)).webhookSharedSecret.secret;
    const rotated = (await ok('mutation { rotateWebhookSharedSecret { secret } }', ALICE)).rotateWebhookSharedSecret.secret;
    const now = (await ok('{ webhookSharedSecret { secret } }', ALICE)).webhookSharedSecret.secret;
    expect(typeof first).toBe('string');
    expect(rotated).not.toBe(first);
    expect(now).toBe(rotated);
    expect(routes()).toEqual({ 'GET /v1/webhooks:getSharedSecret': 2, 'POST /v1/webhooks:generateOrRotateSharedSecret': 1 });
  });

  it('pages the key\'s webhooks over pageToken, and each webhook\'s addresses cost one call per webhook (they cannot batch)', async () => {
    const carol = { 'x-service-api-key': 'carol-webhook-key' };
    for (let i = 0; i < 3; i += 1) await createEvm(carol, `carol-${i}`, [EVM_A, EVM_B]);
    stack.devnet.resetStats();
    const PAGE = `query ($after: String) { webhooks(first: 2, after: $after) {
      edges { node { name ... on AddressActivityWebhook { chain { chainId } } addresses(first: 1) { totalCount edges { node } } } } pageInfo { hasNextPage endCursor } } }`;
    const first = (await ok(PAGE, carol)).webhooks;
    expect(first.edges.map((e: Data) => e.node.name)).toEqual(['carol-0', 'carol-1']);
    for (const edge of first.edges) expect(edge.node).toMatchObject({ chain: { chainId: f.evmChainId }, addresses: { totalCount: 2, edges: [{ node: EVM_A }] } });
    // One listing, one address listing per webhook, one chain list for every webhook's chain.
    expect(routes()).toEqual({ 'GET /v1/webhooks': 1, 'GET /v1/webhooks/{id}/addresses': 2, 'GET /v1/chains': 1 });
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = (await ok(PAGE, carol, { after: first.pageInfo.endCursor })).webhooks;
    expect(second.edges.map((e: Data) => e.node.name)).toEqual(['carol-2']);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('scope: the caller\'s own key', () => {
  it('refuses a caller without a key of their own before any call', async () => {
    for (const query of [
      '{ webhooks { edges { cursor } } }',
      '{ webhook(id: "abc") { id } }',
      '{ webhookSharedSecret { secret } }',
      'mutation { rotateWebhookSharedSecret { secret } }',
      'mutation { deactivateWebhook(id: "abc") { id } }',
      `mutation { createAddressActivityWebhook(input: { url: "${HOOK_URL}", chainId: "43114", addresses: ["${EVM_A}"] }) { id } }`,
    ]) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const result = await stack.query(query, {}, headers);
        expect(code(result), query).toBe('UNAUTHENTICATED');
        expect(result.errors?.[0]?.message).toMatch(/webhooks needs your own Data API key/);
      }
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('an admin without a key manages the gateway key\'s webhooks', async () => {
    const created = await createEvm(ADMIN, 'server-hook');
    const listed = await ok('{ webhooks(first: 100) { edges { node { id } } } }', ADMIN);
    expect(listed.webhooks.edges.map((e: Data) => e.node.id)).toContain(created.id);
    // Not Alice's: she never sees the gateway key's webhooks.
    expect((await ok('query ($id: String!) { webhook(id: $id) { id } }', ALICE, { id: created.id })).webhook).toBeNull();
  });

  it('two keys never see or change each other\'s webhooks', async () => {
    const alices = await createEvm(ALICE, 'alice-private');
    const bobs = await createEvm(BOB, 'bob-private');
    const ids = async (headers: Record<string, string>) => (await ok('{ webhooks(first: 100) { edges { node { id } } } }', headers)).webhooks.edges.map((e: Data) => e.node.id);
    expect(await ids(ALICE)).toContain(alices.id);
    expect(await ids(ALICE)).not.toContain(bobs.id);
    expect(await ids(BOB)).toEqual([bobs.id]);
    expect((await ok('query ($id: String!) { webhook(id: $id) { id } }', BOB, { id: alices.id })).webhook).toBeNull();
    expect((await ok('mutation ($id: String!) { deactivateWebhook(id: $id) { id } }', BOB, { id: alices.id })).deactivateWebhook).toBeNull();
    expect((await ok('mutation ($id: String!) { updateWebhook(id: $id, input: { name: "x" }) { id } }', BOB, { id: alices.id })).updateWebhook).toBeNull();
    expect((await ok('query ($id: String!) { webhook(id: $id) { name status } }', ALICE, { id: alices.id })).webhook).toEqual({ name: 'alice-private', status: 'ACTIVE' });
    const secrets = await Promise.all([ALICE, BOB].map(async (h) => (await ok('{ webhookSharedSecret { secret } }', h)).webhookSharedSecret.secret));
    expect(secrets[0]).not.toBe(secrets[1]);
  });

  it('keeps them apart with the upstream and whole-response caches on, and never reuses an answer', async () => {
    const cached = await startStack({ cache: createMemoryCache(), gateway: { responseCache: { maxBytes: 1 << 20 } } });
    try {
      const cf = cached.devnet.dataset.fixtures().mainnet;
      const QUERY = '{ webhooks(first: 100) { edges { node { name } } } webhookSharedSecret { secret } }';
      await ok(CREATE_EVM, ALICE, { input: { url: HOOK_URL, name: 'alice-cached', chainId: cf.evmChainId, addresses: [EVM_A] } }, cached);
      const alice = await ok(QUERY, ALICE, undefined, cached);
      const bob = await ok(QUERY, BOB, undefined, cached);
      expect(alice.webhooks.edges.map((e: Data) => e.node.name)).toEqual(['alice-cached']);
      expect(bob.webhooks.edges).toEqual([]);
      expect(bob.webhookSharedSecret.secret).not.toBe(alice.webhookSharedSecret.secret);
      // Asked again: read again (a new webhook shows at once), never served from either cache.
      await ok(CREATE_EVM, ALICE, { input: { url: HOOK_URL, name: 'alice-second', chainId: cf.evmChainId, addresses: [EVM_B] } }, cached);
      cached.devnet.resetStats();
      const again = await cached.gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST', headers: { 'content-type': 'application/json', ...ALICE }, body: JSON.stringify({ query: QUERY }),
      });
      const body = (await again.json()) as GraphQLResponse<Data>;
      expect(body.data?.webhooks.edges.map((e: Data) => e.node.name)).toEqual(['alice-cached', 'alice-second']);
      expect(cached.devnet.stats().byRoute).toEqual({ 'GET /v1/webhooks': 1, 'GET /v1/webhooks:getSharedSecret': 1 });
      expect(again.headers.get('cache-control') ?? '').not.toMatch(/max-age=[1-9]/);
    } finally {
      await cached.close();
    }
  });
});

describe('arguments are checked before any call', () => {
  it('refuses bad input with BAD_USER_INPUT and no upstream request', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => `0x${i.toString(16).padStart(40, '0')}`);
    const cases: [string, Record<string, unknown>][] = [
      [CREATE_EVM, { input: { url: 'ftp://example.com/x', chainId: '43114', addresses: [EVM_A] } }],
      [CREATE_EVM, { input: { url: `https://example.com/${'a'.repeat(2048)}`, chainId: '43114', addresses: [EVM_A] } }],
      [CREATE_EVM, { input: { url: HOOK_URL, chainId: '43114', addresses: ['0x123'] } }],
      [CREATE_EVM, { input: { url: HOOK_URL, chainId: '43114', addresses: many } }],
      [CREATE_EVM, { input: { url: HOOK_URL, chainId: '43114', addresses: [] } }],
      [CREATE_EVM, { input: { url: HOOK_URL, chainId: '43114', addresses: [EVM_A], name: 'x'.repeat(257) } }],
      [CREATE_EVM, { input: { url: HOOK_URL, chainId: '43114', addresses: [EVM_A], eventSignatures: ['0xabc'] } }],
      ['mutation ($input: CreatePrimaryNetworkActivityWebhookInput!) { createPrimaryNetworkActivityWebhook(input: $input) { id } }',
        { input: { url: HOOK_URL, network: 'FUJI', blockchainId: '11111111111111111111111111111111LpoYY', addresses: [f.pChainAddress], subEvents: ['BALANCE_CHANGE'] } }],
      ['mutation ($input: CreatePrimaryNetworkActivityWebhookInput!) { createPrimaryNetworkActivityWebhook(input: $input) { id } }',
        { input: { url: HOOK_URL, network: 'MAINNET', blockchainId: '11111111111111111111111111111111LpoYY', addresses: [f.pChainAddress], subEvents: ['BALANCE_THRESHOLD'] } }],
      ['mutation ($input: CreateValidatorActivityWebhookInput!) { createValidatorActivityWebhook(input: $input) { id } }',
        { input: { url: HOOK_URL, network: 'MAINNET', keyType: 'NODE_ID', keys: [f.nodeId, f.nodeId], subEvents: ['VALIDATOR_STAKE'] } }],
      ['mutation ($input: CreateValidatorActivityWebhookInput!) { createValidatorActivityWebhook(input: $input) { id } }',
        { input: { url: HOOK_URL, network: 'MAINNET', keyType: 'SUBNET_ID', keys: [f.nodeId], subEvents: ['VALIDATOR_STAKE'] } }],
      ['mutation ($a: [String!]!) { addWebhookAddresses(id: "a", addresses: $a) { id } }', { a: many }],
      ['mutation { updateWebhook(id: "a", input: {}) { id } }', {}],
      ['mutation { deactivateWebhook(id: "../chains") { id } }', {}],
      ['{ webhooks(first: 101) { edges { cursor } } }', {}],
      ['{ webhook(id: "a b") { id } }', {}],
    ];
    for (const [query, variables] of cases) {
      const result = await stack.query(query, variables, ALICE);
      expect(code(result), `${query} ${JSON.stringify(variables).slice(0, 200)}`).toBe('BAD_USER_INPUT');
    }
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('a malformed shared secret from the upstream', () => {
  const SECRET = 's3cr3t-value-that-must-not-leak';
  let server: Server;
  let url: string;
  let answer: string;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(answer);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('names the field only: the value is in no error and no log line', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) });
    const dataApi = createDataApiClient({ baseUrl: url, apiKey: 'server-key' });
    const gateway = createGateway({ graphiql: false }, { dataApi, nodes: [], logger });
    try {
      for (const [body, value] of [
        [JSON.stringify({ secret: 12345678 }), '12345678'],
        [JSON.stringify({ secret: [SECRET] }), SECRET],
        [JSON.stringify({ secret: { nested: SECRET } }), SECRET],
        [`{"secret": "${SECRET}"`, SECRET],
      ] as const) {
        answer = body;
        for (const query of ['{ webhookSharedSecret { secret } }', 'mutation { rotateWebhookSharedSecret { secret } }']) {
          const response = await gateway.fetch('http://chaingraph.test/graphql', {
            method: 'POST', headers: { 'content-type': 'application/json', ...ALICE }, body: JSON.stringify({ query }),
          });
          const text = await response.text();
          const result = JSON.parse(text) as GraphQLResponse;
          expect(result.errors?.[0]?.extensions?.['code'], body).toBe('UPSTREAM_PROTOCOL_ERROR');
          expect(text).not.toContain(value);
        }
      }
      expect(lines.length).toBeGreaterThan(0);
      const logged = lines.join('\n');
      expect(logged).not.toContain(SECRET);
      expect(logged).not.toContain('12345678');
    } finally {
      await gateway.dispose();
      await dataApi.close();
    }
  });

  it('keeps it out of the client\'s own error, its cause included (what a log of the error would print)', async () => {
    const dataApi = createDataApiClient({ baseUrl: url, apiKey: 'server-key' });
    try {
      // Not JSON: the parser's own message quotes the body, so it is not kept as the cause.
      for (const body of [`{"secret": ${SECRET}}`, JSON.stringify({ secret: [SECRET] }), JSON.stringify({ secret: 12345678 })]) {
        answer = body;
        const error = await dataApi.getWebhookSharedSecret().then((s) => s.secret).then(() => undefined, (e: unknown) => e);
        expect(error, body).toMatchObject({ kind: 'protocol', operation: 'GET /v1/webhooks:getSharedSecret' });
        const printed = inspect(error, { depth: 10 });
        expect(printed, body).not.toContain(SECRET);
        expect(printed, body).not.toContain('12345678');
      }
    } finally {
      await dataApi.close();
    }
  });
});
