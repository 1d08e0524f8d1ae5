// npm run bench:hot -- [INDEX [FILTER]]: what each action's step costs when everything it reads
// is in cache, and what a successor's fingerprint costs then.
//
// Walks the case (bench/cases.ts, 6 by default) breadth first from its initial states until it
// has made 300,000 successors, keeping per action the first 3,000 (state, parameter) pairs that
// made one, and 5,000 successors from the middle of the walk. Then it calls each action's `next`
// on its pairs again and again, and fingerprints the kept successors again and again, and
// prints the best of five rounds in microseconds per call. The steps' memos (the library's
// catch-ups, writes and reconciles) answer every repeated call, so a row is what the step costs
// at best: against `npm run bench:steps`, which times the search's own calls, it tells the
// work a step does from what its memos and the cache save it. FILTER keeps the actions whose
// names contain it. (Eighteenth run, bench/README.md: where the fingerprints' cost was found to
// be instructions, not memory, and the mover's steps to be the API server's work.)
import { Fingerprinter, type Action } from 'modelcheck';
import { caseVariant } from './cases.ts';

const { c, v } = await caseVariant(process.argv[2], 6);
const filter = process.argv[3] ?? '';

const WALK = 300_000;
const PER_ACTION = 3_000;
const KEPT = 5_000;

type Sample = { readonly s: unknown; readonly p: unknown };
const actions = v.actions as readonly Action<unknown, unknown>[];
const samples = actions.map((): Sample[] => []);
const successors: unknown[] = [];
const fingerprints = new Fingerprinter();
const fp = { hi: 0, lo: 0 };
const seen = new Set<string>();

let level: unknown[] = [...v.init()];
for (const s of level) {
  fingerprints.of(s, fp);
  fingerprints.keep();
  seen.add(`${fp.hi}:${fp.lo}`);
}
let made = 0;
walk: while (level.length > 0) {
  const next: unknown[] = [];
  for (const s of level) {
    for (let ai = 0; ai < actions.length; ai++) {
      const a = actions[ai];
      for (const p of a.params ? a.params(s) : [undefined]) {
        const t = a.next(s, p);
        if (t === undefined) continue;
        if (samples[ai].length < PER_ACTION) samples[ai].push({ s, p });
        if (++made > WALK / 2 && successors.length < KEPT) successors.push(t);
        fingerprints.of(t, fp);
        const key = `${fp.hi}:${fp.lo}`;
        // (Past the state constraint a state is counted, never expanded, as in the search: one
        // step more could leave its declared type, a packed clock past its bound.)
        if (!seen.has(key) && (v.constraint === undefined || v.constraint(t))) {
          seen.add(key);
          fingerprints.keep();
          next.push(t);
        }
        if (made >= WALK) break walk;
      }
    }
  }
  level = next;
}

/** The best of five rounds of `passes` passes of `run` over `n` items, in microseconds per item. */
function best(n: number, passes: number, run: () => void): number {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let k = 0; k < passes; k++) run();
    least = Math.min(least, ((performance.now() - t0) * 1000) / (n * passes));
  }
  return least;
}

console.log(
  `${c.name}: ${made.toLocaleString('en-US')} successors walked, each step below repeated on its first ${PER_ACTION.toLocaleString('en-US')}`,
);
console.log('');
console.log('| action | samples | µs per step, hot |');
console.log('|---|---:|---:|');
for (let ai = 0; ai < actions.length; ai++) {
  const a = actions[ai];
  const list = samples[ai];
  if (list.length === 0 || !a.name.includes(filter)) continue;
  const us = best(list.length, 20, () => {
    for (const x of list) a.next(x.s, x.p);
  });
  console.log(`| ${a.name} | ${list.length.toLocaleString('en-US')} | ${us.toFixed(2)} |`);
}
if (successors.length > 0) {
  const again = new Fingerprinter();
  const us = best(successors.length, 20, () => {
    for (const t of successors) again.of(t, fp);
  });
  console.log(`| (a successor's fingerprint) | ${successors.length.toLocaleString('en-US')} | ${us.toFixed(2)} |`);
}
