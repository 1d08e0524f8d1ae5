// Deletion propagation: the finalizers a DELETE with a propagationPolicy leaves (apiserver
// registry store.go deletionFinalizersForGarbageCollection 941-970, shouldOrphanDependents
// 848-890, shouldDeleteDependents 897-931) and what the garbage collector then does
// (kubernetes/kubernetes pkg/controller/garbagecollector: attemptToDeleteItem,
// processDeletingDependentsItem, orphanDependents): docs/kubernetes-semantics.md section 5.
// Hand-run steps on an owner and one or two dependents.
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';
import { TinyState, actionNamed, step, tinyWorld } from '../fixtures/k8s/tiny.ts';

const OWNER = k8s.objectKey('Database', 'db');
const SECRET = k8s.objectKey('Secret', 'db-creds');
const BACKUP = k8s.objectKey('Backup', 'db-backup');

function env(blockOwnerDeletion: boolean) {
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [],
    controllers: [],
    garbageCollector: ['main'],
    uids: true,
  });
  const owner = k8s.object({ kind: 'Database', name: 'db', uid: 'Database/db#1' });
  const secret = k8s.object({
    kind: 'Secret',
    name: 'db-creds',
    ownerReferences: [k8s.ownerReference(owner, { controller: true, blockOwnerDeletion })],
  });
  const backup = k8s.object({ kind: 'Backup', name: 'db-backup', ownerReferences: [k8s.ownerReference(owner)] });
  const [world] = kube.initialWorlds(
    { main: [owner, secret, backup].map((o) => ({ versions: [o], reconciled: true })) },
    { cacheLag: 'none' },
  );
  return { kube, s: TinyState({ kube: world }) };
}

const finalizersOf = (kube: k8s.Kubernetes<TinyState>, s: TinyState, key: string) => kube.stored(s, 'main', key)?.finalizers.toArray();
const params = (kube: k8s.Kubernetes<TinyState>, s: TinyState, name: string) => [...(actionNamed(kube, name).params?.(s) ?? [])].sort();

describe('DELETE with a propagationPolicy', () => {
  const server = k8s.emptyServer([k8s.object({ kind: 'Database', name: 'db', resourceVersion: 1, generation: 1 })]);
  it('Foreground keeps the object with foregroundDeletion; Orphan with orphan; Background removes it', () => {
    const fg = k8s.delete(server, OWNER, { propagationPolicy: 'Foreground' });
    expect(fg.response.code === 200 && [fg.response.object.finalizers.toArray(), fg.response.object.deletionTimestamp]).toEqual([
      ['foregroundDeletion'],
      2,
    ]);
    const orphan = k8s.delete(server, OWNER, { propagationPolicy: 'Orphan' });
    expect(orphan.response.code === 200 && orphan.response.object.finalizers.toArray()).toEqual(['orphan']);
    expect(k8s.delete(server, OWNER, { propagationPolicy: 'Background' }).response).toMatchObject({ code: 200, removed: true });
    expect(k8s.describeRequest(fg.request)).toBe('DELETE Database/db (propagationPolicy Foreground)');
  });

  it('on an object already being deleted: another policy changes the GC finalizers (store.go Delete 1129-1163, v0.31.3)', () => {
    const deleting = k8s.emptyServer([
      k8s.object({
        kind: 'Database',
        name: 'db',
        resourceVersion: 2,
        generation: 2,
        deletionTimestamp: 2,
        finalizers: ['example.com/cleanup'],
      }),
    ]);
    const fg = k8s.delete(deleting, OWNER, { propagationPolicy: 'Foreground' });
    expect(fg.response.code === 200 && [fg.response.object.finalizers.toArray(), fg.response.object.resourceVersion]).toEqual([
      ['example.com/cleanup', 'foregroundDeletion'],
      3,
    ]);
    // Without a policy, nothing changes; Background drops the GC finalizer again.
    expect(k8s.delete(fg.server, OWNER).server).toBe(fg.server);
    const bg = k8s.delete(fg.server, OWNER, { propagationPolicy: 'Background' });
    expect(bg.response.code === 200 && bg.response.object.finalizers.toArray()).toEqual(['example.com/cleanup']);
    // One whose only finalizer is the GC's: a Background DELETE leaves none, and the object goes.
    const onlyGc = k8s.delete(k8s.emptyServer([k8s.object({ kind: 'Database', name: 'db', resourceVersion: 1, generation: 1 })]), OWNER, {
      propagationPolicy: 'Orphan',
    }).server;
    expect(k8s.delete(onlyGc, OWNER, { propagationPolicy: 'Background' }).response).toMatchObject({ code: 200, removed: true });
  });
});

