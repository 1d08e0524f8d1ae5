// The CLI's limits on a search that never ends (test/fixtures/endless.ts): each stops it
// cleanly, prints what was explored, says INCOMPLETE and exits 3, never "proved". Ctrl-C is
// sent to the real binary, as a user's terminal would.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.ts';

const ENDLESS = 'test/fixtures/endless.ts';

function expectIncomplete(stdout: string, why: string) {
  expect(stdout).toContain(`  verdict: INCOMPLETE: ${why}; nothing is proved`);
  expect(stdout).not.toContain('PROVED');
  expect(stdout).toMatch(/^ {2}default +incomplete +[\d,]+ states, depth +[\d,]+$/m);
}

describe('limits end the search as incomplete, exit 3', () => {
  it('--timeout', async () => {
    const r = await runCli([ENDLESS, '--timeout', '0.5', '--no-progress']);
    expect(r.exitCode).toBe(3);
    expectIncomplete(r.stdout, 'the search stopped at its time limit (0.5 s)');
    expect(r.stdout).toContain('  bounds: at most 0.5 s');
  });

  it('--max-memory', async () => {
    const r = await runCli([ENDLESS, '--max-memory', '1', '--no-progress']);
    expect(r.exitCode).toBe(3);
    expectIncomplete(r.stdout, 'the search stopped at its memory ceiling (1 MiB) or with the JavaScript heap nearly full');
    expect(r.stdout).toContain('  bounds: at most 1 MiB of memory');
  });

  it('--max-states and --max-depth', async () => {
    const states = await runCli([ENDLESS, '--max-states', '1000', '--no-progress']);
    expect(states.exitCode).toBe(3);
    expectIncomplete(states.stdout, 'the search stopped at its state limit');
    expect(states.stdout).toContain('  default  incomplete        1,000 states, depth 1000');
    const depth = await runCli([ENDLESS, '--max-depth', '50', '--no-progress']);
    expect(depth.exitCode).toBe(3);
    expectIncomplete(depth.stdout, 'the search stopped at its depth limit');
  });

  it('bad limits are usage errors (exit 2)', async () => {
    for (const args of [
      ['--timeout', '0'],
      ['--timeout', 'soon'],
      ['--max-memory', '-5'],
    ]) {
      const r = await runCli([ENDLESS, ...args]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(/^modelcheck: option '--(timeout|max-memory) <(seconds|MiB)>' argument '.*' is invalid/);
    }
  });

  it('Ctrl-C (SIGINT): the search stops, reports what it explored, and exits 3', async () => {
    const child = spawn(process.execPath, ['bin/modelcheck.js', ENDLESS], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // Interrupt once the search is surely under way: its first progress line (after 2 s).
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/distinct states/.test(stderr) && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(code).toBe(3);
    expect(stderr).toContain('modelcheck: interrupted: stopping the search to report what it explored (Ctrl-C again quits at once)');
    expectIncomplete(stdout, 'the search was interrupted (Ctrl-C)');
  }, 60_000);
});
