// FlatRecord (src/engine/values/flatRecord.ts): a drop-in for immutable.js's Record with its fields in
// one array. The reference is immutable.js itself: every operation is run on a FlatRecord and
// on an immutable.js Record with the same defaults and name, and the two must agree (printed
// form, plain form, equality, hash, identity of a write that changes nothing), read the same to
// the checker (fingerprint, canonical bytes, codec) and to the reports. The move model's counts
// with its Records as FlatRecords are checked against the upstream-derived figures in
// test/k8s and test/docs (the docs manifests), unchanged.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { getIn, is, isRecord, List, Map, Record, Set, type RecordOf } from 'immutable';
import { Fingerprinter, FlatRecord } from 'modelcheck';
import { CanonicalEncoder } from '../../src/engine/values/encoding.ts';
import { fieldIndex, valueAt, valuesOf, withValueAt, withValues } from '../../src/engine/values/flatRecord.ts';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { diff, formatValue, leaves } from '../../src/report/diff.ts';
import { stateToJson } from '../../src/report/stateJson.ts';
import { toItfValue } from '../../src/report/itf.ts';

interface PodProps {
  name: string;
  phase: string;
  labels: Map<string, string>;
  restarts: number;
  owner: string | null;
}
const defaults: PodProps = { name: '', phase: 'Pending', labels: Map<string, string>(), restarts: 0, owner: null };
const Flat = FlatRecord<PodProps>(defaults, 'Pod');
const Imm = Record<PodProps>(defaults, 'Pod');
type Pod = RecordOf<PodProps>;

/** The canonical bytes of a value, from a fresh encoder (an encoder refuses two Record types of one name). */
function bytes(v: unknown): string {
  const full = new CanonicalEncoder('full');
  return Buffer.from(full.bytes.subarray(0, full.encode(v))).toString('hex');
}

