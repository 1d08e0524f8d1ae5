// The CLI on small models: exit statuses, the text report, the JSON document and usage errors.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';
import { DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

describe('modelcheck on the Die Hard model (TLC figures: DieHard.tla)', () => {
  it('prints the shortest counterexample with the statement above it, and exits 0: the violation is expected', async () => {
    // As a user runs it: type-checked too (the model has no type error).
    const { exitCode, stdout } = await runCli(['test/fixtures/dieHard.ts'], { typecheck: true });
    expect(exitCode).toBe(0);
    expect(stdout).toContain('NotSolved is violated [invariant]');
    expect(stdout).toContain('"The big jug never holds exactly 4 gallons."');
    expect(stdout).toContain('shortest counterexample, 7 states:');
    expect(stdout).toContain('16 distinct states, 97 generated, depth 8');
    // Each step shows only what changed.
    expect(stdout).toMatch(/ 7\. BigToSmall\n {8}small: 2 -> 3\n {8}big: 5 -> 4\n/);
  });

  it('prints the documented JSON document', async () => {
    const { exitCode, stdout } = await runCli(['test/fixtures/dieHard.ts', '--json']);
    expect(exitCode).toBe(0);
    const doc = JSON.parse(stdout);
    expect(doc.model).toBe('DieHard');
    const [v] = doc.variants;
    expect(v).toMatchObject({
      name: 'default',
      verdict: 'violated',
      expectedViolations: ['NotSolved'],
      metExpectations: true,
      distinctStates: 16,
      statesGenerated: 97,
      depth: 8,
    });
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0].property).toBe('NotSolved');
    expect(v.violations[0].kind).toBe('invariant');
    expect(v.violations[0].trace[0]).toEqual({ action: null, events: [], state: { small: 0, big: 0 } });
    expect(v.violations[0].trace.map((s: { action: string | null }) => s.action)).toEqual([null, ...DIE_HARD_STEPS]);
  });

  it('exits 3 and never says proved when --max-states stops the search', async () => {
    const { exitCode, stdout } = await runCli(['test/fixtures/dieHard.ts', '--max-states', '5']);
    expect(exitCode).toBe(3);
    expect(stdout).toContain('INCOMPLETE');
    expect(stdout).not.toContain('PROVED');
  });

  it('exits 2 with a clear message for a missing model file', async () => {
    const { exitCode, stderr } = await runCli(['test/fixtures/noSuchModel.ts']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('error MC001 in test/fixtures/noSuchModel.ts: no model file at test/fixtures/noSuchModel.ts');
  });

  it('exits 2 for an unknown variant, naming the known ones', async () => {
    const { exitCode, stderr } = await runCli(['test/fixtures/dieHard.ts', '--variant', 'nope']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('model DieHard has no variant named nope');
    expect(stderr).toContain('hint: its variants: default');
  });

  it('exits 2 for a usage error', async () => {
    const { exitCode, stderr } = await runCli(['test/fixtures/dieHard.ts', '--max-states', 'many']);
    expect(exitCode).toBe(2);
    expect(stderr).toContain('expected a whole number of at least 1');
  });
});

describe('modelcheck on a liveness model (test/fixtures/liveness.ts: the shared lock)', () => {
  it('prints the lasso step by step, marks where the cycle starts and the step that closes it', async () => {
    const { exitCode, stdout } = await runCli(['test/fixtures/liveness.ts', '--variant', 'lock-weak']);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('weak fairness of acquire (per parameter): acquire');
    expect(stdout).toContain('liveness phase: ');
    expect(stdout).toContain('counterexample: a lasso, 1 step from an initial state to a cycle of 3 states repeated for ever:');
    expect(stdout).toMatch(/ 2\. request\(1\) {3}◀ the cycle starts at this state\n {8}pc1: idle -> waiting\n/);
    expect(stdout).toMatch(/↺ release\(0\) leads back to state 2; states 2 to 4 repeat for ever\n {8}pc0: critical -> idle/);
  });

  it('gives the lasso a "loop" index in --json, and the step back to it', async () => {
    const { exitCode, stdout } = await runCli(['test/fixtures/liveness.ts', '--json']);
    expect(exitCode).toBe(0);
    const doc = JSON.parse(stdout);
    const weak = doc.variants.find((v: { name: string }) => v.name === 'lock-weak');
    expect(weak.fairness).toEqual([
      'weak fairness of request and release (per parameter): request, release',
      'weak fairness of acquire (per parameter): acquire',
    ]);
    const [x] = weak.violations;
    expect(x).toMatchObject({ property: 'WaitingProcess1Enters', kind: 'liveness', loop: 1, loopAction: 'release(0)' });
    expect(x.trace.map((s: { action: string | null }) => s.action)).toEqual([null, 'request(1)', 'request(0)', 'acquire(0)']);
    const none = doc.variants.find((v: { name: string }) => v.name === 'lock-none');
    expect(none.warnings[0]).toContain('no fairness at all');
    expect(none.violations[0]).toMatchObject({ loop: 1, loopAction: null });
    const strong = doc.variants.find((v: { name: string }) => v.name === 'lock-strong');
    expect(strong.verdict).toBe('proved');
  });

  it('says stuttering when the cycle is one state repeated', async () => {
    const { stdout } = await runCli(['test/fixtures/liveness.ts', '--variant', 'lock-none']);
    expect(stdout).toContain('↺ state 2 repeats for ever (stuttering); no fairness is declared, so a behaviour may stop in any\n    state');
    expect(stdout).toContain('warning: liveness properties (WaitingProcess1Enters) are checked with no fairness at all');
  });
});
