// Interchangeable objects (Kubernetes.symmetry, src/k8s/symmetry.ts): a renaming that swaps whole
// instances, checked by hand on a small world, and on a real model by the engine's own test of a
// symmetry: the reduced search's orbit sum must equal the count of a search without it
// (models/bugs/zookeeper410.ts, the fix with two ZookeeperClusters: 11,312 states either way).
import { describe, expect, it } from 'vitest';
import { checkVariant, k8s } from 'modelcheck';
import zookeeper410 from '../../models/bugs/zookeeper410.ts';
import { TinyState, tinyWorld } from '../fixtures/k8s/tiny.ts';

const A = k8s.objectKey('Database', 'a');
const B = k8s.objectKey('Database', 'b');
const SECRET_A = k8s.objectKey('Secret', 'a-creds');
const SECRET_B = k8s.objectKey('Secret', 'b-creds');

describe('Kubernetes.symmetry', () => {
  const kube = k8s.kubernetes<TinyState>({
    world: tinyWorld,
    servers: ['main'],
    managers: [{ name: 'manager', server: 'main', kinds: ['Database', 'Secret'], readByModel: true }],
    controllers: [],
    uids: true,
  });
  const db = (name: string) => k8s.object({ kind: 'Database', name, labels: { app: name } });
  const secret = (owner: k8s.KubeObject, name: string) =>
    k8s.object({
      kind: 'Secret',
      name,
      ownerReferences: [k8s.ownerReference(owner, { controller: true })],
      spec: { database: owner.name },
    });

  it('swaps every key, name and UID of one instance with the other: objects, references, labels, spec values', () => {
    const [world] = kube.initialWorlds(
      {
        main: [
          { versions: [db('a')], reconciled: true },
          { versions: [secret(db('a').set('uid', 'Database/a#1'), 'a-creds')], reconciled: true },
          { versions: [db('b')], reconciled: true },
        ],
      },
      { cacheLag: 'none' },
    );
    const s = TinyState({ kube: world });
    const swap = kube.symmetry('databases', [
      [A, SECRET_A],
      [B, SECRET_B],
    ]).permutations;
    expect(swap.length).toBe(1);
    const t = swap[0](s);
    expect(kube.stored(t, 'main', SECRET_A)).toBeUndefined();
    const moved = kube.stored(t, 'main', SECRET_B)!;
    expect([moved.name, moved.uid, k8s.ownerReferencesOf(moved)[0], moved.spec.get('database')]).toEqual([
      'b-creds',
      'Secret/b-creds#1',
      { key: B, uid: 'Database/b#1', controller: true, blockOwnerDeletion: false },
      'b',
    ]);
    expect(kube.stored(t, 'main', A)?.labels.get('app')).toBe('a');
    expect(kube.cached(t, 'manager', SECRET_B)?.name).toBe('b-creds');
    // Swapping twice is the identity.
    expect(swap[0](t).equals(s)).toBe(true);
  });

  it('refuses instances of different shapes, and a name two instances would both claim', () => {
    expect(() => kube.symmetry('x', [[A]])).toThrow(/at least two instances/);
    expect(() => kube.symmetry('x', [[A, SECRET_A], [B]])).toThrow(/as many keys as the first/);
    expect(() => kube.symmetry('x', [[A], [SECRET_B]])).toThrow(/part 1 is of kinds Database, Secret/);
  });

  it('on zookeeper-410 with two clusters, the reduced search stands for exactly the states of the full one', () => {
    const v = zookeeper410.variants.find((x) => x.name === 'pr530.2clusters')!;
    const reduced = checkVariant(v);
    const full = checkVariant(v, { symmetry: false });
    expect(reduced.stats.symmetry).toEqual({ name: 'clusters', renamings: 2, fullStates: 11_312 });
    expect(reduced.stats.distinctStates).toBe(5_664);
    expect(full.stats.distinctStates).toBe(11_312);
    expect([reduced.violations.length, full.violations.length]).toEqual([0, 0]);
  }, 120_000);
});
