// How Kubernetes requests, answers and worlds read in traces (src/k8s/describe.ts), and the
// events the library records while a trace is rebuilt. Answers follow the API server's rules in
// docs/capi-semantics.md ("Kubernetes API server rules").
import { describe, expect, it } from 'vitest';
import { List } from 'immutable';
import { k8s, type StepEvent } from 'modelcheck';
import { FINALIZER, THING, TinyState, actionNamed, created, finalizerKube } from '../fixtures/k8s/tiny.ts';

const srv = (o = created.set('finalizers', List([FINALIZER]))) => k8s.emptyServer([o.set('resourceVersion', 2)]);

describe('requests and answers', () => {
  it('reads each verb with its object and, for a patch, the body Kubernetes receives', () => {
    expect(k8s.describeRequest(k8s.delete(srv(), THING).request)).toBe('DELETE Thing/o');
    expect(k8s.describeRequest(k8s.create(k8s.emptyServer(), created).request)).toBe('CREATE Thing/o');
    expect(k8s.describeRequest(k8s.update(srv(), created.set('resourceVersion', 2)).request)).toBe('PUT Thing/o (resourceVersion 2)');
    expect(k8s.describeRequest(k8s.mergePatch(srv(), THING, { finalizers: [] }).request)).toBe(
      'PATCH Thing/o (merge) {"metadata":{"finalizers":[]}}',
    );
    expect(k8s.describeRequest(k8s.mergePatch(srv(), THING, { spec: { paused: true }, conditions: { Paused: true } }).request)).toBe(
      'PATCH Thing/o (merge) {"spec":{"paused":true},"status":{"conditions":[{"type":"Paused","status":"True"}]}}',
    );
    expect(k8s.describeRequest(k8s.jsonPatchAddAnnotations(srv(), THING, { a: '' }).request)).toBe(
      'PATCH Thing/o (JSON patch) [{"op":"add","path":"/metadata/annotations","value":{"a":""}}]',
    );
  });

  it('answers 200, 201, 404, 409 and 422 with their reasons, and says what a DELETE did', () => {
    const answer = (r: k8s.ApiResult) => k8s.describeAnswer(r.request, r.response);
    expect(answer(k8s.create(k8s.emptyServer(), created))).toBe('201 Created');
    expect(answer(k8s.create(srv(), created))).toBe('409 Conflict: Thing/o already exists');
    expect(answer(k8s.delete(k8s.emptyServer(), THING))).toBe('404 NotFound: Thing/o not found');
    // With a finalizer a DELETE only marks the object; without, it removes it.
    const marked = k8s.delete(srv(), THING);
    expect(answer(marked)).toBe(`200 OK: deletionTimestamp set, kept for its finalizers [${FINALIZER}]`);
    expect(answer(k8s.delete(srv(created), THING))).toBe('200 OK: the object is removed from storage');
    // A finalizer added to a deleting object: 422, whatever the client's copy says.
    expect(answer(k8s.mergePatch(marked.server, THING, { finalizers: [FINALIZER, 'x'] }))).toBe(
      `422 Invalid: Thing/o is invalid: metadata.finalizers: Forbidden: ${k8s.NO_NEW_FINALIZERS}, found new finalizers []string{"x"}`,
    );
    expect(answer(k8s.update(srv(), created.set('resourceVersion', 1)))).toMatch(
      /^409 Conflict: Operation cannot be fulfilled on Thing\/o/,
    );
    expect(answer(k8s.mergePatch(srv(), THING, { finalizers: [] }))).toBe('200 OK');
  });
});

/** Step events without their `detail` (what the library's terms say of a request, checked on its own). */
const withoutDetail = (events: readonly StepEvent[]) =>
  events.map((e) => {
    if (e.kind !== 'request') return e;
    const { detail: _d, ...rest } = e;
    return rest;
  });

