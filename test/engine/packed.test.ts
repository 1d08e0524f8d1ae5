// Packed values (src/engine/values/packed): a state's shape declared once, read and written as
// immutable.js values are, held as small integers. What is checked here: each type reads back
// what was written and never changes a value it was read from; a write outside the declared
// type is an error that says what and where; equal values are equal to immutable.js and share
// a fingerprint, different ones do not; the state codec rebuilds them; the reports print them as
// the immutable.js values they read as; a search reports a bad write as MC101 with its trace.
// (The TLC figures of TwoPhase and LamportMutex written with them are in classicModels.test.ts
// and lamportMutex.test.ts; every storage tier and two threads in storage.test.ts.)
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Set as ImmutableSet, is } from 'immutable';
import { action, checkVariant, Fingerprinter, ModelError, packed, type Variant } from 'modelcheck';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { CanonicalEncoder } from '../../src/engine/values/encoding.ts';
import { diff, formatValue, leaves } from '../../src/report/diff.ts';
import { stateToJson } from '../../src/report/stateJson.ts';
import { toItfValue, variables } from '../../src/report/itf.ts';

const { record, oneOf, int, bool, setOf, mapOf, seqOf, PackedValueError } = packed;

const Message = record('Message', { type: oneOf('req', 'ack'), clock: int(0, 5) });
const Node = record('Node', {
  phase: oneOf('init', 'done'),
  rm: mapOf(['r1', 'r2'], oneOf('working', 'prepared')),
  members: setOf(['a', 'b', 'c']),
  channel: seqOf(Message, 3),
  up: bool,
});

