// Worker threads do not inherit the main thread's loader: register tsx here too. A worker
// searches one variant, expands a share of a variant's search for the thread that coordinates
// it, or type-checks the model (workerData.task).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
const task = workerData?.task;
await import(
  task === 'typecheck'
    ? '../src/cli/typecheckWorker.ts'
    : task === 'expander'
      ? '../src/cli/expanderWorker.ts'
      : '../src/cli/variantWorker.ts'
);
