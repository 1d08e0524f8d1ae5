// models/moveBack.ts with the fixed ordering: the move back to the bootstrap cluster goes through.
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the traces were read against the model and the real code (docs/moveBack.md).
// A change that moves them must say why. 2026-12-04: 27,514 -> 45,295 states with generations and the
// locked condition patch (each controller writes its Paused condition again at a new generation).
import { describeModelVariant } from '../helpers/moveVariant.ts';

describeModelVariant('models/moveBack.ts', 'v1.9.5', {
  verdict: 'proved',
  counts: { distinct: 45_295, generated: 206_084, depth: 40 },
  traces: {},
});