/** The error a call throws (a PackedValueError expected). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error thrown');
}

describe('a packed record reads back what was written, as an immutable.js Record would', () => {
  it("gives each left-out field its type's first value: the first of a oneOf, the minimum, empty", () => {
    const n = Node();
    expect([n.phase, n.rm.get('r1'), n.rm.get('r2'), n.members.size, n.channel.size, n.up]).toEqual([
      'init',
      'working',
      'working',
      0,
      0,
      false,
    ]);
    expect(Message().clock).toBe(0);
    // Twelve words: 1 + 2 + 1 + (1 + 3 * 2) + 1.
    expect(Node.slots).toBe(12);
  });

  it('set, merge, update, setIn, updateIn and withMutations write, and leave the value written from as it was', () => {
    const a = Node();
    const b = a.set('phase', 'done');
    const c = b.merge({ up: true, members: ['c', 'a'] });
    const d = c.setIn(['rm', 'r2'], 'prepared').updateIn(['channel'], (ch) => ch.push(Message({ type: 'ack', clock: 2 })));
    const e = d
      .update('members', (m) => m.delete('a'))
      .withMutations((draft) => {
        draft.setIn(['rm', 'r1'], 'prepared');
        draft.set('up', false);
      });
    expect([a.phase, a.up, a.members.size, a.rm.get('r2'), a.channel.size]).toEqual(['init', false, 0, 'working', 0]);
    expect([b.phase, b.up]).toEqual(['done', false]);
    expect([c.up, c.members.toArray()]).toEqual([true, ['a', 'c']]);
    expect([d.rm.get('r2'), d.getIn(['channel', 0])?.clock, d.getIn(['rm', 'r2'])]).toEqual(['prepared', 2, 'prepared']);
    expect([...e.rm.values(), e.up, e.members.toArray()]).toEqual(['prepared', 'prepared', false, ['c']]);
    // A value read from a draft stays as it was read, whatever the draft's later writes.
    const f = d.withMutations((draft) => {
      const before = draft.rm;
      draft.setIn(['rm', 'r1'], 'prepared');
      draft.set('channel', draft.channel.push(Message({ type: 'req', clock: 5 })));
      expect([before.get('r1'), draft.rm.get('r1')]).toEqual(['working', 'prepared']);
    });
    expect(f.channel.toArray().map((m) => m.clock)).toEqual([2, 5]);
    // withMutations left d alone too.
    expect([d.rm.get('r1'), d.up]).toEqual(['working', true]);
  });

  it('getIn is undefined where a path leads nowhere; setIn there is an error naming the path', () => {
    const n = Node();
    expect(n.getIn(['rm', 'r9' as 'r1'])).toBeUndefined();
    // A sequence's element exists only below its length.
    expect(n.getIn(['channel', 0])).toBeUndefined();
    expect(thrown(() => n.setIn(['channel', 0], Message())).message).toBe(
      'Node: nothing at .channel[0] (a sequence of at most 3 of a Message)',
    );
  });

  it('a set keeps its universe order, whatever order its members came in', () => {
    const S = setOf([3, 1, 2]);
    const n = record('Holder', { s: S })({ s: [2, 3] });
    expect(n.s.toArray()).toEqual([3, 2]);
    expect([n.s.has(2), n.s.has(1), n.s.includes(3), n.s.size]).toEqual([true, false, true, 2]);
    // 40 members take two words of 30 bits.
    const Wide = setOf(Array.from({ length: 40 }, (_, i) => i));
    expect(Wide.slots).toBe(2);
    const w = record('Wide', { s: Wide })({ s: [0, 29, 30, 39] });
    expect([w.s.toArray(), w.s.size, w.s.delete(30).toArray()]).toEqual([[0, 29, 30, 39], 4, [0, 29, 39]]);
  });

  it("a set over packed values (every message a run can send) holds them by their words, and lists the universe's own values", () => {
    const MESSAGES = [Message({ type: 'req', clock: 1 }), Message({ type: 'req', clock: 2 }), Message({ type: 'ack' })];
    const Sent = record('Sent', { msgs: setOf(MESSAGES) });
    const s = Sent({ msgs: [MESSAGES[2]] }).update('msgs', (m) => m.add(Message({ type: 'req', clock: 2 })));
    // Found by value, built anew or described plainly; iteration gives the universe's values themselves.
    expect([s.msgs.has(Message({ type: 'ack' })), s.msgs.has(MESSAGES[0]), s.msgs.size]).toEqual([true, false, 2]);
    expect(s.msgs.toArray()).toEqual([MESSAGES[1], MESSAGES[2]]);
    expect(s.msgs.toArray()[0]).toBe(MESSAGES[1]);
    expect(Sent({ msgs: [{ type: 'req', clock: 1 }] as never }).msgs.toArray()[0]).toBe(MESSAGES[0]);
    // (A record prints the fields that differ from its defaults: req is the first type, 0 the least clock.)
    // Every field of a packed record, its types' first values too: a message's type is never hidden (issue 45).
    expect(formatValue(s)).toBe('{msgs: [{type: req, clock: 2}, {type: ack, clock: 0}]}');
    expect(thrown(() => s.msgs.add(Message({ type: 'req', clock: 5 }))).message).toBe(
      'Message { type: "req", clock: 5 } is not in the set\'s universe (a set of Message { type: "req", clock: 1 }, Message { type: "req", clock: 2 }, Message { type: "ack", clock: 0 })',
    );
    expect(thrown(() => setOf([Message(), Node()])).message).toBe('setOf: a universe of packed values must hold values of one type only');
  });

  it('a sequence pushes at its end and shifts from its front (a FIFO channel)', () => {
    let ch = Node().channel;
    for (const clock of [1, 2, 3]) ch = ch.push(Message({ type: 'req', clock }));
    expect(ch.toArray().map((m) => m.clock)).toEqual([1, 2, 3]);
    expect([ch.first().clock, ch.last().clock, ch.get(1).clock, ch.get(3)]).toEqual([1, 3, 2, undefined]);
    const rest = ch.shift();
    expect(rest.toArray().map((m) => m.clock)).toEqual([2, 3]);
    expect(ch.size).toBe(3);
  });
});

describe('edges a model may meet (from a review)', () => {
  it("fields named as the record's helpers would be (result, target, walk) are plain fields", () => {
    const R = record('R', { result: int(0, 3), target: int(0, 3), walk: bool });
    const r = R().set('target', 2).setIn(['result'], 1);
    expect([r.result, r.target, r.walk, r.getIn(['target'])]).toEqual([1, 2, false, 2]);
  });

  it('merge takes another record of the type; a nested withMutations writes to the outer draft', () => {
    const a = Node().merge(Node({ phase: 'done', up: true }));
    expect([a.phase, a.up]).toEqual(['done', true]);
    expect(thrown(() => Node().set('channel', [Node() as never])).message).toMatch(/^Node\.channel\[0\]: Node \{.*\} is not a Message/);
    const b = Node().withMutations((d) => {
      d.withMutations((e) => e.set('up', true));
    });
    expect(b.up).toBe(true);
  });

  it("a sequence index below zero counts from the end, as a List's", () => {
    const ch = Node()
      .channel.push(Message({ clock: 1 }))
      .push(Message({ clock: 2 }));
    expect([ch.get(-1).clock, ch.get(-2).clock, ch.get(-3), ch.set(-1, Message({ clock: 4 })).last().clock]).toEqual([2, 1, undefined, 4]);
  });

  it('a map over numbers can be written from an object (its keys are text); the key list is copied', () => {
    const keys = [0, 1, 2];
    const M = record('M', { m: mapOf(keys, int(0, 3)), x: int(5, 7) });
    keys.push(3);
    const v = M({ m: { 0: 1, 1: 2, 2: 3 } as never, x: 6 });
    expect([[...v.m.values()], v.x, v.m.size]).toEqual([[1, 2, 3], 6, 3]);
  });

  it('-0 is stored as 0, and messages show plain objects as JSON', () => {
    expect(Object.is(Message({ clock: -0 }).clock, 0)).toBe(true);
    expect(thrown(() => record('S', { s: setOf(['a']) })({ s: [{ a: 1 }] as never })).message).toBe(
      'S.s: {"a":1} is not in the set\'s universe (a set of "a")',
    );
  });
});

describe('a write outside the declared type is an error saying what and where', () => {
  const n = Node();
  it.each([
    ['a value outside a oneOf', () => n.set('phase', 'gone' as 'init'), 'Node.phase: "gone" is not one of "init", "done"'],
    ['an integer out of range', () => Message().set('clock', 6), 'Message.clock: 6 is not an integer from 0 to 5'],
    ['a set member outside the universe', () => n.members.add('z' as 'a'), '"z" is not in the set\'s universe (a set of "a", "b", "c")'],
    ['a map key it does not have', () => n.rm.set('r3' as 'r1', 'working'), '"r3" is not a key of this map (its keys: "r1", "r2")'],
    [
      'a map given without one of its keys',
      () => n.set('rm', { r1: 'working' } as never),
      'Node.rm: no value for "r2" (a mapOf gives every key a value)',
    ],
    [
      'a sequence past its bound',
      () => n.channel.push(Message()).push(Message()).push(Message()).push(Message()),
      'a sequence declared with at most 3 elements would have 4',
    ],
    [
      'a nested value, with its path',
      () => n.setIn(['rm', 'r1'], 'done' as 'working'),
      'Node.rm.r1: "done" is not one of "working", "prepared"',
    ],
    [
      'a field the record does not have',
      () => n.set('phases' as 'phase', 'init'),
      'Node has no field "phases" (its fields: phase, rm, members, channel, up)',
    ],
    [
      'a field named as a method',
      () => record('Bad', { merge: bool }),
      "record Bad: a field cannot be named merge (a record's own method, or an immutable.js Record's)",
    ],
    [
      'a field whose type is not a packed type',
      () => record('Bad', { n: 3 as never }),
      'record Bad: field n is not a packed type (oneOf, int, bool, setOf, mapOf, seqOf or a record)',
    ],
  ])('%s', (_, f, message) => {
    const e = thrown(f);
    expect(e).toBeInstanceOf(PackedValueError);
    expect(e.message).toBe(message);
  });
});

describe('equal packed values are one value to immutable.js, the fingerprints and the codec', () => {
  const a = Node({ members: ['a', 'c'], rm: { r1: 'prepared', r2: 'working' } });
  const b = Node()
    .setIn(['rm', 'r1'], 'prepared')
    .update('members', (m) => m.add('c').add('b').add('a').delete('b'));
  // A channel that had a message and lost it is the empty channel again.
  const c = a.update('channel', (ch) => ch.push(Message({ type: 'ack', clock: 4 })).shift());

  it('immutable.js finds them equal (is, a Set of them)', () => {
    expect(is(a, b)).toBe(true);
    expect(is(a, c)).toBe(true);
    expect(ImmutableSet([a, b, c]).size).toBe(1);
    expect(is(a, a.set('up', true))).toBe(false);
  });

  it('they share a fingerprint, and a canonical encoding (what --exact keeps); a change or another type name gives another', () => {
    const f = new Fingerprinter();
    const full = new CanonicalEncoder('full');
    const bytes = (v: unknown) => Buffer.from(full.bytes.subarray(0, full.encode(v))).toString('hex');
    // Same words, other name: another state.
    const Twin = record('Twin', { type: oneOf('req', 'ack'), clock: int(0, 5) });
    for (const key of [(v: unknown) => f.hex(v), bytes]) {
      expect(key(b)).toBe(key(a));
      expect(key(c)).toBe(key(a));
      expect(key(a.set('up', true))).not.toBe(key(a));
      expect(key(Twin({ clock: 3 }))).not.toBe(key(Message({ clock: 3 })));
      // Inside immutable.js values too.
      expect(key(ImmutableSet([a]))).toBe(key(ImmutableSet([b])));
    }
  });

  it("the state codec rebuilds them, and gives back the previous state's value itself when equal", () => {
    const codec = new StateCodec();
    const states = [a, a.set('phase', 'done'), c];
    let prevIn: unknown;
    let prevOut: unknown;
    for (const s of states) {
      const n = codec.encode(s, prevIn);
      const back = codec.decode(codec.bytes.slice(0, n), 0, n, prevOut);
      expect(is(back, s)).toBe(true);
      expect((back as typeof a).rm.get('r1')).toBe('prepared');
      prevIn = s;
      prevOut = back;
    }
    // c equals a, not the state before it: a new value, equal to c.
    const n = codec.encode(c, c);
    expect(codec.decode(codec.bytes.slice(0, n), 0, n, prevOut)).toBe(prevOut);
  });
});

describe('the canonical encoding writes a word from 0 to 254 as one byte, any other as 255 and four bytes', () => {
  const full = new CanonicalEncoder('full');
  /** A value's encoding after its tag and type id: its words. */
  const wordBytes = (v: packed.PackedValue) => [...full.bytes.subarray(5, full.encode(v))];

  it('knows which types have only such words (byteSized), at each bound', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => i);
    const flags = {
      oneOf255: oneOf(...many(255)).byteSized,
      oneOf256: oneOf(...many(256)).byteSized,
      int0to254: int(0, 254).byteSized,
      int0to255: int(0, 255).byteSized,
      intFromMinus1: int(-1, 3).byteSized,
      set7: setOf(many(7)).byteSized,
      set8: setOf(many(8)).byteSized,
      seq254: seqOf(bool, 254).byteSized,
      seq255: seqOf(bool, 255).byteSized,
      seqOfWide: seqOf(int(0, 300), 2).byteSized,
      map: mapOf(['a', 'b'], int(0, 9)).byteSized,
      mapOfWide: mapOf(['a'], setOf(many(8))).byteSized,
      record: Message.byteSized,
      recordWithWide: record('Wide', { m: Message, n: int(0, 1000) }).byteSized,
    };
    expect(flags).toEqual({
      oneOf255: true,
      oneOf256: false,
      int0to254: true,
      int0to255: false,
      intFromMinus1: false,
      set7: true,
      set8: false,
      seq254: true,
      seq255: false,
      seqOfWide: false,
      map: true,
      mapOfWide: false,
      record: true,
      recordWithWide: false,
    });
  });

  it('writes the words of either kind of type so (the same bytes whether the type is byteSized or not)', () => {
    // Message: type index 1, clock 5.
    expect(wordBytes(Message({ type: 'ack', clock: 5 }))).toEqual([1, 5]);
    const Wide = record('Wide', { a: int(0, 300), b: int(0, 300), c: int(-2, 2) });
    // 254 one byte; 255, 300 and -2 each 255 then four bytes, little-endian (-2 as two's complement).
    expect(wordBytes(Wide({ a: 254, b: 255, c: -2 }))).toEqual([254, 255, 255, 0, 0, 0, 255, 254, 255, 255, 255]);
    expect(wordBytes(Wide({ a: 300, b: 0, c: 0 }))).toEqual([255, 44, 1, 0, 0, 0, 0]);
  });
});

