// The move model's buggy ordering: clusterctl v1.9.3 removes finalizers, then DELETEs. The
// search must find, by itself, that a controller's EnsureFinalizer patch can land between the
// two writes, and the object is then left deleting with a finalizer nobody removes.
//
// The counts, statuses and traces are the docs record's (docs/move.manifest.json), compared whole
// below; the assertions after it say what they mean, read against the model's code.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAsRecorded } from '../helpers/docsRecord.ts';
import { runCli, traceActions, type CliRun } from '../helpers/runCli.ts';

describe('models/move.ts, variant v1.9.3', () => {
  let run: CliRun;
  let doc: any;
  beforeAll(async () => {
    run = await runCli(['models/move.ts', '--variant', 'v1.9.3', '--json', '--no-progress']);
    doc = JSON.parse(run.stdout);
  }, 1_800_000); // the search alone takes about 8 minutes here; twice that when the machine is shared

  it('violates exactly NoFinalizerResurrection, SettledMoveLeavesNoSourceObjects and EveryMovedObjectIsEventuallyRemoved, as it declares, and exits 0', () => {
    expect(run.exitCode).toBe(0);
    const [v] = doc.variants;
    expect(v.verdict).toBe('violated');
    expect(v.metExpectations).toBe(true);
    expect(v.violations.map((x: { property: string }) => x.property)).toEqual([
      'NoFinalizerResurrection',
      'SettledMoveLeavesNoSourceObjects',
      'EveryMovedObjectIsEventuallyRemoved',
    ]);
    // The move itself always returns: deleteSourceObject does not wait for the object to go.
    expect(v.properties.find((p: { name: string }) => p.name === 'MoveEventuallyFinishes').status).toBe('holds');
  });

  it('finds what docs/move.md records: counts, verdicts, warnings and every trace', () => {
    expectAsRecorded('models/move.ts', doc.variants[0]);
  });

  it("finds the shortest resurrection: the DockerCluster controller's EnsureFinalizer lands between removeFinalizers and DELETE", () => {
    expect(traceActions(doc, 'v1.9.3', 'NoFinalizerResurrection')).toEqual([
      null,
      'mover.pauseCluster(Cluster/c1)',
      'mover.createTargetObject(Cluster/c1)',
      'mover.createTargetObject(DockerCluster/c1)',
      'capiCache.sync(Cluster/c1)',
      'capdCache.sync(Cluster/c1)',
      'mover.getSourceObject(DockerCluster/c1)',
      'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
      'mover.removeFinalizers(DockerCluster/c1)',
      'dockerClusterController.reconcile(DockerCluster/c1)',
      'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
    ]);
  });

  it('finds the shortest stuck Cluster: re-added finalizer, then DELETE, then the system settles with the Cluster still there', () => {
    const actions = traceActions(doc, 'v1.9.3', 'SettledMoveLeavesNoSourceObjects');
    // The race in three steps: the mover empties the finalizers (state 13), the controller's
    // EnsureFinalizer puts its finalizer back (23), the mover's DELETE only marks it (24).
    expect([
      actions.indexOf('mover.removeFinalizers(Cluster/c1)'),
      actions.indexOf('clusterController.ensureFinalizer(Cluster/c1)'),
      actions.indexOf('mover.delete(Cluster/c1)'),
    ]).toEqual([12, 22, 23]);
    expect(actions).toEqual(V193_SETTLED_TRACE);
    // The last state: the mover is done and the source Cluster is deleting, with the finalizer.
    const x = doc.variants[0].violations.find((y: { property: string }) => y.property === 'SettledMoveLeavesNoSourceObjects');
    const last = x.trace[x.trace.length - 1].state;
    expect(last.mover.phase).toBe('done');
    const cluster = last.kube.servers.source.objects['Cluster/c1'];
    expect(cluster.finalizers).toEqual(['cluster.cluster.x-k8s.io']);
    expect(cluster.deletionTimestamp).not.toBeNull();
  });

  it('is a lasso: 29 steps to a cycle of 2 states in which the DockerCluster controller reconciles for ever, to no effect', () => {
    const x = doc.variants[0].violations.find((y: { property: string }) => y.property === 'EveryMovedObjectIsEventuallyRemoved');
    expect(x.kind).toBe('liveness');
    expect(x.trace.map((s: { action: string | null }) => s.action)).toEqual(V193_LASSO);
    expect(x.loop).toBe(29);
    expect(x.loopAction).toBe('dockerClusterController.getOwnerCluster(DockerCluster/c1)');
    // The race on the DockerCluster: emptied (9), finalizer put back (15), DELETE only marks it (16).
    expect(x.trace[8].action).toBe('mover.removeFinalizers(DockerCluster/c1)');
    expect(x.trace[14].action).toBe('dockerClusterController.ensureFinalizer(DockerCluster/c1)');
    expect(x.trace[15].action).toBe('mover.delete(DockerCluster/c1)');
    // The cycle's state: the mover is done, the Cluster is gone, the DockerCluster deleting with
    // its finalizer, and its controller (whose cache no longer holds the Cluster) requeues it.
    const cycleStart = x.trace[x.loop].state;
    expect(cycleStart.mover.phase).toBe('done');
    expect(cycleStart.kube.servers.source.objects['Cluster/c1']).toBeUndefined();
    const dc = cycleStart.kube.servers.source.objects['DockerCluster/c1'];
    expect(dc.finalizers).toEqual(['dockercluster.infrastructure.cluster.x-k8s.io']);
    expect(dc.deletionTimestamp).not.toBeNull();
    expect(cycleStart.kube.caches.capd['Cluster/c1']).toBeUndefined();
    expect(cycleStart.kube.queues.dockerClusterController).toEqual(['DockerCluster/c1']);
  });
});

