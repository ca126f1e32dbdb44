/**
 * `npx tsx bench/validation-cost.ts`: what validating the worst allowed document costs.
 *
 * For each family of hostile documents (the same field repeated under one parent, with a sub-selection or as a
 * leaf, with equal or differing arguments, nested repeats, fragment fan-out, fragments compared pairwise,
 * aliases up to the alias limit, inline fragments nested to the bracket limit, long string arguments), the
 * family's size is grown to the largest document that passes every limit of the gateway: the edge's document
 * scan (bracket nesting, token length, definitions), the token limit of the parser, and every validation-time
 * limit (depth, aliases, directives, introspection and the validation complexity budget). That document is then
 * validated through the gateway's own envelop (its plugins, its rule list) on a freshly parsed copy each run, so
 * neither the parse cache nor the validation cache answers, and the median and worst CPU time are reported.
 *
 * Documents that the complexity budget refuses are reported too, with the time the refusal took.
 *
 * Env: VALIDATION_BENCH_RUNS (21): timed runs per document, after 5 untimed warm-up runs.
 */
import { GraphQLError, Lexer, parse, Source, TokenKind, type DocumentNode } from 'graphql';
import { createGateway } from '../src/gateway/gateway.ts';
import { REQUEST_LIMITS_DEFAULTS, scanDocument } from '../src/gateway/plugins/use-request-limits.ts';
import { OPERATION_LIMITS_DEFAULTS } from '../src/gateway/plugins/use-query-cost.ts';
import { validationComplexity } from '../src/gateway/plugins/validation-complexity.ts';
import { createDataApiClient } from '../src/upstream/data-api.ts';

const RUNS = Number(process.env['VALIDATION_BENCH_RUNS'] ?? 21);
/** Untimed runs first: the rules' code is compiled by then. */
const WARM_UP = 5;

/** Codes of the limits a hostile document must stay under (anything else, a field conflict say, still costs validation). */
const LIMIT_CODES = new Set(['QUERY_TOO_DEEP', 'TOO_MANY_ALIASES', 'TOO_MANY_TOKENS', 'TOO_MANY_DIRECTIVES', 'INTROSPECTION_LIMIT', 'QUERY_TOO_COMPLEX', 'DOCUMENT_TOO_LARGE']);

interface Family {
  name: string;
  /** The document of size `n` (monotone: a larger n never passes a limit a smaller one failed). */
  document: (n: number) => string;
  /** Smallest and largest n tried. */
  from: number;
  to: number;
}

const rep = (n: number, piece: (i: number) => string) => Array.from({ length: n }, (_, i) => piece(i)).join(' ');
const SUBNET_LEAVES = 'subnetId isPrimaryNetwork createBlockTimestamp';
const VALIDATOR_LEAVES = ['id', 'network', 'txHash', 'nodeId', 'subnetId', 'amountStaked', 'delegationFee', 'amountDelegated', 'startTimestamp', 'endTimestamp', 'delegatorCount', 'validationStatus'];

const families: Family[] = [
  {
    name: 'the reported attack: subnets(first: 1) { edges { node { 3 leaves } } } repeated',
    document: (n) => `{ network(name: MAINNET) { ${rep(n, () => `subnets(first: 1) { edges { node { ${SUBNET_LEAVES} } } }`)} } }`,
    from: 1,
    to: 1000,
  },
  {
    name: 'one leaf repeated (12 names round robin), no arguments',
    document: (n) => `{ network(name: MAINNET) { validators(first: 1) { edges { node { ${rep(n, (i) => VALIDATOR_LEAVES[i % VALIDATOR_LEAVES.length] ?? 'id')} } } } } }`,
    from: 1,
    to: 6000,
  },
  {
    name: 'subnets repeated with differing arguments (every pair conflicts)',
    document: (n) => `{ network(name: MAINNET) { ${rep(n, (i) => `subnets(first: ${(i % 100) + 1}) { pageInfo { hasNextPage } }`)} } }`,
    from: 1,
    to: 1000,
  },
  {
    name: 'nested repeats: n subnets, each with n edges { node } repeats',
    document: (n) => `{ network(name: MAINNET) { ${rep(n, () => `subnets(first: 1) { ${rep(n, () => 'edges { node { subnetId } }')} }`)} } }`,
    from: 1,
    to: 200,
  },
  {
    name: 'fragment fan-out: n subnets, each spreading 20 fragments of the same 3 leaves',
    document: (n) =>
      `{ network(name: MAINNET) { ${rep(n, () => `subnets(first: 1) { edges { node { ${rep(20, (f) => `...F${f}`)} } } }`)} } } ${rep(20, (f) => `fragment F${f} on Subnet { ${SUBNET_LEAVES} }`)}`,
    from: 1,
    to: 500,
  },
  {
    name: 'fragments compared pairwise: one set spreading n fragments of the same 3 leaves',
    document: (n) => `{ network(name: MAINNET) { subnet(subnetId: "11111111111111111111111111111111LpoYY") { ${rep(n, (f) => `...F${f}`)} } } } ${rep(n, (f) => `fragment F${f} on Subnet { ${SUBNET_LEAVES} }`)}`,
    from: 1,
    to: 99,
  },
  {
    name: 'aliases up to the limit: 30 response names, each repeated',
    document: (n) => `{ network(name: MAINNET) { ${rep(n, (i) => `a${i % OPERATION_LIMITS_DEFAULTS.maxAliases}: subnets(first: 1) { edges { node { ${SUBNET_LEAVES} } } }`)} } }`,
    from: 1,
    to: 1000,
  },
  {
    name: 'inline fragments nested 56 deep (the bracket limit) around n repeated subnets',
    document: (n) => `{ network(name: MAINNET) { ${'... on Network { '.repeat(56)}${rep(n, () => `subnets(first: 1) { edges { node { ${SUBNET_LEAVES} } } }`)}${' }'.repeat(56)} } }`,
    from: 1,
    to: 1000,
  },
  {
    name: 'equal 4 KiB string arguments, repeated',
    document: (n) => `{ network(name: MAINNET) { ${rep(n, () => `subnets(first: 1, after: "${'a'.repeat(4096)}") { pageInfo { hasNextPage } }`)} } }`,
    from: 1,
    to: 250,
  },
  {
    name: 'baseline: distinct fields only (aliased validator lookups), no repeats',
    document: (n) =>
      `{ network(name: MAINNET) { ${rep(n, (i) => `v${i}: validator(nodeId: "NodeID-${i}") { ${VALIDATOR_LEAVES.join(' ')} delegators(first: 1) { edges { node { txHash amountDelegated } } } }`)} } }`,
    from: 1,
    to: OPERATION_LIMITS_DEFAULTS.maxAliases,
  },
];

