// A benchmark case's helper thread: loads the case's model as bench/one.ts does and expands its
// share of the search (the engine's serveExpander; the CLI's expanderWorker does the same for
// model files).
import { parentPort, workerData } from 'node:worker_threads';
import { serveExpander } from 'modelcheck';
import { CASES } from './cases.ts';

const port = parentPort!;
const { model, variant } = await CASES[workerData.index as number].load();
serveExpander(model.variants.find((x) => x.name === variant)!, { storage: workerData.storage ?? 'auto' }, port, () => port.close());