const V193_LASSO = [
  null,
  'mover.pauseCluster(Cluster/c1)',
  'mover.createTargetObject(Cluster/c1)',
  'mover.createTargetObject(DockerCluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capdCache.sync(Cluster/c1)',
  'mover.getSourceObject(DockerCluster/c1)',
  'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
  'mover.removeFinalizers(DockerCluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'dockerClusterController.reconcile(DockerCluster/c1)',
  'dockerClusterController.ensureFinalizer(DockerCluster/c1)',
  'mover.delete(DockerCluster/c1)',
  'mover.getSourceObject(Cluster/c1)',
  'mover.addDeleteForMoveAnnotation(Cluster/c1)',
  'mover.removeFinalizers(Cluster/c1)',
  'mover.delete(Cluster/c1)',
  'mover.unpauseTargetCluster(Cluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'capdCache.sync(Cluster/c1)',
  'clusterController.reconcile(Cluster/c1)',
  'dockerClusterController.reconcile(DockerCluster/c1)',
];

const V193_SETTLED_TRACE = [
  null,
  'mover.pauseCluster(Cluster/c1)',
  'mover.createTargetObject(Cluster/c1)',
  'mover.createTargetObject(DockerCluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capdCache.sync(Cluster/c1)',
  'mover.getSourceObject(DockerCluster/c1)',
  'mover.addDeleteForMoveAnnotation(DockerCluster/c1)',
  'mover.removeFinalizers(DockerCluster/c1)',
  'mover.delete(DockerCluster/c1)',
  'mover.getSourceObject(Cluster/c1)',
  'mover.addDeleteForMoveAnnotation(Cluster/c1)',
  'mover.removeFinalizers(Cluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(DockerCluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'capdCache.sync(DockerCluster/c1)',
  'clusterController.reconcile(Cluster/c1)',
  'clusterController.ensureFinalizer(Cluster/c1)',
  'mover.delete(Cluster/c1)',
  'mover.unpauseTargetCluster(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'clusterController.reconcile(Cluster/c1)',
  'clusterController.ensurePausedCondition(Cluster/c1)',
  'capiCache.sync(Cluster/c1)',
  'clusterController.reconcile(Cluster/c1)',
  'dockerClusterController.reconcile(DockerCluster/c1)',
];
