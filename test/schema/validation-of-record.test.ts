import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRIMARY_NETWORK_ID, type Delegator, type Validator } from '../../src/shapes/index.ts';
import { startStack, type GraphQLResponse, type TestStack } from '../helpers/stack.ts';

/**
 * Every link picks the record's own validation (`src/loaders/validation-links.ts`), on a
 * devnet node that validated several times: `PrimaryTransaction.validator` of a staking
 * tx answers the validation it adds, of a delegation the one holding its start;
 * `Block.proposer` the proposer's validation holding the block's time. And the current-
 * validation lookup (`Network.validator(nodeId:)`) reads the same listing as the links.
 */

const LISTING = 'GET /v1/networks/{network}/validators';
const DIRECT = 'GET /v1/networks/{network}/validators/{nodeId}';
/** Pinned, so validations do not start or end by the clock while the test reads them. */
const NOW = Date.now();

interface Cost {
  estimatedUpstreamCalls: number;
  actualUpstreamCalls: number;
}
type Data = Record<string, unknown>;

let stack: TestStack;
/** A node that validated several times, active now (so it proposes blocks), with earlier completed validations. */
let node: string;
/** Its primary-network validations, oldest first. */
let history: Validator[];
/** Its delegations, with the add-validator tx of the validation each was made to (from the generated records). */
let delegations: { delegation: Delegator; validationTx: string }[];
/** Another node with several validations, for the shared-listing test. */
let other: string;

const primaryOf = (nodeId: string): Validator[] => stack.devnet.dataset.primary.mainnet.validationsOf(nodeId).filter((v) => v.subnetId === PRIMARY_NETWORK_ID);

/** Runs `query` from fresh devnet counters: the answer, its `extensions.cost` and the requests by route. */
async function counted<D = Data>(query: string, variables?: Record<string, unknown>) {
  stack.devnet.resetStats();
  const res: GraphQLResponse<D> = await stack.query<D>(query, variables);
  expect(res.errors).toBeUndefined();
  return { data: res.data as D, cost: res.extensions?.['cost'] as Cost, byRoute: stack.devnet.stats().byRoute };
}

beforeAll(async () => {
  stack = await startStack({ devnet: { now: () => NOW } });
  const mainnet = stack.devnet.dataset.primary.mainnet;
  const delegationsOf = (nodeId: string) =>
    mainnet.listDelegators({ nodeIds: [nodeId], sortOrder: 'asc' }, 0, 10_000).items.filter((d) => d.nodeId === nodeId);
  // Among the active proposers, a node with completed validations before its current one, whose delegations
  // belong to at least two of its validations (the seeded dataset has such nodes: see revalidation.ts).
  const candidates = mainnet.activeValidatorNodeIds().filter((n) => {
    const own = primaryOf(n);
    return own.length >= 3 && own.filter((v) => v.validationStatus === 'completed').length >= 2;
  });
  const chosen = candidates.find((n) => new Set(delegationsOf(n).map((d) => mainnet.validationTxOfDelegation(d.txHash))).size >= 2) ?? candidates[0];
  if (!chosen) throw new Error('the devnet has no active node with two completed earlier validations');
  node = chosen;
  history = primaryOf(node);
  delegations = delegationsOf(node).map((delegation) => ({ delegation, validationTx: mainnet.validationTxOfDelegation(delegation.txHash) as string }));
  other = candidates.find((n) => n !== node) as string;
});

afterAll(async () => {
  await stack?.close();
});

