// The move model's parameters (--param) and its two scale variants. At the defaults (one
// Cluster, no Machine, lag 0) a scale variant is the same search as a one-Cluster row of the
// objects matrix, built another way, and with two Clusters the same as the two-Clusters row:
// each pair is compared run against run, and with the row's results in the docs record.
import { describe, expect, it } from 'vitest';
import { docsRecordOf } from '../helpers/docsRecord.ts';
import { runCli } from '../helpers/runCli.ts';

/** A row's verdict and counts as the docs record has them. */
function recorded(variant: string) {
  const r = docsRecordOf('models/move.ts')!.manifest.variants[variant];
  return {
    verdict: r.verdict,
    metExpectations: true,
    distinctStates: r.distinctStates,
    statesGenerated: r.statesGenerated,
    depth: r.depth,
  };
}

/** The one variant of a --json run, without its name, description and timings. */
async function variantOf(args: string[]) {
  const r = await runCli(['models/move.ts', ...args, '--json', '--no-progress']);
  const doc = JSON.parse(r.stdout);
  const [v] = doc.variants;
  for (const key of ['name', 'description', 'seconds', 'livenessSeconds', 'statesPerSecond', 'threads', 'storedBytes']) delete v[key];
  return { exitCode: r.exitCode, parameters: doc.parameters, variant: v };
}

describe('move model: scale parameters', () => {
  it('at the defaults, scale.v1.9.5-mover is the row v1.9.5-no-timing-assumption.cache-lag-0', async () => {
    const scaled = await variantOf(['--variant', 'scale.v1.9.5-mover']);
    const row = await variantOf(['--variant', 'v1.9.5-no-timing-assumption.cache-lag-0']);
    expect(scaled.parameters).toEqual({ clusters: 1, machines: 0, restarts: 0, lag: 0, moverReruns: 0 });
    expect(scaled.variant).toMatchObject({ ...recorded('v1.9.5-no-timing-assumption.cache-lag-0'), verdict: 'proved' });
    expect(scaled).toEqual(row);
  });

  it('at the defaults, scale.v1.9.3-mover is the row v1.9.3-no-timing-assumption.cache-lag-0, traces and all', async () => {
    const scaled = await variantOf(['--variant', 'scale.v1.9.3-mover']);
    const row = await variantOf(['--variant', 'v1.9.3-no-timing-assumption.cache-lag-0']);
    expect(scaled.variant).toMatchObject({ ...recorded('v1.9.3-no-timing-assumption.cache-lag-0'), verdict: 'violated' });
    expect(scaled.variant.violations.map((x: { property: string }) => x.property)).toEqual([
      'NoFinalizerResurrection',
      'SettledMoveLeavesNoSourceObjects',
      'EveryMovedObjectIsEventuallyRemoved',
    ]);
    expect(scaled).toEqual(row);
  });

  it('--param clusters=2 on two threads (each loads the model with it) is the two-Clusters row on one', async () => {
    const scaled = await variantOf(['--variant', 'scale.v1.9.5-mover', '--param', 'clusters=2', '--workers', '2']);
    const row = await variantOf(['--variant', 'two-clusters.v1.9.5-mover.cache-lag-0.no-timing-assumption']);
    expect(scaled.parameters).toEqual({ clusters: 2, machines: 0, restarts: 0, lag: 0, moverReruns: 0 });
    expect(scaled.variant).toMatchObject({ ...recorded('two-clusters.v1.9.5-mover.cache-lag-0.no-timing-assumption'), verdict: 'proved' });
    expect(scaled.variant).toEqual(row.variant);
    expect(scaled.exitCode).toBe(0);
  });

  it('prints the parameters set under the model, and says what a scale variant moves', async () => {
    const r = await runCli(['models/move.ts', '--variant', 'scale.v1.9.5-mover', '--param', 'lag=1', '--no-progress']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('  parameters: clusters=1, machines=0, restarts=0, lag=1, moverReruns=0\n');
    expect(r.stdout).toContain('Scaled by the parameters: 1 Cluster, 0 Machines each.');
    expect(r.stdout).toContain('Caches lag at most 1 watch event per object behind the API server.');
  });

  it('refuses a parameter the model does not declare, naming the model and its parameters', async () => {
    const r = await runCli(['models/move.ts', '--param', 'nodes=3']);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('model clusterctl-move has no parameter "nodes"');
    expect(r.stderr).toContain(
      'its parameters: clusters (1 to 4), machines (0 to 3), restarts (0 to 2), lag (0 to 3), moverReruns (0 to 2)',
    );
  });
});