describe('events while a trace is rebuilt', () => {
  const kube = finalizerKube();
  const [world] = kube.initialWorlds({ main: [{ versions: [created], reconciled: false }] }, { cacheLag: 'none' });
  const s0 = TinyState({ kube: world });

  it('records a request with its answer, and nothing when no events list is given', () => {
    const events: StepEvent[] = [];
    const { state } = kube.request(s0, 'main', (x) => k8s.delete(x, THING), events);
    expect(withoutDetail(events)).toEqual([
      { kind: 'request', to: 'main API server', request: 'DELETE Thing/o', answer: '200 OK: the object is removed from storage', ok: true },
    ]);
    // The request and answer in the library's terms, for checking recorded runs (src/k8s/audit/).
    const detail = k8s.detailOf(events[0])!;
    expect([detail.server, detail.request.verb, detail.request.key, detail.response.code]).toEqual(['main', 'DELETE', THING, 200]);
    expect(kube.get(state, 'main', THING, events).code).toBe(404);
    expect(withoutDetail(events)[1]).toEqual({
      kind: 'request',
      to: 'main API server',
      request: 'GET Thing/o',
      answer: '404 NotFound: Thing/o not found',
      ok: false,
    });
    // The same request without a list: the same successor.
    expect(kube.request(s0, 'main', (x) => k8s.delete(x, THING)).state.equals(state)).toBe(true);
  });

  it("records a controller's request as its own, and a cache catch-up as a note over the manager's controllers", () => {
    // The object is unreconciled and in the cache: its key is queued. reconcile decides, then
    // ensureFinalizer patches.
    const reconcile = actionNamed(kube, 'finalizerController.reconcile');
    const events: StepEvent[] = [];
    const s1 = reconcile.next(s0, THING, events)!;
    expect(events).toEqual([]);
    const s2 = actionNamed(kube, 'finalizerController.ensureFinalizer').next(s1, THING, events)!;
    expect(withoutDetail(events)).toEqual([
      {
        kind: 'request',
        to: 'main API server',
        request: `PATCH Thing/o (merge) {"metadata":{"finalizers":["${FINALIZER}"]}}`,
        answer: '200 OK',
        ok: true,
      },
    ]);
    const sync: StepEvent[] = [];
    actionNamed(kube, 'managerCache.sync').next(s2, THING, sync);
    expect(sync).toEqual([
      {
        kind: 'note',
        over: ['finalizerController'],
        text: 'manager cache takes in MODIFIED Thing/o; queues Thing/o for finalizerController',
      },
    ]);
  });
});

describe('the world as subjects and fields', () => {
  it('names each object by server or cache and each field by its Kubernetes path', () => {
    const kube = finalizerKube();
    const [world] = kube.initialWorlds(
      { main: [{ versions: [created, created.set('finalizers', List([FINALIZER]))], reconciled: true }] },
      { cacheLag: 'any' },
    );
    // Cache at the first version: one event pending.
    const view = k8s.worldView(world);
    expect([...view.keys()]).toEqual([
      'main Thing/o',
      'manager cache Thing/o',
      'manager watch events Thing/o',
      'finalizerController queue',
    ]);
    expect(view.get('main Thing/o')).toEqual(
      k8s.objectView(created.merge({ resourceVersion: 2, generation: 1, finalizers: List([FINALIZER]) })),
    );
    expect([...(view.get('main Thing/o') as Map<string, unknown>).entries()]).toEqual([
      ['metadata.resourceVersion', 2],
      ['metadata.generation', 1],
      ['metadata.deletionTimestamp', null],
      ['metadata.finalizers', `[${FINALIZER}]`],
    ]);
    expect((view.get('manager watch events Thing/o') as List<string>).toArray()).toEqual([
      `MODIFIED (resourceVersion 2, generation 1, finalizers [${FINALIZER}])`,
    ]);
    expect(view.get('finalizerController queue')).toBe('[]');
  });
});
