// Plan, shard, merge (src/cli/scaleOut.ts), run as a Kubernetes Indexed Job runs them but on this
// machine: shards as processes of their own with $JOB_COMPLETION_INDEX set, one of them killed
// part way and run again (it resumes from its checkpoints), the reports merged in any order and
// compared with one machine's run of the same command. (Where no process of its own is needed,
// the CLI runs in this one: a process costs seconds of start-up.)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const BIN = join(import.meta.dirname, '../../bin/modelcheck.js');
const dir = mkdtempSync(join(tmpdir(), 'modelcheck-scale-out-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI in a process of its own, with `env` added; killed (SIGKILL) as soon as `killWhen` holds. */
function run(args: readonly string[], env: Record<string, string> = {}, killWhen?: () => boolean): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    if (killWhen) {
      const poll = setInterval(() => {
        if (!killWhen()) return;
        clearInterval(poll);
        child.kill('SIGKILL');
      }, 10);
      child.on('exit', () => clearInterval(poll));
    }
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A --json document without what differs between two runs of one search: timings, threads, where states were held. */
function comparable(text: string): unknown {
  const doc = JSON.parse(text) as { variants: Record<string, unknown>[] };
  for (const v of doc.variants)
    for (const k of ['seconds', 'statesPerSecond', 'livenessSeconds', 'threads', 'frontier', 'storedBytes']) delete v[k];
  return doc;
}

interface Plan {
  work: { variant: string; estimate: number | null }[];
  shards: string[][];
  single: string;
}

describe('modelcheck plan', () => {
  it("balances the move model's faults matrix over 4 shards by the states each row generated in the docs record", async () => {
    const out = join(dir, 'faults.json');
    const planned = await runCli(['plan', 'models/move.ts', '--matrix', 'faults', '--shards', '4', '--out', out]);
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
    const both = await runCli(['plan', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--all', '--shards', '2']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('--matrix and --all each choose the variants: give one of them');
    const out = join(dir, 'small.json');
    expect((await runCli(['plan', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '2', '--out', out])).exitCode).toBe(0);
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
    expect((await runCli(['plan', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '3', '--out', plan])).exitCode).toBe(0);
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
    expect((await runCli(['plan', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '2', '--out', otherPlan])).exitCode).toBe(0);
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
    expect((await runCli(['plan', 'test/fixtures/resumable.ts', ...params, '--shards', '2', '--out', planFile])).exitCode).toBe(0);
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as Plan;
    const index = plan.shards.findIndex((s) => s.includes('twoPhase'));
    // Killed once its search has written a checkpoint (at every level: --checkpoint-every 0).
    const variants = join(work, `checkpoints-${index}`, 'variants');
    const checkpointed = () => existsSync(variants) && readdirSync(variants).some((f) => f.endsWith('.ckpt'));
    const killed = await run(['shard', planFile, '--checkpoint-every', '0'], { JOB_COMPLETION_INDEX: String(index) }, checkpointed);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(work, `shard-${index}.json`))).toBe(false);
    const resumed = await run(['shard', planFile, '--checkpoint-every', '0'], { JOB_COMPLETION_INDEX: String(index) });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toBe(`modelcheck shard: resuming shard ${index} from ${join(work, `checkpoints-${index}`)}\n`);
    expect((await runCli(['shard', planFile, '--index', String(1 - index)])).exitCode).toBe(0);
    const merged = await runCli(['merge', work]);
    const single = await runCli(['test/fixtures/resumable.ts', ...params, '--json']);
    expect(merged.exitCode).toBe(single.exitCode);
    expect(comparable(merged.stdout)).toEqual(comparable(single.stdout));
    expect((comparable(merged.stdout) as { variants: { distinctStates: number }[] }).variants.map((v) => v.distinctStates)).toEqual([
      50_816, 5_120, 5_120,
    ]);
  }, 180_000);

  it('refuses a file that is not a shard report', async () => {
    const bad = join(dir, 'not-a-report.json');
    writeFileSync(bad, '{"kind":"something else"}');
    const merged = await runCli(['merge', bad]);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toBe(`modelcheck merge: cannot read ${bad}: it is not a shard report (modelcheck shard writes them)\n`);
  });
});
