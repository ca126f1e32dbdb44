/**
 * `npm run bench:stress`: sending a request and classifying its answer, tallies of the
 * answers, and rounding for the report.
 */
import { ACCEPT, REQUEST_TIMEOUT_MS } from './config.ts';

/** One answer, classified: `200`, `200 <code>` (a 200 with errors), `<status> <code>`, `MASKED`, `ERROR <what>`. */
export interface Outcome {
  key: string;
  ms: number;
  bytes: number;
  text?: string;
}

export type Tally = Record<string, number>;

export function tally(outcomes: readonly Outcome[]): Tally {
  const counts: Tally = {};
  for (const o of outcomes) counts[o.key] = (counts[o.key] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

export function classify(status: number, text: string): string {
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

export async function post(url: string, body: string, keepText = false): Promise<Outcome> {
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

export function errorName(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  return cause?.code ?? (error as Error).name ?? String(error);
}

export function tallyText(t: Tally): string {
  return Object.entries(t)
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
}

export function round(n: number): number {
  return Math.round(n * 10) / 10;
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
