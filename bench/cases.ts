// The benchmark's fixed set of models: a classic protocol at growing sizes and the move model at
// several sizes. Each case names how to load its variant; bench/one.ts runs one case.
import { configureModel, type Model, type Variant } from 'modelcheck';

export interface BenchCase {
  readonly name: string;
  /** The model, and which of its variants to check. */
  readonly load: () => Promise<{ model: Model; variant: string }>;
  /** Run only when named by index (`npm run bench -- 9`): it takes an hour or more. */
  readonly large?: boolean;
}

const twoPhaseCase = (n: number, symmetric = false): BenchCase => ({
  name: `TwoPhase, ${n} resource managers${symmetric ? ', symmetry' : ''}`,
  load: async () => {
    const { twoPhase } = await import('../test/fixtures/classic/twoPhase.ts');
    return { model: twoPhase(n, { symmetric }), variant: 'default' };
  },
});

const moveCase = (variant: string, what: string): BenchCase => ({
  name: `move: ${what}`,
  load: async () => ({ model: (await import('../models/move.ts')).default, variant }),
});

// The move model sized by its parameters (models/move.ts, "Scale"), with the fixed ordering.
const scaleCase = (params: readonly string[], what: string, large = false): BenchCase => ({
  name: `move: scaled, ${what}`,
  load: async () => ({ model: configureModel((await import('../models/move.ts')).default, params), variant: 'scale.v1.9.5-mover' }),
  ...(large ? { large } : {}),
});

export const CASES: readonly BenchCase[] = [
  twoPhaseCase(6),
  twoPhaseCase(7),
  twoPhaseCase(8),
  // Symmetry costs a renaming per group element per state: 5! = 120 here, 8! = 40,320 would be too many.
  twoPhaseCase(5, true),
  moveCase('two-clusters.v1.9.5-mover.cache-lag-0.no-timing-assumption', 'two Clusters, v1.9.5, lag 0'),
  moveCase('cluster-with-machine.v1.9.5-mover.cache-lag-0.no-timing-assumption', 'a Cluster with a Machine, v1.9.5, lag 0'),
  moveCase('v1.9.5', 'v1.9.5 (one Cluster, caches at any lag)'),
  moveCase('cluster-with-machine.v1.9.3-mover.cache-lag-0.no-timing-assumption', 'a Cluster with a Machine, v1.9.3, lag 0'),
  scaleCase(['clusters=2', 'moverReruns=1'], 'two Clusters, clusterctl re-run once, lag 0'),
  // Issue 7's large configuration: 12.7 million states (bench/README.md has its run).
  scaleCase(['clusters=2', 'moverReruns=2', 'restarts=1'], 'two Clusters, clusterctl re-run twice, a controller crash, lag 0', true),
  // A user's model with immutable Lists, Sets and Records and a state constraint (724,274 states, as TLC).
  {
    name: 'LamportMutex, 3 processes, clocks up to 6',
    load: async () => ({ model: (await import('../test/fixtures/classic/lamportMutex.ts')).default, variant: 'default' }),
  },
  // The same model with plain arrays and objects for its state.
  {
    name: 'LamportMutex, plain arrays and objects',
    load: async () => ({ model: (await import('../test/fixtures/classic/lamportMutexPlain.ts')).default, variant: 'default' }),
  },
  {
    name: 'TwoPhase, 7 resource managers, plain arrays and objects',
    load: async () => {
      const { twoPhasePlain } = await import('../test/fixtures/classic/twoPhasePlain.ts');
      return { model: twoPhasePlain(7), variant: 'default' };
    },
  },
  {
    name: 'TwoPhase, 7 resource managers, packed into integers',
    load: async () => {
      const { twoPhasePacked } = await import('../test/fixtures/classic/twoPhasePacked.ts');
      return { model: twoPhasePacked(7), variant: 'default' };
    },
  },
  {
    name: 'LamportMutex, packed into integers',
    load: async () => ({ model: (await import('../test/fixtures/classic/lamportMutexPacked.ts')).default, variant: 'default' }),
  },
  // The same models with their states declared as packed records (src/engine/values/packed): read as
  // the immutable.js ones are, held as the hand-packed ones are.
  {
    name: 'TwoPhase, 7 resource managers, a packed record',
    load: async () => {
      const { twoPhaseRecord } = await import('../test/fixtures/classic/twoPhaseRecord.ts');
      return { model: twoPhaseRecord(7), variant: 'default' };
    },
  },
  {
    name: 'LamportMutex, a packed record',
    load: async () => ({ model: (await import('../test/fixtures/classic/lamportMutexRecord.ts')).default, variant: 'default' }),
  },
  {
    name: 'Paxos, ballots 0 to 2, a packed record',
    load: async () => {
      const { paxosRecord } = await import('../test/fixtures/classic/paxosRecord.ts');
      return { model: paxosRecord(2), variant: 'default' };
    },
  },
];

/**
 * The case a command line names (`arg`, else `fallback`) and its variant, loaded; a message and
 * exit code 2 for a number that names no case (bench/one.ts, steps.ts, hot.ts).
 */
export async function caseVariant(arg: string | undefined, fallback?: number): Promise<{ c: BenchCase; v: Variant<unknown> }> {
  const index = Number(arg ?? fallback);
  const c = CASES[index];
  if (!c) {
    console.error(`no benchmark case ${arg}: 0 to ${CASES.length - 1} (bench/cases.ts)`);
    process.exit(2);
  }
  const { model, variant } = await c.load();
  const v = model.variants.find((x) => x.name === variant);
  if (!v) throw new Error(`${model.name} has no variant ${variant}`);
  return { c, v: v as Variant<unknown> };
}
