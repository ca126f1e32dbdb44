import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures as Fixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { isSparse } from './sparse-records.ts';

/**
 * The EVM half of the devnet's Data API over real HTTP: chains, address
 * histories, balances, deployments, single transactions and NFTs.
 */

interface Json { [k: string]: unknown }
interface AddressInfo { address: string }
interface Transfer { from: AddressInfo; to: AddressInfo; logIndex?: number }
interface NativeTx extends Json {
  blockNumber: string;
  blockTimestamp: number;
  txHash: string;
  from: AddressInfo;
  to: AddressInfo;
  method: { callType: string; methodHash: string; methodName: string };
}
interface TxItem {
  nativeTransaction: NativeTx;
  erc20Transfers: Transfer[];
  erc721Transfers: Transfer[];
  erc1155Transfers: Transfer[];
  internalTransactions: Transfer[];
}
interface FullTx extends TxItem {
  nativeTransaction: NativeTx & { input: string; baseFeePerGas: string; maxFeePerGas: string; maxPriorityFeePerGas: string };
  networkTokenDetails: { networkToken: Json; currentPrice: { currencyCode: string; value: number }; historicalPrice: { currencyCode: string; value: number } };
}

const DIGITS = /^\d+$/;

let devnet: Devnet;
let fx: Fixtures;
let fuji: Fixtures;

async function call(path: string, init?: RequestInit): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${devnet.url}${path}`, init);
  return { status: res.status, body: (await res.json()) as Json };
}

async function ok<T = Json>(path: string): Promise<T> {
  const { status, body } = await call(path);
  expect(status, `${path} -> ${JSON.stringify(body)}`).toBe(200);
  return body as T;
}

async function expectError(path: string, status: number): Promise<void> {
  const res = await call(path);
  expect(res.status, path).toBe(status);
  expect(res.body).toEqual({
    message: expect.any(String),
    statusCode: status,
    error: status === 400 ? 'Bad Request' : 'Not Found',
  });
}

/** Every page of a list, following nextPageToken. */
async function walk<T>(path: string, key: string, pageSize: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let token: string | undefined;
  let pages = 0;
  const sep = path.includes('?') ? '&' : '?';
  do {
    const body = await ok(`${path}${sep}pageSize=${pageSize}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    const page = body[key] as T[];
    pages += 1;
    items.push(...page);
    token = body.nextPageToken as string | undefined;
    if (token !== undefined) expect(page).toHaveLength(pageSize);
    expect(pages).toBeLessThan(200);
  } while (token);
  return { items, pages };
}

function expectNativeTxTypes(tx: NativeTx): void {
  for (const k of ['blockNumber', 'gasLimit', 'gasUsed', 'gasPrice', 'nonce', 'value', 'txStatus']) {
    expect(tx[k], k).toMatch(DIGITS);
  }
  for (const k of ['blockTimestamp', 'blockIndex', 'txType']) expect(Number.isInteger(tx[k]), k).toBe(true);
  expect(tx.txHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(tx.blockHash).toMatch(/^0x[0-9a-f]{64}$/);
  expect(['NATIVE_TRANSFER', 'CONTRACT_CALL', 'CONTRACT_CREATION']).toContain(tx.method.callType);
  // Seconds, not milliseconds.
  expect(tx.blockTimestamp).toBeLessThan(4_000_000_000);
}

const involves = (address: string) => (t: Transfer): boolean => t.from.address === address || t.to.address === address;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60 });
  const all = await ok<Record<'mainnet' | 'fuji', Fixtures>>('/__devnet/fixtures');
  fx = all.mainnet;
  fuji = all.fuji;
});

afterAll(async () => {
  await devnet?.close();
});

