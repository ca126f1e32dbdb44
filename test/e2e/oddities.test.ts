import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkFixtures } from '../../src/devnet/dataset/index.ts';
import { SPEC_FACTS } from '../../src/devnet/spec-walk.ts';
import type { Devnet, RequestLogEntry } from '../../src/devnet/server.ts';
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
 *
 * And the plain devnet answers what the real spec accepts: the same walk, by a gateway whose Data API
 * is Prism's proxy in front of the plain devnet, crashes no field, and no answer it reads breaks the
 * spec, but for the one place where the spec's own `oneOf` cannot hold ({@link SPEC_CANNOT_HOLD}).
 */

/** The devnet's clock, pinned: its blocks and statuses follow the clock, and both runs must see the same data. */
const NOW = Date.UTC(2025, 5, 15, 12);
const VALIDATORS = 120;
/** Requests of each Data API route the walk made that are asked again through Prism. */
const REPLAYS_PER_ROUTE = 3;

/**
 * What no answer can satisfy, so the plain devnet is not held to it: getBalancesByAddresses answers a
 * `oneOf` of the P-, X- and C-chain balances, and the C-chain's (`CChainAtomicBalances`: only
 * `atomicMemoryUnlocked` and `atomicMemoryLocked` required, other properties allowed, items that require
 * a subset of the P- and X-chain items' properties) accepts every P- and X-chain answer the spec allows
 * too, so a P- or X-chain answer always matches two branches. The C-chain's answer matches only its own.
 * Keys as {@link specViolations} writes them.
 */
const SPEC_CANNOT_HOLD = new Set([
  'GET /v1/networks/{network}/blockchains/{blockchainId}/balances oneOf response.body',
  'GET /v1/networks/{network}/blockchains/{blockchainId}/balances required response.body.balances',
]);

/** The spec's GET operations as matchers of a request's path, the most literal template first. */
const OPERATION_MATCHERS = Object.keys(SPEC_FACTS.operations)
  .filter((key) => key.startsWith('GET '))
  .map((key) => {
    const template = key.slice('GET '.length);
    const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    return { key, re: new RegExp(`^${pattern}$`), literal: template.replace(/\{[^}]+\}/g, '').length };
  })
  .sort((a, b) => b.literal - a.literal);

/** The spec operation of a GET request target (`GET /v1/...` with its template), or the path itself. */
function operationOf(target: string): string {
  const path = target.split('?')[0] ?? target;
  return OPERATION_MATCHERS.find((matcher) => matcher.re.test(path))?.key ?? `GET ${path}`;
}

/**
 * Where an answer breaks the spec, from Prism's header: `<operation> <code> <location>` with Prism's
 * message. Item indexes are written `*` (they differ between a plain answer and an odd one, whose arrays
 * may be empty). Only the answer's: a request Prism finds off-spec is the gateway's concern.
 */
function specViolations(operation: string, res: Response): Map<string, string> {
  const keys = new Map<string, string>();
  for (const v of violationsOf(res)) {
    if (v.location[0] !== 'response') continue;
    keys.set(`${operation} ${v.code} ${v.location.map((segment) => (/^\d+$/.test(String(segment)) ? '*' : String(segment))).join('.')}`, v.message);
  }
  return keys;
}

/**
 * A server in front of Prism's proxy for a gateway: every request forwarded as it came, every answer
 * given back as Prism sent it, and the spec violations Prism found in each answer recorded by operation.
 */
interface Tap {
  url: string;
  server: Server;
  /** GET answers read, by operation. */
  read: Map<string, number>;
  /** GET answers with at least one violation. */
  brokenAnswers: () => number;
  /** Each violation (by {@link specViolations}' key): how many answers had it, the first message and request. */
  broken: Map<string, { count: number; message: string; target: string }>;
}

