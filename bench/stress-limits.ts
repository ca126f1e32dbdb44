/**
 * `npm run bench:stress`: the worst request each limit allows, many at once, against the
 * gateway started exactly as `npm start` starts it (a separate process: the build, the
 * esbuild bundle under the start script's node flags with the computed
 * --max-old-space-size, the in-process devnet). Each scenario is followed by GET /health
 * (must answer 200), a look at /ready's admission counters (every slot released) and an
 * RSS sample (VmRSS, and VmHWM: the process's peak so far).
 *
 * 1. 96 concurrent (32 executing + 64 queued at the defaults) of the largest allowed
 *    response: 30 aliases of `validators(first: 100)` with every field, every alias (and
 *    every request) with its own `minDelegationCapacity`, so neither the response cache
 *    nor in-flight sharing can collapse them; 3 rounds, with the default cache and with
 *    a second gateway started with CACHE=off.
 * 2. 96 concurrent bodies of exactly MAX_BODY_BYTES (a string variable of ~1 MB, half of
 *    them undeclared, half declared and used), 3 rounds.
 * 3. 96 concurrent hostile documents at each document limit (bracket nesting 64, 5,000
 *    tokens as one fragment spread ~2,400 times and as repeated fields, 100 definitions,
 *    30 aliases, variables 32 deep holding 10,000 values), each distinct (the parse cache
 *    cannot help); then one request just past each limit, which must get the limit's code
 *    (so the ones before were at it, not below).
 * 4. 64 concurrent oversize bodies over raw sockets: Content-Length 64 MiB with 2 MiB sent,
 *    and 8 MiB chunked: 413 and a connection the server closes (within 15 s). A connection
 *    the server resets before the client has read the 413 (the client was still writing)
 *    is counted apart and reported as a warning, not a failure.
 * 5. 200 concurrent GraphiQL page loads (page and assets) while a round of scenario 1 runs.
 *
 * Allowed answers: 200, 400 with a code other than the limit's own (scenario 3), 413
 * (scenario 4), 503 SERVER_BUSY; never another 5xx, never a masked "Unexpected error.".
 * Prints a table, writes bench/results/stress-<date>.json, exits non-zero when the gateway
 * dies or a request gets an answer outside those.
 *
 * Env: STRESS_CONCURRENCY (96), STRESS_ROUNDS (3), STRESS_RAW_SOCKETS (64),
 * STRESS_GRAPHIQL_LOADS (200); GATEWAY_HEAP_MB and every gateway variable reach `npm start`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Lexer, Source, TokenKind } from 'graphql';
import { measureJson, REQUEST_LIMITS_DEFAULTS, scanDocument } from '../src/plugins/use-request-limits.ts';
import { OPERATION_LIMITS_DEFAULTS } from '../src/plugins/use-query-cost.ts';
import { percentile } from './stats.ts';
import { procMemory, root, sleep, startNpmGateway, stopNpmGateway, type NpmGateway } from './process.ts';

const CONCURRENCY = Number(process.env['STRESS_CONCURRENCY'] ?? 96);
const ROUNDS = Number(process.env['STRESS_ROUNDS'] ?? 3);
const RAW_SOCKETS = Number(process.env['STRESS_RAW_SOCKETS'] ?? 64);
const GRAPHIQL_LOADS = Number(process.env['STRESS_GRAPHIQL_LOADS'] ?? 200);
/** The gateway's defaults (this script does not override them). */
const MAX_BODY = Number(process.env['MAX_BODY_BYTES'] ?? REQUEST_LIMITS_DEFAULTS.maxBodyBytes);
const REQUEST_TIMEOUT_MS = 180_000;
/** /health slower than this during or after a scenario is reported. */
const SLOW_HEALTH_MS = 1000;
/** What clients such as GraphiQL send: request errors then answer 400. */
const ACCEPT = 'application/graphql-response+json, application/json';

const VALIDATOR_FIELDS =
  'id network txHash nodeId subnetId amountStaked delegationFee amountDelegated startTimestamp endTimestamp blsCredentials { publicKey proofOfPossession } delegatorCount validationStatus validationStatusRaw ... on ActiveValidator { stakePercentage uptimePerformance validatorHealth { reachabilityPercent } geolocation { city country latitude longitude } avalancheGoVersion delegationCapacity }';
const SCALAR_FIELDS = ['id', 'network', 'txHash', 'nodeId', 'subnetId', 'amountStaked', 'delegationFee', 'amountDelegated', 'startTimestamp', 'endTimestamp', 'delegatorCount', 'validationStatus', 'validationStatusRaw'];
/** Every validator field as separate selections (scalars, then the two with sub-selections). */
const FIELD_PIECES = [...SCALAR_FIELDS, 'blsCredentials { publicKey proofOfPossession }', VALIDATOR_FIELDS.slice(VALIDATOR_FIELDS.indexOf('... on ActiveValidator'))];

// ---------------------------------------------------------------------------------------------
// Requests and their answers

/** One answer, classified: `200`, `200 <code>` (a 200 with errors), `<status> <code>`, `MASKED`, `ERROR <what>`. */
interface Outcome {
  key: string;
  ms: number;
  bytes: number;
  text?: string;
}

