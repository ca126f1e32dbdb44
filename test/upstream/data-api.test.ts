import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';

// Every DataApi method against the devnet over real HTTP: the answer has the
// seed's shape, and the parameters reach the devnet (filters filter, page
// tokens page, bounds are enforced with the seed's error body).

let devnet: Devnet;
let api: DataApiClient;
let fx: NetworkFixtures;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300 });
  api = createDataApiClient({ baseUrl: devnet.url, apiKey: 'server-key' });
  const res = await fetch(`${devnet.url}/__devnet/fixtures`);
  fx = ((await res.json()) as { mainnet: NetworkFixtures }).mainnet;
});
afterAll(async () => {
  await api.close();
  await devnet.close();
});

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

const DECIMAL = /^\d+(\.\d+)?$/;

describe('signature aggregation (E1, E2)', () => {
  it('E1 aggregates a message', async () => {
    const { signedMessage } = await api.aggregateSignatures('mainnet', { message: `0x${'00'.repeat(40)}`, quorumPercentage: 67 });
    expect(signedMessage).toMatch(/^(0x)?[0-9a-f]+$/i);
  });

  it('E1 maps a 400 with the seed error body', async () => {
    const error = await failure(api.aggregateSignatures('mainnet', {}));
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1, operation: 'POST /v1/signatureAggregator/{network}/aggregateSignatures' });
    expect(error.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(error.message).toContain('One of message or justification must be provided');
  });

  it('E2 returns the signed message of a P-chain transaction', async () => {
    const { signedMessage } = await api.getAggregatedSignatures('mainnet', fx.pChainTxHash);
    expect(signedMessage).toMatch(/^(0x)?[0-9a-f]+$/i);
  });
});

