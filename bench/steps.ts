// npm run bench:steps -- INDEX: where one benchmark case's successors cost their time, by action.
//
// Runs the case (bench/cases.ts) on one thread with each action's `next` wrapped: the wrapper
// times the step as the search makes it, then fingerprints the successor at once with a
// fingerprinter of its own, before the search does (so it pays what the search would: the
// successor's new parts are digested, its parent's are read). Prints, per action, its
// successors, the microseconds a call of its `next` takes (a disabled one included) and the
// fingerprint of one successor takes, and the seconds they add up to. The search then
// fingerprints each successor again, with the wrappers' cost on top: its time here is not the
// bench's (bench/one.ts). The rows are for comparing actions, and for A/B runs of one action's
// code taking turns, not for absolute speed.
import { checkVariantParallel, Fingerprinter, type Action } from 'modelcheck';
import { tuneHeap } from '../src/cli/heap.ts';
import { caseVariant } from './cases.ts';

if (process.env.MODELCHECK_V8_HEAP !== 'default') tuneHeap();
const { c, v } = await caseVariant(process.argv[2], 6);

interface Row {
  readonly name: string;
  /** Calls of next, enabled or not. */
  calls: number;
  /** Successors made (next gave a state). */
  made: number;
  /** Milliseconds in next, and fingerprinting the successors again. */
  makeMs: number;
  fingerprintMs: number;
}
const rows: Row[] = [];
const again = new Fingerprinter();
const fp = { hi: 0, lo: 0 };
function timed<S>(a: Action<S, unknown>): Action<S, unknown> {
  const row: Row = { name: a.name, calls: 0, made: 0, makeMs: 0, fingerprintMs: 0 };
  rows.push(row);
  const next = a.next;
  return {
    ...a,
    next: (s, p, events) => {
      const t0 = performance.now();
      const t = next(s, p, events);
      const t1 = performance.now();
      row.calls++;
      row.makeMs += t1 - t0;
      if (t !== undefined && events === undefined) {
        again.of(t, fp);
        row.fingerprintMs += performance.now() - t1;
        row.made++;
      }
      return t;
    },
  };
}

const start = performance.now();
const r = await checkVariantParallel({ ...v, actions: v.actions.map((a) => timed(a)) }, {}, []);
const seconds = (performance.now() - start) / 1000;

const made = rows.reduce((n, x) => n + x.made, 0);
const us = (ms: number, n: number) => (n === 0 ? '-' : ((1000 * ms) / n).toFixed(2));
console.log(
  `${c.name}: ${r.stats.distinctStates.toLocaleString('en-US')} distinct states, ${made.toLocaleString('en-US')} successors made, ` +
    `${seconds.toFixed(1)} s with the timers (one thread); ${r.verdict}`,
);
console.log('');
console.log('| action | successors | share | µs to make | µs to fingerprint | seconds |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const x of [...rows].sort((a, b) => b.makeMs + b.fingerprintMs - (a.makeMs + a.fingerprintMs))) {
  if (x.calls === 0) continue;
  console.log(
    `| ${x.name} | ${x.made.toLocaleString('en-US')} | ${((100 * x.made) / Math.max(1, made)).toFixed(1)}% | ${us(x.makeMs, x.calls)} | ` +
      `${us(x.fingerprintMs, x.made)} | ${((x.makeMs + x.fingerprintMs) / 1000).toFixed(2)} |`,
  );
}
const makeMs = rows.reduce((n, x) => n + x.makeMs, 0);
const fingerprintMs = rows.reduce((n, x) => n + x.fingerprintMs, 0);
const calls = rows.reduce((n, x) => n + x.calls, 0);
console.log(
  `| all | ${made.toLocaleString('en-US')} | 100% | ${us(makeMs, calls)} | ${us(fingerprintMs, made)} | ${((makeMs + fingerprintMs) / 1000).toFixed(2)} |`,
);
