import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * GraphQL Code Generator for chaingraph's schema: typed documents for any client (the client
 * preset) and Apollo Client's `possibleTypes`. Run from the repository root:
 * `npx graphql-codegen --config examples/codegen.ts` (`npm run examples:check` does, then tsc).
 *
 * `schema` is chaingraph's client schema (`npm run examples:check` prints it there); against a
 * running gateway, point it at the endpoint instead: `schema: 'http://127.0.0.1:4000/graphql'`.
 */

/** chaingraph's custom scalars as TypeScript sees them on the wire (all 64-bit and larger values are strings). */
export const scalars = {
  DateTime: 'string',
  EvmAddress: 'string',
  Hash: 'string',
  Hex: 'string',
  IP: 'string',
  JSON: 'unknown',
  JSONObject: 'Record<string, unknown>',
  UInt256: 'string',
  UInt64: 'string',
  URL: 'string',
  // Federation's representation scalar (`_entities`), there for routers, not for apps.
  _Any: 'unknown',
} as const;

const config: CodegenConfig = {
  schema: 'examples/.generated/schema.graphql',
  documents: ['examples/client/**/*.ts', '!examples/**/__generated__/**'],
  ignoreNoDocuments: false,
  generates: {
    'examples/client/__generated__/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { scalars, strictScalars: true, enumsAsTypes: true, useTypeImports: true },
    },
    'examples/client/__generated__/possible-types.ts': {
      plugins: ['fragment-matcher'],
      config: { apolloClientVersion: 3, useExplicitTyping: true },
    },
  },
};

export default config;