describe('the garbage collector', () => {
  it('foreground: deletes the dependents, and lets the owner go once no blocking dependent is left', () => {
    const { kube, s: s0 } = env(true);
    let s = kube.request(s0, 'main', (srv) => k8s.delete(srv, OWNER, { propagationPolicy: 'Foreground' })).state;
    expect(finalizersOf(kube, s, OWNER)).toEqual(['foregroundDeletion']);
    // Both dependents wait on a foreground owner: deleted (UID precondition); the owner is held by the blocking Secret.
    expect(params(kube, s, 'mainGC.delete')).toEqual([BACKUP, SECRET]);
    expect(params(kube, s, 'mainGC.finalize')).toEqual([]);
    s = step(kube, s, 'mainGC.delete', BACKUP);
    expect(params(kube, s, 'mainGC.finalize')).toEqual([]);
    s = step(kube, s, 'mainGC.delete', SECRET);
    expect(params(kube, s, 'mainGC.finalize')).toEqual([OWNER]);
    s = step(kube, s, 'mainGC.finalize', OWNER);
    expect(kube.stored(s, 'main', OWNER)).toBeUndefined();
  });

  it('foreground without blockOwnerDeletion: the owner goes first, its dependents are then collected in the background', () => {
    const { kube, s: s0 } = env(false);
    let s = kube.request(s0, 'main', (srv) => k8s.delete(srv, OWNER, { propagationPolicy: 'Foreground' })).state;
    s = step(kube, s, 'mainGC.delete', BACKUP);
    expect(params(kube, s, 'mainGC.finalize')).toEqual([OWNER]);
    s = step(kube, s, 'mainGC.finalize', OWNER);
    expect(kube.stored(s, 'main', OWNER)).toBeUndefined();
    expect(params(kube, s, 'mainGC.delete')).toEqual([SECRET]);
  });

  it('orphan: patches the references out of the dependents, then removes the orphan finalizer; nothing is collected', () => {
    const { kube, s: s0 } = env(true);
    let s = kube.request(s0, 'main', (srv) => k8s.delete(srv, OWNER, { propagationPolicy: 'Orphan' })).state;
    expect(params(kube, s, 'mainGC.delete')).toEqual([]);
    s = step(kube, s, 'mainGC.finalize', OWNER);
    s = step(kube, s, 'mainGC.finalize', OWNER);
    expect([kube.stored(s, 'main', SECRET)?.ownerReferences.size, kube.stored(s, 'main', BACKUP)?.ownerReferences.size]).toEqual([0, 0]);
    s = step(kube, s, 'mainGC.finalize', OWNER);
    expect(kube.stored(s, 'main', OWNER)).toBeUndefined();
    expect(params(kube, s, 'mainGC.delete')).toEqual([]);
  });
});

describe('the garbage collector that keeps its own graph', () => {
  it('foreground: the owner observed being deleted queues its dependents, which are deleted; then the owner goes', () => {
    const kube = k8s.kubernetes<TinyState>({
      world: tinyWorld,
      servers: ['main'],
      managers: [],
      controllers: [],
      uids: true,
      garbageCollector: [{ server: 'main', kinds: ['Database', 'Secret'], absentOwnerCache: 'identity' }],
    });
    const owner = k8s.object({ kind: 'Database', name: 'db', uid: 'Database/db#1' });
    const secret = k8s.object({
      kind: 'Secret',
      name: 'db-creds',
      ownerReferences: [k8s.ownerReference(owner, { blockOwnerDeletion: true })],
    });
    const [world] = kube.initialWorlds({ main: [owner, secret].map((o) => ({ versions: [o], reconciled: true })) }, { cacheLag: 'none' });
    let s = TinyState({ kube: world });
    s = step(kube, s, 'mainGC.observe', OWNER);
    s = step(kube, s, 'mainGC.observe', SECRET);
    s = kube.request(s, 'main', (srv) => k8s.delete(srv, OWNER, { propagationPolicy: 'Foreground' })).state;
    expect(params(kube, s, 'mainGC.attemptToDelete')).toEqual([]);
    expect(params(kube, s, 'mainGC.finalize')).toEqual([]); // the Secret blocks it
    s = step(kube, s, 'mainGC.observe', OWNER);
    expect(params(kube, s, 'mainGC.attemptToDelete')).toEqual([SECRET]);
    s = step(kube, s, 'mainGC.attemptToDelete', SECRET);
    expect(kube.stored(s, 'main', SECRET)).toBeUndefined();
    s = step(kube, s, 'mainGC.finalize', OWNER);
    expect(kube.stored(s, 'main', OWNER)).toBeUndefined();
  });
});
