import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID, type Blockchain, type GenesisData, type Subnet } from '../../src/shapes/index.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';
import { isoOf, u64 } from '../helpers/exact.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
let api: DataApi;
/** Every subnet of mainnet, read directly. */
let allSubnets: Subnet[];

async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const res = await stack.query<Data>(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const nodes = (connection: Data): Data[] => connection.edges.map((e: Data) => e.node);

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
  api = createDataApiClient({ baseUrl: stack.devnet.url, apiKey: 'direct' });
  allSubnets = (await api.listSubnets('mainnet', { pageSize: 10000 })).subnets;
});

afterAll(async () => {
  await stack?.close();
});

const GENESIS_FIELDS = `
  config {
    chainId homesteadBlock eip150Block eip150Hash eip155Block eip158Block byzantiumBlock constantinopleBlock petersburgBlock
    istanbulBlock muirGlacierBlock berlinBlock londonBlock subnetEVMTimestamp subnetEVMTime allowFeeRecipients
    feeConfig { baseFeeChangeDenominator blockGasCostStep gasLimit maxBlockGasCost minBaseFee minBlockGasCost targetBlockRate targetGas }
    warpConfig { blockTimestamp blockTime quorumNumerator requirePrimaryNetworkSigners }
    txAllowListConfig { blockTimestamp blockTime adminAddresses managerAddresses enabledAddresses }
    contractDeployerAllowListConfig { blockTimestamp blockTime adminAddresses managerAddresses enabledAddresses }
    contractNativeMinterConfig { blockTimestamp blockTime adminAddresses managerAddresses enabledAddresses }
    feeManagerConfig { blockTimestamp blockTime adminAddresses managerAddresses enabledAddresses }
    rewardManagerConfig { blockTimestamp blockTime adminAddresses managerAddresses enabledAddresses }
  }
  alloc { address balance code storage }
  airdropAmount airdropHash baseFeePerGas blobGasUsed coinbase difficulty excessBlobGas extraData gasLimit gasUsed mixHash nonce number parentHash timestamp
`;

const BLOCKCHAIN_FIELDS = `
  __typename id network createBlockTimestamp createBlockTime createBlockNumber blockchainId vmId subnetId blockchainName evmChainId genesisData
  genesis { ${GENESIS_FIELDS} }
`;

const SUBNET_FIELDS = `
  __typename id network subnetId isPrimaryNetwork createBlockTimestamp createBlockTime createBlockIndex ownerAddresses threshold locktime lockedUntil
  subnetOwnershipInfo { locktime lockedUntil threshold addresses } isL1 l1ConversionTransactionHash
  l1ValidatorManagerDetails { blockchainId contractAddress blockchain { blockchainId subnetId } }
  blockchains { ${BLOCKCHAIN_FIELDS} }
`;

const decimal = (value: number | string | null | undefined): string | null => (value == null ? null : BigInt(value).toString());

/** A precompile config as served: its activation time as UInt64 and DateTime. */
function allowList<T extends { blockTimestamp: number | string }>(config: T | undefined): (Omit<T, 'blockTimestamp'> & { blockTimestamp: string | null; blockTime: string | null }) | undefined {
  return config && { ...config, blockTimestamp: u64(config.blockTimestamp), blockTime: isoOf(config.blockTimestamp) };
}

function expectGenesis(gql: Data, wire: GenesisData): void {
  const c = wire.config;
  expect(gql.config).toMatchObject({
    chainId: decimal(c.chainId),
    homesteadBlock: decimal(c.homesteadBlock),
    londonBlock: decimal(c.londonBlock),
    eip150Hash: c.eip150Hash,
    subnetEVMTimestamp: u64(c.subnetEVMTimestamp),
    subnetEVMTime: isoOf(c.subnetEVMTimestamp),
    allowFeeRecipients: c.allowFeeRecipients,
    feeConfig: Object.fromEntries(Object.entries(c.feeConfig).map(([k, v]) => [k, decimal(v)])),
    warpConfig: { ...c.warpConfig, blockTimestamp: u64(c.warpConfig.blockTimestamp), blockTime: isoOf(c.warpConfig.blockTimestamp) },
    txAllowListConfig: allowList(c.txAllowListConfig),
    contractDeployerAllowListConfig: allowList(c.contractDeployerAllowListConfig),
    contractNativeMinterConfig: allowList(c.contractNativeMinterConfig),
    feeManagerConfig: allowList(c.feeManagerConfig),
    rewardManagerConfig: allowList(c.rewardManagerConfig),
  });
  expect(gql.alloc).toEqual(Object.entries(wire.alloc).map(([address, a]) => ({ address, balance: a.balance ?? null, code: a.code ?? null, storage: a.storage ?? null })));
  expect(gql).toMatchObject({
    airdropAmount: decimal(wire.airdropAmount),
    airdropHash: wire.airdropHash,
    baseFeePerGas: decimal(wire.baseFeePerGas),
    blobGasUsed: wire.blobGasUsed,
    coinbase: wire.coinbase,
    difficulty: wire.difficulty,
    excessBlobGas: wire.excessBlobGas,
    extraData: wire.extraData,
    gasLimit: wire.gasLimit,
    gasUsed: wire.gasUsed,
    mixHash: wire.mixHash,
    nonce: wire.nonce,
    number: wire.number,
    parentHash: wire.parentHash,
    timestamp: wire.timestamp,
  });
}