type Tally = Record<string, number>;

function tally(outcomes: readonly Outcome[]): Tally {
  const counts: Tally = {};
  for (const o of outcomes) counts[o.key] = (counts[o.key] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

function classify(status: number, text: string): string {
  if (text.includes('Unexpected error.')) return `${status} MASKED`;
  if (!text.includes('"errors"')) return String(status);
  try {
    const body = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
    const codes = [...new Set((body.errors ?? []).map((e) => e.extensions?.code ?? 'NO_CODE'))].sort();
    return `${status} ${codes.join('+')}`;
  } catch {
    return `${status} UNPARSEABLE`;
  }
}

async function post(url: string, body: string, keepText = false): Promise<Outcome> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    return { key: classify(res.status, text), ms: performance.now() - t0, bytes: text.length, ...(keepText ? { text } : {}) };
  } catch (error) {
    return { key: `ERROR ${errorName(error)}`, ms: performance.now() - t0, bytes: 0 };
  }
}

function errorName(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error as Error).name ?? String(error);
}

// ---------------------------------------------------------------------------------------------
// Scenario 1: the largest allowed response

/** A distinct `minDelegationCapacity` for every alias of every request (nano-AVAX; every active validator has more). */
let capacitySeq = 0;

function largestResponseQuery(): string {
  const aliases = Array.from({ length: OPERATION_LIMITS_DEFAULTS.maxAliases }, (_, i) => {
    capacitySeq += 1;
    return `a${i}: validators(first: 100, filter: { minDelegationCapacity: "${capacitySeq}" }) { edges { cursor node { ${VALIDATOR_FIELDS} } } }`;
  }).join(' ');
  return `{ network(name: MAINNET) { ${aliases} } }`;
}

/** Edges per alias in one answer: each must be a full page of 100. */
function fullPages(text: string): boolean {
  const body = JSON.parse(text) as { data?: { network?: Record<string, { edges: unknown[] }> } };
  const lists = Object.values(body.data?.network ?? {});
  return lists.length === OPERATION_LIMITS_DEFAULTS.maxAliases && lists.every((l) => l.edges.length === 100);
}

