// `modelcheck docs`: the generated page's content on a small model with known answers (the lock
// of test/engine/liveness.test.ts: 8 states, violated without fairness and under weak fairness,
// holds under strong), its diagrams parsed by mermaid, and `--check`, which CI runs on the
// committed pages: rendered from the record by replaying its counterexamples, it must fail for
// every change of what a page shows and for nothing else, and `--render` must mend a change of
// text without a search (docs/architecture.md, "Generated documentation").
import { describe, expect, it } from 'vitest';
import mermaid from 'mermaid';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { runCli } from '../helpers/runCli.ts';

describe('modelcheck docs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-docs-'));
  const out = join(dir, 'lock.md');

  it('writes the purpose, variants, actions, verdicts per variant and every counterexample', async () => {
    const r = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--workers', '1']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`wrote ${out} (and ${join(dir, 'lock.manifest.json')}): 3 variants, 2 counterexamples\n`);
    const page = readFileSync(out, 'utf8');
    expect(page.startsWith('# lock\n')).toBe(true);
    expect(page).toContain('| `lock-none` |  | 8 | 15 | 4 | violated (as expected) |');
    expect(page).toContain('| `lock-strong` |  | 8 | 15 | 4 | proved (as expected) |');
    expect(page).toContain(
      '| `WaitingProcess1Enters` | liveness | Whenever process 1 waits for the lock, it eventually holds it. | ' +
        '[**violated**](#lock-none-waitingprocess1enters) | [**violated**](#lock-weak-waitingprocess1enters) | holds |',
    );
    // Each verdict link leads to a counterexample section.
    expect(page).toContain('### lock-none: WaitingProcess1Enters\n');
    expect(page).toContain('### lock-weak: WaitingProcess1Enters\n');
    // The weak-fairness lasso as a table: request(1), then process 0's round, closed by release(0).
    expect(page).toContain(
      [
        '| 2 | `request(1) (the cycle starts here)` |  | `pc1: idle -> waiting` |',
        '| 3 | `request(0)` |  | `pc0: idle -> waiting` |',
        '| 4 | `acquire(0)` |  | `pc0: waiting -> critical` |',
        '| 5 | `release(0) (back to state 2)` |  | `pc0: critical -> idle` |',
      ].join('\n'),
    );
    const diagrams = [...page.matchAll(/```mermaid\n([\s\S]*?)\n```/g)].map((m) => m[1]);
    expect(diagrams.length).toBe(2);
    for (const d of diagrams) await expect(mermaid.parse(d)).resolves.toMatchObject({ diagramType: 'sequence' });
  });

  it("lists a model's parameters with their defaults and ranges, and runs it at the defaults", async () => {
    const file = join(dir, 'counter.md');
    const r = await runCli(['docs', 'test/fixtures/parameterized.ts', '--out', file, '--workers', '1']);
    expect(r.exitCode).toBe(0);
    const page = readFileSync(file, 'utf8');
    // The fixture's hand count at top = 3: 0..3, 4 states, depth 4.
    expect(page).toContain('| `default` |  | 4 | 4 | 4 | proved (as expected) |');
    expect(page).toContain(
      [
        '## Parameters',
        '',
        'Numbers the model is built from, like the CONSTANTS of a TLA+ spec: `--param name=value` sets one, for a search of another size. This page was generated with the defaults.',
        '',
        '| parameter | what it sets | default | range |',
        '|---|---|---:|---:|',
        '| `top` | where the counter stops | 3 | 1 to 1000 |',
        '| `step` | how much one step adds | 1 | 1 to 2 |',
      ].join('\n'),
    );
  });

  it('--check passes for a current page and fails naming the page and its first differing line; --render mends it', async () => {
    const manifest = join(dir, 'lock.manifest.json');
    const ok = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(`${out} is as ${manifest} and test/fixtures/liveness.ts render them\n`);
    expect(ok.exitCode).toBe(0);
    const recorded = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(Object.keys(recorded.variants)).toEqual(['lock-none', 'lock-weak', 'lock-strong']);
    expect(recorded.variants['lock-strong']).toMatchObject({ verdict: 'proved', distinctStates: 8, statesGenerated: 15, depth: 4 });
    // The weak-fairness lasso as the record keeps it: the steps' labels, where the cycle starts, the step back.
    expect(recorded.variants['lock-weak'].violations).toEqual([
      {
        property: 'WaitingProcess1Enters',
        states: 4,
        loop: 1,
        init: 0,
        steps: ['request(1)', 'request(0)', 'acquire(0)'],
        loopAction: 'release(0)',
      },
    ]);

    const page = readFileSync(out, 'utf8');
    const line = page.split('\n').indexOf('| `lock-strong` |  | 8 | 15 | 4 | proved (as expected) |') + 1;
    writeFileSync(out, page.replace('| `lock-strong` |  | 8 |', '| `lock-strong` |  | 9 |'));
    const edited = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check']);
    expect(edited.exitCode).toBe(1);
    expect(edited.stderr).toBe(
      `${out}:${line}: rendered from the record and the model "| \`lock-strong\` |  | 8 | 15 | 4 | proved (as expected) |", ` +
        `the page has "| \`lock-strong\` |  | 9 | 15 | 4 | proved (as expected) |"\n` +
        `the pages are stale: run npx modelcheck docs test/fixtures/liveness.ts --out ${out} --render\n`,
    );
    const rendered = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--render']);
    expect([rendered.exitCode, rendered.stdout]).toEqual([0, `rendered ${out} from ${manifest}\n`]);
    expect(readFileSync(out, 'utf8')).toBe(page);
    const missing = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', join(dir, 'none.md'), '--check']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/none\.manifest\.json is missing; the results changed: run /);
  });

  it('--check and --render refuse a record whose counterexample no longer replays, naming the step', async () => {
    const manifest = join(dir, 'lock.manifest.json');
    const recorded = readFileSync(manifest, 'utf8');
    const record = JSON.parse(recorded);
    record.variants['lock-weak'].violations[0].steps[1] = 'acquire(1)';
    writeFileSync(manifest, JSON.stringify(record));
    for (const mode of ['--check', '--render']) {
      const r = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, mode]);
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toBe(
        `${out} cannot be rendered from ${manifest}: variant lock-weak: the counterexample to WaitingProcess1Enters no longer replays: ` +
          `acquire(0) is not enabled in state 3; the results changed: run npx modelcheck docs test/fixtures/liveness.ts --out ${out}\n`,
      );
    }
    writeFileSync(manifest, recorded);
  });

  it('docs/move.md and docs/move.matrices.md are up to date with models/move.ts (regenerate: npx modelcheck docs models/move.ts)', async () => {
    const r = await runCli(['docs', 'models/move.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(
      'docs/move.md, docs/move.matrices.md and README.md are as docs/move.manifest.json and models/move.ts render them\n',
    );
    expect(r.exitCode).toBe(0);
  });

  it('docs/moveBack.md is up to date with models/moveBack.ts (regenerate: npx modelcheck docs models/moveBack.ts)', async () => {
    const r = await runCli(['docs', 'models/moveBack.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });

  for (const bug of ['capi13649', 'capi8946', 'cassoperator412', 'casskop370', 'kubernetes65200', 'zookeeper410']) {
    it(`docs/${bug}.md and the table of bugs, docs/bugs.md, are up to date with models/bugs/${bug}.ts and every bug's record`, async () => {
      const r = await runCli(['docs', `models/bugs/${bug}.ts`, '--check']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`docs/${bug}.md and docs/bugs.md are as docs/${bug}.manifest.json and models/bugs/${bug}.ts render them\n`);
      expect(r.exitCode).toBe(0);
    });
  }
});

// The check on a copy of the package, edited as a developer would edit it: the CLI of the copy
// runs, so that its own sources render the pages.
describe('docs --check on an edited copy of the package', () => {
  const run = promisify(execFile);
  const root = resolve('.');
  const copy = join(mkdtempSync(join(tmpdir(), 'modelcheck-copy-')), 'p');
  for (const part of ['bin', 'src', 'models', 'docs', 'package.json', 'tsconfig.json'])
    cpSync(join(root, part), join(copy, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const docs = async (...args: string[]) => {
    try {
      const r = await run('node', ['bin/modelcheck.js', 'docs', 'models/move.ts', ...args], { cwd: copy });
      return { exitCode: 0, stdout: r.stdout, stderr: r.stderr };
    } catch (e) {
      const x = e as { code: number; stdout: string; stderr: string };
      return { exitCode: x.code, stdout: x.stdout, stderr: x.stderr };
    }
  };
  const edit = (file: string, from: string | RegExp, to: string) => {
    const path = join(copy, file);
    const text = readFileSync(path, 'utf8');
    const next = text.replace(from, to);
    expect(next).not.toBe(text);
    writeFileSync(path, next);
    return () => writeFileSync(path, text);
  };
  /** The line of docs/move.md where `text` first occurs (from 1). */
  const lineOf = (text: string) =>
    readFileSync(join(copy, 'docs/move.md'), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(text)) + 1;

  it('passes after a local variable of the Kubernetes library is renamed and comments change in a reconcile and in the engine', async () => {
    const undoLibrary = edit(
      'src/k8s/apiServer.ts',
      'const o = server.objects.get(key);\n  return o ? { code: 200, object: o, removed: false }',
      'const found = server.objects.get(key);\n  return found ? { code: 200, object: found, removed: false }',
    );
    const undoReconcile = edit(
      'models/move/clusterController.ts',
      '// internal/controllers/cluster/cluster_controller.go Reconcile:',
      '// Reconcile (cluster_controller.go):',
    );
    const undoEngine = edit('src/engine/search/bfs.ts', /^\/\/ /m, '// A comment changed by a test. ');
    const r = await docs('--check');
    undoEngine();
    undoReconcile();
    undoLibrary();
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it("fails after a property's statement changes, naming the page and the line; --render mends it without a search", async () => {
    const was = "Once the mover has emptied an object's finalizers, no finalizer reappears on that object while it exists.";
    const line = lineOf(was);
    const undo = edit('models/move/properties.ts', was, was.replace('reappears', 'comes back'));
    const r = await docs('--check');
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`^docs/move\\.md:${line}: rendered from the record and the model ".*no finalizer comes back on that object`),
    );
    expect(r.stderr).toMatch(/the pages are stale: run npx modelcheck docs models\/move\.ts --render\n$/);
    const rendered = await docs('--render');
    expect(rendered.exitCode).toBe(0);
    expect(readFileSync(join(copy, 'docs/move.md'), 'utf8')).toContain(was.replace('reappears', 'comes back'));
    expect((await docs('--check')).exitCode).toBe(0);
    undo();
    expect((await docs('--render')).exitCode).toBe(0);
  }, 120_000);

  it('fails after a word of how a request prints changes in the Kubernetes library, naming the page and the line', async () => {
    const line = lineOf('(merge) {');
    const undo = edit('src/k8s/describe.ts', '(merge) ${JSON.stringify', '(merge patch) ${JSON.stringify');
    const r = await docs('--check');
    undo();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`^docs/move\\.md:${line}: rendered from the record and the model ".*\\(merge patch\\) \\{`));
    rmSync(join(copy, '..'), { recursive: true, force: true });
  }, 60_000);
});
