// Symmetry reduction on the command line: the report says how many classes were searched and
// how many states they stand for; --no-symmetry searches them all.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const MODEL = 'test/fixtures/classic/twoPhaseSymmetric.ts';

describe('symmetry on the command line', () => {
  it('reports the reduced count next to the full one, and --no-symmetry searches every state', async () => {
    const r = await runCli([MODEL, '--no-progress']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('  symmetry RM (6 renamings): 80 distinct states up to renaming, standing for 288 states');
    expect(r.stdout).toMatch(/^ {2}80 distinct states, 318 generated, depth 11,/m);
    const off = await runCli([MODEL, '--no-symmetry', '--json', '--no-progress']);
    const [v] = JSON.parse(off.stdout).variants;
    expect([v.distinctStates, v.statesGenerated, v.depth, v.symmetry]).toEqual([288, 1146, 11, null]);
  });
});
