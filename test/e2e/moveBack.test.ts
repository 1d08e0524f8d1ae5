// models/moveBack.ts with the fixed ordering: the move back to the bootstrap cluster goes through.
// Its figures are the docs record's (test/helpers/moveVariant.ts); the traces were read against
// the model and the real code (docs/moveBack.md).
import { describeModelVariant } from '../helpers/moveVariant.ts';

describeModelVariant('models/moveBack.ts', 'v1.9.5');