async function largestResponseRound(url: string): Promise<{ outcomes: Outcome[]; fullPages: boolean | 'unverified' }> {
  const queries = Array.from({ length: CONCURRENCY }, () => largestResponseQuery());
  const outcomes = await Promise.all(queries.map((query, i) => post(url, JSON.stringify({ query }), i < 8)));
  // One answer per round is parsed (parsing all 96 would take the CPU the gateway needs).
  const sample = outcomes.find((o) => o.key === '200' && o.text);
  const full = sample?.text ? fullPages(sample.text) : 'unverified';
  for (const o of outcomes) delete o.text;
  return { outcomes, fullPages: full };
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: bodies of exactly MAX_BODY_BYTES

function maxBody(i: number): string {
  const query =
    i % 2 === 0
      ? // Undeclared: read, parsed and ignored.
        '{ network(name: MAINNET) { validators(first: 5) { edges { node { nodeId } } } } }'
      : // Declared and used: coerced, then checked against the cursor grammar.
        'query Q($pad: String) { network(name: MAINNET) { validators(first: 5, after: $pad) { edges { node { nodeId } } } } }';
  const envelope = JSON.stringify({ query, variables: { pad: `${i}:` } });
  const body = envelope.replace(`"pad":"${i}:"`, `"pad":"${i}:${'x'.repeat(MAX_BODY - Buffer.byteLength(envelope))}"`);
  if (Buffer.byteLength(body) !== MAX_BODY) throw new Error(`body is ${Buffer.byteLength(body)} bytes, not ${MAX_BODY}`);
  return body;
}

// ---------------------------------------------------------------------------------------------
// Scenario 3: hostile documents at the limits

const DOC_LIMITS = { maxDocumentNesting: REQUEST_LIMITS_DEFAULTS.maxDocumentNesting, maxTokenLength: REQUEST_LIMITS_DEFAULTS.maxTokenLength, maxDefinitions: REQUEST_LIMITS_DEFAULTS.maxDefinitions };

/** Lexical tokens as graphql-armor's token limit counts them (comments are not tokens). */
function countTokens(document: string): number {
  const lexer = new Lexer(new Source(document));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
}

/** Bracket nesting as the gateway's scan counts it (the documents here hold no strings with brackets). */
function nesting(document: string): number {
  let depth = 0;
  let max = 0;
  for (const c of document.replace(/"[^"]*"|#[^\n]*/g, '')) {
    if (c === '{' || c === '[' || c === '(') max = Math.max(max, ++depth);
    else if (c === '}' || c === ']' || c === ')') depth--;
  }
  return max;
}

interface Hostile {
  name: string;
  /** The limit's own code: what the request one past the limit must get, and what none at the limit may get. */
  limitCode: string;
  /** The i-th document at the limit (distinct for every i), as a request body. */
  at: (i: number) => string;
  /** Documents just past the limit (one per dimension the limit has). */
  past: () => string[];
  /** What was measured on the document at the limit, to show it is at the limit. */
  measure: string;
}

function hostileDocuments(nodeIds: readonly string[]): Hostile[] {
  const body = (query: string, variables?: unknown) => JSON.stringify(variables === undefined ? { query } : { query, variables });
  // A comment makes every document distinct without changing its tokens or brackets.
  const tag = (i: number) => `# stress ${i}\n`;
  // Every document lists its own validators: kinds and requests never share a cache entry or an in-flight call.
  const list = (i: number, kind: number) => `validators(first: 100, filter: { minDelegationCapacity: "${(kind + 1) * 1_000_000 + i}" })`;

  // Bracket nesting: inline fragments nest selection sets without adding field depth.
  const nested = (levels: number, i: number) =>
    `${tag(i)}{ network(name: MAINNET) { ${list(i, 1)} { edges { node { ${'... on Validator { '.repeat(levels)}${VALIDATOR_FIELDS} ${'} '.repeat(levels)}} } } } }`;
  let levels = 0;
  while (nesting(nested(levels + 1, 0)) <= DOC_LIMITS.maxDocumentNesting) levels++;

  // Tokens, exactly the limit: a full page of validators whose selection is one fragment spread ~2,400 times
  // (graphql-js merges the spreads; every walker that does not is made to repeat the fragment).
  const spreadsDoc = (n: number, i: number) => {
    const head = `${tag(i)}{ network(name: MAINNET) { ${list(i, 2)} { edges { node { `;
    const tail = ` } } } } }\nfragment F on Validator { ${VALIDATOR_FIELDS} }`;
    const free = n - countTokens(head + tail);
    return `${head}${' ...F'.repeat(Math.floor(free / 2))}${free % 2 ? ' __typename' : ''}${tail}`;
  };
  // Tokens, exactly the limit, the other way: the same fields repeated (graphql-js's overlap check has a work budget).
  const fieldsDoc = (n: number, i: number) => {
    const head = `${tag(i)}{ network(name: MAINNET) { ${list(i, 5)} { edges { node { `;
    const tail = ' } } } } }';
    const fields = Array.from({ length: n - countTokens(head + tail) }, (_, k) => SCALAR_FIELDS[k % SCALAR_FIELDS.length]).join(' ');
    return head + fields + tail;
  };

  // Definitions: one operation and 99 fragments, each spreading the next (a chain 99 deep for every walker).
  const fragmentsDoc = (definitions: number, i: number, perFragment: number) => {
    const fragments = Array.from({ length: definitions - 1 }, (_, k) => {
      const fields = Array.from({ length: perFragment }, (_, f) => FIELD_PIECES[(k + f) % FIELD_PIECES.length]).join(' ');
      return `fragment F${k} on Validator { ${fields}${k < definitions - 2 ? ` ...F${k + 1}` : ''} }`;
    });
    return `${tag(i)}{ network(name: MAINNET) { ${list(i, 3)} { edges { node { ...F0 } } } } }\n${fragments.join('\n')}`;
  };
  let perFragment = FIELD_PIECES.length;
  while (perFragment > 1 && countTokens(fragmentsDoc(DOC_LIMITS.maxDefinitions, 0, perFragment)) > OPERATION_LIMITS_DEFAULTS.maxTokens) perFragment--;

  // Aliases: 30 validator lookups, each with its delegators, by distinct node ids (and distinct page sizes past them).
  const aliasesDoc = (n: number, i: number) => {
    const aliases = Array.from({ length: n }, (_, a) => {
      const k = i * n + a;
      const nodeId = nodeIds[k % nodeIds.length] as string;
      const first = 1 + (Math.floor(k / nodeIds.length) % 100);
      return `v${a}: validator(nodeId: "${nodeId}") { ${VALIDATOR_FIELDS} delegators(first: ${first}) { edges { node { id txHash amountDelegated delegationStatus } } } }`;
    }).join(' ');
    return `${tag(i)}{ network(name: MAINNET) { ${aliases} } }`;
  };

  // Variables: 32 deep and 10,000 values in all; the list is declared and used (coerced, then refused by the
  // argument's cap of 100 node ids), the deep object is not declared (read and ignored).
  const varsQuery = 'query Q($ids: [String!]) { network(name: MAINNET) { validators(first: 100, filter: { nodeIds: $ids }) { edges { node { nodeId } } } } }';
  const variables = (depth: number, values: number, i: number) => {
    let deep: unknown = i;
    for (let d = 2; d <= depth; d++) deep = { a: deep };
    // Values: the variables object, its 2 fields, the deep chain's (depth - 1) values, and the list's elements.
    const listLength = values - (1 + 2 + (depth - 1));
    const ids = Array.from({ length: listLength }, (_, k) => nodeIds[(i + k) % nodeIds.length] as string);
    return { ids, deep };
  };
  const maxDepthV = REQUEST_LIMITS_DEFAULTS.maxVariablesDepth;
  const maxValues = REQUEST_LIMITS_DEFAULTS.maxVariablesValues;

  const docs: Hostile[] = [
    {
      name: `bracket nesting ${DOC_LIMITS.maxDocumentNesting}`,
      limitCode: 'QUERY_TOO_DEEP',
      at: (i) => body(nested(levels, i)),
      past: () => [body(nested(levels + 1, 0))],
      measure: `nesting ${nesting(nested(levels, 0))} (${levels} nested inline fragments around every validator field)`,
    },
    {
      name: `${OPERATION_LIMITS_DEFAULTS.maxTokens} tokens (one fragment spread ${spreadsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens, 0).match(/\.\.\.F\b/g)?.length ?? 0} times)`,
      limitCode: 'TOO_MANY_TOKENS',
      at: (i) => body(spreadsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens, i)),
      past: () => [body(spreadsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens + 1, 0))],
      measure: `${countTokens(spreadsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens, 0))} tokens`,
    },
    {
      name: `${OPERATION_LIMITS_DEFAULTS.maxTokens} tokens (the same fields repeated)`,
      limitCode: 'TOO_MANY_TOKENS',
      at: (i) => body(fieldsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens, i)),
      past: () => [body(fieldsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens + 1, 0))],
      measure: `${countTokens(fieldsDoc(OPERATION_LIMITS_DEFAULTS.maxTokens, 0))} tokens; graphql-js's overlapping-fields budget refuses these (400 GRAPHQL_VALIDATION_FAILED, "Validation aborted.")`,
    },
    {
      name: `${DOC_LIMITS.maxDefinitions} definitions (1 operation + ${DOC_LIMITS.maxDefinitions - 1} chained fragments)`,
      limitCode: 'DOCUMENT_TOO_LARGE',
      at: (i) => body(fragmentsDoc(DOC_LIMITS.maxDefinitions, i, perFragment)),
      past: () => [body(fragmentsDoc(DOC_LIMITS.maxDefinitions + 1, 0, 1))],
      measure: `${DOC_LIMITS.maxDefinitions} definitions, ${perFragment} fields each, ${countTokens(fragmentsDoc(DOC_LIMITS.maxDefinitions, 0, perFragment))} tokens`,
    },
    {
      name: `${OPERATION_LIMITS_DEFAULTS.maxAliases} aliases (validator + delegators, distinct node ids)`,
      limitCode: 'TOO_MANY_ALIASES',
      at: (i) => body(aliasesDoc(OPERATION_LIMITS_DEFAULTS.maxAliases, i)),
      past: () => [body(aliasesDoc(OPERATION_LIMITS_DEFAULTS.maxAliases + 1, 0))],
      measure: `${OPERATION_LIMITS_DEFAULTS.maxAliases} aliases, ${countTokens(aliasesDoc(OPERATION_LIMITS_DEFAULTS.maxAliases, 0))} tokens`,
    },
    {
      name: `variables ${maxDepthV} deep holding ${maxValues} values`,
      limitCode: 'VARIABLES_TOO_LARGE',
      at: (i) => body(`${tag(i)}${varsQuery}`, variables(maxDepthV, maxValues, i)),
      past: () => [body(varsQuery, variables(maxDepthV + 1, maxValues, 0)), body(varsQuery, variables(maxDepthV, maxValues + 1, 0))],
      measure: `${maxValues} values (${maxValues - 34} node ids declared as [String!]), ${maxDepthV} deep (undeclared), ${Buffer.byteLength(body(varsQuery, variables(maxDepthV, maxValues, 0)))} B body`,
    },
  ];

  // The documents must be what they claim: at each limit (the gateway's own scan and measure pass them) and the
  // past ones over it.
  const parsed = (b: string) => JSON.parse(b) as { query: string; variables?: unknown };
  for (const doc of docs.slice(0, 5)) {
    const at = parsed(doc.at(0)).query;
    if (scanDocument(at, DOC_LIMITS)) throw new Error(`${doc.name}: the document at the limit fails the gateway's scan`);
    if (countTokens(at) > OPERATION_LIMITS_DEFAULTS.maxTokens) throw new Error(`${doc.name}: ${countTokens(at)} tokens`);
  }
  if (nesting(parsed(docs[0]!.at(0)).query) !== DOC_LIMITS.maxDocumentNesting) throw new Error('nesting document is not at the limit');
  for (const doc of [docs[1]!, docs[2]!]) {
    if (countTokens(parsed(doc.at(0)).query) !== OPERATION_LIMITS_DEFAULTS.maxTokens) throw new Error(`${doc.name}: not at the limit`);
  }
  const v = parsed(docs[5]!.at(0)).variables;
  if (measureJson(v, maxDepthV, maxValues) !== undefined) throw new Error('variables at the limit fail the gateway measure');
  if (measureJson(v, maxDepthV - 1, maxValues) !== 'depth' || measureJson(v, maxDepthV, maxValues - 1) !== 'values') {
    throw new Error('variables are not exactly at the limits');
  }
  return docs;
}

