// `modelcheck <model> [options]`: options in, a report out. It loads the model, plans the
// threads, runs the variants' searches in worker threads, prints text or JSON, writes the export
// files, and maps the results to an exit status.
import type { StorageMode } from '../../engine/search/storage.ts';
import { Command, InvalidArgumentError } from 'commander';
import type { CliIo } from '../io.ts';
import { nonNegativeInt, nonNegativeNumber, positiveInt, positiveNumber, storageMode } from '../options.ts';
import { Chalk, type ChalkInstance } from 'chalk';
import { randomInt } from 'node:crypto';
import { selectMatrices, selectVariants, type ResolvedMatrix } from '../../engine/check.ts';
import { ModelError } from '../../engine/errors.ts';
import { stoppedEarly } from '../../engine/result.ts';
import { formatMatrix, formatModelHeader, formatSummary } from '../../report/text.ts';
import { matrixJson } from '../../report/matrixJson.ts';
import { modelJson } from '../../report/json.ts';
import type { OutputFile, RenderedVariant, RenderOptions } from '../render.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkInWorkers, KeptTypechecker, KeptWorkers, threadPlan, typecheckModelFiles } from '../workerPool.ts';
import { watchModel, type WatchedRun } from '../watch.ts';
import { formatTypeDiagnostic, type TypeDiagnostic } from '../typeDiagnostic.ts';
import { exitForFailure } from '../failure.ts';
import { exitCodeOf, type ExitCode } from '../exitCodes.ts';
import { loadModel } from '../loadModel.ts';
import { parseCommand } from '../parseCommand.ts';
import { progressPrinter } from '../progress.ts';
import { planCheckpoints } from '../checkpointDir.ts';

interface Options {
  variant?: string;
  param: string[];
  matrix?: boolean | string;
  json?: boolean;
  maxStates?: number;
  maxDepth?: number;
  timeout?: number;
  maxMemory?: number;
  storage: StorageMode;
  workDir?: string;
  exact?: boolean;
  typecheck: boolean;
  symmetry: boolean;
  simulate?: boolean;
  depth?: number;
  runs?: number;
  seed?: number;
  color: boolean;
  trace: 'changes' | 'full';
  coverage?: boolean;
  progress: boolean;
  workers?: number;
  outItf?: string;
  outMermaid?: string;
  outDot?: string;
  dotMaxStates: number;
  checkpoint?: string;
  checkpointEvery: number;
  resume?: string;
  watch?: boolean;
}

