import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { PRIMARY_CHAIN_IDS } from '../../src/shapes/index.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * `createTransactionExport` with the spec's primary-network types: each type takes its own
 * options (checked before any call, a field the type does not take refused by name), the
 * body sent is the spec's CreatePrimaryNetworkTransactionExportRequest (read back from the
 * devnet's request log), and the devnet runs the operation as it runs an EVM one.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const ROUTE = 'POST /v1/operations/transactions:export';
const CREATE = `mutation($input: CreateTransactionExportInput!) { createTransactionExport(input: $input) { operation {
  id operationId operationType operationStatus message metadata { code downloadUrl nextDate }
} } }`;
const READ = 'query($op: String!) { exportOperation(operationId: $op) { operationType operationStatus message metadata { code downloadUrl nextDate } } }';
const EVM_ADDRESS = `0x${'ab'.repeat(20)}`;

let stack: TestStack;
let f: NetworkFixtures;
let fuji: NetworkFixtures;
/** The devnet's clock runs `skewMs` ahead, so a test can let an export finish without waiting. */
let skewMs = 0;

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => Date.now() + skewMs } });
  f = stack.devnet.dataset.fixtures().mainnet;
  fuji = stack.devnet.dataset.fixtures().fuji;
});

afterAll(async () => {
  await stack?.close();
});

async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const res = await stack.query<Data>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

/** The bodies the gateway posted to the export route since the last reset. */
const bodiesSent = (): unknown[] => stack.devnet.requestLog().filter((e) => e.route === ROUTE).map((e) => JSON.parse(e.body ?? 'null'));

