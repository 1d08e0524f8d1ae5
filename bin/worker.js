// A worker thread searches one variant, expands a share of a variant's search for the thread that
// coordinates it, or type-checks the model (workerData.task). Worker threads do not inherit the
// main thread's loaders: registerLoaders again.
import { workerData } from 'node:worker_threads';
import { own, registerLoaders } from './layout.js';

registerLoaders();
const task = workerData?.task;
await import(own(task === 'typecheck' ? 'cli/typecheckWorker' : task === 'expander' ? 'cli/expanderWorker' : 'cli/variantWorker'));
