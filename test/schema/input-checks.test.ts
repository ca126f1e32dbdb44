import { bech32, bech32m } from 'bech32';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { encodeCb58 as cb58 } from '../../src/lib/base58.ts';
import { INPUT_LIMITS } from '../../src/schema/input-checks.ts';
import { PRIMARY_CHAIN_IDS } from '../../src/shapes/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// One table per argument, through GraphQL against the devnet: every bad value is refused
// with BAD_USER_INPUT (NODE_NOT_CONFIGURED for node names) naming the argument, and
// reaches no upstream; every good value passes the checks (whatever the upstream then
// answers, it is not a 400: what the gateway lets through, the upstream accepts).

const TOKEN = 'input-checks-admin';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let stack: TestStack;
let main: NetworkFixtures;
let fuji: NetworkFixtures;

beforeAll(async () => {
  stack = await startStack({ gateway: { adminToken: TOKEN } });
  ({ mainnet: main, fuji } = stack.devnet.dataset.fixtures());
});
afterAll(async () => {
  await stack?.close();
});

// ---------------------------------------------------------------- values built from the fixtures

const body = (address: string): string => address.slice(address.indexOf('-') + 1);
const wordsOf = (address: string): number[] => bech32.decode(body(address)).words;
/** The same 20 bytes under another hrp, with a valid checksum. */
const withHrp = (address: string, hrp: string): string => bech32.encode(hrp, wordsOf(address));
/** The last checksum character changed: still bech32 characters, wrong checksum. */
const badChecksum = (text: string): string => text.slice(0, -1) + (text.endsWith('q') ? 'p' : 'q');
/** A base58 character in the middle changed: still base58, wrong checksum. */
const badCb58 = (text: string): string => text.slice(0, 12) + (text[12] === '2' ? '3' : '2') + text.slice(13);
const nodeIdOf = (fill: number): string => `NodeID-${cb58(Buffer.alloc(20, fill))}`;
const idOf = (fill: number): string => cb58(Buffer.alloc(32, fill));
const evm = (fill: string): string => `0x${fill.repeat(40)}`;
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

interface ArgTable {
  /** The argument as errors name it (`filter.nodeIds`, `input.alias`). */
  argument: string;
  /** An operation with one variable, `$v` (a function when it needs the fixtures). */
  query: string | (() => string);
  good: () => unknown[];
  bad: () => unknown[];
  /** Code of the refusal (default BAD_USER_INPUT). */
  code?: string;
}

const P_ADDRESSES = (): unknown[] => [[main.pChainAddress], [body(main.pChainAddress)], [main.pChainAddress, main.xChainAddress]];
const BAD_PRIMARY = (prefix = 'P-'): unknown[] => [
  [''],
  ['avax1x'],
  [badChecksum(main.pChainAddress)],
  [`${prefix}${withHrp(main.pChainAddress, 'local')}`],
  [`${prefix}${bech32m.encode('avax', wordsOf(main.pChainAddress))}`],
  [`${prefix}${bech32.encode('avax', bech32.toWords(Buffer.alloc(32, 1)))}`],
  [main.pChainAddress.toUpperCase()],
  [`p-${body(main.pChainAddress)}`],
  [`P-${withHrp(main.pChainAddress, 'fuji')}`],
  [`${main.pChainAddress},${main.xChainAddress}`],
  many(INPUT_LIMITS.addresses + 1, () => main.pChainAddress),
];
const GOOD_NODE_IDS = (): unknown[] => [[main.nodeId], [main.nodeId, nodeIdOf(1)], many(INPUT_LIMITS.nodeIds, (i) => nodeIdOf(i))];
const BAD_NODE_IDS = (): unknown[] => [
  [''],
  ['NodeID-'],
  [main.nodeId.slice(0, 12)],
  [badCb58(main.nodeId)],
  [main.nodeId.replace('NodeID-', 'nodeid-')],
  [`${main.nodeId},${nodeIdOf(2)}`],
  [`NodeID-${cb58(Buffer.alloc(32, 1))}`],
  many(INPUT_LIMITS.nodeIds + 1, (i) => nodeIdOf(i)),
];
const BAD_CB58 = (): unknown[] => ['', 'not an id', badCb58(main.subnetId), main.subnetId.slice(0, 20), cb58(Buffer.alloc(20, 3)), '1'.repeat(4000), `${main.subnetId}/..`];
const BAD_EVM = (): unknown[] => ['', '0x12', evm('g'), `${evm('a')}0`, evm('a').slice(2), ` ${evm('a')}`, `${evm('a')}/../x`];
const BAD_NODE_NAMES = (): unknown[] => ['nope', '', 'MAINNET', 'mainnet ', 'x'.repeat(10_000)];

