// Checkpoint and resume from the command line, the hard way: a search is killed (SIGKILL, so
// nothing of it runs after the signal) at a random moment, resumed with `modelcheck resume`,
// killed again, resumed again with another number of threads, and its JSON report compared
// with an uninterrupted run's. Timings, threads and frontier storage figures aside, the two
// must be identical: counts, verdicts, premise counts, coverage, traces. The moments are drawn
// from a seed printed with any failure (MODELCHECK_TEST_SEED=n repeats a run).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { comparable, runProcess, type ProcessRun } from '../helpers/cliProcess.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-resume-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seed = Number(process.env.MODELCHECK_TEST_SEED ?? Date.now() % 1_000_000);
let random = seed;
/** A number in [0, 1) from the seeded sequence (a 32-bit xorshift). */
function next(): number {
  random ^= random << 13;
  random ^= random >>> 17;
  random ^= random << 5;
  return (random >>> 0) / 2 ** 32;
}

/** The CLI in a process of its own, without the type check and progress lines; killed as `kill` says. */
function run(args: readonly string[], kill?: { ready: () => boolean; after: number }): Promise<ProcessRun> {
  return runProcess([...args, '--no-typecheck', '--no-progress'], kill ? { kill: { ready: kill.ready, afterSeconds: kill.after } } : {});
}

async function killAndResume(name: string, args: readonly string[], workers: [number, number, number]) {
  const straight = await run([...args, '--json', '--workers', '1']);
  expect(straight.stderr).toBe('');
  const ckpt = join(dir, name);
  const ready = () => existsSync(join(ckpt, 'manifest.json'));
  const story: string[] = [`seed ${seed}`];
  // Killed at a random moment of the run; then its resumption killed too; then resumed to the end.
  const first = await run([...args, '--json', '--workers', String(workers[0]), '--checkpoint', ckpt, '--checkpoint-every', '0'], {
    ready,
    after: next() * straight.seconds * 0.8,
  });
  story.push(`first run: ${first.signal ?? `exit ${first.code}`} after ${first.seconds.toFixed(2)} s`);
  const second = await run(['resume', ckpt, '--json', '--workers', String(workers[1])], { ready, after: next() * straight.seconds * 0.5 });
  story.push(`first resume: ${second.signal ?? `exit ${second.code}`} after ${second.seconds.toFixed(2)} s`);
  const last = await run(['resume', ckpt, '--json', '--workers', String(workers[2])]);
  story.push(`last resume: exit ${last.code}`);
  expect(last.stderr, story.join('; ')).toBe('');
  expect(last.code, story.join('; ')).toBe(straight.code);
  expect(comparable(last.stdout), story.join('; ')).toEqual(comparable(straight.stdout));
  if (process.env.MODELCHECK_TEST_STORY) console.log(name, story.join('; '));
  return comparable(straight.stdout) as { variants: { name: string; verdict: string; distinctStates: number }[] };
}

describe('a search killed at random moments and resumed ends with the report of a search never stopped', () => {
  it('a safety model: TwoPhase with 7 resource managers (296,448 states, as TLC)', async () => {
    const doc = await killAndResume('twoPhase', ['test/fixtures/resumable.ts', '--variant', 'twoPhase', '--param', 'rm=7'], [1, 2, 1]);
    expect(doc.variants.map((v) => [v.verdict, v.distinctStates])).toEqual([['proved', 296448]]);
  }, 120_000);

  it('a liveness model with fairness: proved, and violated by a lasso', async () => {
    const doc = await killAndResume(
      'ring',
      ['test/fixtures/resumable.ts', '--variant', 'ring-fair', '--param', 'n=6', '--param', 'k=6'],
      [1, 2, 1],
    );
    // Hand count: 6 * 6^6.
    expect(doc.variants.map((v) => [v.verdict, v.distinctStates])).toEqual([['proved', 279936]]);
    const unfair = await killAndResume(
      'ringUnfair',
      ['test/fixtures/resumable.ts', '--variant', 'ring-unfair', '--param', 'n=6', '--param', 'k=6'],
      [2, 1, 2],
    );
    expect(unfair.variants.map((v) => [v.verdict, v.distinctStates])).toEqual([['violated', 279936]]);
  }, 240_000);

  it('a move variant cut by --max-states (v1.9.3: the finalizer race found on the way)', async () => {
    const doc = await killAndResume('move', ['models/move.ts', '--variant', 'v1.9.3', '--max-states', '60000'], [1, 2, 1]);
    expect(doc.variants.map((v) => [v.verdict, v.distinctStates])).toEqual([['violated', 60000]]);
  }, 240_000);
});

describe('a search stopped by a limit', () => {
  it('says where its checkpoint is and how to go on (--timeout)', async () => {
    const ckpt = join(dir, 'timeout');
    const stopped = await run([
      'test/fixtures/resumable.ts',
      '--variant',
      'twoPhase',
      '--param',
      'rm=7',
      '--timeout',
      '1',
      '--checkpoint',
      ckpt,
    ]);
    expect(stopped.code).toBe(3);
    expect(stopped.stdout).toMatch(/INCOMPLETE: the search stopped at its time limit/);
    expect(stopped.stderr).toBe(`modelcheck: checkpoints of twoPhase are in ${ckpt}; go on with: modelcheck resume ${ckpt}\n`);
    const resumed = await run(['resume', ckpt]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/twoPhase +proved +296,448 states/);
  }, 60_000);
});

describe('modelcheck resume refuses what is not the checkpointed run', () => {
  it('other arguments that decide results', async () => {
    const ckpt = join(dir, 'refuse');
    const first = await run(['test/fixtures/resumable.ts', '--variant', 'twoPhase', '--checkpoint', ckpt, '--json']);
    expect(first.code).toBe(0);
    const other = await run(['resume', ckpt, '--param', 'rm=4']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/MC007.*is of another run/);
    expect(other.stderr).toMatch(/the arguments are "--variant twoPhase --param rm=4"; the checkpoint's were "--variant twoPhase"/);
    const again = await run(['test/fixtures/resumable.ts', '--variant', 'twoPhase', '--checkpoint', ckpt]);
    expect(again.stderr).toMatch(/holds a checkpoint already/);
    const none = await run(['resume', join(dir, 'nothing-here')]);
    expect(none.stderr).toMatch(/holds no checkpoint/);
  }, 60_000);
});
