// UIDs, generateName, DELETE preconditions, ownerReferences with uid and controller, and a
// kind's validation (src/k8s/identities.ts, apiServer.ts). Facts: docs/kubernetes-semantics.md
// sections 1 to 4 (kubernetes/apiserver v0.30.0, apimachinery v0.30.0); the expected strings are
// the messages those sections quote. Incarnation numbers are hand counts on the steps below.
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';
import { suffix } from '../../src/k8s/identities.ts';
import { TinyState, step, tinyWorld } from '../fixtures/k8s/tiny.ts';

const THING = k8s.objectKey('Thing', 'o');

function env(config: Partial<k8s.KubernetesConfig<TinyState>> = {}) {
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Thing', 'Part'], readByModel: true }],
    controllers: [],
    uids: true,
    ...config,
  });
  const [world] = kube.initialWorlds({}, { cacheLag: 'none' });
  return { kube, s: TinyState({ kube: world }) };
}

/** Sends a create through the environment, as `r.create` does (fresh names and UIDs from the state). */
function create(kube: k8s.Kubernetes<TinyState>, s: TinyState, obj: k8s.KubeObject) {
  return kube.request(s, 'main', (srv, c) => k8s.create(srv, obj, { fresh: c.fresh(), validate: c.rules(obj.kind).validate }));
}

describe('UIDs', () => {
  it('a create gets Kind/name#1; created again while a cache still holds the old one, #2; once nothing holds #1, #1 again', () => {
    let { kube, s } = env();
    ({ state: s } = create(kube, s, k8s.object({ kind: 'Thing', name: 'o', uid: 'client-sent' })));
    expect(kube.stored(s, 'main', THING)?.uid).toBe('Thing/o#1');
    s = step(kube, s, 'managerCache.sync', THING);
    s = kube.request(s, 'main', (srv) => k8s.delete(srv, THING)).state;
    // The cache has not taken in the DELETED event: it still holds #1, so a new Thing/o is #2.
    ({ state: s } = create(kube, s, k8s.object({ kind: 'Thing', name: 'o' })));
    expect(kube.stored(s, 'main', THING)?.uid).toBe('Thing/o#2');
    // Delete #2 too and let the cache take in every event: nothing holds #1 or #2 any more.
    s = kube.request(s, 'main', (srv) => k8s.delete(srv, THING)).state;
    // Three events wait: DELETED #1, ADDED #2, DELETED #2.
    for (let i = 0; i < 3; i++) s = step(kube, s, 'managerCache.sync', THING);
    expect(kube.cached(s, 'manager', THING)).toBeUndefined();
    ({ state: s } = create(kube, s, k8s.object({ kind: 'Thing', name: 'o' })));
    expect(kube.stored(s, 'main', THING)?.uid).toBe('Thing/o#1');
  });

  it('without uids in the environment an object has none, and a request made outside one gets none', () => {
    const { kube, s } = env({ uids: false });
    expect(kube.stored(create(kube, s, k8s.object({ kind: 'Thing', name: 'o' })).state, 'main', THING)?.uid).toBe('');
    const r = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o', uid: 'client-sent' }));
    expect(r.response.code === 201 && r.response.object.uid).toBe('');
  });

  it('initial histories get the first UID; the assumptions say objects carry UIDs', () => {
    const { kube } = env();
    const [world] = kube.initialWorlds(
      { main: [{ versions: [k8s.object({ kind: 'Thing', name: 'o' })], reconciled: true }] },
      { cacheLag: 'none' },
    );
    expect(kube.stored(TinyState({ kube: world }), 'main', THING)?.uid).toBe('Thing/o#1');
    expect(kube.assumptions).toContain(
      'Objects carry UIDs: an object created again under its name has a UID other than any its old incarnation left behind.',
    );
  });

  it('a PUT of a copy of another incarnation gets 409 (the uid is a precondition); one without a uid keeps the stored one', () => {
    const server = k8s.emptyServer([k8s.object({ kind: 'Thing', name: 'o', uid: 'Thing/o#2', resourceVersion: 1, generation: 1 })]);
    const old = k8s.object({ kind: 'Thing', name: 'o', uid: 'Thing/o#1', resourceVersion: 1, spec: { size: 2 } });
    const r = k8s.update(server, old);
    expect(r.response).toEqual({
      code: 409,
      reason:
        'Operation cannot be fulfilled on Thing/o: the UID in the precondition (Thing/o#1) does not match the UID in record (Thing/o#2). The object might have been deleted and then recreated',
    });
    const kept = k8s.update(server, old.set('uid', ''));
    expect(kept.response.code === 200 && kept.response.object.uid).toBe('Thing/o#2');
  });
});

describe('generateName', () => {
  it('the server makes the name: the prefix and the first suffix no key or name in the state holds', () => {
    let { kube, s } = env();
    const part = k8s.object({ kind: 'Part', name: '', generateName: 'o-' });
    const first = create(kube, s, part);
    expect(first.response.code === 201 && first.response.object.name).toBe('o-b');
    s = first.state;
    const second = create(kube, s, part);
    expect(second.response.code === 201 && [second.response.object.name, second.response.object.uid]).toEqual(['o-c', 'Part/o-c#1']);
    expect(k8s.describeRequest(k8s.create(k8s.emptyServer(), part).request)).toBe('CREATE Part/o-b (generateName o-)');
  });

  it('neither a name nor a generateName: 422', () => {
    const r = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Part', name: '' }));
    expect(r.response).toEqual({ code: 422, reason: 'Part is invalid: metadata.name: Required value: name or generateName is required' });
  });

  it('suffixes run through the generator alphabet, then two letters', () => {
    expect([0, 1, 26, 27, 28].map(suffix)).toEqual(['b', 'c', '9', 'bb', 'bc']);
  });
});

