import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { SPEC_FACTS } from '../../src/devnet/oddities.ts';
import { startDevnet, type Devnet, type RequestLogEntry } from '../../src/devnet/server.ts';
import { getSchema } from '../../src/schema/index.ts';
import { startPrism, violationsOf, type Prism } from '../helpers/prism.ts';
import { fixtureArguments, printWalkReport, runWalk, skipOutsideDataApi, walkFixturesOf, walkSchema, type WalkFixtures } from '../helpers/schema-walk.ts';
import { startStack, type TestStack } from '../helpers/stack.ts';

/**
 * Every field of every type reachable from the Data API, against a devnet in oddities mode: answers
 * valid under the real spec that take the unusual values it allows (src/devnet/oddities.ts). Each
 * document runs twice, the first interpreted, the second as compiled code (the gateway compiles an
 * operation on its second execution, pinned here), and every answer must: hold no
 * INTERNAL_SERVER_ERROR, hold no error without a code, keep each error on the field whose value is
 * bad (a nullable field, so its parent object still has data), and be the same both times.
 *
 * And the oddities mode itself is held to its word by Prism (a proxy validating answers against the
 * real spec): every answer the walk read, asked again through the proxy, breaks the spec nowhere the
 * plain devnet's answer to the same request does not already break it.
 */

/** The devnet's clock, pinned: its blocks and statuses follow the clock, and both runs must see the same data. */
const NOW = Date.UTC(2025, 5, 15, 12);
const VALIDATORS = 120;
/** Requests of each Data API route the walk made that are asked again through Prism. */
const REPLAYS_PER_ROUTE = 3;

/** A server forwarding every request to the devnet `target()` names (Prism's proxy has one fixed upstream). */
async function startSwitch(target: () => string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    void fetch(target() + (req.url ?? '/')).then(
      async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      },
      () => res.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('whole schema against a devnet in oddities mode', () => {
  let stack: TestStack;
  let fixtures: WalkFixtures;
  /** The same devnet without the oddities, and Prism's proxy in front of either (through the switch). */
  let plain: Devnet;
  let prism: Prism;
  let upstream = '';
  let switcher: Server;
  /** What the walk asked the Data API: GET targets by route. */
  const asked = new Map<string, Set<string>>();
  beforeAll(async () => {
    // Prism takes seconds to read the spec: it starts while the devnets generate their data.
    const switched = await startSwitch(() => upstream);
    switcher = switched.server;
    const proxy = startPrism({ mode: 'proxy', upstream: switched.url });
    [stack, plain] = await Promise.all([
      startStack({
        devnet: { validators: VALIDATORS, oddities: true, now: () => NOW },
        // Pinned, so the second run of each document is the compiled one whatever the default becomes.
        gateway: { compiledExecution: { compileAfter: 2 } },
      }),
      startDevnet({ validators: VALIDATORS, now: () => NOW }),
    ]);
    prism = await proxy;
    const dataset = stack.devnet.dataset;
    const m: NetworkFixtures = dataset.fixtures().mainnet;
    const evm = dataset.evm.mainnet;
    fixtures = walkFixturesOf(m, {
      blockId: String(evm.latestBlock(m.evmChainId) ?? 1),
      l1SubnetId: m.l1SubnetId,
      messageId: (evm.icmMessages(m.icmAddress).find((message) => message.receipts.length > 0) ?? evm.icmMessages(m.icmAddress)[0])?.messageId ?? '',
    });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([stack?.close(), plain?.close(), prism?.close()]);
    await new Promise<void>((resolve) => {
      if (!switcher) return resolve();
      switcher.close(() => resolve());
      switcher.closeAllConnections();
    });
  });

  it('answers every field with coded, confined errors only, the same interpreted and compiled', async () => {
    const schema = getSchema();
    const walk = walkSchema({ schema, argument: fixtureArguments(fixtures), skip: skipOutsideDataApi });
    const report = await runWalk(walk, {
      query: async (text) => {
        const answer = await stack.query(text);
        // The devnet's log holds the last 2000 requests: read after each document.
        for (const entry of stack.devnet.requestLog()) remember(entry);
        stack.devnet.resetStats();
        return answer;
      },
    });
    printWalkReport('oddities walk', walk, report);
    // The walk must reach most of the schema, or it proves little.
    expect(report.reached.size).toBeGreaterThan(report.selected.size * 0.6);
    expect(report.violations.map((v) => `${v.kind} ${v.code} ${v.field}: ${v.detail}`)).toEqual([]);
  }, 180_000);

  function remember(entry: RequestLogEntry): void {
    if (entry.method !== 'GET' || !entry.target.startsWith('/v1/')) return;
    const targets = asked.get(entry.route) ?? new Set<string>();
    if (targets.size < REPLAYS_PER_ROUTE) targets.add(entry.target);
    asked.set(entry.route, targets);
  }

  // Replays what the walk above asked (so it runs after it, as vitest runs a file's tests in order).
  it('keeps every answer valid under the real spec wherever the plain devnet is (Prism proxy)', async () => {
    // Each route the walk met is an operation of the spec, so the oddities mode knew its schema.
    const routes = [...asked.keys()];
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.filter((route) => !(route in SPEC_FACTS.operations))).toEqual([]);
    const introduced: string[] = [];
    let replayed = 0;
    let changed = 0;
    const responseViolations = async (devnet: Devnet, target: string): Promise<{ keys: Map<string, string>; body: string }> => {
      upstream = devnet.url;
      const res = await fetch(prism.url + target);
      const keys = new Map<string, string>();
      for (const v of violationsOf(res)) {
        if (v.location[0] !== 'response') continue;
        // Item indexes differ between the two answers (the oddities empty arrays): compared without them.
        keys.set(`${v.code} ${v.location.map((segment) => (/^\d+$/.test(String(segment)) ? '*' : String(segment))).join('.')}`, v.message);
      }
      return { keys, body: await res.text() };
    };
    // The proxy does validate answers: one the spec refuses (a list that is no array) is reported.
    const stub = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"chains":"not a list"}'));
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    upstream = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    const control = violationsOf(await fetch(`${prism.url}/v1/chains`)).filter((v) => v.location[0] === 'response');
    await new Promise<void>((resolve) => {
      stub.close(() => resolve());
      stub.closeAllConnections();
    });
    expect(control.map((v) => v.location.join('.'))).toContain('response.body.chains');
    let plainBroken = 0;
    /** Where the plain devnet itself is outside the spec (the seed's choices, or gaps), for the record. */
    const outside = new Set<string>();
    for (const [route, targets] of asked) {
      for (const target of targets) {
        const before = await responseViolations(plain, target);
        const after = await responseViolations(stack.devnet, target);
        replayed += 1;
        if (after.body !== before.body) changed += 1;
        if (before.keys.size > 0) plainBroken += 1;
        for (const key of before.keys.keys()) outside.add(`${route} ${key}`);
        for (const [key, message] of after.keys) if (!before.keys.has(key)) introduced.push(`${route} ${target}: ${key}: ${message}`);
      }
    }
    console.log(`oddities against the spec (Prism ${prism.startupMs} ms to start): ${routes.length} routes, ${replayed} answers replayed, ${changed} changed by the oddities, ${plainBroken} of the plain devnet's already outside the spec, ${introduced.length} new violations`);
    console.log(`  where the plain devnet is outside the spec:${[...outside].sort().map((key) => `\n    ${key}`).join('')}`);
    expect(changed).toBeGreaterThan(replayed / 2);
    expect(introduced).toEqual([]);
  }, 120_000);
});