describe('FlatRecord reads and writes as an immutable.js Record', () => {
  const both = [Flat, Imm] as const;

  it('builds from defaults, a plain object (unknown keys and undefined ignored), a Map, or itself', () => {
    for (const R of both) {
      expect(String(R())).toBe('Pod { name: "", phase: "Pending", labels: Map {}, restarts: 0, owner: null }');
      const p = R({ name: 'p', restarts: 2, phase: undefined, zone: 'z' } as Partial<PodProps>);
      expect(String(p)).toBe('Pod { name: "p", phase: "Pending", labels: Map {}, restarts: 2, owner: null }');
      expect(R(Map({ name: 'q' }) as never).name).toBe('q');
      expect(R(p)).toBe(p);
      expect(new R({ name: 'n' }).name).toBe('n');
      expect(p instanceof R && p instanceof Record && isRecord(p)).toBe(true);
      expect(Record.getDescriptiveName(p)).toBe('Pod');
    }
  });

  it('set, remove, clear, merge, update, setIn, updateIn, getIn, deleteIn give what immutable.js gives', () => {
    const ops: ((p: Pod) => unknown)[] = [
      (p) => p.set('phase', 'Running'),
      (p) => p.remove('phase'),
      (p) => p.delete('restarts'),
      (p) => p.clear(),
      (p) => p.merge({ phase: 'Failed', restarts: 3 }),
      (p) => p.merge(Map({ owner: 'rs' })),
      // A field not declared is ignored; undefined stands for the default; a later key of the object wins in its order.
      (p) => p.merge({ zone: 'z', restarts: undefined, name: 'q', phase: 'Failed' } as never),
      (p) => p.merge({}, { restarts: 4 }),
      (p) => p.merge({ name: 'p' }) === p,
      (p) => p.merge({ labels: Map({ app: 'db' }) }) === p,
      (p) => p.update('restarts', (n) => n + 1),
      (p) => p.setIn(['labels', 'app'], 'web'),
      (p) => p.updateIn(['labels', 'tier'], (x) => `${x ?? 'none'}!`),
      (p) => p.getIn(['labels', 'app']),
      (p) => p.setIn(['labels', 'app'], 'web').deleteIn(['labels', 'app']),
      (p) => p.get('nothing' as never, 'not set'),
      (p) => p.has('phase') && !p.has('nothing' as never),
      (p) => JSON.stringify(p.toJS()),
      (p) => JSON.stringify(p),
      (p) => JSON.stringify(p.toObject()),
      (p) => [...p.toSeq().keys()].join(),
      (p) => [...p].length,
      (p) => p.withMutations((d) => d.set('phase', 'Running').set('restarts', 7)),
      (p) => getIn(p, ['labels', 'app'], 'no app'),
    ];
    const start = { name: 'p', labels: Map({ app: 'db' }) };
    for (const op of ops) {
      const f = op(Flat(start));
      const i = op(Imm(start));
      expect(String(f)).toBe(String(i));
      expect(isRecord(f)).toBe(isRecord(i));
    }
  });

  it('a write that changes nothing gives the record itself (what keeps its digest)', () => {
    for (const R of both) {
      const p = R({ name: 'p' });
      expect(p.set('name', 'p')).toBe(p);
      expect(p.set('phase', undefined as never)).toBe(p);
      expect(p.set('nothing' as never, 1 as never)).toBe(p);
      expect(p.withMutations(() => {})).toBe(p);
      expect(p.withMutations((d) => d.set('name', 'p'))).toBe(p);
    }
  });

  it('withMutations writes a draft, never the source; nested drafts are the same draft; a finished one is immutable', () => {
    const p = Flat({ name: 'p' });
    let draft: Pod | undefined;
    const q = p.withMutations((d) => {
      draft = d;
      d.set('restarts', 1);
      d.withMutations((e) => {
        expect(e).toBe(d);
        e.set('phase', 'Running');
      });
    });
    expect(q).toBe(draft);
    expect(String(p)).toBe('Pod { name: "p", phase: "Pending", labels: Map {}, restarts: 0, owner: null }');
    expect(String(q)).toBe('Pod { name: "p", phase: "Running", labels: Map {}, restarts: 1, owner: null }');
    expect(q.set('restarts', 2)).not.toBe(q);
    expect(q.restarts).toBe(1);
    expect(() => {
      (q as { restarts: number }).restarts = 5;
    }).toThrow('Cannot set on an immutable record.');
  });

  it('equality and hashes agree with immutable.js, within and across the two kinds', () => {
    const f = Flat({ name: 'p', labels: Map({ a: 'b' }) });
    const g = Flat({ name: 'p' }).setIn(['labels', 'a'], 'b');
    const i = Imm({ name: 'p', labels: Map({ a: 'b' }) });
    expect(is(f, g) && f.equals(g) && f.hashCode() === g.hashCode()).toBe(true);
    expect(is(f, i) && is(i, f) && f.hashCode() === i.hashCode()).toBe(true);
    expect(is(f, f.set('restarts', 1))).toBe(false);
    expect(Set([f, g, f.set('restarts', 1)]).size).toBe(2);
    expect(Map([[f, 1]]).get(g)).toBe(1);
    expect(List([f]).equals(List([g]))).toBe(true);
  });

  it('calling the factory with a record as `this` makes a new record (immutable.js re-initializes that record)', () => {
    const p = Flat({ name: 'p' });
    const made = (p.constructor as unknown as (this: unknown) => Pod).call(p);
    expect(made.name).toBe('');
    expect(p.name).toBe('p');
  });

  it('refuses a field named like a Record method, and defaults that are not an object', () => {
    expect(() => FlatRecord({ get: 1 }, 'Bad')).toThrow('FlatRecord Bad: a field cannot be named get (a Record method or internal)');
    expect(() => FlatRecord({ _v: 1 }, 'Bad')).toThrow('a field cannot be named _v');
    expect(() => FlatRecord(null as never, 'Bad')).toThrow('FlatRecord Bad: the defaults must be a plain object of fields');
  });
});

