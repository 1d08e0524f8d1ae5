// `modelcheck <model> --watch` end to end (issue 47): the CLI as a user runs it, on the README's
// Die Hard model (TLC's figures: 16 distinct states, depth 8, a 7-state shortest counterexample)
// kept in a folder outside the repository, its goal in a module of its own. Edits to either file
// start a run; an edit that breaks the invariant is reported as newly violated, one that mends it
// as proved; `r` prints the full report, a type error is the compiler's, `q` ends with exit 0.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve('.');
const BIN = join(ROOT, 'bin', 'modelcheck.js');

/** The Die Hard model (test/fixtures/dieHard.ts) with its goal imported from goal.ts, and no expected violation. */
function project(goal: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'modelcheck-watch-'));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'modelcheck'));
  symlinkSync(join(ROOT, 'node_modules', 'immutable'), join(dir, 'node_modules', 'immutable'));
  const model = readFileSync(join(ROOT, 'test', 'fixtures', 'dieHard.ts'), 'utf8')
    .replace("import { action, defineSingleModel, invariant } from 'modelcheck';", "$&\nimport { GOAL } from './goal.ts';")
    .replace('(s) => s.big !== 4)', '(s) => s.big !== GOAL)')
    .replace("  expectedViolations: ['NotSolved'],\n", '');
  writeFileSync(join(dir, 'model.ts'), model);
  writeFileSync(join(dir, 'goal.ts'), `export const GOAL: number = ${goal};\n`);
  return dir;
}

