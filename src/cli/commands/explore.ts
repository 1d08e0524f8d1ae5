// `modelcheck explore <model>`: serves the explorer (src/explore/) on 127.0.0.1 until Ctrl-C.
import { Command } from 'commander';
import { Chalk } from 'chalk';
import { spawn } from 'node:child_process';
import { ModelError } from '../../engine/errors.ts';
import { fromReport, initialOf, readTraceFile, type Counterexample, type JsonViolation, type Run } from '../../explore/counterexamples.ts';
import { checkInWorkers } from '../workerPool.ts';
import { KeptSearches } from '../keptSearches.ts';
import { startExplorer } from '../../explore/server.ts';
import { Walk } from '../../explore/walk.ts';
import { exitForFailure } from '../failure.ts';
import { EXIT, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import type { CliIo } from '../io.ts';
import { port } from '../options.ts';

interface Options {
  variant?: string;
  port: number;
  open?: boolean;
  trace: string[];
  param: string[];
}

export async function runExplore(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const cmd = new Command()
    .name('modelcheck explore')
    .description(
      "Walk a model in the browser: its states as panels, the steps enabled in each, every property's value, and its counterexamples step by step.",
    )
    .argument('<model>', 'the model file')
    .option('--variant <name>', 'the variant to open (default: the first)')
    .option('--port <n>', 'the port to listen on, on 127.0.0.1 (default: a free one)', port, 0)
    .option('--open', 'open the page in the default browser')
    .option(
      '--trace <file>',
      'list the counterexample of an --out-itf file, or those of a --json report, and open the first (repeat for several files)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--param <name=value>', "set one of the model's parameters (repeat for several)", (v: string, all: string[]) => [...all, v], [])
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  const parsed = parseCommand<Options>(cmd, argv, io, 'modelcheck explore');
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  try {
    const model = await loadModel(file, opts.param);
    const loaded: Counterexample[] = opts.trace.flatMap((f) => readTraceFile(f, model.name));
    const first = loaded[0];
    const variant = opts.variant ?? first?.variant ?? model.variants[0].name;
    const known = (name: string) => model.variants.some((v) => v.name === name);
    for (const name of [variant, ...loaded.map((x) => x.variant)]) {
      if (!known(name)) {
        throw new ModelError('MC004_UNKNOWN_VARIANT', `model ${model.name} has no variant ${name}`, {
          model: model.name,
          hint: `its variants: ${model.variants.map((v) => v.name).join(', ')}`,
        });
      }
    }
    let open: { variant: string; init: number; steps: readonly string[] } | undefined;
    const opening = loaded.find((x) => x.variant === variant);
    if (opening !== undefined) {
      const v = model.variants.find((x) => x.name === variant)!;
      open = { variant, init: initialOf(new Walk(model.name, v), opening), steps: opening.steps };
    }
    // Each search's stop flag: Ctrl-C stops the server and the searches it started, which would
    // otherwise keep the process alive until they finished.
    const stops: (() => void)[] = [];
    const kept = new KeptSearches(file, opts.param);
    const search = (name: string, run: Run) => {
      const cancel = searchForExplorer(file, opts.param, name, run, (r) => kept.store(name, r));
      stops.push(cancel);
      return cancel;
    };
    const runs = kept.kept();
    const explorer = await startExplorer({ file, model, variant, port: opts.port, loaded, open, search, runs });
    io.stdout(`modelcheck explore: ${model.name} at ${explorer.url} (Ctrl-C stops it)\n`);
    if (opts.open) openInBrowser(explorer.url);
    // Until Ctrl-C, or until the process that started this one ends (a killed npx).
    await new Promise<void>((resolve) => {
      const done = () => {
        stopInterrupt?.();
        stopOrphan?.();
        resolve();
      };
      const stopInterrupt = io.onInterrupt?.(done);
      const stopOrphan = io.onOrphaned?.(done);
    });
    await explorer.close();
    for (const stop of stops) stop();
    return EXIT.OK;
  } catch (e) {
    if ((e as { code?: string }).code === 'EADDRINUSE') {
      io.stderr(`modelcheck explore: port ${opts.port} is in use; name another with --port, or leave it out for a free one\n`);
      return EXIT.ERROR;
    }
    return exitForFailure(e, io, file, new Chalk({ level: io.colorOut ? 1 : 0 }));
  }
}

/**
 * Starts checking `variant` in a worker thread; `run` is updated as the search goes, each
 * counterexample added as it is found, and handed to `keep` whenever it changes. Returns what
 * cancels it: the search stops at its next poll and keeps what it had found.
 */
export function searchForExplorer(
  file: string,
  params: readonly string[],
  variant: string,
  run: Run,
  keep?: (run: Run) => void,
): () => void {
  const interrupt = new Int32Array(new SharedArrayBuffer(4));
  let cancelled = false;
  checkInWorkers(
    file,
    [variant],
    {
      params,
      search: { storage: 'auto', symmetry: true, interrupt },
      render: { colorLevel: 0, trace: 'changes', coverage: false, json: true, itf: false, mermaid: false, modelFile: file },
      onFinding: (violation) => {
        for (const x of fromReport({ variants: [{ name: variant, violations: [violation as unknown as JsonViolation] }] }, 'search')) {
          if (!run.counterexamples.some((y) => y.property === x.property)) run.counterexamples.push(x);
        }
        keep?.(run);
      },
    },
    1,
    (p) => {
      run.progress = p;
    },
  ).then(
    ([rendered]) => {
      const json = rendered.json as unknown as { name: string; incompleteReason: string | null; violations?: JsonViolation[] };
      run.counterexamples = fromReport({ variants: [json] }, 'search');
      const s = rendered.summary;
      const states = `${s.distinctStates.toLocaleString('en-US')} distinct states, depth ${s.depth}`;
      // Cancelled only if the cancel stopped it: one that came after the search had ended is too late.
      const stopped = cancelled && json.incompleteReason === 'interrupted';
      run.summary = stopped ? `cancelled after ${states}` : `${s.verdict}: ${states}`;
      run.status = stopped ? 'cancelled' : 'done';
      run.ended = new Date().toISOString();
      keep?.(run);
    },
    (e: unknown) => {
      run.status = 'failed';
      run.error = e instanceof Error ? e.message : String(e);
      run.ended = new Date().toISOString();
      keep?.(run);
    },
  );
  return () => {
    cancelled = true;
    Atomics.store(interrupt, 0, 1);
  };
}

/** Best effort: the platform's opener, detached; the URL is printed either way. */
function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // The URL is printed; the user can open it.
  }
}
