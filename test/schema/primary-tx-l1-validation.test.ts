import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { L1Validator } from '../../src/shapes/index.ts';
import { dataOf, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * `PrimaryBlockchain.transactions(l1ValidationId:)`: sent as listLatestPrimaryNetworkTransactions'
 * `l1ValidationId` query parameter (P-chain only, checked before any call), judged by the
 * requests the devnet logs. The devnet's L1 validations are its L1 subnets' validator records,
 * so an L1 validation's transactions are the one that added it.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const ROUTE = 'GET /v1/networks/{network}/blockchains/{blockchainId}/transactions';
let stack: TestStack;
const clock = Date.now();
let validation: L1Validator;

const QUERY = `query($id: String, $chain: String!) { network(name: MAINNET) { blockchain(id: $chain) {
  transactions(first: 10, l1ValidationId: $id) { edges { node { txHash txType ... on PChainTransaction { nodeId subnetId startTimestamp } } } }
} } }`;

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => clock } });
  const first = stack.devnet.dataset.primary.mainnet.listL1Validators({ includeInactive: true }, 0, 1).items[0];
  if (!first) throw new Error('the devnet holds no L1 validation');
  validation = first;
});

afterAll(async () => {
  await stack?.close();
});

const sent = () => stack.devnet.requestLog().filter((e) => e.route === ROUTE).map((e) => new URL(e.target, 'http://devnet'));

describe('PrimaryBlockchain.transactions(l1ValidationId:)', () => {
  it('sends the id as the query parameter and answers the transaction that added that validation', async () => {
    stack.devnet.resetStats();
    const data = await dataOf<Data>(stack, QUERY, { id: validation.validationId, chain: 'p-chain' });
    const urls = sent();
    expect(urls).toHaveLength(1);
    expect(stack.upstreamRequests()).toBe(1);
    expect(urls[0]?.pathname).toBe('/v1/networks/mainnet/blockchains/p-chain/transactions');
    expect(urls[0]?.searchParams.get('l1ValidationId')).toBe(validation.validationId);
    const txs = data.network.blockchain.transactions.edges.map((e: Data) => e.node);
    expect(txs).toHaveLength(1);
    expect(txs[0]).toMatchObject({ txType: 'ADD_SUBNET_VALIDATOR_TX', nodeId: validation.nodeId, subnetId: validation.subnetId, startTimestamp: String(validation.creationTimestamp) });
  });

  it('answers none for a well-formed id of no validation, and leaves the parameter out when not asked', async () => {
    stack.devnet.resetStats();
    const none = await dataOf<Data>(stack, QUERY, { id: 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', chain: 'p-chain' });
    expect(none.network.blockchain.transactions.edges).toEqual([]);
    const all = await dataOf<Data>(stack, QUERY, { chain: 'p-chain' });
    expect(all.network.blockchain.transactions.edges.length).toBeGreaterThan(0);
    const urls = sent();
    expect(urls).toHaveLength(2);
    expect(urls[0]?.searchParams.get('l1ValidationId')).toBe('FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z');
    expect(urls[1]?.searchParams.has('l1ValidationId')).toBe(false);
  });

  it.each([
    ['a malformed id', 'not-a-cb58-id', 'p-chain'],
    ['a 0x id', `0x${'ab'.repeat(32)}`, 'p-chain'],
    ['the X-chain', 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', 'x-chain'],
    ['the C-chain', 'FvwEAhmxKfeiG8SnEvq42hc6whRyY3EFYAvebMqDNDGCgxN5Z', 'c-chain'],
  ])('refuses %s before any call', async (_name, id, chain) => {
    stack.devnet.resetStats();
    const res = await stack.query<Data>(QUERY, { id, chain });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(res.errors?.[0])).toContain('l1ValidationId');
    expect(stack.upstreamRequests()).toBe(0);
  });
});
