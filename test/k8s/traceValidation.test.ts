// A recorded run checked against a model (issue 48, part 3): every counterexample of
// models/move.ts, written as the audit logs of its two API servers, is a behaviour of its
// variant; tampered copies are not, and the first recorded write no step can make is the one
// named. The counterexamples are the ones docs/move.manifest.json records (the search found
// them; replayed here from their step labels); the tampered positions are hand-derived from
// the v1.9.3 mover's order (mover.go: pause, create on the target in owner order, annotate,
// remove finalizers).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { followLog, k8s, type StepEvent, type Variant } from 'modelcheck';
import backupModel from '../../models/examples/backupOperator.ts';
import model from '../../models/move.ts';
import { PathReplayer } from '../../src/engine/search/replay.ts';
import { toggler } from '../fixtures/k8s/toggler.ts';

interface Recorded {
  readonly property: string;
  readonly init: number;
  readonly steps: readonly string[];
  readonly loopAction: string | null;
}
const manifest = JSON.parse(readFileSync('docs/move.manifest.json', 'utf8')) as {
  variants: Record<string, { violations?: Recorded[] }>;
};

/** The counterexample's steps, replayed (the closing step of a lasso included). */
function stepsOf(variant: Variant<unknown>, v: Recorded) {
  const replayed = new PathReplayer(variant).replay(v.init, v.steps, v.loopAction ?? undefined);
  if (!('trace' in replayed)) throw new Error(`cannot replay: ${replayed.why}`);
  return [...replayed.trace.slice(1), ...(replayed.closing ? [replayed.closing] : [])];
}

type Entry = { server: string; event: k8s.AuditEvent };
/** The logs of every server, merged in the order their writes were answered. */
function merged(logs: Map<string, k8s.AuditLog>): Entry[] {
  return [...logs]
    .flatMap(([server, log]) => log.events.map((e) => ({ server, event: e.event })))
    .sort((a, b) => (a.event.stageTimestamp ?? '').localeCompare(b.event.stageTimestamp ?? ''));
}

function check(variant: Variant<unknown>, entries: readonly Entry[]) {
  const by = new Map<string, k8s.AuditLog['events'][number][]>();
  for (const [i, e] of entries.entries()) by.set(e.server, [...(by.get(e.server) ?? []), { event: e.event, at: { line: i + 1 } }]);
  return k8s.checkRecordedRun(
    variant,
    [...by].map(([server, events]) => ({ server, log: { events, notEvents: [] } })),
    { kinds: kindsOf(variant) },
  ).result;
}

/** Each variant's kinds, found once (serversAndKinds walks 5,000 states). */
const kinds = new Map<Variant<unknown>, Set<string>>();
function kindsOf(variant: Variant<unknown>): Set<string> {
  const known = kinds.get(variant) ?? new Set(k8s.serversAndKinds(variant).kinds);
  kinds.set(variant, known);
  return known;
}

const variantNamed = (name: string) => model.variants.find((v) => v.name === name)! as Variant<unknown>;

describe("models/move.ts's counterexamples as audit logs", () => {
  const recorded = Object.entries(manifest.variants).flatMap(([name, r]) => (r.violations ?? []).map((v) => ({ name, v })));
  it('there are counterexamples to check (the record holds them)', () => {
    expect(recorded.length).toBeGreaterThan(50);
  });
  for (const { name, v } of recorded) {
    it(`${name}, ${v.property}: conforms`, () => {
      const variant = variantNamed(name);
      const entries = merged(k8s.auditLogsOf(stepsOf(variant, v)));
      const result = check(variant, entries);
      expect(result.verdict).toBe('conforms');
      if (result.verdict === 'conforms') expect(result.steps.flatMap((s) => s.matched)).toEqual(entries.map((_e, i) => i));
    });
  }
});

