// Plan, shard, merge (src/cli/scaleOut.ts), run as a Kubernetes Indexed Job runs them but on this
// machine: shards as processes of their own with $JOB_COMPLETION_INDEX set, one of them killed
// part way and run again (it resumes from its checkpoints), the reports merged in any order and
// compared with one machine's run of the same command. (Where no process of its own is needed,
// the CLI runs in this one: a process costs seconds of start-up.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import { comparable, runProcess, type ProcessRun } from '../helpers/cliProcess.ts';
import { runCli } from '../helpers/runCli.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-scale-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in a process of its own, with `env` added; killed (SIGKILL) within tens of milliseconds of `killWhen` holding (polled). */
function run(args: readonly string[], env: Record<string, string> = {}, killWhen?: () => boolean): Promise<ProcessRun> {
  return runProcess(args, { env, ...(killWhen ? { kill: { ready: killWhen, afterSeconds: 0 } } : {}) });
}

interface Plan {
  work: { variant: string; estimate: number | null }[];
  shards: string[][];
  single: string;
}

describe('modelcheck plan', () => {
  it("balances the move model's faults matrix over 4 shards by the states each row generated in the docs record", async () => {
    const out = join(dir, 'faults.json');
    const planned = await runCli(['plan', '--no-typecheck', 'models/move.ts', '--matrix', 'faults', '--shards', '4', '--out', out]);
    expect(planned.exitCode).toBe(0);
    expect(planned.stderr).toBe(`modelcheck plan: wrote ${out}: 10 variants over 4 shards (1, 3, 2, 4 each)\n`);
    const plan = JSON.parse(readFileSync(out, 'utf8')) as Plan;
    const record = JSON.parse(readFileSync('docs/move.manifest.json', 'utf8')) as { variants: Record<string, { statesGenerated: number }> };
    // Each row once, its estimate the record's.
    expect(plan.work.map((w) => w.estimate)).toEqual(plan.work.map((w) => record.variants[w.variant].statesGenerated));
    // The longest first, each to the least loaded shard (in millions of states generated, from
    // the record): 11.14 (v1.9.3.mover-rerun) to 0; 5.31 (copy-drops) to 1; 4.84 (v1.9.5
    // mover-rerun) to 2; 1.74 (restart) to 3; 1.71 (v1.9.5-no-timing) to 3 (1.74 < 4.84); 1.63
    // (v1.9.5) to 3 (3.45); 1.09 (resync) to 2 (4.84 < 5.08); 0.89 (coalesced) to 3 (5.08 <
    // 5.31); 0.17 (lag 1) to 1 (5.31 < 5.92); 0.0015 (lag 0) to 1 (5.49). Each shard in the
    // matrix's order.
    expect(plan.shards).toEqual([
      ['v1.9.3.mover-rerun'],
      [
        'v1.9.5.mover-rerun.copy-drops-deletion-timestamp',
        'v1.9.5-no-timing-assumption.cache-lag-0',
        'v1.9.5-no-timing-assumption.cache-lag-1',
      ],
      ['v1.9.5.mover-rerun', 'v1.9.5.resync'],
      ['v1.9.5', 'v1.9.5.controller-restart', 'v1.9.5.coalesced-events', 'v1.9.5-no-timing-assumption'],
    ]);
    expect(plan.single).toBe('modelcheck models/move.ts --matrix faults --json');
  }, 60_000);

  it('refuses --matrix with --all, and a shard index the plan has not', async () => {
    const both = await runCli(['plan', '--no-typecheck', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--all', '--shards', '2']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--matrix and --all each choose the variants: give one of them');
    const out = join(dir, 'small.json');
    expect(
      (await runCli(['plan', '--no-typecheck', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '2', '--out', out])).exitCode,
    ).toBe(0);
    const beyond = await runCli(['shard', out, '--index', '2']);
    expect(beyond.exitCode).toBe(2);
    expect(beyond.stderr).toBe(`modelcheck shard: the plan ${out} has 2 shards (0 to 1), not 2\n`);
    // (This process has no $JOB_COMPLETION_INDEX.)
    const none = await runCli(['shard', out]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('modelcheck shard: give the shard with --index I, or run where $JOB_COMPLETION_INDEX is set');
  }, 60_000);
});

describe('shards merged', () => {
  it("give one machine's report for a matrix, whatever the order the shards ran and the reports are named in; a missing shard makes no merge", async () => {
    const work = join(dir, 'reach');
    const plan = join(work, 'plan.json');
    expect(
      (await runCli(['plan', '--no-typecheck', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '3', '--out', plan])).exitCode,
    ).toBe(0);
    // The last shard first, in a process of its own, its index as a Job gives it.
    const last = await run(['shard', plan], { JOB_COMPLETION_INDEX: '2' });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout).toMatch(
      new RegExp(`^modelcheck shard: shard 2 of ${plan}: \\d variants? checked; wrote ${join(work, 'shard-2.json')}\n$`),
    );
    const partial = await runCli(['merge', work]);
    expect(partial.exitCode).toBe(3);
    expect(partial.stdout).toBe('');
    expect(partial.stderr).toBe(
      'modelcheck merge: incomplete: no report from shards 0, 1 of 3; run them (modelcheck shard PLAN --index I) and merge again\n',
    );
    for (const i of ['1', '0']) expect((await runCli(['shard', plan, '--index', i])).exitCode).toBe(0);
    const again = await runCli(['shard', plan, '--index', '1']);
    expect(again.stdout).toBe(`modelcheck shard: shard 1 of ${plan} is done already (${join(work, 'shard-1.json')})\n`);
    const reports = [2, 0, 1].map((i) => join(work, `shard-${i}.json`));
    const merged = await runCli(['merge', ...reports]);
    const single = await runCli(['test/fixtures/matrix.ts', '--matrix', 'reach', '--json']);
    // NeverThree violated in top4-step1, as expected: both exit 0.
    expect(merged.exitCode).toBe(single.exitCode);
    expect(comparable(merged.stdout)).toEqual(comparable(single.stdout));
    // A directory names its reports.
    expect(comparable((await runCli(['merge', work])).stdout)).toEqual(comparable(single.stdout));

    // Another plan (two shards): its report is not this plan's.
    const otherPlan = join(dir, 'other', 'plan.json');
    expect(
      (await runCli(['plan', '--no-typecheck', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '2', '--out', otherPlan]))
        .exitCode,
    ).toBe(0);
    expect((await runCli(['shard', otherPlan, '--index', '1'])).exitCode).toBe(0);
    const mixed = await runCli(['merge', join(work, 'shard-0.json'), join(dir, 'other', 'shard-1.json')]);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toBe(
      `modelcheck merge: ${join(dir, 'other', 'shard-1.json')} is a report of another plan than ${join(work, 'shard-0.json')}'s; merge one plan's reports\n`,
    );
  }, 120_000);

  it('a shard killed part way resumes from its checkpoints when run again, and the merge is the single run', async () => {
    // resumable.ts with 6 resource managers (TwoPhase: 50,816 states) and a ring of 5 counting
    // to 4 (5,120 states each): three variants over two shards, TwoPhase alone in one.
    const params = ['--param', 'rm=6', '--param', 'n=5', '--param', 'k=4'];
    const work = join(dir, 'killed');
    const planFile = join(work, 'plan.json');
    expect(
      (await runCli(['plan', '--no-typecheck', 'test/fixtures/resumable.ts', ...params, '--shards', '2', '--out', planFile])).exitCode,
    ).toBe(0);
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
    const index = plan.shards.findIndex((s) => s.includes('twoPhase'));
    // Killed once its search has written a checkpoint (at every level: --checkpoint-every 0), in
    // the directory of this plan's shard (checkpoints-<the plan's id>-<index>).
    const checkpointDir = () => readdirSync(work).find((f) => f.startsWith('checkpoints-') && f.endsWith(`-${index}`));
    const checkpointed = () => {
      const d = checkpointDir();
      const variants = d === undefined ? '' : join(work, d, 'variants');
      return d !== undefined && existsSync(variants) && readdirSync(variants).some((f) => f.endsWith('.ckpt'));
    };
    const killed = await run(['shard', planFile, '--checkpoint-every', '0'], { JOB_COMPLETION_INDEX: String(index) }, checkpointed);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(work, `shard-${index}.json`))).toBe(false);
    const dirName = checkpointDir()!;
    const resumed = await run(['shard', planFile, '--checkpoint-every', '0'], { JOB_COMPLETION_INDEX: String(index) });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toBe(`modelcheck shard: resuming shard ${index} from ${join(work, dirName)}\n`);
    // Its report written, its checkpoints are gone: they would only fill the volume.
    expect(existsSync(join(work, dirName))).toBe(false);
    expect((await runCli(['shard', planFile, '--index', String(1 - index)])).exitCode).toBe(0);
    const merged = await runCli(['merge', work]);
    const single = await runCli(['test/fixtures/resumable.ts', ...params, '--json']);
    expect(merged.exitCode).toBe(single.exitCode);
    expect(comparable(merged.stdout)).toEqual(comparable(single.stdout));
    expect((comparable(merged.stdout) as { variants: { distinctStates: number }[] }).variants.map((v) => v.distinctStates)).toEqual([
      50_816, 5_120, 5_120,
    ]);
  }, 180_000);

  it('merge --docs of a plan of every variant writes the pages and record `modelcheck docs` writes', async () => {
    // A model of its own in a folder of its own, since the docs go to docs/ under the working directory.
    const work = join(dir, 'docs');
    mkdirSync(work, { recursive: true });
    writeFileSync(
      join(work, 'counter.mts'),
      readFileSync('test/fixtures/matrix.ts', 'utf8').replace("from 'modelcheck'", `from '${join(process.cwd(), 'src/index.ts')}'`),
    );
    const pages = ['docs/counter.md', 'docs/counter.matrices.md', 'docs/counter.manifest.json'];
    // The record's seconds are timings.
    const read = () =>
      pages.map((p) =>
        p.endsWith('.json')
          ? JSON.stringify(JSON.parse(readFileSync(p, 'utf8')), (k, v) => (k === 'seconds' ? undefined : v))
          : readFileSync(p, 'utf8'),
      );
    const home = process.cwd();
    process.chdir(work);
    try {
      expect((await runCli(['docs', 'counter.mts'])).exitCode).toBe(0);
      const single = read();
      rmSync('docs', { recursive: true });
      expect((await runCli(['plan', '--no-typecheck', 'counter.mts', '--all', '--shards', '2', '--out', 'run/plan.json'])).exitCode).toBe(
        0,
      );
      for (const i of ['1', '0']) expect((await runCli(['shard', 'run/plan.json', '--index', i])).exitCode).toBe(0);
      const merged = await runCli(['merge', 'run', '--docs']);
      expect(merged.exitCode, merged.stderr).toBe(0);
      expect(merged.stdout).toBe(`wrote ${pages.join(', ')} from 2 shard reports: 4 variants\n`);
      expect(read()).toEqual(single);
    } finally {
      process.chdir(home);
    }
  }, 60_000);

  it("refuses to run or merge a plan whose model's files changed since it was made", async () => {
    const work = join(dir, 'changed');
    const model = join(work, 'counter.mts');
    mkdirSync(work, { recursive: true });
    const source = readFileSync('test/fixtures/matrix.ts', 'utf8').replace(
      "from 'modelcheck'",
      `from '${join(process.cwd(), 'src/index.ts')}'`,
    );
    writeFileSync(model, source);
    const planFile = join(work, 'plan.json');
    expect((await runCli(['plan', '--no-typecheck', model, '--matrix', 'reach', '--shards', '2', '--out', planFile])).exitCode).toBe(0);
    for (const i of ['0', '1']) expect((await runCli(['shard', planFile, '--index', i])).exitCode).toBe(0);
    writeFileSync(model, source.replace('The counter never reads 3.', 'The counter never reads three.'));
    const merged = await runCli(['merge', work]);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toContain("the model's files or modelcheck itself changed since the plan was made");
    const shard = await runCli(['shard', planFile, '--index', '1']);
    expect(shard.exitCode).toBe(2);
    expect(shard.stderr).toContain(`the model's files or modelcheck itself changed since the plan ${planFile} was made; plan again`);
  }, 60_000);

  it('stops a shard at --max-memory with its checkpoints kept, and writes no report', async () => {
    const work = join(dir, 'memory');
    const planFile = join(work, 'plan.json');
    const params = ['--param', 'rm=6'];
    expect(
      (await runCli(['plan', '--no-typecheck', 'test/fixtures/resumable.ts', ...params, '--shards', '1', '--out', planFile])).exitCode,
    ).toBe(0);
    // 1 MiB: passed at the first poll of any search.
    const stopped = await runCli(['shard', planFile, '--index', '0', '--max-memory', '1']);
    expect(stopped.exitCode).toBe(3);
    expect(stopped.stderr).toMatch(/^modelcheck shard: shard 0 did not finish: twoPhase \(memory\), .*; run it again to resume from /);
    expect(existsSync(join(work, 'shard-0.json'))).toBe(false);
    expect(readdirSync(work).some((f) => f.startsWith('checkpoints-'))).toBe(true);
  }, 60_000);

  it('refuses a file that is not a shard report', async () => {
    const bad = join(dir, 'not-a-report.json');
    writeFileSync(bad, '{"kind":"something else"}');
    const merged = await runCli(['merge', bad]);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toBe(`modelcheck merge: cannot read ${bad}: it is not a shard report (modelcheck shard writes them)\n`);
  });
});

