// One end-to-end test block for a variant of a model with generated docs (models/move.ts,
// models/moveBack.ts): run the CLI on that variant alone, then assert that its verdict is the one
// the model declares, and that the run found exactly what the docs record holds
// (docs/<model>.manifest.json): the counts, every property's status, the warnings, and each
// counterexample step by step, with where its lasso's cycle starts and the step that closes it.
//
// The figures live in the record alone, written by the last full `npx modelcheck docs` run and
// rendered into the model's pages; they are regression figures of the model (no other tool has
// checked it), read against the model's code step by step (README.md, "What the move model
// finds"). A change that moves them fails here, naming each difference; if it is meant, the full
// docs run records the new results, and its commit says why.
import { beforeAll, describe, expect, it } from 'vitest';
import { docsRecordOf, expectAsRecorded } from './docsRecord.ts';
import { runCli, traceActions, type CliRun } from './runCli.ts';

export function describeMoveVariant(variant: string): void {
  describeModelVariant('models/move.ts', variant);
}

/** Runs the CLI on one variant (--json) before the block's tests; its run and parsed document once done. */
function runOnce(model: string, variant: string): { run: CliRun; doc: any } {
  const ran = {} as { run: CliRun; doc: any };
  beforeAll(async () => {
    ran.run = await runCli([model, '--variant', variant, '--json', '--no-progress']);
    ran.doc = JSON.parse(ran.run.stdout);
  }, 1_800_000);
  return ran;
}

/** The same block for a variant of another model file with a docs record. */
export function describeModelVariant(model: string, variant: string): void {
  const record = docsRecordOf(model)?.manifest.variants[variant];
  describe(`${model}, variant ${variant}`, () => {
    const ran = runOnce(model, variant);

    it(`is ${record?.verdict ?? '(not in the record)'} as the model declares, and as the docs record says (exit 0)`, () => {
      expect(record, `${variant} is in the docs record of ${model}`).toBeDefined();
      expect(ran.run.exitCode).toBe(0);
      expect(ran.doc.variants[0].metExpectations).toBe(true);
    });

    it('finds what the docs record holds: counts, verdicts, warnings and every trace, step by step', () => {
      expectAsRecorded(model, ran.doc.variants[0]);
    });
  });
}

/** What a model without a docs record is expected to find: its figures pinned here, their only place. */
export interface VariantExpectation {
  readonly verdict: 'proved' | 'violated';
  readonly counts: { readonly distinct: number; readonly generated: number; readonly depth: number };
  /** Per violated property, in the order the model lists its properties: the trace's actions. */
  readonly traces: Readonly<Record<string, readonly (string | null)[]>>;
  /** Per violated liveness property: where its lasso's cycle starts and the step that closes it. */
  readonly lassos?: Readonly<Record<string, { readonly loop: number; readonly loopAction: string | null }>>;
}

/** The block for a variant of a model with no docs record (the examples), against figures given here. */
export function describeExampleVariant(model: string, variant: string, expected: VariantExpectation): void {
  describe(`${model}, variant ${variant}`, () => {
    const ran = runOnce(model, variant);

    it(`is ${expected.verdict}, violating exactly ${Object.keys(expected.traces).join(', ') || 'nothing'}, as the model declares (exit 0)`, () => {
      expect(ran.run.exitCode).toBe(0);
      const [v] = ran.doc.variants;
      expect(v.verdict).toBe(expected.verdict);
      expect(v.metExpectations).toBe(true);
      expect(v.violations.map((x: { property: string }) => x.property)).toEqual(Object.keys(expected.traces));
    });

    it('searches the whole state graph', () => {
      const [v] = ran.doc.variants;
      expect({ distinct: v.distinctStates, generated: v.statesGenerated, depth: v.depth }).toEqual(expected.counts);
    });

    for (const [property, actions] of Object.entries(expected.traces)) {
      it(`finds the shortest counterexample to ${property}`, () => {
        expect(traceActions(ran.doc, variant, property)).toEqual(actions);
        const x = ran.doc.variants[0].violations.find((y: { property: string }) => y.property === property);
        const lasso = expected.lassos?.[property];
        if (lasso) expect({ loop: x.loop, loopAction: x.loopAction }).toEqual(lasso);
        else expect(x.loop).toBeUndefined();
      });
    }
  });
}
