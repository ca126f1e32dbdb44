import fc from 'fast-check';
import { isInterfaceType, isObjectType, isUnionType, type GraphQLInterfaceType, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSchema } from '../../src/schema/index.ts';
import { document, documentContext, type DocumentContext } from '../helpers/random-documents.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// An upstream may answer a page shorter than asked, even empty, with a `nextPageToken`: the spec bounds
// a page only from above and its filtered listings do it. With the devnet's short-pages mode on (every
// Data API listing answers 0 to n - 1 items while more remain, under tokens that hold spaces and
// URL-reserved characters), every accepted query answers without QUERY_TOO_COSTLY, never makes more
// upstream calls than it estimated, and walking a connection by `endCursor` reads exactly the items of
// the listing read in full pages: none lost, none twice, in the same order.

// Pinned, so the listings that move with the clock (blocks, pending rewards) read the same in every walk.
const NOW = Date.now();
/** Items a walk reads at most (enough to cross many short pages, few enough for a loaded 2-core machine). */
const ITEMS = 40;
const SEEDS = [1, 2];

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
}
interface Page {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: unknown }[];
}

let stack: TestStack;
let f: Record<string, string>;

beforeAll(async () => {
  stack = await startStack({ devnet: { validators: 120, now: () => NOW } });
  f = stack.devnet.dataset.fixtures().mainnet as unknown as Record<string, string>;
});
afterAll(() => stack?.close());

/** The fields that tell items of `type` apart (its global id where it has one). */
function identity(type: GraphQLObjectType | GraphQLInterfaceType): string {
  if (type.name === 'AddressTransaction') return 'nativeTransaction { txHash }';
  const fields = type.getFields();
  if (fields['id']) return 'id';
  const picked = ['txHash', 'logIndex', 'blockNumber', 'nodeId', 'rewardType', 'utxoId', 'outputIndex', 'address', 'tokenId', 'messageId'].filter((name) => fields[name]);
  expect(picked.length, type.name).toBeGreaterThan(0);
  return picked.join(' ');
}

/** `c: <connection>(first: $first, after: $after, ...)` selecting what `walk` reads, its node type taken from the schema. */
function connection(field: string, args: string, nodeType: string): string {
  const type = getSchema().getType(nodeType);
  const node = isUnionType(type)
    ? `__typename ${type.getTypes().map((member) => `... on ${member.name} { ${identity(member)} }`).join(' ')}`
    : identity(type as GraphQLObjectType | GraphQLInterfaceType);
  expect(isObjectType(type) || isInterfaceType(type) || isUnionType(type), nodeType).toBe(true);
  return `c: ${field}(first: $first, after: $after${args ? `, ${args}` : ''}) { pageInfo { hasNextPage endCursor } edges { node { ${node} } } }`;
}

