// `conform --audit` (issue 48, part 2): audit logs read in every shape the API server and the
// clouds write them, and replayed through the library's API server. The logs are written for
// these tests (test/fixtures/audit/widgetLog.ts), event by event, with the answers the real API
// server gives, for a custom resource, the library's scope.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { k8s } from 'modelcheck';
import { event, jsonLines, life, URI, widget } from '../fixtures/audit/widgetLog.ts';
import { resourceOfKind } from '../../src/k8s/audit/requestJson.ts';

const replay = (bytes: Uint8Array, options?: { kinds?: ReadonlySet<string> }) => k8s.replayAudit(k8s.readAuditLog(bytes), options);

describe('reading audit logs', () => {
  const events = life();
  it('JSON lines, gzipped or not, an EventList, an array, one Event pretty-printed: the same events', () => {
    const shapes = [
      jsonLines(events),
      gzipSync(jsonLines(events)),
      new TextEncoder().encode(JSON.stringify({ kind: 'EventList', apiVersion: 'audit.k8s.io/v1', items: events })),
      new TextEncoder().encode(JSON.stringify(events, null, 2)),
    ];
    for (const bytes of shapes) expect(k8s.readAuditLog(bytes).events.map((e) => e.event.auditID)).toEqual(events.map((e) => e.auditID));
    expect(k8s.readAuditLog(new TextEncoder().encode(JSON.stringify(events[0], null, 2))).events).toHaveLength(1);
  });

  it("opens Azure's diagnostic wrapper, and says what is not an Event", () => {
    const lines = [
      JSON.stringify({ category: 'kube-audit', properties: { log: events[0] } }),
      JSON.stringify({ category: 'kube-audit', properties: { log: JSON.stringify(events[1]) } }),
      JSON.stringify({ protoPayload: { methodName: 'io.k8s.get' } }),
      '',
      'not json at all',
      JSON.stringify({ kind: 0 }),
    ];
    const log = k8s.readAuditLog(new TextEncoder().encode(lines.join('\n')));
    expect(log.events.map((e) => [e.event.auditID, e.at.line])).toEqual([
      [events[0].auditID, 1],
      [events[1].auditID, 2],
    ]);
    expect(log.notEvents.map((n) => [n.at.line, n.why.split(':')[0]])).toEqual([
      [3, 'a Google Cloud AuditLog entry (protoPayload), not an audit.k8s.io Event'],
      [5, 'not JSON'],
      [6, 'not an audit.k8s.io Event (kind 0)'],
    ]);
  });

  it('a file that is no log at all is refused, with why', () => {
    expect(() => k8s.readAuditLog(new Uint8Array([0x1f, 0x8b, 1, 2, 3]))).toThrow(/not a readable gzip file/);
    expect(() => k8s.readAuditLog(new Uint8Array([0xff, 0xfe, 0xfd]))).toThrow('not UTF-8 text');
    expect(() => k8s.readAuditLog(new TextEncoder().encode('hello\nworld\n'))).toThrow(/no line is JSON/);
    expect(() => k8s.readAuditLog(new TextEncoder().encode('\n\n'))).toThrow('the file is empty');
  });
});

describe('replaying a log through the library', () => {
  it("a custom resource's life under a finalizer: every request replayed, every answer agrees", () => {
    const r = replay(jsonLines(life()));
    expect(r.divergences).toEqual([]);
    expect([r.replayed, r.agreed, r.skipped]).toEqual([8, 8, []]);
    expect(r.kinds).toEqual([{ kind: 'Widget', replayed: 8 }]);
  });

  it('a tampered answer is the first divergence, with the request, both answers and the field that differs', () => {
    const events = life();
    // The stale update as if it had been accepted.
    events[2] = {
      ...events[2],
      responseStatus: { metadata: {}, code: 200 },
      responseObject: widget('102', { gen: 3, finalizers: ['example.com/cleanup'], size: 3 }),
    };
    const r = replay(jsonLines(events));
    const d = r.divergences[0];
    expect([d.at.line, d.event, d.auditID, d.request, d.user]).toEqual([
      3,
      3,
      events[2].auditID,
      `UPDATE ${URI}/w1`,
      'system:serviceaccount:default:widget-controller',
    ]);
    expect(d.diff).toEqual(['code: 200 (recorded) vs 409 (library)']);
    expect(d.library.reason).toMatch(/the object has been modified/);
    // The replay goes on from the object as the log shows it after the request: the label
    // patch's answer, untampered, has the resourceVersion the tampered update's has (by the log
    // it wrote nothing) and generation 2 where the tampered update left 3.
    expect(r.divergences.map((x) => [x.event, x.diff])).toEqual([
      [3, ['code: 200 (recorded) vs 409 (library)']],
      [4, ['generation: 2 (recorded) vs 3 (library)', 'wrote (a new resourceVersion): false (recorded) vs true (library)']],
    ]);
    expect([r.replayed, r.agreed]).toEqual([8, 6]);
  });

  it('a removal the library would not make: the field named', () => {
    const events = life();
    // Recorded: the DELETE removed the object at once, as if it had no finalizer.
    events[4] = { ...events[4], responseObject: { kind: 'Status', apiVersion: 'v1', status: 'Success' } };
    const d = replay(jsonLines(events)).divergences[0];
    expect(d.diff).toEqual(['removed: true (recorded) vs false (library)']);
  });

  it('an object the log first touches with a write existed before: rebuilt from the answer, the next request replayed', () => {
    const events = life().slice(3);
    const r = replay(jsonLines(events));
    expect(r.skipped.map((s) => [s.why, s.count])).toEqual([
      [
        "an object's first request in the log is a patch, not a create: it existed before the log began, and the log has not shown it yet",
        1,
      ],
    ]);
    expect([r.replayed, r.agreed, r.divergences.length]).toEqual([4, 4, 0]);
  });

  it('a GET rebuilds an object; a JSON patch is applied to it and written as an update', () => {
    const events = [
      event('get', 200, { response: widget('100', { finalizers: ['example.com/cleanup'] }) }),
      event('patch', 200, {
        request: [
          { op: 'test', path: '/metadata/resourceVersion', value: '100' },
          { op: 'replace', path: '/spec/size', value: 5 },
        ],
        response: widget('101', { gen: 2, finalizers: ['example.com/cleanup'], size: 5 }),
      }),
      event('patch', 200, { request: [{ op: 'remove', path: '/metadata/finalizers/0' }], response: widget('102', { gen: 2, size: 5 }) }),
    ];
    const r = replay(jsonLines(events));
    expect([r.rebuilt, r.replayed, r.agreed, r.divergences]).toEqual([1, 2, 2, []]);
  });

  it('what it cannot replay it says, with how many and where the first was', () => {
    const events = [
      event('create', 201, { level: 'Metadata' }),
      event('create', 201, { stage: 'RequestReceived' }),
      event('list', 200, { response: { kind: 'WidgetList', items: [] } }),
      event('update', 200, { subresource: 'status', request: widget('100'), response: widget('101') }),
      { ...event('get', 200), objectRef: undefined, requestURI: '/healthz' },
    ];
    const r = replay(jsonLines(events));
    expect(r.replayed).toBe(0);
    expect(r.skipped.map((s) => [s.count, s.first.line, s.why.split(':')[0]])).toEqual([
      [1, 1, 'Metadata level'],
      [1, 2, 'stage RequestReceived'],
      [1, 3, 'list'],
      [1, 4, 'subresource status'],
      [1, 5, 'not a resource request (a non-resource URL such as /healthz or /version)'],
    ]);
  });

  it('--kinds keeps the requests for those kinds only', () => {
    const r = replay(jsonLines(life()), { kinds: new Set(['Gadget']) });
    expect([r.replayed, r.skipped.map((s) => [s.why, s.count])]).toEqual([0, [['kind Widget: not among the kinds asked for', 8]]]);
  });
});

