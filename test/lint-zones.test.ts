// The layer zones of eslint.config.js, checked by linting small virtual files: a forbidden import
// fails lint, an allowed one passes. The zones are allow-lists, so these also show that a module the
// table does not name (a gateway file at the top of src/) is refused.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: path.join(root, 'eslint.config.js') });
});

/** The specifiers that no-restricted-paths refuses when `file` (under src/) imports each of them. */
async function refused(file: string, specifiers: string[]): Promise<string[]> {
  const code = specifiers.map((specifier) => `import '${specifier}';\n`).join('');
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'src', file) });
  const lines = result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.line);
  return lines.map((line) => specifiers[line - 1]!);
}

// Every specifier names a module that exists: an import that does not resolve is not checked by the rule.
const cases: { file: string; forbidden: string[]; allowed: string[] }[] = [
  { file: 'lib/x.ts', forbidden: ['../errors.ts', '../context.ts', '../shapes/common.ts', '../config.ts'], allowed: ['./text.ts'] },
  { file: 'shapes/x.ts', forbidden: ['../upstream/http.ts', '../errors.ts', '../config.ts'], allowed: ['../lib/text.ts', './common.ts'] },
  {
    file: 'upstream/x.ts',
    forbidden: ['../context.ts', '../errors.ts', '../loaders/registry.ts', '../plugins/use-rate-limit.ts', '../telemetry.ts'],
    allowed: ['../lib/text.ts', '../shapes/common.ts', './http.ts'],
  },
  {
    file: 'loaders/x.ts',
    forbidden: ['../graphql-ws.ts', '../config.ts', '../metrics.ts', '../builder.ts', '../schema/index.ts', '../plugins/use-topics.ts'],
    allowed: ['../errors.ts', '../context.ts', '../upstream/http.ts', '../shapes/common.ts', '../lib/text.ts', './registry.ts'],
  },
  {
    file: 'schema/x.ts',
    forbidden: ['../upstream/http.ts', '../plugins/use-query-cost.ts', '../gateway.ts', '../config.ts', '../subscriptions.ts'],
    allowed: ['../builder.ts', '../context.ts', '../errors.ts', '../loaders/registry.ts', '../shapes/common.ts', '../lib/text.ts'],
  },
  {
    file: 'plugins/x.ts',
    forbidden: ['../schema/index.ts', '../builder.ts', '../config.ts', '../gateway.ts', '../upstream/http.ts', '../loaders/registry.ts'],
    allowed: ['../context.ts', '../errors.ts', '../lib/text.ts', './use-query-cost.ts'],
  },
  {
    file: 'devnet/x.ts',
    forbidden: ['../schema/index.ts', '../upstream/http.ts', '../errors.ts', '../config.ts'],
    allowed: ['../shapes/common.ts', '../lib/text.ts', './router.ts'],
  },
  { file: 'gateway-x.ts', forbidden: ['./devnet/server.ts'], allowed: ['./config.ts', './schema/index.ts', './plugins/use-query-cost.ts', './upstream/http.ts'] },
];

describe('lint zones', () => {
  for (const { file, forbidden, allowed } of cases) {
    it(`src/${file} may import only what its layer allows`, async () => {
      expect(await refused(file, forbidden)).toEqual(forbidden);
      expect(await refused(file, allowed)).toEqual([]);
    });
  }
});
