// The record a model's docs pages are rendered from, and how a later run is compared with it:
// every difference of results named, nothing reported when the runs agree, and nothing reported
// for what the model says by itself (a statement, the fairness's wording), which the pages render
// from the model as it is now.
import { describe, expect, it } from 'vitest';
import { checkVariant, type Model } from 'modelcheck';
import dieHard from '../fixtures/dieHard.ts';
import liveness from '../fixtures/liveness.ts';
import { manifestDifferences, variantManifest, variantManifestOf } from '../../src/report/manifest.ts';
import { variantToJson, type Json } from '../../src/report/json.ts';

const loaded: Record<string, Model> = { dieHard, liveness };

const step = (action: string | null, x: number): Json => ({ action, events: [], state: { x } });
const run = (over: Record<string, unknown> = {}): Json =>
  ({
    verdict: 'violated',
    metExpectations: true,
    distinctStates: 4,
    statesGenerated: 7,
    depth: 3,
    warnings: ['action b is never enabled in any reachable state'],
    fairness: [],
    properties: [
      { name: 'Small', kind: 'invariant', statement: 'x stays small.', status: 'violated', vacuous: false },
      { name: 'Settled', kind: 'settled', statement: 'It settles.', status: 'holds', vacuous: true },
    ],
    violations: [{ property: 'Small', trace: [step(null, 0), step('inc', 1), step('inc', 2)] }],
    ...over,
  }) as Json;

describe('variantManifest', () => {
  it("records counts, statuses (vacuous as such), warnings and each trace by its length and its steps' labels", () => {
    const m = variantManifest(run());
    expect(m).toMatchObject({
      verdict: 'violated',
      distinctStates: 4,
      statesGenerated: 7,
      depth: 3,
      properties: { Small: 'violated', Settled: 'vacuous' },
      violations: [{ property: 'Small', states: 3, loop: null, steps: ['inc', 'inc'], loopAction: null }],
    });
  });

  it('gives the same record for a run read back from JSON text', () => {
    expect(variantManifest(JSON.parse(JSON.stringify(run())) as Json)).toEqual(variantManifest(run()));
  });
});

describe('manifestDifferences', () => {
  it('finds none between equal runs', () => {
    expect(manifestDifferences('v', variantManifest(run()), variantManifest(run()))).toEqual([]);
  });

  it('names each count, status, warning and trace step that changed, and not a statement', () => {
    const other = run({
      distinctStates: 5,
      depth: 4,
      warnings: [],
      properties: [
        { name: 'Small', kind: 'invariant', statement: 'x stays small.', status: 'violated', vacuous: false },
        { name: 'Settled', kind: 'settled', statement: 'It settles at last.', status: 'holds', vacuous: false },
      ],
      violations: [{ property: 'Small', trace: [step(null, 0), step('inc', 1), step('double', 2)] }],
    });
    expect(manifestDifferences('v', variantManifest(run()), variantManifest(other))).toEqual([
      'v: distinct states 4 -> 5',
      'v: depth 3 -> 4',
      'v: Settled vacuous -> holds',
      'v: warning no longer given: action b is never enabled in any reachable state',
      "v: Small's counterexample, step 3: inc -> double",
    ]);
  });

  it('names a counterexample whose length changed, and a variant the page does not have', () => {
    const shorter = run({ violations: [{ property: 'Small', trace: [step(null, 0), step('inc', 2)] }] });
    expect(manifestDifferences('v', variantManifest(run()), variantManifest(shorter))).toEqual([
      "v: Small's counterexample 3 states -> 2 states",
    ]);
    expect(manifestDifferences('w', undefined, variantManifest(run()))).toEqual(['w: not on the page']);
  });

  it('names warnings that come in another order', () => {
    const two = run({ warnings: ['a', 'b'] });
    expect(manifestDifferences('v', variantManifest(two), variantManifest(run({ warnings: ['b', 'a'] })))).toEqual([
      'v: the warnings come in another order',
    ]);
  });
});

describe('the generator and the tests compute the same record', () => {
  it("from a result and from its --json form, for a safety trace and for a liveness lasso, but for the initial state's number and the seconds", () => {
    for (const file of ['dieHard', 'liveness']) {
      const model = loaded[file];
      for (const v of model.variants) {
        const r = checkVariant(v, { modelName: model.name });
        const fromResult = variantManifestOf(r, () => 0);
        expect(fromResult.violations.every((x) => x.init === 0)).toBe(true);
        // The generator's record also keeps the search's seconds, to a tenth (for docs/bugs.md), which nothing compares.
        expect(fromResult.seconds).toBe(Math.round(r.stats.seconds * 10) / 10);
        const { violations, seconds: _seconds, ...rest } = fromResult;
        expect({ ...rest, violations: violations.map(({ init: _, ...x }) => x) }).toEqual(
          variantManifest(JSON.parse(JSON.stringify(variantToJson(r)))),
        );
      }
    }
  });
});
