// List.update's fast path (src/engine/values/listUpdate.ts), which the CLI puts on immutable.js's
// List prototype for a model it loads, against immutable.js's own update: for Lists short and
// long (past 32 elements a List is a trie), drafts, every index kind (inside, negative, past the
// end, fractional, a string), each arity, and updaters that keep or change the value, the two give
// equal Lists, and the List itself exactly when immutable.js gives it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { is, List } from 'immutable';
import { immutableListUpdate, installListUpdate } from '../../src/engine/values/listUpdate.ts';

installListUpdate();
type Call = (l: List<unknown>) => unknown;

describe("List.update's fast path", () => {
  it('is installed, and is not immutable.js own', () => {
    expect(List.prototype.update).not.toBe(immutableListUpdate);
  });

  it('gives what immutable.js gives, the same List where it keeps it', () => {
    const index = fc.oneof(fc.integer({ min: -40, max: 45 }), fc.constantFrom(1.5, -0, Number.NaN, '1', '03', 'x'));
    const updater = fc.constantFrom<(v: unknown) => unknown>(
      (v) => v,
      (v) => (typeof v === 'number' ? v + 1 : 7),
      () => undefined,
      () => 'new',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constant(undefined)), { maxLength: 40 }),
        index,
        updater,
        fc.constantFrom(2, 3, 'falsy', 'draft'),
        (values, i, f, form) => {
          const list = List<unknown>(values);
          const call: Call =
            form === 2
              ? (l) => (l.update as (...a: unknown[]) => unknown)(i, f)
              : form === 3
                ? (l) => (l.update as (...a: unknown[]) => unknown)(i, 'unset', f)
                : form === 'falsy'
                  ? (l) => (l.update as (...a: unknown[]) => unknown)(i, f, undefined)
                  : (l) => l.withMutations((d) => (d.update as (...a: unknown[]) => unknown)(i, f));
          const viaImmutable: Call =
            form === 2
              ? (l) => immutableListUpdate.call(l, i, f)
              : form === 3
                ? (l) => immutableListUpdate.call(l, i, 'unset', f)
                : form === 'falsy'
                  ? (l) => immutableListUpdate.call(l, i, f, undefined)
                  : (l) => l.withMutations((d) => immutableListUpdate.call(d, i, f));
          const outcome = (c: Call) => {
            try {
              return { value: c(list) };
            } catch (e) {
              return { error: (e as Error).message };
            }
          };
          const fast = outcome(call);
          const own = outcome(viaImmutable);
          expect('error' in fast ? fast.error : undefined).toBe('error' in own ? own.error : undefined);
          if ('value' in fast && 'value' in own) {
            expect(is(fast.value, own.value)).toBe(true);
            expect(fast.value === list).toBe(own.value === list);
            expect((fast.value as List<unknown>).size).toBe((own.value as List<unknown>).size);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
