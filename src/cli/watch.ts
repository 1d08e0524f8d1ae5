// `modelcheck <model> --watch`: checks the model, then again each time it or a local module it
// imports is saved, until Ctrl-C or q. Each run prints a short summary (its verdicts, and what
// moved since the last run that got that far: a property newly violated or proved, a count);
// `r` prints the last run's full report. The search threads and the type-checking thread are
// kept between runs, with what they loaded (workerPool.ts: KeptWorkers, KeptTypechecker), so a
// run after an edit loads only the model again.
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, relative, resolve } from 'node:path';
import type { ChalkInstance } from 'chalk';
import { EXIT, type ExitCode } from './exitCodes.ts';
import type { CliIo } from './io.ts';
import { localGraph } from './typecheckCache.ts';
import { formatSummary, type VariantSummary } from '../report/text.ts';
import { runChanges } from '../report/runChanges.ts';

/** What one run of the model gave. */
export interface WatchedRun {
  readonly code: ExitCode;
  /** Each variant's summary, when the run got as far as results. */
  readonly summaries?: readonly VariantSummary[];
  /** The full report, as the run without --watch prints it. */
  readonly report?: string;
}

/** Runs the model once (the run's number, and the flag that stops its searches). */
export type RunModel = (run: number, interrupt: Int32Array) => Promise<WatchedRun>;

/** Saves come in bursts (an editor writes, renames, touches): one run for a burst this long. */
const SETTLE_MS = 120;

export async function watchModel(file: string, io: CliIo, chalk: ChalkInstance, runModel: RunModel): Promise<ExitCode> {
  const model = resolve(file);
  let watchers: FSWatcher[] = [];
  let watched: string[] = [];
  /** The reason for the next run (a file saved, a key), or undefined while there is none. */
  let due: string | undefined = 'start';
  let quitting = false;
  let running: Int32Array | undefined;
  let wake: (() => void) | undefined;
  let settle: NodeJS.Timeout | undefined;
  const poke = () => {
    wake?.();
    wake = undefined;
  };
  const ask = (reason: string) => {
    due ??= reason;
    // A run under way is stopped: its results would be of the text before the edit.
    if (running !== undefined) Atomics.store(running, 0, 1);
    poke();
  };

  /** Watches the folders of the model's files (an editor that saves by renaming replaces the file a watch on it would follow). */
  const watchFiles = () => {
    const files = localGraph(model);
    if (files.join('\n') === watched.join('\n')) return;
    for (const w of watchers) w.close();
    watched = files;
    const byDir = new Map<string, Set<string>>();
    for (const f of files) byDir.set(dirname(f), (byDir.get(dirname(f)) ?? new Set()).add(basename(f)));
    // A folder that is not there (an import of a file not yet written) is not watched: the run
    // says the import fails, and a save of the importing file runs again.
    watchers = [...byDir]
      .filter(([dir]) => existsSync(dir))
      .map(([dir, names]) =>
        watch(dir, (_event, name) => {
          if (name === null || !names.has(name)) return;
          clearTimeout(settle);
          settle = setTimeout(() => ask(`${relative(process.cwd(), resolve(dir, name))} changed`), SETTLE_MS);
        }).on('error', () => undefined),
      );
  };

  const quit = () => {
    quitting = true;
    if (running !== undefined) Atomics.store(running, 0, 1);
    poke();
  };
  const stopInterrupt = io.onInterrupt?.(quit);
  let lastReport: string | undefined;
  /** `r` pressed during a run: its report is printed when it ends. */
  let reportAfterRun = false;
  const stopInput = io.onInput?.((key) => {
    if (key === 'q') quit();
    else if (key === 'r') {
      if (running === undefined)
        io.stdout(lastReport !== undefined ? `${lastReport}` : 'no report yet: the last run did not get to results\n');
      else reportAfterRun = true;
    } else if (key === '') ask('asked');
  });

  let run = 0;
  let previous: readonly VariantSummary[] | undefined;
  try {
    watchFiles();
    while (!quitting) {
      if (due === undefined) {
        await new Promise<void>((r) => {
          wake = r;
        });
        continue;
      }
      const reason = due;
      due = undefined;
      run++;
      const interrupt = new Int32Array(new SharedArrayBuffer(4));
      running = interrupt;
      const started = performance.now();
      const outcome = await runModel(run, interrupt);
      running = undefined;
      if (quitting) break;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const time = new Date().toTimeString().slice(0, 8);
      if (due !== undefined) {
        io.stdout(`${chalk.dim(`-- run ${run} (${reason}) stopped at ${time}: ${due}; running again`)}\n`);
        continue;
      }
      const lines = [chalk.bold(`-- run ${run} at ${time} (${reason}), ${seconds} s`)];
      if (outcome.summaries !== undefined) {
        lines.push(formatSummary(outcome.summaries, { chalk }));
        if (previous !== undefined) {
          const changes = runChanges(previous, outcome.summaries);
          lines.push(changes.length === 0 ? 'changes: none' : ['changes:', ...changes.map((c) => `  ${c}`)].join('\n'));
        }
        previous = outcome.summaries;
        lastReport = outcome.report;
      } else {
        // The run's error is on stderr already (exitForFailure).
        lines.push(`no results (exit ${outcome.code}): the error above`);
        lastReport = undefined;
      }
      watchFiles();
      const others = watched.length - 1;
      lines.push(
        chalk.dim(
          `watching ${relative(process.cwd(), model)}${others > 0 ? ` and ${others} file${others === 1 ? '' : 's'} it imports` : ''}; r: full report, Enter: run again, q or Ctrl-C: quit`,
        ),
      );
      io.stdout(`${lines.join('\n')}\n`);
      if (reportAfterRun) {
        reportAfterRun = false;
        io.stdout(lastReport ?? 'no report: the run did not get to results\n');
      }
    }
  } finally {
    clearTimeout(settle);
    for (const w of watchers) w.close();
    stopInterrupt?.();
    stopInput?.();
  }
  return EXIT.OK;
}
