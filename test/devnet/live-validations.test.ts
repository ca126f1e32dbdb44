import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/lib/webhook-signature.ts';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { PENDING_SECONDS, VALIDATION_EVERY_BLOCKS, type LiveValidation } from '../../src/devnet/dataset/primary/live.ts';
import type { PrimaryData } from '../../src/devnet/dataset/primary/index.ts';
import type { Delegator, HistoricalReward, PendingReward, Validator } from '../../src/shapes/index.ts';

// The devnet's staking changes with its clock (src/devnet/dataset/primary/timeline.ts): seeded validations
// start and end, new ones are added in P-chain blocks (live.ts), live delegations join the listings, and
// validator webhooks are told. The clock is pinned and moved by hand; nothing here reads wall time.

const START = Date.UTC(2026, 5, 1);
const KEY = 'live-validations';
const BLOCK_MS = 2_000;

let devnet: Devnet;
/** Same seed, size and start, its clock never moved: the seeded records as generated. */
let seeded: Devnet;
let clock = START;
let receiver: Server;
let receiverUrl = '';
let received: { body: Record<string, unknown>; raw: string; signature: string }[] = [];

async function get<T>(path: string): Promise<T> {
  const res = await fetch(`${devnet.url}${path}`);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Every item of a Data API listing, following nextPageToken. */
async function all<T>(path: string, field: string, target = devnet): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(`${target.url}${path}${sep}pageSize=100${token ? `&pageToken=${token}` : ''}`);
    expect(res.status, path).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    out.push(...(body[field] as T[]));
    token = body['nextPageToken'] as string | undefined;
  } while (token);
  return out;
}

const primary = (): PrimaryData => devnet.dataset.primary.mainnet;
/** P-chain block time, ms. */
const blockMs = (height: number): number => Number(primary().block('p', height).blockTimestamp) * 1000;
/** The first live validation of the mainnet P-chain, and its block (computed ahead: it is a function of the seed). */
function firstLiveValidation(): LiveValidation {
  const p = primary();
  const first = p.live.firstHeight('p');
  const height = first + ((((2 - first) % VALIDATION_EVERY_BLOCKS) + VALIDATION_EVERY_BLOCKS) % VALIDATION_EVERY_BLOCKS);
  return p.live.validationAt(height) as LiveValidation;
}
const byNode = async (nodeId: string): Promise<Validator[]> => (await get<{ validators: Validator[] }>(`/v1/networks/mainnet/validators/${nodeId}`)).validators;
const listed = async (query: string): Promise<Validator[]> => all<Validator>(`/v1/networks/mainnet/validators?${query}`, 'validators');

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({ body: JSON.parse(raw) as Record<string, unknown>, raw, signature: String(req.headers['x-signature']) });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  devnet = await startDevnet({ validators: 300, now: () => clock, webhookIntervalMs: 0 });
  seeded = await startDevnet({ validators: 300, now: () => START, webhookIntervalMs: 0 });
}, 60_000);

