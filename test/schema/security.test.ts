import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { upstreamToGraphQLError } from '../../src/errors/graphql.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createCursorCodec, parseCursorSecrets } from '../../src/schema/pagination.ts';
import { decodeGlobalId, encodeGlobalId, encodeLegacyGlobalId, MAX_BATCH_KEYS, MAX_GLOBAL_ID_LENGTH } from '../../src/schema/relay-node.ts';
import { createMemoryCache } from '../../src/upstream/cache-memory.ts';
import { withDataApiCache } from '../../src/upstream/cached-clients.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

// The security cases of issue 8, one table each: response-cache entries per caller key,
// caller keys parsed before use, path parameters that cannot leave their route, global
// ids and cursors checked against their grammar (cursors signed), admin reads gated.
// Every refusal is checked to happen before any upstream request.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;
const codeOf = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['code'];
const argumentOf = (result: GraphQLResponse) => result.errors?.[0]?.extensions?.['argumentName'];

// ---------------------------------------------------------------- a keyed upstream

/**
 * A proxy in front of the devnet that plays a Data API checking keys: it records the
 * key of every request and answers 401 (the seed's error body) for `rejected-key`.
 */
interface KeyProxy {
  url: string;
  keys: (string | undefined)[];
  close(): Promise<void>;
}

