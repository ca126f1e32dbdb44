/**
 * `npm run bench:stress`: the hostile requests of each scenario (see the list in
 * bench/stress-limits.ts): the largest allowed response, bodies of exactly MAX_BODY_BYTES,
 * documents at each document limit (checked to be at it), oversize bodies on raw sockets and
 * GraphiQL page loads.
 */
import { connect } from 'node:net';
import { Lexer, Source, TokenKind } from 'graphql';
import { measureJson, REQUEST_LIMITS_DEFAULTS, scanDocument } from '../../src/gateway/plugins/use-request-limits.ts';
import { OPERATION_LIMITS_DEFAULTS } from '../../src/gateway/plugins/use-query-cost.ts';
import { ACCEPT, CONCURRENCY, FIELD_PIECES, MAX_BODY, REQUEST_TIMEOUT_MS, SCALAR_FIELDS, VALIDATOR_FIELDS } from './config.ts';
import { errorName, post, type Outcome } from './requests.ts';

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

export async function largestResponseRound(url: string): Promise<{ outcomes: Outcome[]; fullPages: boolean | 'unverified' }> {
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

export function maxBody(i: number): string {
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

export interface Hostile {
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

export function hostileDocuments(nodeIds: readonly string[]): Hostile[] {
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

export const RESET_BEFORE_ANSWER = 'RESET BEFORE THE ANSWER WAS READ';

export interface RawOutcome extends Outcome {
  closed: boolean;
  written: number;
}

export function oversize(host: string, port: number, mode: 'declared' | 'chunked'): Promise<RawOutcome> {
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

export async function graphiqlLoad(url: string): Promise<Outcome[]> {
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
