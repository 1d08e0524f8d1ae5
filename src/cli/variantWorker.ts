// A worker thread that checks one variant and sends back its rendered result. bin/worker.js
// starts it with the tsx loader registered, as bin/modelcheck.js does for the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { Chalk } from 'chalk';
import { checkVariant, type SearchOptions } from '../engine/bfs.ts';
import { simulateVariant } from '../engine/simulate.ts';
import { ModelError } from '../engine/errors.ts';
import { formatError } from '../report/errorText.ts';
import { loadModel } from './loadModel.ts';
import { renderVariant, type RenderOptions } from './render.ts';

/** The search options that cross into a worker: plain data, and the shared interrupt flag. */
export type WorkerSearchOptions = Omit<SearchOptions, 'modelName' | 'onProgress'>;

export interface WorkerInput {
  readonly file: string;
  readonly variant: string;
  readonly search: WorkerSearchOptions;
  /** Draw random runs instead of searching every state. */
  readonly simulate?: { readonly runs: number; readonly depth: number; readonly seed: number };
  readonly render: RenderOptions;
}

const input = workerData as WorkerInput;
const port = parentPort!;
try {
  const model = await loadModel(input.file);
  const variant = model.variants.find((v) => v.name === input.variant)!;
  const result = input.simulate
    ? simulateVariant(variant, { ...input.simulate, ...input.search, modelName: model.name })
    : checkVariant(variant, {
        ...input.search,
        modelName: model.name,
        onProgress: (p) => port.postMessage({ kind: 'progress', progress: p }),
      });
  port.postMessage({ kind: 'done', rendered: renderVariant(result, input.render, variant) });
} catch (e) {
  if (e instanceof ModelError) {
    port.postMessage({ kind: 'modelError', text: formatError(e, input.file, new Chalk({ level: input.render.colorLevel })) });
  } else {
    port.postMessage({ kind: 'crash', text: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
}
