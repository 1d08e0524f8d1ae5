// The Kubernetes objects that run a plan (scaleOut.ts) as an Indexed Job: a ConfigMap holding the
// plan, and a Job of one pod per shard (completionMode Indexed: the Job controller sets
// JOB_COMPLETION_INDEX in each, retries a failed index, and replaces a preempted pod) whose
// container runs `modelcheck shard` with its checkpoints and report on a shared volume. Written
// as a v1 List in JSON, which `kubectl apply -f` takes as it takes YAML. deploy/kubernetes/ has
// the image (Containerfile) and an example made by `modelcheck plan ... --emit-job`.
import type { Plan } from './scaleOut.ts';

export interface JobOptions {
  /** The image with Node and the project (deploy/kubernetes/Containerfile). */
  readonly image: string;
  /** The PersistentVolumeClaim the shards write their checkpoints and reports to (ReadWriteMany across nodes). */
  readonly claim: string;
  /** Each shard's CPU and memory: one search thread per core (the shard's --workers). */
  readonly cpu: number;
  readonly memoryGiB: number;
}

/** A name Kubernetes takes (a DNS-1123 label) made of `text`, at most `max` characters. */
export function objectName(text: string, max: number): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max)
    .replace(/-+$/, '');
  return name === '' ? 'modelcheck' : name;
}

/** The ConfigMap and the Job that run `plan` (its id names both). */
export function jobManifest(plan: Plan, id: string, o: JobOptions): unknown {
  // An Indexed Job's pod's hostname is `<job>-<index>`, a DNS label of at most 63 characters:
  // the name leaves room for the plan's id (9) and the last index.
  const room = 63 - 9 - 1 - String(plan.shards.length - 1).length;
  const kind = plan.swarm !== undefined ? 'swarm' : plan.selection.kind === 'matrix' ? plan.selection.matrix : plan.selection.kind;
  const base = objectName(`modelcheck-${plan.modelName}-${kind}`, room);
  const name = `${base}-${id.slice(0, 8)}`;
  const labels = { 'app.kubernetes.io/name': 'modelcheck', 'modelcheck/plan': id };
  const dir = `/modelcheck/runs/${name}`;
  return {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, labels },
        data: { 'plan.json': `${JSON.stringify(plan, null, 2)}\n` },
      },
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, labels },
        spec: {
          completionMode: 'Indexed',
          completions: plan.shards.length,
          parallelism: plan.shards.length,
          // A shard that fails (an out-of-memory kill, a lost node) runs again in a new pod and
          // resumes from its checkpoints, three times at most, counted per shard (Kubernetes 1.29
          // and later; it needs restartPolicy Never); one that exits 0 has written its report,
          // whatever its verdicts.
          backoffLimitPerIndex: 3,
          template: {
            metadata: { labels },
            spec: {
              restartPolicy: 'Never',
              // The image runs as node (uid 1000): the volume is made its group's.
              securityContext: { fsGroup: 1000 },
              containers: [
                {
                  name: 'shard',
                  image: o.image,
                  // The plan's model path is relative to the project, the image's working directory.
                  command: [
                    'node',
                    'bin/modelcheck.js',
                    'shard',
                    '/modelcheck/plan/plan.json',
                    '--dir',
                    dir,
                    '--workers',
                    String(o.cpu),
                    '--checkpoint-every',
                    '5',
                    // A clean stop, with a checkpoint, before the pod's memory limit kills it.
                    '--max-memory',
                    String(Math.floor(o.memoryGiB * 1024 * 0.9)),
                  ],
                  resources: {
                    requests: { cpu: String(o.cpu), memory: `${o.memoryGiB}Gi` },
                    limits: { memory: `${o.memoryGiB}Gi` },
                  },
                  volumeMounts: [
                    { name: 'plan', mountPath: '/modelcheck/plan', readOnly: true },
                    { name: 'runs', mountPath: '/modelcheck/runs' },
                  ],
                },
              ],
              volumes: [
                { name: 'plan', configMap: { name } },
                { name: 'runs', persistentVolumeClaim: { claimName: o.claim } },
              ],
            },
          },
        },
      },
    ],
  };
}
