import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/server.ts';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { DigestPart } from '../../src/lib/global-id.ts';
import { decodeGlobalId } from '../../src/schema/relay-node.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { editingJson, startRewritingProxy, type RewritingProxy } from '../helpers/rewriting-proxy.ts';
import type { GraphQLResponse } from '../helpers/stack.ts';

/**
 * Upstream data is never the caller's fault. A proxy in front of the devnet rewrites one field of
 * one object of one answer (a chain's `chainId`, a delegation's `nodeId`, a validation's
 * `subnetId`, ...) to a value the real spec allows (any string) but no grammar of chaingraph
 * accepts. The link that uses the value must fail with UPSTREAM_PROTOCOL_ERROR naming the field,
 * or be null; no error anywhere may be BAD_USER_INPUT (the caller sent nothing wrong); and every id
 * in the answer, those built from the odd value included, must come back through `node(id:)` and
 * `nodes(ids:)` without BAD_USER_INPUT.
 */

type Json = unknown;
type Edit = (path: string, body: Json) => void;
type Response = GraphQLResponse<Record<string, unknown>>;

/** Values the spec allows in a string field that no id grammar takes: empty, separators, `%`, spaces, emoji, long, a lone surrogate. */
const ODD_VALUES = ['', 'a/b', 'a b', '50%', '..', 'a:b|c', 'NodeID-💥', 'x'.repeat(300), '\ud800', 'string'];

/** The first object holding `key` at any depth, in document order. */
function firstHolder(node: Json, key: string): Record<string, unknown> | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (!Array.isArray(node) && key in node) return node as Record<string, unknown>;
  for (const value of Object.values(node as Record<string, unknown>)) {
    const found = firstHolder(value, key);
    if (found) return found;
  }
  return undefined;
}

/**
 * Sets `key` in the first item of the list `list` (at any depth in it) in the answers of routes matching
 * `route`: one field of one object (the first entry of it, for a list of strings).
 */
const rewrite = (route: RegExp, list: string, key: string, value: string): Edit => (path, body) => {
  if (!route.test(path) || body === null || typeof body !== 'object') return;
  const items = (body as Record<string, unknown>)[list];
  const holder = Array.isArray(items) ? firstHolder(items[0], key) : undefined;
  if (!holder) return;
  const current = holder[key];
  holder[key] = Array.isArray(current) ? [value, ...current.slice(1)] : value;
  rewritten += 1;
};

interface Case {
  name: string;
  route: RegExp;
  list: string;
  key: string;
  query: string;
  /** Where the link that uses the value is, in the answer; it must be null, or fail (it or its list) with UPSTREAM_PROTOCOL_ERROR. */
  link: string;
  /** The link must fail (not be null) with `upstreamField` equal to this, for every odd value (but the empty one, when `emptyIsAbsent`). */
  failsWith?: string;
  /** An empty value reads as an absent one, and the link is null. */
  emptyIsAbsent?: boolean;
  /** The object whose id is built from the value, when one is: at least one id in the answer holds the value. */
  idPart?: boolean;
}

const CASES: Case[] = [
  {
    name: "a chain's chainId, used as a path parameter by Chain.blocks",
    route: /\/v1\/chains$/,
    list: 'chains',
    key: 'chainId',
    query: '{ chains { id blocks(first: 1) { edges { node { id } } } } }',
    link: 'chains.0.blocks',
    failsWith: 'chainId',
    idPart: true,
  },
  {
    name: "a delegation's nodeId, used by Delegator.validator",
    route: /\/delegators$/,
    list: 'delegators',
    key: 'nodeId',
    query: '{ network(name: MAINNET) { delegators(first: 2) { edges { node { id validator { id } } } } } }',
    link: 'network.delegators.edges.0.node.validator',
    failsWith: 'nodeId',
    idPart: true,
  },
  {
    name: "a validation's nodeId, used by Validator.peer (a node's info.peers)",
    route: /\/validators$/,
    list: 'validators',
    key: 'nodeId',
    query: '{ network(name: MAINNET) { validators(first: 2) { edges { node { id peer { nodeID } } } } } }',
    link: 'network.validators.edges.0.node.peer',
    failsWith: 'nodeId',
    idPart: true,
  },
  {
    name: "a validation's subnetId, used by Validator.subnet",
    route: /\/validators$/,
    list: 'validators',
    key: 'subnetId',
    query: '{ network(name: MAINNET) { validators(first: 2) { edges { node { id subnet { id } } } } } }',
    link: 'network.validators.edges.0.node.subnet',
    idPart: true,
  },
  {
    name: "a subnet's subnetId, used by Subnet.validators",
    route: /\/subnets$/,
    list: 'subnets',
    key: 'subnetId',
    query: '{ network(name: MAINNET) { subnets(first: 2) { edges { node { id validators(first: 1) { edges { node { id } } } } } } } }',
    link: 'network.subnets.edges.0.node.validators',
    failsWith: 'subnetId',
    idPart: true,
  },
  {
    name: "a block's proposerNodeId, used by Block.proposer",
    route: /\/blockchains\/[^/]+\/blocks$/,
    list: 'blocks',
    key: 'proposerNodeId',
    query: '{ network(name: MAINNET) { blockchain(id: "p-chain") { blocks(first: 2) { edges { node { id proposer { id } } } } } } }',
    link: 'network.blockchain.blocks.edges.0.node.proposer',
    failsWith: 'nodeId',
    emptyIsAbsent: true,
  },
  {
    name: "a block's transaction id, used by Block.transactionDetails",
    route: /\/blockchains\/[^/]+\/blocks$/,
    list: 'blocks',
    key: 'transactions',
    // The X-chain: every block of it has transactions (a P-chain commit block has none).
    query: '{ network(name: MAINNET) { blockchain(id: "x-chain") { blocks(first: 2) { edges { node { id transactionDetails(first: 2) { id } } } } } } }',
    link: 'network.blockchain.blocks.edges.0.node.transactionDetails.0',
  },
];

