import { isCb58Id, isNodeId } from '../../src/lib/ids.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import type { NetworkId } from '../../src/loaders/types.ts';
import { delegationByKey, nodeValidations, validationByKey, validatorByNodeId, type ValidationKey } from '../../src/loaders/validators.ts';
import type { DataApi } from '../../src/upstream/client-types.ts';
import { createDataApiClient, type DataApiClient } from '../../src/upstream/data-api.ts';
import { PRIMARY_NETWORK_ID, type Delegator, type Validator } from '../../src/shapes/index.ts';
import { createLoaderContext, type TestLoaderContext } from '../helpers/loader-context.ts';

const E8 = 'GET /v1/networks/{network}/validators';
const E13 = 'GET /v1/networks/{network}/delegators';
const NOW = Date.now();
/** Well-formed, and neither equal to nor a prefix of any devnet node id. */
const UNKNOWN_NODE = 'NodeID-111111111111111111111111111111111';
const UNKNOWN_TX = '1111111111111111111111111111111111111111111111111';
/** What the validators loader answers for a key that is not a node id: an error blaming the answer it came from, nothing sent. */
const UNUSABLE = { kind: 'input', field: 'nodeId', parameter: 'nodeIds' };

let devnet: Devnet;
let lc: TestLoaderContext;
let api: DataApiClient;
/** Every validation of mainnet (all subnets), and the primary-network ones of each network, in listing order. */
let allMainnet: Validator[];
const primary: Record<NetworkId, Validator[]> = { mainnet: [], fuji: [] };

async function listAll<T>(read: (pageToken: string | undefined) => Promise<{ items: T[]; next?: string | undefined }>): Promise<T[]> {
  const out: T[] = [];
  let token: string | undefined;
  do {
    const page = await read(token);
    out.push(...page.items);
    token = page.next;
  } while (token);
  return out;
}

const listValidators = (client: DataApi, network: NetworkId, subnetId?: string): Promise<Validator[]> =>
  listAll(async (pageToken) => {
    const page = await client.listValidators(network, { pageSize: 100, ...(subnetId ? { subnetId } : {}), ...(pageToken ? { pageToken } : {}) });
    return { items: page.validators, next: page.nextPageToken };
  });

const listDelegators = (nodeIds: string[], sortOrder?: 'asc' | 'desc'): Promise<Delegator[]> =>
  listAll(async (pageToken) => {
    const page = await api.listDelegators('mainnet', { nodeIds, pageSize: 100, ...(sortOrder ? { sortOrder } : {}), ...(pageToken ? { pageToken } : {}) });
    return { items: page.delegators, next: page.nextPageToken };
  });

beforeAll(async () => {
  // 600 per network: 480 primary validations on mainnet, of about 300 nodes (a node may validate several times),
  // enough for 250 distinct node ids.
  devnet = await startDevnet({ validators: 600, now: () => NOW });
  api = createDataApiClient({ baseUrl: devnet.url });
  lc = createLoaderContext(devnet);
  [allMainnet, primary.mainnet, primary.fuji] = await Promise.all([
    listValidators(api, 'mainnet'),
    listValidators(api, 'mainnet', PRIMARY_NETWORK_ID),
    listValidators(api, 'fuji', PRIMARY_NETWORK_ID),
  ]);
});

afterAll(async () => {
  await lc?.close();
  await api?.close();
  await devnet?.close();
});

/** Preference of `validatorByNodeId` among a node's validations: the current one first. */
const STATUS_RANK: Record<string, number> = { active: 0, pending: 1, completed: 2, removed: 3 };

/** The node's current validation among every time it validated, as `validatorByNodeId` answers it. */
function currentOf(validations: readonly Validator[], nodeId: string): Validator {
  const own = validations
    .filter((x) => x.nodeId === nodeId)
    .sort((a, b) => (STATUS_RANK[a.validationStatus ?? ''] ?? 9) - (STATUS_RANK[b.validationStatus ?? ''] ?? 9) || Number(b.endTimestamp) - Number(a.endTimestamp));
  if (!own[0]) throw new Error(`no validator ${nodeId}`);
  return own[0];
}
const byNode = (network: NetworkId, nodeId: string): Validator => currentOf(primary[network], nodeId);

/** One validation per node (the first listed), in listing order. */
const oneEach = (validations: readonly Validator[]): Validator[] => {
  const seen = new Set<string>();
  return validations.filter((v) => !seen.has(v.nodeId) && Boolean(seen.add(v.nodeId)));
};

