// Where the frontier is kept (src/engine/search/storage.ts: objects, bytes, or spill files) must not
// change what a search finds: the same counts, verdicts, premise counts, coverage and traces,
// state for state, with one thread or several. Each model is searched with its frontier held as
// objects, then with every state written as bytes and rebuilt (stateCodec.ts), then with the
// bytes spilled to files, and the results compared whole. The expected figures are those of the
// objects run (themselves pinned to TLC's and hand counts in classicModels.test.ts and bfs.test.ts).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { List, Map, OrderedMap, OrderedSet, Record, Set, is } from 'immutable';
import { checkVariant, checkVariantParallel, configureModel, expanderInThisThread, type Variant } from 'modelcheck';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { stateToJson } from '../../src/report/stateJson.ts';
import { BYTES, DISK, OBJECTS, tierFor } from '../../src/engine/search/storage.ts';
import { twoPhase } from '../fixtures/classic/twoPhase.ts';
import { comparable, smallModels } from '../helpers/smallModels.ts';
import resumable from '../fixtures/resumable.ts';

const workDir = mkdtempSync(join(tmpdir(), 'modelcheck-storage-test-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('the frontier kept as bytes or in files finds what the frontier kept as objects finds', () => {
  for (const [name, model] of smallModels) {
    it(name, async () => {
      for (const v of model.variants as Variant<unknown>[]) {
        const objects = checkVariant(v, { storage: 'objects' });
        expect(objects.stats.frontier).toEqual({ encodedStates: 0, encodedBytes: 0, spilledBytes: 0 });
        const bytes = checkVariant(v, { storage: 'bytes' });
        expect(comparable(bytes), `${v.name}, bytes`).toEqual(comparable(objects));
        // Every state stored went through the codec (the initial ones and every new one).
        expect(bytes.stats.frontier!.encodedStates, v.name).toBe(objects.stats.distinctStates);
        const disk = checkVariant(v, { storage: 'disk', workDir });
        expect(comparable(disk), `${v.name}, disk`).toEqual(comparable(objects));
        // Two threads (the other's expander in this thread, the work split from the first level).
        const two = await checkVariantParallel(v, { storage: 'disk', workDir }, [expanderInThisThread(v, { storage: 'disk', workDir })], {
          warmUp: 0,
        });
        expect(comparable(two), `${v.name}, two threads, disk`).toEqual(comparable(objects));
      }
      // Every spill file was removed when its search ended.
      expect(readdirSync(workDir)).toEqual([]);
    });
  }

  it('spills levels of many chunks to disk and reads them back (TwoPhase, 6 resource managers: 50,816 states, as TLC)', () => {
    const v = twoPhase(6).variants[0] as Variant<unknown>;
    const disk = checkVariant(v, { storage: 'disk', workDir, chunkBytes: 4096 });
    expect([disk.verdict, disk.stats.distinctStates, disk.stats.statesGenerated, disk.stats.depth]).toEqual(['proved', 50816, 402306, 20]);
    // Chunks of 4 KiB here (4 MiB by default): the widest levels fill many, and every full one went to a file.
    expect(disk.stats.frontier!.spilledBytes).toBeGreaterThan(0);
    expect(disk.stats.frontier!.spilledBytes).toBeLessThanOrEqual(
      disk.stats.frontier!.encodedBytes + 5 * disk.stats.frontier!.encodedStates,
    );
    expect(readdirSync(workDir)).toEqual([]);
  });
});

