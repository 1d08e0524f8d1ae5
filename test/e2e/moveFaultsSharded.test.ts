// The move model's faults matrix (models/move.ts, `--matrix faults`: ten rows, 28 million states
// generated) run as a Kubernetes Indexed Job runs a plan, but on this machine: three shards at
// once, each a process of its own with $JOB_COMPLETION_INDEX set and one search thread, one of them
// killed part way (SIGKILL, after its first checkpoint) and run again, resuming; then the reports
// merged. The merge must be the single machine's run: each row's counts, verdicts, warnings and every
// counterexample step by step as the docs record holds them (docs/move.manifest.json, written by
// one machine's `modelcheck docs`), and the matrix table made of them as one machine's
// `--matrix faults --json` makes it: each row's verdict, states and properties, the record's.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsRecordOf, expectAsRecorded } from '../helpers/docsRecord.ts';
import { runProcess } from '../helpers/cliProcess.ts';
import { runCli } from '../helpers/runCli.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-faults-sharded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the move model's faults matrix over three shards, one killed and resumed", () => {
  it('merges into the docs record of every row, and exits as one machine’s run does', async () => {
    const planFile = join(dir, 'plan.json');
    const planned = await runCli(['plan', '--no-typecheck', 'models/move.ts', '--matrix', 'faults', '--shards', '3', '--out', planFile]);
    expect(planned.exitCode, planned.stderr).toBe(0);
    const plan = JSON.parse(readFileSync(planFile, 'utf8')) as { shards: string[][] };
    // Longest first by the record's states generated (millions): 11.14 (v1.9.3.mover-rerun) alone;
    // 5.31 (copy-drops) then 1.71, 1.09, 0.89; 4.84 (v1.9.5.mover-rerun) then 1.74, 1.63, 0.17, 0.0015.
    expect(plan.shards).toEqual([
      ['v1.9.3.mover-rerun'],
      ['v1.9.5.mover-rerun.copy-drops-deletion-timestamp', 'v1.9.5.coalesced-events', 'v1.9.5.resync', 'v1.9.5-no-timing-assumption'],
      [
        'v1.9.5',
        'v1.9.5.controller-restart',
        'v1.9.5.mover-rerun',
        'v1.9.5-no-timing-assumption.cache-lag-0',
        'v1.9.5-no-timing-assumption.cache-lag-1',
      ],
    ]);
    const shard = (i: number, kill?: () => boolean) =>
      runProcess(['shard', planFile, '--workers', '1', '--checkpoint-every', '0'], {
        env: { JOB_COMPLETION_INDEX: String(i) },
        ...(kill ? { kill: { ready: kill, afterSeconds: 1 } } : {}),
      });
    // The three at once, as a Job's pods run; shard 2 killed a second after its first checkpoint
    // (at the end of a level: --checkpoint-every 0), in its directory (checkpoints-<plan id>-2),
    // and run again at once, as the Job controller starts a failed index's pod again.
    const checkpointDir = () => readdirSync(dir).find((f) => f.startsWith('checkpoints-') && f.endsWith('-2'));
    const checkpointed = () => {
      const d = checkpointDir();
      const variants = d === undefined ? '' : join(dir, d, 'variants');
      return variants !== '' && existsSync(variants) && readdirSync(variants).some((f) => f.endsWith('.ckpt'));
    };
    const killedThenResumed = async () => {
      const killed = await shard(2, checkpointed);
      expect(killed.signal).toBe('SIGKILL');
      // Killed, it wrote no report; its checkpoints are there for the next pod.
      expect(existsSync(join(dir, 'shard-2.json'))).toBe(false);
      const checkpoints = checkpointDir()!;
      const resumed = await shard(2);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toBe(`modelcheck shard: resuming shard 2 from ${join(dir, checkpoints)}\n`);
      // Its report written, its checkpoints are gone: they would only fill the volume.
      expect(existsSync(join(dir, checkpoints))).toBe(false);
    };
    const [first, second] = await Promise.all([shard(0), shard(1), killedThenResumed()]);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, second.stderr).toBe(0);

    const merged = await runCli(['merge', dir]);
    // Every row met the model's expectations: exit 0, as `modelcheck models/move.ts --matrix faults`.
    expect(merged.exitCode, merged.stderr).toBe(0);
    const doc = JSON.parse(merged.stdout) as {
      variants: { name: string; metExpectations: boolean }[];
      matrices: { name: string; rows: { variant: string; verdict: string; distinctStates: number; properties: unknown }[] }[];
    };
    expect(doc.variants.map((v) => v.name)).toEqual(FAULTS);
    for (const v of doc.variants) {
      expect(v.metExpectations, v.name).toBe(true);
      expectAsRecorded('models/move.ts', v);
    }
    const record = docsRecordOf('models/move.ts')!.manifest.variants;
    expect(doc.matrices.map((m) => m.name)).toEqual(['faults']);
    expect(doc.matrices[0].rows).toEqual(
      FAULTS.map((name) => ({
        variant: name,
        values: expect.any(Array),
        verdict: record[name].verdict,
        distinctStates: record[name].distinctStates,
        properties: record[name].properties,
      })),
    );
  }, 3_600_000);
});

/** The matrix's rows in its order (models/move.ts, FAULTS): the single run's order. */
const FAULTS = [
  'v1.9.5',
  'v1.9.5.controller-restart',
  // The second reading of the code (issue 19): a re-run sends the source object as read, and a
  // DockerCluster the first run DELETEd (before it could remove the finalizers) carries its
  // deletionTimestamp; the target's UPDATE refuses it (422, the field is immutable), so every
  // re-run fails at createTargetObject and the DockerCluster stays deleting with its finalizer.
  // Read against models/move.ts step by step: the first run deletes the DockerCluster (9), dies
  // (10), the re-run pauses, finds both target objects already there (12, 13: 409, then the
  // 422) and fails; the caches and controllers then settle, each controller writing its Paused
  // condition (True, at the generation the pause or the DELETE left) and then returning, and
  // nothing removes the finalizer (FailedMoveLeavesNoObjectBeingDeleted, in the state where move
  // has failed and everything has settled; the liveness lasso stutters there).
  // 2026-12-04: 985,808 -> 597,734 states once UPDATE kept the target's status; -> 942,457 with
  // generations and the locked condition patch (place 4).
  'v1.9.5.mover-rerun',
  // The design alternative for the re-run above: the copy drops deletionTimestamp, the re-run's
  // UPDATE succeeds, and its delete phase removes the finalizer. It is the re-run row as this
  // model had it before the second reading (the copy then dropped deletionTimestamp), with the
  // same counts.
  'v1.9.5.mover-rerun.copy-drops-deletion-timestamp',
  // The old ordering re-run: whether a re-run can also finish what its crashes leave.
  'v1.9.3.mover-rerun',
  'v1.9.5.coalesced-events',
  'v1.9.5.resync',
  'v1.9.5-no-timing-assumption',
  'v1.9.5-no-timing-assumption.cache-lag-0',
  'v1.9.5-no-timing-assumption.cache-lag-1',
];
