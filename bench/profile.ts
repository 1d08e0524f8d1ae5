// npm run bench:profile -- INDEX: one benchmark case (bench/cases.ts) on one thread under
// node --cpu-prof, then where its time went: self time by part of the program (the model and the
// libraries it uses, the checker's encoding, its search, garbage collection) and the functions
// with the most self time. The profile file stays in a temporary folder, named at the end, for
// Chrome's or VS Code's profile viewer.
import { spawnSync } from 'node:child_process';
// The search runs in one.ts's main thread, which a flag set at run time no longer resizes: give it as the CLI's threads get it.
import { SEMI_SPACE_MIB } from '../src/cli/heap.ts';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CASES } from './cases.ts';

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

const index = Number(process.argv[2] ?? 1);
if (!CASES[index]) {
  console.error(`no benchmark case ${process.argv[2]}: 0 to ${CASES.length - 1} (bench/cases.ts)`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'modelcheck-profile-'));
const run = spawnSync(
  process.execPath,
  [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--conditions=source',
    '--import',
    'tsx',
    '--max-old-space-size=16384',
    `--max-semi-space-size=${SEMI_SPACE_MIB}`,
    'bench/one.ts',
    String(index),
    '1',
  ],
  { encoding: 'utf8' },
);
if (run.status !== 0) {
  console.error(run.stderr);
  process.exit(1);
}
const result = JSON.parse(run.stdout.trim().split('\n').pop()!);
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;

/** The part of the program a function belongs to, from its file. */
function partOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)' || name === '(program)') return 'idle, and V8 outside JavaScript';
  if (url.includes('/node_modules/immutable/')) return "immutable.js (the model's state values)";
  if (/\/src\/engine\/values\/(encoding|hash|fingerprint)\.ts/.test(url)) return 'checker: canonical encoding and fingerprints';
  if (url.includes('/src/engine/')) return 'checker: search, visited set, trace log, model calls';
  if (url.includes('/src/k8s/')) return 'Kubernetes library (src/k8s)';
  if (url.includes('/models/') || url.includes('/test/fixtures/')) return "the model's own code";
  return 'Node.js, the loader and the rest';
}

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + profile.timeDeltas[i]);
});
const parts = new Map<string, number>();
const functions = new Map<string, number>();
let total = 0;
for (const [id, t] of selfTime) {
  const { functionName, url } = nodes.get(id)!.callFrame;
  total += t;
  const part = partOf(url, functionName);
  parts.set(part, (parts.get(part) ?? 0) + t);
  const where = url ? url.split('/').slice(-2).join('/') : '';
  const key = `${functionName || '(anonymous)'}${where ? ` (${where})` : ''}`;
  functions.set(key, (functions.get(key) ?? 0) + t);
}
const pct = (t: number) => `${((100 * t) / total).toFixed(1)}%`;
console.log(
  `${result.name}: ${result.distinct.toLocaleString('en-US')} distinct states in ${result.seconds.toFixed(1)} s on one thread, profiled`,
);
console.log('');
console.log('| part of the program | self time |');
console.log('|---|---:|');
for (const [part, t] of [...parts].sort((a, b) => b[1] - a[1])) console.log(`| ${part} | ${pct(t)} |`);
console.log('');
console.log('| function | self time |');
console.log('|---|---:|');
for (const [f, t] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`| ${f} | ${pct(t)} |`);
console.log('');
console.log(`profile: ${join(dir, file)}`);
