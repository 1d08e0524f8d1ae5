// The explorer's watch expressions (src/explore/watch.ts) and its description of initial states
// (src/explore/initials.ts), on values built here.
import { describe, expect, it } from 'vitest';
import { List, Map as IMap, Record } from 'immutable';
import { describeInitials } from '../../src/explore/initials.ts';
import { WatchExpression, WatchSyntaxError } from '../../src/explore/watch.ts';

describe('watch expressions', () => {
  const at = (source: string, state: unknown, view: unknown = null) => new WatchExpression(source).at(state, view as never);

  it('reads plain objects, immutable.js values and Maps, and answers JSON', () => {
    const Point = Record({ x: 1, y: 2 });
    expect(at('state.a.b + 1', { a: { b: 41 } })).toEqual({ value: 42 });
    expect(at('state.get("p").x', IMap({ p: Point() }))).toEqual({ value: 1 });
    expect(at('[...state.keys()]', new Map([['k', 1]]))).toEqual({ value: ['k'] });
    // An object the expression builds is JSON here, though the vm's realm made it.
    expect(at('({ n: view.length, first: view[0] })', null, ['x', 'y'])).toEqual({ value: { n: 2, first: 'x' } });
    expect(at('state.missing', {})).toEqual({ value: 'undefined' });
  });

  it('cannot change the state, by assignment, by a method or through a Map', () => {
    const refused = { error: 'a watch expression reads the state and cannot change it' };
    const state = { list: [1, 2], inner: { n: 1 }, map: new Map([['k', 1]]), set: new Set([1]) };
    expect(at('state.inner.n = 2', state)).toEqual(refused);
    expect(at('delete state.inner.n', state)).toEqual(refused);
    expect(at('state.list.push(3)', state)).toEqual(refused);
    expect(at('state.list.sort((a, b) => b - a)', state)).toEqual(refused);
    expect(at('state.map.set("k", 2)', state)).toEqual(refused);
    expect(at('state.set.clear()', state)).toEqual(refused);
    expect(at('Object.defineProperty(state, "x", { value: 1 })', state)).toEqual(refused);
    expect(state).toEqual({ list: [1, 2], inner: { n: 1 }, map: new Map([['k', 1]]), set: new Set([1]) });
    // Reading through methods is fine.
    expect(at('state.list.map((x) => x * 2)', state)).toEqual({ value: [2, 4] });
    expect(at('state.map.get("k")', state)).toEqual({ value: 1 });
  });

  it("cannot change the state through a callback of the state's own methods, a descriptor, or a frozen state", () => {
    const refused = { error: 'a watch expression reads the state and cannot change it' };
    const list = List([[3, 1, 2]]);
    expect(at('(state.forEach((a) => { a.sort() }), 1)', list)).toEqual(refused);
    expect(list.get(0)).toEqual([3, 1, 2]);
    const map = IMap({ x: [1, 2] });
    expect(at('state.reduce((n, v) => (v.push(9), n), 0)', map)).toEqual(refused);
    expect(map.get('x')).toEqual([1, 2]);
    const native = new Map([['k', [1]]]);
    expect(at('(state.forEach((v, k, m) => m.set(k, 2)), 1)', native)).toEqual(refused);
    expect(at('Object.getOwnPropertyDescriptor(state, "a").value.push(3)', { a: [1] })).toEqual(refused);
    // A frozen state (as plain states are kept) reads as any other.
    const frozen = Object.freeze({ pods: Object.freeze([Object.freeze({ name: 'p1' })]) });
    expect(at('[state.pods.length, state.pods[0].name, Object.keys(state)]', frozen)).toEqual({ value: [1, 'p1', ['pods']] });
    expect(at('state.pods.push(1)', frozen)).toEqual(refused);
  });

  it('stops whatever runs too long (a getter read for the answer, a promise job), and refuses a list too long to show', () => {
    const limit = { error: 'it ran for more than 1000 ms' };
    expect(at('({ get a() { for (;;) {} } })', {})).toEqual(limit);
    expect(at('(Promise.resolve().then(() => { for (;;) {} }), 1)', {})).toEqual(limit);
    expect(at('Array(2 ** 32 - 1)', {})).toEqual({ error: 'its answer has 4294967295 items; a watch shows at most 100000 characters' });
  }, 20_000);

  it('refuses an answer too large to show, and leaves the rest of a slow path unevaluated', () => {
    expect(at('"x".repeat(200000)', {})).toEqual({ error: 'its answer is 200002 characters of JSON; a watch shows at most 100000' });
    // Each state takes 300 ms of the clock at least; over a path's budget of 500 ms, the first
    // state is evaluated, the second perhaps (it starts at 300 ms or later), no more.
    const slow = new WatchExpression('(() => { const t = Date.now(); while (Date.now() - t < 300) {} return 1; })()');
    const values = slow.along(
      Array.from({ length: 6 }, () => ({ state: {}, view: null })),
      500,
    );
    const evaluated = values.filter((v) => 'value' in v).length;
    expect(values[0]).toEqual({ value: 1 });
    expect(evaluated).toBeLessThanOrEqual(2);
    expect(values.slice(evaluated)).toEqual(
      Array.from({ length: 6 - evaluated }, () => ({
        error: 'not evaluated: the expression ran for more than 500 ms over the states before this one',
      })),
    );
  }, 30_000);

  it('stops an expression that runs too long, and refuses one that is not an expression', () => {
    expect(at('(() => { for (;;) {} })()', {})).toEqual({ error: 'it ran for more than 1000 ms' });
    expect(() => new WatchExpression('state.a; state.b')).toThrow(WatchSyntaxError);
    expect(() => new WatchExpression('state.a; state.b')).toThrow('the watch expression "state.a; state.b" cannot be read');
  });
});

