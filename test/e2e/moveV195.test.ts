// The move model's fixed ordering: clusterctl v1.9.5 DELETEs, then removes finalizers. With the
// preflight initial states (the controllers have reconciled) and the timing assumption, every
// property must hold in every reachable state.
//
// The counts, statuses and traces are the docs record's (docs/move.manifest.json), compared whole
// below; the assertions after it say what they mean, read against the model's code.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAsRecorded } from '../helpers/docsRecord.ts';
import { runCli, type CliRun } from '../helpers/runCli.ts';

describe('models/move.ts, variant v1.9.5', () => {
  let run: CliRun;
  let doc: any;
  beforeAll(async () => {
    run = await runCli(['models/move.ts', '--variant', 'v1.9.5', '--json', '--no-progress']);
    doc = JSON.parse(run.stdout);
  }, 1_800_000); // the search alone takes about 8 minutes here; twice that when the machine is shared

  it('is proved: no violation, expectations met, exit 0', () => {
    expect(run.exitCode).toBe(0);
    const [v] = doc.variants;
    expect(v.verdict).toBe('proved');
    expect(v.metExpectations).toBe(true);
    expect(v.violations).toEqual([]);
    expect(v.properties.map((p: { name: string; status: string }) => [p.name, p.status])).toEqual([
      ['NoFinalizerResurrection', 'holds'],
      ['SettledMoveLeavesNoSourceObjects', 'holds'],
      ['FailedMoveLeavesNoObjectBeingDeleted', 'holds'],
      ['SourceInfraNeverDestroyed', 'holds'],
      ['DeletionIsFinal', 'holds'],
      ['NoNewFinalizersWhileDeleting', 'holds'],
      ['NoDeletingObjectWithoutFinalizers', 'holds'],
      ['EveryMovedObjectIsEventuallyRemoved', 'holds'],
      ['MoveEventuallyFinishes', 'holds'],
    ]);
  });

  it('checks the liveness properties under weak fairness of the mover, the caches and the controllers, per key', () => {
    const [v] = doc.variants;
    expect(v.fairness.map((f: string) => f.split(':')[0])).toEqual([
      'weak fairness of mover',
      'weak fairness of capiCache (per parameter)',
      'weak fairness of capdCache (per parameter)',
      'weak fairness of clusterController (per parameter)',
      'weak fairness of dockerClusterController (per parameter)',
    ]);
    expect(v.livenessSeconds).toBeGreaterThan(0);
  });

  it('warns that no delete path of either controller is ever taken: with every cache showing the pause first, neither reconciles a deletion', () => {
    // Read against the model: the timing assumption holds the mover's first delete until both
    // caches show spec.paused=true, and a cache takes one object's events in order, so by the
    // time a controller's cache shows an object deleting it also shows the Cluster paused; both
    // Reconciles then return before reconcileDelete. That is how pause protects the
    // infrastructure, and why these actions are never enabled.
    const [v] = doc.variants;
    expect(v.warnings).toEqual([
      'action clusterController.reconcileInfrastructure is never enabled in any reachable state',
      'action clusterController.deleteInfrastructure is never enabled in any reachable state',
      'action clusterController.removeFinalizer is never enabled in any reachable state',
      'action dockerClusterController.reconcileDelete is never enabled in any reachable state',
      'action dockerClusterController.deleteLoadBalancer is never enabled in any reachable state',
      'action dockerClusterController.removeFinalizer is never enabled in any reachable state',
      // No write here is ever refused, so move never fails: the property for failed moves has
      // nothing to check.
      'FailedMoveLeavesNoObjectBeingDeleted holds only vacuously: no settled state satisfies its premise',
    ]);
    // Nothing else held only vacuously: each other premise had states to check.
    expect(v.properties.filter((p: { vacuous: boolean }) => p.vacuous).map((p: { name: string }) => p.name)).toEqual([
      'FailedMoveLeavesNoObjectBeingDeleted',
    ]);
  });

  it('states the timing assumption it relies on', () => {
    expect(doc.variants[0].assumptions[0]).toMatch(
      /^Every controller manager's cache shows the source Cluster paused before the mover's delete phase begins/,
    );
  });

  it('finds what docs/move.md records: counts, verdicts, warnings and every trace', () => {
    expectAsRecorded('models/move.ts', doc.variants[0]);
  });

  it('runs every mover step, to the end (the settled-state invariant is not vacuous)', () => {
    // Every action that makes progress was enabled, and the mover finished in some state.
    const mover = doc.variants[0].coverage
      .filter((c: { action: string }) => c.action.startsWith('mover.'))
      .map((c: { action: string; enabled: number; newStates: number }) => [c.action, c.enabled, c.newStates]);
    expect(mover).toEqual([
      ['mover.pauseCluster', 320, 27],
      ['mover.createTargetObject', 4946, 54],
      ['mover.getSourceObject', 10344, 827],
      ['mover.addDeleteForMoveAnnotation', 10344, 1024],
      ['mover.removeFinalizers', 55509, 3732],
      ['mover.delete', 21889, 1620],
      ['mover.unpauseTargetCluster', 109530, 3051],
    ]);
  });
});
