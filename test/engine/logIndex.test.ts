// The search's visited set, an index of ids over the trace log's fingerprints: one probe sequence
// answers "seen before?" and inserts; growing keeps every state with its id; and the table and
// the log together hold at most 24 bytes a state once past the log's first chunk (issue 7's
// budget, TLC's 8-byte fingerprint plus a predecessor pointer being the reference).
import { describe, expect, it } from 'vitest';
import { LogIndex, NEW } from '../../src/engine/search/logIndex.ts';
import { StateLog } from '../../src/engine/search/trace.ts';

/** Puts (hi, lo) and, when new, logs it as the next state, as the search does. */
function visit(index: LogIndex, log: StateLog, hi: number, lo: number): number {
  const known = index.put(hi, lo, log.size);
  if (known === NEW) log.add(log.size === 0 ? -1 : 0, log.size === 0 ? -1 : 0, { hi, lo }, log.size === 0 ? 1 : 2);
  return known;
}

describe('LogIndex', () => {
  it('answers NEW for a new fingerprint, then the id it was logged with', () => {
    const log = new StateLog();
    const index = new LogIndex(log);
    expect(visit(index, log, 1, 2)).toBe(NEW);
    expect(visit(index, log, 3, 4)).toBe(NEW);
    expect(visit(index, log, 1, 2)).toBe(0);
    expect(visit(index, log, 3, 4)).toBe(1);
    expect(index.get(3, 4)).toBe(1);
    expect(index.get(4, 3)).toBe(-1);
    expect([index.size, log.size]).toEqual([2, 2]);
  });

  it('stores the all-zero fingerprint and id 0 like any other', () => {
    const log = new StateLog();
    const index = new LogIndex(log);
    expect(visit(index, log, 0, 0)).toBe(NEW);
    expect(visit(index, log, 0, 0)).toBe(0);
    expect(index.get(0, 0)).toBe(0);
    expect(index.get(0, 1)).toBe(-1);
  });

  it('keeps fingerprints that share a slot apart, probing past the last slot to the first', () => {
    const log = new StateLog();
    const index = new LogIndex(log, 16);
    // With hi = 0 the slot is floor(lo * 16 / 2^32): every lo from 0xf0000000 up starts at
    // slot 15, the last one, so the second and third wrap around to slots 0 and 1.
    const los = [0xf0000000, 0xf0000001, 0xffffffff];
    for (const lo of los) expect(visit(index, log, 0, lo)).toBe(NEW);
    expect(visit(index, log, 1, 0xf0000000)).toBe(NEW);
    expect([...los.map((lo) => index.get(0, lo)), index.get(1, 0xf0000000)]).toEqual([0, 1, 2, 3]);
  });

  it('tells apart fingerprints whose tags (the low bits of lo kept beside each id) are equal, or whose lo is equal', () => {
    const log = new StateLog();
    const index = new LogIndex(log, 16);
    // lo's low 16 bits are all equal: every tag is the same while the table is small, and the
    // log's fingerprints decide. Then the same los with other his: equal lo, different states.
    const fps: [number, number][] = [];
    for (let i = 0; i < 2000; i++) fps.push([i, ((i * 0x9e37) << 16) | 0xbeef]);
    for (let i = 0; i < 2000; i++) fps.push([i + 0x10000, fps[i][1]]);
    for (const [hi, lo] of fps) expect(visit(index, log, hi, lo >>> 0)).toBe(NEW);
    const ids = fps.map(([hi, lo]) => index.get(hi, lo >>> 0));
    expect(ids).toEqual(fps.map((_, i) => i));
    expect(index.get(5, 0xbeef)).toBe(-1);
  });

  it('keeps all 300,000 states with their ids while growing from 16 slots, within 24 bytes a state', () => {
    const log = new StateLog();
    const index = new LogIndex(log, 16);
    let x = 0x2545f491;
    const his: number[] = [];
    const los: number[] = [];
    for (let i = 0; i < 300_000; i++) {
      // xorshift32 for lo; hi = i * an odd constant, a bijection on i: all pairs are distinct.
      x ^= x << 13;
      x >>>= 0;
      x ^= x >>> 17;
      x ^= x << 5;
      x >>>= 0;
      his.push(Math.imul(i, 0x27d4eb2d) >>> 0);
      los.push(x);
      expect(visit(index, log, his[i], los[i])).toBe(NEW);
    }
    let wrong = 0;
    for (let i = 0; i < 300_000; i++) {
      if (index.get(his[i], los[i]) !== i) wrong++;
      if (visit(index, log, his[i], los[i]) !== i) wrong++;
    }
    expect(wrong).toBe(0);
    expect([index.size, log.size]).toEqual([300_000, 300_000]);
    // Log: 14 bytes a state in chunks of 65,536 (5 chunks here), plus 8 bytes for each of the two
    // depths; table: 4 bytes a slot, grown by half from 16 slots whenever three quarters full.
    let cap = 16;
    while (Math.floor(cap * 0.75) < 300_000) cap = Math.ceil(cap * 1.5);
    expect(log.bytes).toBe(5 * 65_536 * 14 + 2 * 8);
    expect(index.bytes).toBe(4 * cap);
    expect((log.bytes + index.bytes) / 300_000).toBeLessThanOrEqual(24);
  });
});
