import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/gateway.ts';
import { createDataApiClient } from '../../src/upstream/data-api.ts';
import { createNodeClient } from '../../src/upstream/node-client.ts';
import { startCaptureServer, type CaptureServer } from '../upstream/capture-server.ts';

/**
 * Integers an upstream sends are served exactly or fail their own field with a code, never rounded:
 * a Data API and a node that are not the devnet (plain node:http servers answering hand-written JSON
 * text, numbers as the literals a real upstream could send), behind a gateway over real HTTP, through
 * both executors (graphql-tools' interpreter and the compiled one).
 */

const SUBNET = '11111111111111111111111111111111LpoYY';

/** A validators page whose numbers are written as given (JSON text, not a value JSON.stringify would round). */
function validatorsPage(items: { amountStaked: string; delegatorCount?: string; amountDelegated?: string; endTimestamp?: string }[]): string {
  const item = ({ amountStaked, delegatorCount, amountDelegated, endTimestamp = '1800000000' }: (typeof items)[number], i: number) =>
    `{"txHash":"0x${String(i).padStart(64, '0')}","nodeId":"NodeID-${i}","subnetId":"${SUBNET}","amountStaked":${amountStaked},` +
    `${amountDelegated !== undefined ? `"amountDelegated":${amountDelegated},` : ''}` +
    `"startTimestamp":1700000000,"endTimestamp":${endTimestamp},${delegatorCount !== undefined ? `"delegatorCount":${delegatorCount},` : ''}` +
    `"delegationFee":"2.0000","validationStatus":"active"}`;
  return `{"validators":[${items.map(item).join(',')}]}`;
}

const VALIDATORS = '{ network(name: MAINNET) { validators(first: 3) { edges { node { nodeId amountStaked amountDelegated delegatorCount endTimestamp } } } } }';

interface Served {
  nodeId: string;
  amountStaked: string | null;
  amountDelegated: string | null;
  delegatorCount: number | null;
  endTimestamp: string | null;
}

interface Answer {
  data?: { network: { validators: { edges: { node: Served }[] } } } | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
}

let dataApi: CaptureServer;
let node: CaptureServer;
/** The page the Data API stub answers, and the networkID the node stub answers (JSON text). */
let page = validatorsPage([{ amountStaked: '1' }]);
let networkId = '"5"';
const gateways: Record<'interpreted' | 'compiled', Gateway> = {} as Record<'interpreted' | 'compiled', Gateway>;

beforeAll(async () => {
  dataApi = await startCaptureServer();
  dataApi.fallback = () => ({ raw: page, headers: { 'content-type': 'application/json' } });
  node = await startCaptureServer();
  node.fallback = (req) => {
    const { id, method } = JSON.parse(req.body) as { id: number; method: string };
    return method === 'info.getNetworkID'
      ? { raw: `{"jsonrpc":"2.0","id":${id},"result":{"networkID":${networkId}}}`, headers: { 'content-type': 'application/json' } }
      : { body: { jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } } };
  };
  const deps = () => ({ dataApi: createDataApiClient({ baseUrl: dataApi.url }), nodes: [createNodeClient({ name: 'stub', url: node.url })] });
  gateways.interpreted = createGateway({ graphiql: false, compiledExecution: false }, deps());
  gateways.compiled = createGateway({ graphiql: false, compiledExecution: { compileAfter: 1 } }, deps());
});

afterAll(async () => {
  await Promise.all(Object.values(gateways).map((gateway) => gateway.dispose()));
  await Promise.all([dataApi.close(), node.close()]);
});

async function query(gateway: Gateway, text: string): Promise<Answer> {
  const response = await gateway.fetch('http://chaingraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: text }),
  });
  return (await response.json()) as Answer;
}

