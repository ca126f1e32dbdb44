import type { CodegenConfig } from '@graphql-codegen/cli';

// Every custom scalar chaingraph's endpoint introspects, as TypeScript sees it on the wire:
// 64-bit and larger integers are decimal strings (no precision lost), times ISO 8601 strings.
export const scalars = {
  UInt256: 'string', UInt64: 'string', DateTime: 'string', EvmAddress: 'string', Hash: 'string', Hex: 'string',
  IP: 'string', URL: 'string', JSON: 'unknown', JSONObject: 'Record<string, unknown>',
  // Apollo Federation's representation scalar (the `_entities` field, for routers, not apps).
  _Any: 'unknown',
} as const;

const config: CodegenConfig = {
  // The running gateway (`npm start`), read by introspection; or a printed schema file.
  schema: process.env.CHAINGRAPH_SCHEMA ?? 'http://127.0.0.1:4000/graphql',
  documents: ['examples/client/**/*.ts', '!examples/**/__generated__/**'],
  // Imports between generated files end in `.js`, as `module: nodenext` requires (bundlers accept it too).
  importExtension: '.js',
  generates: {
    'examples/client/__generated__/gql/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false },
      config: { scalars, strictScalars: true, enumsAsTypes: true, useTypeImports: true },
    },
    // Apollo Client's `possibleTypes`.
    'examples/client/__generated__/possible-types.ts': {
      plugins: ['fragment-matcher'],
      config: { apolloClientVersion: 3, useExplicitTyping: true },
    },
  },
};

export default config;
