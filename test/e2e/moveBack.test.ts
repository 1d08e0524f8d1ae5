// models/moveBack.ts with the fixed ordering: the move back to the bootstrap cluster goes through.
// The figures come from the runs these assertions were written against (2026-12-03), each a
// complete search; the traces were read against the model and the real code (docs/moveBack.md).
// A change that moves them must say why.
import { describeModelVariant } from '../helpers/moveVariant.ts';

describeModelVariant('models/moveBack.ts', 'v1.9.5', {
  verdict: 'proved',
  counts: {
    distinct: 27514,
    generated: 124671,
    depth: 40,
  },
  traces: {},
});
