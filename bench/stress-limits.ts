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
 *
 * `npm run bench:stress -- hostile [a b c d e f]` runs the hostile clients instead (clients
 * that never read, trickled bodies, large answers in a loop, the validation-heavy document, idle
 * graphql-ws sockets, slow `@defer` operations: bench/stress/hostile.ts), each against a fresh gateway
 * with /health probed every 20 ms; `-- limits` runs only the scenarios above; no argument runs both.
 *
 * This file is the plan (which scenario, against which gateway); the pieces live in
 * bench/stress/: config.ts (the settings above), scenarios.ts (the hostile requests),
 * requests.ts (sending and classifying), measure.ts (one scenario's measurements) and
 * report.ts (the table, failures, warnings and the JSON file).
 */
import { procMemory, startNpmGateway, stopNpmGateway, type NpmGateway } from './process.ts';
import { percentile } from './stats.ts';
import { CONCURRENCY, GRAPHIQL_LOADS, MAX_BODY, RAW_SOCKETS, ROUNDS } from './stress/config.ts';
import { measure, type Row } from './stress/measure.ts';
import { report, type Run } from './stress/report.ts';
import { post, round, round2, tally, tallyText, type Outcome } from './stress/requests.ts';
import { graphiqlLoad, hostileDocuments, largestResponseRound, maxBody, oversize, RESET_BEFORE_ANSWER } from './stress/scenarios.ts';
import { runHostileFloods } from './stress/hostile.ts';

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

/** The limit scenarios (1-5 above); their failures. */
async function limits(): Promise<string[]> {
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

  return report(runs, started);
}

// `npm run bench:stress [limits | hostile [a b c d e f]]`: both parts by default.
const [part, ...floods] = process.argv.slice(2);
if (part !== undefined && part !== 'limits' && part !== 'hostile') throw new Error(`unknown part ${part}: limits or hostile`);
const failures = [...(part !== 'hostile' ? await limits() : []), ...(part !== 'limits' ? await runHostileFloods(floods) : [])];
if (failures.length > 0) {
  for (const f of failures) process.stderr.write(`FAILED: ${f}\n`);
  process.exit(1);
}
