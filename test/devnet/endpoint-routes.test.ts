import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { ENDPOINT_NAMES, ENDPOINTS, operationOf, type EndpointRow } from '../../src/upstream/endpoints.ts';

// Every row of the client's endpoint table has its route on the devnet: a request to the row's
// template reaches the devnet route of the same template (an answer of that route, 200 or 4xx),
// never the devnet's unknown-route 404. A new row without its devnet route fails here.

let devnet: Devnet;
let f: NetworkFixtures;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 50, seed: 7 });
  f = devnet.dataset.fixtures().mainnet;
});
afterAll(async () => {
  await devnet?.close();
});

/** A plausible value for each path parameter of the table, from the devnet's fixtures where it has one. */
function sample(name: string): string {
  const values: Record<string, string> = {
    network: 'mainnet', chainId: f.evmChainId, address: f.address, blockchainId: 'p-chain', txHash: f.pChainTxHash, tokenId: '1',
    operationId: 'unknown-operation', blockId: '1', nodeId: f.nodeId, subnetId: f.subnetId, messageId: 'unknown-message', assetId: f.xAssetId, vertexHash: 'unknown-vertex',
    id: 'unknown-webhook',
  };
  const value = values[name];
  if (value === undefined) throw new Error(`no sample value for path parameter ${name}: add one`);
  return value;
}

describe('the devnet serves every row of the endpoint table', () => {
  it.each(ENDPOINT_NAMES.map((name) => [name, ENDPOINTS[name] as EndpointRow] as const))('%s', async (_name, row) => {
    const path = row.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(row.fixed?.[name] ?? sample(name)));
    const body = row.method === 'POST' ? JSON.stringify(row.args.includes('query+addresses') ? { addresses: f.pChainAddress } : {}) : undefined;
    devnet.resetStats();
    const res = await fetch(`${devnet.url}${path}`, { method: row.method, ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }) });
    await res.arrayBuffer();
    expect(res.status, `${row.method} ${path}`).toBeLessThan(500);
    expect(devnet.requestLog().map((e) => e.route)).toEqual([operationOf(row)]);
  });
});