// ---------------------------------------------------------------------------------------------
// Scenario 4: oversize bodies on raw sockets

const RESET_BEFORE_ANSWER = 'RESET BEFORE THE ANSWER WAS READ';

interface RawOutcome extends Outcome {
  closed: boolean;
  written: number;
}

function oversize(host: string, port: number, mode: 'declared' | 'chunked'): Promise<RawOutcome> {
  const MiB = 1024 * 1024;
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = connect(port, host);
    let answer = '';
    let error: string | undefined;
    let sent = 0;
    let closed = false;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      const code = /"code":"([A-Z_]+)"/.exec(answer)?.[1];
      // A server that closes a socket with unread bytes in it resets the connection: a client still writing may see
      // the reset (EPIPE, ECONNRESET) before it reads the answer that came first.
      let key = match ? `${match[1]} ${code ?? 'NO_CODE'}` : error ? `${RESET_BEFORE_ANSWER} (${error})` : 'NO ANSWER';
      if (!closed) key += ' NOT CLOSED';
      resolve({ key, ms: performance.now() - t0, bytes: answer.length, closed, written: socket.bytesWritten });
    };
    // The server must close the connection by itself: 15 s is half the whole-request timeout.
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, 15_000);
    socket.on('data', (data) => (answer += data.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', () => {
      if (performance.now() - t0 < 15_000) closed = true;
      finish();
    });
    const head =
      mode === 'declared'
        ? `POST /graphql HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\ncontent-length: ${64 * MiB}\r\n\r\n{"query":"`
        : `POST /graphql HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\naccept: ${ACCEPT}\r\ntransfer-encoding: chunked\r\n\r\n`;
    socket.write(head);
    const total = mode === 'declared' ? 2 * MiB : 8 * MiB;
    const piece = Buffer.alloc(mode === 'declared' ? 64 * 1024 : 256 * 1024, 0x61);
    const frame = mode === 'declared' ? piece : Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]);
    const pump = () => {
      while (sent < total && !socket.destroyed && !closed) {
        sent += piece.length;
        if (!socket.write(frame)) return void socket.once('drain', pump);
      }
      // Declared: stop after 2 MiB and wait (the rest never comes). Chunked: the last chunk.
      if (mode === 'chunked' && sent >= total && !socket.destroyed) socket.write('0\r\n\r\n');
    };
    pump();
  });
}