describe('DELETE preconditions', () => {
  const server = k8s.emptyServer([
    k8s.object({ kind: 'Thing', name: 'o', uid: 'Thing/o#2', resourceVersion: 3, generation: 1, finalizers: ['f'] }),
  ]);
  it('another uid: 409, nothing changes, even for an object already being deleted', () => {
    const r = k8s.delete(server, THING, { uid: 'Thing/o#1' });
    expect(r.response).toEqual({
      code: 409,
      reason:
        'Operation cannot be fulfilled on Thing/o: the UID in the precondition (Thing/o#1) does not match the UID in record (Thing/o#2). The object might have been deleted and then recreated',
    });
    expect(r.server).toBe(server);
    const deleting = k8s.delete(server, THING).server;
    expect(k8s.delete(deleting, THING, { uid: 'Thing/o#1' }).response.code).toBe(409);
    expect(k8s.describeRequest(r.request)).toBe('DELETE Thing/o (preconditions: uid Thing/o#1)');
  });

  it('another resourceVersion: 409; matching ones: the DELETE goes ahead', () => {
    expect(k8s.delete(server, THING, { resourceVersion: 2 }).response).toEqual({
      code: 409,
      reason:
        'Operation cannot be fulfilled on Thing/o: the ResourceVersion in the precondition (2) does not match the ResourceVersion in record (3). The object might have been modified',
    });
    const ok = k8s.delete(server, THING, { uid: 'Thing/o#2', resourceVersion: 3 });
    expect(ok.response.code === 200 && ok.response.object.deletionTimestamp).toBe(4);
  });
});

describe('ownerReferences', () => {
  const owner = k8s.object({ kind: 'Thing', name: 'o', uid: 'Thing/o#1' });
  it('ownerReference() copies the owner uid; controllerOf finds the controller; traces show them', () => {
    const part = k8s.object({
      kind: 'Part',
      name: 'p',
      ownerReferences: [k8s.ownerReference(owner, { controller: true, blockOwnerDeletion: true })],
    });
    expect(k8s.ownerReferencesOf(part)).toEqual([{ key: THING, uid: 'Thing/o#1', controller: true, blockOwnerDeletion: true }]);
    expect(k8s.controllerOf(part)).toBe(THING);
    expect(k8s.objectView(part).get('metadata.ownerReferences')).toBe('[Thing/o (uid Thing/o#1, controller, blockOwnerDeletion)]');
    expect(k8s.controllerOf(k8s.object({ kind: 'Part', name: 'p', ownerReferences: [THING] }))).toBeUndefined();
  });

  it('two references marked controller: a create gets 422 (apimachinery objectmeta.go ValidateOwnerReferences, v0.30.0)', () => {
    const other = k8s.object({ kind: 'Thing', name: 'q', uid: 'Thing/q#1' });
    const part = k8s.object({
      kind: 'Part',
      name: 'p',
      ownerReferences: [k8s.ownerReference(owner, { controller: true }), k8s.ownerReference(other, { controller: true })],
    });
    expect(k8s.create(k8s.emptyServer(), part).response).toEqual({
      code: 422,
      reason:
        'Part/p is invalid: metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true. Found "true" in references for Thing/o and Thing/q',
    });
  });

  it('the garbage collector takes an owner of another uid for a gone one', () => {
    const PART = k8s.objectKey('Part', 'p');
    const { kube } = env({ garbageCollector: ['main'] });
    const gc = kube.actions.find((a) => a.name === 'mainGC.delete')!;
    const part = k8s.object({ kind: 'Part', name: 'p', ownerReferences: [k8s.ownerReference(owner)] });
    const world = (ownerUid: string) =>
      TinyState({
        kube: kube.initialWorlds(
          {
            main: [
              { versions: [owner.set('uid', ownerUid)], reconciled: true },
              { versions: [part], reconciled: true },
            ],
          },
          { cacheLag: 'none' },
        )[0],
      });
    expect([...(gc.params?.(world('Thing/o#1')) ?? [])]).toEqual([]);
    expect([...(gc.params?.(world('Thing/o#2')) ?? [])]).toEqual([PART]);
  });
});

describe('validation per kind', () => {
  // E.g. a PVC's storage request, which may grow and never shrink (core/v1 validation).
  const noShrink: k8s.Validator = (old, next) => {
    const was = old?.spec.get('size') as number | undefined;
    const now = next.spec.get('size') as number | undefined;
    return was !== undefined && now !== undefined && now < was
      ? `spec.size: Forbidden: field can not be less than previous value`
      : undefined;
  };
  it('an update the kind refuses gets 422 and changes nothing; one it accepts is stored', () => {
    let { kube, s } = env({ validation: { Thing: noShrink } });
    ({ state: s } = create(kube, s, k8s.object({ kind: 'Thing', name: 'o', spec: { size: 2 } })));
    const shrink = kube.request(s, 'main', (srv, c) => k8s.mergePatch(srv, THING, { spec: { size: 1 } }, undefined, c.rules('Thing')));
    expect(shrink.response).toEqual({
      code: 422,
      reason: 'Thing/o is invalid: spec.size: Forbidden: field can not be less than previous value',
    });
    expect(shrink.state).toBe(s);
    const grow = kube.request(s, 'main', (srv, c) => k8s.mergePatch(srv, THING, { spec: { size: 3 } }, undefined, c.rules('Thing')));
    expect(grow.response.code).toBe(200);
  });
});
