// The move model's parameters (--param) and its two scale variants. At the defaults (one
// Cluster, no Machine, lag 0) a scale variant is the same search as a one-Cluster row of the
// objects matrix, built another way, and with two Clusters the same as the two-Clusters row:
// each pair is compared run against run, and with the row's results in the docs record.
import { describe, expect, it } from 'vitest';
import { docsRecordOf } from '../helpers/docsRecord.ts';
import { runCli, traceActions } from '../helpers/runCli.ts';

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

  // A Cluster with a Machine and caches a watch event behind: the search of every state does not
  // finish here (stopped after 53 minutes at 15.6 million states, depth 31, still growing:
  // docs/explanations/move-objects.md), but its first 20 levels hold the shortest violation of
  // SourceInfraNeverDestroyed, the one-Cluster failure without the timing assumption reaching
  // the Machine. Read against models/move/dockerMachineController.ts and CAPD v1.9.3
  // test/infrastructure/docker/internal/controllers/dockermachine_controller.go (Reconcile: the owner
  // Machine, then the Cluster, both read from the manager's cache; the paused check on that
  // Cluster; then reconcileDelete for a DockerMachine being deleted, which deletes its
  // container): the mover DELETEs the DockerMachine (9) while the CAPD cache still holds the
  // Cluster as it was before the pause (its MODIFIED event pending since 2); the controller sees
  // the deletion, reads the Cluster unpaused (13, 18) and deletes the source's container (20).
  it('a Cluster with a Machine at lag 1: the DockerMachine controller deletes the source container (depth 20)', async () => {
    const r = await runCli([
      'models/move.ts',
      '--variant',
      'scale.v1.9.5-mover',
      '--param',
      'machines=1',
      '--param',
      'lag=1',
      '--max-depth',
      '20',
      '--json',
      '--no-progress',
    ]);
    // Cut at its depth bound: incomplete, exit 3.
    expect(r.exitCode).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.variants[0].violations.map((v: { property: string }) => v.property)).toEqual(['SourceInfraNeverDestroyed']);
    expect(traceActions(doc, 'scale.v1.9.5-mover', 'SourceInfraNeverDestroyed')).toEqual([
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'mover.createTargetObject(Machine/c1-m0)',
      'mover.createTargetObject(DockerMachine/c1-m0)',
      'mover.getSourceObject(DockerMachine/c1-m0)',
      'mover.addDeleteForMoveAnnotation(DockerMachine/c1-m0)',
      'mover.delete(DockerMachine/c1-m0)',
      'capdCache.sync(DockerMachine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
      'dockerMachineController.ensurePausedCondition(DockerMachine/c1-m0)',
      'capdCache.sync(DockerMachine/c1-m0)',
      'dockerMachineController.reconcile(DockerMachine/c1-m0)',
      'dockerMachineController.getOwnerMachine(DockerMachine/c1-m0)',
      'dockerMachineController.getCluster(DockerMachine/c1-m0)',
      'dockerMachineController.reconcileDelete(DockerMachine/c1-m0)',
      'dockerMachineController.deleteContainer(DockerMachine/c1-m0)',
    ]);
    expect(doc.variants[0]).toMatchObject({ verdict: 'violated', distinctStates: 141_087, depth: 20 });
  }, 180_000);

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
