/**
 * The generated parts of docs/: each lives between `<!-- name:start -->` and `<!-- name:end -->`
 * in its file, written by `npm run config:docs` and checked by test/docs/generated.test.ts, so a
 * figure in the docs cannot drift from the code or the measurement it comes from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFromEnv } from '../src/server/config.ts';
import { heapBudget } from '../src/server/heap-budget.ts';
import { withSettingsTable } from '../src/server/settings.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));

const MiB = 1024 * 1024;
const mib = (bytes: number) => (Number.isInteger(bytes / MiB) ? bytes / MiB : Number((bytes / MiB).toFixed(1))).toLocaleString('en-US');

/** `text` with the block between the `name` markers replaced by `content`; throws when a marker is missing. */
export function withBlock(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) throw new Error(`no ${start} … ${end} block`);
  return `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`;
}

/** The heap arithmetic of the default configuration on the built-in devnet, as `npm run heap:explain` prints it. */
export function heapTable(): string {
  const budget = heapBudget(configFromEnv({}));
  const rows = Object.entries(budget.terms)
    .filter(([, bytes]) => bytes > 0)
    .map(([term, bytes]) => `| ${term.replaceAll('|', '\\|')} | ${mib(bytes)} |`);
  return [
    '| Term | MiB |',
    '|---|---|',
    ...rows,
    `| **Sum** | **${mib(budget.totalBytes)}** |`,
    `| **× 1.25 headroom for the collector, rounded up to 64: \`--max-old-space-size\`** | **${budget.heapMb.toLocaleString('en-US')}** |`,
  ].join('\n');
}

/** The latest `npm run bench` report, as bench/run.ts writes it. */
export function benchReport(): string {
  return readFileSync(`${root}bench/results/latest.md`, 'utf8').trimEnd();
}

/** Each generated file and how it is made from what it holds now. */
export const GENERATED: Record<string, (current: string) => string> = {
  'docs/configuration.md': (text) => withSettingsTable(text),
  'docs/operations.md': (text) => withBlock(text, 'heap', heapTable()),
  'docs/benchmarks.md': (text) => withBlock(text, 'bench', benchReport()),
};