describe('what a real log holds besides the object (found by review)', () => {
  it('a Table (kubectl get) or PartialObjectMetadata answer is a view, not the object: neither compared with it nor taken as it', () => {
    const events = life().slice(0, 2);
    const table = { apiVersion: 'meta.k8s.io/v1', kind: 'Table', metadata: { resourceVersion: '101' }, rows: [] };
    events.push(event('get', 200, { response: table }), life()[2]);
    const r = replay(jsonLines(events));
    expect([r.replayed, r.agreed]).toEqual([4, 4]);
  });

  it('answers from outside the registry (403, 429, a timeout) and reads that may come from the watch cache are not replayed', () => {
    const events = [
      life()[0],
      event('update', 403, { request: widget('100', { size: 9 }) }),
      { ...event('get', 200, { response: widget('99') }), requestURI: `${URI}/w1?resourceVersion=0` },
      life()[1],
    ];
    const r = replay(jsonLines(events));
    expect([r.replayed, r.agreed, r.skipped.map((s) => s.why.split(':')[0])]).toEqual([
      2,
      2,
      [
        'answered 403 before or beside the registry (authentication, authorization, admission, rate limits, timeouts)',
        'a read with a resourceVersion',
      ],
    ]);
  });

  it('a JSON patch whose test fails is 422 (handlers/patch.go applyJSPatch): a recorded 200 differs', () => {
    const events = [
      event('get', 200, { response: widget('100') }),
      event('patch', 200, { request: [{ op: 'test', path: '/metadata/resourceVersion', value: '99' }], response: widget('101') }),
    ];
    expect(replay(jsonLines(events)).divergences[0].diff).toEqual(['code: 200 (recorded) vs 422 (library)']);
  });

  it('a label patch dropped from the log: the next answer shows a label the library never wrote', () => {
    const events = life();
    events.splice(3, 1);
    const d = replay(jsonLines(events)).divergences[0];
    expect([d.event, d.diff]).toEqual([4, ['labels: {"team":"a"} (recorded) vs {} (library)']]);
  });

  it('an object created again: its resourceVersions are never those of its first life', () => {
    const gone = event('delete', 200, { request: { kind: 'DeleteOptions' }, response: { kind: 'Status', status: 'Success' } });
    const again = event('create', 201, {
      request: { ...widget(''), metadata: { name: 'w1', namespace: 'default' } },
      response: widget('200'),
    });
    // A patch made from a copy of the first life: 409, whatever number the library gives the new one.
    const stale = event('patch', 409, { request: { metadata: { resourceVersion: '100', labels: { x: 'y' } } } });
    const r = replay(
      jsonLines([
        event('create', 201, { request: { ...widget(''), metadata: { name: 'w1', namespace: 'default' } }, response: widget('100') }),
        gone,
        again,
        stale,
      ]),
    );
    expect([r.replayed, r.agreed]).toEqual([4, 4]);
  });
});

describe('resource names from kinds (the written logs and --policy)', () => {
  it('follows the plural rules kubectl and controller-gen use', () => {
    expect(['Cluster', 'Endpoints', 'Ingress', 'Policy', 'Gateway', 'Box', 'Batch'].map(resourceOfKind)).toEqual([
      'clusters',
      'endpoints',
      'ingresses',
      'policies',
      'gateways',
      'boxes',
      'batches',
    ]);
  });
});
