// Checks variants in parallel, one worker thread per variant at a time, at most `size` at once;
// each variant's search may be split further among `threadsPerSearch` threads (the variant's
// worker and helpers it starts). A split search finds what a one-thread search finds, so
// results do not depend on either number; they come back in the model's order whatever order
// the workers finish in.
import { availableParallelism } from 'node:os';
import { memoryAvailable } from '../engine/search/storage.ts';
import { Worker } from 'node:worker_threads';
import type { Progress } from '../engine/search/bfs.ts';
import type { RenderOptions, RenderedVariant } from './render.ts';
import type { WorkerInput, WorkerSearchOptions } from './variantWorker.ts';
import type { TypeDiagnostic } from './typeDiagnostic.ts';
import { cachedTypecheck, storeTypecheck, typecheckKey } from './typecheckCache.ts';
import type { CheckpointOptions } from '../engine/search/checkpoint.ts';
import type { Json } from '../report/stateJson.ts';

/**
 * How a run's threads are shared, from `--workers` (default: the cores): variants side by side
 * first, then each search split among the threads left over (one variant and two threads: one
 * search on two threads). A simulation runs on one thread a variant. (earlyWorker.ts guesses the
 * same count from the raw arguments, to start the first thread before the CLI has loaded.)
 */
export function threadPlan(
  workersOption: number | undefined,
  variants: number,
  simulate = false,
): { readonly workers: number; readonly threadsPerSearch: number } {
  const threads = Math.max(1, workersOption ?? availableParallelism());
  const workers = Math.max(1, Math.min(threads, variants));
  return { workers, threadsPerSearch: simulate ? 1 : Math.max(1, Math.floor(threads / workers)) };
}

/** A ModelError raised in a worker, already formatted there. */
export class WorkerModelError extends Error {
  constructor(readonly text: string) {
    super(text);
  }
}

/** A worker ran out of heap before its search could stop cleanly: nothing to report. */
export class WorkerOutOfMemory extends Error {
  constructor(
    readonly variant: string,
    readonly heapMiB: number,
  ) {
    super(`the search of variant ${variant} ran out of memory (its heap: ${heapMiB} MiB)`);
  }
}

type WorkerMessage =
  | { kind: 'progress'; progress: Progress }
  | { kind: 'finding'; violation: Json }
  | { kind: 'done'; rendered: RenderedVariant }
  | { kind: 'modelError'; text: string }
  | { kind: 'crash'; text: string };

const WORKER = new URL('../../bin/worker.js', import.meta.url);

/**
 * Each search thread's heap, when `threads` search at once: an equal share of most of the
 * memory this process may use, a pod's limit rather than its node's (a worker's heap is capped
 * lower than the main thread's by default, and a search keeps its frontier in the heap).
 */
function heapShare(threads: number): number {
  return Math.floor(((memoryAvailable() / 2 ** 20) * 0.7) / threads);
}

/**
 * A worker thread that expands a share of one variant's search (expanderWorker.ts), started by
 * that variant's worker (variantWorker.ts) with its own heap share. Every worker thread the CLI
 * starts is started in this module.
 */
