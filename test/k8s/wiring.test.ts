// The wiring checks (src/k8s/wiring.ts) and the requests of a step context (src/k8s/controller.ts):
// each silent mistake of issue 20's new user is an MC111 error naming the part and the fix, or,
// for a misspelt step, an MC101 error naming the step, the controller and its steps.
import { describe, expect, it } from 'vitest';
import { check, defineSingleModel, k8s, ModelError } from 'modelcheck';
import { THING, TinyState, actionNamed, created, tinyWorld } from '../fixtures/k8s/tiny.ts';

type Config = k8s.KubernetesConfig<TinyState>;
const controller = (over: Partial<k8s.ControllerConfig<TinyState>> = {}): k8s.ControllerConfig<TinyState> => ({
  name: 'thingController',
  manager: 'manager',
  watches: [{ kind: 'Thing' }],
  reconcile: (r) => r.done(),
  steps: {},
  ...over,
});
const config = (over: Partial<Config> = {}): Config => ({
  world: tinyWorld,
  servers: ['main'],
  managers: [{ name: 'manager', server: 'main', kinds: ['Thing'] }],
  controllers: [controller()],
  ...over,
});

/** The ModelError that building `c` throws: [code, message, hint]. */
function wiringErrorOf(c: Config): [string, string, string | undefined] {
  try {
    k8s.kubernetes(c);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    return [e.code, e.message, e.details.hint];
  }
  throw new Error('no error');
}

describe('wiring is checked when a model builds its Kubernetes environment', () => {
  it('a correct environment builds', () => {
    expect(() => k8s.kubernetes(config())).not.toThrow();
  });

  it("a manager's server that is not a server (issue 20: PROVED in 2 states, the controller never ran)", () => {
    expect(wiringErrorOf(config({ managers: [{ name: 'manager', server: 'mian', kinds: ['Thing'] }] }))).toEqual([
      'MC111_KUBERNETES_WIRING',
      'manager manager talks to API server mian, which is not one of the servers (main)',
      'set its server to one of main, or add mian to servers',
    ]);
  });

  it("a controller's manager that is not a manager", () => {
    const [code, message] = wiringErrorOf(config({ controllers: [controller({ manager: 'manger' })] }));
    expect(code).toBe('MC111_KUBERNETES_WIRING');
    // Managers are checked first: the one the controller meant now runs no controller.
    expect(message).toBe('manager manager runs no controller, so nothing reads its cache');
    const [, second] = wiringErrorOf(
      config({
        managers: [{ name: 'manager', server: 'main', kinds: ['Thing'], readByModel: true }],
        controllers: [controller({ manager: 'manger' })],
      }),
    );
    expect(second).toBe('controller thingController runs in manager manger, which is not one of the managers (manager)');
  });

  it('a watched kind the manager does not cache (issue 20: "proved" with fewer states, no warning)', () => {
    expect(wiringErrorOf(config({ controllers: [controller({ watches: [{ kind: 'Thing' }, { kind: 'Job' }] })] }))).toEqual([
      'MC111_KUBERNETES_WIRING',
      'controller thingController watches Job, but its manager manager does not cache Job (its kinds: Thing), so the watch would never fire',
      "add 'Job' to the kinds of manager manager",
    ]);
  });

  it('a cache nobody reads, unless the model says it reads it', () => {
    const managers = [
      { name: 'manager', server: 'main', kinds: ['Thing'] },
      { name: 'spare', server: 'main', kinds: ['Thing'] },
    ];
    const [code, message, hint] = wiringErrorOf(config({ managers }));
    expect([code, message]).toEqual(['MC111_KUBERNETES_WIRING', 'manager spare runs no controller, so nothing reads its cache']);
    expect(hint).toMatch(/readByModel: true/);
    expect(() => k8s.kubernetes(config({ managers: [managers[0], { ...managers[1], readByModel: true }] }))).not.toThrow();
  });

  it('objects for a server that does not exist, and a garbage collector on one', () => {
    const kube = k8s.kubernetes(config());
    expect(() => kube.initialWorlds({ mian: [{ versions: [created], reconciled: true }] }, { cacheLag: 'none' })).toThrow(
      'initialWorlds has objects for API server mian, which is not one of the servers (main)',
    );
    expect(wiringErrorOf(config({ garbageCollector: ['mian'] }))[1]).toBe(
      'garbageCollector names API server mian, which is not one of the servers (main)',
    );
  });

  it('names that are not identifiers, and names used twice (action names are built from them)', () => {
    expect(wiringErrorOf(config({ managers: [{ name: 'backup-operator', server: 'main', kinds: ['Thing'] }] })).slice(1)).toEqual([
      "manager name 'backup-operator' is not an identifier",
      "name it with letters, digits and _ only (e.g. 'backupOperator'): it becomes part of action names",
    ]);
    expect(wiringErrorOf(config({ controllers: [controller(), controller()] }))[1]).toBe('two controllers are named thingController');
    expect(wiringErrorOf(config({ controllers: [controller({ steps: { reconcile: (r) => r.done() } })] }))[1]).toBe(
      'controller thingController has a step named reconcile',
    );
  });

  it('a model file with a wiring mistake fails to load with MC111, its message and the fix', async () => {
    const { loadModel } = await import('../../src/cli/loadModel.ts');
    const error = await loadModel('test/fixtures/bad/kubeWiring.ts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect([(error as ModelError).code, (error as ModelError).message, (error as ModelError).details.hint]).toEqual([
      'MC111_KUBERNETES_WIRING',
      'manager manager talks to API server mian, which is not one of the servers (main)',
      'set its server to one of main, or add mian to servers',
    ]);
  });
});

