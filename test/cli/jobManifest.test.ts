// `modelcheck plan --emit-job`: the Kubernetes objects that run a plan as an Indexed Job
// (src/cli/jobManifest.ts), and deploy/kubernetes/'s example of them, which must be what the
// command writes now. The rules checked are the API server's for a Job, as
// kubernetes/kubernetes pkg/apis/batch/validation/validation.go (validateJobSpec) and the
// batch/v1 API reference state them: completions required when completionMode is Indexed;
// backoffLimitPerIndex only with completionMode Indexed and restartPolicy Never; object names
// that are DNS-1123 labels; and an Indexed Job's pods' hostnames, `<job name>-<index>`, DNS
// labels of at most 63 characters too. Every object is also checked against the schema of its kind
// in the Kubernetes API's OpenAPI document (types, required fields, enumerations, formats) as the
// kubernetes-models package compiles it: what a client-side validation checks, with no cluster.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { runCli } from '../helpers/runCli.ts';

interface Manifest {
  kind: string;
  backoffLimitPerIndex?: number;
  items: {
    apiVersion: string;
    kind: string;
    metadata: { name: string; labels: Record<string, string> };
    data?: Record<string, string>;
    spec?: {
      completionMode: string;
      completions: number;
      backoffLimitPerIndex?: number;
      parallelism: number;
      template: {
        spec: {
          restartPolicy: string;
          containers: { name: string; image: string; command: string[]; volumeMounts: { name: string; mountPath: string }[] }[];
          volumes: { name: string; configMap?: { name: string }; persistentVolumeClaim?: { claimName: string } }[];
        };
      };
    };
  }[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** Each object's schema errors (none: an empty list), by kind and name. */
function schemaErrors(m: Manifest): string[] {
  return m.items.flatMap((item) => {
    const model = item.kind === 'Job' ? new Job(item as never) : item.kind === 'ConfigMap' ? new ConfigMap(item as never) : undefined;
    if (model === undefined) return [`${item.kind}/${item.metadata.name}: a kind this test has no schema of`];
    try {
      model.validate();
      return [];
    } catch (e) {
      return [`${item.kind}/${item.metadata.name}: ${(e as Error).message}`];
    }
  });
}

describe('modelcheck plan --emit-job', () => {
  it('writes a ConfigMap holding the plan and an Indexed Job of one pod per shard that runs modelcheck shard on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-job-'));
    const plan = join(dir, 'plan.json');
    const job = join(dir, 'job.json');
    const args = ['plan', 'test/fixtures/matrix.ts', '--matrix', 'reach', '--shards', '3', '--out', plan, '--emit-job', job];
    const made = await runCli([...args, '--image', 'registry.example/modelcheck:1', '--claim', 'runs', '--cpu', '4', '--memory', '16']);
    expect(made.exitCode).toBe(0);
    const m = JSON.parse(readFileSync(job, 'utf8')) as Manifest;
    expect(m.kind).toBe('List');
    const [configMap, indexed] = m.items;
    expect([configMap.kind, indexed.kind]).toEqual(['ConfigMap', 'Job']);
    expect(indexed.apiVersion).toBe('batch/v1');
    // The plan itself, as plan --out wrote it.
    expect(configMap.data?.['plan.json']).toBe(readFileSync(plan, 'utf8'));
    for (const o of m.items) expect(o.metadata.name).toMatch(DNS_LABEL);
    expect(indexed.metadata.name).toBe(configMap.metadata.name);
    const spec = indexed.spec!;
    expect(spec.completionMode).toBe('Indexed');
    expect([spec.completions, spec.parallelism]).toEqual([3, 3]);
    // Three tries a shard, counted per shard: allowed only with restartPolicy Never.
    expect(spec.backoffLimitPerIndex).toBe(3);
    expect(spec.template.spec.restartPolicy).toBe('Never');
    // The last pod's hostname.
    expect(`${indexed.metadata.name}-${spec.completions - 1}`).toMatch(DNS_LABEL);
    const [container] = spec.template.spec.containers;
    expect(container.name).toMatch(DNS_LABEL);
    expect(container.image).toBe('registry.example/modelcheck:1');
    // The shard's index is the one the Job controller sets ($JOB_COMPLETION_INDEX): not in the command.
    expect(container.command.slice(0, 4)).toEqual(['node', 'bin/modelcheck.js', 'shard', '/modelcheck/plan/plan.json']);
    expect(container.command).not.toContain('--index');
    expect(container.command[container.command.indexOf('--workers') + 1]).toBe('4');
    // A clean stop at 90% of the pod's 16 GiB: 14,745 MiB.
    expect(container.command[container.command.indexOf('--max-memory') + 1]).toBe('14745');
    const volumes = Object.fromEntries(spec.template.spec.volumes.map((v) => [v.name, v]));
    const mounts = Object.fromEntries(container.volumeMounts.map((v) => [v.mountPath, v.name]));
    expect(volumes[mounts['/modelcheck/plan']].configMap?.name).toBe(configMap.metadata.name);
    expect(volumes[mounts['/modelcheck/runs']].persistentVolumeClaim?.claimName).toBe('runs');
    // Its checkpoints and report under the claim's mount.
    expect(container.command[container.command.indexOf('--dir') + 1]).toBe(`/modelcheck/runs/${indexed.metadata.name}`);
    expect(schemaErrors(m)).toEqual([]);
  });

