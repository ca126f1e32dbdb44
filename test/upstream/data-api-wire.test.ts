import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { createHttpUpstream } from '../../src/upstream/http.ts';
import { startCaptureServer, type CaptureServer } from './capture-server.ts';

// What the Data API client puts on the wire, and how it reads the public spec's
// variants of the answers, checked against a server that records requests.

let server: CaptureServer;
let api: DataApiClient;
const http = createHttpUpstream({ retryBaseDelayMs: 1 });

beforeAll(async () => {
  server = await startCaptureServer();
  api = createDataApiClient({ baseUrl: server.url, apiKey: 'server-key', http });
});
afterAll(async () => {
  await http.close();
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  server.fallback = () => ({ body: {} });
});

function last() {
  const req = server.requests.at(-1);
  if (!req) throw new Error('no request was captured');
  return req;
}

describe('API key', () => {
  it('sends the server key in x-service-api-key', async () => {
    server.answer({ body: { chains: [] } });
    await api.listChains();
    expect(last().headers['x-service-api-key']).toBe('server-key');
    expect(last().headers.accept).toBe('application/json');
  });

  it("replaces it with the caller's key", async () => {
    server.answer({ body: { chains: [] } });
    await api.listChains(undefined, { apiKey: 'caller-key' });
    expect(last().headers['x-service-api-key']).toBe('caller-key');
  });

  it('uses the configured header name, and sends no key when there is none', async () => {
    const custom = createDataApiClient({ baseUrl: server.url, apiKey: 'k1', apiKeyHeader: 'X-Glacier-Api-Key', http });
    server.answer({ body: { chains: [] } }, { body: { chains: [] } });
    await custom.listChains();
    expect(last().headers['x-glacier-api-key']).toBe('k1');
    expect(last().headers['x-service-api-key']).toBeUndefined();
    const anonymous = createDataApiClient({ baseUrl: server.url, http });
    await anonymous.listChains();
    expect(last().headers['x-service-api-key']).toBeUndefined();
  });
});

