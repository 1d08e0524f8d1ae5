// Checks variants in parallel, one worker thread per variant at a time, at most `size` at once;
// each variant's search may be split further among `threadsPerSearch` threads (the variant's
// worker and helpers it starts). A split search finds what a one-thread search finds, so
// results do not depend on either number; they come back in the model's order whatever order
// the workers finish in.
import { availableParallelism, totalmem } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Progress } from '../engine/search/bfs.ts';
import type { RenderOptions, RenderedVariant } from './render.ts';
import type { WorkerInput, WorkerSearchOptions } from './variantWorker.ts';
import type { TypeDiagnostic } from './typeDiagnostic.ts';
import { cachedTypecheck, storeTypecheck, typecheckKey } from './typecheckCache.ts';
import type { CheckpointOptions } from '../engine/search/checkpoint.ts';

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
  | { kind: 'done'; rendered: RenderedVariant }
  | { kind: 'modelError'; text: string }
  | { kind: 'crash'; text: string };

const WORKER = new URL('../../bin/worker.js', import.meta.url);

/**
 * Each search thread's heap, when `threads` search at once: an equal share of most of the
 * memory (a worker's heap is capped lower than the main thread's by default, and a search keeps
 * its frontier in the heap).
 */
function heapShare(threads: number): number {
  return Math.floor(((totalmem() / 2 ** 20) * 0.7) / threads);
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
      const { checkpoint, ...rest } = options;
      const search = checkpoint ? { ...options.search, checkpoint: checkpoint(variants[index]) } : options.search;
      const input: WorkerInput = { file, variant: variants[index], ...rest, search, threads: threadsPerSearch, heapMb };
      const spareWorker = claimSpare(heapMb);
      const worker = spareWorker ?? new Worker(WORKER, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
      spareWorker?.postMessage(input);
      let settled = false;
      worker.on('message', (m: WorkerMessage) => {
        if (m.kind === 'progress') onProgress?.(m.progress);
        else if (m.kind === 'done') {
          settled = true;
          results[index] = m.rendered;
          resolve();
        } else {
          settled = true;
          reject(m.kind === 'modelError' ? new WorkerModelError(m.text) : new Error(`in the worker for ${variants[index]}: ${m.text}`));
        }
        if (m.kind !== 'progress') void worker.terminate();
      });
      worker.on('error', (e) => {
        if (settled) return;
        settled = true;
        const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
        reject(oom ? new WorkerOutOfMemory(variants[index], heapMb) : e);
      });
      worker.on('exit', (code) => {
        if (!settled) reject(new Error(`the worker for ${variants[index]} exited with code ${code}`));
      });
    });
  const lane = async (): Promise<void> => {
    while (next < variants.length) await runOne(next++);
  };
  await Promise.all(Array.from({ length: size }, lane));
  return results;
}

/** Type-checks the model in a worker thread, beside the searches. */
/**
 * The model's type errors: the answer kept from an earlier check of the very same inputs
 * (typecheckCache.ts), else the compiler's, in a worker thread beside the search, kept for next
 * time if the inputs did not change while it ran.
 */
export function typecheckModelFiles(file: string): Promise<TypeDiagnostic[]> {
  const key = typecheckKey(file);
  const kept = cachedTypecheck(key);
  if (kept !== undefined) return Promise.resolve(kept);
  return typecheckInWorker(file).errors.then((errors) => {
    if (typecheckKey(file) === key) storeTypecheck(key, errors);
    return errors;
  });
}

export function typecheckInWorker(file: string): { readonly errors: Promise<TypeDiagnostic[]> } {
  const worker = new Worker(WORKER, { workerData: { task: 'typecheck', file } });
  const errors = new Promise<TypeDiagnostic[]>((resolve, reject) => {
    worker.on('message', (m: { kind: 'done'; errors: TypeDiagnostic[] } | { kind: 'crash'; text: string }) => {
      if (m.kind === 'done') resolve(m.errors);
      else reject(new Error(`in the type-checking worker: ${m.text}`));
      void worker.terminate();
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the type-checking worker exited with code ${code} before it answered`)));
  });
  return { errors };
}
