// The first search thread is started as bin/modelcheck.js starts (src/cli/earlyWorker.ts,
// workerPool.ts startSpareWorker), from a guess read off the raw arguments. Whether the guess
// holds (its heap share is the one the run gives) or not, the run reports what the same run in
// this process reports; where no search runs, the process does not wait for the thread.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { searchThreads } from '../../src/cli/earlyWorker.ts';
import { runCli } from '../helpers/runCli.ts';

function spawned(args: readonly string[]) {
  const r = spawnSync(process.execPath, ['bin/modelcheck.js', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A JSON report without what differs from run to run (seconds, memory). */
function verdicts(json: string): unknown {
  const doc = JSON.parse(json) as { variants: Record<string, unknown>[] };
  return doc.variants.map(({ name, verdict, distinctStates, statesGenerated, depth, violations }) => ({
    name,
    verdict,
    distinctStates,
    statesGenerated,
    depth,
    violations,
  }));
}

describe('the thread count read from the raw arguments', () => {
  it('is --workers N or --workers=N, else the cores; none for the commands that take no early thread (subcommands.ts), help, version or a bad count', () => {
    expect(searchThreads(['m.ts', '--workers', '3'])).toBe(3);
    expect(searchThreads(['m.ts', '--workers=1', '--json'])).toBe(1);
    expect(searchThreads(['m.ts'])).toBe(availableParallelism());
    // A Job's shard takes the early thread; its plan and merge, which search nothing, do not.
    expect(searchThreads(['shard', 'plan.json', '--workers', '1'])).toBe(1);
    for (const argv of [
      [],
      ['docs', 'm.ts'],
      ['explore', 'm.ts'],
      ['resume', 'dir'],
      ['plan', 'm.ts', '--shards', '2'],
      ['merge', 'dir'],
      ['init', 'dir'],
      ['conform', 'm.ts', '--audit', 'log.json'],
      ['m.ts', '--help'],
      ['-V'],
      ['m.ts', '--workers', '0'],
    ]) {
      expect(searchThreads(argv), argv.join(' ')).toBeUndefined();
    }
  });
});

describe('a run whose first search thread started early', () => {
  it('finds what the same run in one process finds, on one thread (the early thread used)', async () => {
    const args = ['test/fixtures/dieHard.ts', '--json', '--no-typecheck', '--workers', '1'];
    const early = spawned(args);
    const inProcess = await runCli(args);
    expect(early.exitCode).toBe(inProcess.exitCode);
    expect(verdicts(early.stdout)).toEqual(verdicts(inProcess.stdout));
  });

  it('finds what the same run in one process finds when the guess is wrong (a simulation takes one thread a variant: the early one is let go)', async () => {
    const args = ['test/fixtures/dieHard.ts', '--simulate', '--runs', '50', '--seed', '7', '--json', '--no-typecheck', '--workers', '2'];
    const early = spawned(args);
    const inProcess = await runCli(args);
    expect(early.exitCode).toBe(inProcess.exitCode);
    expect(verdicts(early.stdout)).toEqual(verdicts(inProcess.stdout));
  });

  it('exits at once where the run ends before any search: a usage error', () => {
    const r = spawned(['test/fixtures/dieHard.ts', '--no-such-option']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--no-such-option');
  });
});