  it("validates deploy/kubernetes's example against the API's schemas, which refuse a misspelt enumeration or a string for a number", () => {
    const example = JSON.parse(readFileSync('deploy/kubernetes/move-faults.job.json', 'utf8')) as Manifest;
    expect(schemaErrors(example)).toEqual([]);
    // The check is not vacuous: the same Job with two slips.
    const slipped = structuredClone(example);
    const spec = slipped.items[1].spec as unknown as Record<string, unknown>;
    spec.completionMode = 'indexed';
    spec.parallelism = '4';
    const errors = schemaErrors(slipped);
    // One object refused (the Job), naming both fields (the wording is ajv's).
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Job\//);
    expect(errors[0]).toMatch(/spec\/completionMode\b/);
    expect(errors[0]).toMatch(/spec\/parallelism\b/);
  });

  it('names a Job of many shards so that its last pod has a hostname the API server takes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-job-'));
    const job = join(dir, 'job.json');
    const args = [
      'plan',
      '--no-typecheck',
      'models/move.ts',
      '--simulate',
      '--shards',
      '120',
      '--out',
      join(dir, 'plan.json'),
      '--emit-job',
      job,
    ];
    expect((await runCli(args)).exitCode).toBe(0);
    const indexed = (JSON.parse(readFileSync(job, 'utf8')) as Manifest).items[1];
    // modelcheck-clusterctl-move-swarm, the plan's id, and room for index 119.
    expect(`${indexed.metadata.name}-119`).toMatch(DNS_LABEL);
    expect(indexed.metadata.name).toMatch(/^modelcheck-clusterctl-move-swarm-[0-9a-f]{8}$/);
  }, 60_000);

  it("deploy/kubernetes's example is what the command writes now (the move model's faults matrix over 4 shards)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modelcheck-job-'));
    const plan = join(dir, 'plan.json');
    const job = join(dir, 'job.json');
    const made = await runCli([
      'plan',
      '--no-typecheck',
      'models/move.ts',
      '--matrix',
      'faults',
      '--shards',
      '4',
      '--out',
      plan,
      '--emit-job',
      job,
    ]);
    expect(made.exitCode).toBe(0);
    const regenerate =
      'regenerate it: npx modelcheck plan models/move.ts --matrix faults --shards 4 --out deploy/kubernetes/move-faults.plan.json --emit-job deploy/kubernetes/move-faults.job.json';
    // The digest of the files (the plan's `inputs`) and the plan's id made of it change with any
    // edit of modelcheck's sources: compared as placeholders.
    const inputs = (text: string) => (JSON.parse(text) as { inputs: string }).inputs;
    const normal = (text: string, digest: string) => {
      const id = /"modelcheck\/plan": "([0-9a-f]{16})"/.exec(text)?.[1];
      const out = text.split(digest).join('<inputs>');
      return id === undefined ? out : out.split(id).join('<id>').split(id.slice(0, 8)).join('<id8>');
    };
    const committed = readFileSync('deploy/kubernetes/move-faults.plan.json', 'utf8');
    const now = readFileSync(plan, 'utf8');
    expect(normal(committed, inputs(committed)), regenerate).toBe(normal(now, inputs(now)));
    expect(normal(readFileSync('deploy/kubernetes/move-faults.job.json', 'utf8'), inputs(committed)), regenerate).toBe(
      normal(readFileSync(job, 'utf8'), inputs(now)),
    );
  }, 60_000);
});
