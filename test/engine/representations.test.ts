// The table of representations (src/engine/values/representations/): which one owns a value,
// how the reports see it, that the two byte formats give each tag to one representation, and
// that nothing outside the values folder tests which representation a value is.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { List, Map, OrderedMap, OrderedSet, Record, Seq, Set } from 'immutable';
import { describe, expect, it } from 'vitest';
import { FlatRecord, packed } from '../../src/index.ts';
import { REPRESENTATIONS, representationOf, sameValue, viewOf } from '../../src/engine/values/representations/table.ts';
import { C, R } from '../../src/engine/values/representations/tags.ts';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';

const Point = Record({ x: 0, y: 0 }, 'Point');
const Pod = FlatRecord({ name: '', phase: 'Pending' }, 'Pod');
const Msg = packed.record('RepMsg', { type: packed.oneOf('req', 'ack'), clock: packed.int(0, 3) });

describe('which representation owns a value', () => {
  it('asks FlatRecord before immutable.js (a FlatRecord is a Record too), and knows each kind', () => {
    expect(REPRESENTATIONS.map((r) => r.name)).toEqual(['packed', 'FlatRecord', 'immutable.js', 'plain']);
    const owner = (v: object) => representationOf(v)?.name;
    expect(owner(Pod({ name: 'a' }))).toBe('FlatRecord');
    expect(owner(Point())).toBe('immutable.js');
    for (const v of [List(), Map(), OrderedMap(), Set(), OrderedSet()]) expect(owner(v)).toBe('immutable.js');
    expect(owner(Msg({ type: 'ack', clock: 2 }))).toBe('packed');
    expect(owner([])).toBe('plain');
    expect(owner({ a: 1 })).toBe('plain');
    expect(owner(Object.create(null))).toBe('plain');
    expect(owner(new Date(0))).toBeUndefined();
    expect(owner(Seq([1]))).toBeUndefined();
  });
});

describe('how the reports see a value', () => {
  it('shows a FlatRecord, an immutable.js Record and a packed record as records, the packed one with every field meaningful', () => {
    const pod = viewOf(Pod({ name: 'a' }));
    expect(pod.kind).toBe('record');
    if (pod.kind !== 'record') return;
    expect(pod.fields).toEqual([
      ['name', 'a'],
      ['phase', 'Pending'],
    ]);
    expect(pod.defaultOf?.('phase')).toBe('Pending');
    const msg = viewOf(Msg({ type: 'req', clock: 1 }));
    expect(msg.kind === 'record' && msg.fields).toEqual([
      ['type', 'req'],
      ['clock', 1],
    ]);
    // A packed type's defaults are its types' first values, not "absent": no field is left out.
    expect(msg.kind === 'record' && msg.defaultOf).toBeUndefined();
  });

  it('tells ordered collections from unordered ones, and plain arrays from Lists', () => {
    expect(viewOf(OrderedMap([['b', 1]]))).toMatchObject({ kind: 'map', ordered: true, entries: [['b', 1]] });
    expect(viewOf(Map([['b', 1]]))).toMatchObject({ kind: 'map', ordered: false });
    expect(viewOf(Set([1]))).toMatchObject({ kind: 'set', ordered: false, items: [1] });
    expect(viewOf(List([1, 2]))).toEqual({ kind: 'list', items: [1, 2] });
    expect(viewOf([1, 2])).toEqual({ kind: 'array', items: [1, 2] });
    expect(viewOf({ a: 1 })).toEqual({ kind: 'object', value: { a: 1 } });
    expect(viewOf('x')).toEqual({ kind: 'scalar', value: 'x' });
  });

  it('compares plain values by content and the others as immutable.js does', () => {
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(sameValue([1], List([1]))).toBe(false);
    expect(sameValue(Pod({ name: 'a' }), Pod({ name: 'a' }))).toBe(true);
    expect(sameValue(Msg({ type: 'ack', clock: 1 }), Msg({ type: 'ack', clock: 1 }))).toBe(true);
    expect(sameValue(Msg({ type: 'ack', clock: 1 }), Msg({ type: 'ack', clock: 2 }))).toBe(false);
  });
});

describe('the byte formats', () => {
  it('gives each canonical tag one meaning', () => {
    const values = Object.values(C);
    expect(new globalThis.Set(values).size).toBe(values.length);
  });

  it('gives each codec tag to one representation, none of them a tag of the frame (scalars, strings, the same as before)', () => {
    const frame = [R.NULL, R.FALSE, R.TRUE, R.INT, R.FLOAT, R.STRING, R.SAME];
    const owned = REPRESENTATIONS.flatMap((r) => r.atRest.tags);
    expect(new globalThis.Set(owned).size).toBe(owned.length);
    for (const t of frame) expect(owned).not.toContain(t);
  });

  it('round-trips a value of every representation through the codec, and refuses one of none', () => {
    const codec = new StateCodec();
    const state = {
      pods: List([Pod({ name: 'a' }), Pod({ name: 'b', phase: 'Running' })]),
      points: OrderedMap([['p', Point({ x: 1 })]]),
      msgs: [Msg({ type: 'req', clock: 3 })],
      tags: Set(['x', 'y']),
    };
    const n = codec.encode(state);
    const back = codec.decode(codec.bytes.slice(0, n), 0, n);
    expect(sameValue(back, state)).toBe(true);
    expect(() => codec.encode({ when: new Date(0) })).toThrow(/not an immutable.js collection or Record/);
  });
});

/** Every .ts file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('one seam', () => {
  it('leaves the tests of a value representation to src/engine/values/: the search, the reports and the CLI ask the table', () => {
    const test = /\b(isRecord|isList|isMap|isSet|isOrdered|isImmutable|isPlainObject|isFlatRecord|isPacked)\(|instanceof PackedValue/;
    const offenders = ['src/engine/search', 'src/report', 'src/cli']
      .flatMap((dir) => sources(dir))
      .filter((path) => test.test(readFileSync(path, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
