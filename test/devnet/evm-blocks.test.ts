import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures as Fixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import type {
  Chain, ContractMetadata, ContractTransfer, EvmBlock, FullTransaction, ListContractTransfersResponse, ListEvmBlocksResponse,
  ListNativeTransactionsResponse, NativeTransaction,
} from '../../src/shapes/index.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * The devnet's EVM chain operations over real HTTP (getChainInfo, getLatestBlocks,
 * getBlock, getTransactionsForBlock, listLatestTransactions, getContractMetadata,
 * listTransfers): the spec's shapes exactly, consistent with the transactions the
 * devnet already serves, paged by position tokens, and the spec's errors.
 */

let devnet: Devnet;
let fx: Fixtures;

async function call(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${devnet.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function ok<T>(path: string): Promise<T> {
  const { status, body } = await call(path);
  expect(status, `${path} -> ${JSON.stringify(body)}`).toBe(200);
  return body as T;
}

async function expectError(path: string, status: 400 | 404): Promise<void> {
  const { status: got, body } = await call(path);
  expect(got, path).toBe(status);
  expect(mismatches(body, S.ErrorBody), path).toEqual([]);
  expect(body).toMatchObject({ statusCode: status, error: status === 400 ? 'Bad Request' : 'Not Found' });
}

const chainPath = (): string => `/v1/chains/${fx.evmChainId}`;

beforeAll(async () => {
  // A fixed clock: the latest block does not move between the reads of one test.
  const now = Date.now();
  devnet = await startDevnet({ validators: 40, now: () => now });
  fx = devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await devnet?.close();
});

describe('getChainInfo', () => {
  it('answers the chain-list object by EVM chain id and by blockchain id; 404 for an unknown chain', async () => {
    const list = await ok<{ chains: Chain[] }>('/v1/chains');
    const byEvmId = await ok<Chain>(chainPath());
    expect(mismatches(byEvmId, S.Chain)).toEqual([]);
    expect(byEvmId).toEqual(list.chains.find((c) => c.chainId === fx.evmChainId));
    expect(await ok<Chain>(`/v1/chains/${fx.blockchainId}`)).toEqual(byEvmId);
    await expectError('/v1/chains/999999999', 404);
  });
});

describe('blocks', () => {
  it('lists the latest blocks newest first, each one the parent of the one before, with exact counts', async () => {
    const first = await ok<ListEvmBlocksResponse>(`${chainPath()}/blocks?pageSize=5`);
    expect(mismatches(first, S.ListEvmBlocksResponse)).toEqual([]);
    expect(first.blocks).toHaveLength(5);
    const second = await ok<ListEvmBlocksResponse>(`${chainPath()}/blocks?pageSize=5&pageToken=${first.nextPageToken}`);
    const blocks = [...first.blocks, ...second.blocks];
    for (let i = 1; i < blocks.length; i++) {
      const [newer, older] = [blocks[i - 1] as EvmBlock, blocks[i] as EvmBlock];
      expect(Number(older.blockNumber)).toBe(Number(newer.blockNumber) - 1);
      expect(newer.parentHash).toBe(older.blockHash);
      expect(BigInt(newer.cumulativeTransactions) - BigInt(older.cumulativeTransactions)).toBe(BigInt(newer.txCount));
      expect(Number(newer.blockTimestamp)).toBeGreaterThanOrEqual(Number(older.blockTimestamp));
    }
    for (const block of blocks.slice(0, 3)) {
      const txs = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${block.blockNumber}/transactions?pageSize=100`);
      expect(txs.transactions).toHaveLength(block.txCount);
      expect(txs.transactions.reduce((sum, tx) => sum + BigInt(tx.gasUsed), 0n)).toBe(BigInt(block.gasUsed));
    }
  });

  it('finds a block by number and by hash, and answers 404 past the latest block or for an unknown hash', async () => {
    const [latest] = (await ok<ListEvmBlocksResponse>(`${chainPath()}/blocks?pageSize=1`)).blocks as [EvmBlock];
    const byNumber = await ok<EvmBlock>(`${chainPath()}/blocks/${latest.blockNumber}`);
    expect(mismatches(byNumber, S.EvmBlock)).toEqual([]);
    expect(byNumber).toEqual(latest);
    expect(await ok<EvmBlock>(`${chainPath()}/blocks/${latest.blockHash}`)).toEqual(latest);
    expect(await ok<EvmBlock>(`${chainPath()}/blocks/${latest.blockHash.toUpperCase().replace('0X', '0x')}`)).toEqual(latest);
    await expectError(`${chainPath()}/blocks/${Number(latest.blockNumber) + 1}`, 404);
    await expectError(`${chainPath()}/blocks/0x${'ab'.repeat(32)}`, 404);
    await expectError(`${chainPath()}/blocks/not-a-block`, 400);
    await expectError('/v1/chains/999999999/blocks', 404);
  });

  it("lists a served transaction in its block, and every transaction a block lists resolves to the same block", async () => {
    const tx = await ok<FullTransaction>(`${chainPath()}/transactions/${fx.txHash}`);
    const { blockNumber, blockHash } = tx.nativeTransaction;
    const block = await ok<EvmBlock>(`${chainPath()}/blocks/${blockHash}`);
    expect(block.blockNumber).toBe(blockNumber);
    const listed = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${blockNumber}/transactions?pageSize=100`);
    expect(mismatches(listed, S.ListNativeTransactionsResponse)).toEqual([]);
    const mine = listed.transactions.find((t) => t.txHash === fx.txHash);
    expect(mine, 'the fixture transaction is listed in its block').toBeDefined();
    const { input: _input, baseFeePerGas: _base, maxFeePerGas: _max, maxPriorityFeePerGas: _tip, ...native } = tx.nativeTransaction;
    expect(mine).toEqual(native);
    const indexes = listed.transactions.map((t) => t.blockIndex);
    expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    for (const t of listed.transactions) {
      const full = await ok<FullTransaction>(`${chainPath()}/transactions/${t.txHash}`);
      expect(full.nativeTransaction.blockNumber).toBe(blockNumber);
      expect(full.nativeTransaction.blockHash).toBe(blockHash);
    }
  });

  it("pages a block's transactions and refuses a token of another block", async () => {
    // A block with at least two transactions (each block has 1 to 5).
    const block = (await ok<ListEvmBlocksResponse>(`${chainPath()}/blocks?pageSize=20`)).blocks.find((b) => b.txCount >= 2) as EvmBlock;
    const all = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${block.blockNumber}/transactions`);
    const first = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${block.blockNumber}/transactions?pageSize=1`);
    expect(first.transactions).toEqual(all.transactions.slice(0, 1));
    expect(first.nextPageToken).toBeDefined();
    const rest = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${block.blockNumber}/transactions?pageSize=100&pageToken=${first.nextPageToken}`);
    expect([...first.transactions, ...rest.transactions]).toEqual(all.transactions);
    expect(rest.nextPageToken).toBeUndefined();
    await expectError(`${chainPath()}/blocks/${Number(block.blockNumber) - 1}/transactions?pageToken=${first.nextPageToken}`, 400);
    await expectError(`${chainPath()}/blocks/${block.blockNumber}/transactions?pageSize=101`, 400);
  });
});

describe('listLatestTransactions', () => {
  it('walks the latest blocks newest first, filters by status and pages without gaps', async () => {
    const first = await ok<ListNativeTransactionsResponse>(`${chainPath()}/transactions?pageSize=7`);
    expect(mismatches(first, S.ListNativeTransactionsResponse)).toEqual([]);
    const second = await ok<ListNativeTransactionsResponse>(`${chainPath()}/transactions?pageSize=7&pageToken=${first.nextPageToken}`);
    const both = await ok<ListNativeTransactionsResponse>(`${chainPath()}/transactions?pageSize=14`);
    expect([...first.transactions, ...second.transactions]).toEqual(both.transactions);
    const order = both.transactions.map((t: NativeTransaction) => [Number(t.blockNumber), -t.blockIndex]);
    expect(order).toEqual([...order].sort((a, b) => (b[0] as number) - (a[0] as number) || (b[1] as number) - (a[1] as number)));

    const failed = await ok<ListNativeTransactionsResponse>(`${chainPath()}/transactions?pageSize=5&status=failed`);
    expect(failed.transactions).toHaveLength(5);
    expect(failed.transactions.every((t) => t.txStatus === '0')).toBe(true);
    const success = await ok<ListNativeTransactionsResponse>(`${chainPath()}/transactions?pageSize=5&status=success`);
    expect(success.transactions.every((t) => t.txStatus === '1')).toBe(true);

    await expectError(`${chainPath()}/transactions?status=pending`, 400);
    await expectError(`${chainPath()}/transactions?pageSize=0`, 400);
    await expectError(`${chainPath()}/transactions?pageToken=garbage`, 400);
    // A token is bound to its filters.
    await expectError(`${chainPath()}/transactions?status=failed&pageToken=${first.nextPageToken}`, 400);
  });
});

describe('getContractMetadata', () => {
  it('describes every token contract the blocks and the fixture history transfer, each variant in its own shape', async () => {
    const history = await ok<{ transactions: { erc20Transfers: ContractTransfer[]; erc721Transfers: ContractTransfer[]; erc1155Transfers: ContractTransfer[] }[] }>(
      `${chainPath()}/addresses/${fx.address}/transactions?pageSize=100`,
    );
    const tokens = new Map<string, string>();
    for (const item of history.transactions) {
      for (const t of item.erc20Transfers) tokens.set(t.erc20Token?.address ?? '', 'ERC-20');
      for (const t of item.erc721Transfers) tokens.set(t.erc721Token?.address ?? '', 'ERC-721');
      for (const t of item.erc1155Transfers) tokens.set(t.erc1155Token?.address ?? '', 'ERC-1155');
    }
    expect([...new Set(tokens.values())].sort()).toEqual(['ERC-1155', 'ERC-20', 'ERC-721']);
    for (const [address, ercType] of tokens) {
      const contract = await ok<ContractMetadata>(`${chainPath()}/addresses/${address}`);
      expect(mismatches(contract, S.ContractMetadata), address).toEqual([]);
      expect(contract.ercType).toBe(ercType);
      expect(contract.address).toBe(address);
      expect(contract.decimals !== undefined).toBe(ercType === 'ERC-20');
    }
  });

  it("points at the contract's deployment transaction, sent by the deployer to the contract", async () => {
    const contract = await ok<ContractMetadata>(`${chainPath()}/addresses/${fx.contractAddress}`);
    expect(contract.deploymentDetails?.txHash).toBe(fx.deploymentTxHash);
    const deployment = await ok<FullTransaction>(`${chainPath()}/transactions/${contract.deploymentDetails?.txHash}`);
    expect(deployment.nativeTransaction.from.address).toBe(contract.deploymentDetails?.deployerAddress);
    expect(deployment.nativeTransaction.to.address).toBe(fx.contractAddress);
  });

  it('answers UNKNOWN for a contract that is not a token, 404 for an address that is no contract', async () => {
    const history = await ok<{ transactions: { nativeTransaction: NativeTransaction }[] }>(`${chainPath()}/addresses/${fx.address}/transactions?pageSize=100`);
    const swap = history.transactions.find((t) => t.nativeTransaction.method?.methodName?.startsWith('swapExact'));
    const router = await ok<ContractMetadata>(`${chainPath()}/addresses/${swap?.nativeTransaction.to.address}`);
    expect(mismatches(router, S.ContractMetadata)).toEqual([]);
    expect(router.ercType).toBe('UNKNOWN');
    expect(router.symbol).toBeUndefined();
    await expectError(`${chainPath()}/addresses/${fx.address}`, 404);
    await expectError(`${chainPath()}/addresses/0x123`, 400);
  });
});

describe('listTransfers', () => {
  it("lists a token's transfers newest first, each one found in its block and in its transaction", async () => {
    const first = await ok<ListContractTransfersResponse>(`/v1/chains/${fx.evmChainId}/tokens/${fx.nftContract}/transfers?pageSize=4`);
    expect(mismatches(first, S.ListContractTransfersResponse)).toEqual([]);
    expect(first.transfers).toHaveLength(4);
    const second = await ok<ListContractTransfersResponse>(`/v1/chains/${fx.evmChainId}/tokens/${fx.nftContract}/transfers?pageSize=4&pageToken=${first.nextPageToken}`);
    const both = await ok<ListContractTransfersResponse>(`/v1/chains/${fx.evmChainId}/tokens/${fx.nftContract}/transfers?pageSize=8`);
    expect([...first.transfers, ...second.transfers]).toEqual(both.transfers);
    const numbers = both.transfers.map((t) => Number(t.blockNumber));
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    for (const transfer of both.transfers.slice(0, 4)) {
      expect(transfer.erc721Token?.address).toBe(fx.nftContract);
      const block = await ok<EvmBlock>(`${chainPath()}/blocks/${transfer.blockNumber}`);
      expect(block.blockHash).toBe(transfer.blockHash);
      const listed = await ok<ListNativeTransactionsResponse>(`${chainPath()}/blocks/${transfer.blockNumber}/transactions?pageSize=100`);
      expect(listed.transactions.map((t) => t.txHash)).toContain(transfer.txHash);
      const tx = await ok<FullTransaction>(`${chainPath()}/transactions/${transfer.txHash}`);
      const { blockNumber: _n, blockTimestamp: _ts, blockHash: _h, txHash: _tx, ...log } = transfer;
      expect(tx.erc721Transfers).toContainEqual(log);
    }
  });

  it('keeps to the block range, answers an empty list for an address that is no token, and refuses bad ranges', async () => {
    const [top] = (await ok<ListEvmBlocksResponse>(`${chainPath()}/blocks?pageSize=1`)).blocks as [EvmBlock];
    const endBlock = Number(top.blockNumber) - 100;
    const startBlock = endBlock - 300;
    const ranged = await ok<ListContractTransfersResponse>(
      `/v1/chains/${fx.evmChainId}/tokens/${fx.contractAddress}/transfers?pageSize=100&startBlock=${startBlock}&endBlock=${endBlock}`,
    );
    expect(ranged.transfers.length).toBeGreaterThan(0);
    expect(ranged.transfers.every((t) => Number(t.blockNumber) >= startBlock && Number(t.blockNumber) < endBlock)).toBe(true);
    expect(ranged.transfers.every((t) => t.erc20Token?.address === fx.contractAddress)).toBe(true);
    expect(await ok<ListContractTransfersResponse>(`/v1/chains/${fx.evmChainId}/tokens/${fx.address}/transfers`)).toEqual({ transfers: [] });
    await expectError(`/v1/chains/${fx.evmChainId}/tokens/${fx.contractAddress}/transfers?startBlock=10&endBlock=5`, 400);
    await expectError(`/v1/chains/${fx.evmChainId}/tokens/${fx.contractAddress}/transfers?pageSize=101`, 400);
  });
});
