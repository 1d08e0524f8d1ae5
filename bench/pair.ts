// A/B of two checkouts on one benchmark case, the two run at the same time.
//
//   npm run bench:pair -- DIR_A DIR_B [CASE [ROUNDS]]
//
// Each round starts `bench/one.ts CASE 1` in DIR_A and in DIR_B together, one process per core,
// so that both see the same machine: on these machines a case's time drifts by a third from one
// run to the next, which runs taking turns cannot tell from a change of a few percent, but two
// runs side by side drift together (bench/README.md, seventeenth run). Memory traffic is shared,
// so each run's seconds are longer than a lone run's: read the ratios, not the seconds. Prints
// each round's seconds and B/A ratio, then the median ratio; the distinct counts must agree.
// Make DIR_B with `git worktree add DIR_B COMMIT` and link this checkout's node_modules into it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [dirA, dirB] = [process.argv[2], process.argv[3]].map((d) => (d === undefined ? undefined : resolve(d)));
const index = Number(process.argv[4] ?? 6);
const rounds = Number(process.argv[5] ?? 5);
if (dirA === undefined || dirB === undefined) {
  console.error('usage: npm run bench:pair -- DIR_A DIR_B [CASE [ROUNDS]]');
  process.exit(2);
}
for (const d of [dirA, dirB]) {
  if (!existsSync(join(d, 'bench', 'one.ts')) || !existsSync(join(d, 'node_modules'))) {
    console.error(`${d}: not a modelcheck checkout with its node_modules (bench/one.ts, node_modules)`);
    process.exit(2);
  }
}

interface Run {
  readonly distinct: number;
  readonly seconds: number;
}

function one(dir: string): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', '--max-old-space-size=16384', 'bench/one.ts', String(index), '1'],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('close', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        fail(new Error(`${dir}: bench/one.ts ${index} exited with ${code}\n${err}`));
        return;
      }
      const r = JSON.parse(last) as Run;
      done({ distinct: r.distinct, seconds: r.seconds });
    });
  });
}

const ratios: number[] = [];
for (let i = 0; i < rounds; i++) {
  const [a, b] = await Promise.all([one(dirA), one(dirB)]);
  if (a.distinct !== b.distinct) {
    console.error(`round ${i + 1}: distinct states differ: ${a.distinct} in A, ${b.distinct} in B`);
    process.exit(1);
  }
  const ratio = b.seconds / a.seconds;
  ratios.push(ratio);
  console.log(
    `round ${i + 1}: A ${a.seconds.toFixed(2)} s, B ${b.seconds.toFixed(2)} s, B/A ${ratio.toFixed(3)} (${a.distinct} distinct states)`,
  );
}
const sorted = [...ratios].sort((x, y) => x - y);
const mid = sorted.length >> 1;
const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
console.log(`median B/A ${median.toFixed(3)} over ${rounds} rounds: B is ${(1 / median).toFixed(2)} times as fast as A`);
