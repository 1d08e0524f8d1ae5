// The model contract's helpers: how steps are labelled, and how models are recognised.
import { describe, expect, it } from 'vitest';
import { action, defineModel, invariant, isModel, stepLabel } from 'modelcheck';

describe('stepLabel', () => {
  it('labels an action without parameters by its name alone', () => {
    expect(stepLabel(action<number>('tick', { next: (s) => s }), undefined)).toBe('tick');
  });

  it('labels a parameterized action name(param) with String by default', () => {
    const inc = action<number, number>('inc', { params: () => [2], next: (s, p) => s + p });
    expect(stepLabel(inc, 2)).toBe('inc(2)');
  });

  it('labels a parameterized action with formatParam when given', () => {
    const send = action<number, { to: string }>('net.send', {
      params: () => [{ to: 'b' }],
      next: (s) => s,
      formatParam: (p) => `to ${p.to}`,
    });
    expect(stepLabel(send, { to: 'b' })).toBe('net.send(to b)');
  });
});

describe('isModel', () => {
  it('recognises a defineModel result and nothing else', () => {
    expect(isModel(defineModel({ name: 'm', variants: [] }))).toBe(true);
    expect(isModel({ name: 'm', variants: [] })).toBe(false);
    expect(isModel(null)).toBe(false);
    expect(isModel(invariant('P', 'p', () => true))).toBe(false);
  });
});
