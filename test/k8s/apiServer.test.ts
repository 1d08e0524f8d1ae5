// The API server's storage rules (src/k8s/apiServer.ts), one test per rule, each on a one-object
// store. Rules as stated in docs/capi-semantics.md, "Kubernetes API server rules"; where the
// real code is known it is cited: k8s.io/apiserver pkg/registry/generic/registry/store.go (the
// generic registry) and k8s.io/apimachinery pkg/api/validation/objectmeta.go
// (ValidateObjectMetaUpdate).
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';

const KEY = k8s.objectKey('Thing', 'o');
const F = 'example.com/a';
const G = 'example.com/b';
// Written out, not imported, so that the test does not trust the library's own constant.
const NO_NEW_FINALIZERS = 'no new finalizers can be added if the object is being deleted';

/** A server holding one freshly created object (resourceVersion 1). */
function serverWith(fields: Partial<Parameters<typeof k8s.object>[0]> = {}): k8s.ApiServer {
  const r = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o', ...fields }));
  return r.server;
}

/** A server holding the object after a DELETE that only marked it (it has finalizers). */
function deletingServer(finalizers: readonly string[] = [F]): k8s.ApiServer {
  return k8s.delete(serverWith({ finalizers }), KEY).server;
}

const stored = (s: k8s.ApiServer) => s.objects.get(KEY);

/** The result of a request that must succeed. */
function ok2(r: k8s.ApiResult): k8s.ApiResult {
  ok(r);
  return r;
}

function ok(r: k8s.ApiResult) {
  if (r.response.code !== 200 && r.response.code !== 201) throw new Error(`expected success, got ${JSON.stringify(r.response)}`);
  return r.response;
}

