// What --watch says moved between two runs (src/report/runChanges.ts), on summaries written by
// hand: each phrase is the one the change calls for, and nothing that did not move is named.
import { describe, expect, it } from 'vitest';
import { runChanges } from '../../src/report/runChanges.ts';
import type { VariantSummary } from '../../src/report/text.ts';

type Status = 'holds' | 'violated' | 'unknown';
function summary(
  variant: string,
  verdict: VariantSummary['verdict'],
  states: number,
  props: Record<string, Status>,
  depth = 8,
): VariantSummary {
  const violated = Object.keys(props).filter((p) => props[p] === 'violated');
  return {
    variant,
    verdict,
    violated,
    expectedViolations: [],
    metExpectations: violated.length === 0,
    distinctStates: states,
    depth,
    properties: Object.entries(props).map(([name, status]) => ({ name, status, vacuous: false })),
  };
}

describe('runChanges', () => {
  it('names nothing when nothing moved', () => {
    const a = [summary('default', 'proved', 16, { NotSolved: 'holds' })];
    expect(runChanges(a, a)).toEqual([]);
  });

  it('a property newly violated, then proved again; the verdict is said by the property', () => {
    const proved = [summary('default', 'proved', 16, { NotSolved: 'holds', Deadlock: 'holds' })];
    const violated = [summary('default', 'violated', 16, { NotSolved: 'violated', Deadlock: 'holds' })];
    expect(runChanges(proved, violated)).toEqual(['NotSolved in default: now violated (was proved)']);
    expect(runChanges(violated, proved)).toEqual(['NotSolved in default: now proved (was violated)']);
  });

  it('counts and depth that moved, variants and properties added and gone', () => {
    const before = [summary('a', 'proved', 1200, { P: 'holds', Q: 'holds' }, 10), summary('b', 'proved', 5, { P: 'holds' })];
    const after = [summary('a', 'proved', 1534, { P: 'holds', R: 'holds' }, 12), summary('c', 'violated', 7, { P: 'violated' })];
    expect(runChanges(before, after)).toEqual([
      'R in a is new: proved',
      'Q in a is no longer checked',
      'a: 1,200 -> 1,534 states, depth 10 -> 12',
      'variant c is new: violated',
      'variant b is gone',
    ]);
  });

  it('an incomplete search proves nothing: its properties are not violated so far, and the verdict moved', () => {
    const before = [summary('default', 'proved', 16, { NotSolved: 'holds' })];
    const after = [summary('default', 'incomplete', 10, { NotSolved: 'holds' }, 5)];
    expect(runChanges(before, after)).toEqual([
      'NotSolved in default: now not violated so far (was proved)',
      'default: 16 -> 10 states, depth 8 -> 5',
    ]);
  });
});
