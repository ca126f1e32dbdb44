import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { MAX_ADDRESSES_PER_WEBHOOK } from '../../src/devnet/webhooks/store.ts';
import { verifyWebhookSignature } from '../../src/lib/webhook-signature.ts';
import { describeWebhookEvents, STRICT } from '../../src/shapes/index.ts';
import { mismatches, STRICT_SHAPES as S } from '../shapes/strict.ts';

/**
 * The devnet's webhooks over real HTTP: the ten operations per caller key (answers valid under the
 * public spec's schemas, another key's webhooks invisible, the spec's refusals), and the signed
 * `address_activity` deliveries to a receiver in this test, driven by `devnet.webhooks.tick()` under a
 * pinned clock that the tests move on.
 */

// ---------------------------------------------------------------------------- the spec's schemas

const SHARED_SPEC = fileURLToPath(new URL('../../../shared/reference/glacier-openapi.json', import.meta.url));
const SPEC_FILE = existsSync(SHARED_SPEC) ? SHARED_SPEC : fileURLToPath(new URL('../data/glacier-openapi.json', import.meta.url));
interface JsonSchema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
const components = (JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as { components: { schemas: Record<string, JsonSchema> } }).components.schemas;

/**
 * Every way `value` breaks the spec schema `name`, strictly: required properties present, types and
 * enums as declared, exactly one `oneOf` branch, and no property the schema does not declare.
 */
function specProblems(value: unknown, name: string): string[] {
  const problems: string[] = [];
  const walk = (v: unknown, s: JsonSchema, path: string): void => {
    if (s.$ref) return walk(v, components[s.$ref.replace('#/components/schemas/', '')] ?? {}, path);
    for (const part of s.allOf ?? []) walk(v, part, path);
    if (s.oneOf) {
      const matching = s.oneOf.filter((branch) => {
        const before = problems.length;
        walk(v, branch, path);
        const ok = problems.length === before;
        problems.length = before;
        return ok;
      });
      if (matching.length !== 1) problems.push(`${path}: matches ${matching.length} oneOf branches`);
    }
    if (s.enum && !s.enum.includes(v)) problems.push(`${path}: ${JSON.stringify(v)} not in enum`);
    const type = s.type ?? (s.properties ? 'object' : undefined);
    if (type === 'string' && typeof v !== 'string') problems.push(`${path}: expected string`);
    if (type === 'number' && typeof v !== 'number') problems.push(`${path}: expected number`);
    if (type === 'integer' && !Number.isInteger(v)) problems.push(`${path}: expected integer`);
    if (type === 'boolean' && typeof v !== 'boolean') problems.push(`${path}: expected boolean`);
    if (type === 'array') {
      if (!Array.isArray(v)) problems.push(`${path}: expected array`);
      else if (s.items) v.forEach((item, i) => walk(item, s.items as JsonSchema, `${path}[${i}]`));
    }
    if (type === 'object') {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return void problems.push(`${path}: expected object`);
      const o = v as Record<string, unknown>;
      for (const r of s.required ?? []) if (!(r in o)) problems.push(`${path}.${r}: missing`);
      const declared = new Set<string>();
      const collect = (x: JsonSchema): void => {
        if (x.$ref) return collect(components[x.$ref.replace('#/components/schemas/', '')] ?? {});
        for (const k of Object.keys(x.properties ?? {})) declared.add(k);
        for (const p of x.allOf ?? []) collect(p);
      };
      collect(s);
      for (const [k, child] of Object.entries(s.properties ?? {})) if (o[k] !== undefined) walk(o[k], child, `${path}.${k}`);
      if (!s.oneOf) for (const k of Object.keys(o)) if (!declared.has(k)) problems.push(`${path}.${k}: not in the schema`);
    }
  };
  walk(value, { $ref: name }, '$');
  return problems;
}

// ---------------------------------------------------------------------------- the devnet and a receiver

const START = 1_790_000_000_000;
let clock = START;
let devnet: Devnet;
let fx: NetworkFixtures;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  raw: string;
}
let received: Received[] = [];
let receiver: Server;
let receiverUrl: string;
/** Attempts per messageId seen on `/flaky`: the first two of each are answered 500. */
const flakyAttempts = new Map<string, number>();

