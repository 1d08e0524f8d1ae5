// docs/bugs.md's table (src/report/bugsTable.ts), from records made by hand here: a row per
// record that reproduces a bug, in the order of the bugs' names, the buggy code's verdict with
// its shortest counterexample's length, the fix's verdict and states, the searches' seconds.
import { describe, expect, it } from 'vitest';
import { bugsPage } from '../../src/report/bugsTable.ts';
import type { DocsManifest, VariantManifest } from '../../src/report/manifest.ts';

const variant = (over: Partial<VariantManifest>): VariantManifest => ({
  verdict: 'proved',
  metExpectations: true,
  distinctStates: 1234,
  statesGenerated: 5000,
  depth: 9,
  properties: {},
  warnings: [],
  violations: [],
  seconds: 0.5,
  ...over,
});

const record = (issue: string, variants: Record<string, VariantManifest>): DocsManifest => ({
  generatedBy: 'npx modelcheck docs x.ts',
  pages: ['x.md'],
  variants,
  reproduces: {
    issue,
    url: `https://example.com/${issue}`,
    mechanism: 'a | b',
    uses: ['finalizers', 'cache lag'],
    buggy: ['old'],
    fixed: ['new'],
  },
});

describe('the table of bugs', () => {
  it('has a row per bug, sorted by its name, with the figures of its record', () => {
    const lasso = variant({
      verdict: 'violated',
      violations: [{ property: 'P', states: 7, loop: 5, steps: [], loopAction: 'a' }],
      seconds: 1.25,
    });
    const page = bugsPage([
      { page: 'z.md', manifest: record('z/z#2', { old: lasso, new: variant({}) }) },
      {
        page: 'a.md',
        manifest: record('a/a#1', {
          old: variant({ verdict: 'violated', violations: [{ property: 'Q', states: 3, loop: null, steps: [], loopAction: null }] }),
          new: variant({ distinctStates: 10 }),
        }),
      },
      { page: 'none.md', manifest: { generatedBy: '', pages: [], variants: {} } },
    ]);
    const rows = page.split('\n').filter((l) => l.startsWith('| ['));
    expect(rows).toEqual([
      '| [a/a#1](https://example.com/a/a#1) ([model](a.md)) | a \\| b | finalizers, cache lag | old: violated, Q in 3 states | new: proved, 10 states | 1.0 s |',
      '| [z/z#2](https://example.com/z/z#2) ([model](z.md)) | a \\| b | finalizers, cache lag | old: violated, P in 7 states (a lasso) | new: proved, 1,234 states | 1.8 s |',
    ]);
  });
});