describe('every persisted write changes resourceVersion by one and produces one watch event', () => {
  // capi-move-semantics.md: "Every persisted write changes resourceVersion and produces a watch
  // event." In the real server each write is one etcd transaction (storage/etcd3 GuaranteedUpdate),
  // which gets a new revision and one watch event; the model's per-object counter moves by one.
  it('CREATE stores resourceVersion 1 and sends ADDED', () => {
    const r = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o' }));
    expect(r.response.code).toBe(201);
    expect(stored(r.server)?.resourceVersion).toBe(1);
    expect(r.event?.type).toBe('ADDED');
    expect(r.event?.object).toEqual(stored(r.server));
  });

  it('merge patch, update and JSON patch each add one to resourceVersion and send MODIFIED', () => {
    let server = serverWith();
    const patched = k8s.mergePatch(server, KEY, { spec: { size: 1 } });
    expect([stored(patched.server)?.resourceVersion, patched.event?.type]).toEqual([2, 'MODIFIED']);
    expect(patched.event?.object).toEqual(stored(patched.server));
    server = patched.server;

    const updated = k8s.update(server, stored(server)!.setIn(['spec', 'size'], 2));
    expect([stored(updated.server)?.resourceVersion, updated.event?.type]).toEqual([3, 'MODIFIED']);
    expect(updated.event?.object).toEqual(stored(updated.server));
    server = updated.server;

    const annotated = k8s.jsonPatchAddAnnotations(server, KEY, { a: 'x' });
    expect([stored(annotated.server)?.resourceVersion, annotated.event?.type]).toEqual([4, 'MODIFIED']);
    expect(annotated.event?.object).toEqual(stored(annotated.server));
  });

  it('a DELETE that marks an object with finalizers adds one to resourceVersion and sends MODIFIED', () => {
    // store.go Delete -> updateForGracefulDeletionAndFinalizers: setting deletionTimestamp is a
    // GuaranteedUpdate of the stored object, a persisted write like any other.
    const r = k8s.delete(serverWith({ finalizers: [F] }), KEY);
    expect(r.response.code).toBe(200);
    expect(r.event?.type).toBe('MODIFIED');
    expect(stored(r.server)?.resourceVersion).toBe(2);
    expect(r.event?.object).toEqual(stored(r.server));
  });

  it('a removal adds one to the last resourceVersion and sends DELETED with the last state', () => {
    // DELETE without finalizers: store.go Delete -> e.Storage.Delete, one etcd delete, one event.
    const byDelete = k8s.delete(serverWith(), KEY);
    expect(byDelete.event?.type).toBe('DELETED');
    expect(byDelete.event?.object.resourceVersion).toBe(2);
    expect(stored(byDelete.server)).toBeUndefined();
    // A patch emptying the finalizers of a deleting object: one more than the marked object's
    // resourceVersion, whatever that is (the marking's own bump is the test above).
    const marked = deletingServer();
    const byPatch = k8s.mergePatch(marked, KEY, { finalizers: [] });
    expect(byPatch.event?.type).toBe('DELETED');
    expect(byPatch.event?.object.resourceVersion).toBe(stored(marked)!.resourceVersion + 1);
    expect(byPatch.event?.object.finalizers.toArray()).toEqual([]);
  });

  it('reads and writes that change nothing send no event and keep the resourceVersion', () => {
    // store.go Update: GuaranteedUpdate skips the etcd write when the new object equals the old
    // one (the "no-op update" short-cut), so there is no new resourceVersion and no event.
    const server = serverWith({ finalizers: [F], annotations: { a: 'x' }, spec: { size: 1 } });
    const obj = stored(server)!;
    expect(k8s.get(server, KEY)).toEqual({ code: 200, object: obj, removed: false });
    const noOps: [string, k8s.ApiResult][] = [
      ['same finalizers', k8s.mergePatch(server, KEY, { finalizers: [F] })],
      ['same annotation', k8s.mergePatch(server, KEY, { annotations: { a: 'x' } })],
      ['null for an absent annotation', k8s.mergePatch(server, KEY, { annotations: { b: null } })],
      ['same spec field', k8s.mergePatch(server, KEY, { spec: { size: 1 } })],
      ['empty patch', k8s.mergePatch(server, KEY, {})],
      ['same annotation map', k8s.jsonPatchAddAnnotations(server, KEY, { a: 'x' })],
      ['update with the stored copy', k8s.update(server, obj)],
    ];
    for (const [what, r] of noOps) {
      expect({ what, code: r.response.code, event: r.event, same: r.server.equals(server) }).toEqual({
        what,
        code: 200,
        event: undefined,
        same: true,
      });
    }
  });
});

describe('DELETE', () => {
  // capi-move-semantics.md: "DELETE on an object with finalizers sets deletionTimestamp (grace
  // period 0) and keeps the object; on an object without finalizers it removes the object at
  // once. A repeated DELETE on a deleting object succeeds and changes nothing."
  it('DELETE with finalizers sets deletionTimestamp and keeps the object', () => {
    const r = k8s.delete(serverWith({ finalizers: [F, G] }), KEY);
    const response = ok(r);
    expect(response.removed).toBe(false);
    const o = stored(r.server)!;
    expect(o.deletionTimestamp).not.toBeNull();
    expect(o.finalizers.toArray()).toEqual([F, G]);
    expect(response.object).toEqual(o);
  });

  it('DELETE without finalizers removes the object at once', () => {
    const r = k8s.delete(serverWith(), KEY);
    expect(ok(r).removed).toBe(true);
    expect(r.server.objects.size).toBe(0);
  });

  it('a repeated DELETE on a deleting object answers 200 and changes nothing', () => {
    // store.go Delete: an object that already has a deletionTimestamp and finalizers is
    // returned as is ("object is being deleted" path), with no write.
    const server = deletingServer();
    const r = k8s.delete(server, KEY);
    expect(r.response).toEqual({ code: 200, object: stored(server), removed: false });
    expect(r.event).toBeUndefined();
    expect(r.server.equals(server)).toBe(true);
  });

  it('DELETE of a missing object answers 404', () => {
    const r = k8s.delete(k8s.emptyServer(), KEY);
    expect(r.response.code).toBe(404);
    expect(r.event).toBeUndefined();
  });
});

