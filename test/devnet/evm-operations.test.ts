import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';

/**
 * The devnet's ICM messages, export operations and signature aggregation over
 * real HTTP, with a pinned clock so export operations can be moved forward.
 */

interface Json { [k: string]: unknown }
interface Fixtures {
  evmChainId: string;
  address: string;
  icmAddress: string;
  operationId: string;
  pChainTxHash: string;
}
interface Chain { chainId: string; platformChainId: string; isTestnet: boolean; enabledFeatures: string[] }
interface Message extends Json {
  messageId: string;
  sourceBlockchainId: string;
  destinationBlockchainId: string;
  sourceEvmChainId: string;
  destinationEvmChainId: string;
  from: string;
  to: string;
  status: string;
  sourceTransaction: { txHash: string; timestamp: number; gasSpent: string };
  destinationTransaction?: { txHash: string; timestamp: number; gasSpent: string };
}

const DIGITS = /^\d+$/;
const START = Date.UTC(2025, 5, 15, 12, 0, 0);

let clock = START;
let devnet: Devnet;
let fx: Fixtures;
let fuji: Fixtures;
let chains: Chain[];

async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json' };
  }
  const res = await fetch(`${devnet.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Json };
}

/** The spec's success status of an operation: 201 for the signature aggregator's two, 200 for the others here. */
const successOf = (path: string): number => (path.startsWith('/v1/signatureAggregator/') ? 201 : 200);

async function ok<T = Json>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(successOf(path));
  return res.body as T;
}

async function expectError(method: 'GET' | 'POST', path: string, status: number, body?: unknown): Promise<Json> {
  const res = await call(method, path, body);
  expect(res.status, `${method} ${path} ${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).toBe(status);
  expect(res.body).toEqual({ message: expect.any(String), statusCode: status, error: status === 400 ? 'Bad Request' : 'Not Found' });
  return res.body;
}

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60, now: () => clock });
  const all = (await ok<Record<'mainnet' | 'fuji', Fixtures>>('GET', '/__devnet/fixtures'));
  fx = all.mainnet;
  fuji = all.fuji;
  chains = (await ok<{ chains: Chain[] }>('GET', '/v1/chains')).chains;
});

afterAll(async () => {
  await devnet?.close();
});

