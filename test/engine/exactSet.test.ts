// The exact visited set (--exact): states are the same only when their encodings are equal,
// so two different states that share a fingerprint are both kept, and the collision counted.
// Real 64-bit collisions cannot be found on demand, so these tests give equal fingerprints
// to different encodings directly.
import { describe, expect, it } from 'vitest';
import { ExactSeenSet } from '../../src/engine/search/exactSet.ts';
import { NEW } from '../../src/engine/search/seenSet.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('ExactSeenSet', () => {
  it('keeps apart two different states with the same fingerprint, and counts the collision', () => {
    const set = new ExactSeenSet();
    expect(set.put(7, 9, bytes(1, 2, 3), 3, 0)).toBe(NEW);
    expect(set.put(7, 9, bytes(1, 2, 4), 3, 1)).toBe(NEW);
    expect(set.collisions).toBe(1);
    expect(set.size).toBe(2);
    // Each is found again by its own encoding.
    expect(set.put(7, 9, bytes(1, 2, 3), 3, 2)).toBe(0);
    expect(set.get(7, 9, bytes(1, 2, 4), 3)).toBe(1);
    expect(set.get(7, 9, bytes(1, 2, 5), 3)).toBe(-1);
    // A prefix is a different state too.
    expect(set.get(7, 9, bytes(1, 2, 3, 0), 3)).toBe(0);
    expect(set.get(7, 9, bytes(1, 2), 2)).toBe(-1);
  });

  it('finds every state again after growing, with only the bytes up to the length compared', () => {
    const set = new ExactSeenSet(16);
    const n = 5_000;
    const enc = (i: number) => bytes(i & 0xff, (i >>> 8) & 0xff, (i >>> 16) & 0xff, 0xee);
    // Fingerprints with only 64 distinct values: nearly every insert meets collisions.
    for (let i = 0; i < n; i++) expect(set.put(i % 64, 0, enc(i), 4, i)).toBe(NEW);
    expect(set.size).toBe(n);
    for (let i = 0; i < n; i += 7) expect(set.get(i % 64, 0, enc(i), 4)).toBe(i);
    expect(set.collisions).toBeGreaterThan(0);
  });
});
