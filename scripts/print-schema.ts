/**
 * Prints the subgraph schema to `schema.graphql` (`--write`) or fails when the
 * committed file is stale (`--check`), so reviewers always see the real contract.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { printSubgraphSchema } from '@apollo/subgraph';
import { getSchema } from '../src/schema/index.ts';

const target = fileURLToPath(new URL('../schema.graphql', import.meta.url));
const printed = `${printSubgraphSchema(getSchema()).trim()}\n`;

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (current !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit the result.');
    process.exit(1);
  }
  console.log('schema.graphql is up to date.');
} else {
  writeFileSync(target, printed);
  console.log(`wrote ${target}`);
}