describe('deletionTimestamp', () => {
  // capi-move-semantics.md: "Once deletionTimestamp is set it can never be unset."
  // ValidateObjectMetaUpdate / the registry's BeforeUpdate: deletionTimestamp is the server's;
  // rest.BeforeUpdate copies it from the old object (objectMeta.SetDeletionTimestamp(oldMeta...)).
  it('an update with deletionTimestamp null keeps the stored one', () => {
    const server = deletingServer([F, G]);
    const before = stored(server)!;
    // Drop one finalizer so the update is a real write, and try to clear deletionTimestamp.
    const r = k8s.update(server, before.set('deletionTimestamp', null).set('finalizers', before.finalizers.pop()));
    expect(r.response.code).toBe(200);
    expect(stored(r.server)?.deletionTimestamp).toBe(before.deletionTimestamp);
  });

  it('an update with another deletionTimestamp keeps the stored one', () => {
    const server = deletingServer([F, G]);
    const before = stored(server)!;
    const r = k8s.update(server, before.set('deletionTimestamp', before.deletionTimestamp! + 10).setIn(['spec', 'size'], 3));
    expect(r.response.code).toBe(200);
    expect(stored(r.server)?.deletionTimestamp).toBe(before.deletionTimestamp);
  });

  // apiserver v0.31.3 pkg/registry/rest/update.go BeforeUpdate copies the old deletionTimestamp
  // only when there is one; validateCommonFields -> apimachinery pkg/api/validation/objectmeta.go
  // ValidateObjectMetaAccessorUpdate: ValidateImmutableField(deletionTimestamp) -> 422 Invalid.
  it('an update that sets deletionTimestamp on an object that is not being deleted is refused with 422', () => {
    const server = serverWith({ finalizers: [F] });
    const r = k8s.update(server, stored(server)!.set('deletionTimestamp', 7));
    expect(r.response.code).toBe(422);
    expect(r.response.code === 422 && r.response.reason).toBe(
      'Thing/o is invalid: metadata.deletionTimestamp: Invalid value: 7: field is immutable',
    );
    expect(r.event).toBeUndefined();
    expect(r.server).toBe(server);
  });

  it('a create drops a deletionTimestamp the client sent (WipeObjectMetaSystemFields)', () => {
    const r = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o', finalizers: [F] }).set('deletionTimestamp', 7));
    expect(r.response.code).toBe(201);
    expect(stored(r.server)?.deletionTimestamp).toBeNull();
  });
});

