// Symmetry reduction on TwoPhase, whose resource managers are interchangeable. The reduced
// count is checked against a reference that shares nothing with the engine: a textbook search
// over states as plain JSON, whose classes are then counted by trying every renaming. The sum
// of the classes' sizes must give back the unreduced count, which for three resource managers
// is TLC's 288 (test/engine/classicModels.test.ts cites it).
import { describe, expect, it } from 'vitest';
import { action, checkVariant, eventually, liveness, symmetry, type Variant } from 'modelcheck';
import { twoPhase } from '../fixtures/classic/twoPhase.ts';
import { twoPhaseRecord } from '../fixtures/classic/twoPhaseRecord.ts';

type Plain = { rmState: Record<string, string>; tmState: string; tmPrepared: string[]; msgs: string[] };

/** Every reachable state as plain data, by a textbook breadth-first search; and the depth. */
function reference(n: number): { states: Plain[]; depth: number } {
  const v = twoPhase(n).variants[0];
  const key = (s: Plain) => JSON.stringify([Object.entries(s.rmState).sort(), s.tmState, [...s.tmPrepared].sort(), [...s.msgs].sort()]);
  const plain = (s: unknown) => (s as { toJS(): Plain }).toJS();
  let frontier = [...v.init()];
  const seen = new Map<string, Plain>(frontier.map((s) => [key(plain(s)), plain(s)]));
  let depth = 1;
  while (frontier.length > 0) {
    const next: unknown[] = [];
    for (const s of frontier) {
      for (const a of v.actions) {
        for (const p of a.params ? [...a.params(s)] : [undefined]) {
          const t = a.next(s, p);
          if (t === undefined || seen.has(key(plain(t)))) continue;
          seen.set(key(plain(t)), plain(t));
          next.push(t);
        }
      }
    }
    frontier = next;
    if (next.length > 0) depth++;
  }
  return { states: [...seen.values()], depth };
}

/** The number of classes of `states` under every renaming of r1..rn. */
function classes(states: Plain[], n: number): number {
  const rms = Array.from({ length: n }, (_, i) => `r${i + 1}`);
  const perms = (xs: string[]): string[][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((r) => [x, ...r]));
  const canonical = (s: Plain) =>
    perms(rms)
      .map((order) => {
        const to = (rm: string) => order[rms.indexOf(rm)];
        return JSON.stringify([
          Object.entries(s.rmState)
            .map(([rm, st]) => [to(rm), st])
            .sort(),
          s.tmState,
          s.tmPrepared.map(to).sort(),
          s.msgs.map((m) => (m.startsWith('Prepared ') ? `Prepared ${to(m.slice(9))}` : m)).sort(),
        ]);
      })
      .sort()[0];
  return new Set(states.map(canonical)).size;
}

describe('symmetry reduction', () => {
  for (const n of [3, 4]) {
    it(`TwoPhase with ${n} resource managers: one state per class, standing for every state`, () => {
      const ref = reference(n);
      const r = checkVariant(twoPhase(n, { symmetric: true }).variants[0]);
      expect(r.verdict).toBe('proved');
      expect(r.stats.distinctStates).toBe(classes(ref.states, n));
      expect(r.stats.symmetry).toEqual({ name: 'RM', renamings: n === 3 ? 6 : 24, fullStates: ref.states.length });
      expect(r.stats.depth).toBe(ref.depth);
    });
  }

  it("TwoPhase with 3: 80 classes standing for TLC's 288 states, at depth 11", () => {
    const r = checkVariant(twoPhase(3, { symmetric: true }).variants[0]);
    expect([r.stats.distinctStates, r.stats.symmetry!.fullStates, r.stats.depth]).toEqual([80, 288, 11]);
    // Turned off, every state is searched again.
    const off = checkVariant(twoPhase(3, { symmetric: true }).variants[0], { symmetry: false });
    expect([off.stats.distinctStates, off.stats.statesGenerated, off.stats.symmetry]).toEqual([288, 1146, undefined]);
  });

  it('the same 80 classes with the state declared as a packed record, renamed field by field', () => {
    const r = checkVariant(twoPhaseRecord(3, { symmetric: true }).variants[0]);
    expect([r.stats.distinctStates, r.stats.symmetry!.fullStates, r.stats.depth]).toEqual([80, 288, 11]);
  });

  it('a counterexample under symmetry is a real behaviour, as short as without it', () => {
    const [v] = twoPhase(3, { symmetric: true }).variants;
    const noCommit = {
      name: 'NobodyCommits',
      kind: 'invariant' as const,
      statement: 'No resource manager commits.',
      holds: (s: unknown) => !(s as { rmState: { includes(x: string): boolean } }).rmState.includes('committed'),
    };
    const withSym = checkVariant({ ...v, properties: [noCommit] });
    const without = checkVariant({ ...v, properties: [noCommit] }, { symmetry: false });
    const [x] = withSym.violations;
    expect(x.trace.length).toBe(without.violations[0].trace.length);
    // Replay: every step is one the model takes from the state before it.
    for (let k = 1; k < x.trace.length; k++) {
      const from = x.trace[k - 1].state;
      const ok = v.actions.some((a) =>
        (a.params ? [...a.params(from)] : [undefined]).some((p) => {
          const t = a.next(from, p);
          return t !== undefined && (t as { equals(o: unknown): boolean }).equals(x.trace[k].state);
        }),
      );
      expect(ok, `step ${k} is a step of the model`).toBe(true);
    }
  });

  it('is refused with liveness properties, and with --exact', () => {
    const counter: Variant<number> = {
      name: 'c',
      init: () => [0],
      actions: [action<number>('inc', { next: (n) => (n < 2 ? n + 1 : undefined) })],
      properties: [
        liveness(
          'Two',
          'It reaches 2.',
          eventually((n) => n === 2),
        ),
      ],
      symmetry: symmetry<number, number>('none', [1, 2], (n) => n),
      checkDeadlock: false,
    };
    expect(() => checkVariant(counter)).toThrow(/^symmetry none of variant c is refused: symmetry reduction is sound for safety only/);
    expect(() => checkVariant({ ...counter, properties: [] }, { exact: true })).toThrow(/is refused: --exact compares whole states/);
    // Turned off, the variant is checked as any other (3 states).
    expect(checkVariant(counter, { symmetry: false }).stats.distinctStates).toBe(3);
  });

  it('symmetry() makes every renaming but the identity: 3 ids, 5; 4 ids, 23', () => {
    expect(symmetry<number, number>('s', [1, 2, 3], (n) => n).permutations.length).toBe(5);
    expect(symmetry<number, number>('s', [1, 2, 3, 4], (n) => n).permutations.length).toBe(23);
  });
});
