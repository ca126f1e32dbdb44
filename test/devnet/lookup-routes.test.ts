import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { decodeIcmMessageId, encodeIcmMessageId } from '../../src/devnet/dataset/evm/icm-ids.ts';
import { avaxOf } from '../../src/devnet/dataset/primary/network-summary.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { PRIMARY_CHAIN_IDS, PRIMARY_NETWORK_ID, type Blockchain, type IcmMessage, type NetworkDetails, type Subnet, type Validator } from '../../src/shapes/index.ts';
import { mismatches, STRICT_SHAPES } from '../shapes/strict.ts';

let devnet: Devnet;
let fx: NetworkFixtures;

interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
}

async function call<T = Record<string, unknown>>(path: string): Promise<Reply<T>> {
  const res = await fetch(`${devnet.url}${path}`);
  return { status: res.status, body: (await res.json()) as T };
}

async function expectError(path: string, status: 400 | 404): Promise<void> {
  const { status: got, body } = await call(path);
  expect(got, path).toBe(status);
  expect(mismatches(body, STRICT_SHAPES.ErrorBody), path).toEqual([]);
  expect(body.statusCode).toBe(status);
}

async function collect<T>(path: string, key: string): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  for (let guard = 0; guard < 500; guard++) {
    const sep = path.includes('?') ? '&' : '?';
    const { status, body } = await call(`${path}${token ? `${sep}pageToken=${encodeURIComponent(token)}` : ''}`);
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...(body[key] as T[]));
    token = body.nextPageToken as string | undefined;
    if (!token) return out;
  }
  throw new Error('pagination did not end');
}

beforeAll(async () => {
  // Staking held still at the start, so listings read over several pages (and summed) see the same
  // records (a live delegation joining between two pages would be listed twice).
  const start = Date.now();
  devnet = await startDevnet({ validators: 200, seed: 7, stakingNow: () => start });
  fx = devnet.dataset.fixtures().mainnet;
});

afterAll(async () => {
  await devnet?.close();
});

