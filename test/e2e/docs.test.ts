// `modelcheck docs`: the generated page's content on a small model with known answers (the lock
// of test/engine/liveness.test.ts: 8 states, violated without fairness and under weak fairness,
// holds under strong), its diagrams parsed by mermaid, and the staleness check that CI runs on
// the committed docs/move.md.
import { describe, expect, it } from 'vitest';
import mermaid from 'mermaid';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/runCli.ts';

describe('modelcheck docs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-docs-'));
  const out = join(dir, 'lock.md');

  it('writes the purpose, variants, actions, verdicts per variant and every counterexample', async () => {
    const r = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--workers', '1']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`wrote ${out}: 3 variants, 2 counterexamples\n`);
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
      ['## Parameters', '', 'Numbers the model is built from, like the CONSTANTS of a TLA+ spec: `--param name=value` sets one, for a search of another size. This page was generated with the defaults.', '',
        '| parameter | what it sets | default | range |', '|---|---|---:|---:|',
        '| `top` | where the counter stops | 3 | 1 to 1000 |', '| `step` | how much one step adds | 1 | 1 to 2 |'].join('\n'),
    );
  });

  it('--check passes for a current page and fails, naming the command, for a stale or missing one', async () => {
    expect((await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check'])).exitCode).toBe(0);
    writeFileSync(out, readFileSync(out, 'utf8').replace(/sha256:[0-9a-f]{64}/, `sha256:${'0'.repeat(64)}`));
    const stale = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', out, '--check']);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toBe(
      `${out} is stale: test/fixtures/liveness.ts or the checker changed since it was generated; ` +
        `run: npx modelcheck docs test/fixtures/liveness.ts --out ${out}\n`,
    );
    const missing = await runCli(['docs', 'test/fixtures/liveness.ts', '--out', join(dir, 'none.md'), '--check']);
    expect(missing.exitCode).toBe(1);
  });

  it('docs/move.md and docs/move.matrices.md are up to date with models/move.ts and the checker (regenerate: npx modelcheck docs models/move.ts)', async () => {
    const r = await runCli(['docs', 'models/move.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('docs/move.md and docs/move.matrices.md are up to date with models/move.ts and the checker\n');
    expect(r.exitCode).toBe(0);
  });

  it('docs/moveBack.md is up to date with models/moveBack.ts and the checker (regenerate: npx modelcheck docs models/moveBack.ts)', async () => {
    const r = await runCli(['docs', 'models/moveBack.ts', '--check']);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
  });
});
