import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import {
  BLOCK,
  CHAIN_CHECK_MESSAGE,
  Coverage,
  DEPLOYMENT_RESPONSE,
  DISKSPACE_CHECK_MESSAGE,
  E10_PAGE,
  E11_PAGE,
  E12_PAGE,
  E13_PAGE,
  E14_RESPONSE,
  E15_PAGE,
  E16_PAGE,
  E17_RESPONSE,
  E18_PAGE,
  E3_PAGE,
  E4_PAGE,
  E7_PAGE,
  E8_PAGE,
  E9_PAGE,
  ERROR_BODY,
  ERROR_TEXT,
  EXPORT_OPERATION,
  GENESIS_DATA,
  HEALTH_CHECK_NAMES,
  HEALTH_REPORT,
  JSON_RPC_RESPONSE,
  mismatches,
  NETWORK_CHECK_MESSAGE,
  NFT_TOKEN,
  NODE_RESULTS,
  ROUTER_CHECK_MESSAGE,
  SIGNED_MESSAGE,
  summarize,
  VALIDATION_STATUSES,
  VALIDATOR,
  DELEGATION_STATUSES,
  type NodeMethod,
  type Type,
} from './seed-schema.ts';

/**
 * Every resource of the two seeds, fetched from the devnet over HTTP, against
 * the field tables in `seed-schema.ts`. Each test gathers the mismatches of all
 * the instances it fetched and fails with the whole list (JSON paths included),
 * so one run shows everything the devnet gets wrong about a resource.
 */

type Json = Record<string, unknown>;
type Network = 'mainnet' | 'fuji';
const NETWORKS: readonly Network[] = ['mainnet', 'fuji'];

interface Fixtures {
  evmChainId: string;
  address: string;
  contractAddress: string;
  nftContract: string;
  nftTokenId: string;
  txHash: string;
  icmAddress: string;
  operationId: string;
  blockchainId: string;
  erc1155Contract: string;
  erc1155TokenId: string;
  icmSourceTxHash?: string;
  icmSourceEvmChainId?: string;
  subnetEvmChainId?: string;
  pChainAddress: string;
  xChainAddress: string;
  rewardAddress: string;
  nodeId: string;
  busyNodeId: string;
  completedNodeId: string;
  pendingNodeId: string;
  removedNodeId: string;
  subnetValidatorNodeId: string;
  subnetId: string;
  l1SubnetId: string;
  pChainTxHash: string;
}

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

// ---------------------------------------------------------------- helpers

async function get(path: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${devnet.url}${path}`, init);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function getOk(path: string, init?: RequestInit): Promise<Json> {
  const res = await get(path, init);
  expect(res.status, `${init?.method ?? 'GET'} ${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
  return res.body as Json;
}

const postJson = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Collects the mismatches of many instances, each labelled with where it came from. */
class Findings {
  private readonly lines: string[] = [];

  check(label: string, value: unknown, type: Type): void {
    for (const line of mismatches(value, type, '$', coverage)) this.lines.push(`${label} ${line}`);
  }

  /** A finding that is not a type mismatch (a conditional requirement). */
  add(line: string): void {
    this.lines.push(line);
  }

  expectNone(): void {
    expect(summarize(this.lines)).toEqual([]);
  }
}

const list = <T = Json>(body: Json, key: string): T[] => {
  const items = body[key];
  return Array.isArray(items) ? (items as T[]) : [];
};

const q = (params: Record<string, string | number | undefined>): string =>
  new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))).toString();

let rpcId = 1;

