// Start-up: a small model's whole run, process start to exit, as a user sees it (issue 23), and
// the same for a model kept outside the repository, run by the packed package (issue 47).
//
//   npm run bench:startup [-- RUNS [MODEL] [--outside]]
//
// Runs `modelcheck MODEL --workers 1` in several ways, taking turns so that the machine's drift
// falls on all of them alike: without the type check, with it and an empty cache (the compiler
// runs), with the cache the previous run left (no compiler), and after an edit of the model (the
// kept answer is for other text: the compiler runs again).
//
// With --outside, the repository is packed and installed offline into a project in a temporary
// folder (scripts/offlineInstall.ts), set up by `modelcheck init`; MODEL is copied there, and the
// package's CLI runs it from dist/, type-checking it against the package's declarations. Two more
// ways time the type check alone (a process that loads the compiler, checks the model and exits,
// as the CLI's type-checking worker does): with an empty cache directory, and after an edit with
// the cache the earlier runs left (the compiler's compiled code, src/cli/compiler.ts).
//
// Prints each way's median and range of wall-clock seconds.
import { spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { installPacked } from '../scripts/offlineInstall.ts';

const args = process.argv.slice(2);
const outside = args.includes('--outside');
const [runsArg, modelArg] = args.filter((a) => a !== '--outside');
const runs = Number(runsArg ?? 5);
const source = modelArg ?? 'test/fixtures/dieHard.ts';
const warmDir = mkdtempSync(join(tmpdir(), 'modelcheck-startup-warm-'));

let cwd = process.cwd();
let bin = resolve('bin/modelcheck.js');
let model = source;
/** The installed package's dist/cli, where the type check's modules are. */
let typecheckModule: string | undefined;
if (outside) {
  const work = mkdtempSync(join(tmpdir(), 'modelcheck-startup-outside-'));
  const { project } = installPacked(work);
  cwd = project;
  model = basename(source);
  bin = join(project, 'node_modules', 'modelcheck', 'bin', 'modelcheck.js');
  // Set up as a user would: `modelcheck init` makes it an ES module package and writes its tsconfig.json.
  const init = spawnSync(process.execPath, [bin, 'init'], { cwd, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`modelcheck init exited with ${init.status}:\n${init.stderr}`);
  copyFileSync(source, join(project, model));
  typecheckModule = join(project, 'node_modules', 'modelcheck', 'dist', 'cli');
}
const original = readFileSync(join(cwd, model), 'utf8');
let edits = 0;

function timed(argv: string[], cacheDir: string): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, {
    cwd,
    env: { ...process.env, MODELCHECK_CACHE_DIR: cacheDir, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  // A model may be violated by design (exit 1); anything else but a verdict is a broken run.
  if (r.status !== 0 && r.status !== 1) throw new Error(`${argv.join(' ')} exited with ${r.status}:\n${r.stderr}`);
  return seconds;
}
const once = (extra: string[], cacheDir: string) => timed([bin, model, '--workers', '1', '--no-progress', ...extra], cacheDir);
function withColdCache<T>(f: (dir: string) => T): T {
  const cold = mkdtempSync(join(tmpdir(), 'modelcheck-startup-cold-'));
  try {
    return f(cold);
  } finally {
    rmSync(cold, { recursive: true, force: true });
  }
}

const ways: { name: string; run: () => number }[] = [
  { name: '--no-typecheck', run: () => once(['--no-typecheck'], warmDir) },
  { name: 'type check, empty cache', run: () => withColdCache((dir) => once([], dir)) },
  { name: 'type check, kept answer', run: () => once([], warmDir) },
  {
    name: 'type check after an edit',
    run: () => {
      appendFileSync(join(cwd, model), `\nexport const edit${++edits} = ${edits};\n`);
      return once([], warmDir);
    },
  },
];
if (typecheckModule !== undefined) {
  const script = [
    `const { typecheckModel } = await import(${JSON.stringify(join(typecheckModule, 'typecheck.js'))});`,
    `const { keepCompiledCompiler } = await import(${JSON.stringify(join(typecheckModule, 'compiler.js'))});`,
    `const errors = typecheckModel(${JSON.stringify(model)});`,
    'keepCompiledCompiler();',
    'if (errors.length > 0) { console.error(errors); process.exit(2); }',
  ].join('\n');
  ways.push(
    { name: 'type check alone, empty', run: () => withColdCache((dir) => timed(['--input-type=module', '-e', script], dir)) },
    {
      name: 'type check alone, edited',
      run: () => {
        // Edited, and put back after, so that the next round's kept answer is still the one kept.
        const before = readFileSync(join(cwd, model), 'utf8');
        appendFileSync(join(cwd, model), `\nexport const edit${++edits} = ${edits};\n`);
        try {
          return timed(['--input-type=module', '-e', script], warmDir);
        } finally {
          writeFileSync(join(cwd, model), before);
        }
      },
    },
  );
}

const times = ways.map(() => [] as number[]);
try {
  once([], warmDir); // fills the warm cache, and warms the file system
  for (let i = 0; i < runs; i++) for (const [k, w] of ways.entries()) times[k].push(w.run());
} finally {
  // The edits are undone (in the repository, MODEL is the model itself).
  writeFileSync(join(cwd, model), original);
  rmSync(warmDir, { recursive: true, force: true });
}
const lines = original.split('\n').length - 1;

console.log(
  `${source} (${lines} lines)${outside ? `, outside the repository (${cwd}, the packed package)` : ''}, ${runs} runs each, taking turns (wall-clock seconds, process start to exit)`,
);
ways.forEach((w, k) => {
  const t = [...times[k]].sort((a, b) => a - b);
  console.log(`  ${w.name.padEnd(26)} median ${t[t.length >> 1].toFixed(2)}  (${t[0].toFixed(2)} to ${t[t.length - 1].toFixed(2)})`);
});
