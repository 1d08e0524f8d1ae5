// The trace log: parent links, actions, fingerprints and depths in typed arrays, kept intact
// when they grow, and walked back from any state to its initial state.
import { describe, expect, it } from 'vitest';
import { StateLog } from '../../src/engine/search/trace.ts';

describe('StateLog', () => {
  it('walks a path back to its initial state, in order', () => {
    const log = new StateLog();
    const a = log.add(-1, -1, { hi: 1, lo: 1 }, 1);
    const b = log.add(-1, -1, { hi: 2, lo: 2 }, 1);
    const c = log.add(b, 0, { hi: 3, lo: 3 }, 2);
    const d = log.add(c, 1, { hi: 4, lo: 4 }, 3);
    expect([a, b, c, d]).toEqual([0, 1, 2, 3]);
    expect(log.pathTo(d)).toEqual([1, 2, 3]);
    expect(log.pathTo(a)).toEqual([0]);
    expect([log.actionOf(c), log.actionOf(d), log.depth(d)]).toEqual([0, 1, 3]);
    expect(log.matches(d, { hi: 4, lo: 4 })).toBe(true);
    expect(log.matches(d, { hi: 4, lo: 3 })).toBe(false);
  });

  it('keeps every entry when growing past its first 1024 slots', () => {
    const log = new StateLog();
    // A chain of 3000 states: state i has parent i - 1, action i % 7, fingerprint (i, 2^32 - 1 - i).
    for (let i = 0; i < 3000; i++) log.add(i - 1, i === 0 ? -1 : i % 7, { hi: i, lo: 0xffffffff - i }, i + 1);
    expect(log.size).toBe(3000);
    const path = log.pathTo(2999);
    expect(path.length).toBe(3000);
    expect(path.every((id, k) => id === k)).toBe(true);
    const fp = { hi: 0, lo: 0 };
    log.fingerprintOf(1500, fp);
    expect(fp).toEqual({ hi: 1500, lo: 0xffffffff - 1500 });
    expect([log.actionOf(2999), log.depth(2999)]).toEqual([2999 % 7, 3000]);
  });
});
