/**
 * Rewrites the generated parts of docs/ (`npm run config:docs`): the configuration table from the
 * settings in src/server/settings.ts, the heap arithmetic from src/server/heap-budget.ts, and the
 * latest benchmark report; test/docs/generated.test.ts and test/server/settings.test.ts fail when
 * one is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { GENERATED, root } from './docs-tables.ts';

for (const [file, generate] of Object.entries(GENERATED)) {
  const current = readFileSync(`${root}${file}`, 'utf8');
  const next = generate(current);
  if (next === current) {
    console.log(`${file} is up to date.`);
  } else {
    writeFileSync(`${root}${file}`, next);
    console.log(`wrote ${file}`);
  }
}