async function startTap(prismUrl: () => string): Promise<Tap> {
  const broken = new Map<string, { count: number; message: string; target: string }>();
  const read = new Map<string, number>();
  let brokenAnswers = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
      const method = req.method ?? 'GET';
      void fetch(prismUrl() + (req.url ?? '/'), { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: Buffer.concat(chunks) }) }).then(
        async (answer) => {
          if (method === 'GET') {
            const operation = operationOf(req.url ?? '/');
            read.set(operation, (read.get(operation) ?? 0) + 1);
            const violations = specViolations(operation, answer);
            if (violations.size > 0) brokenAnswers += 1;
            for (const [key, message] of violations) {
              const seen = broken.get(key);
              broken.set(key, { count: (seen?.count ?? 0) + 1, message: seen?.message ?? message, target: seen?.target ?? req.url ?? '/' });
            }
          }
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, read, brokenAnswers: () => brokenAnswers, broken };
}

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
  /** A gateway reading the plain devnet through the tap and Prism's proxy (its devnet is `plain`). */
  let through: TestStack;
  let tap: Tap;
  /** What the walk asked the Data API: GET targets by route. */
  const asked = new Map<string, Set<string>>();
  beforeAll(async () => {
    // Prism takes seconds to read the spec: it starts while the devnets generate their data.
    const switched = await startSwitch(() => upstream);
    switcher = switched.server;
    const proxy = startPrism({ mode: 'proxy', upstream: switched.url });
    tap = await startTap(() => prism.url);
    [stack, through] = await Promise.all([
      startStack({
        devnet: { validators: VALIDATORS, oddities: true, now: () => NOW },
        // Pinned, so the second run of each document is the compiled one whatever the default becomes.
        gateway: { compiledExecution: { compileAfter: 2 } },
      }),
      startStack({
        devnet: { validators: VALIDATORS, now: () => NOW },
        dataApiUrl: tap.url,
        gateway: { compiledExecution: { compileAfter: 2 } },
      }),
    ]);
    plain = through.devnet;
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
    await Promise.all([stack?.close(), through?.close(), prism?.close()]);
    await Promise.all(
      [switcher, tap?.server].map(
        (server) =>
          new Promise<void>((resolve) => {
            if (!server) return resolve();
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
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
    const responseViolations = async (devnet: Devnet, route: string, target: string): Promise<{ keys: Map<string, string>; body: string }> => {
      upstream = devnet.url;
      const res = await fetch(prism.url + target);
      return { keys: specViolations(route, res), body: await res.text() };
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
    /** Where the plain devnet itself is outside the spec: only where the spec cannot hold (the third test holds it to that). */
    const outside = new Map<string, string>();
    for (const [route, targets] of asked) {
      for (const target of targets) {
        const before = await responseViolations(plain, route, target);
        const after = await responseViolations(stack.devnet, route, target);
        replayed += 1;
        if (after.body !== before.body) changed += 1;
        if (before.keys.size > 0) plainBroken += 1;
        for (const [key, message] of before.keys) outside.set(key, message);
        for (const [key, message] of after.keys) if (!before.keys.has(key)) introduced.push(`${target}: ${key}: ${message}`);
      }
    }
    console.log(`oddities against the spec (Prism ${prism.startupMs} ms to start): ${routes.length} routes, ${replayed} answers replayed, ${changed} changed by the oddities, ${plainBroken} of the plain devnet's already outside the spec, ${introduced.length} new violations`);
    console.log(`  where the plain devnet is outside the spec:${[...outside].sort().map(([key, message]) => `\n    ${key}: ${message}`).join('')}`);
    expect(changed).toBeGreaterThan(replayed / 2);
    expect(introduced).toEqual([]);
    expect([...outside.keys()].filter((key) => !SPEC_CANNOT_HOLD.has(key))).toEqual([]);
  }, 120_000);

  it('plain devnet through Prism: the walk crashes no field, and no answer breaks the spec where it can hold', async () => {
    upstream = plain.url;
    const schema = getSchema();
    const walk = walkSchema({ schema, argument: fixtureArguments(fixtures), skip: skipOutsideDataApi });
    const report = await runWalk(walk, { query: (text) => through.query(text), concurrency: 2 });
    printWalkReport('plain devnet walk through Prism', walk, report);
    const broken = [...tap.broken].map(([key, { count, message, target }]) => `${key} (${count}x, e.g. ${target}): ${message}`).sort();
    const operations = new Set([...tap.broken.keys()].map((key) => key.split(' ').slice(0, 2).join(' ')));
    const answers = [...tap.read.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `plain devnet against the spec: ${answers} answers of ${tap.read.size} operations read through Prism, ${tap.brokenAnswers()} broken, ${broken.length} violations in ${operations.size} operations${broken.map((line) => `\n    ${line}`).join('')}`,
    );
    expect(report.reached.size).toBeGreaterThan(report.selected.size * 0.6);
    expect(report.violations.map((v) => `${v.kind} ${v.code} ${v.field}: ${v.detail}`)).toEqual([]);
    expect([...tap.broken.keys()].filter((key) => !SPEC_CANNOT_HOLD.has(key))).toEqual([]);
  }, 300_000);
});
