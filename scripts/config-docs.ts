/**
 * Rewrites the README's configuration table (between `<!-- config:start -->` and `<!-- config:end -->`)
 * from the settings table in src/server/settings.ts; test/server/settings.test.ts fails when it is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withSettingsTable } from '../src/server/settings.ts';

const target = fileURLToPath(new URL('../README.md', import.meta.url));
const current = readFileSync(target, 'utf8');
const next = withSettingsTable(current);
if (next === current) {
  console.log('README.md configuration table is up to date.');
} else {
  writeFileSync(target, next);
  console.log(`wrote the configuration table of ${target}`);
}