describe('address endpoints (E3, E9, E10, E14)', () => {
  it('E3 lists transactions and pages with pageToken', async () => {
    const first = await api.listAddressTransactions(fx.evmChainId, fx.address, { pageSize: 2 });
    expect(first.transactions).toHaveLength(2);
    expect(first.nextPageToken).toBeTruthy();
    const item = first.transactions[0];
    expect(item?.nativeTransaction.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(Array.isArray(item?.erc20Transfers)).toBe(true);
    const second = await api.listAddressTransactions(fx.evmChainId, fx.address, { pageSize: 2, pageToken: first.nextPageToken });
    const seen = new Set(first.transactions.map((t) => t.nativeTransaction.txHash));
    expect(second.transactions.length).toBeGreaterThan(0);
    expect(second.transactions.some((t) => seen.has(t.nativeTransaction.txHash))).toBe(false);
  });

  it('E3 sorts by sortOrder', async () => {
    const asc = await api.listAddressTransactions(fx.evmChainId, fx.address, { pageSize: 5, sortOrder: 'asc' });
    const stamps = asc.transactions.map((t) => Number(t.nativeTransaction.blockTimestamp));
    expect(stamps).toEqual([...stamps].sort((a, b) => a - b));
  });

  it('E9 lists native transactions', async () => {
    const page = await api.listNativeTransactions(fx.evmChainId, fx.address, { pageSize: 3 });
    expect(page.transactions.length).toBeGreaterThan(0);
    expect(page.transactions.length).toBeLessThanOrEqual(3);
    for (const tx of page.transactions) {
      expect(tx.blockNumber).toMatch(/^\d+$/);
      expect([tx.from.address, tx.to.address].map((a) => a.toLowerCase())).toContain(fx.address.toLowerCase());
    }
  });

  it('E10 lists ERC-1155 balances with the native balance, filtered by contract', async () => {
    const all = await api.listErc1155Balances(fx.evmChainId, fx.address);
    expect(all.nativeTokenBalance.balance).toMatch(/^\d+$/);
    const filtered = await api.listErc1155Balances(fx.evmChainId, fx.address, { contractAddress: fx.erc1155Contract });
    for (const balance of filtered.erc1155TokenBalances) {
      expect(balance.address.toLowerCase()).toBe(fx.erc1155Contract.toLowerCase());
      expect(balance.ercType).toBe('ERC-1155');
    }
  });

  it('E14 returns the native balance in the asked currency, with string prices', async () => {
    const { nativeTokenBalance } = await api.getNativeBalance(fx.evmChainId, fx.address, { currency: 'eur' });
    expect(nativeTokenBalance.chainId).toBe(fx.evmChainId);
    expect(nativeTokenBalance.price?.currencyCode).toBe('eur');
    expect(nativeTokenBalance.price?.value).toMatch(DECIMAL);
  });
});

describe('UTXOs (E4)', () => {
  it('posts the addresses and pages through the P-chain UTXOs', async () => {
    const first = await api.listUtxos('mainnet', 'p-chain', { addresses: [fx.pChainAddress], pageSize: 2 });
    expect(first.utxos.length).toBeGreaterThan(0);
    expect(first.chainInfo).toMatchObject({ network: 'mainnet' });
    const bare = fx.pChainAddress.replace(/^P-/, '');
    for (const utxo of first.utxos) {
      expect(utxo.addresses.map((a) => a.replace(/^[PXC]-/, ''))).toContain(bare);
      expect(typeof utxo.outputIndex).toBe('number');
      expect(utxo.txHash).toBeTruthy();
    }
    if (first.nextPageToken) {
      const second = await api.listUtxos('mainnet', 'p-chain', { addresses: [fx.pChainAddress], pageSize: 2, pageToken: first.nextPageToken });
      const ids = new Set(first.utxos.map((u) => u.utxoId));
      expect(second.utxos.some((u) => ids.has(u.utxoId))).toBe(false);
    }
  });

  it('sends the query parameters (minUtxoAmount filters)', async () => {
    const all = await api.listUtxos('mainnet', 'p-chain', { addresses: [fx.pChainAddress], pageSize: 100, sortBy: 'amount', sortOrder: 'desc' });
    const amounts = all.utxos.map((u) => BigInt(u.amount));
    expect(amounts).toEqual([...amounts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    const top = amounts[0];
    if (top !== undefined) {
      const big = await api.listUtxos('mainnet', 'p-chain', { addresses: [fx.pChainAddress], pageSize: 100, minUtxoAmount: Number(top) });
      expect(big.utxos.every((u) => BigInt(u.amount) >= top)).toBe(true);
    }
  });

  it('maps a bad request (assetId on the P-chain) to a 400', async () => {
    const error = await failure(api.listUtxos('mainnet', 'p-chain', { addresses: [fx.pChainAddress], assetId: fx.avaxAssetId }));
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.message).toContain('assetId');
  });
});

describe('export operations (E5, getOperation)', () => {
  it('creates an export and reads it back', async () => {
    const created = await api.createTransactionExport({
      type: 'TRANSACTION_EXPORT_EVM',
      firstDate: '2024-01-01',
      lastDate: '2024-02-01',
      options: { addresses: [fx.address], includeChains: [fx.evmChainId] },
    });
    expect(created.operationId).toBeTruthy();
    expect(created.operationType).toBe('TRANSACTION_EXPORT_EVM');
    expect(typeof created.createdAtTimestamp).toBe('number');
    const read = await api.getOperation(created.operationId);
    expect(read.operationId).toBe(created.operationId);
  });

  it('reads the fixture operation, and 404s an unknown one', async () => {
    await expect(api.getOperation(fx.operationId)).resolves.toMatchObject({ operationId: fx.operationId });
    const error = await failure(api.getOperation('00000000-0000-0000-0000-000000000000'));
    expect(error.isNotFound).toBe(true);
    expect(error.operation).toBe('GET /v1/operations/{operationId}');
  });
});

describe('transactions and tokens (E6, E19, getTransaction)', () => {
  it('E6 returns the deployment transaction with its fee fields', async () => {
    const tx = await api.getDeploymentTransaction(fx.evmChainId, fx.contractAddress, { currency: 'usd' });
    expect(tx.nativeTransaction.txHash).toBe(fx.deploymentTxHash);
    expect(typeof tx.nativeTransaction.input).toBe('string');
    expect(tx.nativeTransaction.baseFeePerGas).toMatch(/^\d+$/);
    expect(tx.networkTokenDetails.networkToken.symbol).toBeTruthy();
  });

  it('getTransaction returns the complete view, and 404s an unknown hash', async () => {
    const tx = await api.getTransaction(fx.evmChainId, fx.txHash);
    expect(tx.nativeTransaction.txHash).toBe(fx.txHash);
    const error = await failure(api.getTransaction(fx.evmChainId, `0x${'ab'.repeat(32)}`));
    expect(error.isNotFound).toBe(true);
  });

  it('E19 returns an NFT token, and 404s an unknown one', async () => {
    const token = await api.getNftToken(fx.evmChainId, fx.nftContract, fx.nftTokenId);
    expect(token).toMatchObject({ tokenId: fx.nftTokenId, ercType: 'ERC-721' });
    expect(token.address.toLowerCase()).toBe(fx.nftContract.toLowerCase());
    expect(token.metadata.indexStatus).toBeTruthy();
    const error = await failure(api.getNftToken(fx.evmChainId, fx.nftContract, '987654321987'));
    expect(error).toMatchObject({ kind: 'http', status: 404 });
  });
});

describe('primary network lists (E7, E8, E11, E12, E13, E15, E18)', () => {
  it('E7 lists subnets and pages', async () => {
    const first = await api.listSubnets('mainnet', { pageSize: 2 });
    expect(first.subnets).toHaveLength(2);
    expect(first.subnets[0]?.subnetId).toBeTruthy();
    expect(Array.isArray(first.subnets[0]?.blockchains)).toBe(true);
    const second = await api.listSubnets('mainnet', { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.subnets[0]?.subnetId).not.toBe(first.subnets[0]?.subnetId);
  });

  it('E8 filters by a nodeIds list', async () => {
    const wanted = [fx.nodeId, fx.completedNodeId];
    const page = await api.listValidators('mainnet', { nodeIds: wanted, pageSize: 100 });
    const ids = new Set(page.validators.map((v) => v.nodeId));
    expect(ids).toEqual(new Set(wanted));
  });

  it('E8 filters by validationStatus and pages', async () => {
    const first = await api.listValidators('mainnet', { validationStatus: 'completed', pageSize: 3 });
    expect(first.validators).toHaveLength(3);
    expect(first.validators.every((v) => v.validationStatus === 'completed')).toBe(true);
    const second = await api.listValidators('mainnet', { validationStatus: 'completed', pageSize: 3, pageToken: first.nextPageToken });
    const seen = new Set(first.validators.map((v) => v.txHash));
    expect(second.validators.some((v) => seen.has(v.txHash))).toBe(false);
  });

  it('E8 enforces the pageSize bound with a 400 and the seed body', async () => {
    const error = await failure(api.listValidators('mainnet', { pageSize: 101 }));
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1, body: { statusCode: 400, error: 'Bad Request' } });
    expect(error.message).toContain('pageSize');
  });

  it('E8 accepts testnet as fuji', async () => {
    const page = await api.listValidators('testnet', { pageSize: 1 });
    expect(page.validators).toHaveLength(1);
  });

  it('E13 lists the delegators of one validator and pages', async () => {
    const first = await api.listDelegators('mainnet', { nodeIds: [fx.busyNodeId], pageSize: 2 });
    expect(first.delegators).toHaveLength(2);
    expect(first.delegators.every((d) => d.nodeId === fx.busyNodeId)).toBe(true);
    const second = await api.listDelegators('mainnet', { nodeIds: [fx.busyNodeId], pageSize: 2, pageToken: first.nextPageToken });
    expect(second.delegators.every((d) => d.nodeId === fx.busyNodeId)).toBe(true);
    const seen = new Set(first.delegators.map((d) => d.txHash));
    expect(second.delegators.some((d) => seen.has(d.txHash))).toBe(false);
  });

  it('E13 filters by delegationStatus and rewardAddresses', async () => {
    const active = await api.listDelegators('mainnet', { delegationStatus: 'active', pageSize: 5 });
    expect(active.delegators.every((d) => d.delegationStatus === 'active')).toBe(true);
    const mine = await api.listDelegators('mainnet', { rewardAddresses: [fx.rewardAddress], pageSize: 20 });
    for (const d of mine.delegators) expect(d.rewardAddresses.map((a) => a.replace(/^P-/, ''))).toContain(fx.rewardAddress);
  });

  it('E11 lists historical rewards by node, with string prices; requires a filter', async () => {
    const page = await api.listHistoricalRewards('mainnet', { nodeIds: [fx.completedNodeId], currency: 'usd', pageSize: 5 });
    expect(page.historicalRewards.length).toBeGreaterThan(0);
    for (const reward of page.historicalRewards) {
      expect(reward.nodeId).toBe(fx.completedNodeId);
      expect(reward.reward.amount).toMatch(/^\d+$/);
      if (reward.reward.historicalPrice) expect(reward.reward.historicalPrice.value).toMatch(DECIMAL);
    }
    const error = await failure(api.listHistoricalRewards('mainnet', {}));
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.message).toContain('At least one of addresses or nodeIds');
  });

  it('E11 filters by addresses', async () => {
    const page = await api.listHistoricalRewards('mainnet', { addresses: [fx.rewardAddress], pageSize: 5 });
    for (const reward of page.historicalRewards) {
      expect(reward.addresses.map((a) => a.replace(/^[PX]-/, ''))).toContain(fx.rewardAddress);
    }
  });

  it('E12 lists pending rewards by node', async () => {
    const page = await api.listPendingRewards('mainnet', { nodeIds: [fx.nodeId], pageSize: 5 });
    expect(page.pendingRewards.length).toBeGreaterThan(0);
    for (const reward of page.pendingRewards) {
      expect(reward.nodeId).toBe(fx.nodeId);
      expect(typeof reward.progress).toBe('number');
      expect(reward.estimatedReward.amount).toMatch(/^\d+$/);
    }
  });

  it('E15 lists the latest blocks and pages', async () => {
    const first = await api.listBlocks('mainnet', 'p-chain', { pageSize: 3 });
    expect(first.blocks).toHaveLength(3);
    expect(first.chainInfo).toBeDefined();
    const heights = first.blocks.map((b) => BigInt(b.blockNumber));
    const second = await api.listBlocks('mainnet', 'p-chain', { pageSize: 3, pageToken: first.nextPageToken });
    const lowest = heights.reduce((a, b) => (a < b ? a : b));
    expect(second.blocks.every((b) => BigInt(b.blockNumber) < lowest)).toBe(true);
  });

  it('E15 filters by timestamps', async () => {
    const latest = await api.listBlocks('mainnet', 'c-chain', { pageSize: 5 });
    const oldest = Math.min(...latest.blocks.map((b) => Number(b.blockTimestamp)));
    const older = await api.listBlocks('mainnet', 'c-chain', { pageSize: 5, endTimestamp: oldest });
    expect(older.blocks.every((b) => Number(b.blockTimestamp) <= oldest)).toBe(true);
  });

  it('E18 lists X-chain vertices', async () => {
    const page = await api.listVertices('mainnet', 'x-chain', { pageSize: 2 });
    expect(page.vertices).toHaveLength(2);
    expect(page.vertices[0]?.vertexHash).toBeTruthy();
    const error = await failure(api.listVertices('mainnet', 'p-chain'));
    expect(error).toMatchObject({ kind: 'http', status: 400 });
  });
});