async function startKeyProxy(target: string): Promise<KeyProxy> {
  const keys: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    const key = req.headers['x-service-api-key'];
    keys.push(Array.isArray(key) ? key.join(',') : key);
    if (key === 'rejected-key') {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Invalid API key', statusCode: 401, error: 'Unauthorized' }));
      return;
    }
    void fetch(`${target}${req.url ?? '/'}`, { method: req.method ?? 'GET' }).then(async (answer) => {
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    keys,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

describe('response cache and caller keys', () => {
  let devnet: Devnet;
  let proxy: KeyProxy;
  let gateway: Gateway;
  let raw: DataApiClient;
  const CHAINS = '{ chains { chainId } }';
  // The clock of the gateway's client identity, which remembers the keys the upstream refused.
  const clock = { t: 1_000 };

  beforeAll(async () => {
    devnet = await startDevnet({ validators: 50 });
    proxy = await startKeyProxy(devnet.url);
    raw = createDataApiClient({ baseUrl: proxy.url, apiKey: 'server-key' });
    gateway = createGateway({ graphiql: false, admission: { clients: { now: () => clock.t } } }, { dataApi: withDataApiCache(raw, createMemoryCache()), nodes: [] });
  });
  afterAll(async () => {
    await gateway.dispose();
    await raw.close();
    await proxy.close();
    await devnet.close();
  });
  beforeEach(() => {
    proxy.keys.length = 0;
  });

  async function run(key?: string): Promise<{ status: number; body: GraphQLResponse<Data> }> {
    const response = await gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-service-api-key': key }) },
      body: JSON.stringify({ query: CHAINS }),
    });
    return { status: response.status, body: (await response.json()) as GraphQLResponse<Data> };
  }

  it('keys entries by the caller key: different keys never share, no key shares with no key', async () => {
    // Each row: the key sent, and the keys the upstream sees for it (empty: served from the cache).
    const table: [string | undefined, (string | undefined)[]][] = [
      [undefined, ['server-key']],
      [undefined, []],
      ['caller-a', ['caller-a']],
      ['caller-a', []],
      ['caller-b', ['caller-b']],
      [undefined, []],
      ['caller-b', []],
      // A caller sending the server's key is a caller with a key: its own entry, checked upstream once.
      ['server-key', ['server-key']],
    ];
    for (const [key, upstream] of table) {
      proxy.keys.length = 0;
      const { body } = await run(key);
      expect(body.errors, `key ${key}`).toBeUndefined();
      expect(body.data?.['chains'].length).toBeGreaterThan(0);
      expect(proxy.keys, `key ${key}`).toEqual(upstream);
    }
  });

  it('does not share an in-flight call between two keys', async () => {
    const [one, two] = await Promise.all([run('concurrent-1'), run('concurrent-2')]);
    expect(one.body.errors).toBeUndefined();
    expect(two.body.errors).toBeUndefined();
    expect(proxy.keys.sort()).toEqual(['concurrent-1', 'concurrent-2']);
  });

  it('sends a bogus but well-formed key upstream, which rejects it; the key is refused here unsent for a while, and the refusal is not cached', async () => {
    const first = await run('rejected-key');
    expect(codeOf(first.body)).toBe('UPSTREAM_UNAUTHORIZED');
    expect(first.body.data?.['chains'] ?? null).toBeNull();
    // Refused lately: answered here (REFUSED_KEY_TTL_MS, 60 s by default), never sent again meanwhile.
    const again = await run('rejected-key');
    expect(again.status).toBe(401);
    expect(codeOf(again.body)).toBe('UNAUTHENTICATED');
    expect(proxy.keys).toEqual(['rejected-key']);
    // Once that has passed, the key is sent again: the upstream's refusal was never cached.
    clock.t += 60_001;
    expect(codeOf((await run('rejected-key')).body)).toBe('UPSTREAM_UNAUTHORIZED');
    expect(proxy.keys).toEqual(['rejected-key', 'rejected-key']);
  });

  it('refuses a malformed key with UNAUTHENTICATED (HTTP 401) before any upstream call, without echoing it', async () => {
    const malformed = ['two words', 'k1, k2', 'tab\there', 'a|b', 'colon:key', 'quote"', 'ключ', 'x'.repeat(257), '%41%42'];
    for (const key of malformed) {
      const { status, body } = await run(key);
      expect(status, key).toBe(401);
      expect(codeOf(body), key).toBe('UNAUTHENTICATED');
      expect(body.errors?.[0]?.extensions?.['header']).toBe('x-service-api-key');
      expect(JSON.stringify(body)).not.toContain(key.slice(0, 20));
    }
    expect(proxy.keys).toEqual([]);
  });

  it('accepts the usual key shapes (hex, base64, base64url, UUID, dotted tokens)', async () => {
    const good = ['0123456789abcdef0123456789abcdef', 'QUJDREVGR0g+/w==', 'abc_DEF-123', '39eab185-2016-4822-94a9-ef95990c69ce', 'a.b.c', 'x'.repeat(256)];
    for (const key of good) {
      const { body } = await run(key);
      expect(body.errors, key).toBeUndefined();
    }
    expect(proxy.keys).toEqual(good);
  });
});

// ---------------------------------------------------------------- path and query parameters

describe('the Data API client refuses parameters that would leave their route', () => {
  let stack: TestStack;
  let client: DataApiClient;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 50 } });
    client = createDataApiClient({ baseUrl: stack.devnet.url, apiKey: 'server-key' });
  });
  afterAll(async () => {
    await client.close();
    await stack.close();
  });

  const BAD_PATH = ['', '.', '..', '../chains', 'a/b', 'a\\b', 'a?b=1', 'a#b', '%2e%2e', '..%2f..%2fchains', 'a\u0000b', 'a\nb', 'a b', 'x'.repeat(129), 'é'];
  const calls: [string, (value: string) => Promise<unknown>, string][] = [
    ['getOperation', (v) => client.getOperation(v), 'operationId'],
    ['getTransaction (txHash)', (v) => client.getTransaction('43114', v), 'txHash'],
    ['getTransaction (chainId)', (v) => client.getTransaction(v, '0x'.padEnd(66, '0')), 'chainId'],
    ['listValidators (network)', (v) => client.listValidators(v as never, {}), 'network'],
    ['getNftToken (tokenId)', (v) => client.getNftToken('43114', '0x'.padEnd(42, '1'), v), 'tokenId'],
  ];

  it.each(calls)('%s: every bad value is an input error naming the parameter, nothing sent', async (_name, call, parameter) => {
    stack.devnet.resetStats();
    for (const value of BAD_PATH) {
      const error = await call(value).then(() => undefined, (e: unknown) => e);
      expect(error, JSON.stringify(value)).toBeInstanceOf(UpstreamError);
      expect((error as UpstreamError).kind).toBe('input');
      expect((error as UpstreamError).parameter).toBe(parameter);
      expect((error as UpstreamError).message).not.toContain(value.length > 2 ? value : '\u0000\u0000');
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('bounds query-string values and refuses control characters in them', async () => {
    stack.devnet.resetStats();
    for (const pageToken of ['x'.repeat(8193), 'a\u0000b', 'a\r\nb']) {
      const error = await client.listValidators('mainnet', { pageToken }).then(() => undefined, (e: unknown) => e);
      expect((error as UpstreamError).kind).toBe('input');
      expect((error as UpstreamError).parameter).toBe('pageToken');
    }
    expect(stack.upstreamRequests()).toBe(0);
    // Ordinary values still go through, URL-encoded.
    await expect(client.listValidators('mainnet', { pageSize: 1 })).resolves.toMatchObject({ validators: [expect.anything()] });
  });

  it('the node client bounds the health tags it puts in a URL (its only caller input outside a JSON body)', async () => {
    const node = createNodeClient({ name: 'mainnet', url: stack.devnet.nodeUrls['mainnet'] as string });
    stack.devnet.resetStats();
    const table: string[][] = [[''], ['x'.repeat(129)], ['a\u0000b'], ['a\r\nb'], Array.from({ length: 65 }, (_, i) => `t${i}`)];
    for (const tags of table) {
      await expect(node.healthGet('health', tags)).rejects.toMatchObject({ kind: 'input', parameter: 'tag', upstream: 'node:mainnet' });
    }
    expect(stack.upstreamRequests()).toBe(0);
    // Separators are fine here: URLSearchParams encodes them into one query value.
    await expect(node.healthGet('health', ['a&b=c', '../..'])).resolves.toMatchObject({ report: expect.anything() });
    await node.close();
  });

  it('maps an input error to BAD_USER_INPUT naming the parameter', () => {
    const error = upstreamToGraphQLError(new UpstreamError('data-api GET /v1/operations/{operationId}: not sent', { upstream: 'data-api', kind: 'input', operation: 'GET /v1/operations/{operationId}', parameter: 'operationId' }));
    expect(error.extensions).toMatchObject({ code: 'BAD_USER_INPUT', parameter: 'operationId' });
  });

  it('a value the client refuses was read from an upstream answer: UPSTREAM_PROTOCOL_ERROR naming the field, not the caller\'s fault', async () => {
    stack.devnet.resetStats();
    const table: [() => Promise<unknown>, string, string][] = [
      [() => client.getLatestBlocks('string', {}), 'chainId', 'chainId'],
      [() => client.getSubnet('mainnet', 'a/b'), 'subnetId', 'subnetId'],
      [() => client.listValidators('mainnet', { subnetId: '' }), 'subnetId', 'subnetId'],
      [() => client.listBlocks('mainnet', 'NodeID-💥', {}), 'blockchainId', 'blockchainId'],
      [() => client.listValidators('mainnet', { pageToken: 'a\u0000b' }), 'pageToken', 'nextPageToken'],
    ];
    for (const [call, parameter, field] of table) {
      const error = await call().then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ kind: 'input', parameter, field });
      expect(upstreamToGraphQLError(error as UpstreamError).extensions).toMatchObject({ code: 'UPSTREAM_PROTOCOL_ERROR', upstreamField: field, parameter });
    }
    // The caller's own key is the caller's.
    const keyError = await client.listChains({}, { apiKey: 'bad key' }).then(() => undefined, (e: unknown) => e);
    expect(upstreamToGraphQLError(keyError as UpstreamError).extensions).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(stack.upstreamRequests()).toBe(0);
  });
});