const TABLES: ArgTable[] = [
  // ------------------------------------------------------------ staking
  {
    argument: 'filter.nodeIds',
    query: 'query($v: [String!]) { network(name: MAINNET) { validators(first: 1, filter: { nodeIds: $v }) { edges { cursor } } } }',
    good: GOOD_NODE_IDS,
    bad: BAD_NODE_IDS,
  },
  {
    argument: 'filter.subnetId',
    query: 'query($v: String) { network(name: MAINNET) { validators(first: 1, filter: { subnetId: $v }) { edges { cursor } } } }',
    good: () => [main.subnetId, PRIMARY_CHAIN_IDS.mainnet.p, idOf(9)],
    bad: BAD_CB58,
  },
  {
    argument: 'filter.minTimeRemaining',
    query: 'query($v: Int) { network(name: MAINNET) { validators(first: 1, filter: { minTimeRemaining: $v }) { edges { cursor } } } }',
    good: () => [0, 2147483647],
    bad: () => [-1, -2147483648],
  },
  {
    argument: 'nodeId',
    query: 'query($v: String!) { network(name: MAINNET) { validator(nodeId: $v) { nodeId } } }',
    good: () => [main.nodeId, nodeIdOf(4)],
    bad: () => ['', 'NodeID-', badCb58(main.nodeId), main.nodeId.slice(0, 20), `${main.nodeId}x`, `NodeID-${'1'.repeat(5000)}`],
  },
  {
    argument: 'filter.nodeIds',
    query: 'query($v: [String!]) { network(name: FUJI) { delegators(first: 1, filter: { nodeIds: $v }) { edges { cursor } } } }',
    good: () => [[fuji.nodeId], many(INPUT_LIMITS.nodeIds, (i) => nodeIdOf(i))],
    bad: BAD_NODE_IDS,
  },
  {
    argument: 'filter.rewardAddresses',
    query: 'query($v: [String!]) { network(name: MAINNET) { delegators(first: 1, filter: { rewardAddresses: $v }) { edges { cursor } } } }',
    good: () => [[main.rewardAddress], [`P-${main.rewardAddress}`], many(INPUT_LIMITS.addresses, () => main.rewardAddress)],
    bad: () => [...BAD_PRIMARY(), [`X-${main.rewardAddress}`], [withHrp(main.rewardAddress, 'fuji')]],
  },
  {
    argument: 'addresses',
    query: 'query($v: [String!]) { network(name: MAINNET) { historicalRewards(first: 1, addresses: $v) { edges { cursor } } } }',
    good: P_ADDRESSES,
    bad: () => [...BAD_PRIMARY(), [`C-${body(main.pChainAddress)}`], [withHrp(main.pChainAddress, 'fuji')], []],
  },
  {
    argument: 'nodeIds',
    query: 'query($v: [String!]) { network(name: MAINNET) { historicalRewards(first: 1, nodeIds: $v) { edges { cursor } } } }',
    good: GOOD_NODE_IDS,
    bad: () => [...BAD_NODE_IDS(), []],
  },
  {
    argument: 'addresses',
    query: 'query($v: [String!]) { network(name: FUJI) { pendingRewards(first: 1, addresses: $v) { edges { cursor } } } }',
    good: () => [[fuji.pChainAddress], [body(fuji.pChainAddress)]],
    bad: () => [[main.pChainAddress], [badChecksum(fuji.pChainAddress)], many(INPUT_LIMITS.addresses + 1, () => fuji.pChainAddress)],
  },
  {
    argument: 'nodeIds',
    query: 'query($v: [String!]) { network(name: FUJI) { pendingRewards(first: 1, nodeIds: $v) { edges { cursor } } } }',
    good: () => [[fuji.nodeId]],
    bad: BAD_NODE_IDS,
  },
  {
    argument: 'subnetId',
    query: 'query($v: String!) { network(name: MAINNET) { subnet(subnetId: $v) { subnetId } } }',
    good: () => [main.subnetId, main.l1SubnetId, PRIMARY_CHAIN_IDS.mainnet.p, idOf(5)],
    bad: BAD_CB58,
  },
  // ------------------------------------------------------------ primary-network chains
  {
    argument: 'id',
    query: 'query($v: String!) { network(name: MAINNET) { blockchain(id: $v) { blockchainId } } }',
    good: () => ['p-chain', 'X-Chain', 'C-CHAIN', PRIMARY_CHAIN_IDS.mainnet.x, PRIMARY_CHAIN_IDS.mainnet.c],
    bad: () => ['', 'q-chain', 'pchain', main.pChainTxHash, main.subnetId, idOf(6), PRIMARY_CHAIN_IDS.fuji.x, PRIMARY_CHAIN_IDS.fuji.c, 'p-chain/../x', 'x'.repeat(5000)],
  },
  {
    argument: 'blockchainId',
    query: 'subscription($v: String!) { blocks(network: FUJI, blockchainId: $v) { blockNumber } }',
    good: () => [],
    bad: () => ['', 'q-chain', idOf(7), PRIMARY_CHAIN_IDS.mainnet.x, main.pChainTxHash],
  },
  {
    argument: 'addresses',
    query: 'query($v: [String!]!) { network(name: MAINNET) { blockchain(id: "p-chain") { utxos(first: 1, addresses: $v) { edges { cursor } } } } }',
    good: () => [[main.pChainAddress], [main.pChainAddress, main.xChainAddress, `C-${body(main.pChainAddress)}`], many(INPUT_LIMITS.addresses, () => main.pChainAddress)],
    bad: () => [...BAD_PRIMARY(), [], [`Q-${body(main.pChainAddress)}`], [`P-${body(fuji.pChainAddress)}`]],
  },
  {
    argument: 'assetId',
    query: () => `query($v: String) { network(name: MAINNET) { blockchain(id: "x-chain") { utxos(first: 1, addresses: ["${main.xChainAddress}"], assetId: $v) { edges { cursor } } } } }`,
    good: () => [main.xAssetId, main.avaxAssetId],
    bad: BAD_CB58,
  },
  {
    argument: 'minUtxoAmount',
    // UInt64: what is not a uint64 (-1, 0.5, 1e300, hex) is refused by the scalar (test/schema/exact-types.test.ts);
    // the bound refuses what the upstream cannot read exactly.
    query: () => `query($v: UInt64) { network(name: MAINNET) { blockchain(id: "p-chain") { utxos(first: 1, addresses: ["${main.pChainAddress}"], minUtxoAmount: $v) { edges { cursor } } } } }`,
    good: () => [0, '1500', Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
    bad: () => ['9007199254740992', '18446744073709551615'],
  },
  {
    argument: 'startTimestamp',
    query: 'query($v: UInt64) { network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1, startTimestamp: $v) { edges { cursor } } } } }',
    good: () => [0, 1_700_000_000, '4102444800', String(Number.MAX_SAFE_INTEGER)],
    bad: () => ['9007199254740992', '18446744073709551615'],
  },
  {
    argument: 'txHash',
    query: 'query($v: String!) { network(name: MAINNET) { aggregatedSignatures(txHash: $v) { signedMessage } } }',
    good: () => [main.pChainTxHash, idOf(8)],
    bad: () => [...BAD_CB58(), evm('a').padEnd(66, 'b')],
  },
  // ------------------------------------------------------------ EVM
  {
    argument: 'chainId',
    query: 'query($v: String!) { chain(chainId: $v) { chainId } }',
    // `c-chain` is the C-Chain of the field's network (see test/schema/evm.test.ts); the other aliases name no EVM chain.
    good: () => [main.evmChainId, '43113', '1', main.blockchainId, '18446744073709551615', 'c-chain', 'C-CHAIN'],
    bad: () => ['', ' ', '0', '043114', '-1', '43114 ', 'p-chain', 'x-chain', 'c-chain ', '1'.repeat(21), badCb58(main.blockchainId), '43114/../../v1', '1e5'],
  },
  {
    argument: 'address',
    query: `query($v: String!) { chain(chainId: "43114") { address(address: $v) { address } } }`,
    good: () => [main.address, main.address.toUpperCase().replace('0X', '0x'), evm('0')],
    bad: BAD_EVM,
  },
  {
    argument: 'txHash',
    query: `query($v: String!) { chain(chainId: "43114") { transaction(txHash: $v) { __typename } } }`,
    good: () => [main.txHash, `0x${'0'.repeat(64)}`],
    bad: () => ['', '0x12', main.pChainTxHash, `${main.txHash}0`, main.txHash.slice(2), `0x${'z'.repeat(64)}`],
  },
  {
    argument: 'address',
    query: `query($v: String!) { chain(chainId: "43114") { contractDeployment(address: $v) { __typename } } }`,
    good: () => [main.contractAddress],
    bad: BAD_EVM,
  },
  {
    argument: 'tokenId',
    query: `query($v: String!) { chain(chainId: "43114") { nftToken(address: "${evm('a')}", tokenId: $v) { __typename } } }`,
    good: () => ['0', '1', '9'.repeat(78)],
    bad: () => ['', '-1', '0x1', '1.5', '9'.repeat(79), '1 ', '1/../2'],
  },
  {
    argument: 'blockNumber',
    query: `query($v: String) { chain(chainId: "43114") { address(address: "${evm('a')}") { nativeBalance(blockNumber: $v) { __typename } } } }`,
    good: () => ['0', '12345'],
    bad: () => ['', 'latest', '-1', '0x10', '1'.repeat(79)],
  },
  {
    argument: 'contractAddress',
    query: `query($v: String) { chain(chainId: "43114") { address(address: "${evm('a')}") { erc1155Balances(first: 1, contractAddress: $v) { edges { cursor } } } } }`,
    good: () => [main.erc1155Contract],
    bad: BAD_EVM,
  },
  {
    argument: 'startBlock',
    query: `query($v: UInt64) { chain(chainId: "43114") { address(address: "${evm('a')}") { transactions(first: 1, startBlock: $v) { edges { cursor } } } } }`,
    good: () => [0, 100, '3000000000'],
    bad: () => ['9007199254740992'],
  },
  {
    argument: 'address',
    query: 'query($v: String!) { icmMessages(first: 1, address: $v) { edges { cursor } } }',
    good: () => [main.icmAddress],
    bad: BAD_EVM,
  },
  {
    argument: 'operationId',
    query: 'query($v: String!) { exportOperation(operationId: $v) { operationId } }',
    good: () => [main.operationId, '00000000-0000-0000-0000-000000000000'],
    bad: () => ['', 'op-1', '../chains', `${main.operationId}/..`, main.operationId.slice(1), 'x'.repeat(200)],
  },
  // ------------------------------------------------------------ mutations (Data API)
  {
    argument: 'input.options.addresses',
    query: 'mutation($v: [String!]!) { createTransactionExport(input: { type: TRANSACTION_EXPORT_EVM, options: { addresses: $v, includeChains: ["43114"] } }) { operation { operationId } } }',
    good: () => [[main.address], many(INPUT_LIMITS.addresses, (i) => evm(String(i % 10)))],
    bad: () => [[], ['0x12'], [main.pChainAddress], many(INPUT_LIMITS.addresses + 1, () => main.address)],
  },
  {
    argument: 'input.options.includeChains',
    query: `mutation($v: [String!]!) { createTransactionExport(input: { type: TRANSACTION_EXPORT_EVM, options: { addresses: ["${evm('a')}"], includeChains: $v } }) { operation { operationId } } }`,
    good: () => [['43114'], [main.blockchainId]],
    bad: () => [[], [''], ['c-chain'], ['43114,43113'], many(INPUT_LIMITS.includeChains + 1, (i) => String(i + 1))],
  },
  {
    argument: 'input.firstDate',
    query: `mutation($v: String) { createTransactionExport(input: { type: TRANSACTION_EXPORT_EVM, firstDate: $v, options: { addresses: ["${evm('a')}"], includeChains: ["43114"] } }) { operation { operationId } } }`,
    good: () => ['2024-02-29', '2020-01-01'],
    bad: () => ['', '2023-02-29', '2024-13-01', '2024-1-1', '24-01-01', 'yesterday', '2024-01-01T00:00:00Z'],
  },
  {
    argument: 'input.message',
    query: 'mutation($v: String) { aggregateSignatures(input: { network: MAINNET, message: $v }) { signedMessage } }',
    good: () => ['beef', '0xBEEF'],
    bad: () => ['', '0x', 'abc', 'zz', '0xgg', 'ab'.repeat(INPUT_LIMITS.hexBytes + 1)],
  },
  {
    argument: 'input.signingSubnetId',
    query: 'mutation($v: String) { aggregateSignatures(input: { network: MAINNET, message: "beef", signingSubnetId: $v }) { signedMessage } }',
    good: () => [main.subnetId, `0x${'ab'.repeat(32)}`, 'cd'.repeat(32)],
    bad: () => ['', 'not/an/id', 'beef', badCb58(main.subnetId), `0x${'ab'.repeat(33)}`],
  },
  {
    argument: 'input.pChainHeight',
    query: 'mutation($v: UInt64) { aggregateSignatures(input: { network: MAINNET, message: "beef", pChainHeight: $v }) { signedMessage } }',
    good: () => [0, 12, '12'],
    bad: () => ['9007199254740992'],
  },
  // ------------------------------------------------------------ nodes
  {
    argument: 'name',
    query: 'query($v: String) { avalancheNode(name: $v) { name } }',
    good: () => ['mainnet', 'fuji', null],
    bad: BAD_NODE_NAMES,
    code: 'NODE_NOT_CONFIGURED',
  },
  {
    argument: 'node',
    query: `query($v: String) { network(name: MAINNET) { validator(nodeId: "${nodeIdOf(1)}") { peer(node: $v) { nodeID } } } }`,
    good: () => ['mainnet', 'fuji', null],
    bad: BAD_NODE_NAMES,
    code: 'NODE_NOT_CONFIGURED',
  },
  {
    argument: 'node',
    query: 'subscription($v: String) { nodeHealth(node: $v) { healthy } }',
    good: () => [],
    bad: BAD_NODE_NAMES,
    code: 'NODE_NOT_CONFIGURED',
  },
  {
    argument: 'input.node',
    query: 'mutation($v: String) { adminMemoryProfile(input: { node: $v }) { avalancheNode { name } } }',
    good: () => ['mainnet', null],
    bad: BAD_NODE_NAMES,
    code: 'NODE_NOT_CONFIGURED',
  },
  {
    argument: 'input.node',
    query: 'mutation($v: String) { adminSetLoggerLevel(input: { node: $v, logLevel: "INFO" }) { avalancheNode { name } } }',
    good: () => ['fuji'],
    bad: BAD_NODE_NAMES,
    code: 'NODE_NOT_CONFIGURED',
  },
  {
    argument: 'nodeIds',
    query: 'query($v: [String!]) { avalancheNode { peers(first: 1, nodeIds: $v) { totalCount } } }',
    good: () => [[main.nodeId], many(INPUT_LIMITS.peerNodeIds, (i) => nodeIdOf(i % 256))],
    bad: () => [[''], [badCb58(main.nodeId)], ['NodeID-'], many(INPUT_LIMITS.peerNodeIds + 1, (i) => nodeIdOf(i % 256))],
  },
  {
    argument: 'chain',
    query: 'query($v: String!) { avalancheNode { isBootstrapped(chain: $v) } }',
    good: () => ['X', 'P', PRIMARY_CHAIN_IDS.mainnet.x, 'no-such-alias'],
    bad: () => ['', ' X', 'X\n', 'a b', 'x'.repeat(INPUT_LIMITS.aliasChars + 1)],
  },
  {
    argument: 'alias',
    query: 'query($v: String!) { avalancheNode { blockchainId(alias: $v) } }',
    good: () => ['X', 'bc/X'],
    bad: () => ['', '\t', 'x'.repeat(INPUT_LIMITS.aliasChars + 1)],
  },
  {
    argument: 'chain',
    query: 'query($v: String!) { avalancheNode { chainAliases(chain: $v) } }',
    good: () => [PRIMARY_CHAIN_IDS.mainnet.x, idOf(10)],
    bad: () => ['', 'X', badCb58(PRIMARY_CHAIN_IDS.mainnet.x)],
  },
  {
    argument: 'loggerName',
    query: 'query($v: String) { avalancheNode { loggerLevels(loggerName: $v) { name } } }',
    good: () => ['main', 'C', null],
    bad: () => ['', 'a b', 'x'.repeat(INPUT_LIMITS.nameLength + 1), 'main\n'],
  },
  {
    argument: 'subnetId',
    query: 'query($v: String) { avalancheNode { uptime(subnetId: $v) { __typename } } }',
    good: () => [main.subnetId, null],
    bad: BAD_CB58,
  },
  {
    argument: 'tags',
    query: 'query($v: [String!]) { avalancheNode { health(tags: $v) { healthy } } }',
    good: () => [[main.subnetId], [], many(INPUT_LIMITS.healthTags, (i) => `t${i}`)],
    bad: () => [[''], ['a b'], ['x'.repeat(INPUT_LIMITS.nameLength + 1)], many(INPUT_LIMITS.healthTags + 1, (i) => `t${i}`)],
  },
  {
    argument: 'tags',
    query: 'query($v: [String!]) { avalancheNode { healthStatus(path: READINESS, tags: $v) { httpStatus } } }',
    good: () => [['C']],
    bad: () => [['?tag=x&y'], many(INPUT_LIMITS.healthTags + 1, (i) => `t${i}`)],
  },
  {
    argument: 'input.endpoint',
    query: 'mutation($v: String!) { adminAlias(input: { endpoint: $v, alias: "unused-alias" }) { path } }',
    good: () => [],
    bad: () => ['', '../admin', 'bc/../admin', 'bc//X', '/info', 'info/', 'a b'],
  },
  {
    argument: 'input.alias',
    query: 'mutation($v: String!) { adminAlias(input: { endpoint: "info", alias: $v }) { path } }',
    // The seed counts characters: 512 of them pass whatever their bytes (é is 2 bytes, 😀 two UTF-16 units and 4 bytes).
    good: () => ['info-alias-1', 'h'.repeat(INPUT_LIMITS.aliasChars), 'é'.repeat(INPUT_LIMITS.aliasChars), '😀'.repeat(INPUT_LIMITS.aliasChars)],
    bad: () => ['', '..', 'a/../b', 'with space', 'é'.repeat(INPUT_LIMITS.aliasChars + 1), '😀'.repeat(INPUT_LIMITS.aliasChars + 1), 'x'.repeat(INPUT_LIMITS.aliasChars + 1)],
  },
  {
    argument: 'input.chain',
    query: 'mutation($v: String!) { adminAliasChain(input: { chain: $v, alias: "chain-alias-1" }) { alias } }',
    good: () => ['X'],
    bad: () => ['', 'a\u0000b', 'x'.repeat(INPUT_LIMITS.aliasChars + 1)],
  },
  {
    argument: 'input.loggerName',
    query: 'mutation($v: String) { adminSetLoggerLevel(input: { loggerName: $v, logLevel: "INFO" }) { avalancheNode { name } } }',
    good: () => ['main'],
    bad: () => ['', 'a b', 'x'.repeat(INPUT_LIMITS.nameLength + 1)],
  },
];

const REFUSALS = new Set(['BAD_USER_INPUT', 'NODE_NOT_CONFIGURED']);

async function run(query: string, v: unknown): Promise<GraphQLResponse> {
  stack.devnet.resetStats();
  if (!query.startsWith('subscription')) return stack.query(query, { v }, AUTH);
  // A subscription refused before its first poll answers one event; an accepted one is cut short.
  const controller = new AbortController();
  const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...AUTH },
    body: JSON.stringify({ query, variables: { v } }),
    signal: controller.signal,
  });
  const text = await response.text();
  const line = text.split('\n').find((l) => l.startsWith('data:'));
  return line ? (JSON.parse(line.slice(5)) as GraphQLResponse) : {};
}

