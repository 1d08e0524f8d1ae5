// A worker thread that type-checks the model while the search runs beside it: the compiler
// takes seconds, which a run should not wait for before it starts searching.
import { parentPort, workerData } from 'node:worker_threads';
import { keepCompiledCompiler } from './compiler.ts';
import { typecheckModel } from './typecheck.ts';

const { file } = workerData as { file: string };
try {
  const errors = typecheckModel(file);
  keepCompiledCompiler();
  parentPort!.postMessage({ kind: 'done', errors });
} catch (e) {
  parentPort!.postMessage({ kind: 'crash', text: e instanceof Error ? (e.stack ?? e.message) : String(e) });
}