describe('ICM messages (E16)', () => {
  const path = (): string => `/v1/icm/addresses/${fx.icmAddress}/messages`;

  it('pages more than 15 messages, newest first, across both networks', async () => {
    const all: Message[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const body = await ok<{ messages: Message[]; nextPageToken?: string }>('GET', `${path()}${token ? `?pageToken=${encodeURIComponent(token)}` : ''}`);
      pages += 1;
      if (body.nextPageToken) expect(body.messages).toHaveLength(10);
      all.push(...body.messages);
      token = body.nextPageToken;
    } while (token);
    expect(all.length).toBeGreaterThan(15);
    expect(pages).toBe(Math.ceil(all.length / 10));
    const ts = all.map((m) => m.sourceTransaction.timestamp);
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
    expect(new Set(all.map((m) => m.messageId)).size).toBe(all.length);
    const networks = new Set(all.map((m) => chains.find((c) => c.chainId === m.sourceEvmChainId)?.isTestnet));
    expect([...networks].sort()).toEqual([false, true]);
  });

  it('messages link real chains of the dataset and involve the address', async () => {
    const { messages } = await ok<{ messages: Message[] }>('GET', `${path()}?pageSize=100&network=mainnet`);
    expect(messages.length).toBeGreaterThan(15);
    for (const m of messages) {
      const src = chains.find((c) => c.chainId === m.sourceEvmChainId);
      const dst = chains.find((c) => c.chainId === m.destinationEvmChainId);
      expect(src?.platformChainId).toBe(m.sourceBlockchainId);
      expect(dst?.platformChainId).toBe(m.destinationBlockchainId);
      expect(src?.isTestnet).toBe(false);
      expect(dst?.isTestnet).toBe(false);
      expect(m.sourceEvmChainId).not.toBe(m.destinationEvmChainId);
      expect(m.from === fx.icmAddress || m.to === fx.icmAddress).toBe(true);
      expect(m.messageNonce).toMatch(DIGITS);
      expect(typeof m.messageExecuted).toBe('boolean');
      expect(typeof m.receiptDelivered).toBe('boolean');
      expect(Array.isArray(m.receipts)).toBe(true);
      expect(m.rewardDetails).toMatchObject({ ercType: 'ERC-20', decimals: expect.any(Number), value: expect.stringMatching(DIGITS) });
      expect(Number.isInteger(m.sourceTransaction.timestamp)).toBe(true);
      expect(m.sourceTransaction.gasSpent).toMatch(DIGITS);
      expect(['pending', 'delivered']).toContain(m.status);
    }
    expect(messages.some((m) => m.status === 'pending')).toBe(true);
  });

  it('testnet is fuji, and the source transaction of a message can be looked up', async () => {
    const fujiMessages = (await ok<{ messages: Message[] }>('GET', `${path()}?pageSize=100&network=fuji`)).messages;
    const testnet = (await ok<{ messages: Message[] }>('GET', `${path()}?pageSize=100&network=testnet`)).messages;
    expect(testnet).toEqual(fujiMessages);
    expect(fujiMessages.every((m) => chains.find((c) => c.chainId === m.sourceEvmChainId)?.isTestnet)).toBe(true);

    const m = fujiMessages.find((x) => x.destinationTransaction) as Message;
    const source = await ok<Json>('GET', `/v1/chains/${m.sourceEvmChainId}/transactions/${m.sourceTransaction.txHash}`);
    expect(source.teleporterMessageInfo).toEqual({ teleporterMessageId: m.messageId, direction: 'SOURCE_TRANSACTION', destinationChainId: m.destinationBlockchainId });
    expect((source.nativeTransaction as Json).blockTimestamp).toBe(m.sourceTransaction.timestamp);
    const dest = await ok<Json>('GET', `/v1/chains/${m.destinationEvmChainId}/transactions/${m.destinationTransaction?.txHash}`);
    expect(dest.teleporterMessageInfo).toMatchObject({ direction: 'DESTINATION_TRANSACTION', sourceChainId: m.sourceBlockchainId });
  });

  it('validates the address, network and page size', async () => {
    await expectError('GET', '/v1/icm/addresses/not-an-address/messages', 400);
    await expectError('GET', `/v1/icm/addresses/0x${'a'.repeat(39)}/messages`, 400);
    await expectError('GET', `${path()}?network=devnet`, 400);
    await expectError('GET', `${path()}?pageSize=101`, 400);
    await expectError('GET', `${path()}?pageToken=%%%`, 400);
    const empty = await ok<{ messages: Message[]; nextPageToken?: string }>('GET', `/v1/icm/addresses/0x${'0'.repeat(40)}/messages?pageSize=100`);
    expect(Array.isArray(empty.messages)).toBe(true);
  });
});