describe('fixtures', () => {
  it('name EVM samples on both networks', () => {
    for (const f of [fx, fuji]) {
      expect(f.evmChainId).toMatch(DIGITS);
      expect(f.address).toMatch(/^0x[0-9a-f]{40}$/);
      expect(f.contractAddress).toMatch(/^0x[0-9a-f]{40}$/);
      expect(f.nftContract).toMatch(/^0x[0-9a-f]{40}$/);
      expect(f.nftTokenId).toMatch(DIGITS);
      expect(f.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    }
    expect(fx.evmChainId).toBe('43114');
    expect(fuji.evmChainId).toBe('43113');
  });
});

describe('GET /v1/chains (E17)', () => {
  it('lists every chain of both networks with the seed fields, and no page token', async () => {
    const body = await ok<{ chains: Json[]; nextPageToken?: string }>('/v1/chains');
    expect(body.nextPageToken).toBeUndefined();
    const ids = body.chains.map((c) => c.chainId);
    expect(ids).toContain('43114');
    expect(ids).toContain('43113');
    expect(body.chains.length).toBeGreaterThanOrEqual(4);
    for (const c of body.chains) {
      for (const k of ['chainId', 'status', 'chainName', 'description', 'vmName', 'rpcUrl']) {
        expect(typeof c[k], `${String(c.chainId)}.${k}`).toBe('string');
      }
      // Optional in the spec: every chain has them, but a sparse one may leave the values out (not the links).
      for (const k of ['platformChainId', 'subnetId', 'vmId', 'explorerUrl', 'wsUrl', 'chainLogoUri']) {
        if (c[k] !== undefined || !isSparse(c)) expect(typeof c[k], `${String(c.chainId)}.${k}`).toBe('string');
      }
      expect(c.chainId).toMatch(DIGITS);
      expect(c.vmName).toBe('EVM');
      expect(typeof c.isTestnet).toBe('boolean');
      if (c.private !== undefined || !isSparse(c)) expect(typeof c.private).toBe('boolean');
      expect(c.utilityAddresses).toEqual({ multicall: expect.stringMatching(/^0x[0-9a-f]{40}$/) });
      const token = c.networkToken as Json;
      expect(token).toEqual({
        name: expect.any(String), symbol: expect.any(String), decimals: 18,
        ...(token.logoUri !== undefined || !isSparse(c) ? { logoUri: expect.any(String) } : {}),
        ...(token.description !== undefined || !isSparse(c) ? { description: expect.any(String) } : {}),
      });
      expect(Array.isArray(c.enabledFeatures)).toBe(true);
    }
  });

  it('filters by network, with testnet as an alias of fuji', async () => {
    const mainnet = (await ok<{ chains: Json[] }>('/v1/chains?network=mainnet')).chains;
    const fujiChains = (await ok<{ chains: Json[] }>('/v1/chains?network=fuji')).chains;
    const testnet = (await ok<{ chains: Json[] }>('/v1/chains?network=testnet')).chains;
    expect(mainnet.length).toBeGreaterThanOrEqual(2);
    expect(mainnet.every((c) => c.isTestnet === false)).toBe(true);
    expect(fujiChains.every((c) => c.isTestnet === true)).toBe(true);
    expect(testnet).toEqual(fujiChains);
    expect(mainnet[0]?.platformChainId).toBe(fx.blockchainId);
  });

  it('filters by feature, and the filter both keeps and drops chains', async () => {
    const all = (await ok<{ chains: Json[] }>('/v1/chains')).chains;
    for (const feature of ['nftIndexing', 'webhooks', 'teleporter']) {
      const chains = (await ok<{ chains: Json[] }>(`/v1/chains?feature=${feature}`)).chains;
      expect(chains.length, feature).toBeGreaterThan(0);
      expect(chains.every((c) => (c.enabledFeatures as string[]).includes(feature))).toBe(true);
      expect(chains.length).toBe(all.filter((c) => (c.enabledFeatures as string[]).includes(feature)).length);
    }
    const some = (await ok<{ chains: Json[] }>('/v1/chains?feature=webhooks')).chains;
    expect(some.length).toBeLessThan(all.length);
  });

  it('rejects unknown networks and features', async () => {
    await expectError('/v1/chains?network=devnet', 400);
    await expectError('/v1/chains?feature=bridges', 400);
  });
});

describe('address transactions (E3)', () => {
  const path = (): string => `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions`;

  it('pages through a rich history, newest first, with a token only when there is more', async () => {
    const { items, pages } = await walk<TxItem>(path(), 'transactions', 10);
    expect(items.length).toBeGreaterThan(30);
    expect(pages).toBe(Math.ceil(items.length / 10));
    const all = (await ok<{ transactions: TxItem[]; nextPageToken?: string }>(`${path()}?pageSize=100`));
    expect(all.nextPageToken).toBeUndefined();
    expect(all.transactions.map((t) => t.nativeTransaction.txHash)).toEqual(items.map((t) => t.nativeTransaction.txHash));
    const ts = items.map((t) => t.nativeTransaction.blockTimestamp);
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
    expect((await ok<{ transactions: TxItem[] }>(path())).transactions).toHaveLength(10);
  });

  it('has every kind of transfer, all three call types, and only the address own transfers', async () => {
    const { transactions } = await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100`);
    const callTypes = new Set(transactions.map((t) => t.nativeTransaction.method.callType));
    expect([...callTypes].sort()).toEqual(['CONTRACT_CALL', 'CONTRACT_CREATION', 'NATIVE_TRANSFER']);
    for (const key of ['erc20Transfers', 'erc721Transfers', 'erc1155Transfers', 'internalTransactions'] as const) {
      expect(transactions.some((t) => t[key].length > 0), key).toBe(true);
      for (const t of transactions) expect(t[key].every(involves(fx.address)), key).toBe(true);
    }
    for (const t of transactions) expectNativeTxTypes(t.nativeTransaction);
    const erc20 = transactions.flatMap((t) => t.erc20Transfers)[0] as unknown as Json;
    expect(erc20.value).toMatch(DIGITS);
    expect(erc20.erc20Token).toMatchObject({ ercType: 'ERC-20', decimals: expect.any(Number), price: { currencyCode: 'usd', value: expect.any(Number) } });
    const erc721 = transactions.flatMap((t) => t.erc721Transfers)[0] as unknown as { erc721Token: Json };
    expect(erc721.erc721Token).toMatchObject({ ercType: 'ERC-721', tokenId: expect.stringMatching(DIGITS), metadata: { indexStatus: 'INDEXED', attributes: expect.any(String) } });
    const internal = transactions.flatMap((t) => t.internalTransactions)[0] as unknown as Json;
    expect(internal).toMatchObject({ internalTxType: expect.any(String), value: expect.stringMatching(DIGITS), isReverted: false, gasUsed: expect.stringMatching(DIGITS), gasLimit: expect.stringMatching(DIGITS) });
  });

  it('sorts ascending on request, and filters blocks with startBlock inclusive and endBlock exclusive', async () => {
    const desc = (await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100`)).transactions;
    const asc = (await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100&sortOrder=asc`)).transactions;
    expect(asc.map((t) => t.nativeTransaction.txHash)).toEqual([...desc].reverse().map((t) => t.nativeTransaction.txHash));

    const blocks = asc.map((t) => Number(t.nativeTransaction.blockNumber));
    const start = blocks[5] as number;
    const end = blocks[20] as number;
    const ranged = (await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100&startBlock=${start}&endBlock=${end}`)).transactions;
    expect(ranged.length).toBe(blocks.filter((b) => b >= start && b < end).length);
    expect(ranged.some((t) => Number(t.nativeTransaction.blockNumber) === start)).toBe(true);
    expect(ranged.some((t) => Number(t.nativeTransaction.blockNumber) === end)).toBe(false);
    const onlyStart = (await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100&startBlock=${start}`)).transactions;
    expect(onlyStart.length).toBe(blocks.filter((b) => b >= start).length);
    const onlyEnd = (await ok<{ transactions: TxItem[] }>(`${path()}?pageSize=100&endBlock=${end}`)).transactions;
    expect(onlyEnd.length).toBe(blocks.filter((b) => b < end).length);
  });

  it('accepts the blockchain id for the chain, and any address case', async () => {
    const byEvmId = await ok(`${path()}?pageSize=5`);
    const byBlockchainId = await ok(`/v1/chains/${fx.blockchainId}/addresses/${fx.address.toUpperCase().replace('0X', '0x')}/transactions?pageSize=5`);
    expect(byBlockchainId.transactions).toEqual(byEvmId.transactions);
  });

  it('enforces the bounds of the seed', async () => {
    await ok(`${path()}?pageSize=1`);
    await ok(`${path()}?pageSize=100`);
    for (const q of ['pageSize=0', 'pageSize=101', 'pageSize=abc', 'pageSize=1.5', 'sortOrder=up', 'startBlock=-1', 'endBlock=x', 'startBlock=10&endBlock=5', 'pageToken=garbage']) {
      await expectError(`${path()}?${q}`, 400);
    }
    await expectError(`/v1/chains/${fx.evmChainId}/addresses/0x1234/transactions`, 400);
    await expectError(`/v1/chains/999999999/addresses/${fx.address}/transactions`, 404);
  });

  it('binds a page token to the filters it was issued for', async () => {
    const first = await ok(`${path()}?pageSize=5`);
    const token = encodeURIComponent(first.nextPageToken as string);
    await ok(`${path()}?pageSize=5&pageToken=${token}`);
    await expectError(`${path()}?pageSize=5&sortOrder=asc&pageToken=${token}`, 400);
    await expectError(`/v1/chains/${fx.evmChainId}/addresses/${fx.contractAddress}/transactions?pageSize=5&pageToken=${token}`, 400);
  });

  it('gives any address a deterministic history on every chain', async () => {
    const other = '0x00000000000000000000000000000000000000aa';
    const a = await ok(`/v1/chains/${fx.evmChainId}/addresses/${other}/transactions?pageSize=100`);
    const b = await ok(`/v1/chains/${fx.evmChainId}/addresses/${other}/transactions?pageSize=100`);
    expect(a).toEqual(b);
    if (fx.subnetEvmChainId) {
      const sub = await ok<{ transactions: TxItem[] }>(`/v1/chains/${fx.subnetEvmChainId}/addresses/${fx.address}/transactions?pageSize=100`);
      expect(sub.transactions.length).toBeGreaterThan(30);
      expect(sub.transactions.every((t) => t.nativeTransaction.chainId === fx.subnetEvmChainId)).toBe(true);
    }
  });
});

describe('single transactions', () => {
  it('return the complete view, a superset of the address-scoped one', async () => {
    const { transactions } = await ok<{ transactions: TxItem[] }>(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions?pageSize=100`);
    let larger = 0;
    for (const item of transactions.slice(0, 25)) {
      const full = await ok<FullTx>(`/v1/chains/${fx.evmChainId}/transactions/${item.nativeTransaction.txHash}`);
      expect(full.nativeTransaction).toMatchObject(item.nativeTransaction);
      for (const key of ['erc20Transfers', 'erc721Transfers', 'erc1155Transfers', 'internalTransactions'] as const) {
        for (const t of item[key]) expect(full[key]).toContainEqual(t);
        if (full[key].length > item[key].length) larger += 1;
      }
    }
    expect(larger).toBeGreaterThan(0);
  });

  it('the fixture hash has transfers the address is not part of', async () => {
    const full = await ok<FullTx>(`/v1/chains/${fx.evmChainId}/transactions/${fx.txHash}`);
    expect(full.nativeTransaction.txHash).toBe(fx.txHash);
    expectNativeTxTypes(full.nativeTransaction);
    expect(full.nativeTransaction.input).toMatch(/^0x[0-9a-f]*$/);
    expect(full.nativeTransaction.baseFeePerGas).toMatch(DIGITS);
    const all = [...full.erc20Transfers, ...full.internalTransactions];
    expect(all.some((t) => !involves(fx.address)(t))).toBe(true);
    expect(full.networkTokenDetails.currentPrice).toEqual({ currencyCode: 'usd', value: expect.any(Number) });
  });

  it('404 for unknown hashes or another chain, 400 for malformed ones', async () => {
    await expectError(`/v1/chains/${fx.evmChainId}/transactions/0x${'ab'.repeat(32)}`, 404);
    await expectError(`/v1/chains/${fuji.evmChainId}/transactions/${fx.txHash}`, 404);
    await expectError(`/v1/chains/${fx.evmChainId}/transactions/0x1234`, 400);
    await expectError(`/v1/chains/nope/transactions/${fx.txHash}`, 404);
  });
});

