/**
 * The floor the gateway is measured against: a plain client fetching the same
 * data straight from the REST/RPC endpoints, as well as a hand-written client can
 * (batched comma lists, parallel calls), with no GraphQL in between.
 */
interface Page<T> { nextPageToken?: string; [key: string]: T[] | string | undefined }

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${res.status} ${url}`);
  return (await res.json()) as T;
}

export async function directS1(devnet: string): Promise<void> {
  await getJson(`${devnet}/v1/networks/mainnet/validators?pageSize=10`);
}

export async function directS2(devnet: string): Promise<void> {
  const page = await getJson<{ validators: { nodeId: string }[] }>(`${devnet}/v1/networks/mainnet/validators?pageSize=50&validationStatus=active`);
  const ids = page.validators.map((v) => v.nodeId);
  const chunks = [ids.slice(0, 20), ids.slice(20, 40), ids.slice(40)].filter((c) => c.length);
  await Promise.all([
    ...chunks.map((c) => getJson(`${devnet}/v1/networks/mainnet/delegators?pageSize=100&nodeIds=${c.join(',')}`)),
    ...chunks.map((c) => getJson(`${devnet}/v1/networks/mainnet/rewards:listPending?pageSize=100&nodeIds=${c.join(',')}`)),
    getJson(`${devnet}/v1/networks/mainnet/subnets?pageSize=10000`),
    getJson(`${devnet}/ext/info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'info.peers', params: { nodeIDs: ids } }),
    }),
  ]);
}

export type { Page };
