import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type {
  ListCollectibleBalancesResponse, ListErc20BalancesResponse, ListErc20TransfersResponse, ListInternalTransactionsResponse,
} from '../../src/shapes/index.ts';
import { dataOf, devnetGet, type GraphQLResponse, startStack, type TestStack } from '../helpers/stack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

/**
 * The token side of `Address` through the gateway against the devnet: the wallet
 * screen in one query (and its upstream calls), paging, the collectible union, the
 * transfers' transaction link (one lookup per distinct hash), and bad input refused
 * before any upstream call.
 */

let stack: TestStack;
let f: NetworkFixtures;
let base: string;

/** The operation's data, with the fixture chain and address as `$id` and `$a`. */
const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, { id: f.evmChainId, a: f.address, ...variables });

const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);

const routes = (): Record<string, number> => stack.devnet.stats().byRoute;
const ROUTE = (suffix: string): string => `GET /v1/chains/{chainId}/addresses/{address}/${suffix}`;

beforeAll(async () => {
  stack = await startStack({ devnet: { validators: 20 } });
  f = stack.devnet.dataset.fixtures().mainnet;
  base = `/v1/chains/${f.evmChainId}/addresses/${f.address}`;
});

afterAll(async () => {
  await stack?.close();
});

const WALLET = `query Wallet($id: String!, $a: String!) {
  chain(chainId: $id) {
    address(address: $a) {
      nativeBalance { symbol decimals balance balanceValue { value currencyCode } }
      erc20Balances(first: 50) {
        nativeTokenBalance { balance }
        edges { node { address name symbol decimals logoUri balance balanceValue { value } tokenReputation token { address symbol ercType } } }
      }
      collectibleBalances(first: 50) {
        edges { node {
          __typename
          ... on Erc721TokenBalance { address name tokenId ownerAddress metadata { name imageUri } token { tokenId } }
          ... on Erc1155TokenBalance { address tokenId balance metadata { name imageUri } token { tokenId } }
        } }
      }
    }
  }
}`;

describe('the wallet screen', () => {
  it('native, ERC-20 and NFT balances with token metadata in one query: one listing per balance field, values as served', async () => {
    stack.devnet.resetStats();
    const data = await ok(WALLET);
    // The chain lookup of `chain(chainId:)`, then one listing per balance field (node calls are the gateway's own warm-up).
    const dataApi = Object.fromEntries(Object.entries(routes()).filter(([route]) => route.startsWith('GET /v1/')));
    expect(dataApi).toEqual({
      'GET /v1/chains/{chainId}': 1, [ROUTE('balances:getNative')]: 1, [ROUTE('balances:listErc20')]: 1, [ROUTE('balances:listCollectibles')]: 1,
    });

    const wallet = data.chain.address;
    const erc20 = await direct<ListErc20BalancesResponse>(`${base}/balances:listErc20?pageSize=50`);
    expect(wallet.erc20Balances.edges.map((e: Data) => [e.node.address, e.node.balance, e.node.token.address])).toEqual(
      erc20.erc20TokenBalances.map((b) => [b.address, b.balance, b.address]),
    );
    expect(wallet.erc20Balances.edges[0].node).toMatchObject({ tokenReputation: 'BENIGN', token: { ercType: 'ERC_20' } });
    expect(wallet.erc20Balances.nativeTokenBalance.balance).toBe(wallet.nativeBalance.balance);

    const collectibles = await direct<ListCollectibleBalancesResponse>(`${base}/balances:listCollectibles?pageSize=50`);
    const kinds = wallet.collectibleBalances.edges.map((e: Data) => e.node.__typename);
    expect(kinds).toEqual(collectibles.collectibleBalances.map((c) => (c.ercType === 'ERC-1155' ? 'Erc1155TokenBalance' : 'Erc721TokenBalance')));
    expect(new Set(kinds)).toEqual(new Set(['Erc721TokenBalance', 'Erc1155TokenBalance']));
    for (const { node } of wallet.collectibleBalances.edges) {
      expect(node.metadata.name).toEqual(expect.any(String));
      expect(node.token.tokenId).toBe(node.tokenId);
      if (node.__typename === 'Erc721TokenBalance') expect(node.ownerAddress).toBe(f.address);
      else expect(BigInt(node.balance) > 0n).toBe(true);
    }
  });

  it('erc721Balances and erc1155Balances hold what collectibleBalances holds', async () => {
    const data = await ok(`query($id: String!, $a: String!) { chain(chainId: $id) { address(address: $a) {
      erc721Balances(first: 100) { nativeTokenBalance { symbol } edges { node { address tokenId } } }
      erc1155Balances(first: 100) { edges { node { address tokenId balance } } }
      collectibleBalances(first: 200) { edges { node { ... on Erc721TokenBalance { address tokenId } ... on Erc1155TokenBalance { address tokenId balance } } } }
    } } }`);
    const a = data.chain.address;
    const key = (n: Data): string => `${n.address}:${n.tokenId}:${n.balance ?? ''}`;
    expect(a.collectibleBalances.edges.map((e: Data) => key(e.node)).sort()).toEqual(
      [...a.erc721Balances.edges, ...a.erc1155Balances.edges].map((e: Data) => key(e.node)).sort(),
    );
    expect(a.erc721Balances.nativeTokenBalance.symbol).toEqual(expect.any(String));
  });
});

