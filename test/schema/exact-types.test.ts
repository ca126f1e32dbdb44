import fc from 'fast-check';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import {
  DateTimeScalar,
  EvmAddressScalar,
  HashScalar,
  HexScalar,
  IPScalar,
  MAX_DATE_TIME_SECONDS,
  UInt256Scalar,
  UInt64Scalar,
  unixSecondsToDate,
  URLScalar,
} from '../../src/schema/scalars.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { startCaptureServer, type CaptureServer, type CapturedRequest, type CannedAnswer } from '../upstream/capture-server.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

const MAX_U64 = (1n << 64n) - 1n;
const MAX_U64_TEXT = MAX_U64.toString();
const UINT64 = /^(0|[1-9][0-9]*)$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The code a scalar's input refusal carries. */
function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof GraphQLError ? error.extensions['code'] : 'NOT_A_GRAPHQL_ERROR';
  }
  return 'ACCEPTED';
}

describe('UInt64', () => {
  it('serializes every uint64, as a bigint or a decimal string, to its decimal string', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_U64 }), (n) => {
        expect(UInt64Scalar.serialize(n)).toBe(n.toString());
        expect(UInt64Scalar.serialize(n.toString())).toBe(n.toString());
      }),
    );
    expect(UInt64Scalar.serialize(MAX_U64_TEXT)).toBe(MAX_U64_TEXT);
    expect(UInt64Scalar.serialize(`0x${'f'.repeat(16)}`)).toBe(MAX_U64_TEXT);
  });

  it('serializes a JSON number as the integer it holds; 2^64 (what JSON.parse makes of 2^64 - 1) is the largest uint64', () => {
    fc.assert(fc.property(fc.maxSafeNat(), (n) => {
      expect(UInt64Scalar.serialize(n)).toBe(String(n));
    }));
    expect(UInt64Scalar.serialize(JSON.parse(MAX_U64_TEXT))).toBe(MAX_U64_TEXT);
    expect(UInt64Scalar.serialize(2 ** 60)).toBe((1n << 60n).toString());
  });

  it('does not serialize what is not a uint64', () => {
    for (const bad of [-1, 1.5, 2 ** 65, Number.NaN, '-1', '1.5', (MAX_U64 + 1n).toString(), '1'.repeat(41), -1n, MAX_U64 + 1n, {}, true]) {
      expect(() => UInt64Scalar.serialize(bad), String(bad)).toThrow('The upstream sent a value for this field that is not a valid UInt64.');
    }
  });

  it('parses every uint64 given as a decimal string, and safe integers', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: MAX_U64 }), (n) => {
      expect(UInt64Scalar.parseValue(n.toString())).toBe(n.toString());
    }));
    fc.assert(fc.property(fc.maxSafeNat(), (n) => {
      expect(UInt64Scalar.parseValue(n)).toBe(String(n));
    }));
  });

  it('refuses negatives, fractions, 2^64 and above, hex, blanks, leading zeros and huge strings with BAD_USER_INPUT', () => {
    const refused = [-1, -0.5, 1.5, 2 ** 53, 1e300, '-1', '-0', '1.5', '1e3', (MAX_U64 + 1n).toString(), '99999999999999999999', '0x10', ' 1', '1 ', '01', '', '1'.repeat(100_000), null, true, {}];
    for (const value of refused) expect(codeOf(() => UInt64Scalar.parseValue(value)), String(value).slice(0, 40)).toBe('BAD_USER_INPUT');
    fc.assert(
      fc.property(fc.bigInt({ min: MAX_U64 + 1n, max: 1n << 80n }), (n) => {
        expect(codeOf(() => UInt64Scalar.parseValue(n.toString()))).toBe('BAD_USER_INPUT');
      }),
    );
    fc.assert(fc.property(fc.string(), (s) => {
      const accepted = /^(0|[1-9][0-9]{0,19})$/.test(s) && BigInt(s) <= MAX_U64;
      expect(codeOf(() => UInt64Scalar.parseValue(s))).toBe(accepted ? 'ACCEPTED' : 'BAD_USER_INPUT');
    }));
  });
});

