// What a model's `import 'immutable'` gets when the CLI loads it (src/engine/values/
// immutableForModels.ts, by bin/resolveHook.js): immutable.js, its Record types FlatRecords where
// FlatRecord takes the defaults and immutable.js's own elsewhere. The reference is immutable.js
// itself: every export but Record is immutable.js's, and where FlatRecord does not stand in,
// immutable.js's warning or error is what the model meets. (FlatRecord against immutable.js's
// Record, operation by operation: flatRecord.test.ts.) Which importer gets which module is the
// hook's, tested below with a stand-in for the resolvers after it.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as immutable from 'immutable';
import * as forModels from '../../src/engine/values/immutableForModels.ts';
import { isFlatRecord } from '../../src/engine/values/flatRecord.ts';
import { isFlatList } from '../../src/engine/values/flatList.ts';
import { isFlatSet } from '../../src/engine/values/flatSet.ts';
import { initialize, resolve } from '../../bin/resolveHook.js';

afterEach(() => vi.restoreAllMocks());

describe("the immutable.js a model's modules get", () => {
  it('exports what immutable.js exports, each the same value, but Record, List and Set; its default the same with those', () => {
    const names = (m: object) =>
      Object.keys(m)
        .filter((k) => k !== 'default')
        .sort();
    expect(names(forModels)).toEqual(names(immutable));
    const theirs: { readonly [name: string]: unknown } = { ...immutable };
    const ours: { readonly [name: string]: unknown } = { ...forModels };
    for (const k of names(immutable)) if (k !== 'Record' && k !== 'List' && k !== 'Set') expect(ours[k], k).toBe(theirs[k]);
    expect(forModels.Record).not.toBe(immutable.Record);
    expect(forModels.List).not.toBe(immutable.List);
    expect(forModels.Set).not.toBe(immutable.Set);
    expect(Object.keys(forModels.default).sort()).toEqual(names(immutable));
    expect(forModels.default.Record).toBe(forModels.Record);
    expect(forModels.default.List).toBe(forModels.List);
    expect(forModels.default.Set).toBe(forModels.Set);
    expect(forModels.default.Map).toBe(immutable.Map);
  });

  it("makes a FlatList of no value or an array of up to 32 elements: a List to immutable.js; anything else immutable.js's own List", () => {
    const l = forModels.List([1, 2]);
    expect(isFlatList(l)).toBe(true);
    expect(l instanceof forModels.List && l instanceof immutable.List && forModels.List.isList(l) && immutable.isList(l)).toBe(true);
    expect(immutable.is(l, immutable.List([1, 2]))).toBe(true);
    expect(isFlatList(forModels.List.of(1, 2)) && immutable.is(forModels.List.of(1, 2), l)).toBe(true);
    expect(immutable.List(l)).toBe(l);
    const statics = forModels.List as unknown as Record<string, unknown>;
    const theirs = immutable.List as unknown as Record<string, unknown>;
    for (const k of ['Indexed', 'Keyed', 'Set', 'isList']) expect(statics[k], k).toBe(theirs[k]);
    // Called with `new`, as immutable.js's can be; its prototype not enumerable, as immutable.js's.
    const made = new (forModels.List as unknown as new (v: unknown) => unknown)([1, 2]);
    expect(isFlatList(made) && immutable.is(made, l)).toBe(true);
    expect(Object.keys(forModels.List).sort()).toEqual(Object.keys(immutable.List).sort());
    for (const empty of [forModels.List(), forModels.List([]), forModels.List.of()]) {
      expect(isFlatList(empty) && immutable.is(empty, immutable.List())).toBe(true);
    }
    for (const other of [forModels.List(immutable.Range(0, 40)), forModels.List(new Set([1]))]) {
      expect(isFlatList(other)).toBe(false);
      expect(immutable.isList(other)).toBe(true);
    }
  });

  it("makes a FlatSet of an array of 1 to 8 strings, numbers or booleans: a Set to immutable.js; anything else immutable.js's own Set", () => {
    const s = forModels.Set(['a', 1, true, 'a']);
    expect(isFlatSet(s)).toBe(true);
    expect(s instanceof forModels.Set && s instanceof immutable.Set && forModels.Set.isSet(s) && immutable.isSet(s)).toBe(true);
    expect(immutable.is(s, immutable.Set(['a', 1, true]))).toBe(true);
    expect(String(s)).toBe('Set { "a", 1, true }');
    expect(isFlatSet(forModels.Set.of(1, 2)) && immutable.is(forModels.Set.of(1, 2), immutable.Set([2, 1]))).toBe(true);
    expect(immutable.Set(s)).toBe(s);
    // Empty, immutable.js's one empty Set.
    for (const empty of [forModels.Set(), forModels.Set([]), s.clear()]) expect(empty).toBe(immutable.Set());
    const statics = forModels.Set as unknown as Record<string, unknown>;
    const theirs = immutable.Set as unknown as Record<string, unknown>;
    for (const k of ['isSet', 'fromKeys', 'union', 'intersect']) expect(statics[k], k).toBe(theirs[k]);
    const made = new (forModels.Set as unknown as new (v: unknown) => unknown)(['a']);
    expect(isFlatSet(made) && immutable.is(made, immutable.Set(['a']))).toBe(true);
    expect(Object.keys(forModels.Set).sort()).toEqual(Object.keys(immutable.Set).sort());
    const nine = Array.from({ length: 9 }, (_v, i) => i);
    for (const other of [
      forModels.Set(nine),
      forModels.Set([{}]),
      forModels.Set([Number.NaN]),
      forModels.Set([null]),
      forModels.Set(new Set([1])),
    ]) {
      expect(isFlatSet(other)).toBe(false);
      expect(immutable.isSet(other)).toBe(true);
    }
  });

  it('makes a FlatRecord type of plain defaults: a Record to immutable.js, equal to its own Record of the same fields', () => {
    const Jugs = forModels.Record({ small: 0, big: 0 }, 'Jugs');
    const j = Jugs({ big: 3 });
    expect(isFlatRecord(j)).toBe(true);
    expect(j instanceof Jugs && j instanceof forModels.Record && j instanceof immutable.Record).toBe(true);
    expect(forModels.Record.isRecord(j) && immutable.isRecord(j)).toBe(true);
    expect(forModels.Record.getDescriptiveName(j)).toBe('Jugs');
    expect(String(j)).toBe('Jugs { small: 0, big: 3 }');
    const same = immutable.Record({ small: 0, big: 0 }, 'Jugs')({ big: 3 });
    expect(immutable.is(j, same)).toBe(true);
    expect(j.hashCode()).toBe(same.hashCode());
    // Called with `new`, and extended by a class, as immutable.js's factory is.
    expect(new Jugs({ small: 1 }).small).toBe(1);
    class Named extends forModels.Record({ name: '' }, 'Named') {
      greet(): string {
        return `hello ${this.name}`;
      }
    }
    const n = new Named({ name: 'n' });
    expect(isFlatRecord(n) && n instanceof Named && n.set('name', 'm').greet()).toBe('hello m');
  });

  it('leaves a field named as a Record method to immutable.js: its type, and its warning when the first instance is made', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const T = forModels.Record({ merge: 1, x: 0 }, 'Merged');
    const t = T();
    expect(isFlatRecord(t)).toBe(false);
    expect(t.get('merge')).toBe(1);
    expect(warn.mock.calls).toEqual([['Cannot define Merged with property "merge" since that property name is part of the Record API.']]);
  });

  it('leaves a field named length to immutable.js, which reads { length: n } given to build or merge as an array of entries', () => {
    const T = forModels.Record({ length: 5, a: 1 }, 'Sized');
    expect(isFlatRecord(T())).toBe(false);
    // (immutable.js's own reading, kept: an empty array of entries sets nothing.)
    expect(T({ length: 0 }).length).toBe(5);
    expect(T().merge({ length: 0 }).length).toBe(5);
  });

  it('refuses, at its first instance, a subclass that defines a method FlatRecord replaces: FlatRecord would not call it', () => {
    const Capped = class extends forModels.Record({ n: 0 }, 'Capped') {
      override set(k: string, v: unknown) {
        return super.set(k as 'n', Math.min(v as number, 2));
      }
    };
    expect(() => new Capped()).toThrow(
      "FlatRecord Capped: the subclass Capped defines set, which FlatRecord's fields, merge and fingerprints do not call; extend immutable.js's own Record for it (for a model run by the CLI: MODELCHECK_RECORDS=immutable)",
    );
  });

  it("gives immutable.js's own errors for defaults it refuses", () => {
    const refusal = (defaults: unknown) => {
      try {
        (immutable.Record as (d: unknown) => unknown)(defaults);
        return 'accepted';
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const bad of [immutable.Map({ a: 1 }), immutable.Record({ a: 1 })(), null, 3]) {
      expect(() => (forModels.Record as (d: unknown) => unknown)(bad)).toThrow(refusal(bad));
      expect(refusal(bad)).not.toBe('accepted');
    }
  });
});

