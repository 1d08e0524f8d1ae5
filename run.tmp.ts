import m from './models/move.ts';
import { check } from './src/index.ts';
const r = check(m, { variant: process.argv[2] ?? 'v1.9.3', maxStates: Number(process.argv[3] ?? 200000), onProgress: (p) => console.error(JSON.stringify(p)) });
for (const v of r.variants) {
  console.log(v.variant, v.verdict, v.stats.distinctStates, v.stats.statesGenerated, v.stats.depth, v.stats.seconds.toFixed(2), 'met', v.metExpectations);
  console.log(v.stats.coverage.map(c => `${c.action} ${c.enabled} ${c.newStates}`).join('\n'));
  for (const x of v.violations) { console.log('  ', x.property, x.trace.length); console.log(x.trace.map(t => '     ' + t.action).join('\n')); }
}