describe('the checker reads a FlatRecord as the immutable.js Record of the same name and fields', () => {
  const values = [Flat(), Flat({ name: 'p', labels: Map({ app: 'web' }), owner: 'rs' }), Flat().set('restarts', 300)];

  it('same canonical bytes and fingerprint, alone and inside collections', () => {
    for (const v of values) {
      const imm = Imm(v.toObject());
      expect(bytes(v)).toBe(bytes(imm));
      expect(new Fingerprinter().hex(v)).toBe(new Fingerprinter().hex(imm));
      expect(new Fingerprinter().hex(Map({ k: v }))).toBe(new Fingerprinter().hex(Map({ k: imm })));
    }
    expect(new Fingerprinter().hex(values[0])).not.toBe(new Fingerprinter().hex(values[2]));
  });

  it('the state codec rebuilds it (a FlatRecord again), and gives back the previous one when equal', () => {
    const codec = new StateCodec();
    let prevIn: unknown;
    let prevOut: unknown;
    for (const s of values) {
      const n = codec.encode(s, prevIn);
      const back = codec.decode(codec.bytes.slice(0, n), 0, n, prevOut);
      expect(back instanceof Flat).toBe(true);
      expect(is(back, s)).toBe(true);
      prevIn = s;
      prevOut = back;
    }
    const n = codec.encode(values[2], values[2]);
    expect(codec.decode(codec.bytes.slice(0, n), 0, n, prevOut)).toBe(prevOut);
  });

  it('the reports print it as they print the immutable.js Record', () => {
    const [a, b] = values;
    const [ia, ib] = values.map((v) => Imm(v.toObject()));
    expect(diff(a, b)).toEqual(diff(ia, ib));
    expect(leaves(b)).toEqual(leaves(ib));
    expect(formatValue(b)).toBe(formatValue(ib));
    expect(stateToJson(b)).toEqual(stateToJson(ib));
    expect(toItfValue(b)).toEqual(toItfValue(ib));
  });
});

describe('any sequence of writes gives what immutable.js gives', () => {
  const write = fc.oneof(
    fc.record({ field: fc.constant('phase' as const), to: fc.constantFrom('Pending', 'Running', undefined) }),
    fc.record({ field: fc.constant('restarts' as const), to: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ field: fc.constant('owner' as const), to: fc.constantFrom(null, 'rs', 'job') }),
    fc.record({ field: fc.constant('labels' as const), to: fc.constantFrom('a', 'b') }),
  );
  type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;
  const apply = (p: Pod, w: Write): Pod => (w.field === 'labels' ? p.setIn(['labels', w.to], 'x') : p.set(w.field, w.to as never));

  it('same printed form, same equality with each other and with immutable.js, same fingerprints', () => {
    fc.assert(
      fc.property(fc.array(write, { maxLength: 8 }), fc.array(write, { maxLength: 8 }), fc.boolean(), (xs, ys, drafted) => {
        const run = (R: typeof Flat | typeof Imm, ws: Write[]) =>
          drafted ? R().withMutations((d) => ws.reduce(apply, d)) : ws.reduce(apply, R());
        const fx = run(Flat, xs);
        const fy = run(Flat, ys);
        const ix = run(Imm, xs);
        const iy = run(Imm, ys);
        expect(String(fx)).toBe(String(ix));
        expect(is(fx, fy)).toBe(is(ix, iy));
        expect(is(fx, ix)).toBe(true);
        const f = new Fingerprinter();
        expect(f.hex(fx) === f.hex(fy)).toBe(is(ix, iy));
      }),
      { numRuns: 300 },
    );
  });
});

