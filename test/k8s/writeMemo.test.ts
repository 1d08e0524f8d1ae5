// The API server keeps what each write did per stored version and request body (writeMemo.ts)
// and answers a repeated write from that memo. That must change no answer: a write answered
// from the memo must be the write worked out afresh. Here every request of a random sequence
// is sent twice, to the server and to a copy of it whose object is an equal but distinct
// version (the memo, keyed by the version's identity, cannot answer for it), and the two
// answers must agree; and a repeated request gets the very object it got before.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { k8s } from 'modelcheck';

const KEY = k8s.objectKey('Thing', 'o');
const FINALIZERS = ['example.com/a', 'example.com/b'];

type Request =
  | { op: 'finalizers'; keep: boolean[] }
  | { op: 'annotations'; value: string | null }
  | { op: 'spec'; paused: boolean | null }
  | { op: 'condition'; status: boolean; generation: number }
  | { op: 'jsonAnnotations'; value: string }
  | { op: 'update'; stale: boolean; paused: boolean }
  | { op: 'delete' };

const request: fc.Arbitrary<Request> = fc.oneof(
  fc.record({ op: fc.constant('finalizers' as const), keep: fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }) }),
  fc.record({ op: fc.constant('annotations' as const), value: fc.constantFrom('x', 'y', null) }),
  fc.record({ op: fc.constant('spec' as const), paused: fc.constantFrom(true, false, null) }),
  fc.record({ op: fc.constant('condition' as const), status: fc.boolean(), generation: fc.nat(3) }),
  fc.record({ op: fc.constant('jsonAnnotations' as const), value: fc.constantFrom('x', 'y') }),
  fc.record({ op: fc.constant('update' as const), stale: fc.boolean(), paused: fc.boolean() }),
  fc.constant({ op: 'delete' as const }),
);

function send(server: k8s.ApiServer, r: Request): k8s.ApiResult {
  switch (r.op) {
    case 'finalizers':
      return k8s.mergePatch(server, KEY, { finalizers: FINALIZERS.filter((_, i) => r.keep[i]) });
    case 'annotations':
      return k8s.mergePatch(server, KEY, { annotations: { note: r.value } });
    case 'spec':
      return k8s.mergePatch(server, KEY, { spec: { paused: r.paused } });
    case 'condition':
      return k8s.mergePatch(server, KEY, {
        conditions: { Paused: { status: r.status, observedGeneration: r.generation, reason: 'r' } },
      });
    case 'jsonAnnotations':
      return k8s.jsonPatchAddAnnotations(server, KEY, { note: r.value });
    case 'update': {
      const stored = server.objects.get(KEY);
      if (!stored) return k8s.delete(server, KEY);
      const copy = stored.set('spec', stored.spec.set('paused', r.paused));
      return k8s.update(server, r.stale ? copy.set('resourceVersion', stored.resourceVersion - 1) : copy);
    }
    case 'delete':
      return k8s.delete(server, KEY);
  }
}

/** The server with its object replaced by an equal, distinct version. */
function copied(server: k8s.ApiServer): k8s.ApiServer {
  const o = server.objects.get(KEY);
  if (!o) return server;
  const copy = k8s.KubeObject(o.toObject());
  expect(copy).not.toBe(o);
  return server.set('objects', server.objects.set(KEY, copy));
}

function expectSameAnswer(a: k8s.ApiResult, b: k8s.ApiResult): void {
  expect(a.response.code).toBe(b.response.code);
  if ('reason' in a.response && 'reason' in b.response) expect(a.response.reason).toBe(b.response.reason);
  if ('object' in a.response && 'object' in b.response) {
    expect(a.response.object.equals(b.response.object)).toBe(true);
    expect(a.response.removed).toBe(b.response.removed);
  }
  expect(a.event?.type).toBe(b.event?.type);
  expect(a.event === undefined || a.event.object.equals(b.event!.object)).toBe(true);
  expect(a.server.equals(b.server)).toBe(true);
}

describe("the API server's memo of writes", () => {
  it('answers every request as working it out afresh does', () => {
    fc.assert(
      fc.property(fc.subarray(FINALIZERS), fc.array(request, { maxLength: 12 }), (finalizers, requests) => {
        let server = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o', finalizers })).server;
        for (const r of requests) {
          // Twice to the same version (the second from the memo, if the first was not), once to a copy.
          const first = send(server, r);
          const again = send(server, r);
          const fresh = send(copied(server), r);
          expectSameAnswer(first, again);
          expectSameAnswer(first, fresh);
          server = first.server;
        }
      }),
    );
  });

  it('gives a repeated write the same new version, which a patch with an equal body shares', () => {
    const server = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o', finalizers: FINALIZERS })).server;
    const a = k8s.mergePatch(server, KEY, { finalizers: [] });
    const b = k8s.mergePatch(server, KEY, { finalizers: [] });
    expect(a.response.code).toBe(200);
    expect(b.server.objects.get(KEY)).toBe(a.server.objects.get(KEY));
    expect(b.event?.object).toBe(a.event?.object);
    // A different body is a different write.
    const c = k8s.mergePatch(server, KEY, { finalizers: [FINALIZERS[0]] });
    expect(c.server.objects.get(KEY)?.finalizers.toArray()).toEqual([FINALIZERS[0]]);
    // DELETE of a version with finalizers marks it, the same way each time.
    expect(k8s.delete(server, KEY).server.objects.get(KEY)).toBe(k8s.delete(server, KEY).server.objects.get(KEY));
  });

  it('works out a write whose body no state could hold (it has no key) rather than fail', () => {
    const server = k8s.create(k8s.emptyServer(), k8s.object({ kind: 'Thing', name: 'o' })).server;
    const r = k8s.mergePatch(server, KEY, { spec: { size: Number.NaN } });
    expect(r.response.code).toBe(200);
  });
});
