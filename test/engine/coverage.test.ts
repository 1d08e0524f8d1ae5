// Coverage labels (model.ts Coverage): what a model's steps note is gathered from every thread
// and every run of a resumed search, and a complete search warns of what was never noted. The
// expected warnings are the hand count in test/fixtures/coverageLabels.ts.
import { describe, expect, it } from 'vitest';
import { checkVariant, checkVariantParallel, expanderInThisThread, type Variant } from '../../src/index.ts';
import { counterCoverage, coverageVariant } from '../fixtures/coverageLabels.ts';

const NEVER = ['no step ever reaches 0', 'no step ever reaches 6', 'no step ever reaches 7'];

describe('coverage labels', () => {
  it('warns, after a complete search, of every label no step noted', () => {
    const r = checkVariant(coverageVariant() as Variant<number>);
    expect(r.stats.distinctStates).toBe(6);
    expect(r.warnings).toEqual(NEVER);
  });

  it('forgets what was noted before the search began (by an earlier search in the same process, say)', () => {
    const coverage = counterCoverage();
    coverage.note(6);
    expect(checkVariant(coverageVariant(coverage) as Variant<number>).warnings).toEqual(NEVER);
  });

  it('takes in the labels each thread reports with its level', async () => {
    const v = coverageVariant() as Variant<number>;
    const helper = expanderInThisThread(coverageVariant() as Variant<number>, {});
    // A thread whose model noted a label the others' never do (a worker thread has a copy of its own).
    const reporting = {
      send: (o: Parameters<typeof helper.send>[0]) => helper.send(o),
      report: async () => ({ ...(await helper.report()), coverage: ['reached 6'] }),
    };
    const r = await checkVariantParallel(v, {}, [reporting], { warmUp: 0 });
    expect(r.stats.threads).toEqual({ used: 2 });
    expect(r.warnings).toEqual(['no step ever reaches 0', 'no step ever reaches 7']);
  });

  it('takes in what was noted while the initial states were made, with one thread and with two', async () => {
    const alone = checkVariant(coverageVariant(counterCoverage(), true) as Variant<number>);
    expect(alone.warnings).toEqual(['no step ever reaches 6', 'no step ever reaches 7']);
    // Two threads: the initial states are made by the expanders, whose first report carries the label.
    const v = coverageVariant(counterCoverage(), true) as Variant<number>;
    const helper = expanderInThisThread(coverageVariant(counterCoverage(), true) as Variant<number>, {});
    const split = await checkVariantParallel(v, {}, [helper], { warmUp: 0 });
    expect(split.warnings).toEqual(['no step ever reaches 6', 'no step ever reaches 7']);
  });

  it('says nothing of coverage when the search did not finish', () => {
    const r = checkVariant(coverageVariant() as Variant<number>, { maxStates: 3 });
    expect(r.verdict).toBe('incomplete');
    expect(r.warnings).toEqual([]);
  });
});
