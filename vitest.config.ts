import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // The end-to-end tests run whole searches; one fork per file keeps memory predictable.
    pool: 'forks',
  },
});
