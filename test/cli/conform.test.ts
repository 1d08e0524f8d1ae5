// `modelcheck conform --audit FILE` as a user runs it: the report's text, --json, and the exit
// statuses (0 every replayed request agrees, 1 a divergence, 2 a file it cannot read, 3 nothing
// replayed), on the log of test/fixtures/audit/widgetLog.ts.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { k8s, type Variant } from 'modelcheck';
import moveModel from '../../models/move.ts';
import { PathReplayer } from '../../src/engine/search/replay.ts';
import { runCli } from '../helpers/runCli.ts';
import { event, jsonLines, life, widget } from '../fixtures/audit/widgetLog.ts';

const dir = mkdtempSync(join(tmpdir(), 'modelcheck-conform-'));
function logFile(name: string, events: unknown[]): string {
  const path = join(dir, name);
  writeFileSync(path, jsonLines(events));
  return path;
}

describe('modelcheck conform --audit', () => {
  it('a log the library agrees with: exit 0, and what was not replayed, with why', async () => {
    const file = logFile('agrees.log', [event('create', 201, { level: 'Metadata', name: 'w0' }), ...life()]);
    const r = await runCli(['conform', '--audit', file]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(
      `${file}: 9 audit events\n` +
        "replayed 8 requests through the library's API server (Widget 8): every one agrees\n" +
        '\nnot replayed: 1 event\n' +
        `        1  Metadata level: the log holds no request body to replay (first at line 1)\n`,
    );
  });

  it('a divergence: exit 1, the request, both answers and what differs', async () => {
    const events = life();
    // The DELETE as if the object had had no finalizer: removed at once.
    events[4] = { ...events[4], responseObject: { kind: 'Status', apiVersion: 'v1', status: 'Success' } };
    const file = logFile('differs.log', events.slice(0, 5));
    const r = await runCli(['conform', '--audit', file]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe(
      `${file}: 5 audit events\n` +
        "replayed 5 requests through the library's API server (Widget 5): 4 agree, 1 differs\n" +
        '\n' +
        `first divergence: line 5 (event 5, auditID ${events[4].auditID})\n` +
        '  DELETE /apis/example.com/v1/namespaces/default/widgets/w1  by system:serviceaccount:default:widget-controller\n' +
        '  body: {"kind":"DeleteOptions","apiVersion":"v1"}\n' +
        '  recorded: 200, object removed\n' +
        '  library:  200, finalizers [example.com/cleanup], being deleted, generation 3, written\n' +
        '  differs removed: true (recorded) vs false (library)\n',
    );
    const json = JSON.parse((await runCli(['conform', '--audit', file, '--json'])).stdout);
    expect([json.replayed, json.agreed, json.divergences[0].diff]).toEqual([5, 4, ['removed: true (recorded) vs false (library)']]);
  });

  it('nothing replayed: exit 3, and it says so', async () => {
    const file = logFile('nothing.log', [event('get', 200, { level: 'Metadata' })]);
    const r = await runCli(['conform', '--audit', file]);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('no request could be replayed: nothing was checked (see what was skipped)\n');
  });

  it('a file it cannot read, or that is no log: exit 2, with why', async () => {
    const missing = await runCli(['conform', '--audit', join(dir, 'none.log')]);
    expect([missing.exitCode, missing.stderr]).toEqual([2, `modelcheck conform: cannot read ${join(dir, 'none.log')}: ENOENT\n`]);
    const text = join(dir, 'text.log');
    writeFileSync(text, 'hello\n');
    const notLog = await runCli(['conform', '--audit', text]);
    expect([notLog.exitCode, notLog.stderr]).toEqual([
      2,
      `modelcheck conform: ${text} is not an audit log: no line is JSON (line 1: Unexpected token 'h', "hello" is not valid JSON)\n`,
    ]);
    const none = await runCli(['conform']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('modelcheck conform: conform needs --audit FILE');
  });

  it('rotated files, oldest first, are one log', async () => {
    const events = life();
    const a = logFile('a.log', events.slice(0, 4));
    const b = logFile('b.log', events.slice(4));
    const r = await runCli(['conform', '--audit', a, '--audit', b]);
    expect([r.exitCode, r.stdout.split('\n')[1]]).toEqual([
      0,
      "replayed 8 requests through the library's API server (Widget 8): every one agrees",
    ]);
    expect(widget('1').kind).toBe('Widget');
  });
});

describe('modelcheck conform <model> --audit: a recorded run against a model', () => {
  // v1.9.3's first counterexample in docs/move.manifest.json, written as its servers' audit logs
  // (test/k8s/traceValidation.test.ts checks every one, and the tampered copies, through the API).
  const variant = moveModel.variants.find((v) => v.name === 'v1.9.3')! as Variant<unknown>;
  const recorded = JSON.parse(readFileSync('docs/move.manifest.json', 'utf8')).variants['v1.9.3'].violations[0];
  const replayed = new PathReplayer(variant).replay(recorded.init, recorded.steps);
  const logs = k8s.auditLogsOf('trace' in replayed ? replayed.trace.slice(1) : []);
  const write = (name: string, log: k8s.AuditLog, change?: (e: k8s.AuditEvent, i: number) => k8s.AuditEvent) => {
    const path = join(dir, name);
    writeFileSync(path, log.events.map((e, i) => JSON.stringify(change ? change(e.event, i) : e.event)).join('\n'));
    return path;
  };
  const source = write('source.log', logs.get('source')!);
  const target = write('target.log', logs.get('target')!);
  const conformV193 = (sourceLog: string) =>
    runCli(['conform', 'models/move.ts', '--variant', 'v1.9.3', '--audit', `source=${sourceLog}`, '--audit', `target=${target}`]);

  it('conforms: exit 0, the path of the model with each recorded write it matches', async () => {
    const r = await conformV193(source);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain(
      'the recorded run against variant v1.9.3 (6 recorded writes to source, target): conforms, a behaviour of the model from initial state 55',
    );
    expect(r.stdout).toContain(`   9. mover.removeFinalizers(DockerCluster/c1)\n         matches source ${source}:3: PATCH`);
  }, 60_000);

  it('a tampered body: exit 1, the recorded write named, and what the model could have sent', async () => {
    const tampered = write('tampered.log', logs.get('source')!, (e, i) =>
      i === 2 ? { ...e, requestObject: { metadata: { finalizers: ['other'] } } } : e,
    );
    const r = await conformV193(tampered);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('does not conform\n  recorded write 5, source');
    expect(r.stdout).toContain(
      '    mover.removeFinalizers(DockerCluster/c1): source API server: PATCH DockerCluster/c1 (merge) {"metadata":{"finalizers":[]}}',
    );
  }, 60_000);

  it('a model of several servers: each log names its server', async () => {
    const r = await runCli(['conform', 'models/move.ts', '--variant', 'v1.9.3', '--audit', source]);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `modelcheck conform: name the API server ${source} is the log of: --audit SERVER=${source} (the model's servers: source, target)\n`,
    ]);
  }, 60_000);
});

describe('modelcheck conform <model> --policy', () => {
  it("prints the audit policy that records the model's kinds' writes and GETs at RequestResponse, nothing else", async () => {
    const r = await runCli([
      'conform',
      'models/move.ts',
      '--policy',
      '--group',
      'Cluster=cluster.x-k8s.io',
      '--group',
      'DockerCluster=infrastructure.cluster.x-k8s.io',
    ]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    // audit.k8s.io/v1 Policy (k8s.io/apiserver pkg/apis/audit/v1 types.go: Policy, PolicyRule, GroupResources).
    expect(r.stdout.slice(r.stdout.indexOf('apiVersion'))).toBe(
      [
        'apiVersion: audit.k8s.io/v1',
        'kind: Policy',
        'omitStages: ["RequestReceived"]',
        'rules:',
        '  - level: RequestResponse',
        '    verbs: ["get", "create", "update", "patch", "delete"]',
        '    resources:',
        '      - group: "cluster.x-k8s.io"',
        '        resources: ["clusters", "clusters/status"]',
        '      - group: "infrastructure.cluster.x-k8s.io"',
        '        resources: ["dockerclusters", "dockerclusters/status"]',
        '  - level: None',
        '',
      ].join('\n'),
    );
  }, 60_000);

  it('a custom kind without its group: exit 2, and how to give it', async () => {
    const r = await runCli(['conform', 'models/move.ts', '--policy', '--group', 'Cluster=cluster.x-k8s.io']);
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      'modelcheck conform: the API group of DockerCluster is not known here: give it, --group DockerCluster=GROUP (kubectl api-resources shows it)\n',
    ]);
  }, 60_000);
});

describe('modelcheck conform with a model that has no Kubernetes API servers', () => {
  it('says so (exit 2), for --audit and --policy alike', async () => {
    const file = logFile('any.log', life());
    for (const args of [['--audit', file], ['--policy']]) {
      const r = await runCli(['conform', 'test/fixtures/dieHard.ts', ...args]);
      expect([r.exitCode, r.stderr]).toEqual([
        2,
        'modelcheck conform: test/fixtures/dieHard.ts has no Kubernetes API servers (no k8s world in the initial states of variant default): nothing of an audit log can be its behaviour\n',
      ]);
    }
  });
});
