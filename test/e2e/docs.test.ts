// `modelcheck docs`: the generated page's content on a small model with known answers (the lock
// of test/engine/liveness.test.ts: 8 states, violated without fairness and under weak fairness,
// holds under strong), its diagrams parsed by mermaid, and the staleness check that CI runs on
// the committed pages: it must fail for every change of what a page shows and for nothing else
// (docs/architecture.md, "Generated documentation").
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

  it('--check passes for a current page and fails, naming what changed, for an edited page or a missing record', async () => {
    const manifest = join(dir, 'lock.manifest.json');
    const ok = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check']);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe(`${out} is up to date with test/fixtures/liveness.ts (${manifest})\n`);
    expect(ok.exitCode).toBe(0);
    const recorded = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(Object.keys(recorded.variants)).toEqual(['lock-none', 'lock-weak', 'lock-strong']);
    expect(recorded.variants['lock-strong']).toMatchObject({ verdict: 'proved', distinctStates: 8, statesGenerated: 15, depth: 4 });

    const page = readFileSync(out, 'utf8');
    writeFileSync(out, page.replace('| `lock-strong` |  | 8 |', '| `lock-strong` |  | 9 |'));
    const edited = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check']);
    expect(edited.exitCode).toBe(1);
    expect(edited.stderr).toBe(
      `${out} is stale: ${out} was edited after it was generated; run: npx modelcheck docs test/fixtures/liveness.ts --out ${out}\n`,
    );
    writeFileSync(out, page);
    const missing = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', join(dir, 'none.md'), '--check']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/none\.manifest\.json is missing; run: /);
  });

  it('docs/move.md and docs/move.matrices.md are up to date with models/move.ts (regenerate: npx modelcheck docs models/move.ts)', async () => {
    const r = await runCli(['docs', 'models/move.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('docs/move.md is up to date with models/move.ts (docs/move.manifest.json)\n');
    expect(r.exitCode).toBe(0);
  });

  it('docs/moveBack.md is up to date with models/moveBack.ts (regenerate: npx modelcheck docs models/moveBack.ts)', async () => {
    const r = await runCli(['docs', 'models/moveBack.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});

// The check on a copy of the package, edited as a developer would edit it: the CLI of the copy
// runs, so that its own sources are the ones digested.
describe('docs --check on an edited copy of the package', () => {
  const run = promisify(execFile);
  const root = resolve('.');
  const copy = join(mkdtempSync(join(tmpdir(), 'modelcheck-copy-')), 'p');
  for (const part of ['bin', 'src', 'models', 'docs', 'package.json', 'tsconfig.json'])
    cpSync(join(root, part), join(copy, part), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'));
  const check = async () => {
    try {
      const r = await run('node', ['bin/modelcheck.js', 'docs', 'models/move.ts', '--check'], { cwd: copy });
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

  it('passes after a comment in the search engine changes, and after a model file is re-laid out and comments change in it and in the Kubernetes library', async () => {
    const undoEngine = edit('src/engine/bfs.ts', /^\/\/ /m, '// A comment changed by a test. ');
    const undoLayout = edit('models/move.ts', /^\/\/ .*$/m, '// Another comment.\n\n');
    const undoSpace = edit('models/move.ts', /;\n/g, ';\n\n');
    const undoLibrary = edit('src/k8s/apiServer.ts', /^\/\/ /m, '// A comment changed by a test. ');
    const r = await check();
    undoLibrary();
    undoSpace();
    undoLayout();
    undoEngine();
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  }, 60_000);

  it('fails after a line that changes the counts changes in a module models/move.ts imports, naming the file', async () => {
    // Two Clusters where the default variants move one: every count grows.
    const undo = edit('models/move/world.ts', "name: 'one Cluster', clusters: ['c1'],", "name: 'one Cluster', clusters: ['c1', 'c2'],");
    const r = await check();
    undo();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('docs/move.md is stale: models/move/world.ts changed; run: npx modelcheck docs models/move.ts\n');
  }, 60_000);

  it('fails after a matrix explanation or the Kubernetes library changes, naming each', async () => {
    const undoText = edit('docs/explanations/move-faults.md', 'A controller-manager crash', 'A crash');
    const undoLib = edit('src/k8s/apiServer.ts', 'already exists`', 'exists already`');
    const r = await check();
    undoLib();
    undoText();
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe(
      'docs/move.md is stale: docs/explanations/move-faults.md changed; modelcheck/src/k8s/apiServer.ts changed; run: npx modelcheck docs models/move.ts\n',
    );
    rmSync(join(copy, '..'), { recursive: true, force: true });
  }, 60_000);
});
