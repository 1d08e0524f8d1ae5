// check(): every variant of a model in order, or the one asked for, under the model's name.
import { describe, expect, it } from 'vitest';
import { check, defineModel, defineSingleModel } from 'modelcheck';
import { settlingCounter, stoppingCounter } from '../fixtures/counters.ts';

const model = defineModel({ name: 'counters', variants: [stoppingCounter(3), settlingCounter(5)] });

describe('check', () => {
  it('checks every variant, in order, under the model name', () => {
    const r = check(model);
    expect(r.model).toBe('counters');
    expect(r.variants.map((v) => [v.model, v.variant, v.verdict])).toEqual([
      ['counters', 'stoppingCounter(3)', 'violated'],
      ['counters', 'settlingCounter(5)', 'proved'],
    ]);
    // Hand counts: stoppingCounter(3) has 0..3; settlingCounter(5) has 0..5.
    expect(r.variants.map((v) => v.stats.distinctStates)).toEqual([4, 6]);
  });

  it('checks only the variant named in the options', () => {
    const r = check(model, { variant: 'settlingCounter(5)' });
    expect(r.variants.map((v) => v.variant)).toEqual(['settlingCounter(5)']);
  });

  it('passes the search limits to every variant', () => {
    const r = check(model, { maxStates: 2 });
    expect(r.variants.map((v) => [v.verdict, v.stats.distinctStates])).toEqual([
      ['incomplete', 2],
      ['incomplete', 2],
    ]);
  });

  it('names the single variant of defineSingleModel "default"', () => {
    const { name: _name, ...variant } = settlingCounter(1);
    const r = check(defineSingleModel({ name: 'single', ...variant }));
    expect(r.variants.map((v) => v.variant)).toEqual(['default']);
  });
});