describe('PrimaryTransaction.validator: the validation the transaction belongs to', () => {
  it("answers each add-validator tx with the validation whose txHash is the tx's, from one read of the node", async () => {
    expect(history.length).toBeGreaterThanOrEqual(3);
    const aliases = history.map((v, i) => `t${i}: transaction(txHash: "${v.txHash}") { txHash ... on PChainTransaction { txType nodeId validator { txHash validationStatus startTimestamp } } }`);
    const { data, cost, byRoute } = await counted<{ network: { blockchain: Record<string, Data> } }>(
      `{ network(name: MAINNET) { blockchain(id: "p-chain") { ${aliases.join(' ')} } } }`,
    );
    history.forEach((v, i) => {
      const tx = data.network.blockchain[`t${i}`] as { txType: string; nodeId: string; validator: { txHash: string; validationStatus: string } };
      expect(tx.txType).toBe('ADD_PERMISSIONLESS_VALIDATOR_TX');
      expect(tx.nodeId).toBe(node);
      expect(tx.validator.txHash, `validation ${i} of ${history.length}`).toBe(v.txHash);
      expect(tx.validator.validationStatus).toBe(v.validationStatus?.toUpperCase());
    });
    // Completed ones and the current one: not all answers are the node's current validation.
    expect(new Set(history.map((v) => v.validationStatus))).toContain('completed');
    // One node: its own validations read once (directly), whatever the number of transactions.
    expect((byRoute[LISTING] ?? 0) + (byRoute[DIRECT] ?? 0)).toBe(1);
    expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  });

  it('answers a reward transaction with the validation it rewards (its stakingTxHash)', async () => {
    const completed = history.filter((v) => v.validationStatus === 'completed');
    const staking = await counted<{ network: { blockchain: Record<string, { rewardTxHash: string | null }> } }>(
      `{ network(name: MAINNET) { blockchain(id: "p-chain") { ${completed.map((v, i) => `s${i}: transaction(txHash: "${v.txHash}") { ... on PChainTransaction { rewardTxHash } }`).join(' ')} } } }`,
    );
    const rewards = completed.map((_, i) => staking.data.network.blockchain[`s${i}`]?.rewardTxHash as string);
    expect(rewards.every(Boolean)).toBe(true);
    const { data } = await counted<{ network: { blockchain: Record<string, { txType: string; stakingTxHash: string; validator: { txHash: string } | null }> } }>(
      `{ network(name: MAINNET) { blockchain(id: "p-chain") { ${rewards.map((h, i) => `r${i}: transaction(txHash: "${h}") { ... on PChainTransaction { txType stakingTxHash validator { txHash } } }`).join(' ')} } } }`,
    );
    completed.forEach((v, i) => {
      const reward = data.network.blockchain[`r${i}`];
      expect(reward?.txType).toBe('REWARD_VALIDATOR_TX');
      expect(reward?.stakingTxHash).toBe(v.txHash);
      expect(reward?.validator?.txHash).toBe(v.txHash);
    });
  });

  it('answers a delegation with the validation of its node whose period holds its start, across several validations', async () => {
    expect(delegations.length).toBeGreaterThan(0);
    // At most 20 delegations, from as many of the node's validations as they reach.
    const picked = [...new Map(delegations.map((d) => [d.validationTx, d])).values(), ...delegations].slice(0, 20);
    const aliases = picked.map((d, i) => `d${i}: transaction(txHash: "${d.delegation.txHash}") { ... on PChainTransaction { txType startTimestamp validator { txHash } } }`);
    const { data, byRoute } = await counted<{ network: { blockchain: Record<string, Data> } }>(`{ network(name: MAINNET) { blockchain(id: "p-chain") { ${aliases.join(' ')} } } }`);
    picked.forEach((d, i) => {
      const tx = data.network.blockchain[`d${i}`] as { txType: string; validator: { txHash: string } | null };
      expect(tx.txType).toBe('ADD_PERMISSIONLESS_DELEGATOR_TX');
      expect(tx.validator?.txHash, d.delegation.txHash).toBe(d.validationTx);
    });
    const reached = new Set(picked.map((d) => d.validationTx));
    console.info(`[validation-of-record] ${node}: ${history.length} validations, ${delegations.length} delegations in ${reached.size} of them`);
    expect((byRoute[LISTING] ?? 0) + (byRoute[DIRECT] ?? 0)).toBe(1);
  });
});