describe('every argument refuses bad values before any upstream call, naming itself', () => {
  let cases = 0;
  afterAll(() => {
    console.info(`input-checks: ${cases} argument cases through GraphQL`);
  });

  for (const table of TABLES) {
    const text = typeof table.query === 'string' ? table.query : table.query.toString();
    const label = `${table.argument} in ${text.replace(/^.*?\{ /, '').slice(0, 70)}`;
    it(label, async () => {
      const query = typeof table.query === 'string' ? table.query : table.query();
      for (const value of table.bad()) {
        const result = await run(query, value);
        const shown = JSON.stringify(value).slice(0, 80);
        const error = result.errors?.find((e) => REFUSALS.has(String(e.extensions?.['code'])));
        expect(error?.extensions, `${shown} -> ${JSON.stringify(result.errors)?.slice(0, 300)}`).toMatchObject({
          code: table.code ?? 'BAD_USER_INPUT',
          argumentName: table.argument,
        });
        // Refused values are not echoed in full.
        expect(error?.message.length ?? 0).toBeLessThan(400);
        expect(stack.upstreamRequests(), shown).toBe(0);
        cases += 1;
      }
      for (const value of table.good()) {
        const result = await run(query, value);
        const codes = (result.errors ?? []).map((e) => e.extensions?.['code']);
        const shown = JSON.stringify(value).slice(0, 80);
        expect(codes, `${shown} -> ${JSON.stringify(result.errors)?.slice(0, 300)}`).not.toContain('BAD_USER_INPUT');
        expect(codes, shown).not.toContain('NODE_NOT_CONFIGURED');
        expect(codes, shown).not.toContain('UPSTREAM_BAD_REQUEST');
        cases += 1;
      }
    });
  }
});
