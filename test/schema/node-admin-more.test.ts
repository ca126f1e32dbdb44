import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// admin.getConfig, admin.dbGet and admin.stacktrace through GraphQL: gated like every
// admin method (nothing sent for a refused caller), one node call each for an admin,
// and dbGet's errorCode served as a status.

const TOKEN = 'admin-secret';
const AUTH = { authorization: `Bearer ${TOKEN}` };
// The P-chain's id is 32 zero bytes; the devnet's database maps each chain id to its VM id.
const P_CHAIN_KEY = `0x${'00'.repeat(32)}`;
const PLATFORM_VM = `0x${Buffer.from('platformvm').toString('hex').padEnd(64, '0')}`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;

let stack: TestStack;
let open: TestStack;
const routes = () => stack.devnet.stats().byRoute;
const code = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['code'];

beforeAll(async () => {
  [stack, open] = await Promise.all([startStack({ gateway: { adminToken: TOKEN } }), startStack()]);
});
afterAll(async () => {
  await Promise.all([stack.close(), open.close()]);
});
beforeEach(() => {
  stack.devnet.resetStats();
  open.devnet.resetStats();
});

const CONFIG = '{ avalancheNode { config } }';
const DB_GET = 'query ($key: Hex!) { avalancheNode { databaseValue(key: $key) { key status value errorCode } } }';
const STACKTRACE = 'mutation { adminStacktrace(input: {}) { avalancheNode { name } } }';

describe('authorization', () => {
  it('refuses callers without the token (FORBIDDEN) or a gateway without one (ADMIN_DISABLED), before any call', async () => {
    for (const [query, variables] of [[CONFIG, {}], [DB_GET, { key: P_CHAIN_KEY }], [STACKTRACE, {}]] as const) {
      for (const headers of [undefined, { authorization: 'Bearer wrong' }]) {
        expect(code(await stack.query(query, variables, headers))).toBe('FORBIDDEN');
      }
      expect(code(await open.query(query, variables, AUTH))).toBe('ADMIN_DISABLED');
    }
    expect(stack.upstreamRequests()).toBe(0);
    expect(open.upstreamRequests()).toBe(0);
  });

  it('refuses a malformed key before any call', async () => {
    for (const key of ['0x0', '00ff', `0x${'ab'.repeat(1025)}`]) {
      const result = await stack.query(DB_GET, { key }, AUTH);
      expect(code(result)).toBe('BAD_USER_INPUT');
    }
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('admin reads and the stack trace', () => {
  it('reads the node configuration with one admin.getConfig', async () => {
    const result = await stack.query<Data>(`{ avalancheNode { config } fuji: avalancheNode(name: "fuji") { config } }`, {}, AUTH);
    expect(result.errors).toBeUndefined();
    expect(result.data?.avalancheNode.config).toMatchObject({ networkID: 1, apiAdminEnabled: true });
    expect(result.data?.fuji.config).toMatchObject({ networkID: 5 });
    expect(routes()['POST admin.getConfig']).toBe(2);
    expect(stack.upstreamRequests()).toBe(2);
  });

  it('maps dbGet to FOUND with the value, or NOT_FOUND, one call per distinct key', async () => {
    const result = await stack.query<Data>(
      `{ avalancheNode { p: databaseValue(key: "${P_CHAIN_KEY}") { key status value errorCode }
         again: databaseValue(key: "${P_CHAIN_KEY}") { status }
         absent: databaseValue(key: "0x00ff") { key status value errorCode } } }`,
      {},
      AUTH,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.avalancheNode).toEqual({
      p: { key: P_CHAIN_KEY, status: 'FOUND', value: PLATFORM_VM, errorCode: 0 },
      again: { status: 'FOUND' },
      absent: { key: '0x00ff', status: 'NOT_FOUND', value: null, errorCode: 2 },
    });
    expect(routes()['POST admin.dbGet']).toBe(2);
  });

  it('writes a stack trace with one admin.stacktrace, never cached', async () => {
    for (const node of ['mainnet', 'mainnet', 'fuji']) {
      const result = await stack.query<Data>('mutation ($n: String) { adminStacktrace(input: { node: $n }) { avalancheNode { name } } }', { n: node }, AUTH);
      expect(result.errors).toBeUndefined();
      expect(result.data?.adminStacktrace).toEqual({ avalancheNode: { name: node } });
    }
    expect(routes()['POST admin.stacktrace']).toBe(3);
  });

  it('reads config and dbGet live on every request (admin answers are never cached)', async () => {
    for (let i = 0; i < 2; i += 1) {
      const result = await stack.query<Data>(`{ avalancheNode { config databaseValue(key: "0x01") { status } } }`, {}, AUTH);
      expect(result.errors).toBeUndefined();
    }
    expect(routes()).toMatchObject({ 'POST admin.getConfig': 2, 'POST admin.dbGet': 2 });
  });
});