describe('DateTime beside unix seconds', () => {
  it('shows every second from 1970 to the end of year 9999 in UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_DATE_TIME_SECONDS }), (seconds) => {
        const shown = DateTimeScalar.serialize(unixSecondsToDate(seconds));
        expect(shown).toMatch(ISO_UTC);
        expect(Date.parse(shown as string)).toBe(seconds * 1000);
        expect(unixSecondsToDate(String(seconds))?.getTime()).toBe(seconds * 1000);
      }),
    );
    expect(DateTimeScalar.serialize(unixSecondsToDate(MAX_DATE_TIME_SECONDS))).toBe('9999-12-31T23:59:59.000Z');
    expect(DateTimeScalar.serialize(unixSecondsToDate(0))).toBe('1970-01-01T00:00:00.000Z');
  });

  it('is null, never an error, past year 9999 (a milliseconds value among them), for negatives and for what is not a number', () => {
    fc.assert(fc.property(fc.bigInt({ min: BigInt(MAX_DATE_TIME_SECONDS) + 1n, max: MAX_U64 }), (n) => {
      expect(unixSecondsToDate(n.toString())).toBeNull();
    }));
    for (const value of [Date.UTC(2024, 0, 1), 2 ** 64, -1, Number.NaN, 'soon', '', null, undefined]) expect(unixSecondsToDate(value)).toBeNull();
  });
});

describe('UInt256', () => {
  it('serializes its whole range', () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (n) => {
      expect(UInt256Scalar.serialize(n.toString())).toBe(n.toString());
    }));
    expect(UInt256Scalar.serialize(((1n << 256n) - 1n).toString())).toBe(((1n << 256n) - 1n).toString());
  });
});

describe('format scalars', () => {
  const scalars = [EvmAddressScalar, HashScalar, HexScalar, URLScalar, IPScalar];

  it('pass any string the upstream sends through unchanged', () => {
    for (const scalar of scalars) fc.assert(fc.property(fc.string(), (s) => {
      expect(scalar.serialize(s)).toBe(s);
    }));
    expect(EvmAddressScalar.serialize('0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7')).toBe('0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7');
    expect(URLScalar.serialize('https://example.com')).toBe('https://example.com');
  });

  it('accept their form on input, in either case', () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-fA-F]{40}$/), (hex) => {
      expect(EvmAddressScalar.parseValue(`0x${hex}`)).toBe(`0x${hex}`);
      expect(EvmAddressScalar.parseValue(`0x${hex.toUpperCase()}`)).toBe(`0x${hex.toUpperCase()}`);
    }));
    expect(HashScalar.parseValue(`0x${'Ab'.repeat(32)}`)).toBe(`0x${'Ab'.repeat(32)}`);
    expect(HexScalar.parseValue('0x')).toBe('0x');
    expect(URLScalar.parseValue('ipfs://bafy/1.json')).toBe('ipfs://bafy/1.json');
    expect(IPScalar.parseValue('2001:db8::1')).toBe('2001:db8::1');
  });

  it('refuse anything else on input with BAD_USER_INPUT', () => {
    const cases: [typeof EvmAddressScalar, unknown[]][] = [
      [EvmAddressScalar, ['', '0x', `0x${'a'.repeat(39)}`, `0x${'a'.repeat(41)}`, 'a'.repeat(40), ` 0x${'a'.repeat(40)}`, `0x${'g'.repeat(40)}`, 42]],
      [HashScalar, [`0x${'a'.repeat(63)}`, 'a'.repeat(64), `0x${'a'.repeat(64)} `]],
      [HexScalar, ['beef', '0xg', ' 0x1', 'x'.repeat(5000)]],
      [URLScalar, ['not a url', '/relative/path', '']],
      [IPScalar, ['1.2.3.4:9651', '256.0.0.1', 'localhost']],
    ];
    for (const [scalar, values] of cases) {
      for (const value of values) expect(codeOf(() => scalar.parseValue(value)), `${scalar.name} ${String(value).slice(0, 40)}`).toBe('BAD_USER_INPUT');
    }
  });
});

// ---------------------------------------------------------------- through the stack, against the devnet