const KEY_A = 'key-a';
const KEY_B = 'key-b';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function api(method: string, path: string, key: string | undefined, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['x-service-api-key'] = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${devnet.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function ok(method: string, path: string, key: string, body?: unknown, status = 200): Promise<Record<string, unknown>> {
  const res = await api(method, path, key, body);
  expect(res.status, `${method} ${path} -> ${JSON.stringify(res.body).slice(0, 300)}`).toBe(status);
  return res.body;
}

const evmBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  eventType: 'address_activity', url: `${receiverUrl}/ok`, chainId: fx.evmChainId, metadata: { addresses: [fx.address] }, ...over,
});

/** Moves the devnet's clock on by `seconds` (the C-chain makes a block every 2 s). */
const advance = (seconds: number): void => {
  clock += seconds * 1000;
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      received.push({ path: req.url ?? '', headers: req.headers, body, raw });
      if (req.url === '/flaky') {
        const id = String(body['messageId']);
        const n = (flakyAttempts.get(id) ?? 0) + 1;
        flakyAttempts.set(id, n);
        res.statusCode = n <= 2 ? 500 : 200;
      } else res.statusCode = req.url === '/down' ? 503 : 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  devnet = await startDevnet({ validators: 40, now: () => clock, webhookIntervalMs: 0 });
  fx = devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await devnet?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  received = [];
});

// ---------------------------------------------------------------------------- the operations