describe('any sequence of writes: equal values, and only they, share a fingerprint and an encoding', () => {
  // A write, as data: fast-check makes sequences of them, applied from the default value.
  const write = fc.oneof(
    fc.record({ kind: fc.constant('phase' as const), to: fc.constantFrom('init' as const, 'done' as const) }),
    fc.record({
      kind: fc.constant('rm' as const),
      key: fc.constantFrom('r1' as const, 'r2' as const),
      to: fc.constantFrom('working' as const, 'prepared' as const),
    }),
    fc.record({ kind: fc.constant('add' as const), x: fc.constantFrom('a' as const, 'b' as const, 'c' as const) }),
    fc.record({ kind: fc.constant('delete' as const), x: fc.constantFrom('a' as const, 'b' as const, 'c' as const) }),
    fc.record({
      kind: fc.constant('push' as const),
      type: fc.constantFrom('req' as const, 'ack' as const),
      clock: fc.integer({ min: 0, max: 5 }),
    }),
    fc.record({ kind: fc.constant('shift' as const) }),
    fc.record({ kind: fc.constant('up' as const), to: fc.boolean() }),
  );
  type Write = typeof write extends fc.Arbitrary<infer W> ? W : never;
  type N = ReturnType<typeof Node>;
  const apply = (n: N, w: Write): N => {
    switch (w.kind) {
      case 'phase':
        return n.set('phase', w.to);
      case 'rm':
        return n.setIn(['rm', w.key], w.to);
      case 'add':
        return n.update('members', (m) => m.add(w.x));
      case 'delete':
        return n.update('members', (m) => m.delete(w.x));
      case 'push':
        return n.channel.size === 3 ? n : n.update('channel', (ch) => ch.push(Message({ type: w.type, clock: w.clock })));
      case 'shift':
        return n.update('channel', (ch) => ch.shift());
      case 'up':
        return n.withMutations((d) => d.set('up', w.to));
    }
  };
  /** The value as plain data, written independently of the words: what equality should mean. */
  const meaning = (n: N) =>
    JSON.stringify([n.phase, [...n.rm.values()], [...n.members].sort(), n.channel.toArray().map((m) => [m.type, m.clock]), n.up]);

  it('holds for 300 pairs of write sequences and for each value rebuilt from plain data; the codec gives each value back', () => {
    const f = new Fingerprinter();
    const full = new CanonicalEncoder('full');
    const bytes = (v: unknown) => Buffer.from(full.bytes.subarray(0, full.encode(v))).toString('hex');
    const codec = new StateCodec();
    fc.assert(
      fc.property(fc.array(write, { maxLength: 12 }), fc.array(write, { maxLength: 12 }), (xs, ys) => {
        const a = xs.reduce(apply, Node());
        const b = ys.reduce(apply, Node());
        const same = meaning(a) === meaning(b);
        expect(f.hex(a) === f.hex(b)).toBe(same);
        expect(bytes(a) === bytes(b)).toBe(same);
        expect(is(a, b)).toBe(same);
        // The same value built in one go from plain data, its set's members in another order.
        const rebuilt = Node({
          phase: a.phase,
          rm: [...a.rm],
          members: [...a.members].reverse(),
          channel: a.channel.toArray().map((m) => ({ type: m.type, clock: m.clock })),
          up: a.up,
        });
        expect([f.hex(rebuilt), bytes(rebuilt), is(rebuilt, a)]).toEqual([f.hex(a), bytes(a), true]);
        const n = codec.encode(a, b);
        expect(meaning(codec.decode(codec.bytes.slice(0, n), 0, n, b) as N)).toBe(meaning(a));
      }),
      { numRuns: 300 },
    );
  });
});