describe('a step that continues with a step its controller does not have', () => {
  const typo = controller({ reconcile: (r) => r.goto('addFinalizr'), steps: { addFinalizer: (r) => r.done() } });

  it('is reported by check as MC101, naming the step, the controller, its steps and the likely fix', () => {
    const kube = k8s.kubernetes(config({ controllers: [typo] }));
    const [w] = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'none' });
    const model = defineSingleModel<TinyState>({
      name: 'typo',
      init: () => [TinyState({ kube: w })],
      actions: kube.actions,
      properties: [],
    });
    const error = (() => {
      try {
        check(model);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('MC101_ACTION_THREW');
    expect((error as ModelError).message).toBe(
      "action thingController.reconcile threw Error: thingController.reconcile continues with r.goto('addFinalizr'), but thingController has no step addFinalizr (its steps: addFinalizer)",
    );
  });
});

describe('the requests of a step context, each traced and each the step’s one request', () => {
  const JOB = k8s.objectKey('Job', 'j');
  const job = k8s.object({ kind: 'Job', name: 'j', ownerReferences: [THING] });
  const stepsKube = (reconcile: k8s.Step<TinyState>) =>
    k8s.kubernetes(
      config({
        managers: [{ name: 'manager', server: 'main', kinds: ['Thing', 'Job'] }],
        controllers: [controller({ watches: [{ kind: 'Thing' }, { kind: 'Job', map: (o) => o.ownerReferences }], reconcile })],
      }),
    );
  const run = (reconcile: k8s.Step<TinyState>) => {
    const kube = stepsKube(reconcile);
    const [w] = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'none' });
    const events: import('modelcheck').StepEvent[] = [];
    const t = actionNamed(kube, 'thingController.reconcile').next(TinyState({ kube: w }), THING, events)!;
    return { kube, w, t, events: events.map((e) => (e.kind === 'request' ? `${e.to}: ${e.request} -> ${e.answer}` : e.kind)) };
  };

  it('create: the object is stored, its event fanned out, the request traced', () => {
    const { kube, t, events } = run((r) => (r.create(job).code === 201 ? r.done() : r.requeue()));
    expect(kube.stored(t, 'main', JOB)?.resourceVersion).toBe(1);
    expect(
      k8s
        .worldMaps(t.kube)
        .pending.get('manager')
        ?.get(JOB)
        ?.map((e) => e.type)
        .toArray(),
    ).toEqual(['ADDED']);
    expect(events).toEqual(['main API server: CREATE Job/j -> 201 Created']);
  });

  it('get: a live read from the server, traced, that changes nothing', () => {
    let code = 0;
    const { w, t, events } = run((r) => {
      code = r.get(JOB).code;
      return r.done();
    });
    expect(code).toBe(404);
    // The server is the same value: a read writes nothing.
    expect(k8s.serverIn(t.kube, 'main')).toBe(k8s.serverIn(w, 'main'));
    expect(events).toEqual(['main API server: GET Job/j -> 404 NotFound: Job/j not found']);
  });

  it('delete, and any other request through r.request', () => {
    expect(run((r) => (r.delete(THING).code === 200 ? r.done() : r.requeue())).events).toEqual([
      'main API server: DELETE Thing/o -> 200 OK: the object is removed from storage',
    ]);
    const { kube, t } = run((r) =>
      r.request((srv) => k8s.jsonPatchAddAnnotations(srv, THING, { a: '1' })).code === 200 ? r.done() : r.requeue(),
    );
    expect(kube.stored(t, 'main', THING)?.annotations.get('a')).toBe('1');
  });

  it('a create after a get is a second request, and the error says how to split the step', () => {
    expect(() =>
      run((r) => {
        if (r.get(JOB).code === 404) r.create(job);
        return r.done();
      }),
    ).toThrow(
      "a step of thingController on Thing/o made a second API request (CREATE Job/j); each request is a step of its own: end this step with r.goto('<next step>', locals) and make the request there",
    );
  });
});

describe("the environment's assumptions, in plain words for a variant", () => {
  it('say when ownerReferences are only data, and which faults the search may inject', () => {
    expect(k8s.kubernetes(config()).assumptions).toEqual(['No garbage collector runs on main: ownerReferences there are only data.']);
    expect(
      k8s.kubernetes(config({ servers: ['main', 'other'], garbageCollector: ['main'], faults: { restarts: 1, cacheLagBound: 2 } }))
        .assumptions,
    ).toEqual([
      'Fault: up to 1 controller-manager crash and restart (in-memory work lost, cache relisted), at any point.',
      'Caches lag at most 2 watch events per object behind the API server.',
      'The garbage collector runs on main (background deletion of objects whose owners are all gone).',
      'No garbage collector runs on other: ownerReferences there are only data.',
    ]);
  });
});
