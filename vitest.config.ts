import { defineConfig } from 'vitest/config';

export default defineConfig({
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
