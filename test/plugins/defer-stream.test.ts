import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { meros } from 'meros/browser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import type { NodeClient } from '../../src/upstream/client-types.ts';
import { readEvents } from '../helpers/sse.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

/** One payload of an incremental response (GraphQL over HTTP incremental delivery, the format yoga sends). */
interface Payload extends GraphQLResponse {
  hasNext?: boolean;
  incremental?: { path: (string | number)[]; data?: Record<string, unknown> | null; items?: unknown[] | null; errors?: GraphQLResponse['errors'] }[];
}

const DEFERRED = /* GraphQL */ `
  query Deferred {
    network(name: FUJI) {
      validators(first: 5, filter: { validationStatus: ACTIVE }) {
        edges {
          node {
            nodeId
            ... on ActiveValidator @defer {
              peer { nodeID version }
              pendingRewards(first: 2) { edges { node { txHash progress estimatedReward { amount } } } }
            }
          }
        }
      }
    }
  }
`;
const PLAIN = DEFERRED.replace(' @defer', '');

/** The payloads applied in order: each deferred part merged at its path, each streamed item appended. */
function merge(payloads: readonly Payload[]): Record<string, unknown> {
  const data = structuredClone(payloads[0]?.data ?? {}) as Record<string, unknown>;
  for (const payload of payloads.slice(1)) {
    for (const part of payload.incremental ?? []) {
      const at = (path: readonly (string | number)[]): unknown => path.reduce<unknown>((target, key) => (target as Record<string | number, unknown>)[key], data);
      if (part.data) Object.assign(at(part.path) as object, part.data);
      // A streamed part's path ends with the index of its first item.
      if (part.items) (at(part.path.slice(0, -1)) as unknown[]).splice(Number(part.path.at(-1)), 0, ...part.items);
    }
  }
  return data;
}

/** Reads a multipart/mixed response with meros; `onPart` runs as each part is read, before the next is awaited. */
async function readParts(response: Response, onPart?: (index: number) => void): Promise<{ payload: Payload }[]> {
  expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
  const parts = await meros<Payload>(response);
  if (parts instanceof Response) throw new Error(`not multipart: ${await parts.text()}`);
  const read: { payload: Payload }[] = [];
  for await (const part of parts) {
    if (!part.json) throw new Error(`a part that is not JSON: ${String(part.body)}`);
    read.push({ payload: part.body });
    onPart?.(read.length - 1);
  }
  return read;
}

/** While set, every `info.peers` answer waits for `released` before its caller sees it (see `holdPeers`). */
let peersHold: { released: Promise<void>; asked: number } | undefined;

/** `node`, its `info.peers` answers held back while a test holds them. */
function withHeldPeers(node: NodeClient): NodeClient {
  return {
    name: node.name,
    url: node.url,
    call: async (method, params, opts) => {
      const hold = method === 'info.peers' ? peersHold : undefined;
      if (hold) hold.asked += 1;
      const answer = await node.call(method, params, opts);
      if (hold) await hold.released;
      return answer;
    },
    healthGet: (path, tags, opts) => node.healthGet(path, tags, opts),
  };
}

/** Holds every `info.peers` answer from now until `release`: a test orders events by cause, not by clock. */
function holdPeers(): { withheld(): boolean; release(): void; asked(): number } {
  let release = (): void => undefined;
  const hold = { released: new Promise<void>((resolve) => (release = resolve)), asked: 0 };
  peersHold = hold;
  return {
    withheld: () => peersHold === hold,
    release: () => {
      peersHold = undefined;
      release();
    },
    asked: () => hold.asked,
  };
}

