import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // The end-to-end tests run whole searches; one fork per file keeps memory predictable.
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker: the move searches then run one
    // after another (18 minutes). Two run side by side in about 10.
    maxWorkers: 2,
  },
});