function program(): Command {
  return new Command()
    .name('modelcheck')
    .description(
      'Explicit-state model checking of TypeScript models: every reachable state, breadth first.\n' +
        "Also: 'modelcheck docs <model>' writes a model's documentation pages (see 'modelcheck docs --help');\n" +
        "'modelcheck resume <dir> [options]' goes on with the searches checkpointed in DIR (--checkpoint);\n" +
        "'modelcheck explore <model>' walks a model and its counterexamples in the browser (see 'modelcheck explore --help').",
    )
    .argument(
      '<model>',
      'the model file (a .ts module whose default export is defineModel(...)); `modelcheck docs <model>` writes its documentation',
    )
    .option('--variant <name>', 'check only this variant (default: all but the matrix-only ones)')
    .option(
      '--param <name=value>',
      "set one of the model's parameters (repeat for several); the others keep their defaults",
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option(
      '--matrix [name]',
      "check every row of the model's variant matrices (or of the one named) and print the verdict of every property per row",
    )
    .option('--json', 'print one JSON document on stdout instead of the text report')
    .option('--max-states <n>', 'stop, incomplete, rather than store more distinct states', positiveInt)
    .option('--max-depth <n>', 'stop, incomplete, rather than go deeper (initial states: depth 1)', positiveInt)
    .option(
      '--timeout <seconds>',
      "stop each variant's search, incomplete, after this many seconds (its liveness phase included)",
      positiveNumber,
    )
    .option(
      '--max-memory <MiB>',
      "stop, incomplete, when the process's resident memory passes this many MiB; before that, past half of it the frontier is kept as bytes, past 70% in files (--work-dir)",
      positiveInt,
    )
    .option(
      '--storage <where>',
      'where the breadth-first frontier is kept: auto (objects, then bytes, then files, as memory fills), objects, bytes or disk',
      storageMode,
      'auto',
    )
    .option(
      '--work-dir <dir>',
      "where the frontier's spill files go (default: the system's temporary directory); removed when the search ends",
    )
    .option(
      '--exact',
      'compare states by their full canonical encodings instead of 64-bit fingerprints: a proof with no collision caveat, for more memory',
    )
    .option(
      '--no-symmetry',
      'search every state even where the model declares interchangeable identities (symmetry reduction is on by default)',
    )
    .option(
      '--simulate',
      'draw random runs instead of searching every state: finds violations in models too large to exhaust, proves nothing',
    )
    .option('--depth <n>', 'with --simulate: the most states in one run (default: 100)', positiveInt)
    .option('--runs <n>', 'with --simulate: how many runs (default: 1000)', positiveInt)
    .option('--seed <n>', 'with --simulate: the seed that makes the runs reproducible (default: a random one, printed)', nonNegativeInt)
    .option('--trace <style>', 'counterexample steps: changes (what changed) or full (whole states)', 'changes')
    .option('--coverage', 'print how often each action was enabled and how many new states it produced')
    .option('--out-itf <dir>', 'write each counterexample to DIR as an Informal Trace Format file (<variant>-<property>.itf.json)')
    .option('--out-mermaid <dir>', 'write each counterexample to DIR as a Mermaid sequence diagram in Markdown (<variant>-<property>.md)')
    .option(
      '--out-dot <file>',
      'write the reachable state graph of a small model to FILE in Graphviz DOT, the first counterexample in red (FILE-<variant>.dot for several variants)',
    )
    .option('--dot-max-states <n>', 'the largest graph --out-dot draws', positiveInt, 500)
    .option(
      '--checkpoint <dir>',
      "write checkpoints of each variant's search to DIR (at level boundaries, every --checkpoint-every minutes, and when Ctrl-C, --timeout or --max-memory stops it); continue with: modelcheck resume DIR",
    )
    .option(
      '--checkpoint-every <minutes>',
      'with --checkpoint: the least time between two checkpoints of a search (0: at every level)',
      nonNegativeNumber,
      10,
    )
    .option(
      '--resume <dir>',
      'continue the searches checkpointed in DIR (refused unless the model files and the arguments that decide results are the same); what modelcheck resume DIR runs',
    )
    .option(
      '--workers <n>',
      'threads (default: the number of cores): variants are checked side by side, and each search is split among the threads left over; the results do not depend on it',
      positiveInt,
    )
    .option(
      '--watch',
      'check again each time the model or a local module it imports is saved, printing what changed (r: full report, Enter: run again, q or Ctrl-C: quit)',
    )
    .option('--no-typecheck', "do not type-check the model's files with the TypeScript compiler (done beside the search by default)")
    .option('--no-progress', 'no progress lines on stderr')
    .option('--no-color', 'no colours (also off when stdout is not a terminal or NO_COLOR is set)')
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
}

/** The combinations of options that make no sense, refused before anything runs. */
function validateOptions(opts: Options): void {
  if (opts.matrix && opts.variant !== undefined) {
    throw new InvalidArgumentError('--matrix checks every row of the matrix; it does not take --variant');
  }
  if (opts.simulate) {
    const clash = (['maxStates', 'maxDepth', 'exact', 'outDot'] as const).find((k) => opts[k] !== undefined);
    if (clash !== undefined) {
      const flag = {
        maxStates: '--max-states',
        maxDepth: '--max-depth (a run is bounded by --depth)',
        exact: '--exact',
        outDot: '--out-dot',
      }[clash];
      throw new InvalidArgumentError(`--simulate draws random runs; it does not take ${flag}`);
    }
  } else if (opts.runs !== undefined || opts.depth !== undefined || opts.seed !== undefined) {
    throw new InvalidArgumentError('--runs, --depth and --seed go with --simulate');
  }
  if (opts.checkpoint !== undefined || opts.resume !== undefined) {
    if (opts.simulate) throw new InvalidArgumentError('--simulate draws random runs; it takes no --checkpoint or --resume');
    if (opts.exact)
      throw new InvalidArgumentError('--exact keeps whole states, which a checkpoint does not save; it takes no --checkpoint or --resume');
    if (opts.checkpoint !== undefined && opts.resume !== undefined && resolve(opts.checkpoint) !== resolve(opts.resume)) {
      throw new InvalidArgumentError('--resume DIR goes on writing checkpoints in DIR; it takes no --checkpoint elsewhere');
    }
  }
  if (opts.watch) {
    const clash = (['json', 'checkpoint', 'resume'] as const).find((k) => opts[k] !== undefined);
    if (clash !== undefined) {
      const why = { json: 'its short summaries are text', checkpoint: 'each run starts afresh', resume: 'each run starts afresh' }[clash];
      throw new InvalidArgumentError(`--watch runs the model at each save (${why}); it does not take --${clash}`);
    }
  }
  if (opts.trace !== 'changes' && opts.trace !== 'full') {
    throw new InvalidArgumentError(`--trace takes changes or full, not ${opts.trace}`);
  }
}

/** `modelcheck <model> [options]`: checks the model's variants, returning the exit status. */
export async function runCheck(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const parsed = parseCommand<Options>(program(), argv, io, 'modelcheck', validateOptions);
  if ('exit' in parsed) return parsed.exit;
  const { file, opts } = parsed;
  const chalk = new Chalk({ level: opts.color && io.colorOut ? 1 : 0 });
  if (opts.watch) {
    const kept = new KeptWorkers();
    const typechecker = new KeptTypechecker();
    try {
      return await watchModel(file, io, chalk, (run, interrupt) =>
        checkOnce(file, opts, io, chalk, { interrupt, watch: { run, kept, typechecker } }),
      );
    } finally {
      kept.close();
      typechecker.close();
    }
  }
  // Searches always run in worker threads, even one: a search never yields, and this thread
  // must stay free to hear Ctrl-C and pass it on through shared memory.
  const interrupt = new Int32Array(new SharedArrayBuffer(4));
  const outcome = await checkOnce(file, opts, io, chalk, {
    interrupt,
    listen: (progress) =>
      io.onInterrupt?.(() => {
        Atomics.store(interrupt, 0, 1);
        progress?.clear();
        io.stderr('modelcheck: interrupted: stopping the search to report what it explored (Ctrl-C again quits at once)\n');
      }),
  });
  if (outcome.report !== undefined) io.stdout(outcome.report);
  return outcome.code;
}

interface RunContext {
  /** The flag that stops the searches (shared with every search thread). */
  readonly interrupt: Int32Array;
  /** Listens for Ctrl-C while the searches run; returns what stops listening. */
  readonly listen?: (progress: ReturnType<typeof progressPrinter> | undefined) => (() => void) | undefined;
  /** --watch: the run's number, and the threads kept between runs. */
  readonly watch?: { readonly run: number; readonly kept: KeptWorkers; readonly typechecker: KeptTypechecker };
}

/** One check of the model: its report (printed by the caller), or the error it printed. */
async function checkOnce(file: string, opts: Options, io: CliIo, chalk: ChalkInstance, ctx: RunContext): Promise<WatchedRun> {
  const render: RenderOptions = {
    colorLevel: opts.color && io.colorOut ? 1 : 0,
    trace: opts.trace,
    coverage: Boolean(opts.coverage),
    json: Boolean(opts.json),
    itf: opts.outItf !== undefined,
    mermaid: opts.outMermaid !== undefined,
    modelFile: file,
    dotMaxStates: opts.outDot !== undefined ? opts.dotMaxStates : undefined,
  };
  try {
    const model = await loadModel(file, opts.param, ctx.watch?.run);
    const names = selectVariants(model, opts.variant, opts.matrix).map((v) => v.name);
    const checkpointDir = opts.resume ?? opts.checkpoint;
    const checkpoints =
      checkpointDir !== undefined
        ? planCheckpoints(checkpointDir, file, resultArgs(opts), opts.resume !== undefined, opts.checkpointEvery * 60)
        : undefined;
    const matrices = opts.matrix !== undefined && opts.matrix !== false ? selectMatrices(model, opts.matrix) : [];
    const progress = opts.progress ? progressPrinter(io.stderr, io.stderrIsTty) : undefined;
    const onProgress = progress?.onProgress;
    const { workers, threadsPerSearch } = threadPlan(opts.workers, names.length, opts.simulate);
    const interrupt = ctx.interrupt;
    const search = {
      maxStates: opts.maxStates,
      maxDepth: opts.maxDepth,
      timeoutSeconds: opts.timeout,
      maxMemoryMiB: opts.maxMemory,
      storage: opts.storage,
      ...(opts.workDir !== undefined ? { workDir: opts.workDir } : {}),
      exact: opts.exact,
      symmetry: opts.symmetry,
      interrupt,
    };
    const stopListening = ctx.listen?.(progress);
    // The model is type-checked beside the searches; type errors, when there are any, stop
    // them and are what the run reports, since a model the compiler rejects explains the rest.
    const typeErrors = (opts.typecheck ? typecheckModelFiles(file, ctx.watch?.typechecker) : Promise.resolve([])).then((errors) => {
      if (errors.length > 0) Atomics.store(interrupt, 0, 1);
      return errors;
    });
    // Handled now, not only once the searches end: a type-checking worker that fails early
    // must not become an unhandled rejection (failIfTypeErrors still reports it).
    typeErrors.catch(() => undefined);
    const failIfTypeErrors = async (): Promise<void> => {
      const errors = await typeErrors;
      if (errors.length > 0) throw typeError(file, model.name, errors);
    };
    let rendered: RenderedVariant[];
    try {
      const simulate = opts.simulate ? { runs: opts.runs ?? 1000, depth: opts.depth ?? 100, seed: opts.seed ?? randomSeed() } : undefined;
      rendered = await checkInWorkers(
        file,
        names,
        {
          params: opts.param,
          search,
          simulate,
          render,
          checkpoint: checkpoints?.forVariant,
          ...(ctx.watch !== undefined ? { watch: { run: ctx.watch.run, kept: ctx.watch.kept } } : {}),
        },
        workers,
        onProgress,
        threadsPerSearch,
      );
    } catch (e) {
      await failIfTypeErrors();
      throw e;
    } finally {
      stopListening?.();
    }
    progress?.clear();
    await failIfTypeErrors();
    // Each matrix row reads its verdicts from its variant's result (a variant in two matrices is checked once).
    const matrixLines = (m: ResolvedMatrix) =>
      m.rows.map((row) => ({ values: row.values, summary: rendered[names.indexOf(row.variant.name)].summary }));
    const written = writeFiles(
      rendered.flatMap((r) => r.files),
      {
        itf: opts.outItf,
        mermaid: opts.outMermaid,
        dot: opts.outDot,
        severalVariants: names.length > 1,
      },
    );
    for (const r of rendered) for (const d of r.declined) io.stderr(`modelcheck: ${d}\n`);
    const stopped = rendered.filter((r) => stoppedEarly(r.summary.incompleteReason));
    if (checkpoints !== undefined && stopped.length > 0) {
      io.stderr(
        `modelcheck: checkpoints of ${stopped.map((r) => r.summary.variant).join(', ')} are in ${checkpoints.dir}; go on with: modelcheck resume ${checkpoints.dir}\n`,
      );
    }
    let report: string;
    if (opts.json) {
      const doc = modelJson(
        model,
        rendered.map((r) => r.json),
        matrices.map((m) => matrixJson(m.matrix, matrixLines(m))),
      );
      report = `${JSON.stringify(doc, null, 2)}\n`;
    } else {
      const parts = [
        formatModelHeader(model.name, model.description, { chalk }, opts.param.length > 0 ? model.parameterValues : undefined),
      ];
      for (const r of rendered) parts.push('', r.text);
      parts.push(
        '',
        formatSummary(
          rendered.map((r) => r.summary),
          { chalk },
        ),
      );
      for (const m of matrices) parts.push('', formatMatrix(m.matrix, matrixLines(m), { chalk }));
      if (written.length > 0)
        parts.push('', `wrote ${written.length} file${written.length === 1 ? '' : 's'}:`, ...written.map((f) => `  ${f}`));
      report = `${parts.join('\n')}\n`;
    }
    const summaries = rendered.map((r) => r.summary);
    return { code: exitCodeOf(summaries), summaries, report };
  } catch (e) {
    return { code: exitForFailure(e, io, file, chalk) };
  }
}

/** The arguments that decide a run's results, as a checkpoint's manifest records them. */
function resultArgs(opts: Options): string[] {
  const out: string[] = [];
  if (opts.variant !== undefined) out.push('--variant', opts.variant);
  for (const p of opts.param) out.push('--param', p);
  if (opts.matrix === true) out.push('--matrix');
  else if (typeof opts.matrix === 'string') out.push('--matrix', opts.matrix);
  if (opts.maxStates !== undefined) out.push('--max-states', String(opts.maxStates));
  if (opts.maxDepth !== undefined) out.push('--max-depth', String(opts.maxDepth));
  if (!opts.symmetry) out.push('--no-symmetry');
  return out;
}

/** A seed for a simulation the user did not seed: printed with the result, so it can be repeated. */
export function randomSeed(): number {
  return randomInt(0, 2 ** 32 - 1);
}

/** The error of a model that does not type-check (MC005), for every command that checks it. */
export function typeError(file: string, model: string, errors: readonly TypeDiagnostic[]): ModelError {
  const n = errors.length;
  return new ModelError(
    'MC005_TYPE_ERROR',
    `the model does not type-check: ${n} error${n === 1 ? '' : 's'}; nothing is reported until it does`,
    {
      model,
      lines: errors.map(formatTypeDiagnostic),
      hint: `the compiler's own view: npx tsc --noEmit; to check ${file} anyway: --no-typecheck`,
    },
  );
}

/** Writes the export files into their directories (made if missing); returns their paths. */
function writeFiles(
  files: readonly OutputFile[],
  dirs: { itf?: string; mermaid?: string; dot?: string; severalVariants: boolean },
): string[] {
  const paths: string[] = [];
  if (dirs.dot !== undefined) {
    for (const f of files) {
      if (f.kind !== 'dot') continue;
      // One file per variant: FILE itself for one variant, FILE-<variant>.dot for several.
      const path = dirs.severalVariants ? `${dirs.dot.replace(/\.dot$/, '')}-${f.name.replace(/[^A-Za-z0-9._-]+/g, '_')}.dot` : dirs.dot;
      const dir = dirname(path);
      if (dir !== '') mkdirSync(dir, { recursive: true });
      writeFileSync(path, f.content);
      paths.push(path);
    }
  }
  for (const kind of ['itf', 'mermaid'] as const) {
    const dir = dirs[kind];
    if (dir === undefined) continue;
    mkdirSync(dir, { recursive: true });
    for (const f of files) {
      if (f.kind !== kind) continue;
      const path = join(dir, f.name);
      writeFileSync(path, f.content);
      paths.push(path);
    }
  }
  return paths;
}
