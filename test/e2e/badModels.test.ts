// Bad models (test/fixtures/bad/) get a clear error and exit status 2, never a raw stack trace:
// the message names the model file, the variant, the action or property, and the state, with
// the trace that reached it (and the model's file and line where the model's own code threw).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const STATE_VALUES = 'test/fixtures/bad/stateValues.ts';

/** At most one "at <place>" line (where the model's code threw), never a stack of them. */
function noStackTrace(stderr: string) {
  expect(stderr.split('\n').filter((l) => /^\s+at /.test(l)).length).toBeLessThanOrEqual(1);
}

async function bad(args: string[], first: string, typecheck = false) {
  const r = await runCli([...args, '--no-progress'], { typecheck });
  expect(r.exitCode).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.split('\n')[0]).toBe(first);
  noStackTrace(r.stderr);
  return r.stderr;
}

/** The error of a variant whose `store` step puts a bad value into the state at depth 2. */
async function badValue(variant: string, what: string, within = '') {
  const err = await bad(
    [STATE_VALUES, '--variant', variant],
    `error MC102 in ${STATE_VALUES} (variant ${variant}): the successor produced by store holds ${what} at [payload]${within}; states must be immutable.js values, plain arrays and objects, and primitives`,
  );
  expect(err).toContain('  in the state at depth 1, reached by:\n    1. initial state\n         n: (none) -> 0');
}