function expectBlockchain(gql: Data, wire: Blockchain): void {
  expect(gql).toMatchObject({
    __typename: 'Blockchain',
    network: 'mainnet',
    createBlockTimestamp: u64(wire.createBlockTimestamp),
    createBlockTime: isoOf(wire.createBlockTimestamp),
    createBlockNumber: wire.createBlockNumber,
    blockchainId: wire.blockchainId,
    vmId: wire.vmId,
    subnetId: wire.subnetId,
    blockchainName: wire.blockchainName,
    evmChainId: decimal(wire.evmChainId),
    genesisData: wire.genesisData ?? null,
  });
  if (typeof wire.genesisData === 'object') expectGenesis(gql.genesis, wire.genesisData);
  else expect(gql.genesis).toBeNull();
}

function expectSubnet(gql: Data, wire: Subnet): void {
  expect(gql).toMatchObject({
    __typename: 'Subnet',
    network: 'mainnet',
    subnetId: wire.subnetId,
    isPrimaryNetwork: wire.subnetId === PRIMARY_NETWORK_ID,
    createBlockTimestamp: u64(wire.createBlockTimestamp),
    createBlockTime: isoOf(wire.createBlockTimestamp),
    createBlockIndex: wire.createBlockIndex,
    ownerAddresses: wire.ownerAddresses,
    threshold: u64(wire.threshold),
    locktime: u64(wire.locktime),
    lockedUntil: isoOf(wire.locktime),
    subnetOwnershipInfo: {
      ...wire.subnetOwnershipInfo,
      locktime: u64(wire.subnetOwnershipInfo.locktime),
      lockedUntil: isoOf(wire.subnetOwnershipInfo.locktime),
      threshold: u64(wire.subnetOwnershipInfo.threshold),
    },
    isL1: wire.isL1,
    l1ConversionTransactionHash: wire.l1ConversionTransactionHash ?? null,
  });
  if (wire.l1ValidatorManagerDetails) {
    expect(gql.l1ValidatorManagerDetails).toEqual({
      ...wire.l1ValidatorManagerDetails,
      blockchain: { blockchainId: wire.l1ValidatorManagerDetails.blockchainId, subnetId: wire.subnetId },
    });
  } else {
    expect(gql.l1ValidatorManagerDetails).toBeNull();
  }
  expect(gql.blockchains).toHaveLength(wire.blockchains.length);
  gql.blockchains.forEach((b: Data, i: number) => expectBlockchain(b, wire.blockchains[i] as Blockchain));
}

describe('Network.subnets', () => {
  it('walks the subnet list page by page with every field, equal to E7', async () => {
    const query = `query($after: String) { network(name: MAINNET) { subnets(first: 3, after: $after) {
      pageInfo { hasNextPage endCursor } edges { cursor node { ${SUBNET_FIELDS} } } } } }`;
    const walked: Data[] = [];
    let after: string | null = null;
    for (let page = 0; page < 3; page++) {
      const data = await ok(query, { after });
      walked.push(...nodes(data.network.subnets));
      if (!data.network.subnets.pageInfo.hasNextPage) break;
      after = data.network.subnets.pageInfo.endCursor;
    }
    expect(walked.length).toBe(Math.min(9, allSubnets.length));
    walked.forEach((gql, i) => expectSubnet(gql, allSubnets[i] as Subnet));
  });

  it('sorts ascending on request', async () => {
    const data = await ok(`{ network(name: MAINNET) { subnets(first: 4, sortOrder: ASC) { edges { node { subnetId } } } } }`);
    const wire = await api.listSubnets('mainnet', { pageSize: 4, sortOrder: 'asc' });
    expect(nodes(data.network.subnets).map((s) => s.subnetId)).toEqual(wire.subnets.map((s) => s.subnetId));
  });
});

