// models/bugs/casskop370.ts, Orange-OpenSource/casskop#370 and its fix (PR #377): without a crash
// the scale-down completes in both versions; with one crash the code as it was strands it as the
// issue reports (Ongoing stored on a pod that is gone), and the fix closes that window but not
// another, a crash after the decommission starts and before Ongoing is written, which the search
// finds in both (docs/casskop370.md). The figures are the docs record's; the traces were read
// against the code cited in the model file.
import { describeModelVariant } from '../helpers/moveVariant.ts';

for (const variant of ['82bcb0c9', '82bcb0c9.crash', 'b1a6a14f', 'b1a6a14f.crash']) {
  describeModelVariant('models/bugs/casskop370.ts', variant);
}
