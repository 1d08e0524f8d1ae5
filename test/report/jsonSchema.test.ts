// docs/report.schema.json against the real --json document: the CLI runs in-process on fixtures
// chosen so that every part of the schema is met at least once (a safety counterexample, lassos
// closed by a step and by stuttering, parameters, symmetry, --exact, a simulation, a search
// stopped at its limits, --matrix, and steps that tell their requests and notes), and each
// document must validate. The schema must also reject a document with a misspelt, a missing or
// a wrong field, so that a validation that accepts anything fails here.
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const schema = JSON.parse(readFileSync(new URL('../../docs/report.schema.json', import.meta.url), 'utf8')) as object;

function compile() {
  // ajv is CommonJS: the default import is its module.exports, whose `default` is the class
  // (the one spelling both Node and TypeScript's NodeNext agree on).
  const ajv = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true });
  return ajv.compile(schema);
}

/** The runs, each with the exit status it must have (a report, never a usage error: 2). */
const RUNS: { readonly name: string; readonly argv: readonly string[]; readonly exitCode: number }[] = [
  { name: 'a violated invariant (Die Hard)', argv: ['test/fixtures/dieHard.ts'], exitCode: 0 },
  { name: 'liveness lassos, closed by a step and by stuttering', argv: ['test/fixtures/liveness.ts'], exitCode: 0 },
  { name: 'a parameterized model with --param', argv: ['test/fixtures/parameterized.ts', '--param', 'top=5'], exitCode: 0 },
  { name: 'symmetry reduction', argv: ['test/fixtures/classic/twoPhaseSymmetric.ts'], exitCode: 0 },
  { name: '--exact', argv: ['test/fixtures/dieHard.ts', '--exact'], exitCode: 0 },
  {
    name: 'a simulation that finds the violation',
    argv: ['test/fixtures/dieHard.ts', '--simulate', '--runs', '1000', '--depth', '20', '--seed', '7'],
    exitCode: 3,
  },
  {
    name: 'a simulation of liveness (not checked)',
    argv: ['test/fixtures/liveness.ts', '--variant', 'lock-none', '--simulate', '--runs', '10', '--seed', '1'],
    exitCode: 3,
  },
  {
    name: 'a search stopped by --max-states',
    argv: ['test/fixtures/endless.ts', '--max-states', '100', '--max-depth', '500', '--timeout', '60.5'],
    exitCode: 3,
  },
  { name: '--matrix', argv: ['test/fixtures/matrix.ts', '--matrix'], exitCode: 0 },
  // The only small way to real request and note events: the move-and-back model's v1.9.3,
  // whose race this seed finds (in run 95) within 100 random runs.
  {
    name: 'steps with requests and notes (moveBack v1.9.3, simulated)',
    argv: ['models/moveBack.ts', '--variant', 'v1.9.3', '--simulate', '--runs', '100', '--depth', '80', '--seed', '1'],
    exitCode: 3,
  },
];

// The documents are arbitrary JSON, read by path below.
type Doc = any;
const docs = new Map<string, Doc>();

beforeAll(async () => {
  for (const run of RUNS) {
    const { exitCode, stdout, stderr } = await runCli([...run.argv, '--json', '--no-progress']);
    if (exitCode !== run.exitCode) throw new Error(`${run.name}: exit ${exitCode}, expected ${run.exitCode}\n${stderr}`);
    docs.set(run.name, JSON.parse(stdout));
  }
}, 60_000);

describe('docs/report.schema.json', () => {
  it('compiles as a draft 2020-12 schema', () => {
    expect(typeof compile()).toBe('function');
  });

  it.each(RUNS.map((r) => r.name))('validates the real --json document: %s', (name) => {
    const validate = compile();
    const ok = validate(docs.get(name));
    if (!ok) console.error(name, JSON.stringify(validate.errors, null, 2));
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('was met by every kind of value it describes', () => {
    const all = [...docs.values()];
    const variants = all.flatMap((d) => d.variants);
    const violations = variants.flatMap((v) => v.violations);
    const events = violations.flatMap((x) => x.trace.flatMap((s: Doc) => s.events));
    expect(all.some((d) => 'parameters' in d)).toBe(true);
    expect(all.some((d) => 'matrices' in d)).toBe(true);
    expect(new Set(variants.map((v) => v.verdict))).toEqual(new Set(['proved', 'violated', 'incomplete']));
    expect(new Set(variants.map((v) => v.incompleteReason))).toEqual(new Set([null, 'maxStates', 'simulation']));
    expect(variants.some((v) => v.symmetry !== null)).toBe(true);
    expect(variants.some((v) => v.exact !== null)).toBe(true);
    expect(variants.some((v) => v.simulation !== null && Object.keys(v.simulation.foundIn).length > 0)).toBe(true);
    expect(variants.some((v) => v.livenessSeconds !== null)).toBe(true);
    expect(variants.some((v) => v.assumptions.length > 0 && v.description !== null)).toBe(true);
    expect(variants.some((v) => v.bounds.maxStates !== null && v.bounds.maxDepth !== null && v.bounds.timeoutSeconds !== null)).toBe(true);
    expect(variants.some((v) => v.properties.some((p: Doc) => p.premiseStates !== null))).toBe(true);
    expect(violations.some((x) => x.loop !== undefined && x.loopAction === null)).toBe(true);
    expect(violations.some((x) => x.loop !== undefined && typeof x.loopAction === 'string')).toBe(true);
    expect(events.some((e) => e.kind === 'request')).toBe(true);
    expect(events.some((e) => e.kind === 'note')).toBe(true);
  });

  describe('rejects a document that is not the one the CLI prints', () => {
    const broken = (change: (d: Doc) => void) => {
      const d = structuredClone(docs.get('liveness lassos, closed by a step and by stuttering'));
      change(d);
      const validate = compile();
      return { ok: validate(d), errors: (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`) };
    };

    it('a misspelt field', () => {
      const r = broken((d) => {
        d.variants[0].distinctState = d.variants[0].distinctStates;
        delete d.variants[0].distinctStates;
      });
      expect(r.ok).toBe(false);
      expect(r.errors).toContain("/variants/0 must have required property 'distinctStates'");
      expect(r.errors).toContain('/variants/0 must NOT have additional properties');
    });

    it('a missing field', () => {
      const r = broken((d) => delete d.variants[1].violations[0].trace[0].events);
      expect(r.ok).toBe(false);
      expect(r.errors).toContain("/variants/1/violations/0/trace/0 must have required property 'events'");
    });

    it('a value outside its fixed set', () => {
      const r = broken((d) => {
        d.variants[2].verdict = 'proven';
      });
      expect(r.ok).toBe(false);
      expect(r.errors).toContain('/variants/2/verdict must be equal to one of the allowed values');
    });

    it('a lasso without the step that closes it', () => {
      const r = broken((d) => delete d.variants[0].violations[0].loopAction);
      expect(r.ok).toBe(false);
    });

    it('a field at the top level that the CLI does not print', () => {
      const r = broken((d) => {
        d.matrix = [];
      });
      expect(r.ok).toBe(false);
    });
  });
});
