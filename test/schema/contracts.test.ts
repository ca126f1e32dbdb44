import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { MAX_CONTRACTS_PER_REQUEST } from '../../src/loaders/contracts.ts';
import { encodeGlobalId } from '../../src/schema/relay-node.ts';
import type { ContractMetadata, ListContractTransfersResponse, NativeTransaction } from '../../src/shapes/index.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * Contracts through GraphQL on the devnet: `Chain.contract(address:)` and its four
 * variants, the `contract` link of every token reference (one read per distinct
 * contract per request), `Contract.transfers`, and `Query.chain` read directly.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
const routes = (): Record<string, number> => stack.devnet.stats().byRoute;
const CONTRACT_ROUTE = 'GET /v1/chains/{chainId}/addresses/{address}';

const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);

beforeAll(async () => {
  const now = Date.now();
  stack = await startStack({ devnet: { now: () => now } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

const CONTRACT_FIELDS = `
  __typename id chainId address ercType ercTypeRaw name description officialSite email color tags
  logoAsset { assetId imageUri } bannerAsset { imageUri } resourceLinks { type typeRaw url }
  deploymentDetails { txHash deployerAddress deployerContractAddress transaction { nativeTransaction { txHash to { address } } } }
  ... on Erc20Contract { symbol decimals coingeckoCoinId }
  ... on Erc721Contract { symbol }
  ... on Erc1155Contract { symbol coingeckoCoinId }
`;

describe('Chain.contract', () => {
  it('serves an ERC-20 contract with every field, its deployment linked, and refetches it by id', async () => {
    const wire = await direct<ContractMetadata>(`/v1/chains/${f.evmChainId}/addresses/${f.contractAddress}`);
    const data = await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { contract(address: $a) { ${CONTRACT_FIELDS} } } }`, {
      c: f.evmChainId, a: f.contractAddress.toUpperCase().replace('0X', '0x'),
    });
    const c = data.chain.contract;
    expect(c).toMatchObject({
      __typename: 'Erc20Contract', chainId: f.evmChainId, address: wire.address, ercType: 'ERC_20', ercTypeRaw: 'ERC-20', name: wire.name,
      description: wire.description, officialSite: wire.officialSite, email: null, color: wire.color, tags: wire.tags,
      logoAsset: wire.logoAsset, bannerAsset: null, symbol: wire.symbol, decimals: wire.decimals, coingeckoCoinId: wire.pricingProviders?.coingeckoCoinId,
      resourceLinks: [{ type: 'WEBSITE', typeRaw: 'Website', url: wire.resourceLinks?.[0]?.url }, { type: 'TWITTER', typeRaw: 'Twitter', url: wire.resourceLinks?.[1]?.url }],
      deploymentDetails: {
        txHash: f.deploymentTxHash, deployerAddress: wire.deploymentDetails?.deployerAddress, deployerContractAddress: null,
        transaction: { nativeTransaction: { txHash: f.deploymentTxHash, to: { address: f.contractAddress } } },
      },
    });
    const refetched = await ok(`query($id: ID!) { node(id: $id) { ... on Contract { address ercType } } }`, { id: c.id });
    expect(refetched.node).toEqual({ address: wire.address, ercType: 'ERC_20' });
  });

  it('tells the variants apart by ercType: ERC-721, ERC-1155 and a contract that is no token', async () => {
    const history = await direct<{ transactions: { nativeTransaction: NativeTransaction }[] }>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=100`);
    const router = history.transactions.find((t) => t.nativeTransaction.method?.methodName?.startsWith('swapExact'))?.nativeTransaction.to.address;
    const data = await ok(`query($c: String!, $nft: String!, $multi: String!, $router: String!, $none: String!) { chain(chainId: $c) {
        nft: contract(address: $nft) { __typename ercType ... on Erc721Contract { symbol } }
        multi: contract(address: $multi) { __typename ercType ... on Erc1155Contract { symbol } }
        router: contract(address: $router) { __typename ercType ercTypeRaw name }
        none: contract(address: $none) { __typename }
      } }`, { c: f.evmChainId, nft: f.nftContract, multi: f.erc1155Contract, router, none: f.address });
    expect(data.chain.nft).toMatchObject({ __typename: 'Erc721Contract', ercType: 'ERC_721', symbol: expect.any(String) });
    expect(data.chain.multi).toMatchObject({ __typename: 'Erc1155Contract', ercType: 'ERC_1155' });
    expect(data.chain.router).toEqual({ __typename: 'UnknownContract', ercType: 'UNKNOWN', ercTypeRaw: 'UNKNOWN', name: 'DevSwap Router' });
    expect(data.chain.none).toBeNull();
  });

  it('refuses a malformed address before any call, and past the per-request bound answers QUERY_TOO_COSTLY', async () => {
    stack.devnet.resetStats();
    const bad = await stack.query(`query($c: String!) { chain(chainId: $c) { contract(address: "0x12") { name } } }`, { c: f.evmChainId });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'address' });
    expect(stack.devnet.stats().requests).toBe(0);

    // More distinct contracts than the bound in one request (refetched by id: aliases are capped lower).
    const ids = Array.from({ length: MAX_CONTRACTS_PER_REQUEST + 1 }, (_, i) => encodeGlobalId('Contract', [f.evmChainId, `0x${(i + 1).toString(16).padStart(40, '0')}`]));
    const res = await stack.query<Data>(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids });
    expect(routes()[CONTRACT_ROUTE]).toBe(MAX_CONTRACTS_PER_REQUEST);
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY' });
    // Not contracts: null each, the one past the bound an error.
    expect(res.data?.nodes.filter((n: Data) => n === null)).toHaveLength(MAX_CONTRACTS_PER_REQUEST + 1);
  });
});