describe('getSingleValidatorDetails', () => {
  it('serves every validation of the node as the validator listing has them (newest first), in the strict shape', async () => {
    for (const nodeId of [fx.nodeId, fx.completedNodeId, fx.pendingNodeId, fx.removedNodeId, fx.subnetValidatorNodeId, fx.revalidatedNodeId]) {
      const { status, body } = await call<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${nodeId}`);
      expect(status).toBe(200);
      expect(mismatches(body, STRICT_SHAPES.ListValidatorsResponse)).toEqual([]);
      const listed = (await collect<Validator>(`/v1/networks/mainnet/validators?nodeIds=${nodeId}&pageSize=100`, 'validators')).filter((v) => v.nodeId === nodeId);
      expect(body.validators).toEqual(listed);
      expect(listed.length).toBeGreaterThan(0);
      const asc = (await call<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${nodeId}?sortOrder=asc`)).body.validators;
      expect(asc).toEqual([...listed].reverse());
    }
    // A node that validated several times: one record per validation, each with its own tx.
    const history = (await call<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${fx.revalidatedNodeId}`)).body.validators;
    expect(history.length).toBeGreaterThan(1);
    expect(new Set(history.map((v) => v.txHash)).size).toBe(history.length);
    expect(history[0]?.validationStatus).toBe('active');
  });

  it('filters by status, is empty for an unknown node, and keeps the spec\'s bounds', async () => {
    const other = (await call<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${fx.pendingNodeId}?validationStatus=active`)).body;
    expect(other.validators).toEqual([]);
    const earlier = (await call<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${fx.revalidatedNodeId}?validationStatus=completed`)).body;
    expect(earlier.validators.length).toBeGreaterThan(0);
    expect(earlier.validators.every((v) => v.validationStatus === 'completed' && v.nodeId === fx.revalidatedNodeId)).toBe(true);
    const unknown = (await call<{ validators: Validator[] }>('/v1/networks/mainnet/validators/NodeID-111111111111111111116DBWJs')).body;
    expect(unknown.validators).toEqual([]);
    await expectError('/v1/networks/mainnet/validators/NodeID-abc', 400);
    await expectError(`/v1/networks/mainnet/validators/${fx.nodeId}?pageSize=101`, 400);
    await expectError(`/v1/networks/mainnet/validators/${fx.nodeId}?validationStatus=gone`, 400);
    await expectError(`/v1/networks/moon/validators/${fx.nodeId}`, 400);
  });
});

describe('getSubnetById, listBlockchains, getBlockchainById', () => {
  it('a subnet by id equals its listing item; the primary network is one; unknown is 404', async () => {
    const subnets = await collect<Subnet>('/v1/networks/mainnet/subnets?pageSize=50', 'subnets');
    for (const subnet of subnets) {
      const { status, body } = await call(`/v1/networks/mainnet/subnets/${subnet.subnetId}`);
      expect(status).toBe(200);
      expect(mismatches(body, STRICT_SHAPES.Subnet)).toEqual([]);
      expect(body).toEqual(subnet);
    }
    expect(subnets.map((s) => s.subnetId)).toContain(PRIMARY_NETWORK_ID);
    await expectError(`/v1/networks/fuji/subnets/${fx.subnetId}`, 404);
    await expectError('/v1/networks/mainnet/subnets/not-an-id', 400);
  });

  it('lists every subnet\'s blockchains, pages both ways, each equal to its lookup by id', async () => {
    const subnets = await collect<Subnet>('/v1/networks/mainnet/subnets?pageSize=50&sortOrder=asc', 'subnets');
    const expected = subnets.flatMap((s) => s.blockchains);
    const asc = await collect<Blockchain>('/v1/networks/mainnet/blockchains?pageSize=4&sortOrder=asc', 'blockchains');
    expect(asc).toEqual(expected);
    const desc = await collect<Blockchain>('/v1/networks/mainnet/blockchains?pageSize=7', 'blockchains');
    expect(desc).toEqual([...expected].reverse());
    const first = await call('/v1/networks/mainnet/blockchains?pageSize=3');
    expect(mismatches(first.body, STRICT_SHAPES.ListBlockchainsResponse)).toEqual([]);
    for (const chain of asc) {
      const { status, body } = await call(`/v1/networks/mainnet/blockchains/${chain.blockchainId}`);
      expect(status).toBe(200);
      expect(mismatches(body, STRICT_SHAPES.Blockchain)).toEqual([]);
      expect(body).toEqual(chain);
    }
    expect(asc.map((b) => b.blockchainId)).toEqual(expect.arrayContaining(Object.values(PRIMARY_CHAIN_IDS.mainnet)));
    await expectError(`/v1/networks/fuji/blockchains/${PRIMARY_CHAIN_IDS.mainnet.c}`, 404);
    await expectError('/v1/networks/mainnet/blockchains?pageSize=10001', 400);
    await expectError('/v1/networks/mainnet/blockchains?pageSize=0', 400);
    await expectError('/v1/networks/mainnet/blockchains?sortOrder=up', 400);
    await expectError(`/v1/networks/mainnet/blockchains?pageToken=${'x'.repeat(12)}`, 400);
  });
});

describe('getNetworkDetails and getAvaxSupply', () => {
  it('sum the active primary-network validations and delegations; the supply reports their stake', async () => {
    const { status, body: details } = await call<NetworkDetails>('/v1/networks/mainnet');
    expect(status).toBe(200);
    expect(mismatches(details, STRICT_SHAPES.NetworkDetails)).toEqual([]);
    const active = await collect<Validator>(`/v1/networks/mainnet/validators?subnetId=${PRIMARY_NETWORK_ID}&validationStatus=active&pageSize=100`, 'validators');
    expect(details.validatorDetails.validatorCount).toBe(active.length);
    expect(BigInt(details.validatorDetails.totalAmountStaked)).toBe(active.reduce((sum, v) => sum + BigInt(v.amountStaked), 0n));
    const delegators = await collect<{ amountDelegated: string }>('/v1/networks/mainnet/delegators?delegationStatus=active&pageSize=100', 'delegators');
    expect(details.delegatorDetails.delegatorCount).toBe(delegators.length);
    expect(BigInt(details.delegatorDetails.totalAmountStaked)).toBe(delegators.reduce((sum, d) => sum + BigInt(d.amountDelegated), 0n));

    const supply = await call<Record<string, string>>('/v1/avax/supply');
    expect(supply.status).toBe(200);
    expect(mismatches(supply.body, STRICT_SHAPES.AvaxSupply)).toEqual([]);
    expect(supply.body.totalStaked).toBe(avaxOf(BigInt(details.validatorDetails.totalAmountStaked) + BigInt(details.delegatorDetails.totalAmountStaked)));
    expect(Number(supply.body.circulatingSupply)).toBeLessThanOrEqual(Number(supply.body.totalSupply));
    const fuji = await call('/v1/networks/fuji');
    expect(mismatches(fuji.body, STRICT_SHAPES.NetworkDetails)).toEqual([]);
    expect(fuji.body).not.toEqual(details);
  });

  it('writes nAVAX as exact AVAX decimals', () => {
    expect(avaxOf(0n)).toBe('0');
    expect(avaxOf(1n)).toBe('0.000000001');
    expect(avaxOf(2_500_000_000n)).toBe('2.5');
    expect(avaxOf(123_000_000_000n)).toBe('123');
  });
});

describe('listIcmMessages and getIcmMessage', () => {
  it('message ids are self-describing, and a random or foreign id decodes to nothing', () => {
    const id = encodeIcmMessageId('s', '0x00000000000000000000000000000000000000a1', 513);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(decodeIcmMessageId('s', id)).toEqual({ address: '0x00000000000000000000000000000000000000a1', index: 513 });
    expect(decodeIcmMessageId('s', `0x${id.toUpperCase()}`)).toEqual({ address: '0x00000000000000000000000000000000000000a1', index: 513 });
    expect(decodeIcmMessageId('other', id)).toBeUndefined();
    expect(decodeIcmMessageId('s', 'ab'.repeat(32))).toBeUndefined();
  });

  it('every listed message resolves by id to the same object, in the strict shape', async () => {
    const all = await collect<IcmMessage>('/v1/icm/messages?pageSize=100', 'messages');
    expect(all.length).toBeGreaterThan(20);
    expect(new Set(all.map((m) => m.messageId)).size).toBe(all.length);
    for (const m of all.slice(0, 40)) {
      const { status, body } = await call(`/v1/icm/messages/${m.messageId}`);
      expect(status).toBe(200);
      expect(mismatches(body, STRICT_SHAPES.IcmMessage)).toEqual([]);
      expect(body).toEqual(m);
    }
    const own = await collect<IcmMessage>(`/v1/icm/addresses/${fx.icmAddress}/messages?network=mainnet&pageSize=100`, 'messages');
    const mainnet = await collect<IcmMessage>('/v1/icm/messages?network=mainnet&pageSize=100', 'messages');
    const ids = new Set(mainnet.map((m) => m.messageId));
    expect(own.every((m) => ids.has(m.messageId))).toBe(true);
  });

  it('filters by chain (blockchain or EVM chain id), either end, sender and recipient', async () => {
    const mainnet = await collect<IcmMessage>('/v1/icm/messages?network=mainnet&pageSize=100', 'messages');
    const m = mainnet[0] as IcmMessage;
    const bySource = await collect<IcmMessage>(`/v1/icm/messages?network=mainnet&sourceBlockchainId=${m.sourceBlockchainId}`, 'messages');
    expect(bySource).toEqual(mainnet.filter((x) => x.sourceBlockchainId === m.sourceBlockchainId));
    const byEvm = await collect<IcmMessage>(`/v1/icm/messages?network=mainnet&destinationBlockchainId=${m.destinationEvmChainId}`, 'messages');
    expect(byEvm).toEqual(mainnet.filter((x) => x.destinationEvmChainId === m.destinationEvmChainId));
    const either = await collect<IcmMessage>(`/v1/icm/messages?network=mainnet&blockchainId=${m.sourceBlockchainId}`, 'messages');
    expect(either).toEqual(mainnet.filter((x) => x.sourceBlockchainId === m.sourceBlockchainId || x.destinationBlockchainId === m.sourceBlockchainId));
    const stranger = '0x00000000000000000000000000000000000000b2';
    const own = await collect<IcmMessage>(`/v1/icm/addresses/${stranger}/messages?network=fuji`, 'messages');
    const byFrom = await collect<IcmMessage>(`/v1/icm/messages?network=fuji&from=${stranger}`, 'messages');
    expect(byFrom).toEqual(own.filter((x) => x.from === stranger));
    await expectError('/v1/icm/messages?from=0x12', 400);
    await expectError('/v1/icm/messages?blockchainId=43114', 400);
    await expectError('/v1/icm/messages?pageSize=101', 400);
    await expectError('/v1/icm/messages/xyz', 400);
    await expectError(`/v1/icm/messages/${'ab'.repeat(32)}`, 404);
  });
});