describe('validatorByNodeId', () => {
  it('sends 250 node ids as exactly 3 E8 listings of at most 100 (all in one first round), each read to its last page, and answers each from them', async () => {
    const ids = oneEach(primary.mainnet).slice(0, 250).map((v) => v.nodeId);
    expect(new Set(ids).size).toBe(250);
    const m = await lc.measure(() => validatorByNodeId(lc.fresh(), 'mainnet').loadMany(ids));

    // A node may have validated several times: a chunk of 100 nodes can hold more than a page of validations.
    const pages = [ids.slice(0, 100), ids.slice(100, 200), ids.slice(200)].map((chunk) =>
      Math.max(1, Math.ceil(primary.mainnet.filter((v) => chunk.includes(v.nodeId)).length / 100)),
    );
    expect(Math.max(...pages)).toBeGreaterThan(1);
    expect(m.byRoute[E8]).toBe(pages.reduce((a, b) => a + b, 0));
    expect(m.requests).toBe(m.byRoute[E8]);
    // All three listings dispatched together, before any answer; then each chunk's next pages, in sequence.
    expect(m.perRound[0]).toEqual(['listValidators', 'listValidators', 'listValidators']);
    expect(m.rounds).toBe(Math.max(...pages));
    const params = lc.paramsOf('listValidators');
    expect(params.slice(0, 3).map((p) => (p.nodeIds as string[]).length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    for (const p of params) expect(p).toMatchObject({ subnetId: PRIMARY_NETWORK_ID, pageSize: 100 });
    expect(m.result).toEqual(ids.map((id) => byNode('mainnet', id)));
  });

  it('matches node ids exactly, although E8 matches substrings: a strict prefix or a piece of a node id is never sent', async () => {
    const [a, b] = oneEach(primary.mainnet).map((v) => byNode('mainnet', v.nodeId)) as [Validator, Validator];
    const prefix = b.nodeId.slice(0, -4);
    const piece = b.nodeId.slice(12, 24);
    // The upstream does match both to b.
    for (const needle of [prefix, piece]) {
      const direct = await api.listValidators('mainnet', { nodeIds: [needle], subnetId: PRIMARY_NETWORK_ID, pageSize: 100 });
      expect(direct.validators.map((v) => v.nodeId)).toContain(b.nodeId);
    }

    // Without b itself among the keys: b comes back from the upstream and is dropped.
    const alone = await lc.measure(() => validatorByNodeId(lc.fresh(), 'mainnet').loadMany([a.nodeId, prefix, piece]));
    // Not node ids at all: read from an upstream answer (callers' ids are checked first), so each is that answer's error.
    expect(alone.result).toMatchObject([a, UNUSABLE, UNUSABLE]);
    // One well-formed id among the keys: that node is read directly (getSingleValidatorDetails), no listing.
    expect(alone.byRoute['GET /v1/networks/{network}/validators/{nodeId}']).toBe(1);
    expect(alone.byRoute[E8]).toBeUndefined();

    const both = await lc.measure(() => validatorByNodeId(lc.fresh(), 'mainnet').loadMany([prefix, a.nodeId, b.nodeId, piece]));
    expect(both.result).toMatchObject([UNUSABLE, a, b, UNUSABLE]);
    expect(both.byRoute[E8]).toBe(1);
  });

  it('answers in key order, duplicates included; unknown ids and subnet-only validators are null, malformed ids an error', async () => {
    const current = oneEach(primary.mainnet).map((v) => byNode('mainnet', v.nodeId));
    const [a, , c] = current as [Validator, Validator, Validator];
    const subnetOnly = allMainnet.find((v) => v.subnetId !== PRIMARY_NETWORK_ID && !primary.mainnet.some((p) => p.nodeId === v.nodeId)) as Validator;
    const completed = current.find((v) => v.validationStatus === 'completed') as Validator;
    const pending = current.find((v) => v.validationStatus === 'pending') as Validator;
    const keys = [c.nodeId, UNKNOWN_NODE, a.nodeId, c.nodeId, subnetOnly.nodeId, completed.nodeId, a.nodeId, pending.nodeId];
    const m = await lc.measure(() => validatorByNodeId(lc.fresh(), 'mainnet').loadMany(keys));
    expect(m.result).toMatchObject([c, UNUSABLE, a, c, null, completed, a, pending]);
    expect(m.byRoute[E8]).toBe(1);
    // Repeated keys are sent once.
    // Only well-formed node ids go upstream (UNKNOWN_NODE has no valid checksum).
    expect((lc.paramsOf('listValidators')[0]?.nodeIds as string[]).length).toBe(new Set(keys.filter(isNodeId)).size);
  });

  it('keeps networks apart: one loader (and one listing) per network, in parallel', async () => {
    const m = byNode('mainnet', (primary.mainnet[3] as Validator).nodeId);
    const f = byNode('fuji', (primary.fuji[3] as Validator).nodeId);
    const ctx = lc.fresh();
    // The lookup picks from the request's node-validations loader, one per network.
    expect(nodeValidations(ctx, 'mainnet')).toBe(nodeValidations(ctx, 'mainnet'));
    expect(nodeValidations(ctx, 'mainnet')).not.toBe(nodeValidations(ctx, 'fuji'));
    const run = await lc.measure(() =>
      Promise.all([validatorByNodeId(ctx, 'mainnet').loadMany([m.nodeId, f.nodeId]), validatorByNodeId(ctx, 'fuji').loadMany([m.nodeId, f.nodeId])]),
    );
    expect(run.result).toEqual([
      [m, null],
      [null, f],
    ]);
    expect(run.byRoute[E8]).toBe(2);
    expect(run.rounds).toBe(1);
    expect(lc.calls.map((c) => c.args[0]).sort()).toEqual(['fuji', 'mainnet']);
  });
});

describe('validatorByNodeId with more than 1000 primary validations', () => {
  let big: Devnet;
  let blc: TestLoaderContext;
  let bigPrimary: Validator[];

  beforeAll(async () => {
    big = await startDevnet({ validators: 1300, now: () => NOW });
    blc = createLoaderContext(big);
    bigPrimary = await listValidators(blc.dataApi, 'mainnet', PRIMARY_NETWORK_ID);
  });

  afterAll(async () => {
    await blc?.close();
    await big?.close();
  });

  // A bare `NodeID-` (or any short prefix) would match every validation in E8's substring filter and
  // crowd out the chunk's real ids; the loader sends only well-formed node ids.
  it('a short prefix in the batch does not hide another key’s validator', async () => {
    expect(bigPrimary.length).toBeGreaterThan(1000);
    const last = currentOf(bigPrimary, (bigPrimary.at(-1) as Validator).nodeId);
    const m = await blc.measure(() => validatorByNodeId(blc.fresh(), 'mainnet').loadMany([last.nodeId, 'NodeID-']));
    expect(m.result).toMatchObject([last, UNUSABLE]);
  });
});

describe('validationByKey (refetch by identity)', () => {
  it('answers 60 keys over several subnets with one listing per subnet, in key order; unknown keys are null', async () => {
    // Validations of distinct nodes, so "another node's tx" below is another node's.
    const primaryKeys = oneEach(primary.mainnet).filter((_, i) => i % 5 === 0).slice(0, 44);
    const subnetVals = allMainnet.filter((v) => v.subnetId !== PRIMARY_NETWORK_ID).slice(0, 10);
    const keyOf = (v: Validator): ValidationKey => ({ nodeId: v.nodeId, subnetId: v.subnetId, txHash: v.txHash });
    const someone = primaryKeys[1] as Validator;
    const sub = subnetVals[0] as Validator;
    const unknown: ValidationKey[] = [
      { nodeId: someone.nodeId, subnetId: PRIMARY_NETWORK_ID, txHash: UNKNOWN_TX },
      { nodeId: UNKNOWN_NODE, subnetId: PRIMARY_NETWORK_ID, txHash: someone.txHash },
      // A real validation asked on the wrong subnet.
      { nodeId: sub.nodeId, subnetId: PRIMARY_NETWORK_ID, txHash: sub.txHash },
      { nodeId: someone.nodeId, subnetId: UNKNOWN_TX, txHash: someone.txHash },
      // Another node's tx.
      { nodeId: someone.nodeId, subnetId: PRIMARY_NETWORK_ID, txHash: (primaryKeys[2] as Validator).txHash },
    ];
    const known = [...primaryKeys, ...subnetVals];
    // Interleave known and unknown keys and repeat one.
    const keys: ValidationKey[] = [...known.map(keyOf)];
    unknown.forEach((k, i) => keys.splice(i * 9 + 1, 0, k));
    keys.push(keyOf(someone));
    expect(keys).toHaveLength(60);

    const m = await lc.measure(() => validationByKey(lc.fresh(), 'mainnet').loadMany(keys));
    const expected = keys.map((k) => known.find((v) => v.nodeId === k.nodeId && v.subnetId === k.subnetId && v.txHash === k.txHash) ?? null);
    expect(expected.filter((v) => v === null)).toHaveLength(unknown.length);
    expect(m.result).toEqual(expected);

    // A subnet id that is not one (the unknown key's) is never sent.
    const subnets = new Set(keys.map((k) => k.subnetId).filter(isCb58Id));
    expect(subnets.size).toBeLessThan(10);
    expect(m.byRoute[E8]).toBe(subnets.size);
    expect(m.rounds).toBe(1);
    expect(lc.paramsOf('listValidators').map((p) => p.subnetId).sort()).toEqual([...subnets].sort());
  });
});

describe('delegationByKey (refetch by identity)', () => {
  it('answers 60 keys from one E13 listing, in key order; unknown keys are null', async () => {
    // Small nodes, so their delegations together fit in one page (a node's list holds every time it validated).
    const perNode = new Map<string, number>();
    for (const v of primary.mainnet) perNode.set(v.nodeId, (perNode.get(v.nodeId) ?? 0) + (v.delegatorCount ?? 0));
    const nodes: Validator[] = [];
    let total = 0;
    for (const v of oneEach(primary.mainnet)) {
      const d = perNode.get(v.nodeId) ?? 0;
      if (d >= 2 && d <= 12 && total + d <= 100) {
        nodes.push(v);
        total += d;
      }
    }
    const delegations = (await listDelegators(nodes.map((v) => v.nodeId))).slice(0, 55);
    expect(delegations).toHaveLength(55);
    const [d0, d1] = delegations as [Delegator, Delegator];
    const other = nodes.find((v) => v.nodeId !== d0.nodeId) as Validator;
    const unknown = [
      { nodeId: d0.nodeId, txHash: UNKNOWN_TX },
      { nodeId: UNKNOWN_NODE, txHash: d0.txHash },
      // A real delegation under another node.
      { nodeId: other.nodeId, txHash: d0.txHash },
      { nodeId: d1.nodeId.slice(0, -3), txHash: d1.txHash },
    ];
    const keys = delegations.map((d) => ({ nodeId: d.nodeId, txHash: d.txHash })).reverse();
    unknown.forEach((k, i) => keys.splice(i * 11 + 3, 0, k));
    keys.push({ nodeId: d1.nodeId, txHash: d1.txHash });
    expect(keys).toHaveLength(60);

    const m = await lc.measure(() => delegationByKey(lc.fresh(), 'mainnet').loadMany(keys));
    expect(m.result).toEqual(keys.map((k) => delegations.find((d) => d.nodeId === k.nodeId && d.txHash === k.txHash) ?? null));
    expect(m.result.filter((d) => d === null)).toHaveLength(unknown.length);
    expect(m.byRoute[E13]).toBe(1);
    expect(m.rounds).toBe(1);
  });

  it('pages a busy node’s list until the delegation is found, one sequential call per page, and no further', async () => {
    const busy = devnet.dataset.fixtures().mainnet.busyNodeId;
    const all = await listDelegators([busy]);
    expect(all.length).toBeGreaterThan(300);
    const deep = all.at(-1) as Delegator;
    const pages = Math.ceil(all.length / 100);
    const m = await lc.measure(() => delegationByKey(lc.fresh(), 'mainnet').load({ nodeId: busy, txHash: deep.txHash }));
    expect(m.result).toEqual(deep);
    expect(m.byRoute[E13]).toBe(pages);
    expect(m.rounds).toBe(pages);

    // And stops at the page that completes the batch.
    const early = all[150] as Delegator;
    const second = await lc.measure(() => delegationByKey(lc.fresh(), 'mainnet').load({ nodeId: busy, txHash: early.txHash }));
    expect(second.result).toEqual(early);
    expect(second.byRoute[E13]).toBe(2);
  });

  // Busy validators batched together: their union listing runs past 2,000 items, so keys it leaves behind
  // are looked for node by node.
  it('finds a delegation that lies past 2000 items of the batch’s union listing', async () => {
    const whales = primary.mainnet
      .filter((v) => (v.delegatorCount ?? 0) > 300)
      .sort((a, b) => (b.delegatorCount ?? 0) - (a.delegatorCount ?? 0))
      .slice(0, 3);
    expect(whales.reduce((s, v) => s + (v.delegatorCount ?? 0), 0)).toBeGreaterThan(2000);
    // The union is served newest first: the oldest delegation is its last item.
    const oldest = (await api.listDelegators('mainnet', { nodeIds: whales.map((v) => v.nodeId), pageSize: 1, sortOrder: 'asc' })).delegators[0] as Delegator;
    const keys = [{ nodeId: oldest.nodeId, txHash: oldest.txHash }, ...whales.map((v) => ({ nodeId: v.nodeId, txHash: UNKNOWN_TX }))];
    const m = await lc.measure(() => delegationByKey(lc.fresh(), 'mainnet').loadMany(keys));
    expect(m.result[0]).toEqual(oldest);
  });
});