describe('@defer and @stream over real HTTP', () => {
  let stack: TestStack;
  let server: Server;
  let url: string;
  const post = (query: string, accept: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept, ...headers }, body: JSON.stringify({ query }) });

  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 60 }, wrapNode: withHeldPeers });
    server = createServer(stack.gateway);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    // The node directory's start-up calls are done before any count is taken.
    await stack.query(PLAIN);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await stack.close();
  });
  beforeEach(() => {
    stack.devnet.resetChaos();
    stack.devnet.resetStats();
  });

  it('sends the validators first, then each validator`s peer and pending rewards: the same data and the same upstream calls as the plain query', async () => {
    const plain = await stack.query(PLAIN);
    expect(plain.errors).toBeUndefined();
    const plainCalls = stack.devnet.stats().byRoute;
    stack.devnet.resetStats();

    // The node's peer list is withheld until the first payload has been read: if that payload waited
    // for it, it would never come. Then the peers answer, and the deferred parts follow.
    const peers = holdPeers();
    const withheldWhenRead: boolean[] = [];
    let parts: { payload: Payload }[];
    try {
      parts = await readParts(await post(DEFERRED, 'multipart/mixed'), (index) => {
        withheldWhenRead.push(peers.withheld());
        if (index === 0) peers.release();
      });
    } finally {
      peers.release();
    }

    expect(parts.length).toBeGreaterThan(1);
    const [first, ...rest] = parts;
    expect(first?.payload.hasNext).toBe(true);
    expect(JSON.stringify(first?.payload.data)).not.toContain('pendingRewards');
    // The first part was read while the peers call was still unanswered; every other part after its answer.
    expect(withheldWhenRead).toEqual(parts.map((_, i) => i === 0));
    expect(peers.asked()).toBe(1);
    expect(parts.at(-1)?.payload.hasNext).toBe(false);

    // Every validator's deferred part arrived, with a peer and pending rewards for some of them.
    const deferredPaths = rest.flatMap((part) => part.payload.incremental ?? []).map((part) => part.path.join('.'));
    expect(deferredPaths.sort()).toEqual([0, 1, 2, 3, 4].map((i) => `network.validators.edges.${i}.node`));
    const merged = merge(parts.map((part) => part.payload));
    expect(merged).toEqual(plain.data);
    expect(JSON.stringify(merged)).toContain('"txHash"');
    expect(JSON.stringify(merged)).toContain('"nodeID"');
    // Batched as before: one validators page, one peer list, one pending-rewards call.
    expect(stack.devnet.stats().byRoute).toEqual(plainCalls);
    // The cost is reported once, on the last payload, estimated as for the plain query.
    expect(parts.at(-1)?.payload.extensions?.['cost']).toEqual(plain.extensions?.['cost']);
  });

  it('keeps answering incrementally once the operation is hot (compiled execution steps aside)', async () => {
    for (let run = 0; run < 4; run += 1) {
      const parts = await readParts(await post(DEFERRED, 'multipart/mixed'));
      expect(parts.length).toBeGreaterThan(1);
      expect(parts[0]?.payload.hasNext).toBe(true);
    }
    // The plain query does get compiled, and still answers the same.
    for (let run = 0; run < 3; run += 1) expect((await stack.query(PLAIN)).errors).toBeUndefined();
  });

  it('streams a plain list (@stream on chains): the first items inline, the rest as items, merged equal to the list', async () => {
    const plain = await stack.query<{ chains: unknown[] }>('{ chains { chainId chainName } }');
    const chains = plain.data?.chains ?? [];
    expect(chains.length).toBeGreaterThan(2);
    const parts = await readParts(await post('{ chains @stream(initialCount: 1) { chainId chainName } }', 'multipart/mixed'));
    expect((parts[0]?.payload.data?.['chains'] as unknown[]).length).toBe(1);
    expect(parts.some((part) => part.payload.incremental?.some((item) => Array.isArray(item.items)))).toBe(true);
    expect(merge(parts.map((part) => part.payload))).toEqual(plain.data);
  });

  it('delivers deferred parts as server-sent events too', async () => {
    const response = await post(DEFERRED, 'text/event-stream');
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const { events, reader } = await readEvents<Payload>(response, 100);
    await reader.cancel().catch(() => undefined);
    expect(events.length).toBeGreaterThan(1);
    expect(events[0]?.hasNext).toBe(true);
    expect(events.at(-1)?.hasNext).toBe(false);
    expect(merge(events)).toEqual((await stack.query(PLAIN)).data);
  });

  it('maps an upstream failure inside a deferred part to its coded error, the initial payload unharmed', async () => {
    stack.devnet.setChaos({ faultRate: 1, faultStatus: 500, routeFilter: 'info.peers' });
    const parts = await readParts(await post(DEFERRED, 'multipart/mixed'));
    expect(parts[0]?.payload.errors).toBeUndefined();
    const errors = parts.flatMap((part) => part.payload.incremental ?? []).flatMap((part) => part.errors ?? []);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error.path?.at(-1)).toBe('peer');
      expect(error.extensions?.['code']).toMatch(/^UPSTREAM_/);
    }
  });
});

describe('@defer with the response limit and the whole-response cache', () => {
  it('counts every payload against MAX_RESPONSE_BYTES: parts past it carry RESPONSE_TOO_LARGE and the stream still ends', async () => {
    const stack = await startStack({ devnet: { validators: 60 }, gateway: { maxResponseBytes: 1200 } });
    try {
      const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
        body: JSON.stringify({ query: DEFERRED }),
      });
      const parts = await readParts(response);
      expect(parts[0]?.payload.data).toBeTruthy();
      expect(parts.at(-1)?.payload.hasNext).toBe(false);
      const refused = parts.flatMap((part) => part.payload.incremental ?? []).filter((part) => part.errors?.[0]?.extensions?.['code'] === 'RESPONSE_TOO_LARGE');
      expect(refused.length).toBeGreaterThan(0);
      for (const part of refused) expect(part.data).toBeNull();
      const sent = parts.reduce((total, part) => total + Buffer.byteLength(JSON.stringify(part.payload)), 0);
      // Within the limit but for the errors that replaced the parts past it.
      expect(sent - refused.length * 400).toBeLessThanOrEqual(1200);
    } finally {
      await stack.close();
    }
  });

  it('never holds an incremental response in the whole-response cache, and answers it incrementally each time', async () => {
    const stack = await startStack({ devnet: { validators: 60 }, cache: createMemoryCache({}), gateway: { responseCache: {} } });
    try {
      for (let run = 0; run < 3; run += 1) {
        const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
          body: JSON.stringify({ query: DEFERRED }),
        });
        const parts = await readParts(response);
        expect(parts.length).toBeGreaterThan(1);
        expect(parts.at(-1)?.payload.hasNext).toBe(false);
      }
    } finally {
      await stack.close();
    }
  });
});