describe('a swarm simulation', () => {
  // Die Hard (test/fixtures/dieHard.ts): NotSolved is violated; TLC's shortest counterexample has
  // 7 states. Three shards, each drawing its own runs; the ones after the first leave out, each
  // with odds of a half, the emptying steps.
  const swarmArgs = ['test/fixtures/dieHard.ts', '--simulate', '--runs', '1500', '--depth', '12', '--seed', '42', '--shards', '3'];

  async function swarm(name: string): Promise<{
    plan: Plan & { swarm: { shards: { seed: number; depth: number; runs: number; avoid: string[] }[] } };
    merged: string;
    code: number;
  }> {
    const work = join(dir, name);
    const planFile = join(work, 'plan.json');
    const planned = await runCli(['plan', '--no-typecheck', ...swarmArgs, '--avoid-some', 'EmptySmallJug,EmptyBigJug', '--out', planFile]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    for (const i of ['2', '0', '1']) expect((await runCli(['shard', planFile, '--index', i])).exitCode).toBe(0);
    const merged = await runCli(['merge', work]);
    return { plan: JSON.parse(readFileSync(planFile, 'utf8')), merged: merged.stdout, code: merged.exitCode };
  }

  it('draws each shard its own runs, keeps the shortest violation of each property, and says what each shard tried', async () => {
    const { plan, merged, code } = await swarm('swarm-a');
    // Every shard runs every variant; shard 0 is the plain simulation.
    expect(plan.shards).toEqual([['default'], ['default'], ['default']]);
    const shards = plan.swarm.shards;
    expect(shards[0]).toMatchObject({ depth: 12, runs: 500, avoid: [] });
    expect(shards.map((s) => s.depth)).toEqual([12, 6, 24]);
    expect(new Set(shards.map((s) => s.seed)).size).toBe(3);
    const doc = JSON.parse(merged) as {
      variants: {
        verdict: string;
        violations: { property: string; trace: { action: string | null }[] }[];
        simulation: { runs: number; seed: number; avoid?: string[] };
        swarm: {
          shard: number;
          seed: number;
          avoid: string[];
          violated: string[];
          reported: string[];
          coverage: { action: string; enabled: number; newStates: number }[];
        }[];
        coverage: { action: string; enabled: number; newStates: number }[];
      }[];
    };
    const v = doc.variants[0];
    expect(v.verdict).toBe('violated');
    // The expected violation found (the merge's exit: 3, a simulation proves nothing).
    expect(code).toBe(3);
    expect(v.violations.map((x) => x.property)).toEqual(['NotSolved']);
    // No shorter than TLC's shortest, and the shortest of the shards' own.
    const length = v.violations[0].trace.length;
    expect(length).toBeGreaterThanOrEqual(7);
    expect(v.swarm.map((s) => s.seed)).toEqual(shards.map((s) => s.seed));
    expect(v.swarm.map((s) => s.avoid)).toEqual(shards.map((s) => s.avoid));
    expect(v.swarm.filter((s) => s.reported.includes('NotSolved'))).toHaveLength(1);
    expect(v.simulation).toMatchObject({ runs: 1500, seed: 42 });
    // Coverage summed over the shards, as its states are: each of Die Hard's six actions enabled
    // somewhere (the avoided ones too: computed and checked, never taken).
    expect(v.coverage.map((c) => c.action)).toEqual([
      'FillSmallJug',
      'FillBigJug',
      'EmptySmallJug',
      'EmptyBigJug',
      'SmallToBig',
      'BigToSmall',
    ]);
    for (const [i, c] of v.coverage.entries()) {
      expect(c.enabled).toBe(v.swarm.reduce((n, s) => n + s.coverage[i].enabled, 0));
      expect(c.newStates).toBe(v.swarm.reduce((n, s) => n + s.coverage[i].newStates, 0));
      expect(c.enabled).toBeGreaterThan(0);
    }
    // Each shard's new states are its one initial state and those some action made.
    expect(v.coverage.reduce((n, c) => n + c.newStates, 0) + v.swarm.length).toBe(
      (doc.variants[0] as unknown as { distinctStates: number }).distinctStates,
    );
    // A swarm makes no docs record (the docs record searches of every state).
    const docs = await runCli(['merge', join(dir, 'swarm-a'), '--docs']);
    expect(docs.exitCode).toBe(2);
    expect(docs.stderr).toBe('modelcheck merge: --docs records searches of every state; a swarm simulates: merge it without --docs\n');
    // The merged document is a --json document as docs/report.schema.json describes it.
    const schema = JSON.parse(readFileSync('docs/report.schema.json', 'utf8')) as object;
    const validate = new Ajv2020.default({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    // A shard that avoided the emptying steps never took one, but for a last step (checked, not taken).
    for (const [k, s] of v.swarm.entries()) {
      if (s.avoid.length === 0 || !s.reported.includes('NotSolved')) continue;
      const taken = v.violations[0].trace.slice(1, -1).map((t) => t.action);
      for (const a of shards[k].avoid) expect(taken).not.toContain(a);
    }
  }, 120_000);

  it('gives the same merge for the same plan run again', async () => {
    const a = await swarm('swarm-b');
    const b = await swarm('swarm-c');
    expect(comparable(b.merged)).toEqual(comparable(a.merged));
  }, 120_000);
});
