// npm run bench: each case of bench/cases.ts in a fresh process, one after another, with one
// thread and then with two, then a table row per case and thread count: distinct and generated
// states, depth, seconds (search and liveness), distinct states per second, the speed-up of
// two threads over one, peak memory, bytes per distinct state (the peak over the memory held
// before the search, divided by the distinct states: storage, frontier and garbage not yet
// collected, all counted), and the bytes of the visited set and trace log alone per distinct
// state. `npm run bench -- 0 2` runs only the cases named by index (large ones only so).
import { spawnSync } from 'node:child_process';
// The search runs in one.ts's main thread, which a flag set at run time no longer resizes: give it as the CLI's threads get it.
import { SEMI_SPACE_MIB } from '../src/cli/heap.ts';
import { cpus, totalmem } from 'node:os';
import { CASES } from './cases.ts';

const picked = process.argv.slice(2).map(Number);
// Large cases run only when named.
const indices = picked.length > 0 ? picked : CASES.flatMap((c, i) => (c.large ? [] : [i]));
const n = (x: number) => Math.round(x).toLocaleString('en-US');

console.log(
  `modelcheck benchmark, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
console.log('');
console.log(
  '| model | threads | verdict | distinct | unreduced | generated | depth | search s | liveness s | distinct/s | speed-up | peak MiB | bytes/distinct | stored bytes/distinct |',
);
console.log('|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const i of indices) {
  let oneThread: number | undefined;
  for (const threads of [1, 2]) {
    const run = spawnSync(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        '--max-old-space-size=16384',
        `--max-semi-space-size=${SEMI_SPACE_MIB}`,
        'bench/one.ts',
        String(i),
        String(threads),
      ],
      {
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) {
      console.log(`| ${CASES[i]?.name ?? i} | ${threads} | failed: ${run.stderr.trim().split('\n')[0]} |`);
      process.exitCode = 1;
      continue;
    }
    const r = JSON.parse(run.stdout.trim().split('\n').pop()!);
    if (threads === 1) oneThread = r.seconds;
    const speedUp = threads > 1 && oneThread !== undefined ? `${(oneThread / r.seconds).toFixed(2)}x` : '';
    console.log(
      `| ${r.name} | ${r.threads} | ${r.verdict} | ${n(r.distinct)} | ${r.fullStates === null ? '' : n(r.fullStates)} | ${n(r.generated)} | ${r.depth} | ${r.seconds.toFixed(1)} | ${r.livenessSeconds.toFixed(1)} | ` +
        `${n(r.distinct / r.seconds)} | ${speedUp} | ${n(r.peakBytes / 2 ** 20)} | ${n(r.searchBytes / r.distinct)} | ${r.storedBytes === null ? '' : (r.storedBytes / r.distinct).toFixed(1)} |`,
    );
  }
}