describe('where the next state goes, by memory (storage.ts tierFor)', () => {
  const MiB = 2 ** 20;
  const GiB = 2 ** 30;
  it('keeps objects while the heap is under half full and under 1 GiB, the process under half its budget', () => {
    expect(tierFor(900 * MiB, 16 * GiB, 2 * GiB, 16 * GiB)).toBe(OBJECTS);
    expect(tierFor(700 * MiB, 1.5 * GiB, 1 * GiB, 16 * GiB)).toBe(OBJECTS);
  });
  it('goes to bytes at 1 GiB of heap on a large machine, at half the heap, or at half the memory budget', () => {
    expect(tierFor(1 * GiB, 16 * GiB, 2 * GiB, 16 * GiB)).toBe(BYTES);
    expect(tierFor(768 * MiB, 1.5 * GiB, 1 * GiB, 16 * GiB)).toBe(BYTES);
    expect(tierFor(100 * MiB, 16 * GiB, 512 * MiB, 1 * GiB)).toBe(BYTES);
  });
  it('goes to files at 70% of the heap or of the memory budget', () => {
    expect(tierFor(1.1 * GiB, 1.5 * GiB, 1 * GiB, 16 * GiB)).toBe(DISK);
    expect(tierFor(100 * MiB, 16 * GiB, 750 * MiB, 1 * GiB)).toBe(DISK);
  });
});

describe('the trace log spilled to a file', () => {
  it('finds the same lasso, counts and coverage as a search that kept it in memory (a token ring, 93,750 states: one full chunk of 65,536 spilled)', () => {
    const v = configureModel(resumable, ['n=6', 'k=5']).variants.find((x) => x.name === 'ring-unfair') as Variant<unknown>;
    const memory = checkVariant(v, { storage: 'objects' });
    expect([memory.verdict, memory.stats.distinctStates]).toEqual(['violated', 93750]);
    const disk = checkVariant(v, { storage: 'disk', workDir });
    expect(comparable(disk)).toEqual(comparable(memory));
    // The log's parents and actions for 65,536 states (6 bytes each) went to the file too.
    expect(disk.stats.frontier!.spilledBytes).toBeGreaterThanOrEqual(6 * 65536);
    expect(readdirSync(workDir)).toEqual([]);
  });
});