describe('tampered copies are not behaviours of the model: the first write no step can make is named', () => {
  const variant = variantNamed('v1.9.3');
  const v = manifest.variants['v1.9.3'].violations![0];
  // pause Cluster (source), create Cluster, create DockerCluster (target), annotate, remove
  // finalizers, EnsureFinalizer's patch (source).
  const entries = merged(k8s.auditLogsOf(stepsOf(variant, v)));
  const retimed = (list: Entry[]) =>
    list.map((e, i) => ({ ...e, event: { ...e.event, stageTimestamp: entries[Math.min(i, entries.length - 1)].event.stageTimestamp } }));

  it('the untampered log: six writes, in the mover order', () => {
    expect(entries.map((e) => `${e.server} ${e.event.verb} ${e.event.objectRef?.resource}`)).toEqual([
      'source patch clusters',
      'target create clusters',
      'target create dockerclusters',
      'source patch dockerclusters',
      'source patch dockerclusters',
      'source patch dockerclusters',
    ]);
    expect(check(variant, entries).verdict).toBe('conforms');
  });

  it('a changed body: the mover never removes finalizers to leave "other"', () => {
    const tampered = entries.map((e, i) =>
      i === 4 ? { ...e, event: { ...e.event, requestObject: { metadata: { finalizers: ['other'] } } } } : e,
    );
    const r = check(variant, tampered);
    expect([r.verdict, 'at' in r ? r.at : undefined]).toEqual(['diverges', 4]);
    if (r.verdict === 'diverges') expect(r.instead.map((x) => x.action)).toContain('mover.removeFinalizers(DockerCluster/c1)');
  });

  it('a removed request: the mover annotates before it removes finalizers', () => {
    const r = check(variant, retimed(entries.filter((_e, i) => i !== 3)));
    expect([r.verdict, 'at' in r ? r.at : undefined]).toEqual(['diverges', 3]);
    if (r.verdict === 'diverges') expect(r.instead.map((x) => x.action)).toContain('mover.addDeleteForMoveAnnotation(DockerCluster/c1)');
  });

  it('reordered requests: the mover creates the Cluster before its DockerCluster', () => {
    const swapped = [...entries];
    [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
    const r = check(variant, retimed(swapped));
    expect([r.verdict, 'at' in r ? r.at : undefined]).toEqual(['diverges', 1]);
    if (r.verdict === 'diverges') expect(r.instead.map((x) => x.action)).toContain('mover.createTargetObject(Cluster/c1)');
  });
});

describe('a long recorded run', () => {
  it('10,000 writes of a controller that never rests: conforms, each matched in order', () => {
    const variant = toggler() as Variant<unknown>;
    // One behaviour, walked step by step: the first enabled step each time.
    const steps: { action: string; events: StepEvent[] }[] = [];
    let s = [...variant.init()][0];
    let writes = 0;
    while (writes < 10_000) {
      let taken = false;
      for (const a of variant.actions) {
        for (const p of a.params ? a.params(s) : [undefined]) {
          const events: StepEvent[] = [];
          const t = a.next(s, p, events);
          if (t === undefined) continue;
          steps.push({ action: a.name, events });
          writes += events.filter((e) => e.kind === 'request').length;
          s = t;
          taken = true;
          break;
        }
        if (taken) break;
      }
      if (!taken) throw new Error('the toggler came to rest');
    }
    const logs = k8s.auditLogsOf(steps);
    expect(logs.get('main')!.events).toHaveLength(10_000);
    const r = k8s.checkRecordedRun(variant, [{ server: 'main', log: logs.get('main')! }], { kinds: new Set(['Thing']) }).result;
    expect(r.verdict).toBe('conforms');
  }, 120_000);
});

describe('matching a real client’s requests (found by review)', () => {
  const detail = (request: k8s.RequestDetail['request'], code = 200): k8s.RequestDetail =>
    ({
      server: 'main',
      request,
      response: code >= 300 ? { code, reason: 'no' } : { code, object: k8s.object({ kind: 'Widget', name: 'w' }), removed: false },
    }) as k8s.RequestDetail;
  const recorded = (verb: string, requestObject: unknown, code = 200): k8s.AuditEvent => ({
    level: 'RequestResponse',
    stage: 'ResponseComplete',
    verb,
    objectRef: { resource: 'widgets', namespace: 'prod', name: 'w', apiGroup: 'example.com' },
    responseStatus: { code },
    requestObject,
  });
  const kindOf = () => 'Widget';

  it('a create from a real client: its own API group, namespace and more fields match the model’s', () => {
    const body = k8s.object({ kind: 'Widget', name: 'w', finalizers: ['f'], spec: { size: 1 } });
    const real = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'prod', finalizers: ['f'], labels: { app: 'x' } },
      spec: { size: 1, extra: true },
    };
    expect(k8s.isRequestOf(detail({ verb: 'CREATE', key: 'Widget/w', body }, 201), recorded('create', real, 201), kindOf)).toBe(true);
    const other = { ...real, spec: { size: 2 } };
    expect(k8s.isRequestOf(detail({ verb: 'CREATE', key: 'Widget/w', body }, 201), recorded('create', other, 201), kindOf)).toBe(false);
  });

  it("a merge patch: controller-runtime's null for an emptied list matches; a field the patch leaves out matches nothing the model sets", () => {
    const emptied = detail({ verb: 'PATCH', key: 'Widget/w', body: { finalizers: [] } });
    expect(k8s.isRequestOf(emptied, recorded('patch', { metadata: { finalizers: null } }), kindOf)).toBe(true);
    expect(k8s.isRequestOf(emptied, recorded('patch', { metadata: { labels: { a: 'b' } } }), kindOf)).toBe(false);
    const unlabel = detail({ verb: 'PATCH', key: 'Widget/w', body: { labels: { a: null } } });
    expect(k8s.isRequestOf(unlabel, recorded('patch', { metadata: { labels: { b: 'c' } } }), kindOf)).toBe(false);
    expect(k8s.isRequestOf(unlabel, recorded('patch', { metadata: { labels: { a: null } } }), kindOf)).toBe(true);
  });

  it('kinds a model only creates are its kinds too (backupOperator creates its Job)', () => {
    const backup = backupModel.variants[0] as Variant<unknown>;
    expect(k8s.serversAndKinds(backup)).toEqual({ servers: ['main'], kinds: ['Backup', 'Job'] });
  });

  it('writes in several namespaces: undecided until the model’s is named', () => {
    const variant = toggler() as Variant<unknown>;
    const write = (ns: string) => ({
      event: { ...recorded('patch', {}), objectRef: { resource: 'things', namespace: ns, name: 'o' } },
      at: { line: 1 },
    });
    const log = { events: [write('a'), write('b')], notEvents: [] };
    const r = k8s.checkRecordedRun(variant, [{ server: 'main', log }], { kinds: new Set(['Thing']) });
    expect(r.result).toMatchObject({ verdict: 'undecided', why: expect.stringContaining('in 2 namespaces (a, b)') });
  });
});

describe("followLog's answer where a step sends several observed events", () => {
  // One step sends A then B; the log is A, C: A matched, then B where C was recorded.
  const variant: Variant<number> = {
    name: 'two',
    init: () => [0],
    actions: [
      {
        name: 'both',
        next: (s: number, _p: unknown, events?: StepEvent[]) => {
          if (s !== 0) return undefined;
          events?.push({ kind: 'note', text: 'A' }, { kind: 'note', text: 'B' });
          return 1;
        },
      },
    ],
    properties: [],
  };
  it('names the second observation, and the event the step sent there', () => {
    const r = followLog(variant, ['A', 'C'], { observed: () => true, matches: (e, o) => e.kind === 'note' && e.text === o });
    expect(r).toMatchObject({ verdict: 'diverges', at: 1, instead: [{ event: { text: 'B' }, action: 'both' }] });
    expect(followLog(variant, ['A', 'B'], { observed: () => true, matches: (e, o) => e.kind === 'note' && e.text === o }).verdict).toBe(
      'conforms',
    );
  });
});
