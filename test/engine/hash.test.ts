// MurmurHash3 x86_128 resumed from a prefix's lanes (hash.ts): the same digest as hashing the
// prefix and the rest in one buffer, for every split the encoder can make (a Record type's
// names, hashed once, then a part's values).
import { describe, expect, it } from 'vitest';
import { murmur3x86_128, murmur3x86_128Prefix, murmur3x86_128Resume } from '../../src/engine/values/hash.ts';

/** Deterministic bytes (a linear congruential generator), so a failure can be replayed. */
function bytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

function oneShot(b: Uint8Array): number[] {
  const out = new Uint32Array(4);
  murmur3x86_128(new DataView(b.buffer), 0, b.length, out);
  return [...out];
}

describe('murmur3x86_128Resume', () => {
  it('gives the one-shot digest for every prefix length up to 80 and rest up to 40 bytes', () => {
    for (let p = 0; p <= 80; p++) {
      for (let r = 0; r <= 40; r++) {
        const all = bytes(p + r, 7 * p + r + 1);
        const head = all.slice(0, p);
        const lanes = murmur3x86_128Prefix(head);
        const whole = p & ~15;
        // The prefix's last p % 16 bytes are not in its lanes: they begin the rest, as the
        // encoder writes them (RecordLayout.digestTail) before the values.
        const rest = all.slice(whole);
        const out = new Uint32Array(4);
        murmur3x86_128Resume(new DataView(rest.buffer), 0, rest.length, out, lanes, whole);
        expect([...out], `prefix ${p}, rest ${r}`).toEqual(oneShot(all));
      }
    }
  });

  it('reads the rest from where it starts in the buffer', () => {
    const all = bytes(100, 3);
    const lanes = murmur3x86_128Prefix(all.slice(0, 48));
    const buf = new Uint8Array(200);
    buf.set(all.slice(48), 77);
    const out = new Uint32Array(4);
    murmur3x86_128Resume(new DataView(buf.buffer), 77, 52, out, lanes, 48);
    expect([...out]).toEqual(oneShot(all));
  });

  it('starts from seed 0: an empty prefix resumes as the plain hash', () => {
    const b = bytes(33, 11);
    const out = new Uint32Array(4);
    murmur3x86_128Resume(new DataView(b.buffer), 0, b.length, out, murmur3x86_128Prefix(new Uint8Array(0)), 0);
    expect([...out]).toEqual(oneShot(b));
  });
});