describe.each(['interpreted', 'compiled'] as const)('exact or coded, never rounded (%s execution)', (executor) => {
  it('an amount sent as a number beyond 2^53 keeps its digits; counts beyond 32 bits fail their own field with UPSTREAM_PROTOCOL_ERROR', async () => {
    page = validatorsPage([
      { amountStaked: '9007199254740993', delegatorCount: '2147483648', endTimestamp: '18446744073709551615' },
      { amountStaked: '123456789012345678901234567890', delegatorCount: '9007199254740993', endTimestamp: '9007199254740993' },
      { amountStaked: '"2000000000000"', delegatorCount: '2147483647' },
    ]);
    // Twice: the compiled gateway compiles on the first run and runs the compiled code on the second.
    for (let run = 0; run < 2; run++) {
      const answer = await query(gateways[executor], VALIDATORS);
      const nodes = answer.data?.network.validators.edges.map((edge) => edge.node);
      expect(nodes?.map((n) => n.amountStaked)).toEqual(['9007199254740993', '123456789012345678901234567890', '2000000000000']);
      expect(nodes?.map((n) => n.delegatorCount)).toEqual([null, null, 2147483647]);
      // A uint64 (UInt64) keeps its digits up to 2^64 - 1.
      expect(nodes?.map((n) => n.endTimestamp)).toEqual(['18446744073709551615', '9007199254740993', '1800000000']);
      expect(answer.errors?.map((e) => [e.path?.join('.'), e.extensions?.['code'], e.extensions?.['upstreamField']])).toEqual([
        ['network.validators.edges.0.node.delegatorCount', 'UPSTREAM_PROTOCOL_ERROR', 'validators[0].delegatorCount'],
        ['network.validators.edges.1.node.delegatorCount', 'UPSTREAM_PROTOCOL_ERROR', 'validators[1].delegatorCount'],
      ]);
      // Neither the rounded value nor the upstream's value is in any message.
      expect(JSON.stringify(answer.errors)).not.toMatch(/9007199254740992|2147483648/);
    }
  });

  it('a value a scalar cannot serve is UPSTREAM_PROTOCOL_ERROR on that field, naming the upstream field, without the value or the serializer\'s words', async () => {
    page = validatorsPage([{ amountStaked: '1', amountDelegated: '"-12"' }, { amountStaked: '2', amountDelegated: '"0xzz"' }]);
    networkId = '"4294967295"';
    for (let run = 0; run < 2; run++) {
      const answer = await query(gateways[executor], `${VALIDATORS.slice(0, -1)} avalancheNode(name: "stub") { networkId } }`);
      const nodes = answer.data?.network.validators.edges.map((edge) => edge.node);
      expect(nodes?.map((n) => [n.amountStaked, n.amountDelegated])).toEqual([['1', null], ['2', null]]);
      // Refused when the answer is read (the shapes' value contract), so the error names the upstream field and call.
      const byPath = (answer.errors ?? [])
        .map((e) => [e.path?.join('.'), e.extensions?.['code'], e.extensions?.['upstreamField'], e.extensions?.['operation']] as const)
        .sort(([a], [b]) => String(a).localeCompare(String(b)));
      expect(byPath).toEqual([
        ['avalancheNode.networkId', 'UPSTREAM_PROTOCOL_ERROR', 'networkID', 'info.getNetworkID'],
        ['network.validators.edges.0.node.amountDelegated', 'UPSTREAM_PROTOCOL_ERROR', 'validators[0].amountDelegated', 'GET /v1/networks/{network}/validators'],
        ['network.validators.edges.1.node.amountDelegated', 'UPSTREAM_PROTOCOL_ERROR', 'validators[1].amountDelegated', 'GET /v1/networks/{network}/validators'],
      ]);
      expect(JSON.stringify(answer.errors)).not.toMatch(/cannot represent|-12|0xzz|4294967295|INTERNAL_SERVER_ERROR/);
    }
    networkId = '"5"';
  });
});

describe('property: any integer literal the upstream sends', () => {
  const literal = fc
    .tuple(fc.boolean(), fc.stringMatching(/^[1-9][0-9]{0,90}$/), fc.boolean())
    .map(([negative, digits, zero]) => (zero ? '0' : `${negative ? '-' : ''}${digits}`));

  it('is served with exactly its digits as an amount (UInt256) or a uint64 (UInt64), exactly as a count (Int), or refused with a code', async () => {
    // A uint64 literal: biased to the interesting range around 2^53 .. 2^64 besides any length.
    const uint64 = fc.oneof(literal, fc.bigInt({ min: 2n ** 52n, max: 2n ** 65n }).map(String));
    await fc.assert(
      fc.asyncProperty(literal, literal, uint64, fc.constantFrom('interpreted' as const, 'compiled' as const), async (amount, count, time, executor) => {
        page = validatorsPage([{ amountStaked: '1', amountDelegated: amount, delegatorCount: count, endTimestamp: time }]);
        const answer = await query(gateways[executor], VALIDATORS);
        const served = answer.data?.network.validators.edges[0]?.node;
        const fitsUInt256 = !amount.startsWith('-') && BigInt(amount) < 2n ** 256n;
        const fitsInt = BigInt(count) >= -(2n ** 31n) && BigInt(count) < 2n ** 31n;
        const fitsUInt64 = !time.startsWith('-') && BigInt(time) < 2n ** 64n;
        const codes = (answer.errors ?? []).map((e) => `${e.path?.at(-1)}:${String(e.extensions?.['code'])}`).sort();
        const refused = [
          ...(fitsUInt256 ? [] : ['amountDelegated:UPSTREAM_PROTOCOL_ERROR']),
          ...(fitsInt ? [] : ['delegatorCount:UPSTREAM_PROTOCOL_ERROR']),
          ...(fitsUInt64 ? [] : ['endTimestamp:UPSTREAM_PROTOCOL_ERROR']),
        ];
        expect(codes).toEqual(refused);
        // endTimestamp is non-null: refused, it nulls its validator (and the list, whose items are non-null).
        if (!fitsUInt64) return;
        expect(served).toEqual({ nodeId: 'NodeID-0', amountStaked: '1', amountDelegated: fitsUInt256 ? amount : null, delegatorCount: fitsInt ? Number(count) : null, endTimestamp: time });
      }),
      { numRuns: 80 },
    );
  }, 60_000);
});