describe('paths and parameters', () => {
  it('keeps the literal colons of the custom methods and encodes path params', async () => {
    server.fallback = () => ({ body: { transactions: [], erc1155TokenBalances: [], pendingRewards: [] } });
    await api.listNativeTransactions('43114', '0xab:c@d');
    expect(last().url).toBe('/v1/chains/43114/addresses/0xab%3Ac%40d/transactions:listNative');
    // A separator, a space or a dot segment never reaches the URL (test/schema/security.test.ts has the table).
    const sent = server.requests.length;
    for (const address of ['0xab/c d', '..', '%2e%2e']) {
      await expect(api.listNativeTransactions('43114', address)).rejects.toMatchObject({ kind: 'input', parameter: 'address' });
    }
    expect(server.requests.length).toBe(sent);
    await api.getNativeBalance('43114', '0xabc', { currency: 'eur' });
    expect(last().url).toBe('/v1/chains/43114/addresses/0xabc/balances:getNative?currency=eur');
    await api.listErc1155Balances('43114', '0xabc', { contractAddress: '0xdef', pageSize: 5 });
    expect(last().url).toBe('/v1/chains/43114/addresses/0xabc/balances:listErc1155?contractAddress=0xdef&pageSize=5');
    await api.listPendingRewards('fuji', { nodeIds: ['NodeID-a', 'NodeID-b'] });
    expect(last().url).toBe('/v1/networks/fuji/rewards:listPending?nodeIds=NodeID-a%2CNodeID-b');
    await api.getDeploymentTransaction('43114', '0xc0ffee');
    expect(last().url).toBe('/v1/chains/43114/contracts/0xc0ffee/transactions:getDeployment');
    await api.getNftToken('43114', '0xc0ffee', '42');
    expect(last().url).toBe('/v1/chains/43114/nfts/collections/0xc0ffee/tokens/42');
  });

  it('sends query parameters only when defined, joins lists, drops empty lists', async () => {
    server.fallback = () => ({ body: { validators: [], delegators: [], historicalRewards: [] } });
    await api.listValidators('mainnet', {
      nodeIds: ['NodeID-1', 'NodeID-2'], pageSize: 3, validationStatus: 'active', subnetId: undefined,
      minDelegationCapacity: '1000', minUptimePerformance: 0,
    });
    const url = new URL(last().url, server.url);
    expect(url.pathname).toBe('/v1/networks/mainnet/validators');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      nodeIds: 'NodeID-1,NodeID-2', pageSize: '3', validationStatus: 'active', minDelegationCapacity: '1000', minUptimePerformance: '0',
    });
    await api.listDelegators('fuji', { rewardAddresses: ['fuji1a', 'fuji1b'], nodeIds: [] });
    expect(last().url).toBe('/v1/networks/fuji/delegators?rewardAddresses=fuji1a%2Cfuji1b');
    await api.listHistoricalRewards('mainnet', { addresses: ['avax1x'], currency: 'usd', sortOrder: 'asc' });
    expect(Object.fromEntries(new URL(last().url, server.url).searchParams)).toEqual({ addresses: 'avax1x', currency: 'usd', sortOrder: 'asc' });
  });

  it('E4 sends the addresses in the JSON body and the rest in the query, as a POST', async () => {
    server.answer({ body: { utxos: [] } });
    await api.listUtxos('mainnet', 'p-chain', { addresses: ['P-avax1a', 'P-avax1b'], pageSize: 20, includeSpent: true, sortBy: 'amount' });
    const req = last();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/networks/mainnet/blockchains/p-chain/utxos?pageSize=20&includeSpent=true&sortBy=amount');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body)).toEqual({ addresses: 'P-avax1a,P-avax1b' });
  });

  it('E1 and E5 post their JSON bodies', async () => {
    server.answer({ status: 201, body: { signedMessage: '0xabc' } });
    await expect(api.aggregateSignatures('fuji', { message: '0x01', quorumPercentage: 67 })).resolves.toEqual({ signedMessage: '0xabc' });
    expect(last()).toMatchObject({ method: 'POST', url: '/v1/signatureAggregator/fuji/aggregateSignatures' });
    expect(JSON.parse(last().body)).toEqual({ message: '0x01', quorumPercentage: 67 });
    const exportBody = { type: 'TRANSACTION_EXPORT_EVM', firstDate: '2024-01-01', options: { addresses: ['0x1'], includeChains: ['43114'] } };
    server.answer({ status: 201, body: { operationId: 'op-1', operationType: 'TRANSACTION_EXPORT_EVM', operationStatus: 'RUNNING', createdAtTimestamp: 1, updatedAtTimestamp: 1 } });
    await expect(api.createTransactionExport(exportBody)).resolves.toMatchObject({ operationId: 'op-1' });
    expect(last()).toMatchObject({ method: 'POST', url: '/v1/operations/transactions:export' });
    expect(JSON.parse(last().body)).toEqual(exportBody);
  });

  it('honours a path prefix in the base URL', async () => {
    const prefixed = createDataApiClient({ baseUrl: `${server.url}/data/`, http });
    server.answer({ body: { chains: [] } });
    await prefixed.listChains({ network: 'fuji', feature: 'teleporter' });
    expect(last().url).toBe('/data/v1/chains?network=fuji&feature=teleporter');
  });
});