describe('export operations (E5)', () => {
  const evmBody = (): Json => ({
    type: 'TRANSACTION_EXPORT_EVM',
    firstDate: '2025-01-01',
    lastDate: '2025-03-31',
    options: { addresses: [fx.address], includeChains: [fx.evmChainId] },
  });

  it('run from RUNNING to COMPLETED as the clock moves', async () => {
    const created = await ok<Json>('POST', '/v1/operations/transactions:export', evmBody());
    expect(created).toMatchObject({ operationType: 'TRANSACTION_EXPORT_EVM', operationStatus: 'RUNNING' });
    expect(created.operationId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.createdAtTimestamp).toBe(Math.floor(START / 1000));
    expect(Number.isInteger(created.updatedAtTimestamp)).toBe(true);
    const id = created.operationId as string;

    expect((await ok<Json>('GET', `/v1/operations/${id}`)).operationStatus).toBe('RUNNING');
    clock += 1_000;
    expect((await ok<Json>('GET', `/v1/operations/${id}`)).operationStatus).toBe('RUNNING');
    clock += 3_000;
    const done = await ok<Json>('GET', `/v1/operations/${id}`);
    expect(done).toMatchObject({ operationId: id, operationStatus: 'COMPLETED', metadata: { downloadUrl: expect.stringMatching(/^https:\/\//) } });
    expect(done.updatedAtTimestamp as number).toBeGreaterThan(done.createdAtTimestamp as number);
  });

  it('FAIL when a chain is unknown, and warn when the range is too long', async () => {
    const failed = await ok<Json>('POST', '/v1/operations/transactions:export', {
      ...evmBody(), options: { addresses: [fx.address], includeChains: [fx.evmChainId, '424242'] },
    });
    const long = await ok<Json>('POST', '/v1/operations/transactions:export', { ...evmBody(), firstDate: '2022-01-01', lastDate: '2025-01-01' });
    clock += 5_000;
    const f = await ok<Json>('GET', `/v1/operations/${String(failed.operationId)}`);
    expect(f).toMatchObject({ operationStatus: 'FAILED', metadata: { code: 'ErrInvalidRequest' }, message: expect.stringContaining('424242') });
    const l = await ok<Json>('GET', `/v1/operations/${String(long.operationId)}`);
    expect(l).toMatchObject({ operationStatus: 'COMPLETED_WITH_WARNING', metadata: { code: 'WarnTruncatedExport', nextDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) } });
  });

  // Each type takes its own options: a primary-network type with EVM chains is refused (test/schema/exports-primary.test.ts runs them).
  it('refuse unknown export types, and primary-network types with EVM options, with 400', async () => {
    for (const type of ['TRANSACTION_EXPORT_PRIMARY_NETWORK', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING', 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE', 'transaction_export_evm', undefined]) {
      await expectError('POST', '/v1/operations/transactions:export', 400, { ...evmBody(), type });
    }
    const op = await ok<Json>('POST', '/v1/operations/transactions:export', evmBody());
    expect(op).toMatchObject({ operationType: 'TRANSACTION_EXPORT_EVM', operationStatus: 'RUNNING' });
  });

  it('reject malformed requests with 400', async () => {
    const bad: unknown[] = [
      'not json',
      [],
      { ...evmBody(), type: 'TRANSACTION_EXPORT_SOLANA' },
      { ...evmBody(), type: undefined },
      { ...evmBody(), options: undefined },
      { ...evmBody(), options: { addresses: [fx.address] } },
      { ...evmBody(), options: { includeChains: [fx.evmChainId] } },
      { ...evmBody(), options: { addresses: 'x', includeChains: [fx.evmChainId] } },
      { ...evmBody(), options: { addresses: ['0x12'], includeChains: [fx.evmChainId] } },
      { ...evmBody(), options: { addresses: [fx.address], includeChains: [] } },
      { ...evmBody(), firstDate: '2025-13-01' },
      { ...evmBody(), lastDate: '01/02/2025' },
      { ...evmBody(), firstDate: '2025-04-01', lastDate: '2025-03-01' },
      { ...evmBody(), firstDate: undefined, lastDate: undefined, startDate: '2025-02-30' },
    ];
    for (const body of bad) await expectError('POST', '/v1/operations/transactions:export', 400, body);
  });

  it('serve the fixture operation, and 404 for unknown ids', async () => {
    for (const f of [fx, fuji]) {
      expect((await ok<Json>('GET', `/v1/operations/${f.operationId}`)).operationStatus).toBe('COMPLETED');
    }
    await expectError('GET', '/v1/operations/00000000-0000-4000-8000-000000000000', 404);
    await expectError('GET', '/v1/operations/nope', 404);
  });
});

describe('signature aggregation (E1, E2)', () => {
  const path = '/v1/signatureAggregator/mainnet/aggregateSignatures';
  const message = `0000${'00000001'}${'ab'.repeat(32)}${'00000004'}deadbeef`;

  it('signs a message deterministically, and the quorum changes the signers', async () => {
    const a = await ok<{ signedMessage: string }>('POST', path, { message: `0x${message}` });
    const b = await ok<{ signedMessage: string }>('POST', path, { message });
    expect(a.signedMessage).toBe(b.signedMessage);
    expect(a.signedMessage).toMatch(/^[0-9a-f]+$/);
    expect(a.signedMessage.startsWith(message)).toBe(true);
    // unsigned ‖ type id ‖ bit-set length ‖ bit set ‖ 96-byte signature
    expect(a.signedMessage.length).toBeGreaterThan(message.length + 8 + 8 + 192);
    const q100 = await ok<{ signedMessage: string }>('POST', path, { message, quorumPercentage: 90, quorumPercentageBuffer: 10 });
    expect(q100.signedMessage).not.toBe(a.signedMessage);
    const other = await ok<{ signedMessage: string }>('POST', path, { message, signingSubnetId: '2ZHY6Pqdaf9J2SaUZk7ZvDtcv1MfHe8Ms8hTMJtbB1pwJRwUm5', pChainHeight: 12345 });
    expect(other.signedMessage).not.toBe(a.signedMessage);
    const j = await ok<{ signedMessage: string }>('POST', '/v1/signatureAggregator/testnet/aggregateSignatures', { justification: '0a0b0c' });
    expect(j.signedMessage).toMatch(/^[0-9a-f]+$/);
    // The seed needs one of message / justification; with both, the message is what is signed.
    const both = await ok<{ signedMessage: string }>('POST', path, { message, justification: 'abcd' });
    expect(both.signedMessage).toBe(b.signedMessage);
  });

  it('rejects bodies outside the seed rules', async () => {
    const bad: unknown[] = [
      'nope',
      {},
      { message, justification: 'abc' },
      { justification: '' },
      { message: '' },
      { message: '0x' },
      { message: 'abc' },
      { message: 'zz' },
      { message: 12 },
      { message, quorumPercentage: 101 },
      { message, quorumPercentage: -1 },
      { message, quorumPercentage: 66.5 },
      { message, quorumPercentage: '67' },
      { message, quorumPercentageBuffer: 101 },
      { message, quorumPercentage: 80, quorumPercentageBuffer: 21 },
      { message, pChainHeight: -1 },
      { message, pChainHeight: 1.5 },
      { message, signingSubnetId: 'not/valid!' },
    ];
    for (const body of bad) await expectError('POST', path, 400, body);
    await expectError('POST', '/v1/signatureAggregator/devnet/aggregateSignatures', 400, { message });
    await ok('POST', path, { message, quorumPercentage: 0, quorumPercentageBuffer: 100, pChainHeight: 0 });
  });

  it('E2 signs the L1-related P-chain transactions of the dataset, 404 for other ids, 400 for malformed ones', async () => {
    const txId = fx.pChainTxHash;
    const a = await ok<{ signedMessage: string }>('GET', `${path}/${txId}`);
    expect(a.signedMessage).toMatch(/^[0-9a-f]+$/);
    expect((await ok<{ signedMessage: string }>('GET', `${path}/${txId}`)).signedMessage).toBe(a.signedMessage);
    const subnets = (await ok<{ subnets: { l1ConversionTransactionHash?: string }[] }>('GET', '/v1/networks/mainnet/subnets')).subnets;
    const conversion = subnets.find((s) => s.l1ConversionTransactionHash)?.l1ConversionTransactionHash;
    if (conversion) await ok('GET', `${path}/${conversion}`);
    await ok('GET', `/v1/signatureAggregator/testnet/aggregateSignatures/${fuji.pChainTxHash}`);
    // A well-formed id that is a blockchain, not an L1-related transaction.
    await expectError('GET', `${path}/2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5`, 404);
    await expectError('GET', `${path}/not-a-tx-id`, 400);
    // One character off: the cb58 checksum fails.
    await expectError('GET', `${path}/${txId.slice(0, -1)}${txId.endsWith('a') ? 'b' : 'a'}`, 400);
    await expectError('GET', `/v1/signatureAggregator/devnet/aggregateSignatures/${txId}`, 400);
  });
});
