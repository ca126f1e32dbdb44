// Lint: type-aware TypeScript rules, no import cycles, and the one-way layers of docs/ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * Each layer and the only code of ours it may import (docs/ARCHITECTURE.md, "The layers and their rule").
 * Written as allow-lists: `from` forbids every other folder of src/ and any file at the top of src/
 * (there are none: every module lives in its layer's folder), so a new folder is forbidden until a
 * layer's list names it. `files` names single modules of an otherwise forbidden folder that a layer
 * may import (the context types the plugins run in).
 */
const layer = (target, folders, message, { files = [], from = [] } = {}) => ({
  target: `./src/${target}`,
  from: [`./src/!(${folders.join('|') || '_'})/**`, './src/*.ts', ...from],
  // Exceptions are matched against the resolved absolute path, hence the leading **.
  except: files.map((path) => `**/src/${path}`),
  message,
});

const layers = [
  layer('lib/**', ['lib'], 'src/lib is the leaf: plain helpers that import nothing of ours.'),
  layer('shapes/**', ['lib', 'shapes'], 'The upstream shapes depend on src/lib only.'),
  layer('upstream/**', ['lib', 'shapes', 'upstream'], 'upstream speaks HTTP: it imports src/lib and src/shapes only, nothing graphql-facing (errors, loaders, schema, gateway), not the process (server) and not the devnet.'),
  layer('errors/**', ['lib', 'upstream', 'errors'], 'src/errors holds the error codes and the GraphQL errors made from upstream failures: it imports src/lib and src/upstream only.'),
  layer('loaders/**', ['lib', 'shapes', 'upstream', 'errors', 'loaders'], 'loaders sit under the schema: they import upstream, shapes, errors and lib only (never the schema, the gateway, the server or the devnet).'),
  layer('schema/**', ['lib', 'shapes', 'loaders', 'errors', 'schema'], 'The schema reaches data only through src/loaders: it imports loaders, shapes, errors and lib only (never the gateway, the server or the devnet).'),
  layer('gateway/plugins/**', ['lib', 'errors', 'gateway'],
    'Plugins are generic: they read what fields declare and import lib, errors, each other and the types of the context they run in (schema/context.ts, loaders/budget.ts, loaders/topics.ts, loaders/live-activity.ts) only; never the schema modules, the gateway factory or the process.',
    { files: ['schema/context.ts', 'loaders/budget.ts', 'loaders/topics.ts', 'loaders/live-activity.ts'], from: ['./src/gateway/*.ts'] }),
  layer('gateway/metrics/**', ['lib', 'errors', 'upstream', 'gateway'], 'The metrics read what the upstream clients and the plugins report: they import lib, errors, upstream and the plugins only; never the gateway factory or the process.', { from: ['./src/gateway/*.ts'] }),
  layer('gateway/*.ts', ['lib', 'shapes', 'upstream', 'errors', 'loaders', 'schema', 'gateway'], 'The gateway is the request runtime: it imports every layer below it, never the process (src/server) or the devnet.'),
  layer('devnet/**', ['lib', 'shapes', 'devnet'], 'The devnet is its own product: it depends on the upstream shapes and src/lib only.'),
  { target: './src/*.ts', from: ['./src/**'], message: 'Every module lives in the folder of its layer (docs/ARCHITECTURE.md); nothing sits at the top of src/.' },
  { target: './src/!(devnet)/**', from: ['./src/devnet/**'], message: 'The gateway never imports the devnet statically (src/server/server.ts loads it with a dynamic import).' },
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
    files: ['src/schema/**/*.ts', 'src/gateway/**/*.ts', 'src/server/**/*.ts'],
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