/** Every UInt64 field of a response is a decimal string, and its DateTime is that many seconds in UTC. */
const PAIRS: readonly [raw: string, time: string][] = [
  ['startTimestamp', 'startTime'], ['endTimestamp', 'endTime'], ['blockTimestamp', 'blockTime'], ['timestamp', 'time'],
  ['createBlockTimestamp', 'createBlockTime'], ['locktime', 'lockedUntil'], ['platformLocktime', 'platformLockedUntil'],
  ['stakeableLocktime', 'stakeableLockedUntil'], ['consumingBlockTimestamp', 'consumingBlockTime'], ['utxoStartTimestamp', 'utxoStartTime'],
  ['utxoEndTimestamp', 'utxoEndTime'], ['proposerTimestamp', 'proposerTime'], ['vertexTimestamp', 'vertexTime'], ['removeTimestamp', 'removeTime'],
  ['createdAtTimestamp', 'createdAtTime'], ['updatedAtTimestamp', 'updatedAtTime'], ['metadataLastUpdatedTimestamp', 'metadataLastUpdatedTime'],
  ['subnetEVMTimestamp', 'subnetEVMTime'], ['upgradeTime', 'upgradeAt'],
];
const PLAIN_UINT64 = ['threshold', 'proposerPChainHeight', 'vertexHeight', 'vertexIndex'];

/** Checks every pair in `value`; returns how many raw values it saw. */
function checkExact(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, item) => n + checkExact(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  let seen = 0;
  for (const [raw, time] of PAIRS) {
    if (!(raw in record) || record[raw] === null) continue;
    seen += 1;
    expect(record[raw], raw).toMatch(UINT64);
    expect(record[time], time).toBe(new Date(Number(record[raw]) * 1000).toISOString());
  }
  for (const raw of PLAIN_UINT64) if (record[raw] != null) expect(record[raw], raw).toMatch(UINT64);
  return seen + Object.values(record).reduce((n: number, item) => n + checkExact(item), 0);
}

