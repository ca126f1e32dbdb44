import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { ExportOperation, IcmMessage, ListIcmMessagesResponse } from '../../src/shapes/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';
import { isoOf, priceOf, u64 } from '../helpers/exact.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
/** The devnet's clock runs `skewMs` ahead of real time, so a test can let an export finish without waiting. */
let skewMs = 0;

async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const res = await stack.query<Data>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

async function direct<T>(path: string, init?: RequestInit): Promise<T> {
  const res = await fetch(stack.devnet.url + path, init);
  // The spec's success status: 201 for the signature aggregator, 200 for the others.
  expect(res.status).toBe(path.startsWith('/v1/signatureAggregator/') ? 201 : 200);
  return (await res.json()) as T;
}

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => Date.now() + skewMs } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

const ICM_FIELDS = `
  id messageId icmContractAddress sourceBlockchainId destinationBlockchainId sourceEvmChainId destinationEvmChainId messageNonce
  from to data messageExecuted receipts { receivedMessageNonce relayerRewardAddress } receiptDelivered
  rewardDetails { address name symbol decimals logoUri ercType ercTypeRaw price { currencyCode currencyCodeRaw value } value }
  sourceTransaction { txHash timestamp time gasSpent }
  destinationTransaction { txHash timestamp time gasSpent rewardRedeemer delivererAddress }
  status statusRaw sourceChain { chainId } destinationChain { chainId }
`;

/** An ICM transaction as served: its block time as UInt64 and DateTime. */
function withTime<T extends { timestamp: number | string }>(tx: T | undefined): (Omit<T, 'timestamp'> & { timestamp: string | null; time: string | null }) | null {
  return tx ? { ...tx, timestamp: u64(tx.timestamp), time: isoOf(tx.timestamp) } : null;
}

function expectMessage(gql: Data, wire: IcmMessage): void {
  expect(gql).toMatchObject({
    messageId: wire.messageId,
    icmContractAddress: wire.icmContractAddress,
    sourceBlockchainId: wire.sourceBlockchainId,
    destinationBlockchainId: wire.destinationBlockchainId,
    sourceEvmChainId: wire.sourceEvmChainId,
    destinationEvmChainId: wire.destinationEvmChainId,
    messageNonce: wire.messageNonce,
    from: wire.from,
    to: wire.to,
    data: wire.data ?? null,
    messageExecuted: wire.messageExecuted,
    receipts: wire.receipts,
    receiptDelivered: wire.receiptDelivered,
    rewardDetails: { ...wire.rewardDetails, ercType: 'ERC_20', ercTypeRaw: wire.rewardDetails.ercType, price: priceOf(wire.rewardDetails.price) },
    sourceTransaction: withTime(wire.sourceTransaction),
    destinationTransaction: withTime(wire.destinationTransaction),
    status: wire.status?.toUpperCase(),
    statusRaw: wire.status,
  });
  expect(gql.sourceChain.chainId).toBe(wire.sourceEvmChainId);
  expect(gql.destinationChain.chainId).toBe(wire.destinationEvmChainId);
}