let devnet: Devnet;
let proxy: RewritingProxy;
let gateway: Gateway;
let edit: Edit | undefined;
/** Fields rewritten since the last reset: each case must have rewritten one, or it tests nothing. */
let rewritten = 0;

beforeAll(async () => {
  devnet = await startDevnet({ validators: 50 });
  proxy = await startRewritingProxy(devnet.url, editingJson(() => edit));
  const url = proxy.url;
  // The nodes are the devnet's own: only Data API answers are rewritten.
  const nodes = Object.entries(devnet.nodeUrls).map(([name, nodeUrl]) => createNodeClient({ name, url: nodeUrl }));
  gateway = createGateway({ graphiql: false }, { dataApi: createDataApiClient({ baseUrl: url }), nodes });
});
afterEach(() => {
  edit = undefined;
});
afterAll(async () => {
  await gateway.dispose();
  await proxy.close();
  await devnet.close();
});

async function run(query: string, variables: Record<string, unknown> = {}): Promise<Response> {
  const res = await gateway.fetch('http://test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as Response;
}

/** Every `id` in an answer. */
function idsIn(node: Json, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const item of node) idsIn(item, out);
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'id' && typeof value === 'string') out.push(value);
      else idsIn(value, out);
    }
  }
  return out;
}

function at(data: Json, path: string): Json {
  let node = data;
  for (const step of path.split('.')) node = node === null || typeof node !== 'object' ? undefined : (node as Record<string, unknown>)[step];
  return node;
}

/** No error is the caller's, and every error is coded. */
function expectNoCallerBlame(result: Response, what: string): void {
  for (const error of result.errors ?? []) {
    expect(error.extensions?.['code'], `${what}: ${error.message}`).toBeTypeOf('string');
    expect(error.extensions?.['code'], `${what}: ${error.message}`).not.toBe('BAD_USER_INPUT');
  }
}

const tally = { queries: 0, linkErrors: 0, linkNulls: 0, ids: 0, oddIds: 0, oddIdsNull: 0 };

describe('values read from upstream answers', () => {
  afterAll(() => {
    console.info(`upstream-blame: ${JSON.stringify(tally)}`);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s: the link is UPSTREAM_PROTOCOL_ERROR or null, never BAD_USER_INPUT', async (_name, c) => {
    // Unedited, the link answers: the rewrite is what the test is about.
    const clean = await run(c.query);
    expect(clean.errors, JSON.stringify(clean.errors)).toBeUndefined();
    expect(at(clean.data, c.link), `${c.link} without a rewrite`).not.toBeUndefined();

    for (const value of ODD_VALUES) {
      const shown = `${c.name} = ${JSON.stringify(value).slice(0, 40)}`;
      edit = rewrite(c.route, c.list, c.key, value);
      rewritten = 0;
      const result = await run(c.query);
      edit = undefined;
      expect(rewritten, `${shown}: the proxy rewrote nothing`).toBeGreaterThan(0);
      tally.queries += 1;
      expectNoCallerBlame(result, shown);
      // An error of the link, or of the list holding it (a list field that fails as a whole).
      const linkErrors = (result.errors ?? []).filter((e) => e.path !== undefined && `${c.link}.`.startsWith(`${e.path.join('.')}.`));
      const mustFail = c.failsWith !== undefined && !(c.emptyIsAbsent && value === '');
      if (linkErrors.length > 0) {
        tally.linkErrors += 1;
        for (const error of linkErrors) {
          expect(error.extensions?.['code'], `${shown}: ${error.message}`).toBe('UPSTREAM_PROTOCOL_ERROR');
          if (c.failsWith) expect(error.extensions?.['upstreamField'], shown).toBe(c.failsWith);
        }
      } else {
        expect(mustFail, `${shown}: the link answered instead of failing`).toBe(false);
        expect(at(result.data, c.link), `${shown}: the link must be null`).toBeNull();
        tally.linkNulls += 1;
      }

      // Every id of the answer comes back: one by one, and all at once.
      const ids = [...new Set(idsIn(result.data))];
      expect(ids.length, shown).toBeGreaterThan(0);
      tally.ids += ids.length;
      const odd = ids.filter((id) => decodeGlobalId(id).parts.some((part) => part === value || part instanceof DigestPart));
      if (c.idPart) expect(odd.length, `${shown}: an id built from the value`).toBeGreaterThan(0);
      tally.oddIds += odd.length;
      for (const id of odd) {
        const refetched = await run('query($id: ID!) { node(id: $id) { id } }', { id });
        expectNoCallerBlame(refetched, `${shown}: node(id: ${id})`);
        // No grammar takes the value, so no lookup can be made: null, without an error.
        expect(refetched.errors, shown).toBeUndefined();
        expect(refetched.data?.['node'], shown).toBeNull();
        tally.oddIdsNull += 1;
      }
      for (let i = 0; i < ids.length; i += 100) {
        const batch = await run('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: ids.slice(i, i + 100) });
        expectNoCallerBlame(batch, `${shown}: nodes(ids:)`);
      }
    }
  });
});

describe('values a caller sends', () => {
  it('keep BAD_USER_INPUT: the same grammar, on an argument, is the caller\'s', async () => {
    const result = await run('{ chain(chainId: "a/b") { id } network(name: MAINNET) { validator(nodeId: "NodeID-💥") { id } } }');
    const codes = (result.errors ?? []).map((e) => e.extensions?.['code']);
    expect(codes.length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(['BAD_USER_INPUT']));
  });
});
