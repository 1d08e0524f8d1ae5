// A counterexample as readers see it (src/report/steps.ts) and the diff under it
// (src/report/diff.ts): what each step changed, in the view's order, with subjects and fields.
import { describe, expect, it } from 'vitest';
import { List, OrderedMap, Record } from 'immutable';
import { check, checkVariant, packed } from 'modelcheck';
import { diff, formatValue, leaves } from '../../src/report/diff.ts';
import { stateToJson } from '../../src/report/stateJson.ts';
import { changeText, readCounterexample } from '../../src/report/steps.ts';
import dieHard from '../fixtures/dieHard.ts';
import { finalizerRace } from '../fixtures/k8s/tiny.ts';
import { DIE_HARD_STEPS } from '../fixtures/dieHardSolution.ts';

describe('reading a counterexample', () => {
  it('gives each Die Hard step its actor and its changes, and the initial state whole', () => {
    const [v] = check(dieHard).variants;
    const r = readCounterexample(v.violations[0]);
    expect(r.steps.map((s) => s.actor)).toEqual([null, ...DIE_HARD_STEPS]);
    expect(r.steps[0].changes.map((c) => changeText(c, false))).toEqual(['small: added 0', 'big: added 0']);
    // TLC's third state: small 3, big 2 after BigToSmall from (0, 5).
    expect(r.steps[2].changes.map((c) => changeText(c, false))).toEqual(['small: 0 -> 3', 'big: 5 -> 2']);
  });

  it("fills in a request's sender from the step's actor", () => {
    const r = checkVariant(finalizerRace(['removeFinalizers', 'delete']));
    const steps = readCounterexample(r.violations[0]).steps;
    expect(steps[1].events?.map((e) => (e.kind === 'request' ? { ...e, detail: undefined } : e))).toEqual([
      {
        kind: 'request',
        from: 'actor',
        to: 'main API server',
        request: 'PATCH Thing/o (merge) {"metadata":{"finalizers":[]}}',
        answer: '200 OK',
        ok: true,
        detail: undefined,
      },
    ]);
  });
});

describe('diffs over a view', () => {
  const before = OrderedMap<string, unknown>([
    ['a Thing/x', OrderedMap([['metadata.finalizers', '[f]']])],
    ['gone', 1],
    ['b queue', '[]'],
  ]);
  const after = OrderedMap<string, unknown>([
    ['a Thing/x', OrderedMap([['metadata.finalizers', '[]']])],
    ['a Thing/y', OrderedMap([['metadata.finalizers', '[]']])],
    ['b queue', '[Thing/x]'],
  ]);

  it("lists changes in the new view's order, a removed entry right after the entry it followed", () => {
    expect(diff(before, after).map((c) => changeText(c, true))).toEqual([
      'a Thing/x metadata.finalizers: [f] -> []',
      'gone: removed 1',
      'a Thing/y: added {metadata.finalizers: []}',
      'b queue: [] -> [Thing/x]',
    ]);
  });

  it('joins a raw state path with dots, and a Record inside a view under its subject', () => {
    const M = Record({ step: 'get', index: 0 });
    expect(diff(OrderedMap({ mover: M() }), OrderedMap({ mover: M({ step: 'delete' }) })).map((c) => changeText(c, true))).toEqual([
      'mover step: get -> delete',
    ]);
    expect(diff(M(), M({ index: 2 })).map((c) => changeText(c, false))).toEqual(['index: 0 -> 2']);
  });
});

describe('diffs of plain arrays and objects', () => {
  it('goes into plain objects field by field, tells an equal copy from a change, and reads an array as a queue', () => {
    const before = { jugs: { small: 3, big: 0 }, log: ['a', 'b'], same: [{ x: 1 }] };
    const after = { log: ['b', 'c'], jugs: { big: 5, small: 3 }, same: [{ x: 1 }], extra: null };
    expect(diff(before, after).map((c) => changeText(c, false))).toEqual([
      'jugs.big: 0 -> 5',
      'log: took a; appended c',
      'extra: added null',
    ]);
    expect(diff({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toEqual([]);
  });

  it('sees no change in equal Lists of plain values, however immutable.js compares them', () => {
    // immutable.js compares the plain objects inside by identity: `is` calls these Lists different.
    expect(diff({ q: List([{ x: 1 }]) }, { q: List([{ x: 1 }]) })).toEqual([]);
    expect(diff({ q: List([{ x: 1 }]) }, { q: List([{ x: 1 }, { x: 2 }]) }).map((c) => changeText(c, false))).toEqual([
      'q: appended {x: 2}',
    ]);
  });

  it("reads only an object's own keys: a key named toString is added, not changed", () => {
    expect(diff({}, { toString: 1 }).map((c) => changeText(c, false))).toEqual(['toString: added 1']);
    expect(diff({ toString: 1 }, {}).map((c) => changeText(c, false))).toEqual(['toString: removed 1']);
  });

  it('shows an empty object in an initial state, and prints equal objects alike whatever their key order', () => {
    expect(leaves({ a: {}, b: { c: 1 } }).map((c) => c.path.join('.'))).toEqual(['a', 'b.c']);
    expect(formatValue({ b: 2, a: 1 })).toBe(formatValue({ a: 1, b: 2 }));
    expect(formatValue({ b: 2, a: 1 })).toBe('{a: 1, b: 2}');
  });
});

describe('plain values as JSON', () => {
  it("writes a plain object's keys in one order, and keeps a key named __proto__ a key", () => {
    expect(JSON.stringify(stateToJson({ b: 1, a: [{ d: 1, c: 2 }] }))).toBe('{"a":[{"c":2,"d":1}],"b":1}');
    const odd = JSON.parse('{"__proto__": 5, "x": 1}') as object;
    expect(Object.keys(odd)).toEqual(['__proto__', 'x']);
    expect(JSON.stringify(stateToJson(odd))).toBe('{"__proto__":5,"x":1}');
  });
});

describe('packed records in a trace', () => {
  // A message queue of packed records: a message whose type is its type's first value ('req')
  // must print that field too, as every other: a packed type's defaults are not "absent".
  const Msg = packed.record('QueueMsg', { type: packed.oneOf('req', 'ack'), clock: packed.int(0, 3) });
  const Q = packed.record('QueueState', { q: packed.seqOf(Msg, 2), last: Msg });

  it('shows every field of a packed record inside a sequence, and of one on its own', () => {
    const s = Q({ q: [], last: { type: 'ack', clock: 0 } });
    const t = s.set('q', [{ type: 'req', clock: 1 }]).set('last', { type: 'req', clock: 0 });
    const changes = diff(s, t).map((c) => changeText(c, false));
    expect(changes).toEqual(['q: appended {type: req, clock: 1}', 'last.type: ack -> req']);
    expect(formatValue(t.q)).toBe('[{type: req, clock: 1}]');
    expect(formatValue(t.last)).toBe('{type: req, clock: 0}');
  });

  it('still leaves out the fields of an immutable.js Record at the defaults its author chose', () => {
    const Obj = Record({ name: '', finalizers: List<string>() }, 'Obj');
    expect(formatValue(Obj({ name: 'o' }))).toBe('{name: o}');
  });
});