describe('createTransactionExport, primary-network types', () => {
  it.each(['TRANSACTION_EXPORT_PRIMARY_NETWORK', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE'])(
    'sends the spec body for %s in one call, and the operation runs to COMPLETED',
    async (type) => {
      stack.devnet.resetStats();
      const input = {
        type, firstDate: '2024-01-01', lastDate: '2024-01-31',
        options: { addresses: [f.pChainAddress, f.xChainAddress], includeChains: ['p-chain', PRIMARY_CHAIN_IDS.mainnet.x, 'c-chain'], cChainEvmAddresses: [EVM_ADDRESS] },
      };
      const op = (await ok(CREATE, { input })).createTransactionExport.operation;
      expect(stack.upstreamRequests()).toBe(1);
      expect(bodiesSent()).toEqual([input]);
      expect(op).toMatchObject({ operationType: type, operationStatus: 'RUNNING' });
      skewMs += 60_000;
      const done = (await ok(READ, { op: op.operationId })).exportOperation;
      expect(done).toMatchObject({ operationType: type, operationStatus: 'COMPLETED' });
      expect(done.metadata.downloadUrl).toMatch(/^https:\/\//);
    },
  );

  it('takes C-chain 0x addresses alone, leaves out what is not given, and truncates a long range as the EVM export does', async () => {
    stack.devnet.resetStats();
    const input = { type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', startDate: '2020-01-01', endDate: '2024-01-01', options: { includeChains: ['c-chain'], cChainEvmAddresses: [EVM_ADDRESS] } };
    const op = (await ok(CREATE, { input })).createTransactionExport.operation;
    expect(bodiesSent()).toEqual([input]);
    skewMs += 60_000;
    const done = (await ok(READ, { op: op.operationId })).exportOperation;
    expect(done.operationStatus).toBe('COMPLETED_WITH_WARNING');
    expect(done.metadata.code).toBe('WARN_TRUNCATED_EXPORT');
  });

  it('runs a fuji export with fuji addresses and chain ids', async () => {
    stack.devnet.resetStats();
    const input = { type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', options: { addresses: [fuji.rewardAddress], includeChains: [PRIMARY_CHAIN_IDS.fuji.p, PRIMARY_CHAIN_IDS.fuji.x] } };
    const op = (await ok(CREATE, { input })).createTransactionExport.operation;
    expect(bodiesSent()).toEqual([input]);
    skewMs += 60_000;
    expect((await ok(READ, { op: op.operationId })).exportOperation.operationStatus).toBe('COMPLETED');
  });

  it('still sends the EVM body unchanged (no primary-only option)', async () => {
    stack.devnet.resetStats();
    const input = { type: 'TRANSACTION_EXPORT_EVM', options: { addresses: [f.address], includeChains: [f.evmChainId] } };
    await ok(CREATE, { input });
    expect(bodiesSent()).toEqual([input]);
  });

  const primary = (options: Record<string, unknown>) => ({ input: { type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', options: { includeChains: ['p-chain'], addresses: [f.rewardAddress], ...options } } });
  it.each<[string, () => Record<string, unknown>, string]>([
    ['cChainEvmAddresses on an EVM export', () => ({ input: { type: 'TRANSACTION_EXPORT_EVM', options: { addresses: [EVM_ADDRESS], includeChains: ['43114'], cChainEvmAddresses: [EVM_ADDRESS] } } }), 'input.options.cChainEvmAddresses'],
    ['an EVM export without addresses', () => ({ input: { type: 'TRANSACTION_EXPORT_EVM', options: { includeChains: ['43114'] } } }), 'input.options.addresses'],
    ['an EVM chain id in a primary export', () => primary({ includeChains: ['43114'] }), 'input.options.includeChains'],
    ['a chain alias in upper case', () => primary({ includeChains: ['P-CHAIN'] }), 'input.options.includeChains'],
    ['no chain', () => primary({ includeChains: [] }), 'input.options.includeChains'],
    ['0x addresses in addresses', () => primary({ addresses: [EVM_ADDRESS] }), 'input.options.addresses'],
    ['no address at all', () => primary({ addresses: [] }), 'input.options.addresses'],
    ['addresses of two networks', () => primary({ addresses: [f.rewardAddress, fuji.rewardAddress] }), 'input.options.addresses'],
    ['a chain of the other network', () => primary({ includeChains: [PRIMARY_CHAIN_IDS.fuji.x] }), 'input.options.includeChains'],
    ['a bad cChainEvmAddresses entry', () => primary({ cChainEvmAddresses: ['0x12'] }), 'input.options.cChainEvmAddresses'],
  ])('refuses %s before any call, naming the field', async (_name, variables, field) => {
    stack.devnet.resetStats();
    const res = await stack.query<Data>(CREATE, variables());
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.errors?.[0])).toContain(field);
    expect(stack.upstreamRequests()).toBe(0);
  });
});

describe('the devnet export route', () => {
  const post = (body: unknown) => fetch(`${stack.devnet.url}/v1/operations/transactions:export`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('refuses options a type does not take and chains outside the spec enum (400)', async () => {
    expect((await post({ type: 'TRANSACTION_EXPORT_EVM', options: { addresses: [EVM_ADDRESS], includeChains: ['43114'], cChainEvmAddresses: [] } })).status).toBe(400);
    expect((await post({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', options: { addresses: [f.rewardAddress], includeChains: ['43114'] } })).status).toBe(400);
    expect((await post({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', options: { includeChains: ['p-chain'] } })).status).toBe(400);
    expect((await post({ type: 'TRANSACTION_EXPORT_UNKNOWN', options: { includeChains: ['p-chain'] } })).status).toBe(400);
  });

  it('fails the operation when a chain id is of the other network than the addresses', async () => {
    const res = await post({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK', options: { addresses: [f.rewardAddress], includeChains: [PRIMARY_CHAIN_IDS.fuji.x] } });
    expect(res.status).toBe(200);
    const op = (await res.json()) as { operationId: string };
    skewMs += 60_000;
    const done = (await ok(READ, { op: op.operationId })).exportOperation;
    expect(done.operationStatus).toBe('FAILED');
    expect(done.message).toContain(PRIMARY_CHAIN_IDS.fuji.x);
  });
});