/** The CLI's output so far, and a wait for a text to appear in it. */
class Session {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (d: Buffer) => {
      this.stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
    });
    this.exited = new Promise((r) => child.on('exit', r));
  }

  async until(text: string, where: 'stdout' | 'stderr' = 'stdout', ms = 30_000): Promise<void> {
    const end = Date.now() + ms;
    while (!this[where].includes(text)) {
      if (Date.now() > end) throw new Error(`no "${text}" on ${where} after ${ms} ms; stdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** A run's block, with its clock time and duration (which vary) written as HH:MM:SS and N.N. */
const block = (out: string, run: number) => {
  const start = out.indexOf(`-- run ${run} at`);
  const end = out.indexOf('\n', out.indexOf('watching model.ts', start));
  return out
    .slice(start, end + 1)
    .replace(/at \d\d:\d\d:\d\d/, 'at HH:MM:SS')
    .replace(/, \d+\.\d s$/m, ', N.N s');
};

const WATCHING = 'watching model.ts and 1 file it imports; r: full report, Enter: run again, q or Ctrl-C: quit\n';
let session: Session | undefined;
afterEach(() => {
  session?.child.kill('SIGKILL');
  session = undefined;
});

describe('modelcheck --watch', () => {
  it('runs again at each save of the model or a module it imports, and says what moved', async () => {
    const dir = project(6);
    session = new Session(
      spawn(process.execPath, [BIN, 'model.ts', '--watch', '--workers', '1', '--no-progress'], {
        cwd: dir,
        env: { ...process.env, NO_COLOR: '1' },
      }),
    );
    const s = session;
    await s.until('-- run 1 at');
    await s.until(WATCHING);
    expect(block(s.stdout, 1)).toBe(
      `-- run 1 at HH:MM:SS (start), N.N s\nsummary\n  default  proved             16 states, depth   8  expectations met\n${WATCHING}`,
    );

    // The imported module breaks the invariant: 4 gallons are reachable.
    writeFileSync(join(dir, 'goal.ts'), 'export const GOAL: number = 4;\n');
    await s.until('-- run 2 at');
    await s.until('NotSolved in default: now violated (was proved)');
    await s.until(`(was proved)\n${WATCHING}`);
    expect(block(s.stdout, 2)).toBe(
      '-- run 2 at HH:MM:SS (goal.ts changed), N.N s\nsummary\n' +
        '  default  violated           16 states, depth   8  expectations NOT met  violated: NotSolved\n' +
        `changes:\n  NotSolved in default: now violated (was proved)\n${WATCHING}`,
    );

    // The full report on demand: the counterexample, TLC's shortest, 7 states.
    s.child.stdin.write('r\n');
    await s.until('shortest counterexample, 7 states:');

    // The model itself mends it: 6 gallons, which the big jug cannot hold.
    writeFileSync(join(dir, 'model.ts'), readFileSync(join(dir, 'model.ts'), 'utf8').replace('s.big !== GOAL', 's.big !== GOAL + 2'));
    await s.until('-- run 3 at');
    await s.until(`(was violated)\n${WATCHING}`);
    expect(block(s.stdout, 3)).toBe(
      '-- run 3 at HH:MM:SS (model.ts changed), N.N s\nsummary\n' +
        '  default  proved             16 states, depth   8  expectations met\n' +
        `changes:\n  NotSolved in default: now proved (was violated)\n${WATCHING}`,
    );

    // A type error is the compiler's, and the run has no results.
    writeFileSync(join(dir, 'goal.ts'), "export const GOAL: number = 'four';\n");
    await s.until('-- run 4 at');
    await s.until(`no results (exit 2): the error above\n${WATCHING}`);
    expect(s.stderr).toContain("goal.ts:1:14 TS2322: Type 'string' is not assignable to type 'number'.");

    s.child.stdin.write('q\n');
    expect(await s.exited).toBe(0);
  }, 120_000);

  it('keeps its threads from run to run: the search thread and the helpers of a split search', async () => {
    // Each thread that loads the model writes its thread id (the main thread's is 0; node:fs is
    // not in the type check's defaults, types: []); a kept
    // thread loads the model again at the next run, under the same id.
    const dir = project(6);
    const loads = join(dir, 'loads.txt');
    writeFileSync(
      join(dir, 'model.ts'),
      "import { appendFileSync } from 'node:fs';\nimport { threadId } from 'node:worker_threads';\n" +
        `${readFileSync(join(dir, 'model.ts'), 'utf8')}\nappendFileSync(new URL('./loads.txt', import.meta.url), \`\${threadId}\\n\`);\n`,
    );
    const threadLoads = () =>
      existsSync(loads)
        ? readFileSync(loads, 'utf8')
            .split('\n')
            .filter((l) => l !== '' && l !== '0')
        : [];
    const until = async (n: number) => {
      const end = Date.now() + 30_000;
      while (threadLoads().length < n) {
        if (Date.now() > end) throw new Error(`${threadLoads().length} loads in worker threads, not ${n}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    // One variant on two threads: its search's thread and one helper (workerPool.ts, threadPlan).
    session = new Session(
      spawn(process.execPath, [BIN, 'model.ts', '--watch', '--workers', '2', '--no-progress', '--no-typecheck'], { cwd: dir }),
    );
    await session.until(WATCHING);
    await until(2);
    writeFileSync(join(dir, 'goal.ts'), 'export const GOAL: number = 7;\n');
    await session.until('-- run 2 at');
    await until(4);
    const [first, second] = [threadLoads().slice(0, 2), threadLoads().slice(2)];
    expect(new Set(first).size).toBe(2);
    expect(new Set(second)).toEqual(new Set(first));
    session.child.stdin.write('q\n');
    expect(await session.exited).toBe(0);
  }, 90_000);

  it('a model that imports a file in a folder not yet there: the run says so, and the watch goes on', async () => {
    const dir = project(6);
    writeFileSync(join(dir, 'model.ts'), `import './lib/helper.ts';\n${readFileSync(join(dir, 'model.ts'), 'utf8')}`);
    session = new Session(spawn(process.execPath, [BIN, 'model.ts', '--watch', '--workers', '1', '--no-progress'], { cwd: dir }));
    await session.until('no results (exit 2): the error above');
    expect(session.stderr).toContain('error MC002 in model.ts: cannot load model.ts');
    session.child.stdin.write('q\n');
    expect(await session.exited).toBe(0);
  }, 60_000);

  it('Ctrl-C ends it, with exit 0', async () => {
    const dir = project(6);
    session = new Session(spawn(process.execPath, [BIN, 'model.ts', '--watch', '--workers', '1', '--no-progress'], { cwd: dir }));
    await session.until(WATCHING);
    session.child.kill('SIGINT');
    expect(await session.exited).toBe(0);
  }, 60_000);

  it('refuses --json, --checkpoint and --resume, which a run at each save has no use for', () => {
    const dir = project(6);
    const r = spawn(process.execPath, [BIN, 'model.ts', '--watch', '--json'], { cwd: dir });
    let stderr = '';
    r.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    return new Promise<void>((done) =>
      r.on('exit', (code) => {
        expect(code).toBe(2);
        expect(stderr).toContain('--watch runs the model at each save (its short summaries are text); it does not take --json');
        done();
      }),
    );
  });
});