describe('native transactions (E9)', () => {
  it('lists only transactions the address sent or received natively, newest first', async () => {
    const path = `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listNative`;
    const { items } = await walk<NativeTx>(path, 'transactions', 7);
    expect(items.length).toBeGreaterThan(10);
    for (const tx of items) {
      expectNativeTxTypes(tx);
      expect(tx.from.address === fx.address || tx.to.address === fx.address).toBe(true);
      expect(tx).not.toHaveProperty('input');
    }
    const ts = items.map((t) => t.blockTimestamp);
    expect(ts).toEqual([...ts].sort((a, b) => b - a));
    const e3 = (await ok<{ transactions: TxItem[] }>(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions?pageSize=100`)).transactions;
    expect(items.length).toBeLessThan(e3.length);
    const mid = Number(items[Math.floor(items.length / 2)]?.blockNumber);
    const later = (await ok<{ transactions: NativeTx[] }>(`${path}?pageSize=100&startBlock=${mid}`)).transactions;
    expect(later.every((t) => Number(t.blockNumber) >= mid)).toBe(true);
    await expectError(`${path}?pageSize=101`, 400);
  });
});

describe('balances (E10, E14)', () => {
  const base = (): string => `/v1/chains/${fx.evmChainId}/addresses/${fx.address}`;

  it('ERC-1155 balances page, carry full metadata, and filter by contract', async () => {
    const { items } = await walk<Json>(`${base()}/balances:listErc1155`, 'erc1155TokenBalances', 3);
    expect(items.length).toBeGreaterThanOrEqual(5);
    for (const b of items) {
      expect(b).toMatchObject({ ercType: 'ERC-1155', chainId: fx.evmChainId, balance: expect.stringMatching(DIGITS), tokenId: expect.stringMatching(DIGITS), tokenUri: expect.any(String) });
      const m = b.metadata as Json;
      expect(m).toMatchObject({ indexStatus: 'INDEXED', decimals: 0, properties: expect.any(String), name: expect.any(String), imageUri: expect.any(String) });
      expect(Number.isInteger(m.metadataLastUpdatedTimestamp)).toBe(true);
    }
    const first = await ok(`${base()}/balances:listErc1155`);
    expect((first.nativeTokenBalance as Json).balance).toMatch(DIGITS);
    const contract = items[0]?.address as string;
    const filtered = (await ok<{ erc1155TokenBalances: Json[] }>(`${base()}/balances:listErc1155?pageSize=500&contractAddress=${contract}`)).erc1155TokenBalances;
    expect(filtered.length).toBe(items.filter((b) => b.address === contract).length);
    expect(filtered.every((b) => b.address === contract)).toBe(true);
  });

  it('ERC-1155 balances at an old block are a subset, and bounds are enforced', async () => {
    const now = (await ok<{ erc1155TokenBalances: Json[] }>(`${base()}/balances:listErc1155?pageSize=500`)).erc1155TokenBalances;
    const genesis = await ok<{ erc1155TokenBalances: Json[]; nativeTokenBalance: Json }>(`${base()}/balances:listErc1155?pageSize=500&blockNumber=0`);
    expect(genesis.erc1155TokenBalances).toEqual([]);
    expect(genesis.nativeTokenBalance.balance).toBe('0');
    expect(now.length).toBeGreaterThan(0);
    for (const q of ['pageSize=501', 'pageSize=0', 'blockNumber=abc', 'blockNumber=-5', 'contractAddress=0xzz']) {
      await expectError(`${base()}/balances:listErc1155?${q}`, 400);
    }
  });

  it('native balance is priced in the requested currency', async () => {
    const usd = (await ok<{ nativeTokenBalance: Json }>(`${base()}/balances:getNative`)).nativeTokenBalance;
    const eur = (await ok<{ nativeTokenBalance: Json }>(`${base()}/balances:getNative?currency=eur`)).nativeTokenBalance;
    expect(usd).toMatchObject({ name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId: fx.evmChainId, balance: expect.stringMatching(DIGITS) });
    expect(BigInt(usd.balance as string)).toBeGreaterThan(0n);
    expect(usd.price).toEqual({ currencyCode: 'usd', value: expect.any(Number) });
    expect(eur.price).toEqual({ currencyCode: 'eur', value: expect.any(Number) });
    expect((eur.balanceValue as Json).currencyCode).toBe('eur');
    expect(eur.balance).toBe(usd.balance);
    expect(Number((eur.price as Json).value)).not.toBe(Number((usd.price as Json).value));
    await expectError(`${base()}/balances:getNative?currency=USD`, 400);
    await expectError(`${base()}/balances:getNative?currency=btc`, 400);
    await expectError(`${base()}/balances:getNative?blockNumber=1e5`, 400);
  });
});

describe('deployments (E6)', () => {
  it('return the creation transaction with fee fields and prices in the currency', async () => {
    const path = `/v1/chains/${fx.evmChainId}/contracts/${fx.contractAddress}/transactions:getDeployment`;
    const tx = await ok<FullTx>(`${path}?currency=jpy`);
    expect(tx.nativeTransaction.method.callType).toBe('CONTRACT_CREATION');
    expect(tx.nativeTransaction.to.address).toBe(fx.contractAddress);
    expect(tx.nativeTransaction.from.address).toBe(fx.address);
    expect(tx.nativeTransaction.input).toMatch(/^0x[0-9a-f]{8,}$/);
    for (const k of ['baseFeePerGas', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) expect(tx.nativeTransaction[k]).toMatch(DIGITS);
    expect(tx.networkTokenDetails.currentPrice.currencyCode).toBe('jpy');
    expect(tx.networkTokenDetails.historicalPrice).toEqual({ currencyCode: 'jpy', value: expect.any(Number) });
    expect(tx.networkTokenDetails.networkToken).toMatchObject({ symbol: 'AVAX', decimals: 18 });
    expect(tx.nativeTransaction.txHash).toBe(fx.deploymentTxHash);
    const same = await ok<FullTx>(`/v1/chains/${fx.evmChainId}/transactions/${fx.deploymentTxHash}`);
    expect(same.nativeTransaction).toEqual((await ok<FullTx>(path)).nativeTransaction);
    const usd = await ok<FullTx>(path);
    expect(usd.networkTokenDetails.currentPrice.currencyCode).toBe('usd');
  });

  it('404 for an address that is not a contract, 400 for a bad currency or address', async () => {
    await expectError(`/v1/chains/${fx.evmChainId}/contracts/${fx.address}/transactions:getDeployment`, 404);
    await expectError(`/v1/chains/${fx.evmChainId}/contracts/${fx.contractAddress}/transactions:getDeployment?currency=xyz`, 400);
    await expectError(`/v1/chains/${fx.evmChainId}/contracts/nope/transactions:getDeployment`, 400);
  });
});

describe('NFT tokens (E19)', () => {
  it('ERC-721 tokens carry full metadata and their owner', async () => {
    const t = await ok(`/v1/chains/${fx.evmChainId}/nfts/collections/${fx.nftContract}/tokens/${fx.nftTokenId}`);
    expect(t).toMatchObject({
      address: fx.nftContract, name: expect.any(String), symbol: expect.any(String), ercType: 'ERC-721',
      tokenId: fx.nftTokenId, tokenUri: expect.any(String), ownerAddress: fx.address,
    });
    const m = t.metadata as Json;
    for (const k of ['name', 'symbol', 'imageUri', 'description', 'animationUri', 'externalUrl', 'background', 'attributes']) {
      expect(typeof m[k], k).toBe('string');
    }
    expect(m.indexStatus).toBe('INDEXED');
    expect(Number.isInteger(m.metadataLastUpdatedTimestamp)).toBe(true);
    expect(Array.isArray(JSON.parse(m.attributes as string))).toBe(true);
  });

  it('ERC-1155 tokens have decimals and properties', async () => {
    const t = await ok(`/v1/chains/${fx.evmChainId}/nfts/collections/${fx.erc1155Contract}/tokens/${fx.erc1155TokenId}`);
    expect(t).toMatchObject({ ercType: 'ERC-1155', metadata: { decimals: 0, properties: expect.any(String), indexStatus: 'INDEXED' } });
  });

  it('404 for unknown tokens and collections, 400 for malformed ids', async () => {
    const base = `/v1/chains/${fx.evmChainId}/nfts/collections`;
    await expectError(`${base}/${fx.nftContract}/tokens/99999999`, 404);
    await expectError(`${base}/0x${'12'.repeat(20)}/tokens/1`, 404);
    await expectError(`${base}/${fx.nftContract}/tokens/abc`, 400);
    await expectError(`${base}/0x12/tokens/1`, 400);
  });
});