describe('bin/resolveHook.js: who gets it', () => {
  const OWN = new URL('../../', import.meta.url).href;
  const IMMUTABLE = `${OWN}node_modules/immutable/dist/immutable.js`;
  const SHIM = `${OWN}src/engine/values/immutableForModels.ts`;
  /** The resolvers after the hook: 'immutable' is `copy` for a parent under `other/`, else modelcheck's. */
  const next = (copy: string) => async (specifier: string, context: { parentURL?: string }) => {
    if (specifier === 'immutable') return { url: context.parentURL?.includes('/other/') ? copy : IMMUTABLE };
    return { url: specifier };
  };
  const resolved = async (parentURL: string, { flatRecords = true, copy = IMMUTABLE } = {}) => {
    initialize({ sources: true, flatRecords });
    return (await resolve('immutable', { parentURL, conditions: [] }, next(copy))).url;
  };

  it("gives it to the model's own modules, and immutable.js itself to packages and to modelcheck's own code", async () => {
    expect(await resolved(`${OWN}models/move.ts`)).toBe(SHIM);
    expect(await resolved('file:///home/user/project/model.ts')).toBe(SHIM);
    expect(await resolved('file:///home/user/project/node_modules/lib/index.js')).toBe(IMMUTABLE);
    expect(await resolved(`${OWN}src/k8s/world.ts`)).toBe(IMMUTABLE);
    expect(await resolved(`${OWN}src/engine/values/immutableForModels.ts`)).toBe(IMMUTABLE);
  });

  it('not with MODELCHECK_RECORDS=immutable, nor where the model would get another copy of immutable.js', async () => {
    expect(await resolved(`${OWN}models/move.ts`, { flatRecords: false })).toBe(IMMUTABLE);
    const copy = 'file:///home/user/other/node_modules/immutable/dist/immutable.js';
    expect(await resolved('file:///home/user/other/model.ts', { copy })).toBe(copy);
  });
});
