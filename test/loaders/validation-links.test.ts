import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { encodeCb58 } from '../../src/lib/base58.ts';
import { passedPeriod, timeOrderOf, type Timed } from '../../src/loaders/staking-time.ts';
import {
  nodeValidations, validationHolding, validationOfBlock, validationOfDelegation, validationOfReward, validationOfTransaction,
} from '../../src/loaders/validation-links.ts';
import { PRIMARY_NETWORK_ID, type Validator } from '../../src/shapes/index.ts';
import { createLoaderContext, type TestLoaderContext } from '../helpers/loader-context.ts';

const E8 = 'GET /v1/networks/{network}/validators';
/** Well-formed (checksum included), but no validator's. */
const UNKNOWN_NODE = `NodeID-${encodeCb58(Buffer.alloc(20, 7))}`;
/** Not a node id: read from an upstream answer, it is never sent. */
const MALFORMED = 'NodeID-0OIl';

let devnet: Devnet;
let lc: TestLoaderContext;
/** Mainnet's primary-network validations by node id, from the dataset (oldest first). */
const byNode = new Map<string, Validator[]>();

beforeAll(async () => {
  devnet = await startDevnet({ validators: 300 });
  lc = createLoaderContext(devnet);
  for (const v of devnet.dataset.primary.mainnet.allValidators()) {
    if (v.subnetId === PRIMARY_NETWORK_ID) byNode.set(v.nodeId, [...(byNode.get(v.nodeId) ?? []), v]);
  }
});

afterAll(async () => {
  await lc?.close();
  await devnet?.close();
});

const txs = (list: readonly Validator[] | Error | null | undefined): string[] =>
  Array.isArray(list) ? list.map((v) => v.txHash).sort() : [];

describe('nodeValidations', () => {
  it('answers every primary-network validation of each node, in key order, from one listing per 100 node ids', async () => {
    const nodes = [...byNode.keys()];
    const several = nodes.filter((n) => (byNode.get(n)?.length ?? 0) > 1);
    expect(several.length).toBeGreaterThan(20);
    const keys = [...several.slice(0, 30), UNKNOWN_NODE, ...nodes.slice(0, 30), MALFORMED, several[0] as string];
    const m = await lc.measure(() => nodeValidations(lc.fresh(), 'mainnet').loadMany(keys));
    keys.forEach((key, i) => key !== MALFORMED && expect(txs(m.result[i]), key).toEqual(txs(byNode.get(key) ?? [])));
    expect(m.result[keys.indexOf(UNKNOWN_NODE)]).toEqual([]);
    expect(m.result[keys.indexOf(MALFORMED)]).toBeInstanceOf(Error);
    expect(lc.paramsOf('listValidators')[0]?.nodeIds).not.toContain(MALFORMED);
    // 60 distinct nodes and their validations fit one page.
    expect(m.byRoute[E8]).toBe(1);
    expect(lc.paramsOf('listValidators')).toEqual([expect.objectContaining({ subnetId: PRIMARY_NETWORK_ID, pageSize: 100 })]);
    expect(m.rounds).toBe(1);
  });
});

/** A validation with only what the rules read. */
const validation = (txHash: string, start: number, end: number): Validator => ({ txHash, startTimestamp: start, endTimestamp: end }) as unknown as Validator;

/** An item whose timestamps the upstream broke: reading them throws, as a broken field does. */
const broken = (txHash: string): Validator =>
  Object.defineProperties({ txHash }, {
    startTimestamp: { get: () => { throw new Error('broken startTimestamp'); } },
    endTimestamp: { get: () => { throw new Error('broken endTimestamp'); } },
  }) as unknown as Validator;