describe('tolerant reading', () => {
  it('turns a numeric price value into a decimal string, everywhere', async () => {
    server.answer({
      body: {
        nativeTokenBalance: {
          name: 'Avalanche', symbol: 'AVAX', decimals: 18, chainId: '43114', balance: '1',
          price: { currencyCode: 'usd', value: 42.42 }, balanceValue: { currencyCode: 'usd', value: 1e21 },
        },
      },
    });
    const { nativeTokenBalance } = await api.getNativeBalance('43114', '0xabc');
    expect(nativeTokenBalance.price).toEqual({ currencyCode: 'usd', value: '42.42' });
    expect(nativeTokenBalance.balanceValue).toEqual({ currencyCode: 'usd', value: '1000000000000000000000' });
  });

  it('reads a message list error body, and maps it to an UpstreamError', async () => {
    server.answer({ status: 400, body: { message: ['Invalid address format', 'pageSize too large'], error: 'Bad Request', statusCode: 400 } });
    const error = await api.listChains().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', status: 400, attempts: 1, body: { statusCode: 400, message: ['Invalid address format', 'pageSize too large'] } });
    expect((error as Error).message).toContain('Invalid address format; pageSize too large');
  });

  it('accepts 201 as success', async () => {
    server.answer({ status: 201, body: { signedMessage: '0x01' } });
    await expect(api.getAggregatedSignatures('mainnet', 'tx1')).resolves.toEqual({ signedMessage: '0x01' });
  });

  it("fills an active validator's rewards from potentialRewards, keeping both", async () => {
    const potentialRewards = { validationRewardAmount: '10', delegationRewardAmount: '2' };
    const completedRewards = { validationRewardAmount: '5', delegationRewardAmount: '1' };
    server.answer({
      body: {
        validators: [
          { nodeId: 'NodeID-a', validationStatus: 'active', potentialRewards, uptimePerformance: 99.5 },
          { nodeId: 'NodeID-b', validationStatus: 'completed', rewards: completedRewards },
          { nodeId: 'NodeID-c', validationStatus: 'pending' },
        ],
        nextPageToken: '',
      },
    });
    const page = await api.listValidators('mainnet');
    expect(page.validators[0]).toMatchObject({ rewards: potentialRewards, potentialRewards });
    expect(page.validators[1]?.rewards).toEqual(completedRewards);
    expect(page.validators[2]?.rewards).toBeUndefined();
    expect('nextPageToken' in page).toBe(false);
  });

  it('maps the X/C-chain UTXO shape onto the seed shape and leaves the P-chain shape alone', async () => {
    const asset = { assetId: 'asset1', name: 'Avalanche', symbol: 'AVAX', denomination: 9, type: 'secp256k1', amount: '500' };
    const pChain = {
      addresses: ['avax1a'], asset, consumedOnChainId: 'P', createdOnChainId: 'P', txHash: 'tx-p', utxoId: 'u1', outputIndex: 1,
      blockNumber: '7', blockTimestamp: 10, utxoType: 'STAKE', amount: '500', assetId: 'asset1',
    };
    const xChain = {
      addresses: ['avax1b'], asset, consumedOnChainId: 'X', createdOnChainId: 'X', utxoId: 'u2',
      creationTxHash: 'tx-x', locktime: 7, outputIndex: '38', threshold: 1, timestamp: 1599696000,
      consumingTxTimestamp: 1599697000, utxoType: 'transfer',
    };
    server.answer({ body: { utxos: [pChain, xChain], chainInfo: { chainName: 'x-chain', network: 'mainnet' }, nextPageToken: 'next' } });
    const page = await api.listUtxos('mainnet', 'x-chain', { addresses: ['X-avax1b'] });
    expect(page.utxos[0]).toEqual(pChain);
    expect(page.utxos[1]).toMatchObject({
      txHash: 'tx-x', outputIndex: 38, blockTimestamp: 1599696000, platformLocktime: 7,
      consumingBlockTimestamp: 1599697000, amount: '500', assetId: 'asset1', utxoId: 'u2',
    });
    expect(page.utxos[1]).not.toHaveProperty('creationTxHash');
    expect(page.nextPageToken).toBe('next');
  });

  it('keeps the spec delegator estimates as they are', async () => {
    const delegator = {
      txHash: 't', nodeId: 'NodeID-a', rewardAddresses: ['avax1r'], amountDelegated: '25', delegationFee: '2.0', startTimestamp: 1,
      endTimestamp: 2, delegationStatus: 'active', estimatedGrossReward: '10', estimatedNetReward: '9',
    };
    server.answer({ body: { delegators: [delegator] } });
    const page = await api.listDelegators('mainnet');
    expect(page.delegators[0]).toEqual(delegator);
  });

  it('reports a body that is not JSON, an empty body, and a missing list as protocol errors', async () => {
    server.answer({ raw: '<html>oops</html>' }, { raw: '' }, { body: { items: [] } });
    await expect(api.listChains()).rejects.toMatchObject({ kind: 'protocol', status: 200 });
    await expect(api.getOperation('op')).rejects.toMatchObject({ kind: 'protocol' });
    await expect(api.listSubnets('mainnet')).rejects.toMatchObject({ kind: 'protocol', operation: 'GET /v1/networks/{network}/subnets' });
  });
});