afterAll(async () => {
  await devnet?.close();
  await seeded?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

beforeEach(() => {
  clock = START;
  received = [];
});

describe('the devnet staking over time', () => {
  it('keeps everything before the start as seeded: the same listings at the start, and the past unchanged a day later', async () => {
    const paths = [
      ['/v1/networks/mainnet/validators', 'validators'],
      ['/v1/networks/mainnet/validators?validationStatus=active&sortBy=delegationCapacity', 'validators'],
      ['/v1/networks/mainnet/delegators', 'delegators'],
      [`/v1/networks/mainnet/delegators?nodeIds=${primary().live.nodeId}`, 'delegators'],
      [`/v1/networks/mainnet/rewards?nodeIds=${primary().live.nodeId}`, 'historicalRewards'],
    ] as const;
    for (const [path, field] of paths) expect(await all(path, field), path).toEqual(await all(path, field, seeded));
    expect(primary().stakingVersion()).toBe(0);

    const before = {
      validators: await all<Validator>('/v1/networks/mainnet/validators?validationStatus=completed', 'validators', seeded),
      delegators: await all<Delegator>('/v1/networks/mainnet/delegators?delegationStatus=completed', 'delegators', seeded),
    };
    clock = START + 86_400_000;
    expect(primary().stakingVersion()).toBeGreaterThan(0);
    const after = {
      validators: new Map((await listed('validationStatus=completed')).map((v) => [v.txHash, v])),
      delegators: new Map((await all<Delegator>('/v1/networks/mainnet/delegators?delegationStatus=completed', 'delegators')).map((d) => [d.txHash, d])),
    };
    // What had completed before the start is served the same; more has completed since.
    for (const v of before.validators) expect(after.validators.get(v.txHash)).toEqual(v);
    for (const d of before.delegators) expect(after.delegators.get(d.txHash)).toEqual(d);
    expect(after.validators.size).toBeGreaterThan(before.validators.length);
    expect(after.delegators.size).toBeGreaterThan(before.delegators.length);

    // Back at the start, the seeded pages again (the page cache keys on the staking version).
    clock = START;
    for (const [path, field] of paths) expect(await all(path, field), path).toEqual(await all(path, field, seeded));
  });

  it('a seeded pending validation turns active once its start passes, in every listing', async () => {
    const pending = (await listed('validationStatus=pending')).filter((v) => v.subnetId === '11111111111111111111111111111111LpoYY');
    const soonest = pending.reduce((a, b) => (Number(b.startTimestamp) < Number(a.startTimestamp) ? b : a));
    clock = (Number(soonest.startTimestamp) + 1) * 1000;
    const now = (await byNode(soonest.nodeId)).find((v) => v.txHash === soonest.txHash) as Validator;
    expect(now.validationStatus).toBe('active');
    expect(now.uptimePerformance).toBeGreaterThan(0);
    expect((await listed(`validationStatus=active&nodeIds=${soonest.nodeId}`)).map((v) => v.txHash)).toContain(soonest.txHash);
    expect((await listed(`validationStatus=pending&nodeIds=${soonest.nodeId}`)).map((v) => v.txHash)).not.toContain(soonest.txHash);
    const rewards = await all<PendingReward>(`/v1/networks/mainnet/rewards:listPending?nodeIds=${soonest.nodeId}`, 'pendingRewards');
    expect(rewards.some((r) => r.txHash === soonest.txHash && r.rewardType === 'VALIDATOR')).toBe(true);
  });

  it('a seeded active validation completes once its end passes: rewards listed, its reward tx resolvable, named by its staking tx', async () => {
    const active = (await listed('validationStatus=active&sortBy=timeRemaining&sortOrder=asc')).filter((v) => v.delegationFee !== undefined);
    const soonest = active[0] as Validator;
    clock = (Number(soonest.endTimestamp) + 2) * 1000;
    const done = (await byNode(soonest.nodeId)).find((v) => v.txHash === soonest.txHash) as Validator;
    expect(done.validationStatus).toBe('completed');
    expect(done.delegationCapacity).toBeUndefined();
    const rewardTxHash = done.rewards?.rewardTxHash as string;
    const historical = await all<HistoricalReward>(`/v1/networks/mainnet/rewards?nodeIds=${soonest.nodeId}`, 'historicalRewards');
    expect(historical.find((r) => r.txHash === soonest.txHash && r.rewardType === 'VALIDATOR')).toMatchObject({ rewardTxHash });
    const base = '/v1/networks/mainnet/blockchains/p-chain/transactions';
    expect(await get(`${base}/${soonest.txHash}`)).toMatchObject({ txType: 'AddPermissionlessValidatorTx', rewardTxHash });
    expect(await get(`${base}/${rewardTxHash}`)).toMatchObject({ txType: 'RewardValidatorTx', stakingTxHash: soonest.txHash, nodeId: soonest.nodeId });
    // Not before its end.
    clock = (Number(soonest.endTimestamp) - 2) * 1000;
    expect((await fetch(`${devnet.url}${base}/${rewardTxHash}`)).status).toBe(404);
  });

  it('a live validation is pending from its block, active from its start, completed with rewards at its end, the same everywhere', async () => {
    const live = firstLiveValidation();
    const txPath = `/v1/networks/mainnet/blockchains/p-chain/transactions/${live.txHash}`;
    // Not there before its block.
    clock = blockMs(live.height) - BLOCK_MS;
    expect((await listed(`nodeIds=${live.nodeId}`)).map((v) => v.txHash)).not.toContain(live.txHash);
    expect((await fetch(`${devnet.url}${txPath}`)).status).toBe(404);

    clock = blockMs(live.height);
    const tx = await get<Record<string, unknown>>(txPath);
    expect(tx).toMatchObject({
      txType: 'AddPermissionlessValidatorTx', nodeId: live.nodeId, startTimestamp: live.start, endTimestamp: live.end, blockNumber: String(live.height),
    });
    expect(live.start - Number(tx['blockTimestamp'])).toBe(PENDING_SECONDS);
    expect(primary().block('p', live.height).transactions).toContain(live.txHash);
    const atBlock = (await byNode(live.nodeId)).find((v) => v.txHash === live.txHash) as Validator;
    expect(atBlock).toMatchObject({ validationStatus: 'pending', startTimestamp: live.start, endTimestamp: live.end, amountStaked: String(live.stake) });
    expect((await listed(`validationStatus=pending&nodeIds=${live.nodeId}`)).map((v) => v.txHash)).toContain(live.txHash);

    clock = (live.start + 1) * 1000;
    const active = (await listed(`validationStatus=active&nodeIds=${live.nodeId}`)).find((v) => v.txHash === live.txHash) as Validator;
    expect(active).toMatchObject({ validationStatus: 'active', startTimestamp: live.start, endTimestamp: live.end });
    expect(active.delegationCapacity).toBeDefined();
    // Time filters and sorting see it: time remaining is end - now.
    const left = live.end - (live.start + 1);
    expect((await listed(`nodeIds=${live.nodeId}&minTimeRemaining=${left}&maxTimeRemaining=${left}`)).map((v) => v.txHash)).toEqual([live.txHash]);
    const byBlock = await listed('validationStatus=active&sortOrder=desc');
    expect(byBlock[0]?.txHash).toBe(live.txHash);
    const pendingRewards = await all<PendingReward>(`/v1/networks/mainnet/rewards:listPending?nodeIds=${live.nodeId}`, 'pendingRewards');
    expect(pendingRewards.find((r) => r.txHash === live.txHash)).toMatchObject({ rewardType: 'VALIDATOR', startTimestamp: live.start, endTimestamp: live.end });

    clock = (live.end + 1) * 1000;
    const done = (await byNode(live.nodeId)).find((v) => v.txHash === live.txHash) as Validator;
    expect(done.validationStatus).toBe('completed');
    expect(done.rewards?.rewardTxHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40,60}$/);
    expect((await listed(`validationStatus=completed&nodeIds=${live.nodeId}`)).find((v) => v.txHash === live.txHash)).toEqual(done);
    const historical = await all<HistoricalReward>(`/v1/networks/mainnet/rewards?nodeIds=${live.nodeId}`, 'historicalRewards');
    expect(historical.find((r) => r.txHash === live.txHash)).toMatchObject({
      rewardType: 'VALIDATOR', rewardTxHash: done.rewards?.rewardTxHash, startTimestamp: live.start, endTimestamp: live.end,
    });
    // The staking tx names its reward tx now, and that resolves: in the first block at or after the end.
    expect(await get<Record<string, unknown>>(txPath)).toMatchObject({ rewardTxHash: done.rewards?.rewardTxHash });
    const rewardTx = await get<Record<string, unknown>>(`/v1/networks/mainnet/blockchains/p-chain/transactions/${String(done.rewards?.rewardTxHash)}`);
    expect(rewardTx).toMatchObject({ txType: 'RewardValidatorTx', stakingTxHash: live.txHash, nodeId: live.nodeId, endTimestamp: live.end });
    expect(Number(rewardTx['blockTimestamp']) - live.end).toBeGreaterThanOrEqual(0);
    expect(Number(rewardTx['blockTimestamp']) - live.end).toBeLessThan(BLOCK_MS / 1000);
    const stillPending = await all<PendingReward>(`/v1/networks/mainnet/rewards:listPending?nodeIds=${live.nodeId}`, 'pendingRewards');
    expect(stillPending.map((r) => r.txHash)).not.toContain(live.txHash);
  });

  it('a node re-validates: a second record with its own period and staking tx, never overlapping the first', async () => {
    clock = START + 6 * 3_600_000;
    const p = primary();
    const revalidations = p.live.validationsThrough(p.latestHeight('p')).filter((v) => (p.validationsOf(v.nodeId).length > 1));
    expect(revalidations.length).toBeGreaterThan(0);
    for (const live of revalidations) {
      const records = await byNode(live.nodeId);
      expect(new Set(records.map((v) => v.txHash)).size).toBe(records.length);
      expect(records.map((v) => v.txHash)).toContain(live.txHash);
      const periods = records.map((v) => [Number(v.startTimestamp), Number(v.endTimestamp)] as const).sort((a, b) => a[0] - b[0]);
      for (let k = 1; k < periods.length; k++) expect((periods[k] as readonly [number, number])[0]).toBeGreaterThan((periods[k - 1] as readonly [number, number])[1]);
    }
  });

  it('a live delegation is listed from its block, counted in its validation', async () => {
    const p = primary();
    const nodeId = p.live.nodeId;
    const before = (await byNode(nodeId)).find((v) => v.validationStatus === 'active') as Validator;
    clock = START + 60_000;
    const live = p.live.delegationsThrough(p.latestHeight('p'));
    expect(live.length).toBeGreaterThan(0);
    const txs = live.map((d) => p.live.delegationTx(d.height));
    const listedDelegations = await all<Delegator>(`/v1/networks/mainnet/delegators?nodeIds=${nodeId}`, 'delegators');
    for (const tx of txs) {
      expect(listedDelegations.find((d) => d.txHash === tx)).toMatchObject({ nodeId, rewardAddresses: [p.live.address] });
    }
    // By reward address too, and as the delegation tx describes it.
    const byAddress = await all<Delegator>(`/v1/networks/mainnet/delegators?rewardAddresses=P-${p.live.address}`, 'delegators');
    expect(byAddress.map((d) => d.txHash)).toEqual(expect.arrayContaining(txs));
    const tx = await get<Record<string, unknown>>(`/v1/networks/mainnet/blockchains/p-chain/transactions/${txs[0] as string}`);
    const first = listedDelegations.find((d) => d.txHash === txs[0]) as Delegator;
    expect(tx).toMatchObject({ nodeId, startTimestamp: first.startTimestamp, endTimestamp: first.endTimestamp });
    // Each is active from the block after its own (all of them are by now, two seconds later).
    clock += BLOCK_MS;
    const after = (await byNode(nodeId)).find((v) => v.txHash === before.txHash) as Validator;
    expect(after.delegatorCount).toBe((before.delegatorCount ?? 0) + live.length);
    const added = live.reduce((sum, d) => sum + d.amount, 0);
    expect(Number(after.amountDelegated)).toBe(Number(before.amountDelegated) + added);
  });

  it('validator webhooks are told, signed, when a validation is staked and when it ends with its rewards', async () => {
    const live = firstLiveValidation();
    clock = blockMs(live.height) - 10 * BLOCK_MS;
    const res = await fetch(`${devnet.url}/v1/webhooks`, {
      method: 'POST', headers: { 'x-service-api-key': KEY, 'content-type': 'application/json' },
      body: JSON.stringify({
        eventType: 'validator_activity', url: `${receiverUrl}/v`, network: 'mainnet',
        metadata: { keyType: 'nodeId', keys: [live.nodeId], subEvents: { validatorActivitySubEvents: ['validator_stake', 'reward_distribution'] } },
      }),
    });
    expect(res.status).toBe(201);
    const { secret } = (await (await fetch(`${devnet.url}/v1/webhooks:getSharedSecret`, { headers: { 'x-service-api-key': KEY } })).json()) as { secret: string };
    let scanned = primary().latestHeight('p');
    const drain = async (): Promise<void> => {
      // A tick scans at most 64 blocks: tick until the webhook has caught up with the chain.
      const latest = primary().latestHeight('p');
      for (let k = 0; k <= Math.ceil((latest - scanned) / 64); k++) await devnet.webhooks.tick();
      scanned = latest;
    };
    clock = blockMs(live.height) + BLOCK_MS;
    await drain();
    const events = (): Record<string, unknown>[] => received.map((r) => r.body['event'] as Record<string, unknown>);
    expect(events()).toEqual([
      { subEvent: 'validator_stake', network: 'mainnet', nodeId: live.nodeId, subnetId: '11111111111111111111111111111111LpoYY', txHash: live.txHash, blockTimestamp: Math.floor(blockMs(live.height) / 1000) },
    ]);

    clock = (live.end + 4) * 1000;
    await drain();
    const done = (await byNode(live.nodeId)).find((v) => v.txHash === live.txHash) as Validator;
    expect(events()[1]).toMatchObject({ subEvent: 'reward_distribution', nodeId: live.nodeId, txHash: done.rewards?.rewardTxHash });
    expect(Number(events()[1]?.['blockTimestamp']) - live.end).toBeGreaterThanOrEqual(0);
    expect(Number(events()[1]?.['blockTimestamp']) - live.end).toBeLessThan(BLOCK_MS / 1000);
    expect(events()).toHaveLength(2);
    for (const r of received) {
      expect(r.body).toMatchObject({ eventType: 'validator_activity' });
      expect(verifyWebhookSignature(secret, r.body, r.signature)).toBe(true);
    }
  }, 120_000);
});
