// A Record type written as a class, `class Point extends Record({ x: 0, y: 0 }, 'Point')`, as
// immutable.js's documentation shows it: the state codec (states kept as bytes) must rebuild it
// as an instance of that class, and the reports must print it. Both once called the class
// without `new`, which a class constructor refuses.
import { describe, expect, it } from 'vitest';
import { is, List, Map, Record } from 'immutable';
import { FlatRecord } from 'modelcheck';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { diff, formatValue } from '../../src/report/diff.ts';

class ImmPoint extends Record({ x: 0, y: 0 }, 'ImmPoint') {
  get sum(): number {
    return this.x + this.y;
  }
}
class FlatPoint extends FlatRecord({ x: 0, y: 0 }, 'FlatPoint') {
  get sum(): number {
    return this.x + this.y;
  }
}

describe.each([
  ['an immutable.js Record', ImmPoint],
  ['a FlatRecord', FlatPoint],
] as const)('a class extending %s', (_, Point) => {
  const states = [List([new Point({ x: 1 })]), List([new Point({ x: 1, y: 2 })])];

  it('is rebuilt by the state codec as an instance of the class, alone and against the previous state', () => {
    const codec = new StateCodec();
    let prev: unknown;
    for (const s of states) {
      const n = codec.encode(s, undefined);
      const back = codec.decode(codec.bytes.slice(0, n), 0, n, prev) as List<InstanceType<typeof Point>>;
      expect(back.get(0)).toBeInstanceOf(Point);
      expect(is(back, s)).toBe(true);
      expect(back.get(0)!.sum).toBe(s.get(0)!.sum);
      prev = back;
    }
  });

  it('is printed with the fields that differ from its defaults', () => {
    expect(formatValue(new Point({ y: 2 }))).toBe('{y: 2}');
    const changes = diff(Map({ p: new Point({ x: 1 }) }), Map({ p: new Point({ x: 1, y: 2 }) }));
    expect(changes.map((c) => [c.path, formatValue(c.before), formatValue(c.after)])).toEqual([[['p', 'y'], '0', '2']]);
  });
});
