// The frontier queue (src/engine/search/stateQueue.ts) gives back what went in, in order, whatever it
// held the states as: objects, a packed state's words in a typed array, or bytes.
import { describe, expect, it } from 'vitest';
import { Map } from 'immutable';
import { packed } from 'modelcheck';
import { StateCodec } from '../../src/engine/values/stateCodec.ts';
import { StateQueue } from '../../src/engine/search/stateQueue.ts';
import { Storage } from '../../src/engine/search/storage.ts';
import { PackedValue } from '../../src/engine/values/packed/packedType.ts';

const { record, int, seqOf, setOf } = packed;
const Small = record('Small', { n: int(-5, 5), s: setOf([0, 1, 2]) });
const Large = record('Large', { q: seqOf(int(0, 2 ** 30 - 1), 3), k: int(-(2 ** 30), 0) });
const Empty = record('Empty', {});

describe('the frontier queue', () => {
  it('gives back packed states of several types, mixed with other states, equal and in order, none of them as decoded bytes', () => {
    const queue = new StateQueue<unknown>(new StateCodec(), new Storage({ storage: 'objects' }));
    const states: unknown[] = [
      Small({ n: -5, s: [2] }),
      Small({ n: 5, s: [0, 1, 2] }),
      Large({ q: [2 ** 30 - 1, 0], k: -(2 ** 30) }),
      Map({ a: 1 }),
      Small(),
      // A value read from inside another: its words start past the array's first.
      Large({ q: [7] }).q,
      // No words at all (kept as an object), twice, then packed words again.
      Empty(),
      Empty(),
      Small({ n: 1 }),
    ];
    for (const s of states) queue.push(s);
    expect(queue.size).toBe(states.length);
    for (const s of states) {
      const t = queue.take();
      expect(queue.decoded).toBe(false);
      if (s instanceof PackedValue) {
        expect(t).toBeInstanceOf(PackedValue);
        expect((t as PackedValue).$type).toBe(s.$type);
        expect((t as PackedValue).words()).toEqual(s.words());
      } else expect(t).toBe(s);
      if (s instanceof PackedValue && s.$type.slots === 0) expect(t).toBe(s);
    }
    expect(queue.size).toBe(0);
  });

  it('keeps packed states apart from the chunk they share once a level outgrows it (a million words a chunk)', () => {
    const queue = new StateQueue<unknown>(new StateCodec(), new Storage({ storage: 'objects' }));
    // 3 words each: 100,000 states fill more than one chunk of 2^18 words.
    const made = Array.from({ length: 100_000 }, (_, i) => Small({ n: (i % 11) - 5, s: [(i % 3) as 0 | 1 | 2] }));
    for (const s of made) queue.push(s);
    const different = made.filter((s) => !(queue.take() as PackedValue).equals(s));
    expect(different).toEqual([]);
  });
});
