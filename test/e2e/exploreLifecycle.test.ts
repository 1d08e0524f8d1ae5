// `modelcheck explore` ends with the process that started it (issue 49): npx killed leaves its
// child, the node server, without a parent and without a signal; the server notices it has been
// adopted (bin/modelcheck.js, onOrphaned) and stops, its searches with it.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const BIN = join(resolve('.'), 'bin', 'modelcheck.js');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('the server stops when the process that started it is killed', async () => {
  // A shell stands for npx: it starts the server, says its pid, and waits.
  const shell = spawn('sh', ['-c', `"${process.execPath}" "${BIN}" explore test/fixtures/dieHard.ts & echo "pid $!"; wait`]);
  let out = '';
  shell.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const until = async (ok: () => boolean, what: string) => {
    const end = Date.now() + 30_000;
    while (!ok()) {
      if (Date.now() > end) throw new Error(`${what} after 30 s; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await until(() => out.includes('modelcheck explore: DieHard at http://127.0.0.1:'), 'no server');
  const pid = Number(/pid (\d+)/.exec(out)![1]);
  expect(alive(pid)).toBe(true);
  shell.kill('SIGKILL');
  await until(() => !alive(pid), 'the server still runs');
}, 60_000);