describe('chains and ICM (E16, E17)', () => {
  it('E17 lists chains by network and feature', async () => {
    const fuji = await api.listChains({ network: 'fuji' });
    expect(fuji.chains.length).toBeGreaterThan(0);
    expect(fuji.chains.every((c) => c.isTestnet)).toBe(true);
    const teleporter = await api.listChains({ feature: 'teleporter' });
    expect(teleporter.chains.every((c) => c.enabledFeatures?.includes('teleporter'))).toBe(true);
    const all = await api.listChains();
    expect(all.chains.length).toBeGreaterThan(fuji.chains.length);
  });

  it('E16 lists the ICM messages of an address', async () => {
    const page = await api.listIcmMessages(fx.icmAddress, { network: 'mainnet', pageSize: 5 });
    expect(page.messages.length).toBeGreaterThan(0);
    const address = fx.icmAddress.toLowerCase();
    for (const m of page.messages) {
      expect([m.from.toLowerCase(), m.to.toLowerCase()]).toContain(address);
      if (m.rewardDetails.price) expect(m.rewardDetails.price.value).toMatch(DECIMAL);
    }
  });
});

describe('coverage', () => {
  it('reached every Data API route of the devnet', () => {
    const routes = Object.keys(devnet.stats().byRoute);
    const expected = [
      'POST /v1/signatureAggregator/{network}/aggregateSignatures',
      'GET /v1/signatureAggregator/{network}/aggregateSignatures/{txHash}',
      'GET /v1/chains/{chainId}/addresses/{address}/transactions',
      'POST /v1/networks/{network}/blockchains/{blockchainId}/utxos',
      'POST /v1/operations/transactions:export',
      'GET /v1/chains/{chainId}/contracts/{address}/transactions:getDeployment',
      'GET /v1/networks/{network}/subnets',
      'GET /v1/networks/{network}/validators',
      'GET /v1/chains/{chainId}/addresses/{address}/transactions:listNative',
      'GET /v1/chains/{chainId}/addresses/{address}/balances:listErc1155',
      'GET /v1/networks/{network}/rewards',
      'GET /v1/networks/{network}/rewards:listPending',
      'GET /v1/networks/{network}/delegators',
      'GET /v1/chains/{chainId}/addresses/{address}/balances:getNative',
      'GET /v1/networks/{network}/blockchains/{blockchainId}/blocks',
      'GET /v1/icm/addresses/{address}/messages',
      'GET /v1/chains',
      'GET /v1/networks/{network}/blockchains/{blockchainId}/vertices',
      'GET /v1/chains/{chainId}/nfts/collections/{address}/tokens/{tokenId}',
      'GET /v1/operations/{operationId}',
      'GET /v1/chains/{chainId}/transactions/{txHash}',
    ];
    expect(routes.filter((r) => expected.includes(r)).sort()).toEqual([...expected].sort());
    expect(routes.some((r) => r.includes('(unmatched)'))).toBe(false);
  });
});
