// A worker thread that checks one variant and sends back its rendered result. bin/worker.js
// starts it with the tsx loader registered, as bin/modelcheck.js does for the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { Chalk } from 'chalk';
import type { Worker } from 'node:worker_threads';
import type { ExpanderJob } from './expanderWorker.ts';
import { startExpanderWorker } from './workerPool.ts';
import type { SearchOptions } from '../engine/search/bfs.ts';
import { checkVariantParallel, splitRefusal } from '../engine/search/parallel/parallelSearch.ts';
import { portLink } from '../engine/search/parallel/port.ts';
import { simulateVariant, type SimulationDraw } from '../engine/search/simulate.ts';
import { ModelError } from '../engine/errors.ts';
import { formatError } from '../report/errorText.ts';
import { loadModel } from './loadModel.ts';
import { renderVariant, type RenderOptions } from './render.ts';
import { violationToJson } from '../report/json.ts';

/** The search options that cross into a worker: plain data, and the shared interrupt flag. */
export type WorkerSearchOptions = Omit<SearchOptions, 'modelName' | 'onProgress' | 'onFinding'>;

export interface WorkerInput {
  readonly file: string;
  /** The model's parameters (--param name=value), which every thread sets when it loads the model. */
  readonly params: readonly string[];
  readonly variant: string;
  readonly search: WorkerSearchOptions;
  /** Draw random runs instead of searching every state; `avoid`: actions no run takes, where the variant has them (a swarm shard's). */
  readonly simulate?: SimulationDraw;
  readonly render: RenderOptions;
  /** Threads for this variant's search, this one included, and the heap of each other one. */
  readonly threads: number;
  readonly heapMb: number;
  /** --watch: the run this is (the model is imported again for each, loadModel.ts). */
  readonly run?: number;
  /** --watch: after this variant, wait for the next input instead of ending (workerPool.ts, KeptWorkers). */
  readonly keep?: boolean;
  /** Send each counterexample as soon as it is found (the explorer lists them while the search goes on). */
  readonly findings?: boolean;
}

const port = parentPort!;
/** Helpers kept between this thread's searches (--watch), each waiting for its next job. */
const idleHelpers: Helper[] = [];
/** This thread's searches' helper jobs so far (each job's number, portLink). */
let jobs = 0;

const nextInput = () => new Promise<WorkerInput>((resolve) => port.once('message', resolve));
// A spare worker (workerPool.ts, startSpareWorker) was started before its variant was known, to
// load these modules beside the main thread's loading; its input is the first message. A kept
// worker (--watch) takes its next variant as a message too, with what it loaded still loaded.
let input: WorkerInput = (workerData as { task?: string } | undefined)?.task === 'spare' ? await nextInput() : (workerData as WorkerInput);
for (;;) {
  await checkOne(input);
  if (input.keep !== true) break;
  input = await nextInput();
}

async function checkOne(input: WorkerInput): Promise<void> {
  const helpers: Helper[] = [];
  let searched = false;
  try {
    const model = await loadModel(input.file, input.params, input.run);
    const variant = model.variants.find((v) => v.name === input.variant)!;
    const result = input.simulate
      ? simulateVariant(variant, {
          ...input.simulate,
          avoid: input.simulate.avoid?.filter((name) => variant.actions.some((a) => a.name === name)),
          ...input.search,
          modelName: model.name,
        })
      : await checkVariantParallel(
          variant,
          {
            ...input.search,
            modelName: model.name,
            onProgress: (p) => port.postMessage({ kind: 'progress', progress: p }),
            ...(input.findings ? { onFinding: (x) => port.postMessage({ kind: 'finding', violation: violationToJson(x) }) } : {}),
          },
          input.threads > 1 && splitRefusal(variant, input.search) === undefined ? startHelpers(input, input.threads - 1, helpers) : [],
          { offered: input.threads },
        );
    searched = true;
    port.postMessage({ kind: 'done', rendered: renderVariant(result, input.render, variant) });
  } catch (e) {
    if (e instanceof ModelError) {
      port.postMessage({ kind: 'modelError', text: formatError(e, input.file, new Chalk({ level: input.render.colorLevel })) });
    } else {
      port.postMessage({ kind: 'crash', text: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
  } finally {
    // A search that ended as it should has closed every helper, each with no report owed: kept
    // (--watch), they wait for the next search. After a failure one may still owe a report.
    for (const h of helpers) {
      h.end();
      if (searched && input.keep === true && h.closed) idleHelpers.push(h);
      else void h.worker.terminate();
    }
  }
}

/** A helper thread (expanderWorker.ts) in one search: its worker, and the end of its part in the search. */
interface Helper {
  readonly worker: Worker;
  readonly heapMb: number;
  /** Whether the search has sent it close. */
  closed: boolean;
  /** Stops this search's listening to it. */
  end(): void;
}

/**
 * Worker threads that each expand a share of this variant's search (expanderWorker.ts), added to
 * `helpers`: idle ones kept from an earlier search if their heap is this one's, else new ones.
 */
function startHelpers(input: WorkerInput, n: number, helpers: Helper[]) {
  const kept = idleHelpers.splice(0).filter((h) => {
    if (h.heapMb === input.heapMb) return true;
    void h.worker.terminate();
    return false;
  });
  return Array.from({ length: n }, () => {
    const job: ExpanderJob = {
      file: input.file,
      params: input.params,
      run: input.run,
      variant: input.variant,
      search: input.search,
      job: ++jobs,
      keep: input.keep,
    };
    const reused = kept.pop()?.worker;
    const worker = reused ?? startExpanderWorker({ task: 'expander', ...job }, input.heapMb);
    reused?.postMessage(job);
    const link = portLink(worker, job.job);
    const send = link.send;
    const onError = (e: Error) => {
      const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      link.failed(new Error(oom ? `a search thread ran out of memory (its heap: ${input.heapMb} MiB)` : e.message));
    };
    const onExit = (code: number) => {
      if (!helper.closed) link.failed(new Error(`a search thread exited with code ${code}`));
    };
    const helper: Helper = {
      worker,
      heapMb: input.heapMb,
      closed: false,
      end() {
        link.release();
        worker.off('error', onError).off('exit', onExit);
      },
    };
    link.send = (order) => {
      if (order.kind === 'close') helper.closed = true;
      send(order);
    };
    worker.on('error', onError).on('exit', onExit);
    helpers.push(helper);
    return link;
  });
}
