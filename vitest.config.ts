import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultExternalConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The end-to-end tests of models/move.ts run whole searches, from about 1 to 17 minutes each on
// a 2-core machine. With two workers the suite takes as long as its busier worker: start the
// longest searches first, so that the short ones fill in around them.
//
// The larger rows of the variant matrices (PR #11284 alone, clusterctl re-runs with either
// ordering, and a Cluster with a Machine under the old ordering: about 25 minutes of CPU together)
// are the slow tier: `npm run test:slow` runs them (MODELCHECK_SLOW=1), `npm test` leaves them
// out, to keep CI under 15 minutes. (The two "unreconciled" variants were slow-tier too until the
// second reading of the code gave them a smaller world: 0.3 and 0.6 million states.)
const SLOW = ['test/e2e/moveMatrixSlow.test.ts', 'test/e2e/moveBackSlow.test.ts', 'test/e2e/moveFaultsSharded.test.ts'];
const slowOnly = process.env.MODELCHECK_SLOW === '1';
const HEAVIEST_FIRST = [
  'moveUnreconciledV193',
  'moveUnreconciledV195',
  'moveMatrixSlow',
  'moveFaultsSharded',
  'moveBackSlow',
  'moveV193',
  'moveMatrix',
  'moveObjects',
  'moveNoTiming',
  'moveV195',
  'explorer',
  'lamportMutex',
];

// Type checks kept by digest (src/cli/typecheckCache.ts) go to a directory of this run's own, not
// the user's cache: every run checks from scratch. It goes when the run ends (this file is read
// by vitest's own process only; its forks are given the path).
const cacheDir = mkdtempSync(join(tmpdir(), 'modelcheck-test-cache-'));
process.once('exit', () => rmSync(cacheDir, { recursive: true, force: true }));

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
  // Tests import 'modelcheck' as its sources (package.json's "source" export), as the CLI does in
  // a checkout (bin/layout.js): no build step before a test run.
  // (Vite's lists replace its defaults, so those are kept.)
  ssr: {
    resolve: {
      conditions: ['source', ...defaultServerConditions],
      externalConditions: ['source', ...defaultExternalConditions],
    },
  },
  test: {
    include: slowOnly ? SLOW : ['test/**/*.test.ts'],
    exclude: slowOnly ? [] : SLOW,
    testTimeout: 120_000,
    // The end-to-end tests run whole searches; one fork per file keeps memory predictable.
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker: the move searches then run one
    // after another (19 minutes). Two run side by side.
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
    env: { MODELCHECK_CACHE_DIR: cacheDir },
  },
});
