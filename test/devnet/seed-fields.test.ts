import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as v from 'valibot';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { isSparse } from './sparse-records.ts';
import { DELEGATION_STATUSES, VALIDATION_STATUSES } from '../../src/shapes/index.ts';
import { Coverage, Findings, list, mismatches, q, STRICT_SHAPES as S, summarize } from '../shapes/strict.ts';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';

/**
 * Every Data API resource of the seed, fetched from the devnet over HTTP, against
 * the strict build of the upstream descriptions (src/shapes): the seed's fields,
 * formats, enums and status-dependent fields. Each test gathers the mismatches of
 * all the instances it fetched and fails with the whole list (JSON paths included),
 * so one run shows everything the devnet gets wrong about a resource. The node
 * seed's shapes are checked in seed-fields-node.test.ts.
 */

type Schema = v.GenericSchema;
type Json = Record<string, unknown>;
type Network = 'mainnet' | 'fuji';
const NETWORKS: readonly Network[] = ['mainnet', 'fuji'];

/** The error texts the seed pairs with each status. */
const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** What `/__devnet/fixtures` answers, per network (the devnet's own type). */
type Fixtures = NetworkFixtures;

let devnet: Devnet;
let fixtures: Record<Network, Fixtures>;
const coverage = new Coverage();

beforeAll(async () => {
  devnet = await startDevnet({});
  fixtures = (await get('/__devnet/fixtures')).body as Record<Network, Fixtures>;
});

afterAll(async () => {
  await devnet?.close();
});

async function get(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${devnet.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The answer's body, once its status is the spec's success status of the operation (`status`, 200 unless said). */
async function getOk(path: string, init?: RequestInit, status = 200): Promise<Json> {
  const res = await get(path, init);
  expect(res.status, `${init?.method ?? 'GET'} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
  return res.body as Json;
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('Data API seed fields', () => {
  it('E17 Chain (and networkToken, utilityAddresses)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/chains?network=${network}`);
      f.check(`E17 ${network}`, body, S.ListChainsResponse);
      const chains = list(body, 'chains');
      expect(chains.length, `${network} chains`).toBeGreaterThan(1);
      for (const c of chains) if (c.isTestnet !== (network === 'fuji')) f.add(`E17 ${network} ${String(c.chainId)}: isTestnet is ${String(c.isTestnet)}`);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E7 Subnet and Blockchain (all pages, both networks)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/networks/${network}/subnets?pageSize=10000`);
      f.check(`E7 ${network}`, body, S.ListSubnetsResponse);
      const subnets = list(body, 'subnets');
      expect(subnets.length).toBeGreaterThan(2);
      expect(subnets.some((s) => s.isL1 === true), `${network} has an L1`).toBe(true);
      for (const s of subnets) {
        // The L1 fields only make sense (and the seed lists them) for L1s.
        if (s.isL1 === true) {
          for (const k of ['l1ConversionTransactionHash', 'l1ValidatorManagerDetails']) {
            if (s[k] === undefined) f.add(`E7 ${network} subnet ${String(s.subnetId)}: L1 without ${k}`);
          }
        }
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('genesisData (config keys, feeConfig, warpConfig, the five precompile configs) of every EVM blockchain', async () => {
    const f = new Findings(coverage);
    let evmChains = 0;
    for (const network of NETWORKS) {
      const subnets = list((await getOk(`/v1/networks/${network}/subnets?pageSize=10000`)), 'subnets');
      for (const s of subnets) {
        for (const b of list(s, 'blockchains')) {
          if (b.evmChainId === undefined) continue;
          evmChains += 1;
          const label = `E7 ${network} ${String(b.blockchainName)} (${String(b.evmChainId)}) genesisData`;
          if (b.genesisData === undefined) {
            f.add(`${label}: missing on an EVM blockchain`);
            continue;
          }
          f.check(label, b.genesisData, S.GenesisData);
          const config = (b.genesisData as Json).config as Json | undefined;
          if (config && config.chainId !== b.evmChainId) f.add(`${label}.config.chainId ${String(config.chainId)} != evmChainId ${String(b.evmChainId)}`);
        }
      }
    }
    expect(evmChains).toBeGreaterThan(2);
    expect(f.summary()).toEqual([]);
  });

  it('E8 Validator: each of the four statuses, and the fixture validators', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      for (const status of VALIDATION_STATUSES) {
        const body = await getOk(`/v1/networks/${network}/validators?${q({ validationStatus: status, pageSize: 25 })}`);
        f.check(`E8 ${network} ${status}`, body, S.ListValidatorsResponse);
        const validators = list(body, 'validators');
        expect(validators.length, `${network} ${status} validators`).toBeGreaterThan(0);
        for (const v of validators) if (v.validationStatus !== status) f.add(`E8 ${network} ${status}: got a ${String(v.validationStatus)} validator`);
      }
      const ids = [fx.nodeId, fx.busyNodeId, fx.completedNodeId, fx.pendingNodeId, fx.removedNodeId, fx.subnetValidatorNodeId];
      const body = await getOk(`/v1/networks/${network}/validators?${q({ nodeIds: ids.join(','), pageSize: 100 })}`);
      f.check(`E8 ${network} fixtures`, body, S.ListValidatorsResponse);
      const found = new Set(list(body, 'validators').map((v) => v.nodeId));
      for (const id of ids) if (!found.has(id)) f.add(`E8 ${network}: fixture validator ${id} not listed`);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E13 Delegator: each of the three statuses', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      for (const status of DELEGATION_STATUSES) {
        const body = await getOk(`/v1/networks/${network}/delegators?${q({ delegationStatus: status, pageSize: 25 })}`);
        f.check(`E13 ${network} ${status}`, body, S.ListDelegatorsResponse);
        const delegators = list(body, 'delegators');
        expect(delegators.length, `${network} ${status} delegators`).toBeGreaterThan(0);
        for (const d of delegators) if (d.delegationStatus !== status) f.add(`E13 ${network} ${status}: got a ${String(d.delegationStatus)} delegator`);
      }
      const byNode = await getOk(`/v1/networks/${network}/delegators?${q({ nodeIds: fixtures[network].nodeId, pageSize: 100 })}`);
      f.check(`E13 ${network} nodeIds`, byNode, S.ListDelegatorsResponse);
      const byAddress = await getOk(`/v1/networks/${network}/delegators?${q({ rewardAddresses: fixtures[network].rewardAddress, pageSize: 100 })}`);
      f.check(`E13 ${network} rewardAddresses`, byAddress, S.ListDelegatorsResponse);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E11 HistoricalReward and E12 PendingReward (by address and by node id)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const queries = [
        { addresses: fx.pChainAddress },
        { nodeIds: fx.completedNodeId },
        { nodeIds: fx.nodeId },
      ];
      let historical = 0;
      let pending = 0;
      for (const params of queries) {
        const h = await getOk(`/v1/networks/${network}/rewards?${q({ ...params, pageSize: 50, currency: 'eur' })}`);
        f.check(`E11 ${network} ${JSON.stringify(params)}`, h, S.ListHistoricalRewardsResponse);
        historical += list(h, 'historicalRewards').length;
        for (const r of list(h, 'historicalRewards')) {
          const code = ((r.reward as Json | undefined)?.historicalPrice as Json | undefined)?.currencyCode;
          if (code !== undefined && code !== 'eur') f.add(`E11 ${network} currency=eur: reward.historicalPrice.currencyCode is ${String(code)}`);
        }
        const p = await getOk(`/v1/networks/${network}/rewards:listPending?${q({ ...params, pageSize: 50 })}`);
        f.check(`E12 ${network} ${JSON.stringify(params)}`, p, S.ListPendingRewardsResponse);
        pending += list(p, 'pendingRewards').length;
      }
      expect(historical, `${network} historical rewards`).toBeGreaterThan(0);
      expect(pending, `${network} pending rewards`).toBeGreaterThan(0);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E4 Utxo and AssetAmount: P-, X- and C-chain, spent ones included', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const cases: [string, string][] = [
        ['p-chain', fx.pChainAddress],
        ['x-chain', fx.xChainAddress],
        ['c-chain', `C-${fx.rewardAddress}`],
      ];
      for (const [chain, address] of cases) {
        const body = await getOk(
          `/v1/networks/${network}/blockchains/${chain}/utxos?${q({ includeSpent: 'true', pageSize: 200 })}`,
          postJson({ addresses: address }),
        );
        f.check(`E4 ${network} ${chain}`, body, S.ListUtxosResponse);
        expect(list(body, 'utxos').length, `${network} ${chain} utxos`).toBeGreaterThan(0);
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('E15 Block: P-, X- and C-chain', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      for (const chain of ['p-chain', 'x-chain', 'c-chain']) {
        const body = await getOk(`/v1/networks/${network}/blockchains/${chain}/blocks?pageSize=20`);
        f.check(`E15 ${network} ${chain}`, body, S.ListBlocksResponse);
        const blocks = list(body, 'blocks');
        expect(blocks.length).toBe(20);
        if (chain === 'p-chain') {
          // These three are P-chain facts: the seed lists them, so P-chain blocks carry them (the spec makes
          // them optional, and a sparse block may leave them out as a real answer does).
          for (const b of blocks) {
            for (const k of ['l1ValidatorsAccruedFees', 'activeL1Validators', 'currentSupply', 'proposerDetails']) {
              if (b[k] === undefined && !isSparse(b)) f.add(`E15 ${network} p-chain block ${String(b.blockNumber)}: missing ${k}`);
            }
          }
        }
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('E18 Vertex', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/networks/${network}/blockchains/x-chain/vertices?pageSize=20`);
      f.check(`E18 ${network}`, body, S.ListVerticesResponse);
      expect(list(body, 'vertices')).toHaveLength(20);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E3 NativeTransaction, Erc20/Erc721/Erc1155 transfers and InternalTransaction (C-chain and a subnet chain)', async () => {
    const f = new Findings(coverage);
    const seen = { erc20Transfers: 0, erc721Transfers: 0, erc1155Transfers: 0, internalTransactions: 0 };
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      let token: string | undefined;
      let pages = 0;
      do {
        const body = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions?${q({ pageSize: 100, pageToken: token })}`);
        f.check(`E3 ${network} page ${pages}`, body, S.ListAddressTransactionsResponse);
        for (const item of list(body, 'transactions')) {
          for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] += list(item, k).length;
        }
        token = body.nextPageToken as string | undefined;
        pages += 1;
      } while (token && pages < 10 && Object.values(seen).some((n) => n === 0));
      if (fx.subnetEvmChainId) {
        const body = await getOk(`/v1/chains/${fx.subnetEvmChainId}/addresses/${fx.address}/transactions?pageSize=50`);
        f.check(`E3 ${network} subnet chain ${fx.subnetEvmChainId}`, body, S.ListAddressTransactionsResponse);
      }
    }
    for (const [k, n] of Object.entries(seen)) expect(n, `${k} found in the fixture address history`).toBeGreaterThan(0);
    expect(f.summary()).toEqual([]);
  });

  it('E9 NativeTransaction (listNative)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const body = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listNative?pageSize=50`);
      f.check(`E9 ${network}`, body, S.ListNativeTransactionsResponse);
      expect(list(body, 'transactions').length).toBeGreaterThan(0);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E6 deployment transaction (with input, baseFeePerGas, maxFeePerGas, maxPriorityFeePerGas)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      for (const currency of ['usd', 'jpy']) {
        const body = await getOk(`/v1/chains/${fx.evmChainId}/contracts/${fx.contractAddress}/transactions:getDeployment?currency=${currency}`);
        f.check(`E6 ${network} ${currency}`, body, S.FullTransaction);
        const details = body.networkTokenDetails as Json | undefined;
        for (const k of ['currentPrice', 'historicalPrice']) {
          const code = (details?.[k] as Json | undefined)?.currencyCode;
          if (code !== undefined && code !== currency) f.add(`E6 ${network} currency=${currency}: networkTokenDetails.${k}.currencyCode is ${String(code)}`);
        }
        const native = body.nativeTransaction as Json | undefined;
        for (const k of ['maxFeePerGas', 'maxPriorityFeePerGas']) {
          if (native && native[k] === undefined) f.add(`E6 ${network}: nativeTransaction.${k} missing (the seed lists it for the deployment endpoint)`);
        }
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('TeleporterMessageInfo: the complete views of an ICM source and destination transaction', async () => {
    const f = new Findings(coverage);
    const directions = new Set<unknown>();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      if (!fx.icmSourceTxHash || !fx.icmSourceEvmChainId) continue;
      const txs: [string, string][] = [[fx.icmSourceEvmChainId, fx.icmSourceTxHash]];
      const messages = list(await getOk(`/v1/icm/addresses/${fx.icmAddress}/messages?${q({ network, pageSize: 50 })}`), 'messages');
      const delivered = messages.find((m) => m.destinationTransaction !== undefined);
      const destination = delivered?.destinationTransaction as Json | undefined;
      if (delivered && destination) txs.push([String(delivered.destinationEvmChainId), String(destination.txHash)]);
      for (const [chainId, txHash] of txs) {
        const body = await getOk(`/v1/chains/${chainId}/transactions/${txHash}`);
        f.check(`tx ${network} ${chainId} ${txHash}`, body, S.FullTransaction);
        const info = body.teleporterMessageInfo as Json | undefined;
        if (info === undefined) f.add(`tx ${network} ${chainId} ${txHash}: no teleporterMessageInfo on an ICM transaction`);
        else directions.add(info.direction);
      }
    }
    expect([...directions].sort()).toEqual(['DESTINATION_TRANSACTION', 'SOURCE_TRANSACTION']);
    expect(f.summary()).toEqual([]);
  });

  it('E10 NativeTokenBalance and Erc1155TokenBalance (ERC-1155 metadata); E14 NativeTokenBalance', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const e10 = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:listErc1155?pageSize=50`);
      f.check(`E10 ${network}`, e10, S.ListErc1155BalancesResponse);
      expect(list(e10, 'erc1155TokenBalances').length).toBeGreaterThan(0);
      for (const currency of ['usd', 'gbp']) {
        const e14 = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:getNative?currency=${currency}`);
        f.check(`E14 ${network} ${currency}`, e14, S.GetNativeBalanceResponse);
        const balance = e14.nativeTokenBalance as Json | undefined;
        for (const k of ['price', 'balanceValue']) {
          const code = (balance?.[k] as Json | undefined)?.currencyCode;
          if (code !== undefined && code !== currency) f.add(`E14 ${network} currency=${currency}: ${k}.currencyCode is ${String(code)}`);
        }
      }
    }
    expect(f.summary()).toEqual([]);
  });

  it('E19 NftToken (ERC-721 metadata)', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const body = await getOk(`/v1/chains/${fx.evmChainId}/nfts/collections/${fx.nftContract}/tokens/${fx.nftTokenId}`);
      f.check(`E19 ${network}`, body, S.NftToken);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E16 IcmMessage', async () => {
    const f = new Findings(coverage);
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/icm/addresses/${fixtures[network].icmAddress}/messages?${q({ network, pageSize: 50 })}`);
      f.check(`E16 ${network}`, body, S.ListIcmMessagesResponse);
      expect(list(body, 'messages').length).toBeGreaterThan(0);
    }
    expect(f.summary()).toEqual([]);
  });

  it('E5 ExportOperation: creation answers RUNNING; finished, truncated and failed operations read back', async () => {
    const f = new Findings(coverage);
    const fx = fixtures.mainnet;
    const exportBody = (firstDate: string, lastDate: string, chain: string): RequestInit =>
      postJson({ type: 'TRANSACTION_EXPORT_EVM', firstDate, lastDate, options: { addresses: [fx.address], includeChains: [chain] } });
    const created = await getOk('/v1/operations/transactions:export', exportBody('2024-01-01', '2024-02-01', fx.evmChainId));
    f.check('E5 created', created, S.ExportOperation);
    if (created.operationStatus !== 'RUNNING') f.add(`E5 created: operationStatus ${String(created.operationStatus)}, the seed says RUNNING`);
    f.check('E5 read back', await getOk(`/v1/operations/${String(created.operationId)}`), S.ExportOperation);
    f.check('fixture operation', await getOk(`/v1/operations/${fx.operationId}`), S.ExportOperation);

    // Operations finish on the devnet's clock: a second devnet with a hand-driven clock shows every ending.
    let clock = Date.UTC(2026, 0, 15);
    const timed = await startDevnet({ validators: 20, now: () => clock });
    try {
      const call = async (path: string, init?: RequestInit): Promise<Json> => {
        const res = await fetch(`${timed.url}${path}`, init);
        expect(res.status, path).toBe(200);
        return (await res.json()) as Json;
      };
      const ids = [
        await call('/v1/operations/transactions:export', exportBody('2023-01-01', '2025-06-01', fx.evmChainId)),
        await call('/v1/operations/transactions:export', exportBody('2024-01-01', '2024-02-01', '999999999')),
      ].map((op) => String(op.operationId));
      clock += 60_000;
      const codes = new Set<unknown>();
      for (const id of ids) {
        const op = await call(`/v1/operations/${id}`);
        f.check(`operation ${id} (${String(op.operationStatus)})`, op, S.ExportOperation);
        codes.add((op.metadata as Json | undefined)?.code);
      }
      expect(codes.size, 'a truncated and a failed export report different codes').toBe(2);
    } finally {
      await timed.close();
    }
    expect(f.summary()).toEqual([]);
  });

  it('E1 / E2 signed messages', async () => {
    const f = new Findings(coverage);
    const message = `0x0000${'00000001'}${'ab'.repeat(32)}${'00000004'}${'deadbeef'}`;
    // The spec's success status of both is 201.
    const e1 = await getOk('/v1/signatureAggregator/mainnet/aggregateSignatures', postJson({ message }), 201);
    f.check('E1', e1, S.SignedMessage);
    const e2 = await getOk(`/v1/signatureAggregator/mainnet/aggregateSignatures/${fixtures.mainnet.pChainTxHash}`, undefined, 201);
    f.check('E2', e2, S.SignedMessage);
    expect(f.summary()).toEqual([]);
  });

  it('error body: message, integer statusCode, the seed text for all eight statuses', async () => {
    const f = new Findings(coverage);
    const natural: [string, number, RequestInit?][] = [
      ['/v1/networks/mainnet/validators?pageSize=0', 400],
      ['/v1/networks/nowhere/subnets', 400],
      ['/v1/chains/999999999/addresses/0x0000000000000000000000000000000000000000/transactions', 404],
      ['/v1/no/such/route', 404],
    ];
    for (const [path, status, init] of natural) {
      const res = await get(path, init);
      expect(res.status, path).toBe(status);
      f.check(`${status} ${path}`, res.body, S.ErrorBody);
      const body = res.body as Json;
      if (body.statusCode !== status) f.add(`${path}: statusCode ${String(body.statusCode)} != HTTP ${status}`);
      if (body.error !== ERROR_TEXT[status]) f.add(`${path}: error ${JSON.stringify(body.error)} != ${JSON.stringify(ERROR_TEXT[status])}`);
    }
    try {
      for (const status of Object.keys(ERROR_TEXT).map(Number)) {
        devnet.setChaos({ failNext: 1, faultStatus: status });
        const res = await get('/v1/chains');
        expect(res.status).toBe(status);
        f.check(`injected ${status}`, res.body, S.ErrorBody);
        const body = res.body as Json;
        if (body.statusCode !== status) f.add(`injected ${status}: statusCode ${String(body.statusCode)}`);
        if (body.error !== ERROR_TEXT[status]) f.add(`injected ${status}: error ${JSON.stringify(body.error)} != ${JSON.stringify(ERROR_TEXT[status])}`);
      }
    } finally {
      devnet.setChaos({ failNext: 0, faultStatus: 503 });
    }
    expect(f.summary()).toEqual([]);
  });

  it('page envelopes: a first page of one item carries a nextPageToken string that fetches a conforming second page', async () => {
    const f = new Findings(coverage);
    const fx = fixtures.mainnet;
    const lists: { name: string; path: string; key: string; type: Schema; init?: RequestInit }[] = [
      { name: 'E3', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions`, key: 'transactions', type: S.ListAddressTransactionsResponse },
      { name: 'E4', path: '/v1/networks/mainnet/blockchains/p-chain/utxos', key: 'utxos', type: S.ListUtxosResponse, init: postJson({ addresses: fx.pChainAddress }) },
      { name: 'E7', path: '/v1/networks/mainnet/subnets', key: 'subnets', type: S.ListSubnetsResponse },
      { name: 'E8', path: '/v1/networks/mainnet/validators', key: 'validators', type: S.ListValidatorsResponse },
      { name: 'E9', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listNative`, key: 'transactions', type: S.ListNativeTransactionsResponse },
      { name: 'E10', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:listErc1155`, key: 'erc1155TokenBalances', type: S.ListErc1155BalancesResponse },
      { name: 'E11', path: `/v1/networks/mainnet/rewards?${q({ addresses: fx.pChainAddress })}`, key: 'historicalRewards', type: S.ListHistoricalRewardsResponse },
      { name: 'E12', path: `/v1/networks/mainnet/rewards:listPending?${q({ addresses: fx.pChainAddress })}`, key: 'pendingRewards', type: S.ListPendingRewardsResponse },
      { name: 'E13', path: '/v1/networks/mainnet/delegators', key: 'delegators', type: S.ListDelegatorsResponse },
      { name: 'E15', path: '/v1/networks/mainnet/blockchains/p-chain/blocks', key: 'blocks', type: S.ListBlocksResponse },
      { name: 'E16', path: `/v1/icm/addresses/${fx.icmAddress}/messages`, key: 'messages', type: S.ListIcmMessagesResponse },
      { name: 'E18', path: '/v1/networks/mainnet/blockchains/x-chain/vertices', key: 'vertices', type: S.ListVerticesResponse },
    ];
    for (const l of lists) {
      const sep = l.path.includes('?') ? '&' : '?';
      const first = await getOk(`${l.path}${sep}pageSize=1`, l.init);
      f.check(`${l.name} first page`, first, l.type);
      if (list(first, l.key).length !== 1) f.add(`${l.name}: first page has ${list(first, l.key).length} items, expected 1`);
      const token = first.nextPageToken;
      if (typeof token !== 'string' || token === '') {
        f.add(`${l.name}: no nextPageToken on a first page of 1 while more items exist (got ${JSON.stringify(token)})`);
        continue;
      }
      const second = await getOk(`${l.path}${sep}pageSize=1&pageToken=${encodeURIComponent(token)}`, l.init);
      f.check(`${l.name} second page`, second, l.type);
      if (JSON.stringify(list(second, l.key)) === JSON.stringify(list(first, l.key))) f.add(`${l.name}: the second page repeats the first`);
    }
    expect(f.summary()).toEqual([]);
  });
});

