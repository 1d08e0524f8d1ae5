// Worker threads do not inherit the main thread's loader: register tsx here too. A worker
// either searches one variant or type-checks the model (workerData.task).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData?.task === 'typecheck' ? '../src/cli/typecheckWorker.ts' : '../src/cli/variantWorker.ts');