// ---------------------------------------------------------------------------------------------
// Scenario 5: GraphiQL page loads

async function graphiqlLoad(url: string): Promise<Outcome[]> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { headers: { accept: 'text/html' }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    const html = await res.text();
    const outcomes: Outcome[] = [{ key: `page ${res.status}`, ms: performance.now() - t0, bytes: html.length }];
    const assets = [...html.matchAll(/(?:src|href)="(\/graphql\/[^"]+)"/g)].map((m) => m[1] as string);
    await Promise.all(
      assets.map(async (path) => {
        const a0 = performance.now();
        try {
          const asset = await fetch(new URL(path, url), { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          const bytes = (await asset.arrayBuffer()).byteLength;
          outcomes.push({ key: `asset ${asset.status}`, ms: performance.now() - a0, bytes });
        } catch (error) {
          outcomes.push({ key: `asset ERROR ${errorName(error)}`, ms: performance.now() - a0, bytes: 0 });
        }
      }),
    );
    return outcomes;
  } catch (error) {
    return [{ key: `page ERROR ${errorName(error)}`, ms: performance.now() - t0, bytes: 0 }];
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring a scenario

interface Row {
  scenario: string;
  cache: string;
  requests: number;
  statuses: Tally;
  /** Keys outside what the scenario allows. */
  unexpected: Tally;
  wallMs: number;
  /** VmHWM after the scenario: the process's peak so far. */
  peakRssMb: number;
  /** Highest VmRSS sampled (every 100 ms) during the scenario. */
  sampledPeakRssMb: number;
  rssAfterMb: number;
  alive: boolean;
  healthAfter: { status: number | string; ms: number };
  /** GET /health every 250 ms while the scenario runs; `slowest`: the 3 slowest, with when they started (ms into the scenario). */
  healthDuring: { samples: number; maxMs: number; failures: number; slowest: { atMs: number; ms: number }[] };
  admissionAfter?: { running: number; queued: number } | string;
  /** The longest this script's own event loop was blocked during the scenario (client-side delays in the timings). */
  clientLoopMaxDelayMs: number;
  latencyMs?: { p50: number; p99: number; max: number };
  failedChecks: string[];
  notes: string[];
}

async function health(base: string): Promise<{ status: number | string; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/health`, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return { status: res.status, ms: round(performance.now() - t0) };
  } catch (error) {
    return { status: `ERROR ${errorName(error)}`, ms: round(performance.now() - t0) };
  }
}

/** /ready's admission counters once the scenario's requests are done (given 3 s to drain). */
async function admission(base: string): Promise<{ running: number; queued: number } | string> {
  let last: { running: number; queued: number } | string = 'no answer';
  for (let attempt = 0; attempt < 15; attempt++) {
    try {
      const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(10_000) });
      const body = (await res.json()) as { admission?: { running: number; queued: number } };
      last = body.admission ? { running: body.admission.running, queued: body.admission.queued } : `HTTP ${res.status}`;
      if (typeof last !== 'string' && last.running === 0 && last.queued === 0) return last;
    } catch (error) {
      last = `ERROR ${errorName(error)}`;
    }
    await sleep(200);
  }
  return last;
}

interface ScenarioResult {
  outcomes: Outcome[];
  notes?: string[];
  /** Checks on the answers' content that failed. */
  failedChecks?: string[];
}

async function measure(
  gateway: NpmGateway,
  scenario: string,
  cache: string,
  allowed: (key: string) => boolean,
  work: () => Promise<ScenarioResult>,
): Promise<Row> {
  let sampling = true;
  let sampledPeak = procMemory(gateway.pid).rssMb;
  const sampler = (async () => {
    while (sampling) {
      sampledPeak = Math.max(sampledPeak, procMemory(gateway.pid).rssMb);
      await sleep(100);
    }
  })();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const during: { atMs: number; ms: number }[] = [];
  let healthFailures = 0;
  const t0 = performance.now();
  const prober = (async () => {
    while (sampling) {
      const atMs = round(performance.now() - t0);
      const h = await health(gateway.base);
      if (h.status !== 200) healthFailures++;
      during.push({ atMs, ms: h.ms });
      await sleep(250);
    }
  })();
  let result: ScenarioResult;
  const notes: string[] = [];
  try {
    result = await work();
  } catch (error) {
    result = { outcomes: [{ key: `SCRIPT ERROR ${String(error).slice(0, 200)}`, ms: 0, bytes: 0 }] };
  }
  const wallMs = round(performance.now() - t0);
  sampling = false;
  await Promise.all([sampler, prober]);
  loop.disable();
  notes.push(...(result.notes ?? []));
  const statuses = tally(result.outcomes);
  const unexpected = Object.fromEntries(Object.entries(statuses).filter(([key]) => !allowed(key)));
  const alive = !gateway.exited() && procMemory(gateway.pid).rssMb > 0;
  const healthAfter = alive ? await health(gateway.base) : { status: 'dead', ms: 0 };
  const admissionAfter = alive ? await admission(gateway.base) : 'dead';
  const mem = procMemory(gateway.pid);
  const latencies = result.outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const row: Row = {
    scenario,
    cache,
    requests: result.outcomes.length,
    statuses,
    unexpected,
    wallMs,
    peakRssMb: round(mem.peakMb),
    sampledPeakRssMb: round(sampledPeak),
    rssAfterMb: round(mem.rssMb),
    alive: alive && healthAfter.status === 200,
    healthAfter,
    healthDuring: {
      samples: during.length,
      maxMs: round(Math.max(0, ...during.map((d) => d.ms))),
      failures: healthFailures,
      slowest: [...during].sort((a, b) => b.ms - a.ms).slice(0, 3),
    },
    admissionAfter,
    clientLoopMaxDelayMs: round(loop.max / 1e6),
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: round(latencies.at(-1) ?? 0) },
    failedChecks: result.failedChecks ?? [],
    notes,
  };
  process.stdout.write(`${JSON.stringify(row)}\n`);
  return row;
}

// ---------------------------------------------------------------------------------------------

const busy = (key: string) => key === '503 SERVER_BUSY';

async function largestResponses(gateway: NpmGateway, cache: string, rounds: number): Promise<Row> {
  return measure(gateway, `1. ${CONCURRENCY} x largest response (30 aliases x 100 validators, all fields, distinct args) x ${rounds} rounds`, cache, (k) => k === '200' || busy(k), async () => {
    const outcomes: Outcome[] = [];
    const notes: string[] = [];
    const failedChecks: string[] = [];
    for (let r = 0; r < rounds; r++) {
      const r0 = performance.now();
      const round = await largestResponseRound(gateway.url);
      outcomes.push(...round.outcomes);
      const sizes = round.outcomes.filter((o) => o.key === '200').map((o) => o.bytes);
      notes.push(`round ${r + 1}: ${Math.round(performance.now() - r0)} ms, ${tallyText(tally(round.outcomes))}; 200 bodies ${sizes.length ? `${(Math.min(...sizes) / 1e6).toFixed(2)}-${(Math.max(...sizes) / 1e6).toFixed(2)} MB` : '-'}; full pages: ${round.fullPages}`);
      if (round.fullPages === false) failedChecks.push(`round ${r + 1}: an answer without 30 full pages of 100 validators`);
    }
    return { outcomes, notes, failedChecks };
  });
}

interface Run {
  label: string;
  argv: string[];
  idle: { rssMb: number; peakRssMb: number };
  rows: Row[];
  died?: string;
  error?: string;
}

async function stressGateway(label: string, env: Record<string, string>, plan: (gateway: NpmGateway) => Promise<Row[]>): Promise<Run> {
  process.stdout.write(`starting the gateway as \`npm start\` does (${label})...\n`);
  const gateway = await startNpmGateway({ env });
  const idleMem = procMemory(gateway.pid);
  const idle = { rssMb: round(idleMem.rssMb), peakRssMb: round(idleMem.peakMb) };
  process.stdout.write(`gateway pid ${gateway.pid}: ${gateway.argv.join(' ')}; idle RSS ${idle.rssMb} MB\n`);
  // Interrupted: the gateway goes too.
  const interrupted = () => {
    try {
      process.kill(gateway.pid, 'SIGTERM');
    } catch {
      // gone
    }
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  let rows: Row[] = [];
  let error: string | undefined;
  try {
    rows = await plan(gateway);
  } catch (caught) {
    error = String(caught).slice(0, 500);
  }
  const died = gateway.exited();
  await stopNpmGateway(gateway);
  process.removeListener('SIGINT', interrupted);
  return { label, argv: gateway.argv, idle, rows, ...(died ? { died } : {}), ...(error ? { error } : {}) };
}

async function main(): Promise<void> {
  const started = new Date();
  const runs: Run[] = [];

  // The default configuration (response cache in memory).
  runs.push(
    await stressGateway('default configuration', {}, async (gateway) => {
      const rows: Row[] = [];
      const alive = () => !gateway.exited();
      const { hostname: host, port } = new URL(gateway.url);
      // Node ids for the documents that look validators up.
      const nodeIds: string[] = [];
      for (let after: string | null = null; ; ) {
        const page = await post(gateway.url, JSON.stringify({ query: 'query($after: String) { network(name: MAINNET) { validators(first: 100, after: $after) { pageInfo { hasNextPage endCursor } edges { node { nodeId } } } } }', variables: { after } }), true);
        const data = (JSON.parse(page.text ?? '{}') as { data?: { network: { validators: { pageInfo: { hasNextPage: boolean; endCursor: string }; edges: { node: { nodeId: string } }[] } } } }).data;
        if (!data) throw new Error(`could not list validators: ${page.key} ${page.text?.slice(0, 300)}`);
        nodeIds.push(...data.network.validators.edges.map((e) => e.node.nodeId));
        if (!data.network.validators.pageInfo.hasNextPage) break;
        after = data.network.validators.pageInfo.endCursor;
      }
      const unique = [...new Set(nodeIds)];
      const hostile = hostileDocuments(unique);

      rows.push(await largestResponses(gateway, 'memory', ROUNDS));
      if (!alive()) return rows;

      rows.push(
        await measure(gateway, `2. ${CONCURRENCY} x body of exactly ${MAX_BODY} B (1 MB string variable, half undeclared, half declared and used) x ${ROUNDS} rounds`, 'memory', (k) => k === '200' || k === '400 BAD_USER_INPUT' || k === '200 BAD_USER_INPUT' || busy(k), async () => {
          const outcomes: Outcome[] = [];
          for (let r = 0; r < ROUNDS; r++) {
            outcomes.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => post(gateway.url, maxBody(r * CONCURRENCY + i))))));
          }
          return { outcomes, notes: ['undeclared: expected 200 with data; declared as `after: String`: expected BAD_USER_INPUT (a cursor is at most 2,048 characters)'] };
        }),
      );
      if (!alive()) return rows;

      for (const doc of hostile) {
        // At the limit: anything but the limit's own code, a 5xx other than SERVER_BUSY or a masked error.
        const allowedAt = (k: string) => (/^(200|400)( |$)/.test(k) && !k.includes(doc.limitCode) && !k.includes('MASKED') && !k.includes('INTERNAL')) || busy(k);
        rows.push(
          await measure(gateway, `3. ${CONCURRENCY} x hostile document: ${doc.name}`, 'memory', (k) => (k.startsWith('past limit: ') ? k === `past limit: 400 ${doc.limitCode}` : allowedAt(k)), async () => {
            const outcomes = await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => post(gateway.url, doc.at(i + 1))));
            const past: Outcome[] = [];
            for (const b of doc.past()) {
              const o = await post(gateway.url, b);
              past.push({ ...o, key: `past limit: ${o.key}` });
            }
            return { outcomes: [...outcomes, ...past], notes: [doc.measure] };
          }),
        );
        if (!alive()) return rows;
      }

      for (const mode of ['declared', 'chunked'] as const) {
        const name = mode === 'declared' ? 'Content-Length 64 MiB, 2 MiB sent then nothing' : 'chunked, 8 MiB';
        rows.push(
          await measure(gateway, `4. ${RAW_SOCKETS} x oversize body on a raw socket: ${name}`, 'memory', (k) => k === '413 PAYLOAD_TOO_LARGE' || k.startsWith(RESET_BEFORE_ANSWER) || (mode === 'chunked' && busy(k)), async () => {
            const outcomes = await Promise.all(Array.from({ length: RAW_SOCKETS }, () => oversize(host, Number(port), mode)));
            const written = outcomes.map((o) => o.written);
            return {
              outcomes,
              notes: [`bytes the client's socket accepted before the server closed: ${(Math.min(...written) / 1048576).toFixed(2)}-${(Math.max(...written) / 1048576).toFixed(2)} MiB (kernel buffers included); closed by the server: ${outcomes.filter((o) => o.closed).length}/${outcomes.length}`],
            };
          }),
        );
        if (!alive()) return rows;
      }

      rows.push(
        await measure(gateway, `5. ${GRAPHIQL_LOADS} x GraphiQL page load (page + assets) during a round of scenario 1 (${CONCURRENCY} x largest response)`, 'memory', (k) => k === 'page 200' || k === 'asset 200' || k === '200' || busy(k), async () => {
          const [pages, round] = await Promise.all([Promise.all(Array.from({ length: GRAPHIQL_LOADS }, () => graphiqlLoad(gateway.url))), largestResponseRound(gateway.url)]);
          const pageTimes = pages.map((p) => p[0]?.ms ?? 0).sort((a, b) => a - b);
          return {
            ...(round.fullPages === false ? { failedChecks: ['an answer without 30 full pages of 100 validators'] } : {}),
            outcomes: [...pages.flat(), ...round.outcomes],
            notes: [
              `page load (HTML) ms: p50 ${percentile(pageTimes, 50)}, p99 ${percentile(pageTimes, 99)}, max ${round2(pageTimes.at(-1) ?? 0)}`,
              `scenario 1 round alongside: ${tallyText(tally(round.outcomes))}; full pages: ${round.fullPages}`,
            ],
          };
        }),
      );
      return rows;
    }),
  );

  // The response cache off: every alias of every request goes upstream.
  runs.push(await stressGateway('CACHE=off', { CACHE: 'off' }, async (gateway) => [await largestResponses(gateway, 'off', ROUNDS)]));

  const rows = runs.flatMap((run) => run.rows);
  const table = formatTable(rows);
  process.stdout.write(`\n${table}\n`);
  for (const row of rows) for (const note of row.notes) process.stdout.write(`  ${row.scenario.slice(0, 2)} ${note}\n`);

  const failures: string[] = [];
  for (const run of runs) {
    if (run.died) failures.push(`${run.label}: the gateway died: ${run.died}`);
    if (run.error) failures.push(`${run.label}: the script failed: ${run.error}`);
  }
  for (const row of rows) {
    if (Object.keys(row.unexpected).length > 0) failures.push(`${row.scenario} (cache ${row.cache}): unexpected ${tallyText(row.unexpected)}`);
    for (const check of row.failedChecks) failures.push(`${row.scenario} (cache ${row.cache}): ${check}`);
    if (!row.alive) failures.push(`${row.scenario} (cache ${row.cache}): /health after: ${row.healthAfter.status}`);
    if (typeof row.admissionAfter === 'string' || (row.admissionAfter && (row.admissionAfter.running > 0 || row.admissionAfter.queued > 0))) {
      failures.push(`${row.scenario} (cache ${row.cache}): admission slots not released: ${JSON.stringify(row.admissionAfter)}`);
    }
  }
  const warnings = rows
    .filter((r) => r.healthDuring.maxMs > SLOW_HEALTH_MS || r.healthDuring.failures > 0 || Number(r.healthAfter.ms) > SLOW_HEALTH_MS)
    .map(
      (r) =>
        `${r.scenario} (cache ${r.cache}): /health during: max ${r.healthDuring.maxMs} ms (started ${r.healthDuring.slowest[0]?.atMs ?? '-'} ms into the scenario; this script's own event loop blocked at most ${r.clientLoopMaxDelayMs} ms), ${r.healthDuring.failures} failures; after: ${r.healthAfter.ms} ms`,
    );
  for (const r of rows) {
    const resets = Object.entries(r.statuses).filter(([k]) => k.startsWith(RESET_BEFORE_ANSWER)).reduce((n, [, c]) => n + c, 0);
    if (resets > 0) warnings.push(`${r.scenario}: ${resets} of ${r.requests} connections were reset by the server before the 413 could be read (closed, not buffered; the answer was lost to the reset)`);
  }

  const heapMb = Number(runs[0]?.argv.find((a) => a.startsWith('--max-old-space-size='))?.split('=')[1] ?? 0);
  const payload = {
    date: started.toISOString(),
    node: process.version,
    commit: git(['rev-parse', 'HEAD']),
    // npm start builds the working tree: files being edited at the time are part of what ran.
    uncommittedSrc: git(['status', '--porcelain', '--', 'src']).split('\n').filter(Boolean),
    env: { GATEWAY_HEAP_MB: process.env['GATEWAY_HEAP_MB'] ?? null, concurrency: CONCURRENCY, rounds: ROUNDS, rawSockets: RAW_SOCKETS, graphiqlLoads: GRAPHIQL_LOADS, maxBodyBytes: MAX_BODY },
    heapMb,
    runs: runs.map((run) => ({ label: run.label, gatewayArgv: run.argv, idle: run.idle, died: run.died ?? null, error: run.error ?? null })),
    rows,
    failures,
    warnings,
  };
  mkdirSync(`${root}bench/results`, { recursive: true });
  const file = `${root}bench/results/stress-${started.toISOString().slice(0, 19).replaceAll(':', '-')}.json`;
  writeFileSync(file, `${JSON.stringify(payload, null, 2)}\n`);
  process.stdout.write(`\nheap limit (--max-old-space-size): ${heapMb} MiB\nresults: ${file}\n`);
  for (const w of warnings) process.stdout.write(`warning: ${w}\n`);
  if (failures.length > 0) {
    for (const f of failures) process.stderr.write(`FAILED: ${f}\n`);
    process.exit(1);
  }
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
}

function tallyText(t: Tally): string {
  return Object.entries(t)
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
}

function formatTable(rows: readonly Row[]): string {
  const header = '| Scenario | Cache | Requests | Statuses | Wall ms | Peak RSS MB (VmHWM) | RSS after MB | Max /health ms during | Alive |';
  const sep = '|---|---|---|---|---|---|---|---|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.scenario} | ${r.cache} | ${r.requests} | ${tallyText(r.statuses)} | ${Math.round(r.wallMs)} | ${r.peakRssMb} | ${r.rssAfterMb} | ${r.healthDuring.maxMs} | ${r.alive ? 'yes' : 'NO'} |`,
  );
  return [header, sep, ...lines].join('\n');
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
