// isHead (world.ts) answers as headOf does: whether an object's events are the next its kind's
// informer hands out. It does not look through the pending events when the kind keeps no order,
// relying on sendEvent and takeEvent keeping at most one object of such a kind pending; this
// checks that, and the answers, over random interleavings of writes and catch-ups.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { WatchEvent } from '../../src/k8s/apiServer.ts';
import { kubeObject, objectKey } from '../../src/k8s/object.ts';
import { headOf, isHead, kindOfKey, newWorld, pendingIn, sendEvent, takeEvent, type KubeWorld } from '../../src/k8s/world.ts';

const CACHE = 'manager';
const KINDS = ['Cluster', 'DockerCluster'];
const NAMES = ['a', 'b', 'c'];

type Step = { send: true; kind: number; name: number; deleted: boolean } | { send: false; pick: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ send: fc.constant(true as const), kind: fc.nat(1), name: fc.nat(2), deleted: fc.boolean() }),
  fc.record({ send: fc.constant(false as const), pick: fc.nat(20) }),
);

function pendingKeys(world: KubeWorld): string[] {
  return [...(pendingIn(world, CACHE)?.keys() ?? [])];
}

describe('isHead', () => {
  it('agrees with headOf for every object, pending or not, after any writes and catch-ups', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let world = newWorld(['main'], [CACHE], [], 0);
        let version = 0;
        for (const s of steps) {
          if (s.send) {
            const object = kubeObject({ kind: KINDS[s.kind], name: NAMES[s.name], resourceVersion: ++version });
            world = sendEvent(world, [CACHE], WatchEvent({ type: s.deleted ? 'DELETED' : 'MODIFIED', object }));
          } else {
            // A catch-up takes the head of some kind's events.
            const heads = pendingKeys(world).filter((k) => headOf(world, CACHE, kindOfKey(k)) === k);
            if (heads.length > 0) world = takeEvent(world, CACHE, heads[s.pick % heads.length]);
          }
          for (const kind of KINDS) {
            for (const name of NAMES) {
              const key = objectKey(kind, name);
              expect(isHead(world, CACHE, key)).toBe(headOf(world, CACHE, kind) === key);
            }
          }
        }
      }),
      { numRuns: 300, seed: 20261206 },
    );
  });
});
