import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';

/**
 * A field the upstream left out, end to end: a proxy in front of the devnet
 * deletes one required field from one item of an answer, and the gateway reads the
 * answer through its shape. Only the GraphQL fields that read the broken field
 * error (UPSTREAM_PROTOCOL_ERROR, naming the field); their siblings are data.
 */

type Json = Record<string, unknown>;
type GraphQLError = { message: string; path?: (string | number)[]; extensions?: Json };

/** What the proxy breaks: a route's path -> an edit of the parsed answer. */
const EDITS: Record<string, (body: Json) => void> = {
  // The first chain of every chain list loses its name.
  '/v1/chains': (body) => {
    const chains = body.chains as Json[];
    if (chains[0]) delete chains[0].chainName;
  },
  // The second validator of every mainnet page loses its node id.
  '/v1/networks/mainnet/validators': (body) => {
    const validators = body.validators as Json[];
    if (validators[1]) delete validators[1].nodeId;
  },
};

let devnet: Devnet;
let proxy: Server;
let gateway: Gateway;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 60 });
  proxy = createServer((req, res) => {
    void (async () => {
      const upstream = await fetch(`${devnet.url}${req.url ?? '/'}`, { method: req.method, headers: { accept: 'application/json' } });
      let text = await upstream.text();
      const edit = EDITS[new URL(req.url ?? '/', devnet.url).pathname];
      if (edit && upstream.ok) {
        const body = JSON.parse(text) as Json;
        edit(body);
        text = JSON.stringify(body);
      }
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
    })();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  const dataApi = createDataApiClient({ baseUrl: `http://127.0.0.1:${port}` });
  const nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => createNodeClient({ name, url }));
  gateway = createGateway({ graphiql: false }, { dataApi, nodes });
});

afterAll(async () => {
  await gateway?.dispose();
  await new Promise((resolve) => proxy?.close(resolve));
  await devnet?.close();
});

async function query(text: string): Promise<{ data?: Json | null; errors?: GraphQLError[] }> {
  const res = await gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query: text }),
  });
  return (await res.json()) as never;
}

describe('a required field missing from one item of an upstream answer', () => {
  it('errors only the GraphQL field that reads it, with UPSTREAM_PROTOCOL_ERROR naming the field; the siblings are data', async () => {
    const list = await query('{ chains { chainId } }');
    expect(list.errors).toBeUndefined();
    const chains = (list.data?.chains ?? []) as { chainId: string }[];
    expect(chains.length).toBeGreaterThan(1);
    const [broken, intact] = chains.map((c) => c.chainId);

    const res = await query(`{
      broken: chain(chainId: "${broken}") { chainId chainName vmName }
      intact: chain(chainId: "${intact}") { chainId chainName vmName }
      names: chains { chainId }
    }`);
    expect(res.errors).toEqual([
      expect.objectContaining({
        path: ['broken', 'chainName'],
        message: 'The Data API answered GET /v1/chains without a usable chains[0].chainName',
        extensions: expect.objectContaining({ code: 'UPSTREAM_PROTOCOL_ERROR', upstream: 'data-api', upstreamField: 'chains[0].chainName' }),
      }),
    ]);
    // chainName is nullable (fed by the upstream): only it is null; the broken chain's other fields, the other chain and the list are data.
    expect(res.data?.broken).toMatchObject({ chainId: broken, chainName: null });
    expect(res.data?.intact).toMatchObject({ chainId: intact, chainName: expect.any(String) });
    expect((res.data?.names as unknown[]).length).toBe(chains.length);
  });

  // Loaders add fields to an item with withFields (src/shapes/read.ts), which keeps the broken
  // field's getter instead of reading it: only the field that reads nodeId fails, at its own path.
  it('a validator page item without its nodeId: one UPSTREAM_PROTOCOL_ERROR, at that item\'s nodeId', async () => {
    const res = await query('{ network(name: MAINNET) { validators(first: 3) { edges { node { nodeId txHash } } } } }');
    const errors = (res.errors ?? []) as GraphQLError[];
    expect(errors).toHaveLength(1);
    expect(errors[0]?.extensions).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR', upstreamField: 'validators[1].nodeId' });
    expect(errors[0]?.path).toEqual(['network', 'validators', 'edges', 1, 'node', 'nodeId']);
  });
});
