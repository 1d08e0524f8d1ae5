// The readable outputs on the move model itself: the text trace with requests, answers and
// Kubernetes field diffs, the ITF file and the sequence diagram, for the 17-state
// SourceInfraNeverDestroyed trace of v1.9.5-no-timing-assumption (README, "The other variants";
// test/e2e/moveNoTiming.test.ts asserts the same trace from a complete search). A depth bound of
// 18 keeps this quick: the search is then incomplete (exit 3), and the violation is definite.
import { beforeAll, describe, expect, it } from 'vitest';
import mermaid from 'mermaid';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ofItf } from '@informalsystems/quint/dist/src/itf.js';
import { runCli, type CliRun } from '../helpers/runCli.ts';

const VARIANT = 'v1.9.5-no-timing-assumption';

describe(`readable results on models/move.ts, variant ${VARIANT}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-move-out-'));
  let run: CliRun;
  beforeAll(async () => {
    run = await runCli([
      'models/move.ts',
      '--variant',
      VARIANT,
      '--max-depth',
      '18',
      '--workers',
      '1',
      '--no-progress',
      '--out-itf',
      join(dir, 'itf'),
      '--out-mermaid',
      join(dir, 'mermaid'),
    ]);
  }, 120_000);

  it('stops incomplete at the depth bound with the violation found', () => {
    expect(run.exitCode).toBe(3);
    expect(run.stdout).toContain('SourceInfraNeverDestroyed is violated [invariant]');
  });

  it("shows the mover's DELETE with the API server's answer and the fields it changed, per object and field", () => {
    // State 7: the DELETE of the DockerCluster, which still has its finalizer, only marks it.
    expect(run.stdout).toContain(
      [
        '     7. mover.delete(DockerCluster/c1)',
        '        mover -> source API server: DELETE DockerCluster/c1',
        '          <- 200 OK: deletionTimestamp set, kept for its finalizers [dockercluster.infrastructure.cluster.x-k8s.io]',
        '        mover step: delete -> removeFinalizers',
        '        source DockerCluster/c1 metadata.resourceVersion: 4 -> 5',
        // Marking it for deletion bumps its generation (markAsDeleting).
        '        source DockerCluster/c1 metadata.generation: 1 -> 2',
        '        source DockerCluster/c1 metadata.deletionTimestamp: null -> 5',
      ].join('\n'),
    );
    // The pause patch and its effect on the stored Cluster.
    expect(run.stdout).toContain(
      [
        '     2. mover.pauseCluster(Cluster/c1)',
        // The preflight's fresh read of the Cluster, then the pause.
        '        mover -> source API server: GET Cluster/c1',
        '          <- 200 OK',
        '        mover -> source API server: PATCH Cluster/c1 (merge) {"spec":{"paused":true}}',
        '          <- 200 OK',
        '        mover phase: pause -> create',
        '        source Cluster/c1 metadata.resourceVersion: 3 -> 4',
        '        source Cluster/c1 metadata.generation: 1 -> 2',
        '        source Cluster/c1 spec.paused: false -> true',
      ].join('\n'),
    );
    expect(run.stdout).toContain('        c1 load balancer: running -> deleted');
  });

  it('writes the counterexample as ITF, read back by Quint: 17 states, the last with the load balancer deleted', () => {
    expect(readdirSync(join(dir, 'itf'))).toEqual([`${VARIANT}-SourceInfraNeverDestroyed.itf.json`]);
    const itf = JSON.parse(readFileSync(join(dir, 'itf', `${VARIANT}-SourceInfraNeverDestroyed.itf.json`), 'utf8'));
    expect(itf.vars).toEqual(['kube', 'mover', 'infrastructure', 'emptied', 'deleted', 'moverRerunsLeft', 'mbt::actionTaken']);
    expect(itf.states.length).toBe(17);
    expect(itf.states[15].infrastructure).toEqual({ '#map': [['c1 load balancer', 'running']] });
    expect(itf.states[16].infrastructure).toEqual({ '#map': [['c1 load balancer', 'deleted']] });
    expect(itf.states[16]['#meta'].action).toBe('dockerClusterController.deleteLoadBalancer(DockerCluster/c1)');
    expect(itf.states[6].deleted).toEqual({ '#set': ['DockerCluster/c1'] });
    expect(ofItf(itf).length).toBe(17);
  });

  it('writes the sequence diagram, which mermaid parses', async () => {
    const page = readFileSync(join(dir, 'mermaid', `${VARIANT}-SourceInfraNeverDestroyed.md`), 'utf8');
    const diagram = /```mermaid\n([\s\S]*?)\n```/.exec(page)![1];
    expect(diagram).toContain('  p_mover->>p_source_API_server: 7. DELETE DockerCluster/c1\n');
    expect(diagram).toContain('  Note over p_dockerClusterController: 17. deleteLoadBalancer(DockerCluster/c1)\n');
    await expect(mermaid.parse(diagram)).resolves.toMatchObject({ diagramType: 'sequence' });
  });
});
