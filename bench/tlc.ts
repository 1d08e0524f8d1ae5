// modelcheck and TLC side by side, on the same state spaces (issue 23).
//
//   TLC_JAR=/path/to/tla2tools.jar TLA_EXAMPLES=/path/to/tlaplus/Examples npm run bench:tlc [-- RUNS [CASE...]]
//
// TLC runs the TLA+ examples' own specifications (TLA_EXAMPLES: a checkout of
// github.com/tlaplus/Examples; their files are copied to a temporary directory, with a .cfg
// written here where the examples' own does not fit), modelcheck runs the TypeScript models
// written anew from them. Each case runs RUNS times (3 by default) per checker, taking turns,
// both with one worker, timed as whole processes (TLC's JVM start and modelcheck's start-up,
// type check included, with its answer kept by the warm-up run). Both counts of distinct states
// are checked to be equal, and the line gives the median times and their ratio: how many times
// TLC's time modelcheck's is (above 1: modelcheck is faster), then each run's time, in the
// order they ran (the machine's drift shows there). Skipped, with a note, where java,
// the jar or the examples are missing: TLC is a measuring instrument, never a dependency.
//
// Paxos's Voting.tla imports the proof system's modules (TLAPS, and through Consensus.tla
// FiniteSetTheorems, which needs the community modules' Functions), which TLC's jar does not
// have: its case runs when TLA_LIBRARY names directories that hold them, separated by `:` (the
// `library` folder of github.com/tlaplus/tlapm and the `modules` folder of
// github.com/tlaplus/CommunityModules), given to TLC as -DTLA-Library.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

interface Case {
  readonly name: string;
  /** The examples' files TLC needs, from the checkout's root. */
  readonly specs: readonly string[];
  /** The module TLC checks, and its .cfg (written here when given, else the examples' own). */
  readonly module: string;
  readonly cfg?: string;
  /** Whether TLC needs the modules of TLA_LIBRARY. */
  readonly library?: boolean;
  /** modelcheck's arguments after the node binary. */
  readonly modelcheck: readonly string[];
}

const TWO_PHASE = ['specifications/transaction_commit/TwoPhase.tla', 'specifications/transaction_commit/TCommit.tla'];
/**
 * TwoPhase with n resource managers; `plain`: the model written with plain objects and arrays;
 * `packed`: with its state packed by hand into small integers; `record`: declared as a packed record.
 */
const twoPhase = (n: number, form: 'immutable' | 'plain' | 'packed' | 'record' = 'immutable'): Case => ({
  name: `TwoPhase, ${n} resource managers${{ immutable: '', plain: ', plain arrays and objects', packed: ', packed into integers', record: ', a packed record' }[form]}`,
  specs: TWO_PHASE,
  module: 'TwoPhase',
  // The examples' TwoPhase.cfg with n resource managers (model values).
  cfg: `CONSTANT RM = {${Array.from({ length: n }, (_, i) => `r${i + 1}`).join(', ')}}\nINVARIANT TPTypeOK\nSPECIFICATION TPSpec\n`,
  modelcheck: [
    {
      immutable: 'bench/models/twoPhase.ts',
      plain: 'bench/models/twoPhasePlain.ts',
      packed: 'bench/models/twoPhasePacked.ts',
      record: 'bench/models/twoPhaseRecord.ts',
    }[form],
    '--param',
    `rms=${n}`,
  ],
});

const LAMPORT_MUTEX = [
  'specifications/lamport_mutex/LamportMutex.tla',
  'specifications/lamport_mutex/MCLamportMutex.tla',
  'specifications/lamport_mutex/MCLamportMutex.cfg',
];

const PAXOS = ['Paxos.tla', 'Voting.tla', 'Consensus.tla', 'MCPaxos.tla'].map((f) => `specifications/PaxosHowToWinATuringAward/${f}`);
/** The examples' MCPaxos configuration for ballots 0 .. maxBallot, checking the invariant Inv. */
const paxosCfg = (maxBallot: number) =>
  [
    `CONSTANT MaxBallot = ${maxBallot}`,
    'CONSTANTS a1 = a1 a2 = a2 a3 = a3 v1 = v1 v2 = v2 None = None',
    'CONSTANT Acceptor <- const_1560336937634605000',
    'CONSTANT Value <- const_1560336937634606000',
    'CONSTANT Quorum <- const_1560336937634607000',
    'CONSTANT Ballot <- def_ov_1560336937634609000',
    'CONSTANT Ballot <- [Voting]def_ov_1560336937634610000',
    'SPECIFICATION Spec',
    'INVARIANT Inv',
    '',
  ].join('\n');