describe('bad models: exit 2 with a clear error', () => {
  it('a missing model file', async () => {
    await bad(['test/fixtures/bad/nope.ts'], 'error MC001 in test/fixtures/bad/nope.ts: no model file at test/fixtures/bad/nope.ts');
  });

  it('a syntax error, with its file, line and column (through the real binary: the tsx loader reports it)', () => {
    // In-process, vitest's own transform would load the model; a user's run goes through tsx.
    const r = spawnSync(process.execPath, ['bin/modelcheck.js', 'test/fixtures/bad/syntaxError.ts', '--no-progress'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(
      'error MC002 in test/fixtures/bad/syntaxError.ts: cannot load test/fixtures/bad/syntaxError.ts: Transform failed with 1 error:',
    );
    expect(r.stderr).toMatch(/test\/fixtures\/bad\/syntaxError\.ts:4:58: ERROR: Expected "}" but found ";"/);
    noStackTrace(r.stderr);
  });

  it('a Kubernetes environment wired to a server that does not exist (issue 20: once "proved" in 2 states)', () => {
    const file = 'test/fixtures/bad/kubeWiring.ts';
    const r = spawnSync(process.execPath, ['bin/modelcheck.js', file, '--no-progress', '--no-typecheck'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error MC111 in ${file}: manager manager talks to API server mian, which is not one of the servers (main)\n` +
        '  hint: set its server to one of main, or add mian to servers\n',
    );
  });

  it('a type error, with its file, line and column, though the model would run (tsx strips types)', async () => {
    const file = 'test/fixtures/bad/typeError.ts';
    const err = await bad(
      [file],
      `error MC005 in ${file}: the model does not type-check: 1 error; nothing is reported until it does`,
      true,
    );
    expect(err).toContain(`  ${file}:6:7 TS2322: Type 'string' is not assignable to type 'number'.`);
    expect(err).toContain(`  hint: the compiler's own view: npx tsc --noEmit; to check ${file} anyway: --no-typecheck`);
    // Unchecked, it runs, and would be believed.
    const unchecked = await runCli([file, '--no-progress']);
    expect(unchecked.exitCode).toBe(0);
    expect(unchecked.stdout).toContain('PROVED');
  });

  it('a module with no model in it', async () => {
    const err = await bad(
      ['test/fixtures/bad/noModel.ts'],
      'error MC003 in test/fixtures/bad/noModel.ts: test/fixtures/bad/noModel.ts exports no model',
    );
    expect(err).toContain("hint: export default defineModel({ ... }) from 'modelcheck'");
  });

  it('two variants with one name', async () => {
    await bad(
      ['test/fixtures/bad/duplicateVariants.ts'],
      'error MC105 in test/fixtures/bad/duplicateVariants.ts: two variants of model duplicate-variants are named same',
    );
  });

  it('an unknown variant, naming the known ones', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'nope'],
      `error MC004 in ${STATE_VALUES}: model bad-state-values has no variant named nope`,
    );
    expect(err).toContain('hint: its variants: function, undefined, NaN, Date, class-instance');
  });

  it('a state holding a function', () => badValue('function', 'a function'));
  it('a state holding undefined', () => badValue('undefined', 'undefined'));

  it('a state holding a Record type made without a name (MC112), with the fix', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'unnamed-record'],
      `error MC112 in ${STATE_VALUES} (variant unnamed-record): the successor produced by store holds a Record type with no name (fields x)`,
    );
    expect(err).toContain('  in the state at depth 1, reached by:\n    1. initial state\n         n: (none) -> 0');
    expect(err).toContain("  hint: name every Record type, and each with a name of its own: Record({ ... }, 'Name')");
  });
  it('a state holding NaN', () => badValue('NaN', 'NaN'));
  it('a state holding a Date', () => badValue('Date', 'a Date (use a number)'));
  it('a state holding a class instance', () => badValue('class-instance', 'an instance of Point'));
  it('a state holding a JavaScript Map', () => badValue('js-map', 'a JavaScript Map (use an immutable Map, or a plain object)'));
  it('a state holding a JavaScript Set in a plain array', () =>
    badValue('js-set-in-array', 'a JavaScript Set (use an immutable Set, or a sorted array)', '[1]'));
  it('a state holding a cycle (a plain array inside itself)', () => badValue('cycle', 'a value that holds itself (a cycle)', '[0].a'));

  it('an action that throws: the action, the state and its trace, and the line in the model', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'action-throws'],
      `error MC101 in ${STATE_VALUES} (variant action-throws): action step threw Error: boom`,
    );
    expect(err).toContain(
      '  in the state at depth 2, reached by:\n    1. initial state\n         n: (none) -> 0\n    2. step\n         n: 0 -> 1',
    );
    expect(err).toMatch(/ {2}at .*test\/fixtures\/bad\/stateValues\.ts:\d+:\d+\)/);
  });

  it('an action that throws in a variant with a view: the trace reads over the view, as counterexamples do', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'action-throws-viewed'],
      `error MC101 in ${STATE_VALUES} (variant action-throws-viewed): action step threw Error: boom`,
    );
    expect(err).toContain(
      [
        '  in the state at depth 3, reached by:',
        '    1. initial state',
        '         counter n: (none) -> 0',
        '    2. step',
        '         counter n: 0 -> 1',
        '    3. step',
        '         counter n: 1 -> 2',
      ].join('\n'),
    );
    expect(err).not.toContain('noise');
  });

  it('an action that throws where the view throws too: the trace over the raw states', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'action-throws-view-throws'],
      `error MC101 in ${STATE_VALUES} (variant action-throws-view-throws): action step threw Error: boom`,
    );
    expect(err).toContain(
      '  in the state at depth 2, reached by:\n    1. initial state\n         n: (none) -> 0\n    2. step\n         n: 0 -> 1',
    );
  });

  it('an action that returns something that is not a state (a Promise)', async () => {
    await bad(
      [STATE_VALUES, '--variant', 'action-returns-a-promise'],
      `error MC102 in ${STATE_VALUES} (variant action-returns-a-promise): the successor produced by step holds an instance of Promise at the top level; states must be immutable.js values, plain arrays and objects, and primitives`,
    );
  });

  it('an invariant that throws: the property, the state and its trace', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'invariant-throws'],
      `error MC103 in ${STATE_VALUES} (variant invariant-throws): property Small threw Error: cannot tell`,
    );
    expect(err).toContain('  in the state at depth 3, reached by:');
  });

  it('a predicate that returns a non-boolean', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'predicate-not-boolean'],
      `error MC104 in ${STATE_VALUES} (variant predicate-not-boolean): property Small returned number, not a boolean`,
    );
    expect(err).toContain('  in the state at depth 1, reached by:');
  });

  it('an action that is not deterministic, found during the search by expanding a sample of states twice', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'not-deterministic'],
      `error MC107 in ${STATE_VALUES} (variant not-deterministic): action step is not deterministic: called twice on the same state, it gave different successors`,
    );
    expect(err).toContain('  in the state at depth 1, reached by:\n    1. initial state\n         n: (none) -> 0');
    expect(err).toContain(
      'hint: init(), params() and next() must return the same values every time they are called with the same state (no Math.random, clocks or counters outside the state)',
    );
  });

  it('an action that is not deterministic only in a state outside the sample, found when its trace is replayed', async () => {
    const err = await bad(
      [STATE_VALUES, '--variant', 'not-deterministic-deep'],
      `error MC107 in ${STATE_VALUES} (variant not-deterministic-deep): cannot rebuild the trace for NotSeventyOne: action step no longer produces the successor it produced during the search`,
    );
    expect(err).toContain('hint: init(), params() and next() must return the same values every time they are called with the same state');
  });

  it('one variant that fails stops the searches beside it: the run ends with the error, not when they do', () => {
    const file = 'test/fixtures/bad/oneVariantThrows.ts';
    const started = Date.now();
    const r = spawnSync(process.execPath, ['bin/modelcheck.js', file, '--no-progress', '--no-typecheck', '--workers', '2'], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });
    expect(r.status).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`error MC101 in ${file} (variant throws): action step threw Error: boom`);
    // Variant long alone takes minutes; stopped, the run ends in seconds (a bound far from both, not a speed figure).
    expect(Date.now() - started).toBeLessThan(60_000);
  }, 120_000);
});
