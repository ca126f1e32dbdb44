// The layer zones of eslint.config.js, checked by linting small virtual files: a forbidden import
// fails lint, an allowed one passes. The zones are allow-lists, so these also show that a module the
// table does not name (a file at the top of src/, a new folder) is refused.
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
  return [...new Set(lines)].map((line) => specifiers[line - 1]!);
}

// Every specifier names a module that exists: an import that does not resolve is not checked by the rule.
const cases: { file: string; forbidden: string[]; allowed: string[] }[] = [
  { file: 'lib/x.ts', forbidden: ['../errors/graphql.ts', '../schema/context.ts', '../shapes/common.ts', '../server/config.ts'], allowed: ['./text.ts'] },
  { file: 'shapes/x.ts', forbidden: ['../upstream/http.ts', '../errors/codes.ts', '../server/config.ts'], allowed: ['../lib/text.ts', './common.ts'] },
  {
    file: 'upstream/x.ts',
    forbidden: ['../errors/codes.ts', '../loaders/registry.ts', '../gateway/plugins/use-rate-limit.ts', '../gateway/context.ts', '../server/telemetry.ts'],
    allowed: ['../lib/text.ts', '../shapes/common.ts', './http.ts'],
  },
  {
    file: 'errors/x.ts',
    forbidden: ['../loaders/registry.ts', '../schema/builder.ts', '../gateway/gateway.ts', '../shapes/common.ts'],
    allowed: ['./codes.ts', '../upstream/errors.ts', '../lib/redact.ts'],
  },
  {
    file: 'loaders/x.ts',
    forbidden: ['../server/graphql-ws.ts', '../server/config.ts', '../gateway/metrics/registry.ts', '../gateway/context.ts', '../schema/builder.ts', '../schema/context.ts', '../gateway/plugins/use-topics.ts'],
    allowed: ['../errors/graphql.ts', '../errors/codes.ts', '../upstream/http.ts', '../shapes/common.ts', '../lib/text.ts', './registry.ts', './budget.ts'],
  },
  {
    file: 'schema/x.ts',
    forbidden: ['../upstream/http.ts', '../gateway/plugins/use-query-cost.ts', '../gateway/gateway.ts', '../gateway/context.ts', '../server/config.ts', '../server/redis-topics.ts'],
    allowed: ['./builder.ts', './context.ts', '../errors/graphql.ts', '../loaders/registry.ts', '../shapes/common.ts', '../lib/text.ts'],
  },
  {
    file: 'gateway/plugins/x.ts',
    forbidden: ['../../schema/index.ts', '../../schema/builder.ts', '../../server/config.ts', '../gateway.ts', '../context.ts', '../../upstream/http.ts', '../../loaders/registry.ts'],
    allowed: ['../../schema/context.ts', '../../loaders/budget.ts', '../../errors/graphql.ts', '../../lib/text.ts', './use-query-cost.ts'],
  },
  {
    file: 'gateway/metrics/x.ts',
    forbidden: ['../gateway.ts', '../../server/config.ts', '../../schema/index.ts', '../../loaders/registry.ts'],
    allowed: ['./registry.ts', '../plugins/use-admission-control.ts', '../../upstream/cache.ts', '../../lib/text.ts'],
  },
  {
    file: 'gateway/x.ts',
    forbidden: ['../server/config.ts', '../server/telemetry.ts', '../devnet/server.ts'],
    allowed: ['./context.ts', './plugins/use-query-cost.ts', '../schema/index.ts', '../loaders/registry.ts', '../upstream/http.ts', '../errors/graphql.ts'],
  },
  {
    file: 'devnet/x.ts',
    forbidden: ['../schema/index.ts', '../upstream/http.ts', '../errors/graphql.ts', '../server/config.ts', '../gateway/gateway.ts'],
    allowed: ['../shapes/common.ts', '../lib/text.ts', './router.ts'],
  },
  { file: 'server/x.ts', forbidden: ['../devnet/server.ts'], allowed: ['./config.ts', '../gateway/gateway.ts', '../schema/index.ts', '../upstream/http.ts'] },
  // Nothing lives at the top of src/: a file there is in no layer, and may import nothing of ours.
  { file: 'x.ts', forbidden: ['./lib/text.ts', './server/config.ts', './gateway/gateway.ts'], allowed: [] },
];

describe('lint zones', () => {
  for (const { file, forbidden, allowed } of cases) {
    it(`src/${file} may import only what its layer allows`, async () => {
      expect(await refused(file, forbidden)).toEqual(forbidden);
      expect(await refused(file, allowed)).toEqual([]);
    });
  }
});
