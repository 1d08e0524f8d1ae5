// --matrix on a tiny model whose every row is counted by hand (test/fixtures/matrix.ts): the
// table's verdicts and counts come from the four searches, and matrix-only variants stay out
// of the default run.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/runCli.ts';

const MODEL = 'test/fixtures/matrix.ts';

describe('modelcheck --matrix', () => {
  it('checks every row and gives each property its verdict per row, in --json', async () => {
    const { exitCode, stdout } = await runCli([MODEL, '--matrix', '--json', '--workers', '1']);
    expect(exitCode).toBe(0); // the one violation (top 4, step 1) is the expected one
    const doc = JSON.parse(stdout);
    expect(doc.variants.map((v: { name: string }) => v.name)).toEqual(['top2-step1', 'top2-step2', 'top4-step1', 'top4-step2']);
    expect(doc.matrices).toEqual([
      {
        name: 'reach',
        description: 'How far the counter may go, crossed with how far it jumps.',
        dimensions: ['top', 'step'],
        properties: ['NeverThree'],
        rows: [
          { variant: 'top2-step1', values: ['2', '1'], verdict: 'proved', distinctStates: 3, properties: { NeverThree: 'holds' } },
          { variant: 'top2-step2', values: ['2', '2'], verdict: 'proved', distinctStates: 2, properties: { NeverThree: 'holds' } },
          { variant: 'top4-step1', values: ['4', '1'], verdict: 'violated', distinctStates: 5, properties: { NeverThree: 'violated' } },
          { variant: 'top4-step2', values: ['4', '2'], verdict: 'proved', distinctStates: 3, properties: { NeverThree: 'holds' } },
        ],
      },
    ]);
    // The violated row's counterexample is its shortest: 0, 1, 2, 3.
    const violated = doc.variants[2].violations[0];
    expect(violated.trace.map((s: { state: number }) => s.state)).toEqual([0, 1, 2, 3]);
  });

  it('prints the table after the summary, a column per property named in a legend', async () => {
    const { exitCode, stdout } = await runCli([MODEL, '--matrix', 'reach', '--workers', '1']);
    expect(exitCode).toBe(0);
    const table = stdout.slice(stdout.indexOf('variant matrix'));
    expect(table).toBe(
      [
        'variant matrix: reach',
        '  How far the counter may go, crossed with how far it jumps.',
        '',
        '  top  step  states  verdict   [1]',
        '  2    1          3  proved    holds',
        '  2    2          2  proved    holds',
        '  4    1          5  violated  VIOLATED',
        '  4    2          3  proved    holds',
        '',
        '  [1] NeverThree',
        '',
      ].join('\n'),
    );
  });

  it('leaves matrix-only variants out of the default run, and checks one when it is named', async () => {
    const all = JSON.parse((await runCli([MODEL, '--json'])).stdout);
    expect(all.variants.map((v: { name: string }) => v.name)).toEqual(['top2-step1']);
    expect(all.matrices).toBeUndefined();
    const one = await runCli([MODEL, '--variant', 'top4-step1', '--json']);
    expect(one.exitCode).toBe(0);
    expect(JSON.parse(one.stdout).variants[0].distinctStates).toBe(5);
  });

  it('refuses --matrix with --variant, a model without a matrix, and a row that names no variant (exit 2)', async () => {
    const both = await runCli([MODEL, '--matrix', '--variant', 'top2-step1']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--matrix checks every row of the matrix; it does not take --variant');

    const none = await runCli(['test/fixtures/dieHard.ts', '--matrix']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('MC109');
    expect(none.stderr).toContain('declares no variant matrix');

    const bad = await runCli(['test/fixtures/badMatrix.ts', '--matrix']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('a row of matrix sizes of model bad-matrix names no variant: missing');

    const unknown = await runCli([MODEL, '--matrix', 'nope']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('model counter-matrix has no matrix named nope');
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('modelcheck docs puts each matrix on the main page, and the matrix-only variants with their traces on a second page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-matrix-docs-'));
    const out = join(dir, 'counter.md');
    const r = await runCli(['docs', MODEL, '--out', out, '--workers', '1']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `wrote ${out} and ${join(dir, 'counter.matrices.md')} (and ${join(dir, 'counter.manifest.json')}): 4 variants, 1 counterexample\n`,
    );
    const main = readFileSync(out, 'utf8');
    // The main page's variant table has only the default variant.
    expect(main).toContain('| `top2-step1` |  | 3 | 3 | 3 | proved (as expected) |');
    expect(main).not.toContain('| `top4-step1` |  |');
    expect(main).toContain(
      [
        '### Matrix: reach',
        '',
        'How far the counter may go, crossed with how far it jumps.',
        '',
        '| top | step | variant | states | `NeverThree` |',
        '|---|---|---|---:|---|',
        '| 2 | 1 | `top2-step1` | 3 | holds |',
        '| 2 | 2 | `top2-step2` | 2 | holds |',
        '| 4 | 1 | `top4-step1` | 5 | [**violated**](counter.matrices.md#top4-step1-neverthree) |',
        '| 4 | 2 | `top4-step2` | 3 | holds |',
      ].join('\n'),
    );
    // The model's seeAlso, between the matrices and the counterexamples.
    expect(main).toContain('## See also\n\n- [Die Hard](dieHard.md): another small model.\n\n## Counterexamples\n');
    const matrices = readFileSync(join(dir, 'counter.matrices.md'), 'utf8');
    expect(matrices).toContain('### top4-step1: NeverThree\n');
    expect(matrices).toContain('Violated (invariant): the shortest counterexample has 4 states.');
    expect((await runCli(['docs', MODEL, '--out', out, '--check'])).exitCode).toBe(0);
  });
});
