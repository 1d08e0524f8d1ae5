import m from '/work/main/models/move.ts';
import { check } from '/work/main/src/index.ts';
const r = check(m);
for (const v of r.variants) {
  console.log(v.variant, v.verdict, v.stats.distinctStates, v.stats.statesGenerated, v.stats.depth, v.stats.seconds.toFixed(2), 'met', v.metExpectations);
  for (const x of v.violations) { console.log('  ', x.property, x.trace.length); console.log(x.trace.map(t => '     ' + t.action).join('\n')); }
}
