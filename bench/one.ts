// Runs one benchmark case in this process (a fresh one per case, so that peak memory is that
// case's own) and prints one JSON line: the search's figures, its time and the process's memory.
// `one.ts INDEX THREADS [STORAGE]`: with THREADS > 1 the search is split among this thread and helper
// threads (bench/helper.ts), which are started, and have loaded the model, before the clock starts.
import { Worker } from 'node:worker_threads';
import { checkVariantParallel, portLink } from 'modelcheck';
import { caseVariant } from './cases.ts';
import { tuneHeap } from '../src/cli/heap.ts';
import { registerModelHooks } from '../bin/layout.js';

// As the CLI does (bin/modelcheck.js), unless asked not to (MODELCHECK_V8_HEAP=default, for an A/B).
if (process.env.MODELCHECK_V8_HEAP !== 'default') tuneHeap();
// The model gets the immutable.js the CLI gives it, its Records FlatRecords (src/engine/values/
// immutableForModels.ts; MODELCHECK_RECORDS=immutable for immutable.js's own): before the case's
// model is imported.
registerModelHooks();
const threads = Number(process.argv[3] ?? 1);
/** Where the frontier is kept (src/engine/search/storage.ts): auto by default; bytes or disk to measure those tiers. */
const storage = (process.argv[4] ?? 'auto') as 'auto' | 'objects' | 'bytes' | 'disk';
const index = Number(process.argv[2]);
const { c, v } = await caseVariant(process.argv[2]);
// Memory before the search: the runtime, the loader and the model's modules.
const helpers = await Promise.all(
  Array.from({ length: threads - 1 }, async () => {
    const worker = new Worker(new URL('./helper.js', import.meta.url), { workerData: { index, storage } });
    await new Promise((resolve) => worker.once('online', resolve));
    return { worker, link: portLink(worker) };
  }),
);
const baseline = process.memoryUsage().rss;
const start = performance.now();
const r = await checkVariantParallel(
  v,
  { storage },
  helpers.map((h) => h.link),
);
for (const h of helpers) void h.worker.terminate();
const seconds = (performance.now() - start) / 1000;
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    name: c.name,
    threads: r.stats.threads?.used ?? 1,
    verdict: r.verdict,
    distinct: r.stats.distinctStates,
    // With symmetry reduction: the states the distinct ones stand for.
    fullStates: r.stats.symmetry?.fullStates ?? null,
    generated: r.stats.statesGenerated,
    depth: r.stats.depth,
    seconds,
    livenessSeconds: r.stats.livenessSeconds ?? 0,
    peakBytes: peak,
    // The visited set and the trace log: what a state costs once it has left the frontier.
    storedBytes: r.stats.storedBytes ?? null,
    searchBytes: peak - baseline,
  }),
);