describe('webhook operations, per caller key', () => {
  it('createWebhook answers 201 with the spec object; getWebhook and listWebhooks see it for its key only', async () => {
    const created = await ok('POST', '/v1/webhooks', KEY_A, evmBody({ metadata: { addresses: [fx.address, fx.address.toUpperCase().replace('0X', '0x')] } }), 201);
    expect(specProblems(created, 'EVMAddressActivityResponse')).toEqual([]);
    expect(mismatches(created, S.Webhook)).toEqual([]);
    expect(created).toMatchObject({
      url: `${receiverUrl}/ok`, chainId: fx.evmChainId, status: 'active', createdAt: Math.floor(clock / 1000), name: '', description: '',
      eventType: 'address_activity', includeLogs: false, includeInternalTxs: false,
    });
    expect(created['id']).toMatch(UUID);
    // The same address in two cases is watched once.
    expect((created['metadata'] as { addresses: string[] }).addresses).toEqual([fx.address]);
    const id = String(created['id']);

    expect(await ok('GET', `/v1/webhooks/${id}`, KEY_A)).toEqual(created);
    const listA = await ok('GET', '/v1/webhooks', KEY_A);
    expect(specProblems(listA, 'ListWebhooksResponse')).toEqual([]);
    expect(mismatches(listA, S.ListWebhooksResponse)).toEqual([]);
    expect((listA['webhooks'] as { id: string }[]).map((w) => w.id)).toContain(id);

    expect((await api('GET', `/v1/webhooks/${id}`, KEY_B)).status).toBe(404);
    expect(await ok('GET', '/v1/webhooks', KEY_B)).toEqual({ webhooks: [] });
    expect((await api('PATCH', `/v1/webhooks/${id}`, KEY_B, { name: 'x' })).status).toBe(404);
    expect((await api('DELETE', `/v1/webhooks/${id}`, KEY_B)).status).toBe(404);
    expect((await api('GET', `/v1/webhooks/${id}/addresses`, KEY_B)).status).toBe(404);
    expect((await api('PATCH', `/v1/webhooks/${id}/addresses`, KEY_B, { addresses: [fx.address] })).status).toBe(404);
    expect((await api('DELETE', `/v1/webhooks/${id}/addresses`, KEY_B, { addresses: [fx.address] })).status).toBe(404);
    expect((await api('GET', `/v1/webhooks/${crypto.randomUUID()}`, KEY_A)).status).toBe(404);
  });

  it('answers 401 without a key', async () => {
    for (const [method, path] of [['GET', '/v1/webhooks'], ['POST', '/v1/webhooks'], ['GET', '/v1/webhooks:getSharedSecret'], ['POST', '/v1/webhooks:generateOrRotateSharedSecret'], ['GET', `/v1/webhooks/${crypto.randomUUID()}`]] as const) {
      const res = await api(method, path, undefined, method === 'POST' ? evmBody() : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    }
  });

  it('updateWebhook changes name, description, url, status and the payload options; deactivateWebhook makes it inactive', async () => {
    const { id } = (await ok('POST', '/v1/webhooks', KEY_A, evmBody(), 201)) as { id: string };
    const updated = await ok('PATCH', `/v1/webhooks/${id}`, KEY_A, { name: 'n', description: 'd', url: `${receiverUrl}/other`, includeLogs: true, includeInternalTxs: true });
    expect(specProblems(updated, 'EVMAddressActivityResponse')).toEqual([]);
    expect(updated).toMatchObject({ name: 'n', description: 'd', url: `${receiverUrl}/other`, includeLogs: true, includeInternalTxs: true, status: 'active' });
    const inactive = await ok('DELETE', `/v1/webhooks/${id}`, KEY_A);
    expect(inactive['status']).toBe('inactive');
    const listed = (await ok('GET', '/v1/webhooks?status=inactive&pageSize=100', KEY_A))['webhooks'] as { id: string; status: string }[];
    expect(listed.map((w) => w.id)).toContain(id);
    expect(listed.every((w) => w.status === 'inactive')).toBe(true);
    const active = (await ok('GET', '/v1/webhooks?status=active&pageSize=100', KEY_A))['webhooks'] as { id: string }[];
    expect(active.map((w) => w.id)).not.toContain(id);
    expect((await ok('PATCH', `/v1/webhooks/${id}`, KEY_A, { status: 'active' }))['status']).toBe('active');
  });

  it('adds, removes and pages the watched addresses (case-insensitive, each once)', async () => {
    const a1 = `0x${'a1'.repeat(20)}`;
    const a2 = `0x${'B2'.repeat(20)}`;
    const a3 = `0x${'c3'.repeat(20)}`;
    const { id } = (await ok('POST', '/v1/webhooks', KEY_A, evmBody({ metadata: { addresses: [a1] } }), 201)) as { id: string };
    const added = await ok('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: [a2, a1.toUpperCase().replace('0X', '0x'), a3, a3] });
    expect(specProblems(added, 'EVMAddressActivityResponse')).toEqual([]);
    expect((added['metadata'] as { addresses: string[] }).addresses).toEqual([a1, a2, a3]);

    const first = await ok('GET', `/v1/webhooks/${id}/addresses?pageSize=2`, KEY_A);
    expect(specProblems(first, 'ListWebhookAddressesResponse')).toEqual([]);
    expect(mismatches(first, S.ListWebhookAddressesResponse)).toEqual([]);
    expect(first).toMatchObject({ addresses: [a1, a2], totalAddresses: 3 });
    const second = await ok('GET', `/v1/webhooks/${id}/addresses?pageSize=2&pageToken=${encodeURIComponent(String(first['nextPageToken']))}`, KEY_A);
    expect(second).toEqual({ addresses: [a3], totalAddresses: 3 });

    const removed = await ok('DELETE', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: [a2.toLowerCase(), `0x${'ee'.repeat(20)}`] });
    expect((removed['metadata'] as { addresses: string[] }).addresses).toEqual([a1, a3]);
    expect(await ok('GET', `/v1/webhooks/${id}/addresses`, KEY_A)).toEqual({ addresses: [a1, a3], totalAddresses: 2 });
  });

  it('stores primary-network and validator webhooks and lists their keys as addresses', async () => {
    const primary = await ok('POST', '/v1/webhooks', KEY_A, {
      eventType: 'primary_network_address_activity', url: `${receiverUrl}/ok`, network: 'mainnet', chainId: devnet.dataset.primary.mainnet.chainIds.p,
      metadata: { keyType: 'addresses', keys: [fx.pChainAddress], subEvents: { addressActivitySubEvents: ['balance_change'] } },
    }, 201);
    expect(specProblems(primary, 'PrimaryNetworkAddressActivityResponse')).toEqual([]);
    expect(mismatches(primary, S.Webhook)).toEqual([]);
    expect(await ok('GET', `/v1/webhooks/${String(primary['id'])}/addresses`, KEY_A)).toEqual({ addresses: [fx.pChainAddress], totalAddresses: 1 });

    const validator = await ok('POST', '/v1/webhooks', KEY_A, {
      eventType: 'validator_activity', url: `${receiverUrl}/ok`, network: 'mainnet', name: 'v',
      metadata: { keyType: 'nodeId', keys: [fx.nodeId], subEvents: { validatorActivitySubEvents: ['validator_stake'] } },
    }, 201);
    expect(specProblems(validator, 'ValidatorActivityResponse')).toEqual([]);
    expect(mismatches(validator, S.Webhook)).toEqual([]);
    expect(validator).toMatchObject({ name: 'v', chainId: devnet.dataset.primary.mainnet.chainIds.p, eventType: 'validator_activity' });
    expect(await ok('GET', `/v1/webhooks/${String(validator['id'])}/addresses`, KEY_A)).toEqual({ addresses: [fx.nodeId], totalAddresses: 1 });
    // Their addresses are not changed through the EVM operations.
    expect((await api('PATCH', `/v1/webhooks/${String(validator['id'])}/addresses`, KEY_A, { addresses: [fx.address] })).status).toBe(400);
  });

  it('makes a shared secret per key on first read and rotates it with 201', async () => {
    const a = await ok('GET', '/v1/webhooks:getSharedSecret', KEY_A);
    expect(specProblems(a, 'SharedSecretsResponse')).toEqual([]);
    expect(mismatches(a, S.WebhookSharedSecret)).toEqual([]);
    expect(a['secret']).toMatch(/^[0-9a-f]{64}$/);
    expect(await ok('GET', '/v1/webhooks:getSharedSecret', KEY_A)).toEqual(a);
    const b = await ok('GET', '/v1/webhooks:getSharedSecret', KEY_B);
    expect(b['secret']).not.toBe(a['secret']);
    const rotated = await ok('POST', '/v1/webhooks:generateOrRotateSharedSecret', KEY_A, undefined, 201);
    expect(rotated['secret']).toMatch(/^[0-9a-f]{64}$/);
    expect(rotated['secret']).not.toBe(a['secret']);
    expect(await ok('GET', '/v1/webhooks:getSharedSecret', KEY_A)).toEqual(rotated);
  });

  const refusals: [string, () => [string, string, unknown]][] = [
    ['missing eventType', () => ['POST', '/v1/webhooks', { ...evmBody(), eventType: undefined }]],
    ['unknown eventType', () => ['POST', '/v1/webhooks', evmBody({ eventType: 'block_activity' })]],
    ['missing url', () => ['POST', '/v1/webhooks', { ...evmBody(), url: undefined }]],
    ['url not http(s)', () => ['POST', '/v1/webhooks', evmBody({ url: 'ftp://example.com/hook' })]],
    ['url not a URL', () => ['POST', '/v1/webhooks', evmBody({ url: 'not a url' })]],
    ['missing metadata', () => ['POST', '/v1/webhooks', { ...evmBody(), metadata: undefined }]],
    ['chainId not an EVM chain of the devnet', () => ['POST', '/v1/webhooks', evmBody({ chainId: '999999999' })]],
    ['missing chainId', () => ['POST', '/v1/webhooks', { ...evmBody(), chainId: undefined }]],
    ['EVM address not 0x+40 hex', () => ['POST', '/v1/webhooks', evmBody({ metadata: { addresses: ['0x1234'] } })]],
    ['body not JSON', () => ['POST', '/v1/webhooks', '{']],
    ['primary keys not P-/X- addresses', () => ['POST', '/v1/webhooks', {
      eventType: 'primary_network_address_activity', url: `${receiverUrl}/ok`, network: 'mainnet', chainId: devnet.dataset.primary.mainnet.chainIds.p,
      metadata: { keyType: 'addresses', keys: [fx.address], subEvents: { addressActivitySubEvents: ['balance_change'] } },
    }]],
    ['validator keys with two keys', () => ['POST', '/v1/webhooks', {
      eventType: 'validator_activity', url: `${receiverUrl}/ok`, network: 'mainnet',
      metadata: { keyType: 'nodeId', keys: [fx.nodeId, fx.nodeId], subEvents: { validatorActivitySubEvents: ['validator_stake'] } },
    }]],
    ['listWebhooks pageSize 0', () => ['GET', '/v1/webhooks?pageSize=0', undefined]],
    ['listWebhooks pageSize 101', () => ['GET', '/v1/webhooks?pageSize=101', undefined]],
    ['listWebhooks unknown status', () => ['GET', '/v1/webhooks?status=paused', undefined]],
    ['listWebhooks foreign pageToken', () => ['GET', '/v1/webhooks?pageToken=abc', undefined]],
  ];
  it.each(refusals)('answers 400 for %s', async (_name, request) => {
    const [method, path, body] = request();
    const res = await api(method, path, KEY_A, body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(mismatches(res.body, S.ErrorBody)).toEqual([]);
  });

  it('answers 400 for an update or address change the spec refuses, and past the address limit', async () => {
    const { id } = (await ok('POST', '/v1/webhooks', KEY_A, evmBody({ metadata: { addresses: [] } }), 201)) as { id: string };
    expect((await api('PATCH', `/v1/webhooks/${id}`, KEY_A, { status: 'paused' })).status).toBe(400);
    expect((await api('PATCH', `/v1/webhooks/${id}`, KEY_A, { url: 'mailto:a@b.c' })).status).toBe(400);
    expect((await api('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: ['nope'] })).status).toBe(400);
    expect((await api('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, {})).status).toBe(400);
    expect((await api('GET', `/v1/webhooks/${id}/addresses?pageSize=101`, KEY_A)).status).toBe(400);
    const batch = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => `0x${(from + i).toString(16).padStart(40, '0')}`);
    const half = MAX_ADDRESSES_PER_WEBHOOK / 2;
    await ok('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: batch(1, half) });
    await ok('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: batch(1 + half, half) });
    // Already watched: not counted again.
    await ok('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: batch(1, 10) });
    const over = await api('PATCH', `/v1/webhooks/${id}/addresses`, KEY_A, { addresses: batch(1 + 2 * half, 1) });
    expect(over.status).toBe(400);
    expect((await ok('GET', `/v1/webhooks/${id}/addresses?pageSize=1`, KEY_A))['totalAddresses']).toBe(MAX_ADDRESSES_PER_WEBHOOK);
    await ok('DELETE', `/v1/webhooks/${id}`, KEY_A);
  });
});

// ---------------------------------------------------------------------------- deliveries

describe('address_activity deliveries', () => {
  /** The ERC-20 contract the fixtures name: the C-chain's fillers transfer it every few blocks. */
  const token = (): string => fx.contractAddress;

  /** Hashes of the transactions of blocks (from, to] that call or transfer the token. */
  function tokenTransactions(from: number, to: number): Set<string> {
    const out = new Set<string>();
    const blocks = devnet.dataset.evm.mainnet.blocks;
    for (let n = from + 1; n <= to; n++) {
      const content = blocks.content(fx.evmChainId, n);
      for (const tx of content?.transactions ?? []) if (tx.to.address.toLowerCase() === token().toLowerCase()) out.add(tx.txHash);
      for (const t of content?.transfers ?? []) if ((t.erc20Token?.address ?? '').toLowerCase() === token().toLowerCase()) out.add(t.txHash);
    }
    return out;
  }

  const latest = (): number => devnet.dataset.evm.mainnet.latestBlock(fx.evmChainId) ?? 0;

  it('delivers one signed payload per transaction touching a watched address, none for unwatched ones, and none to another key', async () => {
    const hook = await ok('POST', '/v1/webhooks', KEY_A, evmBody({ url: `${receiverUrl}/watch`, metadata: { addresses: [token().toUpperCase().replace('0X', '0x')] } }), 201);
    await ok('POST', '/v1/webhooks', KEY_B, evmBody({ url: `${receiverUrl}/unwatched`, metadata: { addresses: [`0x${'de'.repeat(20)}`] } }), 201);
    const from = latest();
    advance(128);
    devnet.resetStats();
    await devnet.webhooks.tick();
    const expected = tokenTransactions(from, latest());
    expect(expected.size).toBeGreaterThan(0);

    // Not Data API requests: the request log does not see them.
    expect(devnet.requestLog()).toEqual([]);
    expect(received.filter((r) => r.path === '/unwatched')).toEqual([]);
    const got = received.filter((r) => r.path === '/watch');
    expect(new Set(got.map((r) => (r.body['event'] as { transaction: { txHash: string } }).transaction.txHash))).toEqual(expected);
    expect(got).toHaveLength(expected.size);
    const { secret } = (await ok('GET', '/v1/webhooks:getSharedSecret', KEY_A)) as { secret: string };
    for (const r of got) {
      expect(r.headers['content-type']).toBe('application/json');
      expect(verifyWebhookSignature(secret, r.body, r.headers['x-signature'] as string)).toBe(true);
      expect(r.body).toMatchObject({ webhookId: hook['id'], eventType: 'address_activity' });
      expect(r.body['messageId']).toMatch(UUID);
      expect(specProblems(r.body, 'WebhookAddressActivityResponse')).toEqual([]);
      expect((r.body['event'] as Record<string, unknown>)['logs']).toBeUndefined();
    }
    const counters = (await (await fetch(`${devnet.url}/__devnet/webhooks`)).json()) as { webhooks: { id: string; delivered: number; pending: number }[] };
    expect(counters.webhooks.find((w) => w.id === hook['id'])).toMatchObject({ delivered: expected.size, pending: 0 });
    expect(JSON.stringify(counters)).not.toContain(secret);

    // Deactivated: nothing more.
    await ok('DELETE', `/v1/webhooks/${String(hook['id'])}`, KEY_A);
    received = [];
    advance(128);
    await devnet.webhooks.tick();
    expect(received.filter((r) => r.path === '/watch')).toEqual([]);

    // Active again, but without the address: nothing either.
    await ok('PATCH', `/v1/webhooks/${String(hook['id'])}`, KEY_A, { status: 'active' });
    await ok('DELETE', `/v1/webhooks/${String(hook['id'])}/addresses`, KEY_A, { addresses: [token()] });
    advance(128);
    await devnet.webhooks.tick();
    expect(received.filter((r) => r.path === '/watch')).toEqual([]);
    await ok('DELETE', `/v1/webhooks/${String(hook['id'])}`, KEY_A);
  });

  it('the spec checker of this file refuses what the spec refuses', () => {
    expect(specProblems({ secret: 1 }, 'SharedSecretsResponse')).toEqual(['$.secret: expected string']);
    expect(specProblems({ secret: 'x', extra: true }, 'SharedSecretsResponse')).toEqual(['$.extra: not in the schema']);
    expect(specProblems({ webhooks: [{ id: 'x' }] }, 'ListWebhooksResponse')).toEqual(['$.webhooks[0]: matches 0 oneOf branches']);
  });

  it('sends the Transfer logs only with includeLogs, and every delivered transaction is the spec Transaction', async () => {
    // An ERC-20, an ERC-721 and an ERC-1155 contract: every kind of transfer is mapped and logged.
    const contracts = [token(), fx.nftContract, fx.erc1155Contract];
    const withLogs = await ok('POST', '/v1/webhooks', KEY_A, evmBody({ url: `${receiverUrl}/logs`, includeLogs: true, includeInternalTxs: true, metadata: { addresses: contracts } }), 201);
    const without = await ok('POST', '/v1/webhooks', KEY_A, evmBody({ url: `${receiverUrl}/nologs`, metadata: { addresses: contracts } }), 201);
    // Several rounds, so the table covers many transactions (a failed call has no transfer and no log).
    for (let i = 0; i < 4; i++) {
      advance(128);
      await devnet.webhooks.tick();
    }
    const logged = received.filter((r) => r.path === '/logs');
    const plain = received.filter((r) => r.path === '/nologs');
    expect(logged.length).toBeGreaterThan(0);
    // Up to four deliveries of a webhook are under way at once: they may arrive in any order.
    const hashes = (list: Received[]): string[] => list.map((r) => (r.body['event'] as { transaction: { txHash: string } }).transaction.txHash).sort();
    expect(hashes(logged)).toEqual(hashes(plain));
    for (const r of [...logged, ...plain]) {
      const event = r.body['event'] as { transaction: Record<string, unknown>; logs?: Record<string, unknown>[] };
      expect(specProblems(event.transaction, 'Transaction'), String(event.transaction['txHash'])).toEqual([]);
      const full = devnet.dataset.evm.mainnet.transaction(fx.evmChainId, String(event.transaction['txHash']), 'usd');
      expect(event.transaction).toMatchObject({ from: full?.nativeTransaction.from.address, value: full?.nativeTransaction.value, chainId: fx.evmChainId });
    }
    for (const r of plain) expect((r.body['event'] as Record<string, unknown>)['logs']).toBeUndefined();
    const strictEvent = describeWebhookEvents(STRICT).AddressActivityEvent;
    const kinds = new Set<string>();
    for (const r of logged) {
      type Transfers = { erc20Transfers: unknown[]; erc721Transfers: unknown[]; erc1155Transfers: unknown[]; internalTransactions?: unknown[] };
      const event = r.body['event'] as { transaction: Transfers; logs: { topic0: string; address: string }[] };
      expect(specProblems(r.body['event'], 'TransactionEvent')).toEqual([]);
      expect(mismatches(r.body['event'], strictEvent)).toEqual([]);
      const { erc20Transfers, erc721Transfers, erc1155Transfers } = event.transaction;
      expect(event.logs).toHaveLength(erc20Transfers.length + erc721Transfers.length + erc1155Transfers.length);
      expect(event.transaction.internalTransactions).toBeDefined();
      for (const log of event.logs) {
        expect(['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62']).toContain(log.topic0);
        expect(contracts).toContain(log.address);
        kinds.add(`${log.address}:${log.topic0}`);
      }
    }
    // Transfers of each of the three contracts were delivered with their logs.
    expect(kinds.size).toBe(3);
    await ok('DELETE', `/v1/webhooks/${String(withLogs['id'])}`, KEY_A);
    await ok('DELETE', `/v1/webhooks/${String(without['id'])}`, KEY_A);
  });

  it('retries a failed delivery with the same messageId and body until it is answered 2xx', async () => {
    const hook = await ok('POST', '/v1/webhooks', KEY_A, evmBody({ url: `${receiverUrl}/flaky`, metadata: { addresses: [token()] } }), 201);
    const from = latest();
    advance(64);
    await devnet.webhooks.tick();
    const expected = tokenTransactions(from, latest()).size;
    expect(expected).toBeGreaterThan(0);
    // When tick resolves every delivery had its first attempt. A delivery keeps its slot (of four)
    // while it waits to be retried, so later ones may have started only once earlier ones got through.
    const firstRound = received.filter((r) => r.path === '/flaky');
    expect(new Set(firstRound.map((r) => r.body['messageId'])).size).toBe(expected);
    await vi.waitFor(() => expect(received.filter((r) => r.path === '/flaky')).toHaveLength(3 * expected), { timeout: 8_000, interval: 100 });
    const byMessage = new Map<string, Received[]>();
    for (const r of received.filter((x) => x.path === '/flaky')) byMessage.set(String(r.body['messageId']), [...(byMessage.get(String(r.body['messageId'])) ?? []), r]);
    expect(byMessage.size).toBe(expected);
    for (const attempts of byMessage.values()) {
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
    }
    const counters = (await (await fetch(`${devnet.url}/__devnet/webhooks`)).json()) as { webhooks: { id: string }[] };
    expect(counters.webhooks.find((w) => w.id === hook['id'])).toMatchObject({ delivered: expected, failedAttempts: 2 * expected, pending: 0 });
    await ok('DELETE', `/v1/webhooks/${String(hook['id'])}`, KEY_A);
  }, 15_000);
});