describe('the reports print a packed value as the immutable.js value it reads as', () => {
  const a = Node();
  const b = a
    .setIn(['rm', 'r2'], 'prepared')
    .set('members', ['c', 'a'])
    .update('channel', (ch) => ch.push(Message({ type: 'ack', clock: 2 })));

  it("formatValue: a record by all its fields (its types' first values are values), a map and a set in their declared order", () => {
    expect(formatValue(a)).toBe('{phase: init, rm: {r1: working, r2: working}, members: [], channel: [], up: false}');
    expect(formatValue(b)).toBe(
      '{phase: init, rm: {r1: working, r2: prepared}, members: [a, c], channel: [{type: ack, clock: 2}], up: false}',
    );
  });

  it('leaves and diff: by field and map key; a sequence as a queue', () => {
    expect(leaves(b).map((ch) => `${ch.path.join('.')} = ${formatValue(ch.after)}`)).toEqual([
      'phase = init',
      'rm.r1 = working',
      'rm.r2 = prepared',
      'members = [a, c]',
      'channel = [{type: ack, clock: 2}]',
      'up = false',
    ]);
    const changes = diff(a, b);
    expect(changes.map((ch) => `${ch.path.join('.')}: ${formatValue(ch.before)} -> ${formatValue(ch.after)}`)).toEqual([
      'rm.r2: working -> prepared',
      'members: [] -> [a, c]',
      'channel: [] -> [{type: ack, clock: 2}]',
    ]);
    expect(changes[2].listEdit?.pushed.map(formatValue)).toEqual(['{type: ack, clock: 2}']);
  });

  it('JSON.stringify and console.log show the value, not its words', () => {
    expect(JSON.stringify(b)).toBe(
      '{"phase":"init","rm":{"r1":"working","r2":"prepared"},"members":["a","c"],"channel":[{"type":"ack","clock":2}],"up":false}',
    );
    expect(inspect(b.members)).toBe('OrderedSet { "a", "c" }');
  });

  it('JSON and ITF: fields as variables, a map as #map, a set as #set', () => {
    expect(stateToJson(b)).toEqual({
      phase: 'init',
      rm: { r1: 'working', r2: 'prepared' },
      members: ['a', 'c'],
      channel: [{ type: 'ack', clock: 2 }],
      up: false,
    });
    expect(toItfValue(b)).toEqual({
      phase: 'init',
      rm: {
        '#map': [
          ['r1', 'working'],
          ['r2', 'prepared'],
        ],
      },
      members: { '#set': ['a', 'c'] },
      channel: [{ type: 'ack', clock: 2 }],
      up: false,
    });
    expect(variables(b).map(([name]) => name)).toEqual(['phase', 'rm', 'members', 'channel', 'up']);
  });
});

