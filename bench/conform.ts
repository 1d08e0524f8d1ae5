// Checking recorded runs against a model (issue 48, part 3), timed: every counterexample that
// docs/move.manifest.json records, written as its two API servers' audit logs, followed through
// its variant; and a 10,000-write run of test/fixtures/k8s/toggler.ts. One process, one thread;
// the figures go to bench/README.md. `npm run bench:conform`.
import { readFileSync } from 'node:fs';
import { k8s, type StepEvent, type Variant } from 'modelcheck';
import model from '../models/move.ts';
import { PathReplayer } from '../src/engine/search/replay.ts';
import { toggler } from '../test/fixtures/k8s/toggler.ts';

const manifest = JSON.parse(readFileSync('docs/move.manifest.json', 'utf8')) as {
  variants: Record<string, { violations?: { init: number; steps: string[]; loopAction: string | null }[] }>;
};

let logs = 0;
let writes = 0;
let states = 0;
let slowest = 0;
const start = performance.now();
for (const [name, record] of Object.entries(manifest.variants)) {
  const variant = model.variants.find((v) => v.name === name)! as Variant<unknown>;
  const { kinds } = k8s.serversAndKinds(variant);
  for (const v of record.violations ?? []) {
    const replayed = new PathReplayer(variant).replay(v.init, v.steps, v.loopAction ?? undefined);
    if (!('trace' in replayed)) throw new Error(`${name}: ${replayed.why}`);
    const steps = [...replayed.trace.slice(1), ...(replayed.closing ? [replayed.closing] : [])];
    const t0 = performance.now();
    const run = k8s.checkRecordedRun(
      variant,
      [...k8s.auditLogsOf(steps)].map(([server, log]) => ({ server, log })),
      { kinds: new Set(kinds) },
    );
    slowest = Math.max(slowest, performance.now() - t0);
    if (run.result.verdict !== 'conforms') throw new Error(`${name}: ${run.result.verdict}`);
    logs++;
    writes += run.observations.length;
    states += run.result.states;
  }
}
const moveSeconds = (performance.now() - start) / 1000;

// The toggler: one behaviour of 10,000 writes, walked step by step.
const variant = toggler() as Variant<unknown>;
const steps: { action: string; events: StepEvent[] }[] = [];
let s = [...variant.init()][0];
let sent = 0;
while (sent < 10_000) {
  const a = variant.actions.find((x) => [...(x.params ? x.params(s) : [undefined])].some((p) => x.next(s, p) !== undefined))!;
  const p = [...(a.params ? a.params(s) : [undefined])].find((q) => a.next(s, q) !== undefined);
  const events: StepEvent[] = [];
  s = a.next(s, p, events)!;
  steps.push({ action: a.name, events });
  sent += events.filter((e) => e.kind === 'request').length;
}
const log = k8s.auditLogsOf(steps).get('main')!;
const t0 = performance.now();
const long = k8s.checkRecordedRun(variant, [{ server: 'main', log }], { kinds: new Set(['Thing']) });
const longSeconds = (performance.now() - t0) / 1000;

console.log(
  `move counterexamples: ${logs} logs, ${writes} recorded writes, ${states.toLocaleString('en-US')} states followed, ${moveSeconds.toFixed(1)} s (slowest log ${(slowest / 1000).toFixed(1)} s), all conform`,
);
console.log(
  `toggler: ${log.events.length.toLocaleString('en-US')} recorded writes, ${long.result.states.toLocaleString('en-US')} states followed, ${longSeconds.toFixed(2)} s: ${long.result.verdict}`,
);
