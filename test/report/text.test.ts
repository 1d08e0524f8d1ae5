// The text report's counterexamples: the first prints its initial state whole, the others only
// how theirs differs from it. Hand-made model: two initial states, {x: 0, y: 0} and {x: 0, y: 5};
// `inc` adds 1 to x up to 3. XBelow2 is first violated at x = 2 from the first initial state
// (3 states, breadth first); YBelow5 at the second initial state itself (1 state).
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { Record } from 'immutable';
import { action, checkVariant, invariant, type Variant } from 'modelcheck';
import { formatVariant } from '../../src/report/text.ts';

const S = Record({ x: 0, y: 0 }, 'S');
type S = ReturnType<typeof S>;
const variant: Variant<S> = {
  name: 'two',
  init: () => [S(), S({ y: 5 })],
  actions: [action<S>('inc', { next: (s) => (s.x < 3 ? s.set('x', s.x + 1) : undefined) })],
  properties: [invariant('XBelow2', 'x stays below 2.', (s) => s.x < 2), invariant('YBelow5', 'y stays below 5.', (s) => s.y < 5)],
  checkDeadlock: false,
};

const counterexamples = (trace: 'changes' | 'full') => {
  const text = formatVariant(checkVariant(variant), { chalk: new Chalk({ level: 0 }), trace });
  return text.slice(text.indexOf('  XBelow2 is violated'));
};

describe('the text report of several counterexamples', () => {
  it('prints the first initial state whole and the next one as its difference from it', () => {
    expect(counterexamples('changes')).toBe(
      [
        '  XBelow2 is violated [invariant]',
        '    "x stays below 2."',
        '    shortest counterexample, 3 states:',
        '     1. initial state',
        '        x = 0',
        '        y = 0',
        '     2. inc',
        '        x: 0 -> 1',
        '     3. inc',
        '        x: 1 -> 2',
        '',
        '  YBelow5 is violated [invariant]',
        '    "y stays below 5."',
        '    shortest counterexample, 1 state:',
        '     1. initial state: as in the counterexample to XBelow2 above, except',
        '        y: 0 -> 5',
      ].join('\n'),
    );
  });

  it('prints every state whole with --trace full', () => {
    expect(counterexamples('full')).toContain(['     1. initial state', '        x = 0', '        y = 5'].join('\n'));
  });
});

describe('a deadlock', () => {
  // The same counter with deadlock checking on: x = 3 has no successor, 4 states from x = 0.
  it('is printed with a hint for systems that are meant to come to rest', () => {
    const text = formatVariant(checkVariant({ ...variant, name: 'stuck', properties: [], checkDeadlock: true }), {
      chalk: new Chalk({ level: 0 }),
      trace: 'changes',
    });
    const at = text.indexOf('  Deadlock is violated');
    expect(text.slice(at, text.indexOf('     1.', at))).toBe(
      [
        '  Deadlock is violated [deadlock]',
        '    "Every reachable state has at least one successor."',
        '    shortest counterexample, 4 states:',
        '',
      ].join('\n'),
    );
    expect(
      text.endsWith(
        [
          '     4. inc',
          '        x: 2 -> 3',
          '    hint: a state with no step left is reported as a deadlock. If it is where the system is meant to',
          '      come to rest (a Kubernetes world whose caches and controllers have all caught up, a protocol',
          '      that has finished), set checkDeadlock: false in the variant and state what such a state must',
          '      satisfy with settledInvariant (docs/guide.md, "Deadlock").',
        ].join('\n'),
      ),
    ).toBe(true);
  });
});
