// Start-up: a small model's whole run, process start to exit, as a user sees it (issue 23).
//
//   npm run bench:startup [-- RUNS [MODEL]]
//
// Runs `modelcheck MODEL --workers 1` in three ways, taking turns so that the machine's drift
// falls on all of them alike: without the type check, with it and an empty cache (the
// compiler runs), and with it and the cache the previous run left (no compiler). Prints each
// way's median and range of wall-clock seconds.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const model = process.argv[3] ?? 'test/fixtures/dieHard.ts';
const warmDir = mkdtempSync(join(tmpdir(), 'modelcheck-startup-warm-'));

function once(args: string[], cacheDir: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['bin/modelcheck.js', model, '--workers', '1', '--no-progress', ...args], {
    env: { ...process.env, MODELCHECK_CACHE_DIR: cacheDir, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // DieHard is violated by design (exit 1); anything else but a verdict is a broken run.
  if (r.status !== 0 && r.status !== 1) throw new Error(`modelcheck exited with ${r.status}:\n${r.stderr}`);
  return seconds;
}

const ways: { name: string; run: () => number }[] = [
  { name: '--no-typecheck', run: () => once(['--no-typecheck'], warmDir) },
  {
    name: 'type check, empty cache',
    run: () => {
      const cold = mkdtempSync(join(tmpdir(), 'modelcheck-startup-cold-'));
      try {
        return once([], cold);
      } finally {
        rmSync(cold, { recursive: true, force: true });
      }
    },
  },
  { name: 'type check, kept answer', run: () => once([], warmDir) },
];

once([], warmDir); // fills the warm cache, and warms the file system
const times = ways.map(() => [] as number[]);
for (let i = 0; i < runs; i++) for (const [k, w] of ways.entries()) times[k].push(w.run());
rmSync(warmDir, { recursive: true, force: true });

console.log(`${model}, ${runs} runs each, taking turns (wall-clock seconds, process start to exit)`);
ways.forEach((w, k) => {
  const t = [...times[k]].sort((a, b) => a - b);
  console.log(`  ${w.name.padEnd(26)} median ${t[t.length >> 1].toFixed(2)}  (${t[0].toFixed(2)} to ${t[t.length - 1].toFixed(2)})`);
});