describe("an address's own contract", () => {
  it('is charged one call per address and never meets the cap on token contracts: more addresses than the cap, all served', async () => {
    stack.devnet.resetStats();
    const res = await stack.query<Data>(`{ latestTransactions(first: 100) { edges { node { fromAddress { address contract { chainId } } } } } }`);
    expect(res.errors ?? []).toEqual([]);
    const cost = res.extensions?.['cost'] as { estimatedUpstreamCalls: number; actualUpstreamCalls: number };
    const senders = new Set((res.data?.latestTransactions.edges as Data[]).map((e) => e.node.fromAddress.address));
    expect(senders.size).toBeGreaterThan(MAX_CONTRACTS_PER_REQUEST);
    expect(routes()[CONTRACT_ROUTE]).toBeLessThanOrEqual(100);
    expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  });
});

describe('a contract refused past the cap as a token contract', () => {
  it("is still an address's own contract when both are asked in one batch: the refusal is not kept", async () => {
    stack.devnet.resetStats();
    // Fifty other contracts first, so the fifty-first, read by id as a token contract would be, is refused;
    // the same contract is also the address's own, which is charged per address and not capped.
    const others = Array.from({ length: MAX_CONTRACTS_PER_REQUEST }, (_, i) => encodeGlobalId('Contract', [f.evmChainId, `0x${(i + 1).toString(16).padStart(40, '0')}`]));
    const ids = [...others, encodeGlobalId('Contract', [f.evmChainId, f.contractAddress])];
    const res = await stack.query<Data>(
      `query($ids: [ID!]!, $c: String!, $a: String!) {
        nodes(ids: $ids) { id }
        chain(chainId: $c) { address(address: $a) { contract { address } } }
      }`,
      { ids, c: f.evmChainId, a: f.contractAddress },
    );
    expect(res.errors).toHaveLength(1);
    expect(res.errors?.[0]).toMatchObject({ path: ['nodes', MAX_CONTRACTS_PER_REQUEST], extensions: { code: 'QUERY_TOO_COSTLY' } });
    expect(res.data?.chain.address.contract).toEqual({ address: f.contractAddress.toLowerCase() });
    // The fifty under the cap, then the address's own read once.
    expect(routes()[CONTRACT_ROUTE]).toBe(MAX_CONTRACTS_PER_REQUEST + 1);
    const cost = res.extensions?.['cost'] as { estimatedUpstreamCalls: number; actualUpstreamCalls: number };
    expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  });
});