describe('status (a status subresource)', () => {
  // apiextensions-apiserver v0.32.3 pkg/registry/customresource/strategy.go: PrepareForCreate
  // drops status (144-155); PrepareForUpdate keeps the stored status whatever the client sent
  // (166-175). Only a status write (here a merge patch of `conditions` or `status`) sets it.
  it('a create drops the status and conditions the client sent', () => {
    const r = k8s.create(
      k8s.emptyServer(),
      k8s.object({ kind: 'Thing', name: 'o', conditions: { Ready: true }, status: { infrastructureReady: true } }),
    );
    expect([stored(r.server)?.conditions.size, stored(r.server)?.status.size]).toEqual([0, 0]);
  });

  it('an update keeps the stored status and conditions and changes the rest', () => {
    const server = ok2(k8s.mergePatch(serverWith(), KEY, { conditions: { Ready: false }, status: { nodeRef: 'n1' } })).server;
    const copy = stored(server)!
      .merge({ conditions: stored(server)!.conditions.set('Ready', k8s.condition(true)) })
      .setIn(['spec', 'size'], 3);
    const r = k8s.update(server, copy.setIn(['status', 'nodeRef'], 'n2'));
    expect(r.response.code).toBe(200);
    expect([
      stored(r.server)?.conditions.get('Ready')?.status,
      stored(r.server)?.status.get('nodeRef'),
      stored(r.server)?.spec.get('size'),
    ]).toEqual([false, 'n1', 3]);
  });

  it('without a status subresource (writesStatus), an update writes the status too, and a status change is a new generation', () => {
    // strategy.go PrepareForUpdate: the stored status is kept only when the CRD has the
    // subresource (166-175); any change outside metadata bumps the generation (178-186).
    const server = ok2(k8s.mergePatch(serverWith(), KEY, { status: { nodeRef: 'n1' } })).server;
    const copy = stored(server)!.setIn(['status', 'nodeRef'], 'n2');
    const r = k8s.update(server, copy, { writesStatus: true });
    expect(r.response.code).toBe(200);
    expect([stored(r.server)?.status.get('nodeRef'), stored(r.server)?.generation]).toEqual(['n2', 2]);
    // The same copy, with the subresource: the status stays, nothing is persisted.
    const kept = k8s.update(server, copy);
    expect([stored(kept.server)?.status.get('nodeRef'), kept.server]).toEqual(['n1', server]);
  });

  it('a merge patch with null removes a field (RFC 7386), as {"spec":{"paused":null}} does', () => {
    const server = serverWith({ spec: { paused: true, size: 1 } });
    const r = k8s.mergePatch(server, KEY, { spec: { paused: null } });
    expect(stored(r.server)?.spec.toObject()).toEqual({ size: 1 });
  });
});

describe('generation (custom resources)', () => {
  // apiextensions-apiserver v0.31.3 customresource strategy.go: PrepareForCreate sets 1 (155),
  // PrepareForUpdate bumps it when anything outside metadata changes (178-186), the status
  // strategy copies the stored object and sets only status (status_strategy.go 60-84); apiserver
  // v0.31.3 registry/store.go markAsDeleting bumps it when an object with finalizers is marked
  // (997-999), once.
  it('a create stores generation 1, whatever the client sent', () => {
    expect(stored(serverWith({ generation: 7 }))?.generation).toBe(1);
  });

  it('a spec change bumps it; metadata and status writes do not', () => {
    let server = serverWith({ spec: { size: 1 } });
    server = ok2(k8s.mergePatch(server, KEY, { finalizers: [F], annotations: { a: 'x' } })).server;
    server = ok2(k8s.mergePatch(server, KEY, { conditions: { Ready: true }, status: { nodeRef: 'n1' } })).server;
    expect(stored(server)?.generation).toBe(1);
    server = ok2(k8s.mergePatch(server, KEY, { spec: { size: 2 } })).server;
    expect(stored(server)?.generation).toBe(2);
    // An update: the generation the client sent does not count, the spec change does.
    server = ok2(k8s.update(server, stored(server)!.merge({ generation: 9 }).setIn(['spec', 'size'], 3))).server;
    expect(stored(server)?.generation).toBe(3);
  });

  it('marking for deletion bumps it once; a repeated DELETE does not', () => {
    const marked = deletingServer();
    expect(stored(marked)?.generation).toBe(2);
    expect(stored(k8s.delete(marked, KEY).server)?.generation).toBe(2);
  });
});