describe('paths (getIn, setIn, updateIn, deleteIn) give what immutable.js gives, missing levels included', () => {
  interface NodeProps {
    pods: Map<string, Pod>;
    tag: string;
  }
  const FlatNode = FlatRecord<NodeProps>({ pods: Map<string, Pod>(), tag: '' }, 'Node');
  const ImmNode = Record<NodeProps>({ pods: Map<string, Pod>(), tag: '' }, 'Node');
  const key = fc.constantFrom('a', 'b', 'missing');
  const field = fc.constantFrom('phase', 'restarts', 'nothing');
  const op = fc.oneof(
    fc.record({ kind: fc.constant('setIn' as const), key, field, to: fc.constantFrom('Running', 5, undefined) }),
    fc.record({ kind: fc.constant('updateIn' as const), key, field, notSet: fc.boolean() }),
    fc.record({ kind: fc.constant('updatePod' as const), key }),
    fc.record({ kind: fc.constant('deleteIn' as const), key, field: fc.option(field) }),
    fc.record({ kind: fc.constant('same' as const), key }),
    fc.record({ kind: fc.constant('reentrant' as const), key }),
  );
  type Op = typeof op extends fc.Arbitrary<infer O> ? O : never;
  type WithNotSet<T> = { updateIn(path: unknown[], notSetValue: unknown, f: (x: unknown) => unknown): T };
  const run = (R: typeof FlatNode | typeof ImmNode, P: typeof Flat | typeof Imm, ops: Op[]) => {
    let n = R({ pods: Map({ a: P({ name: 'a' }), b: P({ name: 'b', restarts: 1 }) }), tag: 't' });
    const seen: string[] = [];
    for (const o of ops) {
      const before = n;
      switch (o.kind) {
        case 'setIn':
          n = n.setIn(['pods', o.key, o.field], o.to);
          break;
        case 'updateIn':
          n = o.notSet
            ? // (immutable.js's Record typings leave out the notSetValue form its Records have)
              (n as unknown as WithNotSet<typeof n>).updateIn(['pods', o.key, o.field], 0, (x) => `${String(x)}+`)
            : n.updateIn(['pods', o.key, o.field], (x) => `${String(x)}!`);
          break;
        case 'updatePod':
          n = n.updateIn(['pods', o.key], (p) => (p === undefined ? P({ name: 'new' }) : (p as Pod).set('owner', 'rs')));
          break;
        case 'deleteIn':
          n = n.deleteIn(o.field === null ? ['pods', o.key] : ['pods', o.key, o.field]);
          break;
        case 'same':
          n = n.updateIn(['pods', o.key, 'name'], (x) => x);
          break;
        case 'reentrant':
          // An updater that writes along another path of another value on the way.
          n = n.updateIn(['pods', o.key, 'phase'], (x) => {
            const other = R({ pods: Map({ b: P({ name: 'other' }) }) }).setIn(['pods', 'b', 'phase'], 'z');
            return `${String(x)}/${String(other.getIn(['pods', 'b', 'name']))}`;
          });
          break;
      }
      seen.push(String(n), String(n === before), String(n.getIn(['pods', o.key, 'phase'], 'none')), String(n.getIn(['tag', 'x'], 'no')));
    }
    return seen;
  };
  it('on any sequence of path operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 10 }), (ops) => {
        expect(run(FlatNode, Flat, ops)).toEqual(run(ImmNode, Imm, ops));
      }),
      { numRuns: 400 },
    );
  });
  it('an empty path and a path through a plain value', () => {
    const n = FlatNode({ tag: 't' });
    const i = ImmNode({ tag: 't' });
    expect(String(n.setIn([], 1))).toBe(String(i.setIn([], 1)));
    expect(String(n.updateIn([], (x) => x))).toBe(String(i.updateIn([], (x) => x)));
    expect(String(n.getIn([]))).toBe(String(i.getIn([])));
    expect(() => n.setIn(['tag', 'x'], 1)).toThrow(/Cannot update within non-data-structure value in path \["tag"\]/);
    expect(() => i.setIn(['tag', 'x'], 1)).toThrow(/Cannot update within non-data-structure value in path \["tag"\]/);
  });
});

