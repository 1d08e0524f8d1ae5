import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The end-to-end tests of models/move.ts run whole searches, from about 1 to 10 minutes each on
// a 2-core machine. With two workers the suite takes as long as its busier worker: start the
// longest searches first, so that the short ones fill in around them.
const HEAVIEST_FIRST = ['moveUnreconciledV193', 'moveUnreconciledV195', 'moveV193', 'moveNoTiming', 'moveV195'];

class HeaviestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = HEAVIEST_FIRST.findIndex((name) => f.moduleId.includes(`/${name}.test.ts`));
      return i === -1 ? HEAVIEST_FIRST.length : i;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    // The end-to-end tests run whole searches; one fork per file keeps memory predictable.
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker: the move searches then run one
    // after another (19 minutes). Two run side by side.
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
  },
});