describe('a merge patch with a resourceVersion (MergeFromWithOptimisticLock)', () => {
  // The patched object keeps the patch's resourceVersion, and the store's update refuses one
  // that is not the stored one (apiserver v0.31.3 registry/store.go Update, 713-715): 409.
  it('applies when the resourceVersion is the stored one', () => {
    const r = k8s.mergePatch(serverWith(), KEY, { conditions: { Paused: { status: true, observedGeneration: 1 } } }, 1);
    expect(r.response.code).toBe(200);
    expect(stored(r.server)?.conditions.get('Paused')?.toObject()).toEqual({
      status: true,
      observedGeneration: 1,
      reason: '',
      message: '',
    });
    expect(k8s.describeRequest(r.request)).toBe(
      'PATCH Thing/o (merge) {"metadata":{"resourceVersion":"1"},"status":{"conditions":[{"type":"Paused","status":"True","observedGeneration":1}]}}',
    );
  });

  it('answers 409 and changes nothing when the object has moved on', () => {
    const server = ok2(k8s.mergePatch(serverWith(), KEY, { annotations: { a: 'x' } })).server;
    const r = k8s.mergePatch(server, KEY, { conditions: { Paused: true } }, 1);
    expect(r.response.code).toBe(409);
    expect(r.server).toBe(server);
    expect(r.event).toBeUndefined();
  });

  it('a missing object is 404 before any conflict', () => {
    expect(k8s.mergePatch(k8s.emptyServer(), KEY, { conditions: { Paused: true } }, 1).response.code).toBe(404);
  });
});

describe('no new finalizers on a deleting object', () => {
  // capi-move-semantics.md: "An update or patch that ADDS a finalizer name to an object whose
  // stored copy has a deletionTimestamp is rejected (422 Invalid, ...). Removing or reordering
  // finalizers is allowed." apimachinery objectmeta.go ValidateObjectMetaUpdate compares
  // newMeta with oldMeta, the STORED object.
  it('a merge patch that adds a finalizer to a deleting object answers 422 and changes nothing', () => {
    const server = deletingServer();
    const r = k8s.mergePatch(server, KEY, { finalizers: [F, G] });
    expect(r.response.code).toBe(422);
    expect(r.response.code === 422 && r.response.reason).toContain(NO_NEW_FINALIZERS);
    expect(r.event).toBeUndefined();
    expect(r.server.equals(server)).toBe(true);
  });

  it('an update from a copy without the deletionTimestamp that adds a finalizer still answers 422', () => {
    // The client's copy was read before the DELETE (a stale cache): no deletionTimestamp. The
    // server judges against its stored object. Its resourceVersion is the stored one, so the
    // 422 is not hidden behind a 409.
    const server = deletingServer();
    const clientCopy = stored(server)!.set('deletionTimestamp', null).set('finalizers', stored(server)!.finalizers.push(G));
    const r = k8s.update(server, clientCopy);
    expect(r.response.code).toBe(422);
    expect(r.response.code === 422 && r.response.reason).toContain(NO_NEW_FINALIZERS);
    expect(r.server.equals(server)).toBe(true);
  });

  it('replacing one finalizer by another on a deleting object is an addition: 422', () => {
    const r = k8s.mergePatch(deletingServer([F]), KEY, { finalizers: [G] });
    expect(r.response.code).toBe(422);
  });

  it('removing or reordering finalizers of a deleting object is allowed', () => {
    const server = deletingServer([F, G]);
    const reordered = k8s.mergePatch(server, KEY, { finalizers: [G, F] });
    expect(reordered.response.code).toBe(200);
    expect(stored(reordered.server)?.finalizers.toArray()).toEqual([G, F]);
    expect(reordered.event?.type).toBe('MODIFIED');
    const removed = k8s.mergePatch(server, KEY, { finalizers: [G] });
    expect(removed.response.code).toBe(200);
    expect(stored(removed.server)?.finalizers.toArray()).toEqual([G]);
    expect(stored(removed.server)?.deletionTimestamp).toBe(stored(server)?.deletionTimestamp);
  });
});