// ---------------------------------------------------------------- global ids

/** base64url of any JSON text, as a forger would build an id. */
const forge = (json: string) => Buffer.from(json).toString('base64url');

/** The same bytes in other base64url text: the last character of 22 carries 4 unused bits. */
function respell(mac: string): string {
  const bytes = Buffer.from(mac, 'base64url');
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
    const other = `${mac.slice(0, -1)}${c}`;
    if (other !== mac && Buffer.from(other, 'base64url').equals(bytes)) return other;
  }
  throw new Error('no other spelling');
}

describe('global ids are parsed: their form, then each part against its family grammar', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 50 } });
  });
  afterAll(() => stack.close());

  const NODE_ID = 'NodeID-3JLNNYoUpctwErj5QfYVz4aKwo77nKWSa';
  const CB58 = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
  const compact = (...bytes: number[]) => Buffer.from(bytes).toString('base64url');
  /**
   * Ids of the right form whose parts no grammar takes. Chaingraph issues such ids when an upstream
   * sends such values, so they are not refused: no lookup can be made, and they answer null with no call.
   */
  const UNUSABLE_IDS: [string, string][] = [
    ['dot-dot operation id', encodeGlobalId('ExportOperation', ['..'])],
    ['dot operation id', encodeGlobalId('ExportOperation', ['.'])],
    ['path in operation id', encodeGlobalId('ExportOperation', ['../chains'])],
    ['encoded dot-dot', encodeGlobalId('ExportOperation', ['%2e%2e'])],
    ['dot-dot chain id', encodeGlobalId('Transaction', ['..', '0x'.padEnd(66, 'a')])],
    ['path in tx hash', encodeGlobalId('Transaction', ['43114', '../../v1/chains'])],
    ['dot-dot in NFT token id', encodeGlobalId('NftToken', ['43114', '0x'.padEnd(42, '1'), '..'])],
    ['query in address', encodeGlobalId('Address', ['43114', '0x1?pageSize=1000'])],
    ['bad node id', encodeGlobalId('Validator', ['mainnet', 'NodeID-x', CB58, CB58])],
    ['bad network', encodeGlobalId('Validator', ['devnet', NODE_ID, CB58, CB58])],
    ['dot-dot subnet', encodeGlobalId('Subnet', ['mainnet', '..'])],
    ['cb58 with a bad checksum', encodeGlobalId('Blockchain', ['mainnet', `${CB58.slice(0, -1)}A`])],
    ['number where a hash is', encodeGlobalId('Block', ['mainnet', 'p-chain', 1, 1, 1])],
    ['legacy dot-dot operation id', encodeLegacyGlobalId('ExportOperation', ['..'])],
    ['legacy bad node id', encodeLegacyGlobalId('Validator', ['mainnet', 'NodeID-x', CB58, CB58])],
    ['a part too long to carry (its digest)', encodeGlobalId('ExportOperation', ['a'.repeat(MAX_GLOBAL_ID_LENGTH)])],
  ];

  /** Texts chaingraph never issues as ids: refused (BAD_USER_INPUT) before any call. */
  const BAD_IDS: [string, string][] = [
    ['too few parts', encodeGlobalId('Delegator', ['mainnet', NODE_ID])],
    ['too many parts', encodeGlobalId('Network', ['mainnet', 'extra'])],
    ['huge number', forge('["Block","mainnet","p-chain","1",1e400,"' + CB58 + '"]')],
    ['unknown family', encodeLegacyGlobalId('Secret', ['x'])],
    ['unknown compact family', compact(40, 0, 1, 0x78)],
    ['compact id cut short', encodeGlobalId('Validator', ['mainnet', NODE_ID, CB58, CB58]).slice(0, -8)],
    ['compact id with trailing bytes', compact(...Buffer.from(encodeGlobalId('Network', ['mainnet']), 'base64url'), 0x07)],
    ['compact number with a redundant byte', compact(7, 5, 4, 0x81, 0x00)],
    ['compact text that could be shorter', compact(1, 0, 7, ...Buffer.from('mainnet'))],
    ['compact text that is not UTF-8', compact(15, 0, 2, 0xc3, 0x28)],
    ['compact length past the end', compact(15, 0, 0x7f, 0x61)],
    ['compact varint without end', compact(15, 4, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff)],
    ['legacy too many parts', encodeLegacyGlobalId('Network', ['mainnet', 'extra'])],
    ['object instead of list', forge('{"typename":"Network"}')],
    ['nested list', forge('["Network",["mainnet"]]')],
    ['not JSON', forge('Network:mainnet')],
    ['not canonical JSON', forge('[ "Network", "mainnet" ]')],
    ['standard base64 alphabet', Buffer.from('["Network","mainnet"]>>>?').toString('base64')],
    ['padding', `${encodeGlobalId('Network', ['mainnet'])}==`],
    ['too long', `A${'a'.repeat(MAX_GLOBAL_ID_LENGTH)}`],
    ['compact utf-16 text that is well-formed', compact(15, 8, 1, 0x61, 0x00)],
    ['compact digest cut short', compact(15, 9, ...new Array<number>(31).fill(7))],
    ['empty', ''],
    ['unicode', 'ñandú'],
  ];

  it.each(BAD_IDS)('node(id:) refuses %s before any upstream call', async (_name, id) => {
    stack.devnet.resetStats();
    const result = await stack.query('query($id: ID!) { node(id: $id) { id } }', { id });
    expect(codeOf(result)).toBe('BAD_USER_INPUT');
    expect(argumentOf(result)).toBe('id');
    expect(stack.upstreamRequests()).toBe(0);
  });

  it.each(UNUSABLE_IDS)('node(id:) answers null for %s, without an error or an upstream call', async (_name, id) => {
    stack.devnet.resetStats();
    const result = await stack.query<Data>('query($id: ID!) { node(id: $id) { id } nodes(ids: [$id]) { id } }', { id });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ node: null, nodes: [null] });
    const entities = await stack.query<Data>('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename: decodeGlobalId(id).typename, id }] });
    expect(entities.errors).toBeUndefined();
    expect(entities.data).toEqual({ _entities: [null] });
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('nodes(ids:) and _entities(representations:) name their own argument; the id count is bounded', async () => {
    stack.devnet.resetStats();
    const good = encodeGlobalId('Network', ['mainnet']);
    for (const [, id] of BAD_IDS) {
      const nodes = await stack.query('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [good, id] });
      expect(argumentOf(nodes)).toBe('ids');
      const entities = await stack.query('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename: 'Network', id }] });
      expect(codeOf(entities)).toBe('BAD_USER_INPUT');
      expect(argumentOf(entities)).toBe('representations');
    }
    const tooMany = await stack.query('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: Array.from({ length: MAX_BATCH_KEYS + 1 }, () => good) });
    expect(argumentOf(tooMany)).toBe('ids');
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('_entities checks the id family against __typename, and natural chain keys', async () => {
    stack.devnet.resetStats();
    const table: unknown[][] = [
      [{ __typename: 'Subnet', id: encodeGlobalId('Network', ['mainnet']) }],
      [{ __typename: 'Network' }],
      [{ __typename: 'NoSuchType', id: encodeGlobalId('Network', ['mainnet']) }],
      [{ __typename: 'Chain', chainId: '../../v1/operations' }],
      [{ __typename: 'Chain', chainId: '' }],
      ['not an object'],
      Array.from({ length: MAX_BATCH_KEYS + 1 }, () => ({ __typename: 'Network', id: encodeGlobalId('Network', ['mainnet']) })),
    ];
    for (const r of table) {
      const result = await stack.query('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r });
      expect(codeOf(result), JSON.stringify(r).slice(0, 80)).toBe('BAD_USER_INPUT');
      expect(argumentOf(result)).toBe('representations');
    }
    expect(stack.upstreamRequests()).toBe(0);
    // The interface name and a status type both take a validator id.
    const validators = await stack.query<Data>('{ network(name: MAINNET) { validators(first: 1) { edges { node { __typename id } } } } }');
    const v = validators.data?.['network'].validators.edges[0].node;
    for (const __typename of ['Validator', v.__typename]) {
      const ok = await stack.query<Data>('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [{ __typename, id: v.id }] });
      expect(ok.errors).toBeUndefined();
    }
  });

  it('parses every id the gateway issues (round trip through the grammar)', async () => {
    const result = await stack.query<Data>(`{
      network(name: MAINNET) { id
        validators(first: 3) { edges { node { id delegators(first: 2) { edges { node { id } } } } } }
        subnets(first: 2) { edges { node { id blockchains { id } } } }
        blockchain(id: "p-chain") { id blocks(first: 2) { edges { node { id } } } }
        xchain: blockchain(id: "x-chain") { vertices(first: 2) { edges { node { id } } } }
      }
      chain(chainId: "43114") { id }
      avalancheNodes { id }
    }`);
    expect(result.errors).toBeUndefined();
    const ids = JSON.stringify(result.data).match(/"id":"([A-Za-z0-9_-]+)"/g)?.map((m) => m.slice(6, -1)) ?? [];
    expect(ids.length).toBeGreaterThan(15);
    for (const id of ids) expect(() => decodeGlobalId(id)).not.toThrow();
  });
});

// ---------------------------------------------------------------- cursors

describe('cursors are signed', () => {
  const SECRET_A = 'a'.repeat(40);
  const SECRET_B = 'b'.repeat(40);
  let stack: TestStack;
  let other: Gateway;
  let rotated: Gateway;
  const VALIDATORS = 'query($after: String) { network(name: MAINNET) { validators(first: 2, after: $after) { pageInfo { endCursor } edges { node { nodeId } } } } }';
  const NESTED = 'query($after: String) { network(name: MAINNET) { validators(first: 2) { edges { node { delegators(first: 1, after: $after) { edges { cursor } } } } } } }';

  beforeAll(async () => {
    stack = await startStack({ devnet: { validators: 50 }, gateway: { cursorSecrets: [SECRET_A] } });
    const dataApi = createDataApiClient({ baseUrl: stack.devnet.url });
    other = createGateway({ graphiql: false, cursorSecrets: [SECRET_B] }, { dataApi, nodes: [] });
    rotated = createGateway({ graphiql: false, cursorSecrets: [SECRET_B, SECRET_A] }, { dataApi, nodes: [] });
  });
  afterAll(async () => {
    await Promise.all([other.dispose(), rotated.dispose()]);
    await stack.close();
  });

  const on = async (gateway: Gateway, query: string, variables: Record<string, unknown>) => {
    const response = await gateway.fetch('http://chaingraph.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLResponse<Data>;
  };
  const endCursor = (result: GraphQLResponse<Data>): string => result.data?.['network'].validators.pageInfo.endCursor;

  it('pages with its own cursors; refuses forged, tampered, foreign and oversized ones before any upstream call', async () => {
    const first = await stack.query<Data>(VALIDATORS, {});
    const cursor = endCursor(first);
    // Compact: the last edge of a page stands at the next page's start, so it holds the devnet's token (about 60 characters).
    expect(cursor.length).toBeLessThan(180);
    const second = await stack.query<Data>(VALIDATORS, { after: cursor });
    expect(second.errors).toBeUndefined();

    const [payload, mac] = cursor.split('.') as [string, string];
    const text = Buffer.from(payload, 'base64url').toString();
    const foreign = createCursorCodec([SECRET_B]).encode({ s: 2, i: 1, h: text.split('.')[2] as string });
    const table: [string, string][] = [
      ['the old unsigned format with an injected token', forge(JSON.stringify({ t: 'forged&pageSize=1000', s: 2, i: 0, h: text.split('.')[2] }))],
      ['a payload edited under the same MAC', `${Buffer.from(text.replace(/^2\./, '3.')).toString('base64url')}.${mac}`],
      ['a token appended under the same MAC', `${Buffer.from(`${text}abc`).toString('base64url')}.${mac}`],
      ['a MAC with one character changed', `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`],
      ['the same MAC spelled with other spare bits', `${payload}.${respell(mac)}`],
      ['no MAC', payload],
      ['a cursor of another deployment', foreign],
      ['100 KB', 'A'.repeat(100_000)],
      ['dot segments', '../..'],
      ['percent-encoded dot segments', '%2e%2e'],
      ['unicode', 'ｃｕｒｓｏｒ.ｍａｃ'],
    ];
    for (const [name, after] of table) {
      stack.devnet.resetStats();
      for (const query of [VALIDATORS, NESTED]) {
        const result = await stack.query(query, { after });
        expect(codeOf(result), name).toBe('BAD_USER_INPUT');
        expect(argumentOf(result), name).toBe('after');
      }
      expect(stack.upstreamRequests(), name).toBe(0);
    }
  });

  it('binds a cursor to its connection and arguments', async () => {
    const cursor = endCursor(await stack.query<Data>(VALIDATORS, {}));
    stack.devnet.resetStats();
    const otherArgs = await stack.query('query($after: String) { network(name: MAINNET) { validators(first: 2, after: $after, filter: { validationStatus: ACTIVE }) { edges { cursor } } } }', { after: cursor });
    expect(argumentOf(otherArgs)).toBe('after');
    const otherConnection = await stack.query('query($after: String) { network(name: MAINNET) { delegators(first: 2, after: $after) { edges { cursor } } } }', { after: cursor });
    expect(argumentOf(otherConnection)).toBe('after');
  });

  it('rotates: cursors signed with a retired secret still verify while it is listed; new ones use the first secret', async () => {
    const cursor = endCursor(await stack.query<Data>(VALIDATORS, {}));
    expect(argumentOf(await on(other, VALIDATORS, { after: cursor }))).toBe('after');
    const accepted = await on(rotated, VALIDATORS, { after: cursor });
    expect(accepted.errors).toBeUndefined();
    const minted = endCursor(accepted);
    // Signed with SECRET_B now: the gateway that only knows SECRET_A refuses it.
    expect(argumentOf(await stack.query(VALIDATORS, { after: minted }))).toBe('after');
    expect((await on(other, VALIDATORS, { after: minted })).errors).toBeUndefined();
  });

  it('reads CURSOR_SECRET as a comma-separated list and refuses short secrets', () => {
    expect(parseCursorSecrets(undefined)).toBeUndefined();
    expect(parseCursorSecrets(' , ')).toBeUndefined();
    expect(parseCursorSecrets(`${SECRET_A}, ${SECRET_B}`)).toEqual([SECRET_A, SECRET_B]);
    expect(() => parseCursorSecrets('short')).toThrow(/CURSOR_SECRET entry 1 is shorter than 32/);
  });
});

// ---------------------------------------------------------------- admin reads

describe('admin reads are gated like admin mutations', () => {
  const TOKEN = 'admin-secret';
  let open: TestStack;
  let guarded: TestStack;
  beforeAll(async () => {
    [open, guarded] = await Promise.all([startStack({ devnet: { validators: 50 } }), startStack({ devnet: { validators: 50 }, gateway: { adminToken: TOKEN } })]);
  });
  afterAll(async () => {
    await Promise.all([open.close(), guarded.close()]);
  });

  const READS = [
    '{ avalancheNode { loggerLevels { name } } }',
    '{ avalancheNode { loggerLevels(loggerName: "main") { name } } }',
    '{ avalancheNode { chainAliases(chain: "11111111111111111111111111111111LpoYY") } }',
    '{ avalancheNodes { name loggerLevels { name } } }',
  ];
  const table: [string, () => TestStack, Record<string, string> | undefined, string | undefined][] = [
    ['no ADMIN_TOKEN, no bearer', () => open, undefined, 'ADMIN_DISABLED'],
    ['no ADMIN_TOKEN, a bearer', () => open, { authorization: `Bearer ${TOKEN}` }, 'ADMIN_DISABLED'],
    ['ADMIN_TOKEN, no bearer', () => guarded, undefined, 'FORBIDDEN'],
    ['ADMIN_TOKEN, a wrong bearer', () => guarded, { authorization: 'Bearer wrong' }, 'FORBIDDEN'],
    ['ADMIN_TOKEN, another scheme', () => guarded, { authorization: `Basic ${TOKEN}` }, 'FORBIDDEN'],
    ['ADMIN_TOKEN, the bearer', () => guarded, { authorization: `Bearer ${TOKEN}` }, undefined],
  ];

  it.each(table)('%s', async (_name, stackOf, headers, expected) => {
    const stack = stackOf();
    for (const query of READS) {
      stack.devnet.resetStats();
      const result = await stack.query(query, {}, headers);
      if (expected) {
        expect(codeOf(result), query).toBe(expected);
        expect(stack.upstreamRequests(), query).toBe(0);
      } else {
        expect(result.errors, query).toBeUndefined();
        expect(stack.devnet.stats().byRoute).toSatisfy((routes: Record<string, number>) => Object.keys(routes).some((r) => r.includes('admin.')));
      }
    }
  });

  it('leaves the public node reads (info, health) open', async () => {
    const result = await open.query<Data>('{ avalancheNode { name version { version } health { healthy } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data?.['avalancheNode'].name).toBe('mainnet');
  });
});
