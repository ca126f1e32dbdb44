import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // @apollo/subgraph loads graphql's CommonJS build; make every import use that one copy, or
  // graphql-js rejects types "from another module or realm".
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files start their own devnet on an ephemeral port, so they can run in parallel.
    pool: 'forks',
    reporters: ['default'],
  },
});