/** Every connection over a Data API listing, reached from the root with a parent that has items. */
const CONNECTIONS: Record<string, () => string> = {
  'Network.validators': () => `network(name: MAINNET) { ${connection('validators', '', 'Validator')} }`,
  'Network.delegators': () => `network(name: MAINNET) { ${connection('delegators', '', 'Delegator')} }`,
  'Network.subnets': () => `network(name: MAINNET) { ${connection('subnets', '', 'Subnet')} }`,
  'Network.blockchains': () => `network(name: MAINNET) { ${connection('blockchains', '', 'Blockchain')} }`,
  'Network.historicalRewards': () => `network(name: MAINNET) { ${connection('historicalRewards', `nodeIds: ["${f['busyNodeId']}"]`, 'HistoricalReward')} }`,
  'Network.pendingRewards': () => `network(name: MAINNET) { ${connection('pendingRewards', `nodeIds: ["${f['busyNodeId']}"]`, 'PendingReward')} }`,
  'Validator.delegators': () => `network(name: MAINNET) { validator(nodeId: "${f['busyNodeId']}") { ${connection('delegators', '', 'Delegator')} } }`,
  'Validator.historicalRewards': () => `network(name: MAINNET) { validator(nodeId: "${f['busyNodeId']}") { ${connection('historicalRewards', '', 'HistoricalReward')} } }`,
  'Validator.pendingRewards': () => `network(name: MAINNET) { validator(nodeId: "${f['busyNodeId']}") { ${connection('pendingRewards', '', 'PendingReward')} } }`,
  'Subnet.validators': () => `network(name: MAINNET) { subnet(subnetId: "${f['l1SubnetId']}") { ${connection('validators', '', 'Validator')} } }`,
  'PrimaryBlockchain.blocks': () => `network(name: MAINNET) { blockchain(id: "p-chain") { ${connection('blocks', '', 'Block')} } }`,
  'PrimaryBlockchain.vertices': () => `network(name: MAINNET) { blockchain(id: "x-chain") { ${connection('vertices', '', 'Vertex')} } }`,
  'PrimaryBlockchain.utxos': () => `network(name: MAINNET) { blockchain(id: "p-chain") { ${connection('utxos', `addresses: ["${f['pChainAddress']}"]`, 'Utxo')} } }`,
  'PrimaryBlockchain.transactions': () => `network(name: MAINNET) { blockchain(id: "p-chain") { ${connection('transactions', '', 'PrimaryTransaction')} } }`,
  'PrimaryBlockchain.stakingTransactions': () => `network(name: MAINNET) { blockchain(id: "p-chain") { ${connection('stakingTransactions', '', 'PrimaryTransaction')} } }`,
  'Address.transactions': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('transactions', '', 'AddressTransaction')} } }`,
  'Address.nativeTransactions': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('nativeTransactions', '', 'NativeTransaction')} } }`,
  'Address.erc20Balances': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc20Balances', '', 'Erc20TokenBalance')} } }`,
  'Address.erc721Balances': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc721Balances', '', 'Erc721TokenBalance')} } }`,
  'Address.erc1155Balances': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc1155Balances', '', 'Erc1155TokenBalance')} } }`,
  'Address.collectibleBalances': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('collectibleBalances', '', 'CollectibleBalance')} } }`,
  'Address.erc20Transfers': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc20Transfers', '', 'AddressErc20Transfer')} } }`,
  'Address.erc721Transfers': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc721Transfers', '', 'AddressErc721Transfer')} } }`,
  'Address.erc1155Transfers': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('erc1155Transfers', '', 'AddressErc1155Transfer')} } }`,
  'Address.internalTransactions': () => `chain(chainId: "43114") { address(address: "${f['address']}") { ${connection('internalTransactions', '', 'AddressInternalTransaction')} } }`,
  'Address.icmMessages': () => `chain(chainId: "43114") { address(address: "${f['icmAddress']}") { ${connection('icmMessages', '', 'IcmMessage')} } }`,
  'Query.icmMessages': () => connection('icmMessages', `address: "${f['icmAddress']}"`, 'IcmMessage'),
  'Chain.blocks': () => `chain(chainId: "43114") { ${connection('blocks', '', 'EvmBlock')} }`,
  'Chain.latestTransactions': () => `chain(chainId: "43114") { ${connection('latestTransactions', '', 'NativeTransaction')} }`,
  'EvmBlock.transactions': () => `chain(chainId: "43114") { transaction(txHash: "${f['txHash']}") { nativeTransaction { block { ${connection('transactions', '', 'NativeTransaction')} } } } }`,
  'Contract.transfers': () => `chain(chainId: "43114") { contract(address: "${f['contractAddress']}") { ${connection('transfers', '', 'ContractTransfer')} } }`,
};

/** Runs `query`, which every check here expects to answer in full, within its estimate. */
async function answered<D>(query: string, variables: Record<string, unknown> = {}): Promise<{ data: D; cost: Cost }> {
  await stack.upstreamSettled();
  stack.devnet.resetStats();
  const response: GraphQLResponse<D> = await stack.query<D>(query, variables);
  expect(response.errors, `${query}\n${JSON.stringify(variables)}\n${JSON.stringify(response.errors)}`).toBeUndefined();
  const cost = response.extensions?.['cost'] as Cost;
  expect(cost.actualUpstreamCalls, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  await stack.upstreamSettled();
  expect(stack.devnet.stats().requests, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  return { data: response.data as D, cost };
}

/** The object under key `c` wherever it sits in `data`. */
function find(data: unknown): Page | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const record = data as Record<string, unknown>;
  if ('c' in record) return record['c'] as Page;
  for (const value of Object.values(record)) {
    const found = find(value);
    if (found) return found;
  }
  return undefined;
}

interface Walk {
  items: string[];
  ended: boolean;
  queries: number;
  short: number;
}

/** Reads a connection by `endCursor`, `first` at a time, to its end or {@link ITEMS} items. */
async function walk(selection: string, first: number): Promise<Walk> {
  const out: Walk = { items: [], ended: false, queries: 0, short: 0 };
  let after: string | null = null;
  // Every query makes progress or moves its cursor on, and the devnet answers at most two empty pages in a row.
  for (let query = 0; query < 3 * ITEMS + 10; query++) {
    const { data } = await answered(`query($first: Int, $after: String) { ${selection} }`, { first, after });
    const page = find(data);
    expect(page, selection).toBeDefined();
    const { edges, pageInfo } = page as Page;
    out.queries += 1;
    expect(edges.length).toBeLessThanOrEqual(first);
    if (pageInfo.hasNextPage && edges.length < first) out.short += 1;
    out.items.push(...edges.map((e) => JSON.stringify(e.node)));
    if (!pageInfo.hasNextPage) return { ...out, ended: true };
    expect(pageInfo.endCursor, selection).not.toBeNull();
    after = pageInfo.endCursor;
    if (out.items.length >= ITEMS) return out;
  }
  throw new Error(`${selection}: no end after ${3 * ITEMS + 10} queries`);
}

describe('connections over short pages', () => {
  it.each(Object.keys(CONNECTIONS))('%s: walking endCursor reads exactly the items of the full listing, each query within its estimate', async (name) => {
    const selection = (CONNECTIONS[name] as () => string)();
    stack.devnet.resetChaos();
    const full = await walk(selection, 100);
    let short = 0;
    for (const seed of SEEDS) {
      stack.devnet.setChaos({ shortPages: seed });
      try {
        const walked = await walk(selection, 6);
        const n = Math.min(walked.items.length, full.items.length);
        expect(walked.items.slice(0, n), `seed ${seed}`).toEqual(full.items.slice(0, n));
        // No item lost at the end, none made up past it.
        if (walked.ended) expect([full.ended, full.items.length]).toEqual([true, walked.items.length]);
        if (full.ended) expect(walked.items.length).toBeLessThanOrEqual(full.items.length);
        short += walked.short;
      } finally {
        stack.devnet.resetChaos();
      }
    }
    // The mode really answered short: pages with fewer edges than asked and more to come.
    if (full.items.length > 6) expect(short).toBeGreaterThan(0);
  }, 180_000);

  it('answers the filtered listing that used to fail (estimated 1, actual 1, refused) with what its one page holds', async () => {
    const query = `{ network(name: MAINNET) { blockchain(id: "p-chain") {
      transactions(first: 3, filter: { txTypes: [ADD_PERMISSIONLESS_VALIDATOR_TX] }) { pageInfo { hasNextPage endCursor } edges { node { txHash txType } } } } } }`;
    for (const seed of [undefined, ...SEEDS]) {
      if (seed === undefined) stack.devnet.resetChaos();
      else stack.devnet.setChaos({ shortPages: seed });
      try {
        const { data, cost } = await answered<{ network: { blockchain: { transactions: Page } } }>(query);
        const page = data.network.blockchain.transactions;
        expect(cost).toMatchObject({ estimatedUpstreamCalls: 1, actualUpstreamCalls: 1 });
        expect(page.edges.length).toBeLessThanOrEqual(3);
        if (page.pageInfo.hasNextPage) expect(page.pageInfo.endCursor).not.toBeNull();
        for (const edge of page.edges) expect((edge.node as { txType: string }).txType).toBe('ADD_PERMISSIONLESS_VALIDATOR_TX');
      } finally {
        stack.devnet.resetChaos();
      }
    }
  }, 120_000);
});

describe('lookups that page through a listing, over short pages', () => {
  const LOOKUPS: Record<string, () => string> = {
    'Network.validator': () => `{ network(name: MAINNET) { a: validator(nodeId: "${f['nodeId']}") { id validationStatus } b: validator(nodeId: "${f['revalidatedNodeId']}") { id }
      c: validator(nodeId: "${f['completedNodeId']}") { id } } }`,
    'Network.validator (one node)': () => `{ network(name: MAINNET) { validator(nodeId: "${f['busyNodeId']}") { id validationStatus } } }`,
    'Chain.subnet and Chain.blockchain': () => `{ a: chain(chainId: "${f['evmChainId']}") { subnet { id } blockchain { id } } b: chain(chainId: "${f['subnetEvmChainId']}") { subnet { id } blockchain { id } } }`,
    'Validator.subnet': () => `{ network(name: MAINNET) { validator(nodeId: "${f['nodeId']}") { subnet { id } } } }`,
    'Blockchain.subnet': () => `{ network(name: MAINNET) { subnet(subnetId: "${f['l1SubnetId']}") { blockchains { id subnet { id } } } } }`,
    'Network.subnet (several, from the list)': () => `{ network(name: MAINNET) { a: subnet(subnetId: "${f['subnetId']}") { id } b: subnet(subnetId: "${f['l1SubnetId']}") { id } } }`,
    'Chain.subnet of every chain': () => '{ chains { chainId subnet { id } blockchain { id } } }',
  };

  /**
   * `got` is `full`, except that a lookup whose scan reached its bound before the item answers
   * null (documented on the loaders' bounds): never another record, never an error.
   */
  function sameOrNotFound(got: unknown, full: unknown, path: string): number {
    if (got === null && full !== null && typeof full === 'object' && !Array.isArray(full)) return 1;
    if (typeof full !== 'object' || full === null) {
      expect(got, path).toEqual(full);
      return 0;
    }
    expect(typeof got, path).toBe('object');
    let missed = 0;
    for (const [key, value] of Object.entries(full)) missed += sameOrNotFound((got as Record<string, unknown>)[key], value, `${path}.${key}`);
    return missed;
  }

  it.each(Object.keys(LOOKUPS))('%s answers as over full pages (or null past its bound), within its estimate', async (name) => {
    const query = (LOOKUPS[name] as () => string)();
    stack.devnet.resetChaos();
    const { data: full } = await answered(query);
    let missed = 0;
    for (const seed of [...SEEDS, 3, 4]) {
      stack.devnet.setChaos({ shortPages: seed });
      try {
        const { data } = await answered(query);
        missed += sameOrNotFound(data, full, `seed ${seed}`);
      } finally {
        stack.devnet.resetChaos();
      }
    }
    lookupsMissed += missed;
  }, 60_000);

  let lookupsMissed = 0;
  afterAll(() => console.info(`short pages: lookups answered null past their bound ${lookupsMissed} times`));
});

describe('random operations over short pages (property)', () => {
  let ctx: DocumentContext;
  beforeAll(async () => {
    stack.devnet.resetChaos();
    ctx = await documentContext(stack);
  });

  it('never fails an accepted operation with QUERY_TOO_COSTLY, never spends more than it estimates', async () => {
    let executed = 0;
    await fc.assert(
      fc.asyncProperty(fc.gen(), fc.integer({ min: 1, max: 1000 }), async (g, seed) => {
        const query = document(ctx, g);
        stack.devnet.setChaos({ shortPages: seed });
        try {
          await stack.upstreamSettled();
          stack.devnet.resetStats();
          const response: GraphQLResponse = await stack.query(query);
          const cost = response.extensions?.['cost'] as Cost | undefined;
          const codes = (response.errors ?? []).map((e) => e.extensions?.['code']);
          if (!cost || cost.estimatedUpstreamCalls > 500) {
            // Refused before execution: nothing was sent.
            expect(stack.devnet.stats().requests).toBe(0);
            return;
          }
          executed += 1;
          expect(codes, `${query}\n${JSON.stringify(response.errors)}`).not.toContain('QUERY_TOO_COSTLY');
          expect(cost.actualUpstreamCalls, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
          await stack.upstreamSettled();
          expect(stack.devnet.stats().requests, query).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
        } finally {
          stack.devnet.resetChaos();
        }
      }),
      {
        numRuns: Number(process.env['SHORT_PAGES_RUNS'] ?? 80),
        // A run can take seconds on a loaded machine: stop after 90 s with what has run rather than time out.
        interruptAfterTimeLimit: 90_000,
        markInterruptAsFailure: false,
      },
    );
    console.info(`short pages property: ${executed} operations executed`);
    expect(executed).toBeGreaterThan(10);
  }, 120_000);
});