describe('in a search', () => {
  it('MC101: a step that writes outside the declared type, with the message and the trace to the state', () => {
    const Counter = record('Counter', { n: int(0, 2) });
    type Counter = packed.ValueOf<typeof Counter>;
    const v: Variant<Counter> = {
      name: 'overflow',
      init: () => [Counter()],
      actions: [action<Counter>('inc', { next: (s) => s.update('n', (n) => n + 1) })],
      properties: [],
    };
    let error: unknown;
    try {
      checkVariant(v);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    const e = error as ModelError;
    expect(e.code).toBe('MC101_ACTION_THREW');
    expect(e.message).toMatch(/action inc threw PackedValueError: Counter\.n: 3 is not an integer from 0 to 2/);
    expect(e.details.trace?.map((s) => (s.state as Counter).n)).toEqual([0, 1, 2]);
  });
});

describe('whole values assigned from plain data (docs/guide.md, "Packed records")', () => {
  const RM = ['r1', 'r2', 'r3'];
  const Msg = packed.record('GuideMsg', { type: packed.oneOf('req', 'ack'), clock: packed.int(0, 3) });
  const S = packed.record('GuideState', {
    rmState: packed.mapOf(RM, packed.oneOf('working', 'prepared', 'committed', 'aborted')),
    tmPrepared: packed.setOf(RM),
    msgs: packed.setOf(['Commit', 'Abort']),
    queue: packed.seqOf(Msg, 2),
  });

  it('takes a set from an array, a map from an object keyed by its keys, a sequence of records from an array of objects', () => {
    const s = S({ msgs: ['Commit'] });
    const t = s.merge({ tmPrepared: ['r1', 'r3'], msgs: [] });
    expect([[...t.tmPrepared], [...t.msgs]]).toEqual([['r1', 'r3'], []]);
    const u = t.set('rmState', { r1: 'working', r2: 'aborted', r3: 'working' });
    expect([...u.rmState]).toEqual([
      ['r1', 'working'],
      ['r2', 'aborted'],
      ['r3', 'working'],
    ]);
    const v = u.set('queue', [{ type: 'req', clock: 1 }]);
    expect([v.queue.size, v.queue.first().type, v.queue.first().clock]).toEqual([1, 'req', 1]);
    expect(() => u.set('rmState', { r1: 'working' })).toThrow(/no value for "r2", "r3"/);
  });
});
