// Limits that end a search early (time, memory, an interrupt from another thread) stop it
// cleanly: the result says incomplete, why, and what was explored, and never "proved". A
// limit hit in the liveness phase leaves the safety verdicts standing (the graph is complete)
// and the undecided liveness properties unknown.
import { describe, expect, it } from 'vitest';
import { action, checkVariant, eventually, invariant, liveness, weakFairness, type Variant } from 'modelcheck';
import endless from '../fixtures/endless.ts';

const counter = endless.variants[0] as Variant<number>;

function interruptFlag(set = false): Int32Array {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  if (set) Atomics.store(flag, 0, 1);
  return flag;
}

describe('limits stop a search that would never end', () => {
  it('a time limit', () => {
    const r = checkVariant(counter, { timeoutSeconds: 0.3 });
    expect(r.verdict).toBe('incomplete');
    expect(r.incompleteReason).toBe('timeout');
    expect(r.metExpectations).toBe(false);
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([
      ['NotNegative', 'unknown'],
      ['Deadlock', 'unknown'],
    ]);
    expect(r.stats.distinctStates).toBeGreaterThan(256);
    // One state per level: the depth is the number of states explored.
    expect(r.stats.depth).toBe(r.stats.distinctStates);
    expect(r.stats.seconds).toBeGreaterThanOrEqual(0.3);
    expect(r.bounds.timeoutSeconds).toBe(0.3);
  });

  it('a memory ceiling: the process is always larger than 1 MiB, so it stops at the first look', () => {
    const r = checkVariant(counter, { maxMemoryMiB: 1 });
    expect(r.verdict).toBe('incomplete');
    expect(r.incompleteReason).toBe('memory');
    // The limits are looked at every 256 states expanded (stopPoll.ts); the 257th state was
    // stored by the 256th expansion.
    expect(r.stats.distinctStates).toBe(257);
  });

  it('an interrupt set by another thread (the CLI on Ctrl-C) is seen at the first look too', () => {
    const r = checkVariant(counter, { interrupt: interruptFlag(true) });
    expect(r.incompleteReason).toBe('interrupted');
    expect(r.stats.distinctStates).toBe(257);
  });

  it('a limit in the liveness phase: safety verdicts stand, liveness is unknown', () => {
    // Three states, so the breadth-first search never polls (it does every 256); the
    // interrupt, raised by the model's last step, is seen before the first liveness property.
    const flag = interruptFlag();
    const v: Variant<number> = {
      name: 'interruptedLiveness',
      init: () => [0],
      actions: [
        action<number>('inc', {
          next: (n) => {
            if (n === 1) Atomics.store(flag, 0, 1);
            return n < 2 ? n + 1 : undefined;
          },
        }),
        action<number>('stay', { next: (n) => (n === 2 ? n : undefined) }),
      ],
      properties: [
        invariant('Small', 'The counter stays at most 2.', (n) => n <= 2),
        liveness(
          'ReachesTwo',
          'The counter eventually reaches 2.',
          eventually((n) => n === 2),
        ),
      ],
      fairness: [weakFairness('counter', ['inc'])],
    };
    const r = checkVariant(v, { interrupt: flag });
    expect(r.stats.distinctStates).toBe(3);
    expect(r.verdict).toBe('incomplete');
    expect(r.incompleteReason).toBe('interrupted');
    expect(r.properties.map((p) => [p.name, p.status])).toEqual([
      ['Small', 'holds'],
      ['ReachesTwo', 'unknown'],
      ['Deadlock', 'holds'],
    ]);
    // Without the interrupt the same variant is proved.
    expect(checkVariant(v).verdict).toBe('proved');
  });
});
