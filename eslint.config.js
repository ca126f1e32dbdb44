// Lint: type-aware TypeScript rules, no import cycles, and the one-way layers of docs/ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Each layer and the only code of ours it may import (docs/ARCHITECTURE.md, "The layers and their rule").
 * Written as allow-lists: `from` forbids every other folder of src/ and every top-level file of src/
 * except the shared modules named, so a new folder or a new top-level file is forbidden until a
 * layer's list names it.
 */
const layer = (target, folders, topLevel, message, except = []) => ({
  target: `./src/${target}/**`,
  from: [`./src/!(${[target, ...folders].join('|')})/**`, topLevel.length ? `./src/!(${topLevel.join('|')})` : './src/*'],
  // Exceptions are matched against the resolved absolute path, hence the leading **.
  except: except.map((path) => `**/src/${path}`),
  message,
});

/**
 * Imports the table does not allow that the code makes today; each names its module so nothing else
 * slips through with it. They go when these modules move to the layer they belong to.
 */
const pluginsToday = [
  'metrics.ts', // use-metrics.ts: OperationLabel; the metrics registry is gateway code
  'upstream/request-id.ts', // use-request-id.ts: the request id grammar and header, shared with the clients
  'upstream/data-api.ts', // use-rate-limit.ts: isApiKey, the Data API key grammar
  'loaders/topics.ts', // use-topics.ts: the Topics types
];

const layers = [
  layer('lib', [], [], 'src/lib is the leaf: plain helpers that import nothing of ours.'),
  layer('shapes', ['lib'], [], 'The upstream shapes depend on src/lib only.'),
  layer('upstream', ['lib', 'shapes'], [], 'upstream speaks HTTP: it imports src/lib and src/shapes only, nothing graphql-facing (loaders, schema, plugins, context, errors), no gateway module and not the devnet.'),
  layer('loaders', ['lib', 'shapes', 'upstream'], ['errors.ts', 'context.ts'], 'loaders sit under the schema: they import upstream, shapes, lib, src/errors.ts and src/context.ts only (never the schema, the plugins, the devnet or a gateway module).'),
  layer('schema', ['lib', 'shapes', 'loaders'], ['builder.ts', 'context.ts', 'errors.ts'], 'The schema reaches data only through src/loaders: it imports loaders, shapes, lib, src/builder.ts, src/context.ts and src/errors.ts only.'),
  layer('plugins', ['lib'], ['context.ts', 'errors.ts'], 'Plugins are generic: they read what fields declare, and import lib, src/context.ts and src/errors.ts only (never the schema modules or a gateway module).', pluginsToday),
  layer('devnet', ['lib', 'shapes'], [], 'The devnet is its own product: it depends on the upstream shapes and src/lib only.'),
  { target: ['./src/!(devnet)/**', './src/*'], from: ['./src/devnet/**'], message: 'The gateway never imports the devnet statically (server.ts loads it with a dynamic import).' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/results/**', 'coverage/**'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended, importX.flatConfigs.typescript],
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      // basePath: the zones resolve against this file, not against wherever ESLint was started.
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: layers }],
    },
  },
  {
    // The clients are reached only inside src/loaders: the schema and the plugins call loaders and services.
    files: ['src/schema/**/*.ts', 'src/plugins/**/*.ts', 'src/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/loaders/*.ts'],
          importNames: ['upstreamOf', 'clientOf'],
          message: 'Resolvers and plugins reach data through loaders and services, never the clients.',
        }],
      }],
    },
  },
  {
    // Below the loaders nothing knows GraphQL: the HTTP layer, the data descriptions and the helpers.
    files: ['src/upstream/**/*.ts', 'src/shapes/**/*.ts', 'src/lib/**/*.ts', 'src/devnet/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['graphql', 'graphql/*', 'graphql-yoga', '@graphql-yoga/*', '@pothos/*', '@envelop/*'], message: 'Only the schema, the plugins and the gateway speak GraphQL.' }],
      }],
    },
  },
);