describe('through the stack (devnet)', () => {
  let stack: TestStack;
  let f: NetworkFixtures;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 60 } });
    f = stack.devnet.dataset.fixtures().mainnet;
  });
  afterAll(async () => {
    await stack?.close();
  });

  async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
    const res = await stack.query<Data>(query, variables);
    expect(res.errors, JSON.stringify(res.errors)?.slice(0, 400)).toBeUndefined();
    return res.data;
  }

  it('serves every time the devnet has as UInt64 with its DateTime, and other uint64 values as decimal strings', async () => {
    const data = await ok(`query($p: [String!]!, $x: [String!]!) { network(name: MAINNET) {
      validators(first: 5) { edges { node { startTimestamp startTime endTimestamp endTime ... on RemovedValidator { removeTimestamp removeTime } } } }
      delegators(first: 5) { edges { node { startTimestamp startTime endTimestamp endTime } } }
      subnets(first: 5) { edges { node { createBlockTimestamp createBlockTime locktime lockedUntil threshold
        subnetOwnershipInfo { locktime lockedUntil threshold }
        blockchains { createBlockTimestamp createBlockTime genesis { config { subnetEVMTimestamp subnetEVMTime warpConfig { blockTimestamp blockTime } } } } } } }
      historicalRewards(addresses: $p, first: 3) { edges { node { startTimestamp startTime endTimestamp endTime } } }
      pendingRewards(addresses: $p, first: 3) { edges { node { startTimestamp startTime endTimestamp endTime } } }
      p: blockchain(id: "p-chain") {
        blocks(first: 5) { edges { node { blockTimestamp blockTime proposerDetails { proposerPChainHeight proposerTimestamp proposerTime } } } }
        utxos(addresses: $p, first: 5, includeSpent: true) { edges { node { blockTimestamp blockTime consumingBlockTimestamp consumingBlockTime
          platformLocktime platformLockedUntil stakeableLocktime stakeableLockedUntil threshold utxoStartTimestamp utxoStartTime utxoEndTimestamp utxoEndTime } } } }
      x: blockchain(id: "x-chain") { vertices(first: 3) { edges { node { vertexHeight vertexIndex vertexTimestamp vertexTime } } }
        utxos(addresses: $x, first: 3) { edges { node { blockTimestamp blockTime } } } } }
      avalancheNode { peers(first: 3) { edges { node { upgradeTime upgradeAt } } } } }`, { p: [f.pChainAddress], x: [f.xChainAddress] });
    expect(checkExact(data)).toBeGreaterThan(60);
    const v = data.network.validators.edges[0].node;
    expect(typeof v.startTimestamp).toBe('string');
    expect(data.network.subnets.edges.length).toBeGreaterThan(0);
  });

  it('serves EVM, ICM and export times the same way', async () => {
    const data = await ok(`query($op: String!, $icm: String!) {
      chain(chainId: "${f.evmChainId}") {
        transaction(txHash: "${f.txHash}") { nativeTransaction { blockTimestamp blockTime txHash blockHash }
          erc721Transfers { erc721Token { address metadata { metadataLastUpdatedTimestamp metadataLastUpdatedTime } } } }
        address(address: "${f.address}") { address nativeTransactions(first: 3) { edges { node { blockTimestamp blockTime } } } } }
      icmMessages(address: $icm, network: MAINNET, first: 3) { edges { node { icmContractAddress
        sourceTransaction { timestamp time } destinationTransaction { timestamp time } } } }
      exportOperation(operationId: $op) { createdAtTimestamp createdAtTime updatedAtTimestamp updatedAtTime metadata { downloadUrl } } }`, {
      op: f.operationId,
      icm: f.icmAddress,
    });
    expect(checkExact(data)).toBeGreaterThan(5);
    expect(data.chain.transaction.nativeTransaction.txHash).toMatch(/^0x[0-9a-fA-F]{64}$/);
    expect(data.chain.address.address).toBe(f.address);
  });

  // Each UInt64 argument, as a variable and as a literal: refused before any upstream call.
  const ARGUMENTS: [name: string, operation: (value: string) => string][] = [
    ['startTimestamp', (v) => `network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1, startTimestamp: ${v}) { edges { cursor } } } }`],
    ['endTimestamp', (v) => `network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1, endTimestamp: ${v}) { edges { cursor } } } }`],
    ['minUtxoAmount', (v) => `network(name: MAINNET) { blockchain(id: "p-chain") { utxos(addresses: ["${f.pChainAddress}"], first: 1, minUtxoAmount: ${v}) { edges { cursor } } } }`],
    ['startBlock', (v) => `chain(chainId: "43114") { address(address: "0x${'a'.repeat(40)}") { transactions(first: 1, startBlock: ${v}) { edges { cursor } } } }`],
    ['endBlock', (v) => `chain(chainId: "43114") { address(address: "0x${'a'.repeat(40)}") { nativeTransactions(first: 1, endBlock: ${v}) { edges { cursor } } } }`],
  ];
  // graphql-js writes a refused variable's whole value into its message, so the long one here stays short of a page.