describe("a review's findings (each failed before its fix)", () => {
  it('an immutable.js Record with a field named _v is encoded by its fields, not read as a FlatRecord', () => {
    const V = Record({ _v: 'xy', a: 1 }, 'V');
    expect(bytes(V({ a: 1 }))).not.toBe(bytes(V({ a: 2 })));
    expect(new Fingerprinter().hex(V({ a: 1 }))).not.toBe(new Fingerprinter().hex(V({ a: 2 })));
    expect(() => bytes(Record({ _v: null, a: 1 }, 'V2')())).not.toThrow();
  });

  it('a key is looked up as a property name, as immutable.js does: number keys name fields', () => {
    for (const R of [FlatRecord({ 0: 0, 1: 0 }, 'Ctr'), Record({ 0: 0, 1: 0 }, 'Ctr')]) {
      const c = R();
      expect(String(c.update(0 as never, ((x: number) => x + 1) as never))).toBe('Ctr { 0: 1, 1: 0 }');
      expect(String(c.set(0 as never, 7 as never))).toBe('Ctr { 0: 7, 1: 0 }');
      expect(c.set(1 as never, 3 as never).get(1 as never)).toBe(3);
      expect(c.has(1 as never)).toBe(true);
      expect(c.set(1 as never, 3 as never).getIn([1])).toBe(3);
      expect(String(c.merge(Map([[1, 5]]) as never))).toBe('Ctr { 0: 0, 1: 5 }');
      expect(String(c.withMutations((d) => d.set(0 as never, 7 as never)))).toBe('Ctr { 0: 7, 1: 0 }');
    }
  });

  it('a subclass gets instances of its own, and writes keep it', () => {
    for (const R of [FlatRecord({ a: 1 }, 'S'), Record({ a: 1 }, 'S')]) {
      class Sub extends R {
        double(): number {
          return this.a * 2;
        }
      }
      const s = new Sub({ a: 2 });
      expect(s instanceof Sub && s instanceof R).toBe(true);
      expect(s.double()).toBe(4);
      const t = s.set('a', 3) as Sub;
      expect(t instanceof Sub).toBe(true);
      expect(t.double()).toBe(6);
      expect(s.a).toBe(2);
    }
  });

  it('refuses fields named after its internals, and an unnamed type prints as "Record"', () => {
    for (const name of ['_keys', '_defaultValues', '_indices', '_name', '_slots']) {
      expect(() => FlatRecord({ [name]: 'x', b: 1 }, 'K')).toThrow(`a field cannot be named ${name}`);
    }
    expect(String(FlatRecord({ a: 1 })())).toBe(String(Record({ a: 1 })()));
    expect(Record.getDescriptiveName(FlatRecord({ a: 1 })())).toBe('Record');
  });

  it('updateIn with a falsy third argument takes the second as the updater, as immutable.js does', () => {
    for (const R of [Flat, Imm]) {
      const p = R({ name: 'p' });
      expect(String((p as unknown as WithNull).updateIn(['name'], (x: unknown) => `${String(x)}!`, null))).toContain('name: "p!"');
    }
  });
});
type WithNull = { updateIn(path: unknown[], f: (x: unknown) => unknown, u: null): unknown };

describe('fields by index (fieldIndex, valueAt, withValueAt) read and write as get and set do', () => {
  const P = FlatRecord({ a: 1, b: List<number>(), c: 'x' }, 'ByIndex');
  const p = P({ a: 2 });

  it('finds a field by name, and -1 for a name the type lacks or a value that is no FlatRecord', () => {
    expect(fieldIndex(p, 'c')).toBe(2);
    expect(fieldIndex(p, 'd')).toBe(-1);
    expect(fieldIndex(p, 'toString')).toBe(-1);
    expect(fieldIndex(Record({ c: 0 }, 'Plain')(), 'c')).toBe(-1);
    expect(fieldIndex(Map({ c: 0 }), 'c')).toBe(-1);
  });

  it('reads and writes as get and set: the same value back unchanged, undefined as the default', () => {
    const i = fieldIndex(p, 'a');
    expect(valueAt(p, i)).toBe(p.get('a'));
    expect(withValueAt(p, i, 2)).toBe(p);
    expect(is(withValueAt(p, i, 5), p.set('a', 5))).toBe(true);
    expect(withValueAt(p, i, 5).a).toBe(5);
    expect(p.a).toBe(2);
    expect(withValueAt(p, i, undefined).a).toBe(1);
  });

  it('sets several fields in one copy (valuesOf, withValues), and gives the record back where none changed', () => {
    const values = valuesOf(p);
    values[fieldIndex(p, 'a')] = 7;
    values[fieldIndex(p, 'c')] = 'z';
    const q = withValues(p, values);
    expect(is(q, p.merge({ a: 7, c: 'z' }))).toBe(true);
    expect(p.a).toBe(2);
    expect(withValues(p, valuesOf(p))).toBe(p);
  });

  it('writes into a withMutations draft in place, as set does', () => {
    const i = fieldIndex(p, 'c');
    const q = p.withMutations((d) => {
      expect(withValueAt(d, i, 'y')).toBe(d);
    });
    expect(q.c).toBe('y');
    expect(p.c).toBe('x');
  });
});