describe('Block.proposer: the validation holding the block time', () => {
  it("answers a block of each of the node's validations with that validation", async () => {
    // The devnet's proposers take turns among the validators active now, at every height: so a block
    // inside an earlier validation's period proposed by this node exists, and its proposer is that record.
    const now = Math.floor(NOW / 1000);
    const aliases = history.map(
      (v, i) =>
        `v${i}: proposedBlocks(chain: "p-chain", startTimestamp: "${v.startTimestamp}", endTimestamp: "${Math.min(Number(v.endTimestamp), now)}", first: 2) { edges { node { blockTimestamp proposerDetails { proposerNodeId } proposer { txHash nodeId } } } }`,
    );
    const { data, cost } = await counted<{ network: { validator: Record<string, { edges: { node: Data }[] }> } }>(
      `query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { txHash ${aliases.join(' ')} } } }`,
      { n: node },
    );
    let blocks = 0;
    history.forEach((v, i) => {
      const edges = data.network.validator[`v${i}`]?.edges ?? [];
      expect(edges.length, `blocks in validation ${i}`).toBeGreaterThan(0);
      for (const { node: b } of edges) {
        const block = b as { blockTimestamp: string; proposerDetails: { proposerNodeId: string }; proposer: { txHash: string; nodeId: string } };
        expect(block.proposerDetails.proposerNodeId).toBe(node);
        expect(Number(block.blockTimestamp)).toBeGreaterThanOrEqual(Number(v.startTimestamp));
        expect(Number(block.blockTimestamp)).toBeLessThanOrEqual(Number(v.endTimestamp));
        expect(block.proposer.txHash, `block at ${block.blockTimestamp}`).toBe(v.txHash);
        blocks++;
      }
    });
    expect(blocks).toBeGreaterThanOrEqual(history.length);
    expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  });

  it('answers null for a block of the node outside every validation of its', async () => {
    // Between two validations of the node (they never overlap) the devnet still has it propose.
    const gap = history.findIndex((v, i) => i > 0 && Number(v.startTimestamp) - Number((history[i - 1] as Validator).endTimestamp) > 3600);
    expect(gap, 'a pause of more than an hour between two validations of the node').toBeGreaterThan(0);
    const start = Number((history[gap - 1] as Validator).endTimestamp) + 1;
    const end = Number((history[gap] as Validator).startTimestamp) - 1;
    const { data } = await counted<{ network: { validator: { proposedBlocks: { edges: { node: { proposer: unknown } }[] } } } }>(
      `query($n: String!) { network(name: MAINNET) { validator(nodeId: $n) { proposedBlocks(chain: "p-chain", startTimestamp: "${start}", endTimestamp: "${end}", first: 1) { edges { node { proposer { txHash } } } } } } }`,
      { n: node },
    );
    const edges = data.network.validator.proposedBlocks.edges;
    expect(edges.length).toBe(1);
    expect(edges[0]?.node.proposer).toBeNull();
  });
});

describe('the current-validation lookup and the links share one listing', () => {
  it('Network.validator(nodeId:) and PrimaryTransaction.validator / Delegator.validator of the same nodes make ONE validators listing', async () => {
    const mainnet = stack.devnet.dataset.primary.mainnet;
    const nodes = [node, other];
    const oldest = nodes.map((n) => primaryOf(n)[0] as Validator);
    const query = `{ network(name: MAINNET) {
      c0: validator(nodeId: "${node}") { txHash validationStatus }
      c1: validator(nodeId: "${other}") { txHash validationStatus }
      delegators(filter: { nodeIds: ["${node}", "${other}"] }, first: 20) { edges { node { txHash nodeId validator { txHash } } } }
      blockchain(id: "p-chain") {
        t0: transaction(txHash: "${(oldest[0] as Validator).txHash}") { ... on PChainTransaction { validator { txHash } } }
        t1: transaction(txHash: "${(oldest[1] as Validator).txHash}") { ... on PChainTransaction { validator { txHash } } }
      } } }`;
    const { data, cost, byRoute } = await counted<{ network: Record<string, Data> }>(query);
    const net = data.network;
    // The current validation is the lookup's rule (active, else pending, else the latest completed) ...
    nodes.forEach((n, i) => {
      const current = primaryOf(n).find((v) => v.validationStatus === 'active') as Validator;
      expect((net[`c${i}`] as { txHash: string }).txHash).toBe(current.txHash);
    });
    // ... while the links answer each record's own validation, from the same listing.
    const blockchain = net['blockchain'] as Record<string, { validator: { txHash: string } }>;
    oldest.forEach((v, i) => expect(blockchain[`t${i}`]?.validator.txHash).toBe(v.txHash));
    const delegators = (net['delegators'] as { edges: { node: { txHash: string; validator: { txHash: string } } }[] }).edges;
    expect(delegators.length).toBeGreaterThan(0);
    for (const { node: d } of delegators) expect(d.validator.txHash).toBe(mainnet.validationTxOfDelegation(d.txHash));

    expect(byRoute[LISTING]).toBe(1);
    expect(byRoute[DIRECT]).toBeUndefined();
    expect(cost.actualUpstreamCalls).toBeLessThanOrEqual(cost.estimatedUpstreamCalls);
  });
});