const BAD_VARIABLES: unknown[] = [-1, -0.5, 1.5, 2 ** 64, '-1', '1.5', (MAX_U64 + 1n).toString(), '0x10', ' 1', '1 ', '1'.repeat(300)];
  const BAD_LITERALS = ['-1', '1.5', '"-1"', '"1.5"', `${MAX_U64 + 1n}`, `"${MAX_U64 + 1n}"`, '"0x10"', '" 1"', 'true', `"${'1'.repeat(10_000)}"`];

  for (const [name, operation] of ARGUMENTS) {
    it(`refuses a bad ${name} with BAD_USER_INPUT before any upstream call`, async () => {
      stack.devnet.resetStats();
      for (const value of BAD_VARIABLES) {
        const res = await stack.query(`query($v: UInt64) { ${operation('$v')} }`, { v: value });
        expect(res.errors?.[0]?.extensions, `${name} = ${String(value).slice(0, 30)}`).toMatchObject({ code: 'BAD_USER_INPUT', variableName: 'v' });
      }
      for (const literal of BAD_LITERALS) {
        const res = await stack.query(`{ ${operation(literal)} }`);
        expect(res.errors?.[0]?.extensions?.['code'], `${name}: ${literal.slice(0, 30)}`).toBe('BAD_USER_INPUT');
        expect(res.errors?.[0]?.message.length ?? 0).toBeLessThan(400);
      }
      // A uint64 beyond what the upstream reads exactly passes the scalar and is refused by the bound.
      const res = await stack.query(`{ ${operation(`"${MAX_U64}"`)} }`);
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: name });
      expect(stack.devnet.stats().requests).toBe(0);
    });
  }

  it('refuses a bad pChainHeight before any upstream call, and takes a decimal string', async () => {
    stack.devnet.resetStats();
    const mutation = 'mutation($v: UInt64) { aggregateSignatures(input: { network: MAINNET, message: "beef", pChainHeight: $v }) { signedMessage } }';
    for (const value of BAD_VARIABLES) {
      const res = await stack.query(mutation, { v: value });
      expect(res.errors?.[0]?.extensions, String(value).slice(0, 30)).toMatchObject({ code: 'BAD_USER_INPUT' });
    }
    expect(stack.devnet.stats().requests).toBe(0);
    const good = await stack.query<Data>(mutation, { v: '12' });
    expect(good.errors).toBeUndefined();
    expect(good.data.aggregateSignatures.signedMessage).toMatch(/^(0x)?[0-9a-fA-F]+$/);
  });

  it('takes time and amount filters as decimal strings', async () => {
    const latest = (await ok('{ network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 1) { edges { node { blockTimestamp } } } } } }')).network.blockchain.blocks.edges[0].node;
    const end = String(BigInt(latest.blockTimestamp) - 50n);
    const data = await ok(`query($s: UInt64, $e: UInt64) { network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 20, startTimestamp: $s, endTimestamp: $e) {
      edges { node { blockTimestamp blockTime } } } } } }`, { s: String(BigInt(end) - 30n), e: end });
    const blocks = data.network.blockchain.blocks.edges.map((e: Data) => e.node);
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) expect(BigInt(b.blockTimestamp) <= BigInt(end)).toBe(true);
    checkExact(blocks);
  });
});

// ---------------------------------------------------------------- a stubbed upstream at the top of each range

