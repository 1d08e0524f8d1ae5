import { mkdtempSync } from 'node:fs';
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
// second reading of the code gave them a smaller world: 0.3 and 0.6 million states.) The faults
// matrix run as a sharded Job runs it (moveFaultsSharded: about 320 s of CPU) stays there: with it
// CI took 13 min 30 s and 14 min 42 s (bench/README.md, thirty-seventh run), too near 15.
const SLOW = ['test/e2e/moveMatrixSlow.test.ts', 'test/e2e/moveBackSlow.test.ts', 'test/e2e/moveFaultsSharded.test.ts'];
const slowOnly = process.env.MODELCHECK_SLOW === '1';
const INCLUDE = slowOnly ? SLOW : ['test/**/*.test.ts'];
const EXCLUDE = slowOnly ? [] : SLOW;
// Files that must not share a process with the others:
// - the explorer's watch expressions stop a promise job by node:vm's time limit, which aborts the
//   whole process on Node 20 once any earlier file (Chromium driven by playwright-core) has turned
//   async hooks on (nodejs/node#38503; src/explore/watch.ts).
const OWN_PROCESS = ['test/explore/watchAndInitials.test.ts'];
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

// This file is read once for the run and once more per project, in the same process: the
// directory is made once, and named in the environment for the readings after the first.
function testCacheDir(): string {
  const made = process.env.MODELCHECK_TEST_CACHE_DIR;
  if (made !== undefined) return made;
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-test-cache-'));
  process.env.MODELCHECK_TEST_CACHE_DIR = dir;
  return dir;
}

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
    // Forks are shared: a worker's fork runs one file after another, not a fresh process for each
    // (Vitest's `isolate: false`), which otherwise starts Node, Vite's module runner and the
    // project's modules again for every one of the suite's files: with the sharded faults matrix
    // in it, vitest took 885 s isolated, 793 s shared (bench/README.md, thirty-seventh run).
    // The files that need a process of their own are named in OWN_PROCESS, with the reason. (The
    // slow tier's files share forks too.)
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: INCLUDE, exclude: [...EXCLUDE, ...OWN_PROCESS], isolate: false },
      },
      ...(slowOnly ? [] : [{ extends: true as const, test: { name: 'own process', include: OWN_PROCESS, isolate: true } }]),
    ],
    testTimeout: 120_000,
    // Forks rather than threads: a test's searches and their worker threads live in a process of
    // the suite's own, apart from vitest's.
    pool: 'forks',
    // Vitest's default on a 2-core machine is one worker: the move searches then run one
    // after another (19 minutes). Two run side by side.
    maxWorkers: 2,
    sequence: { sequencer: HeaviestFirst },
    // Type checks kept by digest (src/cli/typecheckCache.ts) go to a directory of this run's
    // own, not the user's cache: every run checks from scratch.
    env: { MODELCHECK_CACHE_DIR: testCacheDir() },
  },
});
