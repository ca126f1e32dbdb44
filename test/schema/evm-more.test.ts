import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type {
  ContractMetadata, ListAddressChainsResponse, ListAddressTransactionsV2Response, ListCollectionTokensResponse, ListContractDeploymentsResponse,
  ListEvmBlocksResponse, ListNativeTransactionsResponse, NftToken,
} from '../../src/shapes/index.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';
import { dataOf, devnetGet, startStack, type TestStack } from '../helpers/stack.ts';

/**
 * The EVM operations beside the per-chain ones, through GraphQL on the devnet and judged
 * by the upstream requests they make: `Query.latestBlocks` / `latestTransactions`
 * (listLatestBlocksAllChains, listLatestTransactionsAllChains), `Address.chains`
 * (listAddressChains), `Address.contract` / `deployedContracts` (listContractDeployments),
 * `Address.transactions(filterSpamTokens:)` (listTransactionsV2), a collection's `tokens`
 * (listTokens), `reindexNft`, and a transaction's `fromAddress` / `toAddress`. The devnet's
 * answers are checked against the strict shapes and against what it already serves.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;
const routes = (): Record<string, number> => stack.devnet.stats().byRoute;
const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);
const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);

const BLOCKS = 'GET /v1/blocks';
const TRANSACTIONS = 'GET /v1/transactions';
const CHAINS = 'GET /v1/address/{address}/chains';
const DEPLOYMENTS = 'GET /v1/chains/{chainId}/contracts/{address}/deployments';
const V2 = 'GET /v2/chains/{chainId}/addresses/{address}/transactions';
const TOKENS = 'GET /v1/chains/{chainId}/nfts/collections/{address}/tokens';
const REINDEX = 'POST /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}:reindex';

beforeAll(async () => {
  const now = Date.now();
  stack = await startStack({ devnet: { now: () => now } });
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

describe('Query.latestBlocks and Query.latestTransactions (across chains)', () => {
  it('merges every chain\'s latest blocks newest first, one call per page, each block linked to its chain', async () => {
    const wire = await direct<ListEvmBlocksResponse>('/v1/blocks?pageSize=6');
    expect(mismatches(wire, S.ListEvmBlocksResponse)).toEqual([]);
    const times = wire.blocks.map((b) => Number(b.blockTimestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Each chain's blocks here are that chain's latest blocks, in its own order.
    for (const chainId of new Set(wire.blocks.map((b) => b.chainId))) {
      const own = wire.blocks.filter((b) => b.chainId === chainId);
      const latest = await direct<ListEvmBlocksResponse>(`/v1/chains/${chainId}/blocks?pageSize=${own.length}`);
      expect(own).toEqual(latest.blocks);
    }

    stack.devnet.resetStats();
    const data = await ok(`{ latestBlocks(first: 3, network: MAINNET) { edges { node { chainId blockNumber blockHash chain { chainId } } } pageInfo { hasNextPage endCursor } } }`);
    const page = data.latestBlocks;
    expect(page.edges.map((e: Data) => [e.node.chainId, e.node.blockNumber])).toEqual(wire.blocks.slice(0, 3).map((b) => [b.chainId, b.blockNumber]));
    expect(page.edges.every((e: Data) => e.node.chain.chainId === e.node.chainId)).toBe(true);
    expect(routes()[BLOCKS]).toBe(1);
    const next = await ok(`query($after: String) { latestBlocks(first: 3, after: $after, network: MAINNET) { edges { node { chainId blockNumber } } } }`, { after: page.pageInfo.endCursor });
    expect(next.latestBlocks.edges.map((e: Data) => [e.node.chainId, e.node.blockNumber])).toEqual(wire.blocks.slice(3, 6).map((b) => [b.chainId, b.blockNumber]));
  });

  it('lists the latest transactions of every chain by status; a listed block\'s link costs nothing more', async () => {
    const wire = await direct<ListNativeTransactionsResponse>('/v1/transactions?pageSize=8&status=success');
    expect(mismatches(wire, S.ListNativeTransactionsResponse)).toEqual([]);
    expect(wire.transactions.every((t) => t.txStatus === '1')).toBe(true);

    stack.devnet.resetStats();
    const data = await ok(`{ latestTransactions(first: 8, filter: { status: SUCCESS }) { edges { node { txHash chainId fromAddress { address } toAddress { address } } } } }`);
    const nodes = data.latestTransactions.edges.map((e: Data) => e.node);
    expect(nodes.map((n: Data) => n.txHash)).toEqual(wire.transactions.map((t) => t.txHash));
    expect(nodes[0].fromAddress).toEqual({ address: wire.transactions[0]?.from.address.toLowerCase() });
    // fromAddress / toAddress make no call.
    expect(routes()).toEqual({ [TRANSACTIONS]: 1 });
  });

  it('reads the chains of the network asked (TESTNET as its alias FUJI)', async () => {
    const fuji = await direct<ListEvmBlocksResponse>('/v1/blocks?pageSize=2&network=fuji');
    const fujiChains = new Set(stack.devnet.dataset.evm.fuji.chains().map((c) => c.chainId));
    expect(fuji.blocks.every((b) => fujiChains.has(b.chainId))).toBe(true);
    const data = await ok(`{ latestBlocks(first: 2, network: TESTNET) { edges { node { chainId blockNumber } } } }`);
    expect(data.latestBlocks.edges.map((e: Data) => [e.node.chainId, e.node.blockNumber])).toEqual(fuji.blocks.map((b) => [b.chainId, b.blockNumber]));
  });

  it('refuses a page size beyond the spec\'s 100 before any call', async () => {
    stack.devnet.resetStats();
    const res = await stack.query(`{ latestBlocks(first: 101) { edges { node { blockNumber } } } }`);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(routes()).toEqual({});
  });
});

describe('Address.chains', () => {
  it('answers the chains where the address has history, one call per distinct address for a page of parents', async () => {
    const wire = await direct<ListAddressChainsResponse>(`/v1/address/${f.address}/chains`);
    expect(mismatches(wire, S.ListAddressChainsResponse)).toEqual([]);
    expect(wire.indexedChains.map((c) => c.chainId)).toContain(f.evmChainId);
    // Every chain listed has a non-empty history for the address.
    for (const chain of wire.indexedChains) {
      const history = await direct<{ transactions: unknown[] }>(`/v1/chains/${chain.chainId}/addresses/${f.address}/transactions?pageSize=1`);
      expect(history.transactions.length, chain.chainId).toBe(1);
    }

    const txs = await direct<ListNativeTransactionsResponse>(`/v1/chains/${f.evmChainId}/transactions?pageSize=10`);
    const distinct = new Set(txs.transactions.map((t) => t.from.address.toLowerCase()));
    stack.devnet.resetStats();
    const data = await ok(`query($c: String!) { chain(chainId: $c) {
        address(address: "${f.address}") { chains { chainId } unindexedChainIds }
        latestTransactions(first: 10) { edges { node { fromAddress { chains { chainId } } } } }
      } }`, { c: f.evmChainId });
    expect(data.chain.address.chains.map((c: Data) => c.chainId)).toEqual(wire.indexedChains.map((c) => c.chainId));
    expect(data.chain.address.unindexedChainIds).toEqual([]);
    expect(routes()[CHAINS]).toBe(new Set([...distinct, f.address.toLowerCase()]).size);
  });
});

describe('Address.contract and deployedContracts', () => {
  it('lists the contracts an address deployed (as getContractMetadata describes them), and links back without more calls', async () => {
    const meta = await direct<ContractMetadata>(`/v1/chains/${f.evmChainId}/addresses/${f.contractAddress}`);
    const deployer = meta.deploymentDetails?.deployerAddress ?? '';
    const wire = await direct<ListContractDeploymentsResponse>(`/v1/chains/${f.evmChainId}/contracts/${deployer}/deployments?pageSize=100`);
    expect(mismatches(wire, S.ListContractDeploymentsResponse)).toEqual([]);
    expect(wire.contracts.map((c) => c.address)).toContain(f.contractAddress);
    expect(wire.contracts.find((c) => c.address === f.contractAddress)).toEqual(meta);
    expect(wire.contracts.every((c) => c.deploymentDetails?.deployerAddress === deployer)).toBe(true);

    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { address(address: $a) {
        deployedContracts(first: 100) { edges { node { address ercType deploymentDetails { deployerAddress deployer { address } } asAddress { address } } } }
      } } }`, { c: f.evmChainId, a: deployer });
    const nodes = data.chain.address.deployedContracts.edges.map((e: Data) => e.node);
    expect(nodes.map((n: Data) => n.address)).toEqual(wire.contracts.map((c) => c.address));
    expect(nodes.every((n: Data) => n.deploymentDetails.deployer.address === deployer.toLowerCase())).toBe(true);
    expect(nodes.every((n: Data) => n.asAddress.address === n.address.toLowerCase())).toBe(true);
    // Besides the chain the query starts from (getChainInfo), one listing.
    expect(routes()).toEqual({ 'GET /v1/chains/{chainId}': 1, [DEPLOYMENTS]: 1 });

    // A contract as an address, and back to its contract: one metadata read.
    stack.devnet.resetStats();
    const back = await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { address(address: $a) { contract { address deployedContracts(first: 1) { edges { node { address } } } } } } }`, {
      c: f.evmChainId, a: f.contractAddress,
    });
    expect(back.chain.address.contract.address).toBe(f.contractAddress);
    expect(back.chain.address.contract.deployedContracts.edges).toEqual([]);
    expect(routes()).toEqual({ 'GET /v1/chains/{chainId}': 1, 'GET /v1/chains/{chainId}/addresses/{address}': 1, [DEPLOYMENTS]: 1 });
  });
});

describe('Address.transactions(filterSpamTokens:) reads listTransactionsV2', () => {
  it('serves the same transactions as v1, with each ERC-20 token\'s reputation', async () => {
    const wire = await direct<ListAddressTransactionsV2Response>(`/v2/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=50&filterSpamTokens=true`);
    expect(mismatches(wire, S.ListAddressTransactionsV2Response)).toEqual([]);
    const v1 = await direct<{ transactions: { nativeTransaction: { txHash: string } }[] }>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=50`);
    expect(wire.transactions.map((t) => t.nativeTransaction.txHash)).toEqual(v1.transactions.map((t) => t.nativeTransaction.txHash));

    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { address(address: $a) {
        transactions(first: 50, filterSpamTokens: true) { edges { node { nativeTransaction { txHash } erc20Transfers { erc20Token { address tokenReputation } } } } }
      } } }`, { c: f.evmChainId, a: f.address });
    const nodes = data.chain.address.transactions.edges.map((e: Data) => e.node);
    expect(nodes.map((n: Data) => n.nativeTransaction.txHash)).toEqual(wire.transactions.map((t) => t.nativeTransaction.txHash));
    const reputations = nodes.flatMap((n: Data) => n.erc20Transfers.map((x: Data) => x.erc20Token.tokenReputation));
    expect(reputations.length).toBeGreaterThan(0);
    expect(new Set(reputations)).toEqual(new Set(['BENIGN']));
    expect(routes()).toEqual({ 'GET /v1/chains/{chainId}': 1, [V2]: 1 });
  });
});

describe('an NFT collection\'s tokens', () => {
  it('lists the tokens the NFT lookup serves, and links each without another call', async () => {
    const wire = await direct<ListCollectionTokensResponse>(`/v1/chains/${f.evmChainId}/nfts/collections/${f.nftContract}/tokens?pageSize=3`);
    expect(mismatches(wire, S.ListCollectionTokensResponse)).toEqual([]);
    const one = await direct<NftToken>(`/v1/chains/${f.evmChainId}/nfts/collections/${f.nftContract}/tokens/${wire.tokens[0]?.tokenId}`);
    expect(wire.tokens[0]).toEqual(one);

    stack.devnet.resetStats();
    const data = await ok(`query($c: String!, $a: String!, $t: String!) { chain(chainId: $c) {
        contract(address: $a) { ... on Erc721Contract { tokens(first: 3) { edges { node { id tokenId metadata { name } } } pageInfo { hasNextPage } } } }
        nftToken(address: $a, tokenId: $t) { id }
      } }`, { c: f.evmChainId, a: f.nftContract, t: wire.tokens[0]?.tokenId });
    const tokens = data.chain.contract.tokens;
    expect(tokens.edges.map((e: Data) => e.node.tokenId)).toEqual(wire.tokens.map((t) => t.tokenId));
    expect(tokens.pageInfo.hasNextPage).toBe(true);
    expect(data.chain.nftToken.id).toBe(tokens.edges[0].node.id);
    expect(routes()[TOKENS]).toBe(1);
  });

  it('reads one listing per collection for a page of parent contracts', async () => {
    const deployer = (await direct<ContractMetadata>(`/v1/chains/${f.evmChainId}/addresses/${f.nftContract}`)).deploymentDetails?.deployerAddress ?? '';
    const deployed = await direct<ListContractDeploymentsResponse>(`/v1/chains/${f.evmChainId}/contracts/${deployer}/deployments?pageSize=100`);
    const collections = deployed.contracts.filter((c) => c.ercType === 'ERC-721' || c.ercType === 'ERC-1155').length;
    stack.devnet.resetStats();
    await ok(`query($c: String!, $a: String!) { chain(chainId: $c) { address(address: $a) { deployedContracts(first: 100) { edges { node {
        ... on Erc721Contract { tokens(first: 1) { edges { node { tokenId } } } }
        ... on Erc1155Contract { tokens(first: 1) { edges { node { tokenId } } } }
      } } } } } }`, { c: f.evmChainId, a: deployer });
    expect(collections).toBeGreaterThan(0);
    expect(routes()).toEqual({ 'GET /v1/chains/{chainId}': 1, [DEPLOYMENTS]: 1, [TOKENS]: collections });
  });
});

describe('reindexNft', () => {
  const MUTATION = `mutation($c: String!, $a: String!, $t: String!) { reindexNft(chainId: $c, address: $a, tokenId: $t) { tokenId token { tokenId } } }`;

  it('is refused without the caller\'s own key, before any call; with one it is one POST, and the spec\'s once an hour holds', async () => {
    const vars = { c: f.evmChainId, a: f.nftContract, t: f.nftTokenId };
    stack.devnet.resetStats();
    const refused = await stack.query(MUTATION, vars);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'FORBIDDEN' });
    expect(routes()).toEqual({});

    const key = { 'x-service-api-key': 'caller-own-key-123456' };
    const done = await stack.query<Data>(MUTATION, vars, key);
    expect(done.errors, JSON.stringify(done.errors)).toBeUndefined();
    expect(done.data.reindexNft).toEqual({ tokenId: f.nftTokenId, token: { tokenId: f.nftTokenId } });
    expect(routes()[REINDEX]).toBe(1);

    const again = await stack.query(MUTATION, vars, key);
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_RATE_LIMITED' });
    expect(routes()[REINDEX]).toBe(2);
  });

  it('refuses a token id that is not decimal before any call', async () => {
    stack.devnet.resetStats();
    const res = await stack.query(MUTATION, { c: f.evmChainId, a: f.nftContract, t: '0x1' }, { 'x-service-api-key': 'caller-own-key-123456' });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(routes()).toEqual({});
  });
});