describe('the top of each range, from a stubbed upstream', () => {
  let upstream: CaptureServer;
  let gateway: Gateway;
  /** Seed-form answers whose numbers sit at the top of their ranges (or are sent in milliseconds). */
  const answers: Record<string, unknown> = {};

  beforeAll(async () => {
    upstream = await startCaptureServer();
    upstream.fallback = (req: CapturedRequest): CannedAnswer => {
      if (req.method === 'POST' && req.url.startsWith('/ext/')) {
        const call = JSON.parse(req.body) as { id: number; method: string };
        return { raw: numbersAsSent({ jsonrpc: '2.0', id: call.id, result: answers[call.method] ?? {} }), headers: { 'content-type': 'application/json' } };
      }
      const path = req.url.split('?')[0] ?? '';
      return { raw: numbersAsSent(answers[path] ?? {}), headers: { 'content-type': 'application/json' } };
    };
    gateway = createGateway(
      { graphiql: false },
      { dataApi: createDataApiClient({ baseUrl: upstream.url, apiKey: 'stub' }), nodes: [createNodeClient({ name: 'stub', url: upstream.url })] },
    );
  });
  afterAll(async () => {
    await gateway?.dispose();
    await upstream?.close();
  });

  async function run(query: string): Promise<GraphQLResponse<Data>> {
    const response = await gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return (await response.json()) as GraphQLResponse<Data>;
  }

  // The numbers travel as the upstream sends them: the literal 18446744073709551615, which JSON.parse alone
  // reads as 2^64 (JSON.stringify would write that double as 18446744073709552000, another number).
  const MAX = '<uint64 max>';
  const numbersAsSent = (value: unknown): string => JSON.stringify(value).replaceAll(JSON.stringify(MAX), MAX_U64_TEXT);
  const LAST_SECOND = MAX_DATE_TIME_SECONDS;
  const MILLISECONDS = Date.UTC(2024, 4, 1);

  it('serves uint64 maxima, the last representable second and millisecond values without an error', async () => {
    answers['/v1/networks/mainnet/subnets'] = {
      subnets: [{
        createBlockTimestamp: LAST_SECOND,
        createBlockIndex: MAX_U64_TEXT,
        subnetId: '11111111111111111111111111111111LpoYY',
        ownerAddresses: [],
        threshold: MAX,
        locktime: MAX,
        subnetOwnershipInfo: { locktime: MILLISECONDS, threshold: 2 ** 53 - 1, addresses: [] },
        isL1: false,
        blockchains: [],
      }],
    };
    answers['/v1/networks/mainnet/blockchains/11111111111111111111111111111111LpoYY/blocks'] = {
      blocks: [{
        blockNumber: MAX_U64_TEXT,
        blockHash: 'h',
        parentHash: 'p',
        blockType: 'ApricotProposalBlock',
        blockTimestamp: MAX,
        txCount: 0,
        transactions: [],
        blockSizeBytes: 0,
        proposerDetails: { proposerPChainHeight: MAX, proposerTimestamp: MILLISECONDS },
      }],
    };
    answers['info.peers'] = {
      numPeers: '1',
      peers: [{ ip: '203.0.113.7:9651', publicIP: '203.0.113.7:9651', nodeID: 'NodeID-111111111111111111116DBWJs', version: 'avalanchego/1.14.2',
        lastSent: '2024-05-01T00:00:00Z', lastReceived: '2024-05-01T00:00:00Z', benched: [], observedUptime: '100', trackedSubnets: [], upgradeTime: MAX }],
    };
    const res = await run(`{ network(name: MAINNET) {
      subnets(first: 1) { edges { node { createBlockTimestamp createBlockTime createBlockIndex threshold locktime lockedUntil
        subnetOwnershipInfo { locktime lockedUntil threshold } } } }
      blockchain(id: "p-chain") { blocks(first: 1) { edges { node { blockNumber blockTimestamp blockTime proposerDetails { proposerPChainHeight proposerTimestamp proposerTime } } } } } }
      avalancheNode { peers(first: 1) { edges { node { ip upgradeTime upgradeAt } } } } }`);
    expect(res.errors, JSON.stringify(res.errors)?.slice(0, 400)).toBeUndefined();
    const subnet = res.data.network.subnets.edges[0].node;
    expect(subnet).toEqual({
      createBlockTimestamp: String(LAST_SECOND),
      createBlockTime: '9999-12-31T23:59:59.000Z',
      createBlockIndex: MAX_U64_TEXT,
      threshold: MAX_U64_TEXT,
      locktime: MAX_U64_TEXT,
      lockedUntil: null,
      subnetOwnershipInfo: { locktime: String(MILLISECONDS), lockedUntil: null, threshold: String(2 ** 53 - 1) },
    });
    expect(res.data.network.blockchain.blocks.edges[0].node).toEqual({
      blockNumber: MAX_U64_TEXT,
      blockTimestamp: MAX_U64_TEXT,
      blockTime: null,
      proposerDetails: { proposerPChainHeight: MAX_U64_TEXT, proposerTimestamp: String(MILLISECONDS), proposerTime: null },
    });
    expect(res.data.avalancheNode.peers.edges[0].node).toEqual({ ip: '203.0.113.7:9651', upgradeTime: MAX_U64_TEXT, upgradeAt: null });
  });

  it('passes malformed and checksum-case addresses, hashes and URLs through', async () => {
    answers['/v1/chains'] = {
      chains: [{
        chainId: '43114', status: 'OK', chainName: 'C', description: 'd', vmName: 'EVM', rpcUrl: 'not a url', explorerUrl: 'https://Example.com',
        isTestnet: false, networkToken: { name: 'A', symbol: 'A', decimals: 18 }, utilityAddresses: { multicall: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7' },
      }],
    };
    const res = await run('{ chains { chainId rpcUrl explorerUrl utilityAddresses { multicall } } }');
    expect(res.errors, JSON.stringify(res.errors)?.slice(0, 400)).toBeUndefined();
    expect(res.data.chains[0]).toEqual({
      chainId: '43114',
      rpcUrl: 'not a url',
      explorerUrl: 'https://Example.com',
      utilityAddresses: { multicall: '0xB31f66AA3C1e785363F0875A1B74E27b85FD66c7' },
    });
  });
});
