// A worker thread that expands its share of one variant's search for the coordinator in the
// variant's own worker (variantWorker.ts), which started it. It loads the model file itself:
// a model's functions cannot be sent between threads. Under --watch it is kept (`keep`): after
// a search closes it, the next message is the next search's job, served with the engine, the
// loader and the model's packages still loaded.
import { parentPort, workerData } from 'node:worker_threads';
import { expanderServer } from '../engine/search/parallel/port.ts';
import type { ExpanderOptions } from '../engine/search/parallel/expander.ts';
import { loadModel } from './loadModel.ts';

/** One search to serve: what variantWorker.ts sends as workerData, then (kept) as a message. */
export interface ExpanderJob {
  readonly file: string;
  readonly params: readonly string[];
  readonly run?: number;
  readonly variant: string;
  readonly search: ExpanderOptions;
  /** The search's number in the variant's thread, which this thread's readiness names (portLink). */
  readonly job: number;
  readonly keep?: boolean;
}

const port = parentPort!;
// Every message, in order (a job, its orders up to close, the next job...), whatever this
// thread is doing when it comes: loading a model, or waiting.
const inbox: unknown[] = [];
let waiting: ((m: unknown) => void) | undefined;
port.on('message', (m) => {
  if (waiting === undefined) inbox.push(m);
  else {
    const w = waiting;
    waiting = undefined;
    w(m);
  }
});
const next = (): Promise<unknown> => (inbox.length > 0 ? Promise.resolve(inbox.shift()) : new Promise((resolve) => (waiting = resolve)));

let job = workerData as ExpanderJob;
for (;;) {
  let serve: (message: unknown) => boolean;
  try {
    const model = await loadModel(job.file, job.params, job.run);
    serve = expanderServer(model.variants.find((v) => v.name === job.variant)!, job.search, port, job.job);
  } catch (e) {
    // Before readiness: the link fails its search with this (portLink); the thread ends.
    port.postMessage({ crash: e instanceof Error ? e.message : String(e) });
    break;
  }
  while (!serve(await next()));
  if (job.keep !== true) break;
  job = (await next()) as ExpanderJob;
}
port.close();
