// Model parameters (defineModel's `parameters`, the CLI's --param): the variants are rebuilt from
// the values given, the others keep their defaults, and every mistake is an MC006 error naming
// the model and the parameter. Counts are hand counts of the counter fixture: 0..top is top + 1
// states, depth top + 1; with step 2 and top 5: 0, 2, 4, three states.
import { describe, expect, it } from 'vitest';
import { check, configureModel, defineModel, ModelError, type Model } from 'modelcheck';
import counter from '../fixtures/parameterized.ts';

const distinct = (m: Model) => check(m).variants[0].stats.distinctStates;

function mistake(model: Model, assignments: string[]): ModelError {
  try {
    configureModel(model, assignments);
  } catch (e) {
    if (e instanceof ModelError) return e;
    throw e;
  }
  throw new Error(`configureModel accepted ${assignments.join(' ')}`);
}

describe('model parameters', () => {
  it('builds the variants with the defaults, and again with the values given', () => {
    expect(counter.parameterValues).toEqual({ top: 3, step: 1 });
    expect(distinct(counter)).toBe(4);
    const ten = configureModel(counter, ['top=10']);
    expect(ten.parameterValues).toEqual({ top: 10, step: 1 });
    expect(check(ten).variants[0].stats).toMatchObject({ distinctStates: 11, statesGenerated: 11, depth: 11 });
    expect(distinct(configureModel(counter, ['top=5', 'step=2']))).toBe(3);
    // The original is unchanged, and no assignment gives the model itself.
    expect(distinct(counter)).toBe(4);
    expect(configureModel(counter, [])).toBe(counter);
  });

  it('refuses a name the model does not declare, listing the ones it does', () => {
    const e = mistake(counter, ['tops=4']);
    expect(e.code).toBe('MC006_BAD_PARAMETER');
    expect(e.message).toBe('model parameterized-counter has no parameter "tops"');
    expect(e.details.hint).toBe('its parameters: top (1 to 1000), step (1 to 2)');
  });

  it.each([
    ['top=0', '"0"'],
    ['top=1001', '"1001"'],
    ['top=2.5', '"2.5"'],
    ['top=', '""'],
    ['top', '""'],
    ['top=ten', '"ten"'],
  ])('refuses %s: not a whole number in range', (text, shown) => {
    const e = mistake(counter, [text]);
    expect(e.code).toBe('MC006_BAD_PARAMETER');
    expect(e.message).toBe(`parameter top of model parameterized-counter takes a whole number from 1 to 1000, default 3, not ${shown}`);
    expect(e.details.subject).toBe('top');
  });

  it('refuses a parameter set twice', () => {
    expect(mistake(counter, ['top=4', 'top=5']).message).toBe('parameter top of model parameterized-counter is set twice');
  });

  it('refuses --param on a model without parameters', () => {
    const plain = defineModel({
      name: 'plain',
      variants: [{ name: 'default', init: () => [0], actions: [], properties: [], checkDeadlock: false }],
    });
    const e = mistake(plain, ['n=1']);
    expect(e.code).toBe('MC006_BAD_PARAMETER');
    expect(e.message).toBe('model plain declares no parameters, so --param n=1 sets nothing');
  });

  it('checks the parameters of a model whose variants do not depend on them, as any other', () => {
    const fixed = defineModel({
      name: 'fixed',
      parameters: { n: { description: 'a number', default: 1, min: 1, max: 9 } },
      variants: [{ name: 'default', init: () => [0], actions: [], properties: [], checkDeadlock: false }],
    });
    expect(fixed.parameterValues).toEqual({ n: 1 });
    expect(configureModel(fixed, ['n=4']).parameterValues).toEqual({ n: 4 });
    expect(mistake(fixed, ['n=10']).message).toBe('parameter n of model fixed takes a whole number from 1 to 9, default 1, not "10"');
  });

  it('reports a model that throws while it is built with the values given', () => {
    const fussy = defineModel({
      name: 'fussy',
      parameters: { n: { description: 'a number', default: 1, min: 1, max: 9 } },
      variants: (p) => {
        if (p.n === 7) throw new Error('seven is not supported');
        return [{ name: 'default', init: () => [p.n], actions: [], properties: [], checkDeadlock: false }];
      },
    });
    const e = mistake(fussy, ['n=7']);
    expect(e.code).toBe('MC006_BAD_PARAMETER');
    expect(e.message).toBe('model fussy could not be built with n=7: seven is not supported');
  });
});
