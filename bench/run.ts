// npm run bench: each case of bench/cases.ts in a fresh process, one after another, then a
// table per case: distinct and generated states, depth, seconds (search and liveness),
// distinct states per second, peak memory, and bytes per distinct state (the peak over the
// memory held before the search, divided by the distinct states: storage, frontier and garbage
// not yet collected, all counted). `npm run bench -- 0 2` runs only the cases named by index.
import { spawnSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { CASES } from './cases.ts';

const picked = process.argv.slice(2).map(Number);
const indices = picked.length > 0 ? picked : CASES.map((_, i) => i);
const n = (x: number) => Math.round(x).toLocaleString('en-US');

console.log(`modelcheck benchmark, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB, one worker`);
console.log('');
console.log('| model | verdict | distinct | unreduced | generated | depth | search s | liveness s | distinct/s | peak MiB | bytes/distinct |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const i of indices) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--max-old-space-size=16384', 'bench/one.ts', String(i)], { encoding: 'utf8' });
  if (run.status !== 0) {
    console.log(`| ${CASES[i]?.name ?? i} | failed: ${run.stderr.trim().split('\n')[0]} |`);
    process.exitCode = 1;
    continue;
  }
  const r = JSON.parse(run.stdout.trim().split('\n').pop()!);
  console.log(
    `| ${r.name} | ${r.verdict} | ${n(r.distinct)} | ${r.fullStates === null ? '' : n(r.fullStates)} | ${n(r.generated)} | ${r.depth} | ${r.seconds.toFixed(1)} | ${r.livenessSeconds.toFixed(1)} | ` +
      `${n(r.distinct / r.seconds)} | ${n(r.peakBytes / 2 ** 20)} | ${n(r.searchBytes / r.distinct)} |`,
  );
}
