// One end-to-end test block for a variant of models/move.ts: run the CLI on that variant alone,
// then assert its verdict, the exact set of violated properties, the exact state counts and the
// exact action sequence of each counterexample.
//
// The figures are regression figures of the move model (no other tool has checked it): they
// come from the run these assertions were written against, on 2026-12-02, and were read
// against the model's code step by step (README.md, "What the move model shows"). A change
// that moves them must say why.
import { beforeAll, describe, expect, it } from 'vitest';
import { docsRecordOf, expectAsRecorded } from './docsRecord.ts';
import { runCli, traceActions, type CliRun } from './runCli.ts';

export interface VariantExpectation {
  readonly verdict: 'proved' | 'violated';
  readonly counts: { readonly distinct: number; readonly generated: number; readonly depth: number };
  /** Per violated property, in the order the model lists its properties: the trace's actions. */
  readonly traces: Readonly<Record<string, readonly (string | null)[]>>;
  /** Per violated liveness property: where its lasso's cycle starts and the step that closes it. */
  readonly lassos?: Readonly<Record<string, { readonly loop: number; readonly loopAction: string | null }>>;
}

export function describeMoveVariant(variant: string, expected: VariantExpectation): void {
  describeModelVariant('models/move.ts', variant, expected);
}

/** The same block for a variant of another model file. */
export function describeModelVariant(model: string, variant: string, expected: VariantExpectation): void {
  describe(`${model}, variant ${variant}`, () => {
    let run: CliRun;
    let doc: any;
    beforeAll(async () => {
      run = await runCli([model, '--variant', variant, '--json', '--no-progress']);
      doc = JSON.parse(run.stdout);
    }, 1_800_000);

    it(`is ${expected.verdict}, violating exactly ${Object.keys(expected.traces).join(', ') || 'nothing'}, as the model declares (exit 0)`, () => {
      expect(run.exitCode).toBe(0);
      const [v] = doc.variants;
      expect(v.verdict).toBe(expected.verdict);
      expect(v.metExpectations).toBe(true);
      expect(v.violations.map((x: { property: string }) => x.property)).toEqual(Object.keys(expected.traces));
    });

    it('searches the whole state graph', () => {
      const [v] = doc.variants;
      expect({ distinct: v.distinctStates, generated: v.statesGenerated, depth: v.depth }).toEqual(expected.counts);
    });

    if (docsRecordOf(model) !== undefined) {
      it('finds what its generated docs page records: counts, verdicts, warnings and every trace', () => {
        expectAsRecorded(model, doc.variants[0]);
      });
    }

    for (const [property, actions] of Object.entries(expected.traces)) {
      it(`finds the shortest counterexample to ${property}`, () => {
        expect(traceActions(doc, variant, property)).toEqual(actions);
        const x = doc.variants[0].violations.find((y: { property: string }) => y.property === property);
        const lasso = expected.lassos?.[property];
        if (lasso) expect({ loop: x.loop, loopAction: x.loopAction }).toEqual(lasso);
        else expect(x.loop).toBeUndefined();
      });
    }
  });
}
