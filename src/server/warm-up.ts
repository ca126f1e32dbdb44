/**
 * Warm-up before ready: a new process runs the operations its clients are known to send (GraphiQL's
 * examples and the persisted manifest) through its own gateway, over recorded answers, until their cost
 * stops falling; then `/ready` says ready. A process just started interprets its code and compiles its
 * operations on first use: its first hundred walks cost three times what they cost later. Warmed here,
 * that is paid before a load balancer sends it any traffic.
 *
 * No upstream is called. The answers come from a private devnet over the same simulated data (the
 * built-in devnet's when it runs, else one made for the warm-up and dropped after), which answers each
 * distinct request once and replays it after (its `replay` option). The requests go over a loopback socket
 * to a listener of the real gateway (`gateway.warmUp.listener`), so the same code runs as for a client:
 * node's HTTP server, yoga, the plugins, the parse and compiled-operation caches, the loaders and the
 * upstream HTTP client, with only the upstream's address changed. They carry `authorization`, so the
 * response cache neither answers nor holds them, and the upstream metrics never count their calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Kind, parse, visit, type DefinitionNode, type DocumentNode } from 'graphql';
import type { Logger } from 'pino';
import { Pool } from 'undici';
import type { Gateway } from '../gateway/gateway.ts';
import { exampleQueries } from '../gateway/graphiql-examples.ts';
import { createDataApiClient } from '../upstream/data-api.ts';
import { createHttpUpstream } from '../upstream/http.ts';
import { createNodeClient } from '../upstream/node-client.ts';

type Devnet = import('../devnet/server.ts').Devnet;
type Dataset = import('../devnet/dataset/index.ts').Dataset;

/** One request the warm-up sends: an operation of the examples, or a persisted document by id. */
export interface WarmUpOperation {
  name: string;
  body: { query?: string; operationName?: string; documentId?: string };
}

export interface WarmUpOptions {
  gateway: Gateway;
  /** How long the warm-up may take, ms (`WARM_UP_MS`); it ends earlier once its rounds stop getting faster. */
  budgetMs: number;
  /** The built-in devnet's data when it runs (else a dataset is made for the warm-up). */
  dataset?: Dataset;
  logger: Logger;
  /** Aborted when the server closes during the warm-up: it stops after the request in flight. */
  signal?: AbortSignal;
}

export interface WarmUpReport {
  ms: number;
  rounds: number;
  requests: number;
  /** Requests answered with errors (a persisted document that needs variables, say): they warm all the same. */
  errors: number;
  operations: number;
  /** Whether it ended because its rounds stopped getting faster (else its budget ran out). */
  settled: boolean;
}

/** Validators per network of the data made for the warm-up (the walk reads 50 active ones). */
const WARM_UP_VALIDATORS = 300;
/** At least this many rounds: the compilers tier up after some hundreds of calls of each function. */
const MIN_ROUNDS = 40;
/** Settled when the median of the last {@link WINDOW} rounds is within {@link SETTLED_RATIO} of the median of the window before. */
const WINDOW = 8;
const SETTLED_RATIO = 1.08;

/**
 * The requests of one round: each named operation of the examples as a document of its own (as an
 * application sends it: the operation and the fragments it spreads), and each persisted document by id.
 */
export function warmUpOperations(examples: string, persisted: ReadonlyMap<string, string> | undefined, onlyPersisted: boolean): WarmUpOperation[] {
  const operations: WarmUpOperation[] = [];
  if (!onlyPersisted) {
    const document = parse(examples);
    const fragments = new Map<string, DefinitionNode>();
    for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    for (const definition of document.definitions) {
      if (definition.kind !== Kind.OPERATION_DEFINITION || !definition.name) continue;
      const text = [definition, ...spreadFragments(definition, fragments)].map((node) => examples.slice(node.loc?.start ?? 0, node.loc?.end ?? 0)).join('\n\n');
      operations.push({ name: definition.name.value, body: { query: text } });
    }
  }
  for (const id of persisted?.keys() ?? []) operations.push({ name: `persisted ${id.slice(0, 12)}`, body: { documentId: id } });
  return operations;
}