describe('coverage', () => {
  it('every field of every checked shape was served by at least one instance', () => {
    const checked = coverage.checked();
    for (const name of [
      'Price', 'AddressInfo', 'AssetAmount', 'NftMetadata', 'NativeTransaction', 'FullNativeTransaction', 'Erc20Transfer', 'Erc721Transfer',
      'Erc1155Transfer', 'InternalTransaction', 'TeleporterMessageInfo', 'NativeTokenBalance', 'Erc1155TokenBalance', 'Utxo', 'ExportOperation',
      'Subnet', 'Blockchain', 'GenesisData', 'GenesisConfig', 'GenesisConfig.feeConfig', 'GenesisConfig.warpConfig', 'AllowListConfig',
      'Validator', 'ValidatorRewards', 'Delegator', 'HistoricalReward', 'PendingReward', 'Block', 'ProposerDetails', 'Vertex', 'IcmMessage',
      'Chain', 'NetworkToken', 'NftToken', 'ChainInfo', 'ErrorBody', 'SignedMessage',
    ]) {
      expect(checked, `${name} was checked`).toContain(name);
    }
    expect(coverage.neverSeen()).toEqual([]);
  });
});

// Guards the checker itself: it must report what is wrong, all of it, with paths.
describe('checker', () => {
  it('reports every mismatch of an instance with its path', () => {
    const lines = mismatches(
      { blockNumber: 12, blockHash: 'x', parentHash: 'y', blockType: 'b', blockTimestamp: 1.5, txCount: '3', transactions: ['a', 1], currentSupply: '-1' },
      S.Block,
    );
    expect(lines).toEqual([
      '$.blockNumber: expected string, got 12',
      '$.blockTimestamp: expected an integer, got 1.5',
      '$.txCount: expected number, got "3"',
      '$.transactions[1]: expected string, got 1',
      '$.blockSizeBytes: missing',
      '$.currentSupply: expected a string of decimal digits, got "-1"',
    ]);
  });

  it("requires the fields of the item's status, checks the status, and collapses repeated list mismatches", () => {
    const base = { txHash: 't', nodeId: 'NodeID-x', subnetId: 's', amountStaked: '1', startTimestamp: 1, endTimestamp: 2, delegatorCount: 0 };
    expect(mismatches({ ...base, validationStatus: 'active' }, S.Validator)).toEqual([]);
    expect(mismatches({ ...base, validationStatus: 'completed' }, S.Validator)).toEqual(['$.rewards: missing (required when validationStatus is "completed")']);
    expect(mismatches({ ...base, validationStatus: 'gone' }, S.Validator)).toEqual([
      '$.validationStatus: expected ("completed" | "active" | "pending" | "removed"), got "gone"',
    ]);
    const page = { validators: [1, 2, 3].map((n) => ({ ...base, amountStaked: n, validationStatus: 'pending' })) };
    expect(summarize(mismatches(page, S.ListValidatorsResponse))).toEqual(['$.validators[0].amountStaked: expected string, got 1 (and 2 more like it)']);
  });

  it('refuses the variant forms the clients read: a price as text (the devnet writes the spec\'s number), the X/C-chain UTXO, a listing without chainInfo', () => {
    expect(mismatches({ currencyCode: 'usd', value: 1.5 }, S.Price)).toEqual([]);
    expect(mismatches({ currencyCode: 'usd', value: '1.5' }, S.Price)).toEqual(['$.value: expected number, got "1.5"']);
    const xcUtxo = { addresses: ['avax1b'], consumedOnChainId: 'X', createdOnChainId: 'X', utxoId: 'u2', creationTxHash: 'tx-x', outputIndex: '38' };
    expect(mismatches({ utxos: [xcUtxo], chainInfo: { chainName: 'x-chain', network: 'mainnet' } }, S.ListUtxosResponse)).toContain(
      '$.utxos[0].txHash: missing',
    );
    expect(mismatches({ vertices: [] }, S.ListVerticesResponse)).toEqual(['$.chainInfo: missing (required)']);
  });
});