describe('Network.subnet', () => {
  const QUERY = `query($id: String!) { network(name: MAINNET) { subnet(subnetId: $id) { ${SUBNET_FIELDS} } } }`;

  it('serves an L1 with its validator manager and blockchains', async () => {
    const wire = allSubnets.find((s) => s.subnetId === f.l1SubnetId) as Subnet;
    expect(wire.isL1).toBe(true);
    const data = await ok(QUERY, { id: f.l1SubnetId });
    expectSubnet(data.network.subnet, wire);
  });

  it('serves the primary network, which E7 does not list, with the P, X and C chains', async () => {
    const data = await ok(QUERY, { id: PRIMARY_NETWORK_ID });
    const s = data.network.subnet;
    expect(s).toMatchObject({ subnetId: PRIMARY_NETWORK_ID, isPrimaryNetwork: true, isL1: false });
    expect(s.blockchains.map((b: Data) => [b.blockchainId, b.blockchainName, b.subnetId])).toEqual([
      [PRIMARY_CHAIN_IDS.mainnet.p, 'P-Chain', PRIMARY_NETWORK_ID],
      [PRIMARY_CHAIN_IDS.mainnet.x, 'X-Chain', PRIMARY_NETWORK_ID],
      [PRIMARY_CHAIN_IDS.mainnet.c, 'C-Chain', PRIMARY_NETWORK_ID],
    ]);
    expect(s.blockchains[2].evmChainId).toBe('43114');
  });

  it('answers null for a subnet that does not exist, and reads the list once for many lookups', async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($a: String!, $b: String!) { network(name: MAINNET) {
      missing: subnet(subnetId: "G2tdbQSvZJDeH6TLx4rukJb9chMVeT75wgVxHvLHfifhPftZ9") { subnetId }
      a: subnet(subnetId: $a) { subnetId } b: subnet(subnetId: $b) { subnetId } } }`, { a: f.subnetId, b: f.l1SubnetId });
    expect(data.network).toEqual({ missing: null, a: { subnetId: f.subnetId }, b: { subnetId: f.l1SubnetId } });
    expect(stack.devnet.stats().byRoute).toEqual({ 'GET /v1/networks/{network}/subnets': 1 });
  });

  it('serves fuji and testnet from the fuji list', async () => {
    const fuji = stack.devnet.dataset.fixtures().fuji;
    const data = await ok(`query($id: String!) { a: network(name: FUJI) { subnet(subnetId: $id) { network subnetId } } b: network(name: TESTNET) { subnet(subnetId: $id) { network } } }`, {
      id: fuji.subnetId,
    });
    expect(data).toEqual({ a: { subnet: { network: 'fuji', subnetId: fuji.subnetId } }, b: { subnet: { network: 'fuji' } } });
  });
});

describe('links', () => {
  it('links 50 validators to their subnets with one subnet listing', async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { validators(first: 50) { edges { node { subnetId subnet { subnetId isPrimaryNetwork blockchains { blockchainId } } } } } } }`);
    const validators = nodes(data.network.validators);
    expect(validators).toHaveLength(50);
    for (const v of validators) {
      expect(v.subnet.subnetId).toBe(v.subnetId);
      expect(v.subnet.isPrimaryNetwork).toBe(v.subnetId === PRIMARY_NETWORK_ID);
    }
    expect(validators.some((v) => v.subnetId === PRIMARY_NETWORK_ID)).toBe(true);
    expect(validators.some((v) => v.subnetId !== PRIMARY_NETWORK_ID)).toBe(true);
    expect(stack.devnet.stats().byRoute).toEqual({ 'GET /v1/networks/{network}/validators': 1, 'GET /v1/networks/{network}/subnets': 1 });
  });

  it('links blockchains to their subnet and to their indexed EVM chain', async () => {
    stack.devnet.resetStats();
    const data = await ok(`{ network(name: MAINNET) { subnets(first: 20) { edges { node { subnetId blockchains {
      blockchainId subnetId evmChainId subnet { subnetId } evmChain { chainId platformChainId } } } } } } }`);
    const chains = nodes(data.network.subnets).flatMap((s) => s.blockchains);
    expect(chains.some((c: Data) => c.evmChain)).toBe(true);
    for (const c of chains) {
      expect(c.subnet.subnetId).toBe(c.subnetId);
      if (c.evmChain) expect(c.evmChain.chainId).toBe(c.evmChainId);
      if (c.evmChainId === null) expect(c.evmChain).toBeNull();
    }
    // One page of subnets, the subnet list once for the links, the chain list once.
    expect(stack.devnet.stats().byRoute).toEqual({ 'GET /v1/networks/{network}/subnets': 2, 'GET /v1/chains': 1 });
  });

  it("serves a subnet's validators with the subnet pinned, page by page", async () => {
    const query = `query($id: String!, $after: String) { network(name: MAINNET) { subnet(subnetId: $id) { validators(first: 2, after: $after) {
      pageInfo { hasNextPage endCursor } edges { node { nodeId txHash subnetId } } } } } }`;
    const one = await ok(query, { id: f.subnetId });
    const two = await ok(query, { id: f.subnetId, after: one.network.subnet.validators.pageInfo.endCursor });
    const got = [...nodes(one.network.subnet.validators), ...nodes(two.network.subnet.validators)];
    const wire = await api.listValidators('mainnet', { subnetId: f.subnetId, pageSize: 4 });
    expect(got.map((v) => v.txHash)).toEqual(wire.validators.map((v) => v.txHash));
    for (const v of got) expect(v.subnetId).toBe(f.subnetId);

    const res = await stack.query(`query($id: String!) { network(name: MAINNET) { subnet(subnetId: $id) { validators(filter: { subnetId: "${PRIMARY_NETWORK_ID}" }) { edges { cursor } } } } }`, {
      id: f.subnetId,
    });
    expect(res.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
  });
});

