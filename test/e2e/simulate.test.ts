// --simulate on the command line: random runs that find the move model's bug without a full
// search, reproducible from the seed, and labelled as no proof (exit 3 even when the expected
// violations are found, since nothing else is ruled out).
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

/** The JSON document without the timings, which differ between runs. */
function withoutTimes(stdout: string) {
  const doc = JSON.parse(stdout);
  for (const v of doc.variants) {
    delete v.seconds;
    delete v.statesPerSecond;
  }
  return doc;
}

describe('--simulate', () => {
  it('finds the v1.9.3 finalizer race on the move model by random runs, the same way from the same seed', async () => {
    const args = [
      'models/move.ts',
      '--variant',
      'v1.9.3',
      '--simulate',
      '--runs',
      '200',
      '--depth',
      '60',
      '--seed',
      '7',
      '--json',
      '--no-progress',
    ];
    const first = await runCli(args);
    expect(first.exitCode).toBe(3);
    const [v] = withoutTimes(first.stdout).variants;
    expect(v.verdict).toBe('violated');
    expect(v.incompleteReason).toBe('simulation');
    expect(v.violations.map((x: { property: string }) => x.property)).toContain('NoFinalizerResurrection');
    expect(v.simulation).toMatchObject({ runs: 200, depth: 60, seed: 7, runsDone: 200 });
    const again = await runCli(args);
    expect(withoutTimes(again.stdout)).toEqual(withoutTimes(first.stdout));
  });

  it('says what it did, that it is no proof, and which run found the violation', async () => {
    const r = await runCli(['test/fixtures/dieHard.ts', '--simulate', '--runs', '100', '--depth', '20', '--seed', '1', '--no-progress']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toMatch(/^ {2}simulation: 100 runs of at most 20 states, seed 1; shortest violation found of NotSolved in run \d+$/m);
    expect(r.stdout).toContain('not a search of every state');
    expect(r.stdout).toContain('counterexample from a random run (not necessarily a shortest one)');
    expect(r.stdout).not.toContain('PROVED');
    expect(r.stdout).not.toContain('shortest counterexample');
  });

  it('without --seed draws one and prints it, so the run can be repeated', async () => {
    const r = await runCli(['test/fixtures/dieHard.ts', '--simulate', '--runs', '10', '--no-progress']);
    const seed = /seed (\d+)/.exec(r.stdout)?.[1];
    expect(seed).toBeDefined();
    const again = await runCli(['test/fixtures/dieHard.ts', '--simulate', '--runs', '10', '--seed', seed!, '--json', '--no-progress']);
    expect(JSON.parse(again.stdout).variants[0].simulation.seed).toBe(Number(seed));
  });

  it('refuses options that belong to an exhaustive search, and simulation options without it', async () => {
    for (const [args, message] of [
      [['--simulate', '--exact'], '--simulate draws random runs; it does not take --exact'],
      [['--simulate', '--max-states', '10'], '--simulate draws random runs; it does not take --max-states'],
      [['--runs', '10'], '--runs, --depth and --seed go with --simulate'],
    ] as const) {
      const r = await runCli(['test/fixtures/dieHard.ts', ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr.split('\n')[0]).toBe(`modelcheck: ${message}`);
    }
  });
});