export function startExpanderWorker(workerData: unknown, heapMb: number): Worker {
  return new Worker(WORKER, { workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
}

/** The first search's worker, started before its variant is known (startSpareWorker). */
let spare: { readonly worker: Worker; readonly heapMb: number; alive: boolean } | undefined;

/**
 * Starts the worker thread for the first variant's search now, before the main thread has
 * loaded the CLI and the model: a worker loads the engine and the tsx loader again (about a
 * third of a second), and on a second core it does so while the main thread does the same. It
 * waits for its input (variantWorker.ts), which checkInWorkers sends if its heap share is the
 * one `threads` threads give; else it is let go and a worker started as before. Unused, it
 * does not keep the process alive.
 */
export function startSpareWorker(threads: number): void {
  const heapMb = heapShare(threads);
  const worker = new Worker(WORKER, { workerData: { task: 'spare' }, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  const started = { worker, heapMb, alive: true };
  // (A spare that fails before it is used is replaced by a fresh worker, which reports the failure.)
  const dead = () => {
    started.alive = false;
  };
  worker.on('error', dead);
  worker.on('exit', dead);
  worker.unref();
  spare = started;
}

/** The spare worker, if it is alive and has `heapMb`; else undefined, and any spare is let go. */
function claimSpare(heapMb: number): Worker | undefined {
  const s = spare;
  spare = undefined;
  if (s === undefined) return undefined;
  if (s.alive && s.heapMb === heapMb) {
    s.worker.ref();
    return s.worker;
  }
  void s.worker.terminate();
  return undefined;
}

/**
 * Search threads kept from one run to the next (--watch): a worker that has reported its variant
 * waits for another (variantWorker.ts, `keep`), with the engine, the tsx loader and the model's
 * packages still loaded; the next run hands it a variant if its heap share is the one that run
 * gives (the number of variants may have changed with the edit), else lets it go.
 */
export class KeptWorkers {
  private idle: { readonly worker: Worker; readonly heapMb: number; readonly gone: () => void }[] = [];

  take(heapMb: number): Worker | undefined {
    const at = this.idle.findIndex((w) => w.heapMb === heapMb);
    if (at === -1) return undefined;
    const [kept] = this.idle.splice(at, 1);
    kept.worker.off('exit', kept.gone).off('error', kept.gone);
    kept.worker.ref();
    return kept.worker;
  }

  /** Keeps `worker`, whose run's own listeners the caller has removed (not all: Worker has its own). */
  give(worker: Worker, heapMb: number): void {
    // An idle worker that dies is forgotten; it does not keep the process alive.
    const gone = () => {
      this.idle = this.idle.filter((w) => w.worker !== worker);
    };
    worker.on('exit', gone).on('error', gone);
    worker.unref();
    this.idle.push({ worker, heapMb, gone });
  }

  /** Lets every idle worker go. */
  close(): void {
    for (const w of this.idle) void w.worker.terminate();
    this.idle = [];
  }
}

export async function checkInWorkers(
  file: string,
  variants: readonly string[],
  options: {
    params: readonly string[];
    search: WorkerSearchOptions;
    simulate?: WorkerInput['simulate'];
    render: RenderOptions;
    /** Each variant's checkpoint options (--checkpoint, --resume). */
    checkpoint?: (variant: string) => CheckpointOptions;
    /** --watch: the run's number, and the workers kept from earlier runs (which this run's workers join). */
    watch?: { readonly run: number; readonly kept: KeptWorkers };
    /** Told of each counterexample as the search finds it (its --json form), before the search ends. */
    onFinding?: (violation: Json) => void;
  },
  size: number,
  onProgress?: (p: Progress) => void,
  threadsPerSearch = 1,
): Promise<RenderedVariant[]> {
  const results: RenderedVariant[] = new Array(variants.length);
  let next = 0;
  const runOne = (index: number): Promise<void> =>
    new Promise((resolve, reject) => {
      // (search.interrupt is a SharedArrayBuffer view: every worker sees the same flag.)
      const heapMb = heapShare(size * threadsPerSearch);
      const { checkpoint, watch, onFinding, ...rest } = options;
      const search = checkpoint ? { ...options.search, checkpoint: checkpoint(variants[index]) } : options.search;
      const input: WorkerInput = {
        file,
        variant: variants[index],
        ...rest,
        search,
        threads: threadsPerSearch,
        heapMb,
        ...(watch !== undefined ? { run: watch.run, keep: true } : {}),
        ...(onFinding !== undefined ? { findings: true } : {}),
      };
      const waiting = watch?.kept.take(heapMb) ?? claimSpare(heapMb);
      const worker = waiting ?? new Worker(WORKER, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
      waiting?.postMessage(input);
      let settled = false;
      const onMessage = (m: WorkerMessage) => {
        if (m.kind === 'progress') onProgress?.(m.progress);
        else if (m.kind === 'finding') onFinding?.(m.violation);
        else if (m.kind === 'done') {
          settled = true;
          results[index] = m.rendered;
          resolve();
        } else {
          settled = true;
          reject(m.kind === 'modelError' ? new WorkerModelError(m.text) : new Error(`in the worker for ${variants[index]}: ${m.text}`));
        }
        // A worker kept for the next run (--watch) waits for it; any other, or one whose model failed, ends.
        if (m.kind === 'done' && watch !== undefined) {
          worker.off('message', onMessage).off('error', onError).off('exit', onExit);
          watch.kept.give(worker, heapMb);
        } else if (m.kind !== 'progress' && m.kind !== 'finding') void worker.terminate();
      };
      const onError = (e: Error) => {
        if (settled) return;
        settled = true;
        const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        reject(oom ? new WorkerOutOfMemory(variants[index], heapMb) : e);
      };
      const onExit = (code: number) => {
        if (!settled) reject(new Error(`the worker for ${variants[index]} exited with code ${code}`));
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    });
  // A variant that fails (a model error, a crash) is the run's answer: the other searches are
  // stopped, and no lane takes another variant.
  let failed = false;
  const lane = async (): Promise<void> => {
    while (next < variants.length && !failed) {
      try {
        await runOne(next++);
      } catch (e) {
        failed = true;
        if (options.search.interrupt !== undefined) Atomics.store(options.search.interrupt, 0, 1);
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: size }, lane));
  return results;
}

/**
 * The model's type errors: the answer kept from an earlier check of the very same inputs
 * (typecheckCache.ts), else the compiler's, in a worker thread beside the search (`kept`'s, under
 * --watch), kept for next time if the inputs did not change while it ran.
 */
export function typecheckModelFiles(file: string, kept?: KeptTypechecker): Promise<TypeDiagnostic[]> {
  const key = typecheckKey(file);
  const cached = cachedTypecheck(key);
  if (cached !== undefined) return Promise.resolve(cached);
  // Without --watch, a type-checking thread of its own, let go after its one answer.
  const checker = kept ?? new KeptTypechecker();
  const errors = checker.check(file).then((errors) => {
    if (typecheckKey(file) === key) storeTypecheck(key, errors);
    return errors;
  });
  return kept !== undefined ? errors : errors.finally(() => checker.close());
}

type TypecheckMessage = { kind: 'done'; errors: TypeDiagnostic[] } | { kind: 'crash'; text: string };

/**
 * A type-checking worker thread (typecheckWorker.ts), kept from one run to the next under --watch
 * (closed after its one check otherwise): the compiler stays loaded,
 * and each check is built on the last one's program, so that a re-check after an edit parses
 * only the edited files (about 0.1 s for a 300-line Kubernetes model, against 0.8 s afresh).
 * Checks are asked one at a time; a worker that fails is replaced at the next check.
 */
export class KeptTypechecker {
  private worker: Worker | undefined;
  private pending: { resolve: (e: TypeDiagnostic[]) => void; reject: (e: Error) => void } | undefined;

  check(file: string): Promise<TypeDiagnostic[]> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      if (this.worker !== undefined) {
        this.worker.ref();
        this.worker.postMessage({ file });
        return;
      }
      const worker = new Worker(WORKER, { workerData: { task: 'typecheck', file } });
      this.worker = worker;
      const fail = (e: Error) => {
        if (this.worker === worker) this.worker = undefined;
        void worker.terminate();
        this.settle((p) => p.reject(e));
      };
      worker.on('message', (m: TypecheckMessage) => {
        if (m.kind === 'done') this.settle((p) => p.resolve(m.errors));
        else fail(new Error(`in the type-checking worker: ${m.text}`));
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the type-checking worker exited with code ${code} before it answered`)));
    });
  }

  private settle(how: (p: { resolve: (e: TypeDiagnostic[]) => void; reject: (e: Error) => void }) => void): void {
    const p = this.pending;
    this.pending = undefined;
    // Idle between checks, it does not keep the process alive.
    this.worker?.unref();
    if (p !== undefined) how(p);
  }

  close(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }
}
