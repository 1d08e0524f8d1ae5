// Whether the command on the command line will search, and on how many threads: if it will,
// its first search thread is started at once (workerPool.ts, startSpareWorker), to load while
// the main thread loads the CLI and the model. Read from the raw arguments, before the CLI's
// parser is loaded; a guess that turns out wrong (an option error, a heap share the variants do
// not give) costs a thread that is let go, never a different run.
import { availableParallelism } from 'node:os';
import { subcommand } from './subcommands.ts';
import { startSpareWorker } from './workerPool.ts';

const NO_RUN = new Set(['-h', '--help', '-V', '--version']);

/** The thread count the arguments ask for (--workers N or --workers=N), or the cores'; undefined where none would search. */
export function searchThreads(argv: readonly string[]): number | undefined {
  if (argv.length === 0 || subcommand(argv[0])?.earlyThread === false || argv.some((a) => NO_RUN.has(a))) return undefined;
  let threads = availableParallelism();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const given = a === '--workers' ? argv[i + 1] : a.startsWith('--workers=') ? a.slice('--workers='.length) : undefined;
    if (given === undefined) continue;
    if (!/^[1-9]\d*$/.test(given)) return undefined;
    threads = Number(given);
  }
  return threads;
}

export function startEarlyWorker(argv: readonly string[]): void {
  const threads = searchThreads(argv);
  if (threads !== undefined) startSpareWorker(threads);
}
