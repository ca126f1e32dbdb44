import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GENERATED, root } from '../../scripts/docs-tables.ts';

/**
 * Figures in docs/ cannot drift: the generated blocks are what `npm run config:docs` writes now, and
 * every figure of a `checked-by` block is a value of the result file it names (as stored, or rounded to
 * the digits shown).
 */

const read = (file: string) => readFileSync(`${root}${file}`, 'utf8');

/** Every number in a JSON value: its numeric leaves, and the numbers written inside its strings. */
function numbersIn(value: unknown, into: number[] = []): number[] {
  if (typeof value === 'number') into.push(value);
  else if (typeof value === 'string') for (const m of value.matchAll(/\d+(?:\.\d+)?/g)) into.push(Number(m[0]));
  else if (Array.isArray(value)) for (const item of value) numbersIn(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) numbersIn(item, into);
  return into;
}

/** The figures a block shows: numbers outside code spans, thousands separators dropped. */
function figures(block: string): { text: string; value: number; decimals: number }[] {
  return [...block.replace(/`[^`]*`/g, '').matchAll(/(?<![\w.-])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.-])\d+(?:\.\d+)?/g)].map((m) => ({
    text: m[0],
    value: Number(m[0].replaceAll(',', '')),
    decimals: m[0].split('.')[1]?.length ?? 0,
  }));
}

describe('generated parts of docs/', () => {
  it.each(Object.keys(GENERATED))('%s is current (run `npm run config:docs` when this fails)', (file) => {
    const text = read(file);
    expect(GENERATED[file]?.(text)).toBe(text);
  });
});

describe('measured figures in docs/', () => {
  const blocks = ['docs/benchmarks.md', 'docs/operations.md', 'docs/api.md'].flatMap((file) =>
    [...read(file).matchAll(/<!-- checked-by: (\S+) -->\n([\s\S]*?)<!-- checked-by:end -->/g)].map((m) => ({ file, source: m[1] as string, block: m[2] as string })),
  );

  it('has blocks to check', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });

  it.each(blocks.map((b) => [`${b.file} from ${b.source}`, b] as const))('%s', (_name, { source, block }) => {
    const known = numbersIn(JSON.parse(read(source)));
    const unexplained = figures(block)
      .filter(({ value, decimals }) => !known.some((n) => n === value || Number(n.toFixed(decimals)) === value))
      .map((f) => f.text);
    expect(unexplained, `figures not in ${source}`).toEqual([]);
  });
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (heading: string) => heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replaceAll(' ', '-');

describe('links between the README and docs/', () => {
  const files = ['README.md', ...readdirSync(`${root}docs`).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

  it.each(files)('%s links to files and headings that exist', (file) => {
    const broken: string[] = [];
    for (const [, target] of read(file).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!target || /^[a-z]+:/.test(target)) continue;
      const [path, hash] = target.split('#') as [string, string | undefined];
      const resolved = path ? relative(root, join(root, dirname(file), path)) : file;
      if (!existsSync(`${root}${resolved}`)) broken.push(target);
      else if (hash && resolved.endsWith('.md') && ![...read(resolved).matchAll(/^#+ (.*)$/gm)].some((m) => anchor(m[1] as string) === hash)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