/** The fragment definitions `node` spreads, directly or through other fragments. */
function spreadFragments(node: DefinitionNode, fragments: ReadonlyMap<string, DefinitionNode>): DefinitionNode[] {
  const found = new Map<string, DefinitionNode>();
  const pending: DefinitionNode[] = [node];
  while (pending.length > 0) {
    const next = pending.pop() as DefinitionNode;
    visit(next as unknown as DocumentNode, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (fragment && !found.has(spread.name.value)) {
          found.set(spread.name.value, fragment);
          pending.push(fragment);
        }
      },
    });
  }
  return [...found.values()];
}

/**
 * Warms `gateway` (see the module comment) and ends its warming (`/ready` answers as usual after), also
 * when the warm-up fails: a gateway that could not warm serves cold rather than never.
 */
export async function warmUp(options: WarmUpOptions): Promise<WarmUpReport> {
  const { gateway, logger } = options;
  const started = performance.now();
  const report: WarmUpReport = { ms: 0, rounds: 0, requests: 0, errors: 0, operations: 0, settled: false };
  let devnet: Devnet | undefined;
  let server: Server | undefined;
  let pool: Pool | undefined;
  const http = createHttpUpstream({});
  try {
    // eslint-disable-next-line import-x/no-restricted-paths -- the warm-up's recorded answers: the devnet, loaded on demand, never statically
    const { startDevnet } = await import('../devnet/server.ts');
    // Its own data, when it must make some, is a quarter of the built-in devnet's: as many validators as a walk reads, made in a tenth of the time.
    devnet = await startDevnet({ replay: true, webhookIntervalMs: 0, ...(options.dataset ? { dataset: options.dataset } : { validators: WARM_UP_VALIDATORS }) });
    const dataApi = createDataApiClient({ baseUrl: devnet.url, http });
    const nodes = Object.entries(devnet.nodeUrls).map(([name, url]) => createNodeClient({ name, url, http }));
    const operations = warmUpOperations(exampleQueries(devnet.dataset.fixtures().mainnet), gateway.persisted.documents, gateway.persisted.onlyPersisted);
    report.operations = operations.length;
    if (operations.length === 0) return report;

    // A listener only this process knows the address and token of, closed before ready.
    const token = randomBytes(24).toString('base64url');
    const listener = gateway.warmUp.listener({ dataApi, nodes });
    server = createServer((req, res) => {
      if (req.headers['x-chaingraph-warm-up'] !== token) {
        res.statusCode = 404;
        res.end();
        return;
      }
      listener(req, res);
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = listening.address() as AddressInfo;
    pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
    const headers = { 'content-type': 'application/json', 'x-chaingraph-warm-up': token, authorization: `Bearer warm-up-${token}` };
    const bodies = operations.map((operation) => JSON.stringify(operation.body));

    const roundMs: number[] = [];
    const deadline = started + options.budgetMs;
    while (performance.now() < deadline && !options.signal?.aborted) {
      const roundStart = performance.now();
      for (const body of bodies) {
        if (options.signal?.aborted) break;
        const res = await pool.request({ path: '/graphql', method: 'POST', headers, body });
        const answer = (await res.body.json()) as { errors?: unknown[] };
        report.requests += 1;
        if (res.statusCode !== 200 || answer.errors?.length) report.errors += 1;
      }
      roundMs.push(performance.now() - roundStart);
      report.rounds += 1;
      if (report.rounds >= MIN_ROUNDS && settled(roundMs)) {
        report.settled = true;
        break;
      }
    }
    return report;
  } catch (error) {
    logger.warn({ err: error }, 'the warm-up failed: the gateway serves cold');
    return report;
  } finally {
    await pool?.close().catch(() => undefined);
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server?.close(() => resolve()));
    }
    await devnet?.close();
    await http.close();
    report.ms = Math.round(performance.now() - started);
    gateway.warmUp.finish();
  }
}

function settled(roundMs: readonly number[]): boolean {
  if (roundMs.length < 2 * WINDOW) return false;
  const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] as number;
  const last = median(roundMs.slice(-WINDOW));
  const before = median(roundMs.slice(-2 * WINDOW, -WINDOW));
  return last * SETTLED_RATIO >= before;
}
