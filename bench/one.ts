// Runs one benchmark case in this process (a fresh one per case, so that peak memory is that
// case's own) and prints one JSON line: the search's figures, its time and the process's memory.
import { checkVariant } from 'modelcheck';
import { CASES } from './cases.ts';

const index = Number(process.argv[2]);
const c = CASES[index];
if (!c) throw new Error(`no benchmark case ${process.argv[2]}`);
const { model, variant } = await c.load();
const v = model.variants.find((x) => x.name === variant);
if (!v) throw new Error(`${model.name} has no variant ${variant}`);
// Memory before the search: the runtime, the loader and the model's modules.
const baseline = process.memoryUsage().rss;
const start = performance.now();
const r = checkVariant(v);
const seconds = (performance.now() - start) / 1000;
const peak = process.resourceUsage().maxRSS * 1024;
console.log(
  JSON.stringify({
    name: c.name,
    verdict: r.verdict,
    distinct: r.stats.distinctStates,
    // With symmetry reduction: the states the distinct ones stand for.
    fullStates: r.stats.symmetry?.fullStates ?? null,
    generated: r.stats.statesGenerated,
    depth: r.stats.depth,
    seconds,
    livenessSeconds: r.stats.livenessSeconds ?? 0,
    peakBytes: peak,
    searchBytes: peak - baseline,
  }),
);
