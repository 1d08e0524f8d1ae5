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
// TLC's time modelcheck's is (above 1: modelcheck is faster). Skipped, with a note, where java,
// the jar or the examples are missing: TLC is a measuring instrument, never a dependency.
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
  /** modelcheck's arguments after the node binary. */
  readonly modelcheck: readonly string[];
}

const TWO_PHASE = ['specifications/transaction_commit/TwoPhase.tla', 'specifications/transaction_commit/TCommit.tla'];
/** TwoPhase with n resource managers; `plain`: the model written with plain objects and arrays. */
const twoPhase = (n: number, plain = false): Case => ({
  name: `TwoPhase, ${n} resource managers${plain ? ', plain arrays and objects' : ''}`,
  specs: TWO_PHASE,
  module: 'TwoPhase',
  // The examples' TwoPhase.cfg with n resource managers (model values).
  cfg: `CONSTANT RM = {${Array.from({ length: n }, (_, i) => `r${i + 1}`).join(', ')}}\nINVARIANT TPTypeOK\nSPECIFICATION TPSpec\n`,
  modelcheck: [plain ? 'bench/models/twoPhasePlain.ts' : 'bench/models/twoPhase.ts', '--param', `rms=${n}`],
});

const LAMPORT_MUTEX = [
  'specifications/lamport_mutex/LamportMutex.tla',
  'specifications/lamport_mutex/MCLamportMutex.tla',
  'specifications/lamport_mutex/MCLamportMutex.cfg',
];

const CASES: readonly Case[] = [
  twoPhase(6),
  twoPhase(7),
  twoPhase(8),
  twoPhase(7, true),
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
  // Not Paxos (PaxosHowToWinATuringAward, test/fixtures/classic/paxos.ts) yet: its Voting.tla
  // imports the proof system's modules (TLAPS, and through Consensus.tla FiniteSetTheorems),
  // which TLC's jar does not have; TLC parses it only with tlapm's library on its path.
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
  const { seconds, stdout } = timed(
    'java',
    ['-XX:+UseParallelGC', '-cp', jar!, 'tlc2.TLC', '-workers', '1', '-config', `${c.module}.cfg`, c.module],
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
    console.log(
      `  ${c.name}: ${counts}; TLC ${a.toFixed(2)} s, modelcheck ${b.toFixed(2)} s; modelcheck at ${(a / b).toFixed(2)}x TLC's speed`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
