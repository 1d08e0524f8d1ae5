// The time-travel fault (KubeFaults.timeTravel): a lagging API server per server whose watch cache
// follows storage object by object, and a restart that relists a manager from it (Sieve's
// stale-state test, sieve_server/common.go restartAndreconnectController). Hand-run steps on a
// one-Thing world.
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';
import { TinyState, actionNamed, ensureFinalizerController, step, tinyWorld } from '../fixtures/k8s/tiny.ts';

const THING = k8s.objectKey('Thing', 'o');
const NO_PARAM = undefined as unknown as k8s.ObjectKey;

function env(faults: k8s.KubeFaults) {
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
    controllers: [ensureFinalizerController('finalizerController', 'manager')],
    faults,
  });
  const [world] = kube.initialWorlds(
    { main: [{ versions: [k8s.object({ kind: 'Thing', name: 'o' })], reconciled: true }] },
    { cacheLag: 'none' },
  );
  return { kube, s: TinyState({ kube: world }) };
}

describe('time travel', () => {
  it('a restart against the lagging API server relists the older view, then catches up through its pending events', () => {
    const { kube, s: s0 } = env({ restarts: 1, timeTravel: true });
    let s = kube.request(s0, 'main', (srv) => k8s.mergePatch(srv, THING, { spec: { size: 2 } })).state;
    s = step(kube, s, 'managerCache.sync', THING);
    expect(kube.cached(s, 'manager', THING)?.resourceVersion).toBe(2);
    // The manager has seen version 2; the lagging server has not.
    expect(kube.cached(s, 'mainReplica', THING)?.resourceVersion).toBe(1);
    s = step(kube, s, 'manager.restartStale', NO_PARAM);
    expect(kube.cached(s, 'manager', THING)?.resourceVersion).toBe(1);
    expect(k8s.worldMaps(s.kube).queues.get('finalizerController')?.toArray()).toEqual([THING]);
    s = step(kube, s, 'managerCache.sync', THING);
    expect(kube.cached(s, 'manager', THING)?.resourceVersion).toBe(2);
    // The budget is the restarts': no second restart of either kind.
    expect(actionNamed(kube, 'manager.restart').next(s, NO_PARAM)).toBeUndefined();
    expect(actionNamed(kube, 'manager.restartStale').next(s, NO_PARAM)).toBeUndefined();
  });

  it('the lagging server catches up under weak fairness; the assumptions say so; timeTravel without restarts is a wiring error', () => {
    const { kube } = env({ restarts: 1, timeTravel: true });
    expect(kube.fairness.map((f) => f.name)).toContain('mainReplicaCache');
    expect(kube.assumptions).toContain(
      'Fault (time travel): a second API server per server serves a watch cache that lags behind storage; a restart may reconnect a controller manager to it, whose cache is then relisted from that older view.',
    );
    expect(() => env({ timeTravel: true })).toThrow(/faults.timeTravel is set but faults.restarts is 0/);
  });
});