describe('transfer connections', () => {
  it('page erc20Transfers with cursors, matching the listing item for item', async () => {
    const q = `query($id: String!, $a: String!, $after: String) { chain(chainId: $id) { address(address: $a) {
      erc20Transfers(first: 4, after: $after) { pageInfo { hasNextPage endCursor } edges { node { txHash logIndex value blockNumber blockTime erc20Token { symbol } } } }
    } } }`;
    const one = (await ok(q)).chain.address.erc20Transfers;
    const two = (await ok(q, { after: one.pageInfo.endCursor })).chain.address.erc20Transfers;
    expect(one.pageInfo.hasNextPage).toBe(true);
    const wire = await direct<ListErc20TransfersResponse>(`${base}/transactions:listErc20?pageSize=8`);
    expect([...one.edges, ...two.edges].map((e: Data) => `${e.node.txHash}:${e.node.logIndex}:${e.node.value}`)).toEqual(
      wire.transactions.map((t) => `${t.txHash}:${t.logIndex}:${t.value}`),
    );
    const first = one.edges[0].node;
    expect(first.blockTime).toBe(new Date(Number(wire.transactions[0]?.blockTimestamp ?? 0) * 1000).toISOString());
  });

  it('a block range narrows internalTransactions the way the listing does', async () => {
    const wire = await direct<ListInternalTransactionsResponse>(`${base}/transactions:listInternals?pageSize=100`);
    const blocks = wire.transactions.map((t) => Number(t.blockNumber));
    const lo = String(blocks[blocks.length - 1]);
    const hi = String(blocks[0]);
    const data = await ok(`query($id: String!, $a: String!, $s: UInt64, $e: UInt64) { chain(chainId: $id) { address(address: $a) {
      internalTransactions(first: 100, startBlock: $s, endBlock: $e) { edges { node { blockNumber internalTxType isReverted gasUsed } } }
    } } }`, { s: lo, e: hi });
    const got = data.chain.address.internalTransactions.edges.map((e: Data) => e.node.blockNumber);
    expect(got).toEqual(wire.transactions.filter((t) => Number(t.blockNumber) < Number(hi)).map((t) => t.blockNumber));
    expect(got.length).toBeGreaterThan(0);
  });

  it("each transfer's transaction is fetched once per distinct hash, and lists the transfer", async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($id: String!, $a: String!) { chain(chainId: $id) { address(address: $a) {
      erc20Transfers(first: 20) { edges { node { txHash value transaction { nativeTransaction { txHash blockNumber } erc20Transfers { value } } blockNumber } } }
      erc1155Transfers(first: 5) { edges { node { txHash transaction { nativeTransaction { txHash } } erc1155Token { tokenId } } } }
      erc721Transfers(first: 5) { edges { node { txHash transaction { nativeTransaction { txHash } } erc721Token { tokenId metadata { name } } } } }
    } } }`);
    const a = data.chain.address;
    const nodes = [...a.erc20Transfers.edges, ...a.erc1155Transfers.edges, ...a.erc721Transfers.edges].map((e: Data) => e.node);
    for (const n of nodes) expect(n.transaction.nativeTransaction.txHash).toBe(n.txHash);
    for (const { node } of a.erc20Transfers.edges) {
      expect(node.transaction.nativeTransaction.blockNumber).toBe(node.blockNumber);
      expect(node.transaction.erc20Transfers.map((t: Data) => t.value)).toContain(node.value);
    }
    const distinct = new Set(nodes.map((n) => n.txHash)).size;
    expect(distinct).toBeLessThan(nodes.length); // swaps carry two ERC-20 transfers of one transaction
    expect(routes()['GET /v1/chains/{chainId}/transactions/{txHash}']).toBe(distinct);
  });
});

describe('bad input', () => {
  const address = (selection: string): string =>
    `query($id: String!) { chain(chainId: $id) { address(address: "${'0x' + 'a'.repeat(40)}") { ${selection} } } }`;
  const cases: [string, string, string][] = [
    ['erc20Balances first 501', address('erc20Balances(first: 501) { edges { cursor } }'), 'first'],
    ['erc20Balances bad contract in the list', address('erc20Balances(contractAddresses: ["0x12"]) { edges { cursor } }'), 'contractAddresses'],
    ['erc20Balances non-digit blockNumber', address('erc20Balances(blockNumber: "latest") { edges { cursor } }'), 'blockNumber'],
    ['erc721Balances bad contract', address('erc721Balances(contractAddress: "nope") { edges { cursor } }'), 'contractAddress'],
    ['collectibleBalances first 0', address('collectibleBalances(first: 0) { edges { cursor } }'), 'first'],
    ['erc20Transfers first 101', address('erc20Transfers(first: 101) { edges { cursor } }'), 'first'],
    // A literal the UInt64 scalar refuses fails validation, which names no argument.
    ['erc721Transfers non-digit endBlock', address('erc721Transfers(endBlock: "0x10") { edges { cursor } }'), ''],
    ['erc1155Transfers empty range', address('erc1155Transfers(startBlock: 10, endBlock: 10) { edges { cursor } }'), 'startBlock'],
    ['internalTransactions bad cursor', address('internalTransactions(after: "nope") { edges { cursor } }'), 'after'],
  ];

  it.each(cases)('%s: BAD_USER_INPUT naming the argument, before any upstream call', async (_name, query, argument) => {
    stack.devnet.resetStats();
    const res: GraphQLResponse = await stack.query(query, { id: f.evmChainId });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    if (argument) expect(res.errors?.[0]?.extensions?.argumentName).toBe(argument);
    expect(stack.devnet.stats().requests).toBe(0);
  });

  it('a cursor of erc20Transfers is refused by erc721Transfers', async () => {
    const q = (field: string, after?: string): string => `query($id: String!, $a: String!) { chain(chainId: $id) { address(address: $a) {
      ${field}(first: 1${after ? `, after: "${after}"` : ''}) { pageInfo { endCursor } } } } }`;
    const cursor = (await ok(q('erc20Transfers'))).chain.address.erc20Transfers.pageInfo.endCursor as string;
    const res: GraphQLResponse = await stack.query(q('erc721Transfers', cursor), { id: f.evmChainId, a: f.address });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});
