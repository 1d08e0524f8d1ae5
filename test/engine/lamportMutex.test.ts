// Lamport's mutual exclusion under a state constraint, against TLC's figures for the TLA+
// examples' MCLamportMutex (N = 3, maxClock = 6, CONSTRAINT ClockConstraint): 724,274 distinct
// states, 2,729,079 generated, depth 61 (tlaplus/Examples specifications/lamport_mutex/
// manifest.json). The generated count includes the states the constraint keeps out, as TLC's.
import { describe, expect, it } from 'vitest';
import { checkVariant } from 'modelcheck';
import type { Model } from 'modelcheck';
import model from '../fixtures/classic/lamportMutex.ts';
import plain from '../fixtures/classic/lamportMutexPlain.ts';
import packed from '../fixtures/classic/lamportMutexPacked.ts';
import record from '../fixtures/classic/lamportMutexRecord.ts';

describe('LamportMutex (TLC figures: MCLamportMutex in the TLA+ examples)', () => {
  const cases: [string, Model][] = [
    ['with immutable.js Lists, Sets and Records', model as Model],
    ['with plain arrays and objects', plain as Model],
    ['with its state packed by hand into small integers', packed as Model],
    ['with its state declared as a packed record', record as Model],
  ];
  for (const [how, m] of cases) {
    it(`${how}: reproduces TLC: 724,274 distinct, 2,729,079 generated, depth 61; Mutex and BoundedNetwork hold, no deadlock`, () => {
      const r = checkVariant(m.variants[0]);
      expect(r.stats.distinctStates).toBe(724_274);
      expect(r.stats.statesGenerated).toBe(2_729_079);
      expect(r.stats.depth).toBe(61);
      expect(r.verdict).toBe('proved');
      expect(r.properties.map((p) => `${p.name} ${p.status}`)).toEqual(['Mutex holds', 'BoundedNetwork holds', 'Deadlock holds']);
    }, 300_000);
  }
});
