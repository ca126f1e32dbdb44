// Lint: type-aware TypeScript rules, no import cycles, and the one-way layers of docs/ARCHITECTURE.md.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Each layer and what it must never import (a path under src/). */
const layers = [
  { target: './src/lib/**', from: ['./src/!(lib)/**', './src/*.ts'], message: 'src/lib is the leaf: plain helpers that import nothing of ours.' },
  { target: './src/shapes/**', from: ['./src/!(lib|shapes)/**', './src/*.ts'], message: 'The upstream shapes depend on src/lib only.' },
  { target: './src/upstream/**', from: ['./src/{schema,loaders,plugins,devnet}/**', './src/*.ts'], message: 'upstream speaks HTTP: it imports neither graphql-facing code (schema, loaders, plugins, context) nor the devnet.' },
  { target: './src/loaders/**', from: ['./src/{schema,plugins,devnet}/**', './src/{builder,gateway,server,cli}.ts'], message: 'loaders sit under the schema: they never import it.' },
  { target: './src/schema/**', from: ['./src/{upstream,devnet}/**', './src/plugins/*.ts', './src/{gateway,server,cli}.ts'], message: 'The schema reaches data only through src/loaders.' },
  { target: './src/plugins/**', from: ['./src/{schema,devnet}/**', './src/{builder,gateway,server,cli}.ts'], message: 'Plugins are generic: they read what fields declare, never the schema modules.' },
  { target: './src/devnet/**', from: ['./src/!(lib|shapes|devnet)/**', './src/*.ts'], message: 'The devnet is its own product: it depends on the upstream shapes and src/lib only.' },
  { target: ['./src/!(devnet)/**', './src/*.ts'], from: ['./src/devnet/**'], message: 'The gateway never imports the devnet statically (server.ts loads it with a dynamic import).' },
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
      'import-x/no-restricted-paths': ['error', { zones: layers }],
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
