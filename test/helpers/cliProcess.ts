// The CLI in a process of its own, for the tests that kill it (SIGKILL: nothing of it runs after
// the signal) or give it an environment (a Job's $JOB_COMPLETION_INDEX), as a pod or a user's
// shell runs it. Where neither is needed, runCli.ts runs it in the test's process: a process
// costs seconds of start-up.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(import.meta.dirname, '../../bin/modelcheck.js');

export interface ProcessRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly seconds: number;
}

export interface ProcessOptions {
  /** Added to this process's environment. */
  readonly env?: Readonly<Record<string, string>>;
  /** Kill the process `afterSeconds` after `ready` first holds (polled every 20 ms). */
  readonly kill?: { readonly ready: () => boolean; readonly afterSeconds: number };
}

/** Runs `node bin/modelcheck.js ...args` and waits for it to end. */
export function runProcess(args: readonly string[], { env = {}, kill }: ProcessOptions = {}): Promise<ProcessRun> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    let timer: NodeJS.Timeout | undefined;
    if (kill) {
      const poll = setInterval(() => {
        if (!kill.ready()) return;
        clearInterval(poll);
        timer = setTimeout(() => child.kill('SIGKILL'), kill.afterSeconds * 1000);
      }, 20);
      child.on('exit', () => clearInterval(poll));
    }
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** A --json document without what differs between two runs of one search: timings, threads, where states were held. */
export function comparable(text: string): unknown {
  const doc = JSON.parse(text) as { variants: Record<string, unknown>[] };
  for (const v of doc.variants)
    for (const k of ['seconds', 'statesPerSecond', 'livenessSeconds', 'threads', 'frontier', 'storedBytes']) delete v[k];
  return doc;
}
