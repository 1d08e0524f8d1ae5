// Trace files the explorer opens (src/explore/counterexamples.ts): an ITF file as --out-itf
// writes it and a --json report, read back into paths; a file of another model is refused.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check } from 'modelcheck';
import { readTraceFile } from '../../src/explore/counterexamples.ts';
import { violationToItf } from '../../src/report/itf.ts';
import { resultToJson } from '../../src/report/json.ts';
import dieHard from '../fixtures/dieHard.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-explore-'));
const result = check(dieHard);
const [v] = result.variants;
const steps = v.violations[0].trace.slice(1).map((t) => t.action);

describe('trace files', () => {
  it('reads an ITF counterexample as its variant, property and steps', () => {
    const file = join(dir, 'dieHard.itf.json');
    writeFileSync(file, JSON.stringify(violationToItf(v, v.violations[0], 'test/fixtures/dieHard.ts')));
    expect(readTraceFile(file, 'DieHard')).toEqual([
      expect.objectContaining({ variant: 'default', property: 'NotSolved', kind: 'invariant', steps, source: file }),
    ]);
  });

  it("reads a JSON report's counterexamples", () => {
    const file = join(dir, 'dieHard.json');
    writeFileSync(file, JSON.stringify(resultToJson(result)));
    expect(readTraceFile(file, 'DieHard')).toEqual([expect.objectContaining({ variant: 'default', property: 'NotSolved', steps })]);
  });

  it('refuses a trace of another model, and a file that is neither', () => {
    const file = join(dir, 'dieHard.itf.json');
    expect(() => readTraceFile(file, 'TwoPhase')).toThrow(`the trace file ${file} is of model DieHard, not TwoPhase`);
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"hello": 1}');
    expect(() => readTraceFile(other, 'DieHard')).toThrow('is neither an ITF trace (--out-itf) nor a JSON report (--json)');
    expect(() => readTraceFile(join(dir, 'missing.json'), 'DieHard')).toThrow(/cannot read the trace file/);
  });
});
