// A worker thread that expands its share of one variant's search for the coordinator in the
// variant's own worker (variantWorker.ts), which started it. It loads the model file itself:
// a model's functions cannot be sent between threads.
import { parentPort, workerData } from 'node:worker_threads';
import { serveExpander } from '../engine/search/parallel/port.ts';
import type { ExpanderOptions } from '../engine/search/parallel/expander.ts';
import { loadModel } from './loadModel.ts';

const input = workerData as { file: string; params: readonly string[]; run?: number; variant: string; search: ExpanderOptions };
const port = parentPort!;
try {
  const model = await loadModel(input.file, input.params, input.run);
  const variant = model.variants.find((v) => v.name === input.variant)!;
  serveExpander(variant, input.search, port, () => port.close());
} catch (e) {
  port.postMessage({ crash: e instanceof Error ? e.message : String(e) });
}