describe('the state codec', () => {
  const Point = Record({ x: 0, y: 0 }, 'Point');
  const codec = () => new StateCodec();
  const roundTrip = (c: StateCodec, v: unknown, prev?: unknown, prevDecoded?: unknown) => {
    const n = c.encode(v, prev);
    return c.decode(c.bytes.slice(0, n), 0, n, prevDecoded);
  };
  /** Every order a value has, as a list: what a model's params() may depend on. */
  const order = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && Symbol.iterator in v ? [...(v as Iterable<unknown>)].map(order) : v;

  it('rebuilds values equal to the originals, in the same iteration order, Maps and Sets included', () => {
    const c = codec();
    const m = Map<string, unknown>()
      .set('b', 1)
      .set('a', List([1.5, -7, 2 ** 40, -0, 'é', null, true]));
    const removed = Map<string, number>({ a: 1, b: 2, c: 3, d: 4 }).remove('b');
    const values = [
      m,
      removed,
      OrderedMap([[Point({ x: 1 }), Set(['z', 'y'])]]),
      OrderedSet([3, 1, 2]),
      Set([Point({ x: 2, y: 3 }), Point()]),
      Point({ x: -1, y: 2 ** 31 }),
    ];
    for (const v of values) {
      const back = roundTrip(c, v);
      expect(is(back, v)).toBe(true);
      expect(order(back)).toEqual(order(v));
    }
  });

  it('keeps the previous state’s own objects for the parts that did not change', () => {
    const c = codec();
    const shared = Map({ big: List([1, 2, 3]) });
    const first = Map({ shared, n: 1 });
    const second = first.set('n', 2);
    const firstBack = roundTrip(c, first) as typeof first;
    const secondBack = roundTrip(c, second, first, firstBack) as typeof second;
    expect(is(secondBack, second)).toBe(true);
    expect(secondBack.get('shared')).toBe(firstBack.get('shared'));
    // An unchanged part is one byte.
    const n = c.encode(second, first);
    expect(n).toBeLessThan(c.encode(second) / 2);
  });

  it('round-trips arbitrary nested values in order, alone and as a difference from another', () => {
    const leaf = fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.string(), fc.boolean(), fc.constant(null));
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('list'), tie('map'), tie('set'), tie('point')),
      list: fc.array(tie('value'), { maxLength: 4 }).map((xs) => List(xs)),
      map: fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie('value')), { maxLength: 4 }).map((es) => Map(es)),
      set: fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 5 }).map((xs) => Set(xs)),
      point: fc.tuple(tie('value'), tie('value')).map(([x, y]) => Point({ x: x as number, y: y as number })),
    }));
    fc.assert(
      fc.property(value, value, (a, b) => {
        const c = codec();
        const aBack = roundTrip(c, a);
        const bBack = roundTrip(c, b, a, aBack);
        return is(aBack, a) && is(bBack, b) && JSON.stringify(order(bBack)) === JSON.stringify(order(b));
      }),
      { numRuns: 300 },
    );
  });

  it('round-trips plain arrays and objects: key order, frozenness and the previous state’s unchanged parts kept', () => {
    const c = codec();
    const shared = Object.freeze({ big: [1, 2, 3] });
    const first = { z: 1, a: [shared, { y: 'é', x: null }], m: Map({ k: [true] }) };
    const second = { ...first, z: 2 };
    const firstBack = roundTrip(c, first) as typeof first;
    const secondBack = roundTrip(c, second, first, firstBack) as typeof second;
    expect(secondBack).toEqual(second);
    expect(Object.keys(secondBack)).toEqual(['z', 'a', 'm']);
    expect(Object.keys(secondBack.a[1])).toEqual(['y', 'x']);
    expect(Object.isFrozen(secondBack.a[0])).toBe(true);
    expect(Object.isFrozen(secondBack)).toBe(false);
    expect(secondBack.a).toBe(firstBack.a);
  });

  it('rebuilds a Map whose keys are plain values (found by identity) without the previous state’s entries', () => {
    // Found by review: a decoded plain key is a new object, so its entry must be written whole.
    const R = Record({ x: 0, y: List<number>() }, 'KeyedR');
    const k = [1, 2];
    const s0 = Map<unknown, unknown>([
      [k, R({ x: 1, y: List([7]) })],
      [{ a: 1 }, 5],
    ]);
    const s1 = s0.set('z', 1).set(k, (s0.get(k) as ReturnType<typeof R>).set('x', 3));
    const s2 = s0.set(k, [List([7]), 2]);
    const c = codec();
    const b0 = roundTrip(c, s0) as typeof s0;
    const b1 = roundTrip(c, s1, s0, b0) as typeof s1;
    expect(b1.size).toBe(3);
    expect(stateToJson(b1)).toEqual(stateToJson(s1));
    const b2 = roundTrip(c, s2, s0, b0) as typeof s2;
    expect(b2.size).toBe(2);
    expect(stateToJson(b2)).toEqual(stateToJson(s2));
  });

  it('round-trips arbitrary plain values in order, alone and as a difference from another', () => {
    const { value } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.string(), fc.boolean(), fc.constant(null)),
        tie('array'),
        tie('object'),
        tie('list'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 3 }), tie('value'), { maxKeys: 4 }),
      list: fc.array(tie('value'), { maxLength: 3 }).map((xs) => List(xs)),
    }));
    // Order included: a List's elements compared in order, an object's keys in their own order.
    const shown = (v: unknown): unknown =>
      List.isList(v)
        ? { list: (v as List<unknown>).toArray().map(shown) }
        : Array.isArray(v)
          ? v.map(shown)
          : v !== null && typeof v === 'object'
            ? Object.entries(v).map(([k, x]) => [k, shown(x)])
            : Object.is(v, -0)
              ? '-0'
              : v;
    fc.assert(
      fc.property(value, value, (a, b) => {
        const c = codec();
        const aBack = roundTrip(c, a);
        const bBack = roundTrip(c, b, a, aBack);
        return JSON.stringify(shown(aBack)) === JSON.stringify(shown(a)) && JSON.stringify(shown(bBack)) === JSON.stringify(shown(b));
      }),
      { numRuns: 300 },
    );
  });
});