describe('initial states told apart', () => {
  it('names the fewest fields that tell every two apart; the others follow from them', () => {
    // Four states: a cache's resourceVersion (1 or 2) and the same cache's copy of it, which
    // follows; and a paused flag (true or false). Two fields tell all four apart.
    const views = [
      { 'cache Cluster/c1': { rv: 1, copy: 'rv 1' }, 'source Cluster/c1': { paused: false } },
      { 'cache Cluster/c1': { rv: 1, copy: 'rv 1' }, 'source Cluster/c1': { paused: true } },
      { 'cache Cluster/c1': { rv: 2, copy: 'rv 2' }, 'source Cluster/c1': { paused: false } },
      { 'cache Cluster/c1': { rv: 2, copy: 'rv 2' }, 'source Cluster/c1': { paused: true } },
    ];
    const d = describeInitials(views, ['init(1)', 'init(2)', 'init(3)', 'init(4)']);
    // rv and copy split alike: rv is named, its values being shorter.
    expect(d.initials.map((s) => s.differences.map((x) => `${x.field} = ${x.value}`))).toEqual([
      ['cache Cluster/c1 rv = 1', 'source Cluster/c1 paused = false'],
      ['cache Cluster/c1 rv = 1', 'source Cluster/c1 paused = true'],
      ['cache Cluster/c1 rv = 2', 'source Cluster/c1 paused = false'],
      ['cache Cluster/c1 rv = 2', 'source Cluster/c1 paused = true'],
    ]);
    expect(d.alsoDiffering).toBe(1);
  });

  it('says an object absent from some states is absent', () => {
    const d = describeInitials([{ 'source Machine/m1': { phase: 'Running' } }, {}], ['init(1)', 'init(2)']);
    expect(d.initials.map((s) => s.differences)).toEqual([
      [{ field: 'source Machine/m1 phase', value: 'Running' }],
      [{ field: 'source Machine/m1 phase', value: '(absent)' }],
    ]);
  });
});