describe('the last finalizer removed from a deleting object', () => {
  // capi-move-semantics.md: "An update or patch that leaves a deleting object with no
  // finalizers removes the object in that same request." store.go Update ->
  // deleteWithoutFinalizers / ShouldDeleteDuringUpdate.
  it('a merge patch that empties the finalizers of a deleting object removes it in that request', () => {
    const r = k8s.mergePatch(deletingServer([F, G]), KEY, { finalizers: [] });
    expect(r.response.code === 200 && r.response.removed).toBe(true);
    expect(r.event?.type).toBe('DELETED');
    expect(stored(r.server)).toBeUndefined();
  });

  it('an update that empties the finalizers of a deleting object removes it in that request', () => {
    const server = deletingServer([F]);
    // Even from a copy that does not show the deletionTimestamp.
    const copy = stored(server)!.set('deletionTimestamp', null).set('finalizers', stored(server)!.finalizers.clear());
    const r = k8s.update(server, copy);
    expect(r.response.code === 200 && r.response.removed).toBe(true);
    expect(r.event?.type).toBe('DELETED');
    expect(stored(r.server)).toBeUndefined();
  });

  it('emptying the finalizers of an object that is not being deleted keeps it', () => {
    const r = k8s.mergePatch(serverWith({ finalizers: [F] }), KEY, { finalizers: [] });
    expect(r.event?.type).toBe('MODIFIED');
    expect(stored(r.server)?.finalizers.size).toBe(0);
  });
});

describe('conflicts and merge semantics', () => {
  // capi-move-semantics.md: "An update carrying a stale resourceVersion fails with 409 Conflict.
  // A JSON merge patch without a resourceVersion is applied to the latest stored object and
  // does not conflict. A merge patch replaces arrays (such as the finalizer list) as a whole."
  // store.go Update -> GuaranteedUpdate precondition on resourceVersion (errors.NewConflict);
  // RFC 7386 for the merge patch.
  it('an update with a stale resourceVersion answers 409 and changes nothing', () => {
    const server = serverWith();
    const copy = stored(server)!;
    const moved = k8s.mergePatch(server, KEY, { spec: { size: 1 } }).server;
    const r = k8s.update(moved, copy.setIn(['spec', 'size'], 2));
    expect(r.response.code).toBe(409);
    expect(r.event).toBeUndefined();
    expect(r.server.equals(moved)).toBe(true);
  });

  it('an update from a copy read before a DELETE marked the object answers 409', () => {
    // The marking is a persisted write (store.go updateForGracefulDeletionAndFinalizers), so a
    // copy read before it is stale like any other.
    const server = serverWith({ finalizers: [F] });
    const copy = stored(server)!;
    const marked = k8s.delete(server, KEY).server;
    const r = k8s.update(marked, copy.setIn(['spec', 'size'], 2));
    expect(r.response.code).toBe(409);
    expect(r.server.equals(marked)).toBe(true);
  });

  it('a merge patch without resourceVersion never conflicts and applies to the latest object', () => {
    // Someone else wrote after our read; the patch still applies, on top of their write.
    const server = k8s.mergePatch(serverWith(), KEY, { annotations: { theirs: '1' } }).server;
    const r = k8s.mergePatch(server, KEY, { annotations: { ours: '1' } });
    expect(r.response.code).toBe(200);
    expect(stored(r.server)?.annotations.toObject()).toEqual({ theirs: '1', ours: '1' });
    expect(stored(r.server)?.resourceVersion).toBe(3);
  });

  it('a merge patch replaces the finalizer array whole', () => {
    const r = k8s.mergePatch(serverWith({ finalizers: [F, G] }), KEY, { finalizers: [G, 'example.com/c'] });
    expect(stored(r.server)?.finalizers.toArray()).toEqual([G, 'example.com/c']);
  });

  it('a merge patch merges annotations key by key and null deletes a key', () => {
    // RFC 7386: members of the patch replace, null removes, absent members are kept.
    const server = serverWith({ annotations: { keep: 'k', change: 'old', drop: 'd' } });
    const r = k8s.mergePatch(server, KEY, { annotations: { change: 'new', drop: null, add: 'a' } });
    expect(stored(r.server)?.annotations.toObject()).toEqual({ keep: 'k', change: 'new', add: 'a' });
  });

  it('jsonPatchAddAnnotations replaces the whole annotation map', () => {
    // RFC 6902 "add" on an existing member replaces its value: the whole map.
    const server = serverWith({ annotations: { a: '1', b: '2' } });
    const r = k8s.jsonPatchAddAnnotations(server, KEY, { c: '3' });
    expect(stored(r.server)?.annotations.toObject()).toEqual({ c: '3' });
  });
});

