// models/moveBack.ts with the v1.9.3 ordering (2 million states, the slow tier): the first move leaves
// the MachineDeployment deleting with one of its two finalizers, and the move back's update is refused
// with 422 (issue #11809).
// Its figures are the docs record's (test/helpers/moveVariant.ts); the traces were read against
// the model and the real code (docs/moveBack.md; what the second reading changed:
// docs/second-reading.md).
import { describeModelVariant } from '../helpers/moveVariant.ts';

describeModelVariant('models/moveBack.ts', 'v1.9.3');
