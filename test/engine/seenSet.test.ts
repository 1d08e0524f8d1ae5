// The visited set: one probe sequence answers "seen before?" and inserts, and growing the
// table keeps every entry with the id it was first stored with.
import { describe, expect, it } from 'vitest';
import { NEW, SeenSet } from '../../src/engine/search/seenSet.ts';

/** xorshift32: a fixed pseudo-random sequence, so a failure reproduces. */
function xorshift(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

describe('SeenSet', () => {
  it('answers NEW for a new fingerprint, then the id it was first stored with', () => {
    const s = new SeenSet();
    expect(s.put(1, 2, 7)).toBe(NEW);
    expect(s.put(1, 2, 8)).toBe(7);
    expect(s.put(1, 2, 9)).toBe(7);
    expect(s.get(1, 2)).toBe(7);
    expect(s.size).toBe(1);
  });

  it('stores id 0 and the all-zero fingerprint like any other', () => {
    const s = new SeenSet();
    expect(s.put(0, 0, 0)).toBe(NEW);
    expect(s.put(0, 0, 1)).toBe(0);
    expect(s.get(0, 0)).toBe(0);
  });

  it('answers -1 from get for a fingerprint never put', () => {
    const s = new SeenSet();
    s.put(1, 2, 0);
    expect(s.get(2, 1)).toBe(-1);
    expect(s.get(1, 3)).toBe(-1);
  });

  it('keeps fingerprints that differ in one half, or share a slot, apart', () => {
    const s = new SeenSet(16);
    // With hi = 0 the slot is lo & 15, so lo = 15, 31, 47 all start at slot 15, the last one,
    // and probing wraps around to slots 0 and 1.
    expect(s.put(0, 15, 0)).toBe(NEW);
    expect(s.put(0, 31, 1)).toBe(NEW);
    expect(s.put(0, 47, 2)).toBe(NEW);
    expect(s.put(1, 15, 3)).toBe(NEW);
    expect([s.get(0, 15), s.get(0, 31), s.get(0, 47), s.get(1, 15)]).toEqual([0, 1, 2, 3]);
    expect(s.size).toBe(4);
  });

  it('keeps all 100,000 entries, with their ids, when growing from 16 slots', () => {
    const s = new SeenSet(16);
    const rand = xorshift(0x2545f491);
    const his: number[] = [];
    const los: number[] = [];
    for (let i = 0; i < 100_000; i++) {
      // hi = i * odd constant mod 2^32 is a bijection on i, so all 100,000 pairs are distinct.
      his.push(Math.imul(i, 0x27d4eb2d) >>> 0);
      los.push(rand());
      expect(s.put(his[i], los[i], i)).toBe(NEW);
    }
    expect(s.size).toBe(100_000);
    let wrong = 0;
    for (let i = 0; i < 100_000; i++) {
      if (s.get(his[i], los[i]) !== i) wrong++;
      if (s.put(his[i], los[i], -5) !== i) wrong++;
    }
    expect(wrong).toBe(0);
    // Re-putting existing entries must not count them again.
    expect(s.size).toBe(100_000);
  });
});