describe('missing and existing names', () => {
  // capi-move-semantics.md: "Writes to an object that does not exist fail with 404 NotFound."
  // store.go Create: errors.NewAlreadyExists (409) when the key is taken.
  it('every write to a missing object answers 404 and changes nothing', () => {
    const server = k8s.emptyServer();
    const o = k8s.object({ kind: 'Thing', name: 'o', resourceVersion: 1 });
    const results = [
      k8s.mergePatch(server, KEY, { finalizers: [] }),
      k8s.update(server, o),
      k8s.jsonPatchAddAnnotations(server, KEY, { a: '1' }),
      k8s.delete(server, KEY),
    ];
    expect(results.map((r) => [r.response.code, r.event, r.server.equals(server)])).toEqual([
      [404, undefined, true],
      [404, undefined, true],
      [404, undefined, true],
      [404, undefined, true],
    ]);
    expect(k8s.get(server, KEY).code).toBe(404);
  });

  it('CREATE of an existing name answers 409 and changes nothing', () => {
    const server = serverWith({ finalizers: [F] });
    const r = k8s.create(server, k8s.object({ kind: 'Thing', name: 'o' }));
    expect(r.response.code).toBe(409);
    expect(r.event).toBeUndefined();
    expect(r.server.equals(server)).toBe(true);
  });

  it('CREATE ignores a client-set deletionTimestamp and resourceVersion and starts at 1', () => {
    // rest.BeforeCreate: the server clears deletionTimestamp and owns resourceVersion.
    const r = k8s.create(
      k8s.emptyServer(),
      k8s.object({ kind: 'Thing', name: 'o', finalizers: [F], deletionTimestamp: 5, resourceVersion: 9 }),
    );
    expect(stored(r.server)?.deletionTimestamp).toBeNull();
    expect(stored(r.server)?.resourceVersion).toBe(1);
  });
});

describe('metadata every write is validated for (apimachinery objectmeta.go ValidateObjectMeta, v0.30.0)', () => {
  // objectmeta.go 210-212; the store validates on create and update alike (apiserver rest/create.go
  // 129, rest/update.go 87-101), a patch being an update of the patched object.
  const BOTH =
    'Thing/o is invalid: metadata.finalizers: Invalid value: "orphan": finalizer orphan and foregroundDeletion cannot be both set';

  it('orphan with foregroundDeletion: 422 on an update and on a patch, nothing written', () => {
    const server = serverWith();
    const o = stored(server)!;
    const put = k8s.update(server, o.set('finalizers', o.finalizers.push('orphan', 'foregroundDeletion')));
    expect(put.response).toEqual({ code: 422, reason: BOTH });
    expect(put.server).toBe(server);
    const patch = k8s.mergePatch(server, KEY, { finalizers: ['orphan', 'foregroundDeletion'] });
    expect(patch.response).toEqual({ code: 422, reason: BOTH });
    expect(patch.server).toBe(server);
  });

  it('two controller references: 422 on an update too', () => {
    const server = serverWith();
    const refs = [
      { key: 'Owner/a', uid: '1', controller: true },
      { key: 'Owner/b', uid: '2', controller: true },
    ];
    const withRefs = k8s.object({ kind: 'Thing', name: 'o', resourceVersion: 1, ownerReferences: refs });
    expect(k8s.update(server, withRefs).response).toEqual({
      code: 422,
      reason:
        'Thing/o is invalid: metadata.ownerReferences: Invalid value: Only one reference can have Controller set to true. Found "true" in references for Owner/a and Owner/b',
    });
  });
});
