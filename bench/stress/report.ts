/**
 * `npm run bench:stress`: the report: the table and each scenario's notes on stdout, the
 * failures (the gateway died, an answer outside what a scenario allows, a failed check,
 * admission slots not released) and warnings (a slow /health, connections reset before the
 * 413 was read), and bench/results/stress-<date>.json.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { root } from '../process.ts';
import { CONCURRENCY, GRAPHIQL_LOADS, MAX_BODY, RAW_SOCKETS, ROUNDS, SLOW_HEALTH_MS } from './config.ts';
import type { Row } from './measure.ts';
import { tallyText } from './requests.ts';
import { RESET_BEFORE_ANSWER } from './scenarios.ts';

/** One gateway started as `npm start` does, and the scenarios run against it. */
export interface Run {
  label: string;
  argv: string[];
  idle: { rssMb: number; peakRssMb: number };
  rows: Row[];
  died?: string;
  error?: string;
}

/** Prints the table, the notes and the warnings, writes the JSON results; returns the failures. */
export function report(runs: readonly Run[], started: Date): string[] {
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
  return failures;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
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
