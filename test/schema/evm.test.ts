import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import type {
  Chain, FullTransaction, ListAddressTransactionsResponse, ListErc1155BalancesResponse, ListNativeTransactionsResponse, NftToken,
} from '../../src/shapes/index.ts';
import { dataOf, devnetGet, type GraphQLResponse, startStack, type TestStack } from '../helpers/stack.ts';
import { isoOf, priceOf, u64 } from '../helpers/exact.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- GraphQL results are walked dynamically */
type Data = any;

let stack: TestStack;
let f: NetworkFixtures;

/** Runs a query and fails the test on any GraphQL error. */
const ok = (query: string, variables?: Record<string, unknown>): Promise<Data> => dataOf<Data>(stack, query, variables);

const direct = <T>(path: string): Promise<T> => devnetGet<T>(stack, path);

beforeAll(async () => {
  stack = await startStack();
  f = stack.devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await stack?.close();
});

const CHAIN_FIELDS = `
  id chainId status chainName description platformChainId subnetId vmId vmName explorerUrl rpcUrl wsUrl isTestnet network
  utilityAddresses { multicall } networkToken { name symbol decimals logoUri description } chainLogoUri private enabledFeatures
`;

const FEATURE_OF: Record<string, string> = { nftIndexing: 'NFT_INDEXING', webhooks: 'WEBHOOKS', teleporter: 'TELEPORTER' };

function expectChain(gql: Data, wire: Chain): void {
  expect(gql).toMatchObject({
    chainId: wire.chainId,
    status: wire.status,
    chainName: wire.chainName,
    description: wire.description,
    // Optional in the spec: a sparse chain leaves them out, which the gateway serves as null.
    platformChainId: wire.platformChainId ?? null,
    subnetId: wire.subnetId ?? null,
    vmId: wire.vmId ?? null,
    vmName: wire.vmName,
    explorerUrl: wire.explorerUrl ?? null,
    rpcUrl: wire.rpcUrl,
    wsUrl: wire.wsUrl ?? null,
    isTestnet: wire.isTestnet,
    network: wire.isTestnet ? 'FUJI' : 'MAINNET',
    utilityAddresses: { multicall: wire.utilityAddresses?.multicall },
    networkToken: { ...wire.networkToken },
    chainLogoUri: wire.chainLogoUri ?? null,
    private: wire.private ?? null,
    enabledFeatures: (wire.enabledFeatures ?? []).map((x) => FEATURE_OF[x]),
  });
}

