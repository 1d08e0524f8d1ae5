// Small models of every kind the engine handles, for the tests that show a change of how a
// search runs (where its frontier is kept, checkpoints and resume) changes nothing it finds:
// safety and liveness, fairness per parameter, lassos, symmetry, the Kubernetes library, plain
// arrays and objects, packed records, liveness under a state constraint.
import type { Model, VariantResult } from 'modelcheck';
import { twoPhase } from '../fixtures/classic/twoPhase.ts';
import peterson from '../fixtures/classic/peterson.ts';
import diningPhilosophers from '../fixtures/classic/diningPhilosophers.ts';
import liveness from '../fixtures/liveness.ts';
import tCommit from '../fixtures/tCommit.ts';
import backupOperator from '../../models/examples/backupOperator.ts';
import { lamportMutexPlain } from '../fixtures/classic/lamportMutexPlain.ts';
import { lamportMutexRecord } from '../fixtures/classic/lamportMutexRecord.ts';
import producerConsumer from '../fixtures/producerConsumer.ts';
import coverageLabels from '../fixtures/coverageLabels.ts';

export const smallModels: [string, Model][] = [
  ['TwoPhase, 4 resource managers', twoPhase(4)],
  ['TwoPhase, 4 resource managers, symmetry', twoPhase(4, { symmetric: true })],
  ['Peterson', peterson as Model],
  ['dining philosophers (liveness, fairness per parameter)', diningPhilosophers as Model],
  ['liveness fixtures (violations with lassos)', liveness as Model],
  ['T-commit', tCommit as Model],
  ['backup operator (Kubernetes library: OrderedMaps, Lists, KubeObjects)', backupOperator as Model],
  ['LamportMutex with plain arrays and objects, clocks up to 3 (a state constraint)', lamportMutexPlain(3, 3) as Model],
  ['LamportMutex as a packed record, clocks up to 3', lamportMutexRecord(3, 3) as Model],
  ['producer and consumer (liveness under a state constraint: steps out of it enable fair actions)', producerConsumer as Model],
  ["a counter whose steps note coverage labels (the first level's only in the checkpoints after it)", coverageLabels],
];

/**
 * Everything a result says except its timings, threads and what it held where (the frontier's
 * storage figures, and the bytes the visited set and trace log held in memory, less once the
 * log's chunks went to a file), as plain data.
 */
export function comparable(r: VariantResult<unknown>): unknown {
  const { seconds: _s, statesPerSecond: _p, livenessSeconds: _l, threads: _t, frontier: _f, storedBytes: _b, ...stats } = r.stats;
  return JSON.parse(JSON.stringify({ ...r, stats }));
}
