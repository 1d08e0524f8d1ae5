// The state graph in DOT (src/engine/search/smallGraph.ts, src/report/dot.ts), rendered by Graphviz
// itself (@hpcc-js/wasm-graphviz) to prove the file is valid DOT. Die Hard's figures are TLC's:
// 16 distinct states, and the 7-state solution.
import { describe, expect, it } from 'vitest';
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { action, check, ModelError } from 'modelcheck';
import { smallGraph } from '../../src/engine/search/smallGraph.ts';
import { graphToDot } from '../../src/report/dot.ts';
import dieHard from '../fixtures/dieHard.ts';
import { runCli } from '../helpers/runCli.ts';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('the state graph in DOT', () => {
  const [variant] = dieHard.variants;
  const [result] = check(dieHard).variants;

  it("walks Die Hard's 16 reachable states, as TLC counts them, and declines past a limit", () => {
    const g = smallGraph(variant, 500);
    expect(g.kind).toBe('graph');
    if (g.kind !== 'graph') return;
    expect(g.states.length).toBe(16);
    expect(g.initial).toEqual([0]);
    expect(g.edges.every((e) => e.from !== e.to)).toBe(true);
    expect(smallGraph(variant, 15)).toEqual({ kind: 'tooLarge', limit: 15 });
  });

  it("turns a fault in the model's code into an MC error, as the search does", () => {
    const broken = {
      ...variant,
      actions: [
        action<unknown>('explode', {
          next: () => {
            throw new Error('boom');
          },
        }),
      ],
    };
    let error: unknown;
    try {
      smallGraph(broken, 500, 'dieHard');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect([(error as ModelError).code, (error as ModelError).message, (error as ModelError).details.subject]).toEqual([
      'MC101_ACTION_THREW',
      'action explode threw Error: boom',
      'explode',
    ]);
  });

  it('draws the solution in red: its 7 states and 6 steps, and Graphviz renders the file', async () => {
    const g = smallGraph(variant, 500);
    if (g.kind !== 'graph') throw new Error('too large');
    const dot = graphToDot('DieHard', g, result.violations[0]);
    const nodes = dot.split('\n').filter((l) => /^ {2}s\d+ \[/.test(l));
    const edges = dot.split('\n').filter((l) => / -> /.test(l));
    expect(nodes.length).toBe(16);
    expect(nodes.filter((l) => l.includes('color=red')).length).toBe(7);
    expect(edges.filter((l) => l.includes('color=red')).length).toBe(6);
    expect(dot).toContain('s0 [label="small = 0\\nbig = 0", style=bold, color=red, fontcolor=red, peripheries=2];');
    const graphviz = await Graphviz.load();
    const svg = graphviz.dot(dot, 'svg');
    expect(svg.match(/class="node"/g)?.length).toBe(16);
    expect(svg.match(/class="edge"/g)?.length).toBe(g.edges.length);
  });

  it('is written by --out-dot, and refused with a clear message for a graph above --dot-max-states', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-dot-'));
    const file = join(dir, 'die.dot');
    const ok = await runCli(['test/fixtures/dieHard.ts', '--out-dot', file, '--no-progress']);
    expect(ok.exitCode).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('digraph "DieHard default" {');
    const refused = await runCli(['test/fixtures/dieHard.ts', '--out-dot', join(dir, 'x.dot'), '--dot-max-states', '10', '--no-progress']);
    expect(refused.exitCode).toBe(0);
    expect(refused.stderr).toBe(
      'modelcheck: no state graph drawn for variant default: it has more than 10 reachable states ' +
        '(DOT is for small models; raise --dot-max-states to draw a larger one)\n',
    );
  });
});
