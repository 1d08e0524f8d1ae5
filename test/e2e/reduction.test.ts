// Partial-order reduction on the command line: the report says how many states were expanded
// with only some of their steps, and --no-por searches every interleaving. Hand counts: see
// test/fixtures/independentCounters.ts.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const MODEL = 'test/fixtures/independentCounters.ts';

describe('partial-order reduction on the command line', () => {
  it('reports the reduction, and --no-por searches the whole grid, with the same verdicts', async () => {
    const r = await runCli([MODEL, '--no-progress']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^ {2}7 distinct states, 7 generated, depth 7,/m);
    expect(r.stdout).toContain(
      '  partial-order reduction: 4 states expanded with only some of their steps (3 transitions declared; --no-por searches every interleaving)',
    );
    const on = JSON.parse((await runCli([MODEL, '--json', '--no-progress', '--workers', '2'])).stdout).variants[0];
    const off = JSON.parse((await runCli([MODEL, '--no-por', '--json', '--no-progress'])).stdout).variants[0];
    expect([on.distinctStates, on.depth, on.reduction, on.threads]).toEqual([7, 7, { transitions: 3, reducedStates: 4 }, 2]);
    expect([off.distinctStates, off.depth, off.reduction]).toEqual([27, 7, null]);
    expect(on.properties.map((p: { status: string }) => p.status)).toEqual(off.properties.map((p: { status: string }) => p.status));
  });
});