async function rpc(nodeUrl: string, method: string, params: Json = {}): Promise<{ envelope: Json; result: unknown }> {
  const api = method.slice(0, method.indexOf('.'));
  const id = rpcId++;
  const res = await fetch(`${nodeUrl}/ext/${api}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  expect(res.status, method).toBe(200);
  const envelope = (await res.json()) as Json;
  expect(envelope.error, `${method} answered an error`).toBeUndefined();
  expect(envelope.id, `${method} echoes the id`).toBe(id);
  return { envelope, result: envelope.result };
}

// ---------------------------------------------------------------- Data API

describe('Data API seed fields', () => {
  it('E17 Chain (and networkToken, utilityAddresses)', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/chains?network=${network}`);
      f.check(`E17 ${network}`, body, E17_RESPONSE);
      const chains = list(body, 'chains');
      expect(chains.length, `${network} chains`).toBeGreaterThan(1);
      for (const c of chains) if (c.isTestnet !== (network === 'fuji')) f.add(`E17 ${network} ${String(c.chainId)}: isTestnet is ${String(c.isTestnet)}`);
    }
    f.expectNone();
  });

  it('E7 Subnet and Blockchain (all pages, both networks)', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/networks/${network}/subnets?pageSize=10000`);
      f.check(`E7 ${network}`, body, E7_PAGE);
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
    f.expectNone();
  });

  it('genesisData (config keys, feeConfig, warpConfig, the five precompile configs) of every EVM blockchain', async () => {
    const f = new Findings();
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
          f.check(label, b.genesisData, GENESIS_DATA);
          const config = (b.genesisData as Json).config as Json | undefined;
          if (config && config.chainId !== b.evmChainId) f.add(`${label}.config.chainId ${String(config.chainId)} != evmChainId ${String(b.evmChainId)}`);
        }
      }
    }
    expect(evmChains).toBeGreaterThan(2);
    f.expectNone();
  });

  it('E8 Validator: each of the four statuses, and the fixture validators', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      for (const status of VALIDATION_STATUSES) {
        const body = await getOk(`/v1/networks/${network}/validators?${q({ validationStatus: status, pageSize: 25 })}`);
        f.check(`E8 ${network} ${status}`, body, E8_PAGE);
        const validators = list(body, 'validators');
        expect(validators.length, `${network} ${status} validators`).toBeGreaterThan(0);
        for (const v of validators) if (v.validationStatus !== status) f.add(`E8 ${network} ${status}: got a ${String(v.validationStatus)} validator`);
      }
      const ids = [fx.nodeId, fx.busyNodeId, fx.completedNodeId, fx.pendingNodeId, fx.removedNodeId, fx.subnetValidatorNodeId];
      const body = await getOk(`/v1/networks/${network}/validators?${q({ nodeIds: ids.join(','), pageSize: 100 })}`);
      f.check(`E8 ${network} fixtures`, body, E8_PAGE);
      const found = new Set(list(body, 'validators').map((v) => v.nodeId));
      for (const id of ids) if (!found.has(id)) f.add(`E8 ${network}: fixture validator ${id} not listed`);
    }
    f.expectNone();
  });

  it('E13 Delegator: each of the three statuses', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      for (const status of DELEGATION_STATUSES) {
        const body = await getOk(`/v1/networks/${network}/delegators?${q({ delegationStatus: status, pageSize: 25 })}`);
        f.check(`E13 ${network} ${status}`, body, E13_PAGE);
        const delegators = list(body, 'delegators');
        expect(delegators.length, `${network} ${status} delegators`).toBeGreaterThan(0);
        for (const d of delegators) if (d.delegationStatus !== status) f.add(`E13 ${network} ${status}: got a ${String(d.delegationStatus)} delegator`);
      }
      const byNode = await getOk(`/v1/networks/${network}/delegators?${q({ nodeIds: fixtures[network].nodeId, pageSize: 100 })}`);
      f.check(`E13 ${network} nodeIds`, byNode, E13_PAGE);
      const byAddress = await getOk(`/v1/networks/${network}/delegators?${q({ rewardAddresses: fixtures[network].rewardAddress, pageSize: 100 })}`);
      f.check(`E13 ${network} rewardAddresses`, byAddress, E13_PAGE);
    }
    f.expectNone();
  });

  it('E11 HistoricalReward and E12 PendingReward (by address and by node id)', async () => {
    const f = new Findings();
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
        f.check(`E11 ${network} ${JSON.stringify(params)}`, h, E11_PAGE);
        historical += list(h, 'historicalRewards').length;
        for (const r of list(h, 'historicalRewards')) {
          const code = ((r.reward as Json | undefined)?.historicalPrice as Json | undefined)?.currencyCode;
          if (code !== undefined && code !== 'eur') f.add(`E11 ${network} currency=eur: reward.historicalPrice.currencyCode is ${String(code)}`);
        }
        const p = await getOk(`/v1/networks/${network}/rewards:listPending?${q({ ...params, pageSize: 50 })}`);
        f.check(`E12 ${network} ${JSON.stringify(params)}`, p, E12_PAGE);
        pending += list(p, 'pendingRewards').length;
      }
      expect(historical, `${network} historical rewards`).toBeGreaterThan(0);
      expect(pending, `${network} pending rewards`).toBeGreaterThan(0);
    }
    f.expectNone();
  });

  it('E4 Utxo and AssetAmount: P-, X- and C-chain, spent ones included', async () => {
    const f = new Findings();
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
        f.check(`E4 ${network} ${chain}`, body, E4_PAGE);
        expect(list(body, 'utxos').length, `${network} ${chain} utxos`).toBeGreaterThan(0);
      }
    }
    f.expectNone();
  });

  it('E15 Block: P-, X- and C-chain', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      for (const chain of ['p-chain', 'x-chain', 'c-chain']) {
        const body = await getOk(`/v1/networks/${network}/blockchains/${chain}/blocks?pageSize=20`);
        f.check(`E15 ${network} ${chain}`, body, E15_PAGE);
        const blocks = list(body, 'blocks');
        expect(blocks.length).toBe(20);
        if (chain === 'p-chain') {
          // These three are P-chain facts: the seed lists them, so P-chain blocks carry them.
          for (const b of blocks) {
            for (const k of ['l1ValidatorsAccruedFees', 'activeL1Validators', 'currentSupply', 'proposerDetails']) {
              if (b[k] === undefined) f.add(`E15 ${network} p-chain block ${String(b.blockNumber)}: missing ${k}`);
            }
          }
        }
      }
    }
    f.expectNone();
  });

  it('E18 Vertex', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/networks/${network}/blockchains/x-chain/vertices?pageSize=20`);
      f.check(`E18 ${network}`, body, E18_PAGE);
      expect(list(body, 'vertices')).toHaveLength(20);
    }
    f.expectNone();
  });

  it('E3 NativeTransaction, Erc20/Erc721/Erc1155 transfers and InternalTransaction (C-chain and a subnet chain)', async () => {
    const f = new Findings();
    const seen = { erc20Transfers: 0, erc721Transfers: 0, erc1155Transfers: 0, internalTransactions: 0 };
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      let token: string | undefined;
      let pages = 0;
      do {
        const body = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions?${q({ pageSize: 100, pageToken: token })}`);
        f.check(`E3 ${network} page ${pages}`, body, E3_PAGE);
        for (const item of list(body, 'transactions')) {
          for (const k of Object.keys(seen) as (keyof typeof seen)[]) seen[k] += list(item, k).length;
        }
        token = body.nextPageToken as string | undefined;
        pages += 1;
      } while (token && pages < 10 && Object.values(seen).some((n) => n === 0));
      if (fx.subnetEvmChainId) {
        const body = await getOk(`/v1/chains/${fx.subnetEvmChainId}/addresses/${fx.address}/transactions?pageSize=50`);
        f.check(`E3 ${network} subnet chain ${fx.subnetEvmChainId}`, body, E3_PAGE);
      }
    }
    for (const [k, n] of Object.entries(seen)) expect(n, `${k} found in the fixture address history`).toBeGreaterThan(0);
    f.expectNone();
  });

  it('E9 NativeTransaction (listNative)', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const body = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listNative?pageSize=50`);
      f.check(`E9 ${network}`, body, E9_PAGE);
      expect(list(body, 'transactions').length).toBeGreaterThan(0);
    }
    f.expectNone();
  });

  it('E6 deployment transaction (with input, baseFeePerGas, maxFeePerGas, maxPriorityFeePerGas)', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      for (const currency of ['usd', 'jpy']) {
        const body = await getOk(`/v1/chains/${fx.evmChainId}/contracts/${fx.contractAddress}/transactions:getDeployment?currency=${currency}`);
        f.check(`E6 ${network} ${currency}`, body, DEPLOYMENT_RESPONSE);
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
    f.expectNone();
  });

  it('TeleporterMessageInfo: the complete views of an ICM source and destination transaction', async () => {
    const f = new Findings();
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
        f.check(`tx ${network} ${chainId} ${txHash}`, body, DEPLOYMENT_RESPONSE);
        const info = body.teleporterMessageInfo as Json | undefined;
        if (info === undefined) f.add(`tx ${network} ${chainId} ${txHash}: no teleporterMessageInfo on an ICM transaction`);
        else directions.add(info.direction);
      }
    }
    expect([...directions].sort()).toEqual(['DESTINATION_TRANSACTION', 'SOURCE_TRANSACTION']);
    f.expectNone();
  });

  it('E10 NativeTokenBalance and Erc1155TokenBalance (ERC-1155 metadata); E14 NativeTokenBalance', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const e10 = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:listErc1155?pageSize=50`);
      f.check(`E10 ${network}`, e10, E10_PAGE);
      expect(list(e10, 'erc1155TokenBalances').length).toBeGreaterThan(0);
      for (const currency of ['usd', 'gbp']) {
        const e14 = await getOk(`/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:getNative?currency=${currency}`);
        f.check(`E14 ${network} ${currency}`, e14, E14_RESPONSE);
        const balance = e14.nativeTokenBalance as Json | undefined;
        for (const k of ['price', 'balanceValue']) {
          const code = (balance?.[k] as Json | undefined)?.currencyCode;
          if (code !== undefined && code !== currency) f.add(`E14 ${network} currency=${currency}: ${k}.currencyCode is ${String(code)}`);
        }
      }
    }
    f.expectNone();
  });

  it('E19 NftToken (ERC-721 metadata)', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const fx = fixtures[network];
      const body = await getOk(`/v1/chains/${fx.evmChainId}/nfts/collections/${fx.nftContract}/tokens/${fx.nftTokenId}`);
      f.check(`E19 ${network}`, body, NFT_TOKEN);
    }
    f.expectNone();
  });

  it('E16 IcmMessage', async () => {
    const f = new Findings();
    for (const network of NETWORKS) {
      const body = await getOk(`/v1/icm/addresses/${fixtures[network].icmAddress}/messages?${q({ network, pageSize: 50 })}`);
      f.check(`E16 ${network}`, body, E16_PAGE);
      expect(list(body, 'messages').length).toBeGreaterThan(0);
    }
    f.expectNone();
  });

  it('E5 ExportOperation: creation answers RUNNING; finished, truncated and failed operations read back', async () => {
    const f = new Findings();
    const fx = fixtures.mainnet;
    const exportBody = (firstDate: string, lastDate: string, chain: string): RequestInit =>
      postJson({ type: 'TRANSACTION_EXPORT_EVM', firstDate, lastDate, options: { addresses: [fx.address], includeChains: [chain] } });
    const created = await getOk('/v1/operations/transactions:export', exportBody('2024-01-01', '2024-02-01', fx.evmChainId));
    f.check('E5 created', created, EXPORT_OPERATION);
    if (created.operationStatus !== 'RUNNING') f.add(`E5 created: operationStatus ${String(created.operationStatus)}, the seed says RUNNING`);
    f.check('E5 read back', await getOk(`/v1/operations/${String(created.operationId)}`), EXPORT_OPERATION);
    f.check('fixture operation', await getOk(`/v1/operations/${fx.operationId}`), EXPORT_OPERATION);

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
        f.check(`operation ${id} (${String(op.operationStatus)})`, op, EXPORT_OPERATION);
        codes.add((op.metadata as Json | undefined)?.code);
      }
      expect(codes.size, 'a truncated and a failed export report different codes').toBe(2);
    } finally {
      await timed.close();
    }
    f.expectNone();
  });

  it('E1 / E2 signed messages', async () => {
    const f = new Findings();
    const message = `0x0000${'00000001'}${'ab'.repeat(32)}${'00000004'}${'deadbeef'}`;
    const e1 = await getOk('/v1/signatureAggregator/mainnet/aggregateSignatures', postJson({ message }));
    f.check('E1', e1, SIGNED_MESSAGE);
    const e2 = await getOk(`/v1/signatureAggregator/mainnet/aggregateSignatures/${fixtures.mainnet.pChainTxHash}`);
    f.check('E2', e2, SIGNED_MESSAGE);
    f.expectNone();
  });

  it('error body: message, integer statusCode, the seed text for all eight statuses', async () => {
    const f = new Findings();
    const natural: [string, number, RequestInit?][] = [
      ['/v1/networks/mainnet/validators?pageSize=0', 400],
      ['/v1/networks/nowhere/subnets', 400],
      ['/v1/chains/999999999/addresses/0x0000000000000000000000000000000000000000/transactions', 404],
      ['/v1/no/such/route', 404],
    ];
    for (const [path, status, init] of natural) {
      const res = await get(path, init);
      expect(res.status, path).toBe(status);
      f.check(`${status} ${path}`, res.body, ERROR_BODY);
      const body = res.body as Json;
      if (body.statusCode !== status) f.add(`${path}: statusCode ${String(body.statusCode)} != HTTP ${status}`);
      if (body.error !== ERROR_TEXT[status]) f.add(`${path}: error ${JSON.stringify(body.error)} != ${JSON.stringify(ERROR_TEXT[status])}`);
    }
    try {
      for (const status of Object.keys(ERROR_TEXT).map(Number)) {
        devnet.setChaos({ failNext: 1, faultStatus: status });
        const res = await get('/v1/chains');
        expect(res.status).toBe(status);
        f.check(`injected ${status}`, res.body, ERROR_BODY);
        const body = res.body as Json;
        if (body.statusCode !== status) f.add(`injected ${status}: statusCode ${String(body.statusCode)}`);
        if (body.error !== ERROR_TEXT[status]) f.add(`injected ${status}: error ${JSON.stringify(body.error)} != ${JSON.stringify(ERROR_TEXT[status])}`);
      }
    } finally {
      devnet.setChaos({ failNext: 0, faultStatus: 503 });
    }
    f.expectNone();
  });

  it('page envelopes: a first page of one item carries a nextPageToken string that fetches a conforming second page', async () => {
    const f = new Findings();
    const fx = fixtures.mainnet;
    const lists: { name: string; path: string; key: string; type: Type; init?: RequestInit }[] = [
      { name: 'E3', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions`, key: 'transactions', type: E3_PAGE },
      { name: 'E4', path: '/v1/networks/mainnet/blockchains/p-chain/utxos', key: 'utxos', type: E4_PAGE, init: postJson({ addresses: fx.pChainAddress }) },
      { name: 'E7', path: '/v1/networks/mainnet/subnets', key: 'subnets', type: E7_PAGE },
      { name: 'E8', path: '/v1/networks/mainnet/validators', key: 'validators', type: E8_PAGE },
      { name: 'E9', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/transactions:listNative`, key: 'transactions', type: E9_PAGE },
      { name: 'E10', path: `/v1/chains/${fx.evmChainId}/addresses/${fx.address}/balances:listErc1155`, key: 'erc1155TokenBalances', type: E10_PAGE },
      { name: 'E11', path: `/v1/networks/mainnet/rewards?${q({ addresses: fx.pChainAddress })}`, key: 'historicalRewards', type: E11_PAGE },
      { name: 'E12', path: `/v1/networks/mainnet/rewards:listPending?${q({ addresses: fx.pChainAddress })}`, key: 'pendingRewards', type: E12_PAGE },
      { name: 'E13', path: '/v1/networks/mainnet/delegators', key: 'delegators', type: E13_PAGE },
      { name: 'E15', path: '/v1/networks/mainnet/blockchains/p-chain/blocks', key: 'blocks', type: E15_PAGE },
      { name: 'E16', path: `/v1/icm/addresses/${fx.icmAddress}/messages`, key: 'messages', type: E16_PAGE },
      { name: 'E18', path: '/v1/networks/mainnet/blockchains/x-chain/vertices', key: 'vertices', type: E18_PAGE },
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
    f.expectNone();
  });
});

// ---------------------------------------------------------------- Node API

describe('Node seed shapes', () => {
  const readMethods: [NodeMethod, Json][] = [
    ['info.acps', {}],
    ['info.isBootstrapped', { chain: 'X' }],
    ['info.getBlockchainID', { alias: 'C' }],
    ['info.getNetworkID', {}],
    ['info.getNetworkName', {}],
    ['info.getNodeID', {}],
    ['info.getNodeIP', {}],
    ['info.getNodeVersion', {}],
    ['info.getTxFee', {}],
    ['info.getVMs', {}],
    ['info.peers', {}],
    ['info.uptime', {}],
    ['info.upgrades', {}],
    ['admin.getChainAliases', { chain: '11111111111111111111111111111111LpoYY' }],
    ['admin.getLoggerLevel', {}],
    ['admin.getLoggerLevel', { loggerName: 'P' }],
    ['health.health', {}],
    ['health.readiness', {}],
    ['health.liveness', {}],
  ];

  it('info, admin and health read methods: JSON-RPC envelope and result fields, on both nodes', async () => {
    const f = new Findings();
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      for (const [method, params] of readMethods) {
        const { envelope, result } = await rpc(url, method, params);
        f.check(`${network} ${method}`, envelope, JSON_RPC_RESPONSE);
        f.check(`${network} ${method} result`, result, NODE_RESULTS[method]);
      }
    }
    f.expectNone();
  });

  it('info.peers: every Peer; numPeers agrees with the list; nodeIDs filter', async () => {
    const f = new Findings();
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      const { result } = await rpc(url, 'info.peers');
      const r = result as Json;
      f.check(`${network} info.peers`, r, NODE_RESULTS['info.peers']);
      const peers = list(r, 'peers');
      expect(peers.length, `${network} peers`).toBeGreaterThan(10);
      if (String(r.numPeers) !== String(peers.length)) f.add(`${network} info.peers: numPeers ${String(r.numPeers)} != ${peers.length} peers`);
      const wanted = peers.slice(0, 3).map((p) => String(p.nodeID));
      const filtered = (await rpc(url, 'info.peers', { nodeIDs: wanted })).result as Json;
      f.check(`${network} info.peers(nodeIDs)`, filtered, NODE_RESULTS['info.peers']);
      expect(list(filtered, 'peers').map((p) => p.nodeID).sort()).toEqual([...wanted].sort());
    }
    f.expectNone();
  });

  it('admin methods that change state answer the seed result', async () => {
    const f = new Findings();
    const url = devnet.nodeUrls.fuji as string;
    const calls: [NodeMethod, Json][] = [
      ['admin.alias', { endpoint: 'info', alias: 'seed-fields-info' }],
      ['admin.aliasChain', { chain: 'X', alias: 'seed-fields-x' }],
      ['admin.setLoggerLevel', { loggerName: 'P', logLevel: 'DEBUG' }],
      ['admin.lockProfile', {}],
      ['admin.memoryProfile', {}],
      ['admin.startCPUProfiler', {}],
      ['admin.stopCPUProfiler', {}],
      ['admin.loadVMs', {}],
      ['admin.loadVMs', {}],
    ];
    for (const [method, params] of calls) {
      const { envelope, result } = await rpc(url, method, params);
      f.check(method, envelope, JSON_RPC_RESPONSE);
      f.check(`${method} result`, result, NODE_RESULTS[method]);
    }
    const levels = (await rpc(url, 'admin.getLoggerLevel', { loggerName: 'P' })).result as Json;
    f.check('admin.getLoggerLevel after set', levels, NODE_RESULTS['admin.getLoggerLevel']);
    expect((levels.loggerLevels as Record<string, Json>).P?.logLevel).toBe('DEBUG');
    f.expectNone();
  });

  it('health report: checks named as in the seed, chain/diskspace/network/router messages, failure fields on failing checks', async () => {
    const f = new Findings();
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      const report = (await rpc(url, 'health.health')).result as Json;
      f.check(`${network} health.health`, report, HEALTH_REPORT);
      const checks = (report.checks ?? {}) as Record<string, Json>;
      for (const name of HEALTH_CHECK_NAMES) if (!(name in checks)) f.add(`${network} health.health: no ${name} check`);
      for (const chain of ['C', 'P', 'X']) if (checks[chain]) f.check(`${network} ${chain} check message`, checks[chain].message, CHAIN_CHECK_MESSAGE);
      if (checks.diskspace) f.check(`${network} diskspace check message`, checks.diskspace.message, DISKSPACE_CHECK_MESSAGE);
      if (checks.network) f.check(`${network} network check message`, checks.network.message, NETWORK_CHECK_MESSAGE);
      if (checks.router) f.check(`${network} router check message`, checks.router.message, ROUTER_CHECK_MESSAGE);
      const failing = Object.entries(checks).filter(([, c]) => c.error !== undefined);
      for (const [name, c] of failing) {
        for (const k of ['contiguousFailures', 'timeOfFirstFailure']) if (c[k] === undefined) f.add(`${network} failing check ${name}: no ${k}`);
      }
      const healthy = failing.length === 0;
      if (report.healthy !== healthy) f.add(`${network} health.health: healthy=${String(report.healthy)} with ${failing.length} failing checks`);
      const live = (await rpc(url, 'health.liveness')).result;
      expect(live).toEqual({ checks: {}, healthy: true });
    }
    f.expectNone();
  });

  it('health GET endpoints: 200 when healthy, 503 when not, with a health report body', async () => {
    const f = new Findings();
    for (const [network, url] of Object.entries(devnet.nodeUrls)) {
      for (const path of ['/ext/health', '/ext/health/health', '/ext/health/readiness', '/ext/health/liveness', '/ext/health?tag=11111111111111111111111111111111LpoYY']) {
        const res = await fetch(`${url}${path}`);
        const body = (await res.json()) as Json;
        f.check(`${network} GET ${path}`, body, HEALTH_REPORT);
        const expected = body.healthy === true ? 200 : 503;
        if (res.status !== expected) f.add(`${network} GET ${path}: status ${res.status} with healthy=${String(body.healthy)}`);
      }
    }
    f.expectNone();
  });

  it('failing health checks (over a few health periods of a hand-driven clock) carry error, contiguousFailures and timeOfFirstFailure', async () => {
    const f = new Findings();
    let clock = Date.UTC(2026, 0, 15);
    const timed = await startDevnet({ validators: 40, now: () => clock });
    const statuses = new Set<number>();
    let failing = 0;
    try {
      for (let period = 0; period < 16; period++, clock += 30_000) {
        for (const [network, url] of Object.entries(timed.nodeUrls)) {
          const res = await fetch(`${url}/ext/health`);
          statuses.add(res.status);
          const report = (await res.json()) as Json;
          f.check(`${network} t+${period * 30}s`, report, HEALTH_REPORT);
          for (const [name, c] of Object.entries((report.checks ?? {}) as Record<string, Json>)) {
            if (c.error === undefined) continue;
            failing += 1;
            for (const k of ['contiguousFailures', 'timeOfFirstFailure']) if (c[k] === undefined) f.add(`${network} t+${period * 30}s failing check ${name}: no ${k}`);
          }
        }
      }
    } finally {
      await timed.close();
    }
    expect(failing, 'some check failed during the periods').toBeGreaterThan(0);
    expect([...statuses].sort()).toEqual([200, 503]);
    f.expectNone();
  });
});

describe('coverage', () => {
  it('every seed field of every checked shape was served by at least one instance', () => {
    const shapes = coverage.checked();
    for (const name of ['Price', 'AddressInfo', 'AssetAmount', 'NftMetadata(ERC-721)', 'NftMetadata(ERC-1155)', 'NativeTransaction', 'NativeTransaction(deployment)', 'Erc20Transfer', 'Erc721Transfer', 'Erc1155Transfer', 'InternalTransaction', 'TeleporterMessageInfo', 'NativeTokenBalance', 'Erc1155TokenBalance', 'Utxo', 'ExportOperation', 'Subnet', 'Blockchain', 'genesisData', 'genesisData.config', 'genesisData.config.feeConfig', 'genesisData.config.warpConfig', 'PrecompileConfig', 'Validator', 'Delegator', 'HistoricalReward', 'PendingReward', 'Block', 'Vertex', 'IcmMessage', 'Chain', 'NftToken', 'chainInfo', 'ErrorBody', 'Peer', 'AcpPreference', 'FeeRecord', 'UpgradeSchedule', 'HealthCheckResult', 'HealthReport', 'LoggerLevel']) {
      expect(shapes, `${name} was checked`).toContain(name);
    }
    // Fields the seeds describe as conditional: the node reports a failed VM load only when one fails.
    const conditional = new Set(['admin.loadVMs result.failedVMs']);
    expect(coverage.neverSeen().filter((f) => !conditional.has(f))).toEqual([]);
  });
});

// Guards the checker itself: it must report what is wrong, all of it, with paths.
describe('checker', () => {
  it('reports every mismatch of an instance with its path', () => {
    const lines = mismatches(
      { blockNumber: 12, blockHash: 'x', parentHash: 'y', blockType: 'b', blockTimestamp: 1.5, txCount: '3', transactions: ['a', 1], currentSupply: '-1' },
      BLOCK,
    );
    expect(lines).toEqual([
      '$.blockNumber: expected string of decimal digits, got number 12',
      '$.blockTimestamp: expected integer, got number 1.5',
      '$.txCount: expected integer, got string "3"',
      '$.transactions[1]: expected string, got number 1',
      '$.blockSizeBytes: missing (Block requires integer)',
      '$.currentSupply: expected string of decimal digits, got string "-1"',
    ]);
  });

  it('picks the variant of a union by its tag, and collapses repeated list mismatches', () => {
    const base = { txHash: 't', nodeId: 'NodeID-x', subnetId: 's', amountStaked: '1', startTimestamp: 1, endTimestamp: 2, delegatorCount: 0 };
    expect(mismatches({ ...base, validationStatus: 'active' }, VALIDATOR)).toEqual([]);
    expect(mismatches({ ...base, validationStatus: 'completed' }, VALIDATOR)).toEqual(['$.rewards: missing (Validator requires object Validator.rewards)']);
    expect(mismatches({ ...base, validationStatus: 'gone' }, VALIDATOR)).toEqual([
      '$.validationStatus: expected one of "completed" | "active" | "pending" | "removed", got string "gone"',
    ]);
    const page = { validators: [1, 2, 3].map((n) => ({ ...base, amountStaked: n, validationStatus: 'pending' })) };
    expect(summarize(mismatches(page, E8_PAGE))).toEqual(['$.validators[0].amountStaked: expected string of decimal digits, got number 1 (and 2 more like it)']);
  });
});