function countTokens(text: string): number {
  const lexer = new Lexer(new Source(text));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

const gateway = createGateway({ graphiql: false }, { dataApi: createDataApiClient({ baseUrl: 'http://127.0.0.1:9' }), nodes: [] });
const enveloped = gateway.getEnveloped({});

type Verdict = { ok: true; errors: number; first?: string } | { ok: false; code: string };

/** Validates a fresh parse of `text` through the gateway's envelop: the edge scan and token limit first, as a request would. */
function check(text: string): Verdict {
  const scanned = scanDocument(text, REQUEST_LIMITS_DEFAULTS);
  if (scanned) return { ok: false, code: String(scanned.extensions['code']) };
  if (countTokens(text) > OPERATION_LIMITS_DEFAULTS.maxTokens) return { ok: false, code: 'TOO_MANY_TOKENS' };
  const errors = enveloped.validate(enveloped.schema, parse(text));
  const limit = errors.find((error: GraphQLError) => LIMIT_CODES.has(String(error.extensions['code'])));
  if (limit) return { ok: false, code: String(limit.extensions['code']) };
  return errors[0] ? { ok: true, errors: errors.length, first: errors[0].message.slice(0, 60) } : { ok: true, errors: 0 };
}

/** The largest n in [from, to] whose document passes every limit (limits are monotone in n), or 0. */
function largestAllowed(family: Family): number {
  if (!check(family.document(family.from)).ok) return 0;
  let lo = family.from;
  let hi = family.to;
  if (check(family.document(hi)).ok) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (check(family.document(mid)).ok) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * Median and worst CPU milliseconds (user + system, this process) of validating fresh parses of `text`, each its
 * own DocumentNode so no cache answers. CPU time, not wall time: the 2 cores are shared, and a wait for the CPU is
 * not validation work.
 */
function time(text: string): { median: number; worst: number } {
  const documents: DocumentNode[] = Array.from({ length: RUNS + WARM_UP }, () => parse(text));
  const runs: number[] = [];
  documents.forEach((document, i) => {
    const start = process.cpuUsage();
    enveloped.validate(enveloped.schema, document);
    const spent = process.cpuUsage(start);
    if (i >= WARM_UP) runs.push((spent.user + spent.system) / 1000);
  });
  runs.sort((a, b) => a - b);
  return { median: runs[Math.floor(runs.length / 2)] ?? 0, worst: runs.at(-1) ?? 0 };
}

const ms = (value: number) => value.toFixed(2).padStart(8);
const estimate = (text: string) => String(Math.ceil(validationComplexity(parse(text)))).padStart(9);
process.stdout.write(`validation CPU time (ms) of the worst allowed document per family (${RUNS} runs each, fresh parses)\n\n`);
process.stdout.write(`${'family'.padEnd(86)} ${'n'.padStart(5)} ${'tokens'.padStart(6)} ${'estimate'.padStart(9)} ${'median'.padStart(8)} ${'worst'.padStart(8)}  answer\n`);
let worstAllowed = { name: '', median: 0 };
for (const family of families) {
  const n = largestAllowed(family);
  if (n === 0) {
    process.stdout.write(`${family.name.padEnd(86)} ${'-'.padStart(5)}  (even the smallest document is refused)\n`);
    continue;
  }
  const text = family.document(n);
  const verdict = check(text);
  const timing = time(text);
  const answer = verdict.ok ? (verdict.errors ? `${verdict.errors} validation error(s): ${verdict.first ?? ''}` : 'valid') : verdict.code;
  process.stdout.write(`${family.name.padEnd(86)} ${String(n).padStart(5)} ${String(countTokens(text)).padStart(6)} ${estimate(text)} ${ms(timing.median)} ${ms(timing.worst)}  ${answer}\n`);
  if (timing.median > worstAllowed.median) worstAllowed = { name: family.name, median: timing.median };
  if (n < family.to) {
    // One step past the largest allowed: the limit that stops the family, and what refusing it costs.
    const past = family.document(n + 1);
    const refused = check(past);
    const refusal = time(past);
    process.stdout.write(`${'  one step past it'.padEnd(86)} ${String(n + 1).padStart(5)} ${String(countTokens(past)).padStart(6)} ${estimate(past)} ${ms(refusal.median)} ${ms(refusal.worst)}  ${refused.ok ? 'allowed' : refused.code}\n`);
  }
}
process.stdout.write(`\nworst allowed document: ${worstAllowed.name}, ${worstAllowed.median.toFixed(2)} ms median\n`);
await gateway.dispose();