describe('node(id:) refetch', () => {
  it('round-trips Subnet and Blockchain ids, the primary network included', async () => {
    const data = await ok(`query($a: String!, $b: String!) { network(name: MAINNET) {
      a: subnet(subnetId: $a) { ${SUBNET_FIELDS} } b: subnet(subnetId: $b) { id blockchains { id blockchainName } } } }`, { a: f.l1SubnetId, b: PRIMARY_NETWORK_ID });
    const subnet = data.network.a;
    const again = await ok(`query($id: ID!) { node(id: $id) { ... on Subnet { ${SUBNET_FIELDS} } } }`, { id: subnet.id });
    expect(again.node).toEqual(subnet);

    const chain = subnet.blockchains[0];
    const chainAgain = await ok(`query($id: ID!) { node(id: $id) { ... on Blockchain { ${BLOCKCHAIN_FIELDS} } } }`, { id: chain.id });
    expect(chainAgain.node).toEqual(chain);

    const primary = await ok(`query($ids: [ID!]!) { nodes(ids: $ids) { __typename ... on Subnet { subnetId } ... on Blockchain { blockchainName } } }`, {
      ids: [data.network.b.id, ...data.network.b.blockchains.map((b: Data) => b.id)],
    });
    expect(primary.nodes).toEqual([
      { __typename: 'Subnet', subnetId: PRIMARY_NETWORK_ID },
      { __typename: 'Blockchain', blockchainName: 'P-Chain' },
      { __typename: 'Blockchain', blockchainName: 'X-Chain' },
      { __typename: 'Blockchain', blockchainName: 'C-Chain' },
    ]);
  });

  it('refetches an unknown subnet as null', async () => {
    // Well-formed (cb58 with its checksum) but unknown; a malformed id is BAD_USER_INPUT.
    const id = Buffer.from(JSON.stringify(['Subnet', 'mainnet', '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm'])).toString('base64url');
    expect((await ok(`query($id: ID!) { node(id: $id) { id } }`, { id })).node).toBeNull();
  });
});

describe('bad input is refused before any upstream call', () => {
  const cases: [string, string][] = [
    ['subnet with an empty id', `{ network(name: MAINNET) { subnet(subnetId: "") { subnetId } } }`],
    ['subnet with a malformed id', `{ network(name: MAINNET) { subnet(subnetId: "not a subnet!") { subnetId } } }`],
    ['subnets first 0', `{ network(name: MAINNET) { subnets(first: 0) { edges { cursor } } } }`],
    ['subnets first 10001', `{ network(name: MAINNET) { subnets(first: 10001) { edges { cursor } } } }`],
    ['Subnet.validators first 101', `{ network(name: MAINNET) { subnet(subnetId: "${PRIMARY_NETWORK_ID}") { validators(first: 101) { edges { cursor } } } } }`],
    ['Subnet.validators fee below 2', `{ network(name: MAINNET) { subnet(subnetId: "${PRIMARY_NETWORK_ID}") { validators(filter: { minFeePercentage: 1 }) { edges { cursor } } } } }`],
    ['Subnet.validators UNKNOWN status', `{ network(name: MAINNET) { subnet(subnetId: "${PRIMARY_NETWORK_ID}") { validators(filter: { validationStatus: UNKNOWN }) { edges { cursor } } } } }`],
  ];

  it.each(cases)('%s', async (_name, query) => {
    stack.devnet.resetStats();
    const res = await stack.query(query);
    expect(res.errors?.[0]?.extensions?.['code'], JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});