describe('which validation an item belongs to', () => {
  const history = [validation('a', 100, 200), validation('b', 300, 400), validation('c', 500, 900)];

  it('a delegation: the validation whose period holds its start, ends included; none outside every period', () => {
    expect(validationOfDelegation(history, { startTimestamp: 300, endTimestamp: 350 })?.txHash).toBe('b');
    expect(validationOfDelegation(history, { startTimestamp: 400, endTimestamp: 400 })?.txHash).toBe('b');
    expect(validationOfDelegation(history, { startTimestamp: '600', endTimestamp: '700' })?.txHash).toBe('c');
    expect(validationOfDelegation(history, { startTimestamp: 250, endTimestamp: 260 })).toBeNull();
    expect(validationOfDelegation([], { startTimestamp: 150, endTimestamp: 160 })).toBeNull();
  });

  it('overlapping records (an answer may have them): the one that started last; broken ones are skipped', () => {
    expect(validationHolding([validation('old', 100, 1000), validation('new', 500, 1500), broken('x')], 700)?.txHash).toBe('new');
    expect(validationOfDelegation(history, broken('d'))).toBeNull();
  });

  it('a reward: the validation of its staking tx first, else the one holding its period start', () => {
    // A validation reward names its own validation, whatever the period says.
    expect(validationOfReward(history, { txHash: 'a', startTimestamp: 500, endTimestamp: 900 })?.txHash).toBe('a');
    // A delegation's reward or fee names the delegation: its period decides.
    expect(validationOfReward(history, { txHash: 'delegation', startTimestamp: 320, endTimestamp: 390 })?.txHash).toBe('b');
    expect(validationOfReward(history, { txHash: 'delegation', startTimestamp: 450, endTimestamp: 460 })).toBeNull();
  });

  const tx = (txType: string, extra: Record<string, unknown> = {}) => ({ txHash: 'tx', txType, blockTimestamp: 350, ...extra });

  it('a transaction adding a primary validator: the validation with its hash, never another of the node (null without it)', () => {
    expect(validationOfTransaction(history, tx('AddPermissionlessValidatorTx', { txHash: 'a', subnetId: PRIMARY_NETWORK_ID, startTimestamp: 100 }))?.txHash).toBe('a');
    expect(validationOfTransaction(history, tx('AddValidatorTx', { txHash: 'c', startTimestamp: 500 }))?.txHash).toBe('c');
    // Its time and period lie in 'b', but 'b' is another record: the tx's own is missing from the list.
    expect(validationOfTransaction(history, tx('AddPermissionlessValidatorTx', { txHash: 'gone', startTimestamp: 300 }))).toBeNull();
  });

  it("a delegation (or a subnet validation): the validation holding its start, not the transaction's time", () => {
    expect(validationOfTransaction(history, tx('AddPermissionlessDelegatorTx', { startTimestamp: 600, blockTimestamp: 350 }))?.txHash).toBe('c');
    expect(validationOfTransaction(history, tx('AddDelegatorTx', { startTimestamp: '150', blockTimestamp: 90 }))?.txHash).toBe('a');
    expect(validationOfTransaction(history, tx('AddPermissionlessValidatorTx', { subnetId: 'subnet', startTimestamp: 320 }))?.txHash).toBe('b');
    expect(validationOfTransaction(history, tx('AddPermissionlessDelegatorTx', { startTimestamp: 450 }))).toBeNull();
  });

  it('a reward: the validation it rewards by its staking tx, else the one holding its start', () => {
    expect(validationOfTransaction(history, tx('RewardValidatorTx', { stakingTxHash: 'a', startTimestamp: 100, blockTimestamp: 950 }))?.txHash).toBe('a');
    expect(validationOfTransaction(history, tx('RewardValidatorTx', { stakingTxHash: 'delegation', startTimestamp: 520, blockTimestamp: 950 }))?.txHash).toBe('c');
  });

  it("anything else: the validation holding the transaction's time; broken fields read as absent", () => {
    expect(validationOfTransaction(history, tx('BaseTx', { blockTimestamp: '350' }))?.txHash).toBe('b');
    expect(validationOfTransaction(history, tx('BaseTx', { blockTimestamp: 450 }))).toBeNull();
    const brokenType = Object.defineProperty(tx('', { blockTimestamp: 150 }), 'txType', { get: () => { throw new Error('broken txType'); } });
    expect(validationOfTransaction(history, brokenType)?.txHash).toBe('a');
  });

  it("a block: its proposer's validation holding the block's time, ends included; none between validations", () => {
    expect(validationOfBlock(history, { blockTimestamp: 200 })?.txHash).toBe('a');
    expect(validationOfBlock(history, { blockTimestamp: '700' })?.txHash).toBe('c');
    expect(validationOfBlock(history, { blockTimestamp: 250 })).toBeNull();
    const brokenTime = Object.defineProperty({ blockTimestamp: 0 }, 'blockTimestamp', { get: () => { throw new Error('broken blockTimestamp'); } });
    expect(validationOfBlock(history, brokenTime)).toBeNull();
  });
});

describe('time order of a listing page', () => {
  const item = (start: number, end: number): Timed => ({ startTimestamp: start, endTimestamp: end });

  it('tells the direction by start or by end, and nothing from equal times, mixed orders or broken times', () => {
    expect(timeOrderOf([item(50, 90), item(40, 95), item(10, 20)])).toBe('desc');
    expect(timeOrderOf([item(10, 20), item(5, 30), item(40, 90)])).toBe('asc');
    expect(timeOrderOf([item(10, 20), item(10, 20)])).toBeUndefined();
    expect(timeOrderOf([item(10, 20), item(30, 40), item(20, 30)])).toBeUndefined();
    expect(timeOrderOf([item(50, 90), broken('x'), item(10, 20)])).toBeUndefined();
  });

  it('has passed a period once its last item ended before it (descending) or started after it (ascending)', () => {
    const period = { start: 100, end: 200 };
    expect(passedPeriod([item(300, 400), item(150, 180), item(40, 99)], period, undefined)).toBe(true);
    expect(passedPeriod([item(300, 400), item(150, 180), item(40, 100)], period, 'desc')).toBe(false);
    expect(passedPeriod([item(40, 99), item(150, 180), item(201, 300)], period, 'asc')).toBe(true);
    expect(passedPeriod([item(40, 99), item(150, 180), item(200, 300)], period, undefined)).toBe(false);
    // A page in the other order than asked for tells nothing.
    expect(passedPeriod([item(300, 400), item(150, 180), item(40, 99)], period, 'asc')).toBe(false);
    expect(passedPeriod([], period, 'desc')).toBe(false);
  });
});