const CASES: readonly Case[] = [
  twoPhase(6),
  twoPhase(7),
  twoPhase(8),
  twoPhase(7, 'plain'),
  {
    name: 'LamportMutex, 3 processes, clocks up to 6',
    specs: LAMPORT_MUTEX,
    module: 'MCLamportMutex',
    modelcheck: ['test/fixtures/classic/lamportMutex.ts'],
  },
  // The same model with its state as plain arrays and objects (docs/guide.md, "States").
  {
    name: 'LamportMutex, plain arrays and objects',
    specs: LAMPORT_MUTEX,
    module: 'MCLamportMutex',
    modelcheck: ['test/fixtures/classic/lamportMutexPlain.ts'],
  },
  {
    name: 'Paxos, ballots 0 to 2',
    specs: PAXOS,
    module: 'MCPaxos',
    // MCPaxosSmall.cfg (MaxBallot = 2) without its PROPERTY, the refinement of Voting's Spec,
    // which the TypeScript model does not check: the invariant Inv alone, on both sides.
    cfg: paxosCfg(2),
    library: true,
    modelcheck: ['bench/models/paxos.ts', '--param', 'maxBallot=2'],
  },
  // What a compact state is worth: TwoPhase 7 and LamportMutex again, their states packed by
  // hand into small integers.
  twoPhase(7, 'packed'),
  {
    name: 'LamportMutex, packed into integers',
    specs: LAMPORT_MUTEX,
    module: 'MCLamportMutex',
    modelcheck: ['test/fixtures/classic/lamportMutexPacked.ts'],
  },
  // And declared as packed records (src/engine/values/packed): read as the immutable.js models are.
  twoPhase(7, 'record'),
  {
    name: 'LamportMutex, a packed record',
    specs: LAMPORT_MUTEX,
    module: 'MCLamportMutex',
    modelcheck: ['test/fixtures/classic/lamportMutexRecord.ts'],
  },
  {
    name: 'Paxos, ballots 0 to 2, a packed record',
    specs: PAXOS,
    module: 'MCPaxos',
    cfg: paxosCfg(2),
    library: true,
    modelcheck: ['bench/models/paxosRecord.ts', '--param', 'maxBallot=2'],
  },
];

function skip(why: string): never {
  console.log(`bench:tlc skipped: ${why}`);
  process.exit(0);
}

const jar = process.env.TLC_JAR;
const examples = process.env.TLA_EXAMPLES;
if (!jar || !existsSync(jar)) skip('set TLC_JAR to the path of tla2tools.jar');
if (!examples || !existsSync(join(examples, 'specifications'))) skip('set TLA_EXAMPLES to a checkout of github.com/tlaplus/Examples');
if (spawnSync('java', ['-version']).status !== 0) skip('no java on the PATH');

const args = process.argv.slice(2);
const runs = args.length > 0 && /^\d+$/.test(args[0]) ? Number(args.shift()) : 3;
const chosen = args.length > 0 ? args.map((a) => CASES[Number(a)]) : CASES;

function timed(command: string, argv: readonly string[], cwd?: string): { seconds: number; stdout: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, argv, { cwd, encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status === null || r.status > 1) throw new Error(`${command} ${argv.join(' ')} exited with ${r.status}:\n${r.stderr}${r.stdout}`);
  return { seconds, stdout: r.stdout };
}

function runTlc(c: Case, dir: string): { seconds: number; distinct: number } {
  const library = c.library ? [`-DTLA-Library=${process.env.TLA_LIBRARY}`] : [];
  const { seconds, stdout } = timed(
    'java',
    ['-XX:+UseParallelGC', ...library, '-cp', jar!, 'tlc2.TLC', '-workers', '1', '-config', `${c.module}.cfg`, c.module],
    dir,
  );
  const m = /([\d,]+) states generated, ([\d,]+) distinct states found/.exec(stdout);
  if (!m) throw new Error(`TLC printed no state counts for ${c.name}:\n${stdout}`);
  return { seconds, distinct: Number(m[2].replaceAll(',', '')) };
}

function runModelcheck(c: Case): { seconds: number; distinct: number } {
  const { seconds, stdout } = timed(process.execPath, ['bin/modelcheck.js', ...c.modelcheck, '--workers', '1', '--no-progress', '--json']);
  const report = JSON.parse(stdout) as { variants: { distinctStates: number }[] };
  return { seconds, distinct: report.variants[0].distinctStates };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

console.log(`TLC (${basename(jar!)}) and modelcheck, one worker each, whole processes, ${runs} runs each taking turns`);
for (const c of chosen) {
  if (c.library) {
    // (Checked here, not left to TLC: a wrong path is a parse error deep in its output.)
    const dirs = (process.env.TLA_LIBRARY ?? '').split(':').filter((d) => d !== '');
    const missing = ['TLAPS.tla', 'Functions.tla'].filter((f) => !dirs.some((d) => existsSync(join(d, f))));
    if (missing.length > 0) {
      const why = dirs.length === 0 ? 'TLA_LIBRARY is not set' : `${missing.join(' and ')} not found in TLA_LIBRARY (${dirs.join(':')})`;
      console.log(`  ${c.name}: skipped (${why}: set it to the directories of TLAPS.tla and Functions.tla)`);
      continue;
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-tlc-'));
  try {
    for (const f of c.specs) copyFileSync(join(examples!, f), join(dir, basename(f)));
    if (c.cfg) writeFileSync(join(dir, `${c.module}.cfg`), c.cfg);
    runModelcheck(c); // warm-up: the type check's answer is kept, as on a user's second run
    const tlc: number[] = [];
    const ours: number[] = [];
    let counts = '';
    for (let i = 0; i < runs; i++) {
      const t = runTlc(c, dir);
      const m = runModelcheck(c);
      if (t.distinct !== m.distinct) throw new Error(`${c.name}: TLC found ${t.distinct} distinct states, modelcheck ${m.distinct}`);
      counts = `${t.distinct.toLocaleString('en-US')} distinct states`;
      tlc.push(t.seconds);
      ours.push(m.seconds);
    }
    const [a, b] = [median(tlc), median(ours)];
    const each = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' / ');
    console.log(
      `  ${c.name}: ${counts}; TLC ${a.toFixed(2)} s, modelcheck ${b.toFixed(2)} s; modelcheck at ${(a / b).toFixed(2)}x TLC's speed` +
        ` (runs in turn, TLC ${each(tlc)} s, modelcheck ${each(ours)} s)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
