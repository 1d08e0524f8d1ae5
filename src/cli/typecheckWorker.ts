// A worker thread that type-checks the model while the search runs beside it: the compiler
// takes seconds, which a run should not wait for before it starts searching. It checks again at
// each message, on the last check's program (typecheck.ts, createTypechecker), until the thread
// that started it lets it go (workerPool.ts, KeptTypechecker).
import { parentPort, workerData } from 'node:worker_threads';
import { keepCompiledCompiler } from './compiler.ts';
import { createTypechecker } from './typecheck.ts';

const port = parentPort!;
const { file } = workerData as { file: string };
const check = createTypechecker();

function answer(model: string): void {
  try {
    const errors = check(model);
    keepCompiledCompiler();
    port.postMessage({ kind: 'done', errors });
  } catch (e) {
    port.postMessage({ kind: 'crash', text: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
}

answer(file);
port.on('message', (m: { file: string }) => answer(m.file));