describe('the contract link of token references', () => {
  it('reads each distinct contract once for an EVM block explorer screen, within its estimate', async () => {
    const n = await fixtureBlock();
    stack.devnet.resetStats();
    const res = await stack.query<Data>(EXPLORER, { c: f.evmChainId, n });
    expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
    const data = res.data;
    const tokens = new Set<string>();
    const seen: Data[] = [];
    const visit = (tx: Data) => {
      for (const t of tx?.erc20Transfers ?? []) seen.push(t.erc20Token);
      for (const t of tx?.erc721Transfers ?? []) seen.push(t.erc721Token);
      for (const t of tx?.erc1155Transfers ?? []) seen.push(t.erc1155Token);
    };
    for (const b of data.chain.blocks.edges) for (const e of b.node.transactions.edges) visit(e.node.transaction);
    for (const e of data.chain.block.transactions.edges) visit(e.node.transaction);
    for (const token of seen) {
      tokens.add(token.address);
      expect(token.contract.address).toBe(token.address);
    }
    expect(seen.length).toBeGreaterThanOrEqual(tokens.size);
    expect(routes()[CONTRACT_ROUTE]).toBe(tokens.size);
    const cost = res.extensions?.['cost'] as { estimatedUpstreamCalls: number; actualUpstreamCalls: number };
    expect(cost.actualUpstreamCalls).toBe(stack.devnet.stats().requests);
    expect(cost.estimatedUpstreamCalls).toBeGreaterThanOrEqual(cost.actualUpstreamCalls);
    console.log(`EVM block explorer screen: ${cost.actualUpstreamCalls} upstream calls (estimate ${cost.estimatedUpstreamCalls}), ${tokens.size} contracts for ${seen.length} token references`, routes());
  });

  it('links an NFT to its collection, and a token read without its chain to nothing (no call)', async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $a: String!, $t: String!) { chain(chainId: $c) {
        nftToken(address: $a, tokenId: $t) { contract { __typename address } }
      } }`, { c: f.evmChainId, a: f.nftContract, t: f.nftTokenId });
    expect(data.chain.nftToken.contract).toEqual({ __typename: 'Erc721Contract', address: f.nftContract });
    expect(routes()[CONTRACT_ROUTE]).toBe(1);
  });

  it('links every ERC-1155 balance and every address transfer\'s token to its contract, once per distinct contract', async () => {
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { address(address: $a) {
        erc1155Balances(first: 10) { edges { node { address contract { __typename address } } } }
        erc20Transfers(first: 10) { edges { node { erc20Token { address contract { address } } } } }
      } } }`, { c: f.evmChainId, a: f.address });
    const balances = data.chain.address.erc1155Balances.edges.map((e: Data) => e.node);
    const transfers = data.chain.address.erc20Transfers.edges.map((e: Data) => e.node.erc20Token);
    expect(balances.length).toBeGreaterThan(0);
    expect(transfers.length).toBeGreaterThan(0);
    for (const b of balances) expect(b.contract).toEqual({ __typename: 'Erc1155Contract', address: b.address });
    for (const t of transfers) expect(t.contract).toEqual({ address: t.address });
    const distinct = new Set([...balances.map((b: Data) => b.address), ...transfers.map((t: Data) => t.address)]);
    expect(routes()[CONTRACT_ROUTE] ?? 0).toBe(distinct.size);
  });
});

