import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/api.md's "Every Data API operation" table names every operation of the real Data API's
 * spec (the committed copy in test/data), and its count: a new operation in the spec, or a
 * row dropped from the table, fails here.
 */

const HEADING = '## Every Data API operation, and where it is in the graph';

const root = new URL('../../', import.meta.url);
const spec = JSON.parse(readFileSync(new URL('test/data/glacier-openapi.json', root), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string } | unknown>>;
};
const readme = readFileSync(new URL('docs/api.md', root), 'utf8');

function operationIds(): string[] {
  const ids: string[] = [];
  for (const item of Object.values(spec.paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && 'operationId' in op && typeof op.operationId === 'string') ids.push(op.operationId);
    }
  }
  return ids;
}

/** The section's lines, from its heading to the next `## ` heading. */
function section(): string[] {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l.trimEnd() === HEADING);
  expect(start, `docs/api.md has no "${HEADING}" section`).toBeGreaterThanOrEqual(0);
  const next = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, next === -1 ? undefined : next);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
/** A whole word: not inside a longer identifier (`listTransactions` is not in `listTransactionsV2`). */
const wholeWord = (id: string) => new RegExp(`(?<![\\w-])${escape(id)}(?![\\w-])`);

describe('docs/api.md: every Data API operation', () => {
  const ids = operationIds();

  it('reads the spec', () => {
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names each operationId in a row of the table', () => {
    const rows = section().filter((l) => l.startsWith('|')).join('\n');
    const missing = ids.filter((id) => !wholeWord(id).test(rows));
    expect(missing).toEqual([]);
  });

  it('says how many operations the spec has', () => {
    const prose = section().filter((l) => !l.startsWith('|')).join('\n');
    expect(prose).toMatch(new RegExp(`\\ball\\s+${ids.length}\\s+operations\\b`));
  });
});