describe('chains', () => {
  it('lists every chain with every field, and filters by network and feature', async () => {
    const all = await direct<{ chains: Chain[] }>('/v1/chains');
    const data = await ok(`{
      all: chains { ${CHAIN_FIELDS} }
      fuji: chains(network: TESTNET) { chainId isTestnet }
      teleporter: chains(feature: TELEPORTER) { chainId enabledFeatures }
      mainnetNft: chains(network: MAINNET, feature: NFT_INDEXING) { chainId isTestnet enabledFeatures }
    }`);
    expect(data.all).toHaveLength(all.chains.length);
    all.chains.forEach((wire, i) => expectChain(data.all[i], wire));
    expect(data.fuji.map((c: Data) => c.chainId)).toEqual(all.chains.filter((c) => c.isTestnet).map((c) => c.chainId));
    expect(data.teleporter.map((c: Data) => c.chainId)).toEqual(
      all.chains.filter((c) => c.enabledFeatures?.includes('teleporter')).map((c) => c.chainId),
    );
    expect(data.teleporter.length).toBeGreaterThan(0);
    expect(data.teleporter.length).toBeLessThan(all.chains.length);
    for (const c of data.mainnetNft) {
      expect(c.isTestnet).toBe(false);
      expect(c.enabledFeatures).toContain('NFT_INDEXING');
    }
  });

  it('finds a chain by EVM chain id or blockchain id from one E17 call per request; null when unknown', async () => {
    stack.devnet.resetStats();
    const data = await ok(
      `query($id: String!, $bc: String!, $sub: String!) {
        list: chains { chainId }
        byEvm: chain(chainId: $id) { ${CHAIN_FIELDS} }
        byBlockchain: chain(chainId: $bc) { chainId }
        subnetChain: chain(chainId: $sub) { chainId }
        unknown: chain(chainId: "999999999") { chainId }
      }`,
      { id: f.evmChainId, bc: f.blockchainId, sub: f.subnetEvmChainId },
    );
    const wire = (await direct<{ chains: Chain[] }>('/v1/chains')).chains.find((c) => c.chainId === f.evmChainId) as Chain;
    expectChain(data.byEvm, wire);
    expect(data.byBlockchain.chainId).toBe(f.evmChainId);
    expect(data.subnetChain.chainId).toBe(f.subnetEvmChainId);
    expect(data.unknown).toBeNull();
    // one for the request, one for the direct comparison above
    expect(stack.devnet.stats().byRoute['GET /v1/chains']).toBe(2);
  });

  it('links a chain to its subnet and its P-chain blockchain', async () => {
    const data = await ok(
      `query($id: String!) { chain(chainId: $id) { subnetId platformChainId subnet { subnetId } blockchain { blockchainId } } }`,
      { id: f.subnetEvmChainId },
    );
    expect(data.chain.subnet.subnetId).toBe(data.chain.subnetId);
    expect(data.chain.blockchain.blockchainId).toBe(data.chain.platformChainId);
  });

  it('reads `c-chain` as the C-Chain of the network asked (MAINNET when omitted), as the primary-chain fields do', async () => {
    const data = await ok(`{
      mainnet: chain(chainId: "c-chain") { chainId isTestnet }
      fuji: chain(chainId: "C-Chain", network: FUJI) { chainId isTestnet }
      primary: network(name: FUJI) { blockchain(id: "c-chain") { blockchainId } }
    }`);
    expect(data.mainnet).toEqual({ chainId: '43114', isTestnet: false });
    expect(data.fuji).toEqual({ chainId: '43113', isTestnet: true });
    const byBlockchain = await ok(`query($id: String!) { chain(chainId: $id) { chainId } }`, { id: data.primary.blockchain.blockchainId });
    expect(byBlockchain.chain.chainId).toBe('43113');
  });

  it('refuses `p-chain` and `x-chain` where an EVM chain is meant, saying where to read them, before any upstream call', async () => {
    stack.devnet.resetStats();
    for (const alias of ['p-chain', 'X-CHAIN']) {
      const result = await stack.query(`query($id: String!) { chain(chainId: $id) { chainId } }`, { id: alias });
      expect(result.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(result.errors?.[0]?.message).toContain('is not an EVM chain');
      expect(result.errors?.[0]?.message).toContain(`blockchain(id: "${alias.toLowerCase()}")`);
    }
    // Elsewhere a chain id is an EVM chain id: `c-chain` is refused with the two ids to use.
    const icm = await stack.query(`{ icmMessages(address: "0x00000000000000000000000000000000000000a1", filter: { sourceBlockchainId: "c-chain" }) { edges { cursor } } }`);
    expect(icm.errors?.[0]?.message).toMatch(/43114 on mainnet, 43113 on Fuji/);
    expect(stack.devnet.stats().requests).toBe(0);
  });
});

const NATIVE_FIELDS = `
  blockNumber blockTimestamp blockTime blockHash chainId blockIndex txHash txStatus txType gasLimit gasUsed gasPrice nonce value
  from { address name symbol decimals logoUri } to { address name symbol decimals logoUri }
  method { callType methodHash methodName }
`;
const METADATA_FIELDS = `
  indexStatus metadataLastUpdatedTimestamp metadataLastUpdatedTime name symbol imageUri description animationUri externalUrl background attributes decimals properties
`;
const TRANSFER_FIELDS = `
  erc20Transfers { from { address } to { address } logIndex value erc20Token { address name symbol decimals logoUri ercType price { currencyCode value } } }
  erc721Transfers { from { address } to { address } logIndex erc721Token { address name symbol ercType tokenId tokenUri ownerAddress metadata { ${METADATA_FIELDS} } } }
  erc1155Transfers { from { address } to { address } logIndex value erc1155Token { address ercType tokenId tokenUri metadata { ${METADATA_FIELDS} } } }
  internalTransactions { from { address } to { address } internalTxType value isReverted gasUsed gasLimit }
`;

/** Compares a gateway native transaction with the wire one (enum and optional fields mapped). */
function expectNative(gql: Data, wire: Data): void {
  const { method, from, to, ...scalars } = wire;
  expect(gql).toMatchObject({ ...scalars, blockTimestamp: u64(wire.blockTimestamp), blockTime: isoOf(wire.blockTimestamp) });
  expect(gql.from.address).toBe(from.address);
  expect(gql.to.address).toBe(to.address);
  if (method) expect(gql.method).toEqual({ callType: method.callType, methodHash: method.methodHash, methodName: method.methodName ?? null });
}

function expectTransfers(gql: Data, wire: Data): void {
  expect(gql.erc20Transfers).toHaveLength(wire.erc20Transfers.length);
  wire.erc20Transfers.forEach((t: Data, i: number) => {
    expect(gql.erc20Transfers[i]).toMatchObject({ logIndex: t.logIndex, value: t.value, from: { address: t.from.address }, to: { address: t.to.address } });
    expect(gql.erc20Transfers[i].erc20Token).toMatchObject({ address: t.erc20Token.address, symbol: t.erc20Token.symbol, ercType: 'ERC_20' });
  });
  expect(gql.erc721Transfers).toHaveLength(wire.erc721Transfers.length);
  wire.erc721Transfers.forEach((t: Data, i: number) => {
    expect(gql.erc721Transfers[i].erc721Token).toMatchObject({ address: t.erc721Token.address, tokenId: t.erc721Token.tokenId, ercType: 'ERC_721' });
  });
  expect(gql.erc1155Transfers).toHaveLength(wire.erc1155Transfers.length);
  wire.erc1155Transfers.forEach((t: Data, i: number) => {
    expect(gql.erc1155Transfers[i]).toMatchObject({ value: t.value });
    expect(gql.erc1155Transfers[i].erc1155Token).toMatchObject({ address: t.erc1155Token.address, tokenId: t.erc1155Token.tokenId, ercType: 'ERC_1155' });
  });
  expect(gql.internalTransactions).toHaveLength(wire.internalTransactions.length);
  wire.internalTransactions.forEach((t: Data, i: number) => {
    expect(gql.internalTransactions[i]).toMatchObject({ value: t.value, isReverted: t.isReverted, gasUsed: t.gasUsed, gasLimit: t.gasLimit });
  });
}

describe('Chain.transaction, contractDeployment, nftToken', () => {
  it('serves the complete view of a transaction', async () => {
    const wire = await direct<FullTransaction>(`/v1/chains/${f.evmChainId}/transactions/${f.txHash}`);
    const data = await ok(
      `query($id: String!, $tx: String!) { chain(chainId: $id) { transaction(txHash: $tx) {
        id chain { chainId }
        nativeTransaction { ${NATIVE_FIELDS} input baseFeePerGas maxFeePerGas maxPriorityFeePerGas }
        ${TRANSFER_FIELDS}
        networkTokenDetails { networkToken { name symbol decimals } currentPrice { currencyCode currencyCodeRaw value } historicalPrice { currencyCode currencyCodeRaw value } }
        teleporterMessageInfo { teleporterMessageId direction sourceChainId destinationChainId }
      } } }`,
      { id: f.evmChainId, tx: f.txHash },
    );
    const tx = data.chain.transaction;
    expect(tx.chain.chainId).toBe(f.evmChainId);
    expectNative(tx.nativeTransaction, wire.nativeTransaction);
    expectTransfers(tx, wire);
    expect(tx.internalTransactions.length).toBeGreaterThan(0);
    expect(tx.networkTokenDetails.networkToken.symbol).toBe(wire.networkTokenDetails.networkToken.symbol);
    expect(tx.networkTokenDetails.currentPrice).toEqual(priceOf(wire.networkTokenDetails.currentPrice));
    expect(tx.networkTokenDetails.historicalPrice).toEqual(priceOf(wire.networkTokenDetails.historicalPrice));
    expect(tx.teleporterMessageInfo).toBeNull();
  });

  it('serves a transaction that carries an ICM message, with links to both chains', async () => {
    const data = await ok(
      `query($id: String!, $tx: String!) { chain(chainId: $id) { transaction(txHash: $tx) {
        teleporterMessageInfo { teleporterMessageId direction sourceChainId destinationChainId sourceChain { chainId } destinationChain { chainId platformChainId } }
      } } }`,
      { id: f.icmSourceEvmChainId, tx: f.icmSourceTxHash },
    );
    const info = data.chain.transaction.teleporterMessageInfo;
    expect(info.direction).toBe('SOURCE_TRANSACTION');
    expect(info.destinationChain.platformChainId).toBe(info.destinationChainId);
    expect(info.sourceChain).toBeNull();
  });

  it('serves a contract deployment with prices in the asked currency', async () => {
    const wire = await direct<FullTransaction>(`/v1/chains/${f.evmChainId}/contracts/${f.contractAddress}/transactions:getDeployment?currency=eur`);
    const data = await ok(
      `query($id: String!, $a: String!) { chain(chainId: $id) { contractDeployment(address: $a, currency: EUR) {
        id nativeTransaction { ${NATIVE_FIELDS} input baseFeePerGas maxFeePerGas maxPriorityFeePerGas }
        ${TRANSFER_FIELDS}
        networkTokenDetails { currentPrice { currencyCode currencyCodeRaw value } }
      } } }`,
      { id: f.evmChainId, a: f.contractAddress },
    );
    const tx = data.chain.contractDeployment;
    expect(tx.nativeTransaction.txHash).toBe(f.deploymentTxHash);
    expect(tx.nativeTransaction.method.callType).toBe('CONTRACT_CREATION');
    expect(tx.nativeTransaction.input).toBe(wire.nativeTransaction.input);
    // The currency comes back in the form it was asked in.
    expect(tx.networkTokenDetails.currentPrice).toMatchObject({ currencyCode: 'EUR', currencyCodeRaw: 'eur' });
    expectNative(tx.nativeTransaction, wire.nativeTransaction);
  });

  it('serves an NFT with its metadata', async () => {
    const wire = await direct<NftToken>(`/v1/chains/${f.evmChainId}/nfts/collections/${f.nftContract}/tokens/${f.nftTokenId}`);
    const data = await ok(
      `query($id: String!, $a: String!, $t: String!) { chain(chainId: $id) { nftToken(address: $a, tokenId: $t) {
        id chain { chainId } address name symbol ercType tokenId tokenUri ownerAddress metadata { ${METADATA_FIELDS} }
      } } }`,
      { id: f.evmChainId, a: f.nftContract, t: f.nftTokenId },
    );
    const token = data.chain.nftToken;
    expect(token).toMatchObject({
      address: wire.address, name: wire.name, symbol: wire.symbol, ercType: 'ERC_721', tokenId: wire.tokenId, tokenUri: wire.tokenUri, ownerAddress: wire.ownerAddress,
    });
    const { indexStatus, ...metadata } = wire.metadata;
    expect(token.metadata).toMatchObject({
      ...metadata,
      indexStatus: String(indexStatus).toUpperCase(),
      metadataLastUpdatedTimestamp: u64(metadata.metadataLastUpdatedTimestamp),
      metadataLastUpdatedTime: isoOf(metadata.metadataLastUpdatedTimestamp),
    });
    expect(token.chain.chainId).toBe(f.evmChainId);
  });

  it('returns null for a transaction, deployment or NFT that does not exist', async () => {
    const data = await ok(
      `query($id: String!, $nft: String!) { chain(chainId: $id) {
        transaction(txHash: "0x${'0'.repeat(64)}") { id }
        contractDeployment(address: "0x${'0'.repeat(40)}") { id }
        nftToken(address: $nft, tokenId: "99999999") { id }
      } }`,
      { id: f.evmChainId, nft: f.nftContract },
    );
    expect(data.chain).toEqual({ transaction: null, contractDeployment: null, nftToken: null });
  });
});

const ADDRESS_TXS = `query($id: String!, $a: String!, $first: Int, $after: String, $start: UInt64, $end: UInt64, $order: SortOrder) {
  chain(chainId: $id) { address(address: $a) { transactions(first: $first, after: $after, startBlock: $start, endBlock: $end, sortOrder: $order) {
    edges { cursor node { nativeTransaction { ${NATIVE_FIELDS} } ${TRANSFER_FIELDS} } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  } } } }`;

/** Walks a whole connection page by page; returns every node. */
async function walk(first: number, extra: Record<string, unknown>): Promise<{ nodes: Data[]; pages: number }> {
  const nodes: Data[] = [];
  let after: string | null = null;
  let pages = 0;
  for (;;) {
    const data = await ok(ADDRESS_TXS, { id: f.evmChainId, a: f.address, first, after, ...extra });
    const conn = data.chain.address.transactions;
    pages += 1;
    expect(conn.edges.length).toBeLessThanOrEqual(first);
    nodes.push(...conn.edges.map((e: Data) => e.node));
    if (!conn.pageInfo.hasNextPage) break;
    expect(conn.edges).toHaveLength(first);
    after = conn.pageInfo.endCursor;
    expect(pages).toBeLessThan(50);
  }
  return { nodes, pages };
}

describe('Address', () => {
  it('walks Address.transactions across pages, item by item equal to the upstream listing', async () => {
    const wire = await direct<ListAddressTransactionsResponse>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=100`);
    expect(wire.nextPageToken).toBeUndefined();
    expect(wire.transactions.length).toBeGreaterThan(20);
    const { nodes, pages } = await walk(9, {});
    expect(pages).toBe(Math.ceil(wire.transactions.length / 9));
    expect(nodes).toHaveLength(wire.transactions.length);
    nodes.forEach((node, i) => {
      const item = wire.transactions[i] as Data;
      expectNative(node.nativeTransaction, item.nativeTransaction);
      expectTransfers(node, item);
    });
  });

  it('passes startBlock, endBlock and sortOrder through, and cursors stay bound to them', async () => {
    const all = await direct<ListAddressTransactionsResponse>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=100&sortOrder=asc`);
    const blocks = all.transactions.map((t) => Number(t.nativeTransaction.blockNumber));
    const start = blocks[5] as number;
    const end = blocks[30] as number;
    const wire = await direct<ListAddressTransactionsResponse>(
      `/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions?pageSize=100&sortOrder=asc&startBlock=${start}&endBlock=${end}`,
    );
    const { nodes } = await walk(4, { start, end, order: 'ASC' });
    expect(nodes.map((n) => n.nativeTransaction.txHash)).toEqual(wire.transactions.map((t) => t.nativeTransaction.txHash));
    expect(nodes.length).toBeGreaterThan(4);

    const first = await ok(ADDRESS_TXS, { id: f.evmChainId, a: f.address, first: 2, start, end, order: 'ASC' });
    const res = await stack.query(ADDRESS_TXS, { id: f.evmChainId, a: f.address, first: 2, after: first.chain.address.transactions.pageInfo.endCursor, order: 'DESC' });
    expect(res.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('links each listed transaction to its complete view, each fetched once', async () => {
    stack.devnet.resetStats();
    const data = await ok(
      `query($id: String!, $a: String!) { chain(chainId: $id) { address(address: $a) {
        transactions(first: 5) { edges { node { nativeTransaction { txHash transaction { id } } transaction { id nativeTransaction { txHash input } erc20Transfers { logIndex } } } } }
      } } }`,
      { id: f.evmChainId, a: f.address },
    );
    const edges = data.chain.address.transactions.edges;
    for (const e of edges) {
      expect(e.node.transaction.nativeTransaction.txHash).toBe(e.node.nativeTransaction.txHash);
      expect(e.node.nativeTransaction.transaction.id).toBe(e.node.transaction.id);
    }
    expect(stack.devnet.stats().byRoute['GET /v1/chains/{chainId}/transactions/{txHash}']).toBe(edges.length);
  });

  it('serves native transactions (E9) page by page, equal to the upstream listing', async () => {
    const wire = await direct<ListNativeTransactionsResponse>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/transactions:listNative?pageSize=100`);
    const q = `query($id: String!, $a: String!, $after: String) { chain(chainId: $id) { address(address: $a) {
      nativeTransactions(first: 20, after: $after) { edges { node { ${NATIVE_FIELDS} transaction { nativeTransaction { txHash } } } } pageInfo { hasNextPage endCursor } }
    } } }`;
    const page1 = (await ok(q, { id: f.evmChainId, a: f.address })).chain.address.nativeTransactions;
    const page2 = (await ok(q, { id: f.evmChainId, a: f.address, after: page1.pageInfo.endCursor })).chain.address.nativeTransactions;
    const nodes = [...page1.edges, ...page2.edges].map((e: Data) => e.node);
    expect(page1.pageInfo.hasNextPage).toBe(true);
    nodes.forEach((n, i) => {
      const { transaction, ...rest } = n;
      expectNative(rest, wire.transactions[i]);
      expect(transaction.nativeTransaction.txHash).toBe(n.txHash);
    });
    const ranged = await ok(
      `query($id: String!, $a: String!, $s: UInt64, $e: UInt64) { chain(chainId: $id) { address(address: $a) { nativeTransactions(first: 100, startBlock: $s, endBlock: $e) { edges { node { blockNumber } } } } } }`,
      { id: f.evmChainId, a: f.address, s: Number(wire.transactions[10]?.blockNumber), e: Number(wire.transactions[2]?.blockNumber) },
    );
    for (const e of ranged.chain.address.nativeTransactions.edges) {
      expect(Number(e.node.blockNumber)).toBeGreaterThanOrEqual(Number(wire.transactions[10]?.blockNumber));
      expect(Number(e.node.blockNumber)).toBeLessThan(Number(wire.transactions[2]?.blockNumber));
    }
  });

  it('serves the native balance (E14) now and at a block, in a currency', async () => {
    const now = (await direct<Data>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/balances:getNative?currency=jpy`)).nativeTokenBalance;
    const data = await ok(
      `query($id: String!, $a: String!, $b: String) { chain(chainId: $id) { address(address: $a) {
        id address chain { chainId }
        now: nativeBalance(currency: JPY) { name symbol decimals logoUri chainId price { currencyCode currencyCodeRaw value } balance balanceValue { currencyCode currencyCodeRaw value } }
        then: nativeBalance(blockNumber: $b) { balance price { currencyCode } }
      } } }`,
      { id: f.evmChainId, a: f.address.toUpperCase().replace('0X', '0x'), b: '1000' },
    );
    const a = data.chain.address;
    expect(a.address).toBe(f.address);
    expect(a.chain.chainId).toBe(f.evmChainId);
    expect(a.now).toEqual({ ...now, logoUri: now.logoUri ?? null, price: priceOf(now.price), balanceValue: priceOf(now.balanceValue) });
    expect(a.now.price.currencyCode).toBe('JPY');
    const then = (await direct<Data>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/balances:getNative?blockNumber=1000`)).nativeTokenBalance;
    expect(a.then).toEqual({ balance: then.balance, price: { currencyCode: 'USD' } });
  });

  it('serves ERC-1155 balances (E10) with the native balance alongside, filtered by contract', async () => {
    const wire = await direct<ListErc1155BalancesResponse>(`/v1/chains/${f.evmChainId}/addresses/${f.address}/balances:listErc1155?pageSize=500`);
    const q = `query($id: String!, $a: String!, $first: Int, $after: String, $c: String) { chain(chainId: $id) { address(address: $a) {
      erc1155Balances(first: $first, after: $after, contractAddress: $c) {
        nativeTokenBalance { balance symbol chainId }
        edges { node { address ercType tokenId tokenUri chainId balance metadata { ${METADATA_FIELDS} } } }
        pageInfo { hasNextPage endCursor }
      } } } }`;
    const page1 = (await ok(q, { id: f.evmChainId, a: f.address, first: 5 })).chain.address.erc1155Balances;
    const page2 = (await ok(q, { id: f.evmChainId, a: f.address, first: 5, after: page1.pageInfo.endCursor })).chain.address.erc1155Balances;
    expect(page1.nativeTokenBalance).toEqual({ balance: wire.nativeTokenBalance.balance, symbol: wire.nativeTokenBalance.symbol, chainId: f.evmChainId });
    expect(page2.nativeTokenBalance.balance).toBe(wire.nativeTokenBalance.balance);
    const nodes = [...page1.edges, ...page2.edges].map((e: Data) => e.node);
    nodes.forEach((n, i) => {
      const w = wire.erc1155TokenBalances[i] as Data;
      expect(n).toMatchObject({ address: w.address, ercType: 'ERC_1155', tokenId: w.tokenId, tokenUri: w.tokenUri, chainId: w.chainId, balance: w.balance });
    });
    const filtered = (await ok(q, { id: f.evmChainId, a: f.address, first: 500, c: f.erc1155Contract })).chain.address.erc1155Balances;
    expect(filtered.edges.length).toBeGreaterThan(0);
    for (const e of filtered.edges) expect(e.node.address).toBe(f.erc1155Contract);
  });
});

describe('node(id:) refetch', () => {
  it('round-trips Chain, Address, Transaction and NftToken', async () => {
    const data = await ok(
      `query($id: String!, $a: String!, $tx: String!, $nft: String!, $t: String!) { chain(chainId: $id) {
        id address(address: $a) { id } transaction(txHash: $tx) { id } nftToken(address: $nft, tokenId: $t) { id }
      } }`,
      { id: f.evmChainId, a: f.address, tx: f.txHash, nft: f.nftContract, t: f.nftTokenId },
    );
    const c = data.chain;
    const back = await ok(
      `query($ids: [ID!]!) { nodes(ids: $ids) {
        __typename id
        ... on Chain { chainId }
        ... on Address { address chain { chainId } }
        ... on Transaction { nativeTransaction { txHash } }
        ... on NftToken { address tokenId }
      } }`,
      { ids: [c.id, c.address.id, c.transaction.id, c.nftToken.id] },
    );
    expect(back.nodes).toEqual([
      { __typename: 'Chain', id: c.id, chainId: f.evmChainId },
      { __typename: 'Address', id: c.address.id, address: f.address, chain: { chainId: f.evmChainId } },
      { __typename: 'Transaction', id: c.transaction.id, nativeTransaction: { txHash: f.txHash } },
      { __typename: 'NftToken', id: c.nftToken.id, address: f.nftContract, tokenId: f.nftTokenId },
    ]);
  });
});

describe('bad input', () => {
  const q = (selection: string) => `query($id: String!) { chain(chainId: $id) { ${selection} } }`;
  const address = (selection: string) => q(`address(address: "${'0x' + 'a'.repeat(40)}") { ${selection} }`);
  const cases: [string, string, Record<string, unknown>?][] = [
    ['empty chain id', '{ chain(chainId: " ") { chainId } }'],
    ['UNKNOWN feature', '{ chains(feature: UNKNOWN) { chainId } }'],
    ['short address', q('address(address: "0x1234") { address }')],
    ['address without 0x', q(`address(address: "${'a'.repeat(40)}") { address }`)],
    ['bad tx hash', q('transaction(txHash: "0x1234") { id }')],
    ['bad deployment address', q('contractDeployment(address: "nope") { id }')],
    ['bad NFT contract', q('nftToken(address: "0x12", tokenId: "1") { id }')],
    ['non-digit token id', q(`nftToken(address: "${'0x' + 'b'.repeat(40)}", tokenId: "1a") { id }`)],
    ['transactions first 0', address('transactions(first: 0) { edges { cursor } }')],
    ['transactions first 101', address('transactions(first: 101) { edges { cursor } }')],
    ['negative startBlock', address('transactions(startBlock: -1) { edges { cursor } }')],
    ['negative endBlock', address('transactions(endBlock: -5) { edges { cursor } }')],
    ['empty block range', address('transactions(startBlock: 10, endBlock: 10) { edges { cursor } }')],
    ['reversed block range', address('nativeTransactions(startBlock: 10, endBlock: 3) { edges { cursor } }')],
    ['nativeTransactions first 101', address('nativeTransactions(first: 101) { edges { cursor } }')],
    ['erc1155 first 501', address('erc1155Balances(first: 501) { edges { cursor } }')],
    ['erc1155 non-digit blockNumber', address('erc1155Balances(blockNumber: "0x10") { edges { cursor } }')],
    ['erc1155 bad contract', address('erc1155Balances(contractAddress: "0x1") { edges { cursor } }')],
    ['icm first 0', address('icmMessages(first: 0) { edges { cursor } }')],
    ['bad cursor', address('transactions(after: "not-a-cursor") { edges { cursor } }')],
    [
      'non-digit blockNumber',
      `query($id: String!, $b: String) { chain(chainId: $id) { address(address: "${'0x' + 'a'.repeat(40)}") { nativeBalance(blockNumber: $b) { balance } } } }`,
      { b: 'latest' },
    ],
  ];

  it.each(cases)('%s: BAD_USER_INPUT before any upstream call', async (_name, query, vars) => {
    stack.devnet.resetStats();
    const res: GraphQLResponse = await stack.query(query, { id: f.evmChainId, ...vars });
    expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors)).toBe('BAD_USER_INPUT');
    expect(stack.devnet.stats().requests).toBe(0);
  });
});