describe('ICM messages', () => {
  it('walks Query.icmMessages page by page, equal to the upstream listing', async () => {
    const wire = await direct<ListIcmMessagesResponse>(`/v1/icm/addresses/${f.icmAddress}/messages?pageSize=100&network=mainnet`);
    expect(wire.messages.length).toBeGreaterThan(20);
    const q = `query($a: String!, $after: String) { icmMessages(address: $a, network: MAINNET, first: 15, after: $after) {
      edges { node { ${ICM_FIELDS} } } pageInfo { hasNextPage endCursor }
    } }`;
    const nodes: Data[] = [];
    let after: string | null = null;
    for (let i = 0; i < 20; i++) {
      const conn: Data = (await ok(q, { a: f.icmAddress, after })).icmMessages;
      nodes.push(...conn.edges.map((e: Data) => e.node));
      if (!conn.pageInfo.hasNextPage) break;
      after = conn.pageInfo.endCursor;
    }
    expect(nodes).toHaveLength(wire.messages.length);
    nodes.forEach((n, i) => expectMessage(n, wire.messages[i] as IcmMessage));
    expect(nodes.some((n) => n.status === 'DELIVERED')).toBe(true);
    expect(nodes.some((n) => n.status === 'PENDING')).toBe(true);
  });

  it('serves Address.icmMessages and links source and destination transactions to their complete view', async () => {
    const data = await ok(
      `query($id: String!, $a: String!) { chain(chainId: $id) { address(address: $a) { icmMessages(first: 30) { edges { node {
        messageId status sourceEvmChainId
        sourceTransaction { txHash transaction { nativeTransaction { txHash chainId } teleporterMessageInfo { teleporterMessageId direction } } }
        destinationTransaction { txHash transaction { nativeTransaction { txHash chainId } teleporterMessageInfo { teleporterMessageId direction } } }
      } } } } } }`,
      { id: f.evmChainId, a: f.icmAddress },
    );
    const nodes = data.chain.address.icmMessages.edges.map((e: Data) => e.node);
    const delivered = nodes.find((n: Data) => n.destinationTransaction);
    expect(delivered).toBeDefined();
    expect(delivered.sourceTransaction.transaction.nativeTransaction.txHash).toBe(delivered.sourceTransaction.txHash);
    expect(delivered.sourceTransaction.transaction.teleporterMessageInfo).toEqual({ teleporterMessageId: delivered.messageId, direction: 'SOURCE_TRANSACTION' });
    expect(delivered.destinationTransaction.transaction.teleporterMessageInfo).toEqual({ teleporterMessageId: delivered.messageId, direction: 'DESTINATION_TRANSACTION' });
  });

  it('refetches an ICM message with node(id:)', async () => {
    const data = await ok(
      `query($a: String!) {
        all: icmMessages(address: $a, first: 100) { edges { node { id messageId } } }
        net: icmMessages(address: $a, network: TESTNET, first: 3) { edges { node { id messageId } } }
      }`,
      { a: f.icmAddress },
    );
    const last = data.all.edges[data.all.edges.length - 1].node;
    const net = data.net.edges[0].node;
    const back = await ok(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on IcmMessage { messageId status } } }`, { ids: [last.id, net.id] });
    expect(back.nodes[0]).toMatchObject({ __typename: 'IcmMessage', id: last.id, messageId: last.messageId });
    expect(back.nodes[1]).toMatchObject({ __typename: 'IcmMessage', id: net.id, messageId: net.messageId });
  });
});

describe('export operations', () => {
  const CREATE = `mutation($input: CreateTransactionExportInput!) { createTransactionExport(input: $input) { operation {
    id operationId operationType operationStatus message metadata { code downloadUrl nextDate } createdAtTimestamp createdAtTime updatedAtTimestamp updatedAtTime
  } } }`;
  let created: Promise<[Data, Data]>;
  beforeAll(() => {
    created = Promise.all([
      ok(CREATE, { input: { type: 'TRANSACTION_EXPORT_EVM', firstDate: '2024-01-01', lastDate: '2024-03-31', options: { addresses: [f.address], includeChains: [f.evmChainId] } } }),
      ok(CREATE, { input: { type: 'TRANSACTION_EXPORT_EVM', startDate: '2020-01-01', endDate: '2024-01-01', options: { addresses: [f.address], includeChains: [f.evmChainId] } } }),
    ]);
  });
  const OP_FIELDS = 'id operationId operationType operationStatus message metadata { code downloadUrl nextDate } createdAtTimestamp createdAtTime updatedAtTimestamp updatedAtTime';

  it('reads an operation by id and by node(id:); null when it does not exist', async () => {
    const wire = await direct<ExportOperation>(`/v1/operations/${f.operationId}`);
    const data = await ok(
      `query($op: String!) { exportOperation(operationId: $op) { ${OP_FIELDS} } missing: exportOperation(operationId: "00000000-0000-0000-0000-000000000000") { id } }`,
      { op: f.operationId },
    );
    expect(data.missing).toBeNull();
    expect(data.exportOperation).toMatchObject({
      operationId: wire.operationId,
      operationType: wire.operationType,
      operationStatus: wire.operationStatus,
      message: wire.message,
      metadata: { downloadUrl: wire.metadata?.downloadUrl ?? null },
      createdAtTimestamp: u64(wire.createdAtTimestamp),
      createdAtTime: isoOf(wire.createdAtTimestamp),
      updatedAtTimestamp: u64(wire.updatedAtTimestamp),
      updatedAtTime: isoOf(wire.updatedAtTimestamp),
    });
    const back = await ok(`query($id: ID!) { node(id: $id) { id ... on ExportOperation { operationId } } }`, { id: data.exportOperation.id });
    expect(back.node).toEqual({ id: data.exportOperation.id, operationId: f.operationId });
  });

  it('creates an EVM export that moves from RUNNING to a final state', async () => {
    const op = (await created)[0].createTransactionExport.operation;
    expect(op.operationStatus).toBe('RUNNING');
    expect(op.operationType).toBe('TRANSACTION_EXPORT_EVM');
    const read = async (): Promise<Data> =>
      (await ok(`query($op: String!) { exportOperation(operationId: $op) { ${OP_FIELDS} } }`, { op: op.operationId })).exportOperation;
    // Read fresh every time: still RUNNING right after creation, final once the devnet's run time passed.
    expect((await read()).operationStatus).toBe('RUNNING');
    skewMs += 60_000;
    const latest = await read();
    expect(latest.operationStatus).toBe('COMPLETED');
    expect(latest.metadata.downloadUrl).toMatch(/^https:\/\//);
    expect(Number(latest.updatedAtTimestamp)).toBeGreaterThanOrEqual(Number(op.createdAtTimestamp));
    expect(Date.parse(latest.updatedAtTime)).toBe(Number(latest.updatedAtTimestamp) * 1000);
  });

  it('accepts the deprecated date names; a too-long range completes with a warning', async () => {
    const evm = (await created)[1];
    expect(evm.createTransactionExport.operation.operationStatus).toBe('RUNNING');
    const id = evm.createTransactionExport.operation.operationId;
    skewMs += 60_000;
    const op = (await ok(`query($op: String!) { exportOperation(operationId: $op) { operationStatus metadata { code nextDate } } }`, { op: id })).exportOperation;
    expect(op.operationStatus).toBe('COMPLETED_WITH_WARNING');
    expect(op.metadata.code).toBe('WARN_TRUNCATED_EXPORT');
    expect(op.metadata.nextDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('signature aggregation', () => {
  it('reads aggregated signatures of a P-chain transaction (E2)', async () => {
    const wire = await direct<{ signedMessage: string }>(`/v1/signatureAggregator/mainnet/aggregateSignatures/${f.pChainTxHash}`);
    const data = await ok(`query($tx: String!) { network(name: MAINNET) { aggregatedSignatures(txHash: $tx) { signedMessage } } }`, { tx: f.pChainTxHash });
    expect(data.network.aggregatedSignatures.signedMessage).toBe(wire.signedMessage);
  });

  it('answers null when the upstream does not know the transaction (404), and an error for other failures', async () => {
    const q = `query($tx: String!) { network(name: FUJI) { aggregatedSignatures(txHash: $tx) { signedMessage } } }`;
    // The devnet signs any well-formed id, so the upstream's 404 is injected.
    stack.devnet.setChaos({ failNext: 1, faultStatus: 404 });
    const missing = await ok(q, { tx: f.pChainTxHash });
    expect(missing.network.aggregatedSignatures).toBeNull();
    stack.devnet.setChaos({ failNext: 1, faultStatus: 400 });
    const failed = await stack.query<Data>(q, { tx: f.pChainTxHash });
    stack.devnet.setChaos({ faultStatus: 503 });
    expect(failed.errors?.[0]?.extensions?.code).toBe('UPSTREAM_BAD_REQUEST');
    expect(failed.errors?.[0]?.path).toEqual(['network', 'aggregatedSignatures']);
    expect(failed.data?.network).toEqual({ aggregatedSignatures: null });
  });

  it('aggregates signatures for a message or a justification (E1)', async () => {
    const message = `0x0000${'00000001'}${'ab'.repeat(32)}00000004deadbeef`;
    const body = { message, quorumPercentage: 60, quorumPercentageBuffer: 10 };
    const wire = await direct<{ signedMessage: string }>('/v1/signatureAggregator/fuji/aggregateSignatures', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    const m = `mutation($input: AggregateSignaturesInput!) { aggregateSignatures(input: $input) { signedMessage network { name } } }`;
    const data = await ok(m, { input: { network: 'TESTNET', ...body } });
    expect(data.aggregateSignatures).toEqual({ signedMessage: wire.signedMessage, network: { name: 'FUJI' } });
    const justified = await ok(m, { input: { network: 'MAINNET', justification: 'beef', pChainHeight: 12, signingSubnetId: f.subnetId } });
    expect(justified.aggregateSignatures.signedMessage).toMatch(/^[0-9a-f]+$/);
    // The seed needs one of them, not exactly one: with both, the message is signed and the justification backs it.
    const both = await ok(m, { input: { network: 'TESTNET', ...body, justification: 'beef' } });
    expect(both.aggregateSignatures.signedMessage).toBe(wire.signedMessage);
  });
});

describe('bad input', () => {
  const exportInput = (input: Record<string, unknown>) => ({
    input: { type: 'TRANSACTION_EXPORT_EVM', options: { addresses: ['0x' + 'a'.repeat(40)], includeChains: ['43114'] }, ...input },
  });
  const EXPORT = 'mutation($input: CreateTransactionExportInput!) { createTransactionExport(input: $input) { operation { id } } }';
  const AGG = 'mutation($input: AggregateSignaturesInput!) { aggregateSignatures(input: $input) { signedMessage } }';
  const agg = (input: Record<string, unknown>) => ({ input: { network: 'MAINNET', message: '0xabcd', ...input } });
  const cases: [string, string, Record<string, unknown>][] = [
    ['icmMessages short address', 'query($a: String!) { icmMessages(address: $a) { edges { cursor } } }', { a: '0x12' }],
    ['icmMessages first 101', 'query($a: String!) { icmMessages(address: $a, first: 101) { edges { cursor } } }', { a: '0x' + 'c'.repeat(40) }],
    ['operation id with a slash', 'query { exportOperation(operationId: "../chains") { id } }', {}],
    ['export bad date', EXPORT, exportInput({ firstDate: '2024-13-01' })],
    ['export impossible date', EXPORT, exportInput({ lastDate: '2023-02-29' })],
    ['export firstDate after lastDate', EXPORT, exportInput({ firstDate: '2024-05-01', lastDate: '2024-04-01' })],
    ['export startDate after endDate', EXPORT, exportInput({ startDate: '2024-05-01', endDate: '2024-04-01' })],
    ['export both date names', EXPORT, exportInput({ firstDate: '2024-01-01', startDate: '2023-01-01' })],
    ['export no addresses', EXPORT, exportInput({ options: { addresses: [], includeChains: ['43114'] } })],
    ['export bad address', EXPORT, exportInput({ options: { addresses: ['0x12'], includeChains: ['43114'] } })],
    ['export no chains', EXPORT, exportInput({ options: { addresses: ['0x' + 'a'.repeat(40)], includeChains: [] } })],
    // Each type takes its own options: EVM chains and 0x addresses are not a primary-network export's, cChainEvmAddresses not an EVM one's.
    ['export primary-network type', EXPORT, exportInput({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK' })],
    ['export primary-network staking type', EXPORT, exportInput({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_STAKING' })],
    ['export primary-network simple type', EXPORT, exportInput({ type: 'TRANSACTION_EXPORT_PRIMARY_NETWORK_SIMPLE' })],
    ['export cChainEvmAddresses', EXPORT, exportInput({ options: { addresses: ['0x' + 'a'.repeat(40)], includeChains: ['43114'], cChainEvmAddresses: [] } })],
    ['aggregate neither message nor justification', AGG, { input: { network: 'MAINNET' } }],
    ['aggregate bad justification beside a message', AGG, agg({ justification: '0x0' })],
    ['aggregate odd-length hex', AGG, agg({ message: '0xabc' })],
    ['aggregate empty hex', AGG, agg({ message: '0x' })],
    ['aggregate non-hex', AGG, agg({ message: 'zz' })],
    ['aggregate quorum 101', AGG, agg({ quorumPercentage: 101 })],
    ['aggregate negative buffer', AGG, agg({ quorumPercentageBuffer: -1 })],
    ['aggregate quorum + buffer > 100', AGG, agg({ quorumPercentage: 80, quorumPercentageBuffer: 30 })],
    ['aggregate default quorum + buffer > 100', AGG, agg({ quorumPercentageBuffer: 40 })],
    ['aggregate negative pChainHeight', AGG, agg({ pChainHeight: -1 })],
    ['aggregate bad signingSubnetId', AGG, agg({ signingSubnetId: 'not/an/id' })],
    ['aggregatedSignatures bad tx id', 'query { network(name: MAINNET) { aggregatedSignatures(txHash: "abc") { signedMessage } } }', {}],
    ['aggregatedSignatures bad checksum', `query { network(name: MAINNET) { aggregatedSignatures(txHash: "${'2'.repeat(49)}") { signedMessage } } }`, {}],
  ];

  it.each(cases)('%s: BAD_USER_INPUT before any upstream call', async (_name, query, vars) => {
    stack.devnet.resetStats();
    const res: GraphQLResponse = await stack.query(query, vars);
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});