describe('Contract.transfers', () => {
  it('pages the transfers of a token newest first, each linked to its block and transaction', async () => {
    const wire = await direct<ListContractTransfersResponse>(`/v1/chains/${f.evmChainId}/tokens/${f.contractAddress}/transfers?pageSize=4`);
    const q = `query($c: String!, $a: String!, $after: String) { chain(chainId: $c) { contract(address: $a) {
      transfers(first: 2, after: $after) { edges { node { blockNumber blockHash txHash logIndex value from { address } to { address }
        erc20Token { address contract { address } } erc721Token { tokenId } block { blockHash } transaction { erc20Transfers { logIndex value } } } }
        pageInfo { hasNextPage endCursor } } } } }`;
    const first = await ok(q, { c: f.evmChainId, a: f.contractAddress });
    const second = await ok(q, { c: f.evmChainId, a: f.contractAddress, after: first.chain.contract.transfers.pageInfo.endCursor });
    const nodes = [...first.chain.contract.transfers.edges, ...second.chain.contract.transfers.edges].map((e: Data) => e.node);
    expect(nodes.map((n: Data) => [n.txHash, n.logIndex, n.value])).toEqual(wire.transfers.map((t) => [t.txHash, t.logIndex, t.value]));
    for (const n of nodes) {
      expect(n.erc721Token).toBeNull();
      expect(n.erc20Token.contract.address).toBe(f.contractAddress);
      expect(n.block.blockHash).toBe(n.blockHash);
      expect(n.transaction.erc20Transfers).toContainEqual({ logIndex: n.logIndex, value: n.value });
    }
  });

  it('keeps to a block range and refuses an empty one before any call', async () => {
    const [top] = (await direct<{ blocks: { blockNumber: string }[] }>(`/v1/chains/${f.evmChainId}/blocks?pageSize=1`)).blocks as [{ blockNumber: string }];
    const endBlock = String(Number(top.blockNumber) - 50);
    const startBlock = String(Number(endBlock) - 200);
    const q = `query($c: String!, $a: String!, $filter: ContractTransferFilter) { chain(chainId: $c) { contract(address: $a) {
      transfers(first: 20, filter: $filter) { edges { node { blockNumber } } } } } }`;
    const data = await ok(q, { c: f.evmChainId, a: f.contractAddress, filter: { startBlock, endBlock } });
    const numbers = data.chain.contract.transfers.edges.map((e: Data) => Number(e.node.blockNumber));
    expect(numbers.length).toBeGreaterThan(0);
    expect(numbers.every((n: number) => n >= Number(startBlock) && n < Number(endBlock))).toBe(true);
    stack.devnet.resetStats();
    const bad = await stack.query(q, { c: f.evmChainId, a: f.contractAddress, filter: { startBlock: endBlock, endBlock: startBlock } });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'filter.startBlock' });
    expect(routes()['GET /v1/chains/{chainId}/tokens/{address}/transfers']).toBeUndefined();
  });
});

describe('Query.chain', () => {
  it('reads one chain directly, several in one request from the chain list, and an unknown one as null', async () => {
    stack.devnet.resetStats();
    const one = await ok(`query($c: String!) { chain(chainId: $c) { chainId chainName } }`, { c: f.evmChainId });
    expect(one.chain.chainId).toBe(f.evmChainId);
    expect(routes()).toEqual({ 'GET /v1/chains/{chainId}': 1 });

    stack.devnet.resetStats();
    const two = await ok(`query($a: String!, $b: String!) { a: chain(chainId: $a) { chainId } b: chain(chainId: $b) { chainId } }`, { a: f.evmChainId, b: f.blockchainId });
    expect(two).toEqual({ a: { chainId: f.evmChainId }, b: { chainId: f.evmChainId } });
    expect(routes()).toEqual({ 'GET /v1/chains': 1 });

    stack.devnet.resetStats();
    expect((await ok(`{ chain(chainId: "999999999") { chainId } }`)).chain).toBeNull();
    expect(stack.devnet.stats().requests).toBe(1);
  });
});

/** The block of the fixture transaction (it holds the fixture address's transfers). */
async function fixtureBlock(): Promise<string> {
  const tx = await direct<{ nativeTransaction: { blockNumber: string } }>(`/v1/chains/${f.evmChainId}/transactions/${f.txHash}`);
  return tx.nativeTransaction.blockNumber;
}

/** GraphiQL's "EVM block explorer screen": the latest blocks with their transactions, and one block with its transfers and token contracts. */
export const EXPLORER = `query EvmBlockExplorer($c: String!, $n: String!) {
  chain(chainId: $c) {
    chainName
    blocks(first: 5) {
      edges { node { blockNumber blockTime txCount gasUsed feesSpent
        transactions(first: 5) { edges { node { txHash from { address } to { address name } value
          transaction {
            erc20Transfers { value erc20Token { address symbol decimals contract { address name logoAsset { imageUri } } } }
            erc721Transfers { erc721Token { address tokenId contract { address name } } }
            erc1155Transfers { value erc1155Token { address tokenId contract { address name } } }
          } } } } } }
      pageInfo { hasNextPage endCursor }
    }
    block(id: $n) {
      blockNumber blockHash blockTime txCount parent { blockNumber }
      transactions(first: 20) { edges { node { txHash blockIndex from { address } to { address }
        transaction {
          erc20Transfers { from { address } to { address } value erc20Token { address symbol decimals contract { address name ... on Erc20Contract { coingeckoCoinId } } } }
          erc721Transfers { from { address } to { address } erc721Token { address tokenId contract { address name } } }
          erc1155Transfers { from { address } to { address } value erc1155Token { address tokenId contract { address name } } }
        } } } }
    }
  }
}`;
