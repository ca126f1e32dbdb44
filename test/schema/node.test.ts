import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { nodeHealthPolling } from '../../src/loaders/node-health.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

// AvalancheNode, Peer and Validator.peer through GraphQL, against the devnet's
// simulated mainnet (root /ext) and fuji (/nodes/fuji/ext) nodes over real HTTP.

const PRIMARY = '11111111111111111111111111111111LpoYY';
const MAINNET_X = '2oYMBNV4eNHyqk2fjjV5nVQLDbtmNJzq5s3qs3Lo6ftnC6FByM';
const FUJI_X = '2JVSBoinj9C2J33VntvzYtVJNZdN2NKiwwKjcumHUWEb5DbBrm';

let stack: TestStack;
const routes = () => stack.devnet.stats().byRoute;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});
beforeEach(() => {
  stack.devnet.resetStats();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are walked by path in assertions
type Data = Record<string, any>;

async function ok(query: string, variables?: Record<string, unknown>): Promise<Data> {
  const result = await stack.query<Data>(query, variables);
  expect(result.errors).toBeUndefined();
  return result.data as Data;
}

describe('Query.avalancheNode / avalancheNodes', () => {
  it('lists the configured nodes by name and picks the first by default; an unknown name is NODE_NOT_CONFIGURED', async () => {
    const data = await ok('{ avalancheNodes { name } first: avalancheNode { name } fuji: avalancheNode(name: "fuji") { name } }');
    expect(data.avalancheNodes).toEqual([{ name: 'mainnet' }, { name: 'fuji' }]);
    expect(data.first).toEqual({ name: 'mainnet' });
    expect(data.fuji).toEqual({ name: 'fuji' });
    const nope = await stack.query('{ avalancheNode(name: "nope") { name } }');
    expect(nope.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_NOT_CONFIGURED', argumentName: 'name', configured: ['mainnet', 'fuji'] });
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('refetches an AvalancheNode by its global id, and answers null for a node that is not configured', async () => {
    const { avalancheNode } = await ok('{ avalancheNode(name: "fuji") { id } }');
    const data = await ok('query ($id: ID!) { node(id: $id) { id __typename ... on AvalancheNode { name networkName } } }', { id: avalancheNode.id });
    expect(data.node).toEqual({ id: avalancheNode.id, __typename: 'AvalancheNode', name: 'fuji', networkName: 'fuji' });
    const foreign = Buffer.from(JSON.stringify(['AvalancheNode', 'elsewhere'])).toString('base64url');
    expect((await ok('query ($id: ID!) { node(id: $id) { id } }', { id: foreign })).node).toBeNull();
  });

  it('never exposes a node URL', async () => {
    const result = await stack.query('{ avalancheNode { url } }');
    expect(result.errors?.[0]?.message).toMatch(/Cannot query field "url"/);
  });
});

describe('AvalancheNode info fields', () => {
  it('reads every info method from that node', async () => {
    const data = await ok(`{
      mainnet: avalancheNode(name: "mainnet") { ...info x: blockchainId(alias: "X") }
      fuji: avalancheNode(name: "fuji") { ...info x: blockchainId(alias: "X") }
    }
    fragment info on AvalancheNode {
      nodeId nodePOP { publicKey proofOfPossession } ip
      version { version databaseVersion gitCommit rpcProtocolVersion vmVersions { name version } }
      networkId networkName
      bootstrappedX: isBootstrapped(chain: "X") unknownChain: isBootstrapped(chain: "nope")
      unknownAlias: blockchainId(alias: "nope")
      txFee { txFee createAssetTxFee createSubnetTxFee transformSubnetTxFee createBlockchainTxFee addPrimaryNetworkValidatorFee addPrimaryNetworkDelegatorFee addSubnetValidatorFee addSubnetDelegatorFee }
      vms { vmId aliases } fxs { fxId name }
      uptime { rewardingStakePercentage weightedAveragePercentage }
      upgrades { apricotPhase1Time apricotPhase4MinPChainHeight banffTime cortinaXChainStopVertexID durangoTime etnaTime fortunaTime graniteTime graniteEpochDuration heliconTime }
      acps { acpNumber supportWeight supporters objectWeight objectors abstainWeight }
    }`);
    const { mainnet, fuji } = data;
    expect(mainnet.networkId).toBe(1);
    expect(mainnet.networkName).toBe('mainnet');
    expect(fuji.networkId).toBe(5);
    expect(fuji.networkName).toBe('fuji');
    expect(mainnet.x).toBe(MAINNET_X);
    expect(fuji.x).toBe(FUJI_X);
    expect(mainnet.nodeId).not.toBe(fuji.nodeId);
    for (const node of [mainnet, fuji]) {
      expect(node.nodeId).toMatch(/^NodeID-/);
      expect(node.nodePOP.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
      expect(node.nodePOP.proofOfPossession).toMatch(/^0x[0-9a-f]{192}$/);
      expect(node.ip).toMatch(/^\d+\.\d+\.\d+\.\d+:\d+$/);
      expect(node.version).toMatchObject({ version: 'avalanchego/1.14.2', databaseVersion: 'v1.4.5', rpcProtocolVersion: '45' });
      expect(node.version.vmVersions.map((v: Data) => v.name)).toEqual(['avm', 'evm', 'platform']);
      expect(node.bootstrappedX).toBe(true);
      expect(node.unknownChain).toBeNull();
      expect(node.unknownAlias).toBeNull();
      expect(node.txFee.txFee).toBe('1000000');
      expect(Object.values(node.txFee).every((v) => typeof v === 'string')).toBe(true);
      expect(node.vms.flatMap((v: Data) => v.aliases)).toEqual(expect.arrayContaining(['avm', 'evm', 'platform']));
      expect(node.fxs.map((f: Data) => f.name).sort()).toEqual(['nftfx', 'propertyfx', 'secp256k1fx']);
      expect(node.uptime.rewardingStakePercentage).toBeGreaterThan(90);
      expect(typeof node.uptime.weightedAveragePercentage).toBe('number');
      expect(node.upgrades.banffTime).toMatch(/^20\d\d-/);
      expect(node.upgrades.graniteEpochDuration).toBe('300000000000');
      expect(node.upgrades.heliconTime).toBe('9999-12-01T00:00:00Z');
      expect(node.acps.length).toBeGreaterThan(0);
      const numbers = node.acps.map((a: Data) => a.acpNumber);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
      expect(node.acps[0]).toMatchObject({ supportWeight: expect.stringMatching(/^\d+$/), abstainWeight: '0' });
    }
    expect(mainnet.txFee.createSubnetTxFee).toBe('1000000000');
    expect(fuji.txFee.createSubnetTxFee).toBe('100000000');
    expect(mainnet.upgrades.apricotPhase4MinPChainHeight).toBe('793005');
    expect(mainnet.upgrades.banffTime).not.toBe(fuji.upgrades.banffTime);
  });

  it('marks txFee deprecated in the schema', async () => {
    const data = await ok('{ __type(name: "AvalancheNode") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
    const txFee = data.__type.fields.find((f: Data) => f.name === 'txFee');
    expect(txFee).toMatchObject({ isDeprecated: true, deprecationReason: expect.stringMatching(/deprecated/) });
  });

  it('calls each node method once per request: nodeId, nodePOP and validator share one info.getNodeID', async () => {
    const data = await ok('{ avalancheNode { nodeId nodePOP { publicKey } again: nodeId validator { nodeId validationStatus } } }');
    expect(data.avalancheNode.validator.nodeId).toBe(data.avalancheNode.nodeId);
    expect(routes()['POST info.getNodeID']).toBe(1);
    // One node: its validation is read directly (getSingleValidatorDetails).
    expect(routes()['GET /v1/networks/{network}/validators/{nodeId}']).toBe(1);
  });

  it("links each node to its own validation, in the node's network by default", async () => {
    const data = await ok('{ avalancheNodes { nodeId validator { nodeId network } onMainnet: validator(network: MAINNET) { nodeId } } }');
    const [mainnet, fuji] = data.avalancheNodes;
    expect(mainnet.validator).toEqual({ nodeId: mainnet.nodeId, network: 'mainnet' });
    expect(fuji.validator).toEqual({ nodeId: fuji.nodeId, network: 'fuji' });
    expect(fuji.onMainnet).toBeNull();
  });

  it('reads the uptime of a subnet the node tracks', async () => {
    // The P-chain health check reports `<subnetId>-percentConnected` for each tracked subnet.
    const health = await ok('{ avalancheNode(name: "fuji") { health { checks { name message } } } }');
    const vm = health.avalancheNode.health.checks.find((c: Data) => c.name === 'P').message.engine.vm as Record<string, number>;
    const subnetId = Object.keys(vm).map((k) => k.replace(/-percentConnected$/, '')).find((k) => k !== 'primary');
    expect(subnetId).toBeDefined();
    const data = await ok('query ($s: String) { avalancheNode(name: "fuji") { uptime(subnetId: $s) { rewardingStakePercentage weightedAveragePercentage } } }', { s: subnetId });
    expect(data.avalancheNode.uptime.rewardingStakePercentage).toBeGreaterThan(90);
  });

  it('rejects an empty chain or alias before any call', async () => {
    for (const [query, argument] of [
      ['{ avalancheNode { isBootstrapped(chain: "") } }', 'chain'],
      ['{ avalancheNode { blockchainId(alias: " ") } }', 'alias'],
      ['{ avalancheNode { chainAliases(chain: "") } }', 'chain'],
    ] as const) {
      const result = await stack.query(query);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: argument });
    }
    expect(stack.upstreamRequests()).toBe(0);
  });

  it('surfaces a node JSON-RPC error as NODE_RPC_ERROR on that field only', async () => {
    // The fuji node does not track a random subnet: info.uptime answers -32000.
    const result = await stack.query<Data>(`{ avalancheNode(name: "fuji") { name uptime(subnetId: "${MAINNET_X}") { rewardingStakePercentage } } }`);
    expect(result.data?.avalancheNode).toEqual({ name: 'fuji', uptime: null });
    expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'NODE_RPC_ERROR', upstream: 'node:fuji', rpcCode: -32000 });
    expect(result.errors?.[0]?.message).toMatch(/subnet is not tracked/);
  });
});

describe('AvalancheNode health', () => {
  it('reads health, readiness and liveness over JSON-RPC, with tags', async () => {
    const data = await ok(`{ avalancheNode {
      health { ...report }
      primary: health(tags: ["${PRIMARY}"]) { ...report }
      readiness { ...report }
      liveness { ...report }
    } }
    fragment report on HealthReport { healthy checks { name passing message error timestamp duration contiguousFailures timeOfFirstFailure } }`);
    const node = data.avalancheNode;
    const names = (r: Data) => r.checks.map((c: Data) => c.name);
    expect(names(node.health)).toEqual(expect.arrayContaining(['C', 'P', 'X', 'bootstrapped', 'database', 'network', 'router']));
    expect(names(node.health)).toEqual([...names(node.health)].sort());
    expect(node.health.healthy).toBe(node.health.checks.every((c: Data) => c.passing));
    // The primary network's tag keeps P/X/C and the application checks, and drops the subnet chains.
    expect(names(node.primary).length).toBeLessThan(names(node.health).length);
    expect(names(node.primary)).toEqual(expect.arrayContaining(['C', 'P', 'X', 'network']));
    expect(names(node.readiness)).toEqual(['bootstrapped']);
    expect(node.liveness).toEqual({ healthy: true, checks: [] });
    const network = node.health.checks.find((c: Data) => c.name === 'network');
    expect(network).toMatchObject({ passing: true, error: null, contiguousFailures: 0, timeOfFirstFailure: null, duration: expect.stringMatching(/^\d+$/) });
    expect(network.message.connectedPeers).toBeGreaterThan(0);
    for (const failing of node.health.checks.filter((c: Data) => !c.passing)) {
      expect(failing.error).toEqual(expect.any(String));
      expect(failing.contiguousFailures).toBeGreaterThan(0);
      expect(failing.timeOfFirstFailure).toEqual(expect.any(String));
    }
    expect(routes()).toMatchObject({ 'POST health.health': 2, 'POST health.readiness': 1, 'POST health.liveness': 1 });
  });

  it('reads the GET endpoints with their HTTP status and repeated tag parameters', async () => {
    const data = await ok(`{ avalancheNode(name: "fuji") {
      default: healthStatus { ...status }
      health: healthStatus(path: HEALTH, tags: ["${PRIMARY}", "other"]) { ...status }
      readiness: healthStatus(path: READINESS) { ...status }
      liveness: healthStatus(path: LIVENESS) { ...status }
    } }
    fragment status on HealthStatus { httpStatus report { healthy checks { name } } }`);
    const node = data.avalancheNode;
    for (const status of [node.default, node.health, node.readiness, node.liveness]) {
      expect(status.httpStatus).toBe(status.report.healthy ? 200 : 503);
    }
    expect(node.health.report.checks.length).toBeLessThanOrEqual(node.default.report.checks.length);
    expect(node.health.report.checks.map((c: Data) => c.name)).toEqual(expect.arrayContaining(['P', 'X', 'C']));
    expect(node.readiness.report.checks).toEqual([{ name: 'bootstrapped' }]);
    expect(node.liveness).toEqual({ httpStatus: 200, report: { healthy: true, checks: [] } });
    expect(routes()).toMatchObject({ 'GET /ext/health': 2, 'GET /ext/health/readiness': 1, 'GET /ext/health/liveness': 1 });
  });
});

describe('AvalancheNode.peers', () => {
  const PAGE = `query ($first: Int, $after: String, $nodeIds: [String!], $node: String) {
    avalancheNode(name: $node) { peers(first: $first, after: $after, nodeIds: $nodeIds) {
      totalCount pageInfo { hasNextPage endCursor } edges { cursor node { nodeID ip publicIP ipAddress publicIPAddress version upgradeTime upgradeAt lastSent lastReceived observedUptime trackedSubnets supportedACPs objectedACPs benched node { name } } }
    } }
  }`;

  it('pages through every peer in node-id order with one info.peers call per request', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let total = 0;
    for (let page = 0; page < 50; page++) {
      stack.devnet.resetStats();
      const data: Data = await ok(PAGE, { first: 40, after });
      const peers = data.avalancheNode.peers;
      expect(routes()['POST info.peers']).toBe(1);
      total = peers.totalCount;
      seen.push(...peers.edges.map((e: Data) => e.node.nodeID));
      if (!peers.pageInfo.hasNextPage) break;
      expect(peers.edges).toHaveLength(40);
      after = peers.pageInfo.endCursor;
    }
    expect(total).toBeGreaterThan(40);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort());
  });

  it('serves the seed fields of a peer, and filters by node ids', async () => {
    const first = (await ok(PAGE, { first: 3 })).avalancheNode.peers.edges.map((e: Data) => e.node);
    const peer = first[0];
    expect(peer).toMatchObject({ nodeID: expect.stringMatching(/^NodeID-/), version: expect.stringMatching(/^avalanchego\//), node: { name: 'mainnet' } });
    expect(typeof peer.observedUptime).toBe('number');
    expect(peer.upgradeTime).toMatch(/^(0|[1-9][0-9]*)$/);
    expect(peer.upgradeAt).toBe(new Date(Number(peer.upgradeTime) * 1000).toISOString());
    // The IP-typed hosts beside the host:port texts.
    expect(`${peer.ipAddress}:${peer.ip.split(':').pop()}`).toBe(peer.ip);
    expect(peer.publicIPAddress === null || peer.publicIP.startsWith(`${peer.publicIPAddress}:`)).toBe(true);
    expect(Array.isArray(peer.trackedSubnets) && Array.isArray(peer.benched) && Array.isArray(peer.supportedACPs)).toBe(true);
    const ids = [first[2].nodeID, first[0].nodeID, 'NodeID-111111111111111111116DBWJs'];
    const filtered = (await ok(PAGE, { nodeIds: ids })).avalancheNode.peers;
    expect(filtered.totalCount).toBe(2);
    expect(filtered.edges.map((e: Data) => e.node.nodeID)).toEqual([first[0].nodeID, first[2].nodeID]);
  });

  it('rejects bad page sizes, node ids and foreign cursors before any upstream call', async () => {
    const page = (await ok(PAGE, { first: 2 })).avalancheNode.peers;
    stack.devnet.resetStats();
    for (const [variables, argument] of [
      [{ first: 0 }, 'first'],
      [{ first: 1001 }, 'first'],
      [{ nodeIds: ['not-a-node-id'] }, 'nodeIds'],
    ] as const) {
      const result = await stack.query(PAGE, variables);
      expect(result.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: argument });
    }
    expect(stack.upstreamRequests()).toBe(0);
    const otherArgs = await stack.query(PAGE, { after: page.pageInfo.endCursor, nodeIds: [page.edges[0].node.nodeID] });
    expect(otherArgs.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'after' });
    const otherNode = await stack.query(PAGE, { after: page.pageInfo.endCursor, node: 'fuji' });
    expect(otherNode.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', argumentName: 'after' });
  });

  it('links each peer to its validation with one batched validators call per page', async () => {
    const data = await ok('{ avalancheNode { peers(first: 100) { edges { node { nodeID nodeId validator { nodeId network } } } } } }');
    const edges = data.avalancheNode.peers.edges;
    expect(edges).toHaveLength(100);
    for (const { node } of edges) {
      expect(node.nodeId).toBe(node.nodeID);
      expect(node.validator).toEqual({ nodeId: node.nodeId, network: 'mainnet' });
    }
    expect(routes()['POST info.peers']).toBe(1);
    expect(routes()['GET /v1/networks/{network}/validators']).toBeLessThanOrEqual(2);
  });
});

describe('Validator.peer', () => {
  const WALK = `query ($network: NetworkName!, $node: String) { network(name: $network) {
    validators(first: 50, filter: { validationStatus: ACTIVE, subnetId: "${PRIMARY}" }) {
      edges { node { nodeId peer(node: $node) { nodeID observedUptime node { name } } } }
    }
  } }`;

  it('costs exactly one info.peers call for a walk of 50 validators', async () => {
    const data = await ok(WALK, { network: 'MAINNET' });
    const edges = data.network.validators.edges;
    expect(edges).toHaveLength(50);
    const connected = edges.filter((e: Data) => e.node.peer !== null);
    expect(connected.length).toBeGreaterThan(25);
    for (const { node } of connected) expect(node.peer).toMatchObject({ nodeID: node.nodeId, node: { name: 'mainnet' } });
    expect(routes()['POST info.peers']).toBe(1);
  });

  it("defaults to the node running the validation's network, and takes an explicit node", async () => {
    const fuji = (await ok(WALK, { network: 'FUJI' })).network.validators.edges;
    const connected = fuji.filter((e: Data) => e.node.peer !== null);
    expect(connected.length).toBeGreaterThan(0);
    for (const { node } of connected) expect(node.peer.node.name).toBe('fuji');
    stack.devnet.resetStats();
    // The fuji node is not connected to mainnet validators.
    const crossed = (await ok(WALK, { network: 'MAINNET', node: 'fuji' })).network.validators.edges;
    expect(crossed.every((e: Data) => e.node.peer === null)).toBe(true);
    expect(routes()['POST info.peers']).toBe(1);
  });

  it('names an unknown node with NODE_NOT_CONFIGURED', async () => {
    const result = await stack.query(`{ network(name: MAINNET) { validator(nodeId: "${stack.devnet.dataset.fixtures().mainnet.nodeId}") { peer(node: "nope") { nodeID } } } }`);
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NODE_NOT_CONFIGURED');
    expect(routes()['POST info.peers']).toBeUndefined();
  });
});

/** Waits for `check` to hold (a wait for an event, not a measure of time; the test's own timeout bounds it). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('Subscription.nodeHealth', () => {
  it('sends the current report at once over SSE and stops polling when the client goes away', async () => {
    const previous = nodeHealthPolling.intervalMs;
    nodeHealthPolling.intervalMs = 20;
    try {
      const controller = new AbortController();
      const response = await stack.gateway.fetch('http://chaingraph.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ query: 'subscription { nodeHealth(node: "fuji") { healthy checks { name passing } } }' }),
        signal: controller.signal,
      });
      expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      let event: Data | undefined;
      while (!event) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        const line = buffer.split('\n').find((l) => l.startsWith('data:') && l.includes('nodeHealth'));
        if (line) event = JSON.parse(line.slice(5)) as Data;
      }
      expect(event?.data?.nodeHealth?.checks.length).toBeGreaterThan(5);
      expect(typeof event?.data?.nodeHealth?.healthy).toBe('boolean');
      controller.abort();
      await reader.cancel().catch(() => undefined);
      // Stopped: the topic's poller is gone, and every poll it had sent has been answered (so counted).
      await until(() => stack.topics.stats().polling === 0);
      await stack.upstreamSettled();
      const polls = routes()['POST health.health'] ?? 0;
      expect(polls).toBeGreaterThanOrEqual(1);
      // Long enough for several more polls at 20 ms, had it not stopped.
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(routes()['POST health.health'] ?? 0).toBe(polls);
    } finally {
      nodeHealthPolling.intervalMs = previous;
    }
  });

  it('rejects an unknown node with NODE_NOT_CONFIGURED', async () => {
    const result = await stack.query('subscription { nodeHealth(node: "nope") { healthy } }');
    expect(result.errors?.[0]?.extensions?.['code']).toBe('NODE_NOT_CONFIGURED');
  });
});
