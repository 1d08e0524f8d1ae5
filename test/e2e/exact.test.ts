// --exact confirms a proof with no fingerprint-collision caveat: the move model's smallest
// proved variant gives the same figures compared state by state, byte for byte.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const VARIANT = 'v1.9.5-no-timing-assumption.cache-lag-0';

describe('--exact', () => {
  it('proves the same variant with the same counts, and says no collision can merge two states', async () => {
    const normal = JSON.parse((await runCli(['models/move.ts', '--variant', VARIANT, '--json', '--no-progress'])).stdout);
    const exact = await runCli(['models/move.ts', '--variant', VARIANT, '--exact', '--json', '--no-progress']);
    expect(exact.exitCode).toBe(0);
    const [n] = normal.variants;
    const [x] = JSON.parse(exact.stdout).variants;
    // 583 distinct, 1,510 generated, depth 20: the figures test/e2e/moveMatrix.test.ts asserts for this variant.
    for (const v of [n, x]) expect([v.verdict, v.distinctStates, v.statesGenerated, v.depth]).toEqual(['proved', 583, 1510, 20]);
    expect(n.exact).toBe(null);
    expect(n.collisionProbability).toBeGreaterThan(0);
    expect(x.collisionProbability).toBe(0);
    expect(x.exact.collisions).toBe(0);
    expect(x.exact.bytes).toBeGreaterThan(583 * 100);

    const text = await runCli(['models/move.ts', '--variant', VARIANT, '--exact', '--no-progress']);
    expect(text.stdout).toMatch(
      /^ {2}exact: states compared by their full encodings \(\d+ MiB\), so no fingerprint collision can merge two; 0 fingerprint collisions met and kept apart$/m,
    );
    expect(text.stdout).not.toContain('collision probability');
  });
});
